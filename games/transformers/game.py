"""Transformers TCG behind the game protocol (:mod:`games.protocol`).

A thin adapter over :mod:`games.transformers.rules`, :mod:`.actions`, :mod:`.codec` (JSON),
:mod:`.team` (TF-3, TF-5, decks) and :mod:`.view` (the phones' view).

Setup request: ``{"type": "setup", "variant": {"count_battle_stars", "must_attack",
"untap_all"}}`` (flags optional; the defaults are the seed's reading: ``count_battle_stars``
False, ``must_attack`` True (D9), ``untap_all`` True = TF-25, without which no game can
end). The logged setup event
is ``{"variant": {...}}``; the table then waits for both teams (``team`` actions, D1). The
second team's action rolls 1d2 for the starting player (TF-5; 1 = A, 2 = B).
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
    SetupError,
    StateError,
    check_faces,
)
from games.transformers import actions, codec, rules, team
from games.transformers.actions import Action
from games.transformers.cards import CARDS
from games.transformers.codec import Invalid
from games.transformers.state import State, Variant
from games.transformers.view import event_view, view_state

FIRST_PLAYER = DiceRequest(count=1, sides=2, purpose=team.PURPOSE_FIRST_PLAYER)
"""The server's roll for the starting player (TF-5)."""


@dataclass(frozen=True, kw_only=True)
class Setup:
    """A parsed setup request: the variant flags."""

    variant: Variant


class TransformersGame(Game[State, Action, Setup]):
    """Transformers TCG (rules: shared/rules/transformers.md, TF-1..TF-40) for the companion."""

    name = CARDS.slug
    rule_prefix = "TF"
    action_types = actions.TYPES
    deck_game = CARDS.slug
    hidden_information = True
    """A team's deck list reaches only its owner's phone (:mod:`games.transformers.view`)."""

    # ----------------------------------------------------------------------------- setup

    def parse_setup(self, data: Any) -> Setup:
        """Parse ``{"type": "setup", "variant"?}``.

        Raises:
            MalformedAction: not an object, an unknown field or flag, a flag not a bool.
        """
        try:
            found = codec.obj(data, "setup", set(), {"type", "variant"})
            return Setup(variant=codec.variant_from_json(found.get("variant")))
        except Invalid as exc:
            raise MalformedAction(str(exc)) from exc

    def example_setups(self) -> list[dict[str, Any]]:
        """The defaults, every official flag on, and the former defaults (no untap step,
        attacking optional)."""
        every = {"count_battle_stars": True, "must_attack": True, "untap_all": True}
        return [
            {"type": "setup"},
            {"type": "setup", "variant": every},
            {"type": "setup", "variant": {"untap_all": False, "must_attack": False}},
        ]

    def setup_to_json(self, setup: Setup) -> dict[str, Any]:
        """``{"variant": {...}}`` with every flag."""
        return {"variant": codec.variant_to_json(setup.variant)}

    def setup_event(self, setup: Setup, faces: Faces) -> dict[str, Any]:
        """``{"variant": {...}}`` (no dice: the starting player is rolled with the teams)."""
        check_faces((), faces)
        return {"variant": codec.variant_to_json(setup.variant)}

    def start(self, event: Mapping[str, Any]) -> State:
        """The empty table waiting for the teams.

        Raises:
            StateError: not a Transformers setup event.
        """
        try:
            found = codec.obj(dict(event), "setup event", {"variant"}, {"request"})
            return State(variant=codec.variant_from_json(found["variant"]))
        except (Invalid, TypeError) as exc:
            raise StateError(f"not a Transformers setup event: {exc}") from exc

    # --------------------------------------------------------------------------- actions

    def parse_action(self, data: Any) -> Action:
        """:func:`actions.action_from_json`.

        Raises:
            MalformedAction: not a Transformers action.
        """
        return actions.action_from_json(data)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        """:func:`actions.action_to_json`."""
        return actions.action_to_json(action)

    def legal_actions(self, state: State, seat: str) -> Sequence[Action]:
        """:func:`rules.legal_actions`."""
        return rules.legal_actions(state, seat)

    def dice_for(self, state: State, seat: str, action: Action) -> tuple[DiceRequest, ...]:
        """1d2 for the starting player when ``action`` brings the second team (TF-5).

        Raises:
            IllegalAction: the action is illegal now (checked before anything is rolled).
        """
        if not rules.needs_first_player(state, seat, action):
            return ()
        rules.check_seat(state, seat, action)
        assert isinstance(action, team.BringTeam)
        team.check_bring(state, seat, action)
        return (FIRST_PLAYER,)

    def apply(self, state: State, seat: str, action: Action, faces: Faces = ()) -> State:
        """:func:`rules.apply` with the starting player's die where it was rolled.

        Raises:
            MalformedAction: faces that do not answer :meth:`dice_for`.
            NotYourTurn: another seat is to act.
            IllegalAction: the rules forbid it (TF-n in the message).
        """
        if rules.needs_first_player(state, seat, action):
            check_faces((FIRST_PLAYER,), faces)
            return rules.apply(state, seat, action, faces[0][0])
        check_faces((), faces)
        return rules.apply(state, seat, action)

    def commutes(self, action: Action, seat: str, other: Action, other_seat: str) -> bool:
        """Damage counters on two different characters are independent: either seat places
        them at any time (D14, TF-30), and one character's counters, its KO included (D15),
        change neither the other character nor whether counters may go on it (a KO that ends
        the game, TF-40, refuses the later counter in either order). Counters on the same
        character do not commute (both phones saw the same hit: one is refused, never counted
        twice), nor does anything else.
        """
        return (
            isinstance(action, actions.Counters)
            and isinstance(other, actions.Counters)
            and action.character != other.character
        )

    def to_act(self, state: State) -> str | None:
        """The player to act (in the team phase the first seat without a team); None once
        a team is all KO'd (TF-40)."""
        return None if state.phase == "over" else state.player

    def started(self, state: State) -> bool:
        """Begun once both teams are in (the ``team`` phase is over)."""
        return state.phase != "team"

    def turn(self, state: State) -> int:
        """``state.turn`` (1: the starting player's first turn, D6)."""
        return state.turn

    def outcome(self, state: State) -> Outcome | None:
        """TF-40: the player whose characters are all KO'd loses."""
        if state.winner is None:
            return None
        ko = {
            seat: sum(1 for c in state.characters if c.seat != seat and c.zone == "ko")
            for seat in ("A", "B")
        }
        return Outcome(winner=state.winner, reason="all_ko", rule="TF-40", score=ko)

    # ------------------------------------------------------------------------------ JSON

    def state_to_json(self, state: State) -> dict[str, Any]:
        """:func:`codec.state_to_json`."""
        return codec.state_to_json(state)

    def state_from_json(self, data: Any) -> State:
        """:func:`codec.state_from_json`.

        Raises:
            StateError: not a consistent Transformers state.
        """
        try:
            return codec.state_from_json(data)
        except Invalid as exc:
            raise StateError(str(exc)) from exc

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        """The table with only ``seat``'s own deck list (:func:`view_state`), and the legal
        actions for the seat to act only (:meth:`~games.protocol.Game.legal_for`: they name
        its deck's cards)."""
        return {"state": view_state(state, seat), "legal": self.legal_for(state, seat)}

    event_view = staticmethod(event_view)
    """A deck list in the log only for its owner (the view module's ``event_view``)."""

    # ------------------------------------------------------------------------------ decks

    def setup_from_deck(self, deck: Any, seat: str, casual: bool = False) -> dict[str, Any]:
        """The ``team`` action bringing a deck file's team (:class:`games.cards.Deck`).

        Checked with the seed's reading of TF-3 (the table's variant is checked again when
        the action is applied); ``casual``: play anyway, the team comes although it breaks
        TF-3 (the table records how, with its variant's numbers).

        Raises:
            SetupError: the deck breaks TF-3, e.g. "team has 27 stars, at most 25 (TF-3)",
                and is not casual, or it has no character.
        """
        recruits, battle = team.recruits_of_deck(deck)
        problems = team.team_problems(recruits, battle, Variant())
        if problems and (not casual or not recruits):
            raise team.joined(problems, SetupError)
        action = team.BringTeam(
            seat=seat,
            deck=deck.slug,
            title=deck.title,
            battle_cards=battle,
            characters=recruits,
            casual=casual and bool(problems),
        )
        return actions.action_to_json(action)

    def pieces_of_card(
        self, state: State, deck: str, card: str, seat: str | None = None
    ) -> list[str]:
        """Ids of the characters in play printed as ``card`` of deck ``deck``: ``seat``'s
        own first, then the others in seat order (A's first)."""
        found = [
            c
            for c in state.characters
            if c.zone == "play"
            and c.recruit.card == card
            and (brought := state.team(c.seat)) is not None
            and brought.deck == deck
        ]
        return [c.id for c in sorted(found, key=lambda c: c.seat != seat)]


GAME = TransformersGame()
"""The registered instance."""
