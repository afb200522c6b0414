"""Toy Battle behind the game protocol (:mod:`games.protocol`), game name ``"toy-battle"``.

Setup request (what the phone sends, companion/views/toy-battle/view.js)::

    {"type": "setup", "terrain": "castle"|"pool"|"clouds"|"jungle"|"cemetery"|"caribbean"
     |"station"|"battlefield", "variant": {flag: bool, ...}}

The server rolls one 2-sided die for the starting player (TB-3, D7); the logged setup event is
``{"terrain", "variant", "first_player"}``. Actions: ``draw``, ``place`` (``troop``, ``node``),
``resolve`` (``node``/``to``/``troop`` as the effect needs), ``decline``, ``stuck``
(:mod:`games.toybattle.rules`). The view adds the terrain's drawing data
(:meth:`games.toybattle.terrains.Terrain.to_json`) to ``state`` and ``legal``. Nothing is
hidden: the racks are counts (the tiles are in the players' hands).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.protocol import (
    DiceRequest,
    Faces,
    Game,
    MalformedAction,
    Outcome,
    StateError,
    check_faces,
)
from games.toybattle import actions as moves
from games.toybattle import effects, rules
from games.toybattle import state as table
from games.toybattle.cards import CARDS
from games.toybattle.terrains import TERRAINS

MARKS = {troop: rules.troop_mark(troop) for troop in rules.TROOPS}
"""Troop type -> its one-character mark on the phone (``J`` for Kwak, as printed)."""

PURPOSE_FIRST_PLAYER = "starting player (TB-3)"
"""Purpose of the setup roll; the phone translates it."""
_SETUP_FIELDS = {"type", "terrain", "variant"}


@dataclass(frozen=True, kw_only=True)
class Setup:
    """A parsed setup request: the terrain slug and the variant flags."""

    terrain: str
    variant: rules.Variant


class ToyBattleGame(Game[table.State, moves.Action, Setup]):
    """Toy Battle (rules: shared/rules/toy-battle.md, TB-1..TB-41) for the companion."""

    name = CARDS.slug
    rule_prefix = "TB"
    action_types = moves.TYPES

    def parse_setup(self, data: Any) -> Setup:
        """Parse ``{"type": "setup", "terrain", "variant"?}``.

        Raises:
            MalformedAction: not an object, an unknown field, terrain or variant flag.
        """
        if not isinstance(data, dict):
            raise MalformedAction("a setup must be a JSON object")
        extra = set(data) - _SETUP_FIELDS
        if extra:
            raise MalformedAction(
                f"setup takes the fields {sorted(_SETUP_FIELDS)}, got {sorted(extra)}"
            )
        terrain = data.get("terrain")
        if not isinstance(terrain, str) or terrain not in TERRAINS:
            raise MalformedAction(f"terrain must be one of {list(TERRAINS)}, got {terrain!r:.40}")
        return Setup(terrain=str(terrain), variant=rules.variant_from_json(data.get("variant")))

    def example_setups(self) -> list[dict[str, Any]]:
        """Every terrain with the default flags, and every flag flipped on the terrain where
        it matters."""
        flipped = {
            "pool": {"kwak_on_restricted": True},
            "jungle": {"jungle_onto_hq": True, "captures_after_effects": False},
            "station": {"hook_ignores_metal_x": True},
            "castle": {"covered_troop_triggers_base": True, "opponent_captures_at_once": True},
        }
        setups: list[dict[str, Any]] = [{"type": "setup", "terrain": t} for t in TERRAINS]
        setups += [{"type": "setup", "terrain": t, "variant": v} for t, v in flipped.items()]
        return setups

    def setup_to_json(self, setup: Setup) -> dict[str, Any]:
        """``{"terrain", "variant"}`` with every flag."""
        return {"terrain": setup.terrain, "variant": rules.variant_to_json(setup.variant)}

    def setup_dice(self, setup: Setup) -> tuple[DiceRequest, ...]:
        """One 2-sided die: 1 = seat A starts, 2 = seat B (TB-3)."""
        return (DiceRequest(count=1, sides=2, purpose=PURPOSE_FIRST_PLAYER),)

    def setup_event(self, setup: Setup, faces: Faces) -> dict[str, Any]:
        """``{"terrain", "variant", "first_player"}``.

        Raises:
            MalformedAction: faces that do not answer :meth:`setup_dice`.
        """
        check_faces(self.setup_dice(setup), faces)
        return {
            "terrain": setup.terrain,
            "variant": rules.variant_to_json(setup.variant),
            "first_player": "A" if faces[0][0] == 1 else "B",
        }

    def start(self, event: Mapping[str, Any]) -> table.State:
        """:func:`games.toybattle.state.new_game` from a logged setup event.

        Raises:
            StateError: not a Toy Battle setup event.
        """
        try:
            return table.new_game(
                terrain=event["terrain"],
                variant=rules.Variant(**event["variant"]),
                first_player=event["first_player"],
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"not a Toy Battle setup event: {exc}") from exc

    def parse_action(self, data: Any) -> moves.Action:
        """:func:`games.toybattle.actions.action_from_json`.

        Raises:
            MalformedAction: not a Toy Battle action.
        """
        return moves.action_from_json(data)

    def action_to_json(self, action: moves.Action) -> dict[str, Any]:
        """:func:`games.toybattle.actions.action_to_json`."""
        return moves.action_to_json(action)

    def legal_actions(self, state: table.State, seat: str) -> Sequence[moves.Action]:
        """:func:`effects.legal_actions` for the player to move; nothing for the other seat."""
        if state.ended is not None or seat != state.player:
            return []
        return effects.legal_actions(state)

    def apply(
        self, state: table.State, seat: str, action: moves.Action, faces: Faces = ()
    ) -> table.State:
        """:func:`effects.apply`.

        Raises:
            MalformedAction: dice faces given (Toy Battle actions roll none).
            NotYourTurn: ``seat`` is not the player to move.
            IllegalAction: the rules forbid it (TB-n in the message).
        """
        if faces:
            raise MalformedAction("Toy Battle actions roll no dice")
        return effects.apply(state, seat, action)

    def to_act(self, state: table.State) -> str | None:
        """The player to move, None once the game has ended."""
        return None if state.ended is not None else state.player

    def turn(self, state: table.State) -> int:
        """``state.turn`` (one seat's turn each; effects stay in the turn)."""
        return state.turn

    def outcome(self, state: table.State) -> Outcome | None:
        """The winner, the reason code and the rule; the medals as the score."""
        if state.ended is None:
            return None
        return Outcome(
            winner=state.ended.winner,
            reason=state.ended.reason,
            rule=state.ended.rule,
            score={"A": state.seat("A").medals, "B": state.seat("B").medals},
        )

    def state_to_json(self, state: table.State) -> dict[str, Any]:
        """:func:`games.toybattle.state.state_to_json`."""
        return table.state_to_json(state)

    def state_from_json(self, data: Any) -> table.State:
        """:func:`games.toybattle.state.state_from_json`.

        Raises:
            StateError: not a consistent Toy Battle state.
        """
        if not isinstance(data, dict):
            raise StateError("a Toy Battle state must be a JSON object")
        return table.state_from_json(data)

    def view(self, state: table.State, seat: str | None) -> dict[str, Any]:
        """``{"state", "legal", "terrain", "marks"}``: the whole table (nothing is hidden), the
        legal actions of the seat to act, the terrain's drawing data, and each troop type's
        one-character mark as the printed cards show it (:func:`~games.toybattle.rules.troop_mark`:
        ``J`` for Kwak)."""
        actor = self.to_act(state)
        legal = [] if actor is None else self.legal_actions(state, actor)
        return {
            "state": self.state_to_json(state),
            "legal": [self.action_to_json(a) for a in legal],
            "terrain": TERRAINS[state.terrain].to_json(),
            "marks": MARKS,
        }


GAME = ToyBattleGame()
"""The registered instance."""
