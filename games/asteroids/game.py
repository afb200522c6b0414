"""Asteroids behind the game protocol (:mod:`games.protocol`).

A thin adapter over the rules engine (:mod:`games.asteroids.state`, :mod:`.actions`,
:mod:`.rules`): the engine keeps its own types and errors (``state.MalformedAction`` and
``state.IllegalAction`` are translated to the protocol's), and this module adds what the
companion needs: the setup request and its dice (the layout of AST-4, the starting player of
AST-5), the seat check, and the view.

Setup request (``{"type": "setup", ...}``): ``mode`` is ``"random"`` (the server rolls 28 dice
of :data:`games.asteroids.state.LAYOUT_DIE_SIDES` sides for the layout) or ``"manual"``
(``rifts``: the layout the players built, 6 x 4 of ``"HH"``/``"HA"``/``"AH"``); ``variant``
holds the variant flags (:func:`games.asteroids.state.variant_from_json`). Both modes roll a
2-sided die for the starting player. The logged setup event is ``{"layout", "variant",
"first_player", "mode"}`` (the form older logs hold too, so they fold unchanged).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.asteroids import actions as moves
from games.asteroids import rules
from games.asteroids import state as table
from games.asteroids.messages import MESSAGES
from games.asteroids.spec import ASTEROIDS, Variant
from games.protocol import (
    DiceRequest,
    Faces,
    Game,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    Outcome,
    SetupError,
    StateError,
    check_faces,
)

PURPOSE_LAYOUT = "layout (AST-4)"
PURPOSE_FIRST_PLAYER = "starting player (AST-5)"
"""Purposes of the server's own rolls; the phone shows them translated."""
_SETUP_FIELDS = {"type", "mode", "rifts", "variant"}


@dataclass(frozen=True, kw_only=True)
class Setup:
    """A parsed setup request.

    Attributes:
        mode: ``"random"`` or ``"manual"``.
        variant: the variant flags.
        layout: the players' layout in manual mode (checked against AST-2/AST-3), else None.
    """

    mode: str
    variant: Variant
    layout: table.Layout | None


class AsteroidsGame(Game[table.State, moves.Action, Setup]):
    """Asteroids (rules: shared/rules/asteroids.md, AST-1..AST-30) for the companion."""

    name = "asteroids"
    rule_prefix = "AST"
    action_types = moves.TYPES

    def parse_setup(self, data: Any) -> Setup:
        """Parse ``{"mode", "rifts"?, "variant"?}``.

        Raises:
            MalformedAction: unknown mode, variant flags of the wrong type.
            SetupError: a manual layout that breaks AST-2 or AST-3.
        """
        if not isinstance(data, dict):
            raise MalformedAction("a setup must be a JSON object")
        mode = data.get("mode")
        try:
            variant = table.variant_from_json(data.get("variant", {}))
        except table.MalformedAction as exc:
            raise MalformedAction(str(exc)) from exc
        if mode == "random":
            return Setup(mode=mode, variant=variant, layout=None)
        if mode == "manual":
            try:
                layout = table.Layout.from_json({"rifts": data.get("rifts")})
            except table.LayoutError as exc:
                if exc.rule is None:  # not a layout at all: wrong shapes or names
                    raise MalformedAction(str(exc)) from exc
                raise SetupError(
                    str(exc), rule=exc.rule, message_id=exc.message_id, values=exc.values
                ) from exc
            return Setup(mode=mode, variant=variant, layout=layout)
        shown = repr(mode)[:60]
        raise MalformedAction(f"mode must be random or manual, got {shown}")

    def example_setups(self) -> list[dict[str, Any]]:
        """A random layout with the default variant, one with every flag flipped, and a
        manual layout."""
        flipped = {
            "jump_mandatory": True,
            "stack_on_enemy": False,
            "immediate_repush": False,
            "ships_in_play": 7,
            "scored_ships_mobile": True,
        }
        built = [["HH", "HA", "HH", "AH"]] * table.RIFTS
        return [
            {"type": "setup", "mode": "random"},
            {"type": "setup", "mode": "random", "variant": flipped},
            {"type": "setup", "mode": "manual", "rifts": built},
        ]

    def setup_to_json(self, setup: Setup) -> dict[str, Any]:
        """``{"mode", "variant", "rifts"}`` (rifts None in random mode)."""
        rifts = None if setup.layout is None else setup.layout.to_json()["rifts"]
        return {"mode": setup.mode, "variant": table.variant_to_json(setup.variant), "rifts": rifts}

    def setup_dice(self, setup: Setup) -> tuple[DiceRequest, ...]:
        """The layout dice (random mode, AST-4) and the starting player's die (AST-5)."""
        first = DiceRequest(count=1, sides=2, purpose=PURPOSE_FIRST_PLAYER)
        if setup.layout is not None:
            return (first,)
        layout = DiceRequest(
            count=ASTEROIDS.fragment_total, sides=table.LAYOUT_DIE_SIDES, purpose=PURPOSE_LAYOUT
        )
        return (layout, first)

    def setup_event(self, setup: Setup, faces: Faces) -> dict[str, Any]:
        """``{"layout", "variant", "first_player", "mode"}`` with the dice resolved."""
        check_faces(self.setup_dice(setup), faces)
        layout = setup.layout or table.random_layout(list(faces[0]))
        return {
            "layout": layout.to_json(),
            "variant": table.variant_to_json(setup.variant),
            "first_player": table.first_player_from_face(faces[-1][0]),
            "mode": setup.mode,
        }

    def start(self, event: Mapping[str, Any]) -> table.State:
        """:func:`games.asteroids.state.new_game` from a logged setup event.

        Raises:
            StateError: not an Asteroids setup event.
        """
        try:
            return table.new_game(
                layout=table.Layout.from_json(event["layout"]),
                first_player=event["first_player"],
                variant=Variant(**event["variant"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"not an Asteroids setup event: {exc}") from exc

    def parse_action(self, data: Any) -> moves.Action:
        """:func:`games.asteroids.actions.action_from_json`.

        Raises:
            MalformedAction: not a move, skip or push.
        """
        try:
            return moves.action_from_json(data)
        except table.MalformedAction as exc:
            raise MalformedAction(str(exc)) from exc

    def action_to_json(self, action: moves.Action) -> dict[str, Any]:
        """:func:`games.asteroids.actions.action_to_json`."""
        return moves.action_to_json(action)

    def legal_actions(self, state: table.State, seat: str) -> Sequence[moves.Action]:
        """:func:`rules.legal_actions` for the player to move; nothing for the other seat."""
        if state.phase == "over" or seat != state.player:
            return []
        return rules.legal_actions(state)

    def apply(
        self, state: table.State, seat: str, action: moves.Action, faces: Faces = ()
    ) -> table.State:
        """:func:`rules.apply` by the player to move.

        Raises:
            MalformedAction: dice faces given (Asteroids actions roll none).
            NotYourTurn: ``seat`` is not the player to move.
            IllegalAction: the rules forbid it (AST-n in the message).
        """
        if faces:
            raise MalformedAction("Asteroids actions roll no dice")
        if state.phase != "over" and seat != state.player:
            raise MESSAGES.error("not_your_turn", "AST-10", NotYourTurn, player=state.player)
        try:
            return rules.apply(state, action)
        except table.MalformedAction as exc:
            raise MalformedAction(str(exc)) from exc
        except table.IllegalAction as exc:
            raise IllegalAction(
                str(exc), rule=exc.rule, message_id=exc.message_id, values=exc.values
            ) from exc

    def to_act(self, state: table.State) -> str | None:
        """The player to move, None once a player has 5 ships home (AST-30)."""
        return None if state.phase == "over" else state.player

    def turn(self, state: table.State) -> int:
        """``state.turn``: one turn is step, step, push (AST-10)."""
        return state.turn

    def outcome(self, state: table.State) -> Outcome | None:
        """The winner with 5 ships in the opposing base (AST-30)."""
        ended = rules.outcome(state)
        if ended is None:
            return None
        return Outcome(winner=ended.winner, reason="five_ships", rule="AST-30", score=ended.score)

    def state_to_json(self, state: table.State) -> dict[str, Any]:
        """:func:`games.asteroids.state.state_to_json`."""
        return table.state_to_json(state)

    def state_from_json(self, data: Any) -> table.State:
        """:func:`games.asteroids.state.state_from_json`.

        Raises:
            StateError: not a consistent Asteroids state.
        """
        try:
            return table.state_from_json(data)
        except table.StateError as exc:
            raise StateError(str(exc)) from exc


GAME = AsteroidsGame()
"""The registered instance."""
