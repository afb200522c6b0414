"""PocketModel TCG behind the game protocol (:mod:`games.protocol`).

A thin adapter over :mod:`games.pocketmodel.rules`. Setup request (``{"type": "setup", ...}``,
what the phone's "Open the table" sends): ``variant`` (the flags of
:class:`~games.pocketmodel.state.Variant`) and optionally ``fleets`` ``{"A": fleet|null,
"B": fleet|null}`` (a fleet as in the ``fleet`` action, without ``type``). Without fleets the
table opens in the fleets phase and each seat brings its fleet (deck file or quick entry);
when both fleets are in, the server rolls 1d2 for the first player (PM-9). The logged setup
event is ``{"variant", "fleets", "first_player"}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from games.pocketmodel import legal, rules
from games.pocketmodel.actions import (
    TYPES,
    Action,
    Counter,
    Fleet,
    action_from_json,
    action_to_json,
    fleet_from_json,
    fleet_to_json,
)
from games.pocketmodel.cards import CARDS
from games.pocketmodel.codec import state_from_json, state_to_json, variant_to_json
from games.pocketmodel.fleet import STANDARD_FLEET, check_fleet, fleet_action, fleet_from_deck
from games.pocketmodel.state import State, Variant, stored_variant
from games.pocketmodel.view import event_view, view_state
from games.protocol import (
    SEATS,
    DiceRequest,
    Faces,
    Game,
    MalformedAction,
    Outcome,
    StateError,
    check_faces,
)

_SETUP_FIELDS = {"type", "variant", "fleets"}
_VARIANT_FIELDS = {f.name for f in fields(Variant)}


@dataclass(frozen=True, kw_only=True)
class Setup:
    """A parsed setup: the variant flags and the fleets brought with it (A, B)."""

    variant: Variant
    fleets: tuple[Fleet | None, Fleet | None]


def variant_from_json(data: Any) -> Variant:
    """``{flag?: bool, ...}`` with the flags of :class:`~games.pocketmodel.state.Variant`
    (defaults: all False, the readings closest to the seed's words). A new table's request;
    a stored setup event reads the flags it lacks as :data:`~games.pocketmodel.state.FORMER_READINGS`
    (:meth:`PocketModelGame.start`).

    Raises:
        MalformedAction: not an object, an unknown flag, a flag that is not a boolean.
    """
    if data is None:
        return Variant()
    if not isinstance(data, dict) or set(data) - _VARIANT_FIELDS:
        raise MalformedAction(f"variant must be an object with flags {sorted(_VARIANT_FIELDS)}")
    for key, value in data.items():
        if not isinstance(value, bool):
            raise MalformedAction(f"variant.{key} must be true or false, got {value!r:.40}")
    return Variant(**data)


class PocketModelGame(Game[State, Action, Setup]):
    """PocketModel TCG (rules: shared/rules/pocketmodel.md, PM-5..PM-40) for the companion."""

    name = CARDS.slug
    rule_prefix = "PM"
    action_types = TYPES
    deck_game = CARDS.slug
    hidden_information = True
    """A player's deck list reaches only that player's phone (:mod:`games.pocketmodel.view`)."""

    def parse_setup(self, data: Any) -> Setup:
        """Parse ``{"type": "setup", "variant"?, "fleets"?}``.

        Raises:
            MalformedAction: not an object, unknown fields, bad flags or fleets.
            SetupError: a fleet breaks PM-5 or PM-8 (with the numbers).
        """
        if not isinstance(data, dict):
            raise MalformedAction("a setup must be a JSON object")
        unknown = set(data) - _SETUP_FIELDS
        if unknown:
            raise MalformedAction(
                f"unknown setup fields {sorted(unknown)}; allowed {sorted(_SETUP_FIELDS)}"
            )
        variant = variant_from_json(data.get("variant"))
        raw = {} if data.get("fleets") is None else data["fleets"]
        if not isinstance(raw, dict) or set(raw) - set(SEATS):
            raise MalformedAction('fleets must be an object {"A": fleet|null, "B": fleet|null}')
        fleets: list[Fleet | None] = []
        for seat in SEATS:
            entry = raw.get(seat)
            if entry is None:
                fleets.append(None)
                continue
            if not isinstance(entry, dict):
                raise MalformedAction(f"fleets.{seat} must be a fleet object or null")
            fleet = fleet_from_json(entry)
            check_fleet(fleet)
            fleets.append(fleet)
        return Setup(variant=variant, fleets=(fleets[0], fleets[1]))

    def example_setups(self) -> list[dict[str, Any]]:
        """Both standard fleets with the default flags, the same with every flag flipped, and
        an empty table (fleets brought as actions)."""
        fleets = {seat: fleet_to_json(STANDARD_FLEET) for seat in SEATS}
        flipped = dict.fromkeys(sorted(_VARIANT_FIELDS), True)
        return [
            {"type": "setup", "fleets": fleets},
            {"type": "setup", "variant": flipped, "fleets": fleets},
            {"type": "setup"},
        ]

    def setup_to_json(self, setup: Setup) -> dict[str, Any]:
        """``{"variant", "fleets"}``."""
        return {
            "variant": variant_to_json(setup.variant),
            "fleets": {
                seat: None if fleet is None else fleet_to_json(fleet)
                for seat, fleet in zip(SEATS, setup.fleets)
            },
        }

    def setup_dice(self, setup: Setup) -> tuple[DiceRequest, ...]:
        """1d2 for the first player when both fleets come with the setup (PM-9)."""
        if all(f is not None for f in setup.fleets):
            return (DiceRequest(count=1, sides=2, purpose=rules.PURPOSE_FIRST),)
        return ()

    def setup_event(self, setup: Setup, faces: Faces) -> dict[str, Any]:
        """``{"variant", "fleets", "first_player"}``."""
        check_faces(self.setup_dice(setup), faces)
        return {
            **self.setup_to_json(setup),
            "first_player": SEATS[faces[0][0] - 1] if faces else None,
        }

    def start(self, event: Mapping[str, Any]) -> State:
        """:func:`rules.new_game` from a logged setup event; a flag the event lacks (it was
        logged before the flag existed) reads as the code that logged it played
        (:data:`~games.pocketmodel.state.FORMER_READINGS`).

        Raises:
            StateError: not a PocketModel setup event.
        """
        try:
            variant = stored_variant(event["variant"])
            setup = self.parse_setup({"variant": variant, "fleets": event["fleets"]})
            return rules.new_game(setup.variant, setup.fleets, event["first_player"])
        except (KeyError, TypeError, AssertionError, MalformedAction) as exc:
            raise StateError(f"not a PocketModel setup event: {exc}") from exc

    def parse_action(self, data: Any) -> Action:
        """:func:`actions.action_from_json` (MalformedAction on anything else)."""
        return action_from_json(data)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        """:func:`actions.action_to_json`."""
        return action_to_json(action)

    def legal_actions(self, state: State, seat: str) -> Sequence[Action]:
        """:func:`legal.legal_actions`."""
        return legal.legal_actions(state, seat)

    def dice_for(self, state: State, seat: str, action: Action) -> tuple[DiceRequest, ...]:
        """:func:`rules.check`: the dice, after the action is found legal (PM-9, PM-21, PM-31).

        Raises:
            NotYourTurn, IllegalAction: as :meth:`apply`.
        """
        return rules.check(state, seat, action)

    def apply(self, state: State, seat: str, action: Action, faces: Faces = ()) -> State:
        """:func:`rules.apply`.

        Raises:
            MalformedAction: faces that do not fit the action's dice.
            NotYourTurn: another seat is to act.
            IllegalAction: the rules forbid it (PM-n in the message).
        """
        return rules.apply(state, seat, action, faces)

    def commutes(self, action: Action, seat: str, other: Action, other_seat: str) -> bool:
        """Damage counters on two different units are independent: either seat places them at
        any time (PM-23), and one unit's counters, its destruction included (PM-24), change
        neither the other unit nor whether a counter may go on it (two destructions that end
        the game end it alike in either order, PM-40). Counters on the same unit do not
        commute (both phones saw the same hit: one is refused, never counted twice), nor does
        anything else.
        """
        return (
            isinstance(action, Counter) and isinstance(other, Counter) and action.unit != other.unit
        )

    def to_act(self, state: State) -> str | None:
        """:func:`rules.to_act`."""
        return rules.to_act(state)

    def started(self, state: State) -> bool:
        """Begun once both fleets are in (the ``fleets`` phase is over, PM-5, PM-8)."""
        return state.phase != "fleets"

    def turn(self, state: State) -> int:
        """``state.turn``: a turn ends with ``end_turn``."""
        return state.turn

    def outcome(self, state: State) -> Outcome | None:
        """:func:`rules.outcome` (PM-40)."""
        return rules.outcome(state)

    def state_to_json(self, state: State) -> dict[str, Any]:
        """:func:`codec.state_to_json` (what the phone view reads)."""
        return state_to_json(state)

    def state_from_json(self, data: Any) -> State:
        """:func:`codec.state_from_json`.

        Raises:
            StateError: not a consistent PocketModel state.
        """
        return state_from_json(data)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        """The table with only ``seat``'s own deck list (:func:`view.view_state`), and the legal
        actions for the seat to act only (:meth:`~games.protocol.Game.legal_for`: they name
        its deck's cards)."""
        return {"state": view_state(state, seat), "legal": self.legal_for(state, seat)}

    event_view = staticmethod(event_view)
    """A deck list in the log only for its owner (the view module's ``event_view``)."""

    def setup_from_deck(self, deck: Any, seat: str, casual: bool = False) -> dict[str, Any]:
        """The ``fleet`` action for a deck file: units (each copy) with the first 20 stars
        deployed in file order (PM-8), the combat and objective cards as the deck list;
        ``casual``: play anyway, a deck that breaks PM-5 comes as a casual fleet.

        Raises:
            SetupError: the deck breaks PM-5 ("fleet has 35 stars, at most 30 (PM-5)") and is
                not casual.
        """
        return fleet_action(fleet_from_deck(deck, casual))

    def pieces_of_card(
        self, state: State, deck: str, card: str, seat: str | None = None
    ) -> list[str]:
        """Units built from card ``card`` of deck ``deck``: ``seat``'s own first (when both
        brought the same deck), then those in play before those in the reserve (a unit is on
        the table either way)."""
        found = [
            u
            for u in state.units
            if u.card == card
            and (player := state.player(u.seat)) is not None
            and player.deck is not None
            and player.deck.slug == deck
        ]
        return [u.id for u in sorted(found, key=lambda u: (u.seat != seat, not u.in_play))]


GAME = PocketModelGame()
"""The registered instance."""
