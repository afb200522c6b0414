"""Countdown's rules behind the game protocol (see the package docstring). Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.protocol import (
    SEATS,
    DiceRequest,
    Faces,
    Game,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    Outcome,
    StateError,
)

PILE = 21
"""CD-1: counters at the start (a table may agree on a longer game: 1..300)."""
MAX_PILE = 300
"""The largest pile a setup may ask for."""


@dataclass(frozen=True)
class Setup:
    """Who starts: ``A``, ``B`` or ``random`` (a die, CD-2); the counters (CD-1)."""

    first: str
    pile: int = PILE


@dataclass(frozen=True)
class Take:
    """Take ``count`` counters (CD-3)."""

    count: int


@dataclass(frozen=True)
class State:
    """The pile, the seat to act (None once over), the turn and the winner."""

    pile: int
    player: str | None
    turn: int
    winner: str | None = None


class Countdown(Game[State, Take, Setup]):
    """Countdown (CD-1..CD-4)."""

    name = "countdown"
    rule_prefix = "CD"
    action_types = ("take",)

    def parse_setup(self, data: Any) -> Setup:
        if not isinstance(data, dict) or data.get("first") not in ("A", "B", "random"):
            raise MalformedAction("setup: first must be A, B or random")
        pile = data.get("pile", PILE)
        if not isinstance(pile, int) or isinstance(pile, bool) or not 1 <= pile <= MAX_PILE:
            raise MalformedAction(f"setup: pile must be 1..{MAX_PILE}, got {str(pile)[:20]!r}")
        return Setup(first=data["first"], pile=pile)

    def example_setups(self) -> list[dict[str, Any]]:
        return [
            {"type": "setup", "first": "A", "pile": MAX_PILE},
            {"type": "setup", "first": "B", "pile": MAX_PILE},
            {"type": "setup", "first": "random", "pile": MAX_PILE},
            {"type": "setup", "first": "random", "pile": PILE},
        ]

    def setup_to_json(self, setup: Setup) -> dict[str, Any]:
        return {"type": "setup", "first": setup.first, "pile": setup.pile}

    def setup_dice(self, setup: Setup) -> tuple[DiceRequest, ...]:
        return (
            (DiceRequest(purpose="first player", count=1, sides=6),)
            if setup.first == "random"
            else ()
        )

    def setup_event(self, setup: Setup, faces: Faces) -> dict[str, Any]:
        first = setup.first if setup.first != "random" else ("A" if faces[0][0] <= 3 else "B")
        return {"type": "setup", "first": first, "pile": setup.pile}

    def start(self, event: Mapping[str, Any]) -> State:
        if event.get("first") not in SEATS or not isinstance(event.get("pile"), int):
            raise StateError("not a Countdown setup event")
        return State(pile=event["pile"], player=event["first"], turn=1)

    def parse_action(self, data: Any) -> Take:
        if not isinstance(data, dict) or data.get("type") != "take":
            raise MalformedAction("an action is {type: take, count: 1..3}")
        count = data.get("count")
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 3:
            raise MalformedAction(f"count must be 1, 2 or 3, got {str(count)[:20]!r}")
        return Take(count=count)

    def action_to_json(self, action: Take) -> dict[str, Any]:
        return {"type": "take", "count": action.count}

    def legal_actions(self, state: State, seat: str) -> Sequence[Take]:
        if state.player != seat:
            return []
        return [Take(count=n) for n in (1, 2, 3) if n <= state.pile]

    def apply(self, state: State, seat: str, action: Take, faces: Faces = ()) -> State:
        if faces:
            raise MalformedAction("a take rolls no dice")
        if state.player is None:
            raise IllegalAction("the game is over (CD-4)")
        if seat != state.player:
            raise NotYourTurn(f"it is {state.player}'s turn (CD-2)")
        if action.count > state.pile:
            raise IllegalAction(f"only {state.pile} counters are left (CD-3)")
        pile = state.pile - action.count
        other = SEATS[1 - SEATS.index(seat)]
        if pile == 0:
            return State(pile=0, player=None, turn=state.turn, winner=seat)
        return State(pile=pile, player=other, turn=state.turn + 1)

    def to_act(self, state: State) -> str | None:
        return state.player

    def turn(self, state: State) -> int:
        return state.turn

    def outcome(self, state: State) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(winner=state.winner, reason="last_counter", rule="CD-4")

    def state_to_json(self, state: State) -> dict[str, Any]:
        return {
            "pile": state.pile,
            "player": state.player,
            "turn": state.turn,
            "winner": state.winner,
        }

    def state_from_json(self, data: Any) -> State:
        try:
            state = State(
                pile=data["pile"], player=data["player"], turn=data["turn"], winner=data["winner"]
            )
        except (KeyError, TypeError) as exc:
            raise StateError(f"not a Countdown state: {exc}") from None
        if not (isinstance(state.pile, int) and 0 <= state.pile <= MAX_PILE):
            raise StateError("pile out of range")
        return state


GAME = Countdown()
"""The game (its registry entry loads it)."""
