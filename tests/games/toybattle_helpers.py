"""Builders for Toy Battle scenario states (tests only)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.toybattle import actions as moves
from games.toybattle import effects, rules
from games.toybattle import state as tbstate
from games.toybattle.rules import TROOP_INDEX, Variant
from games.toybattle.state import SeatState, State


def table(
    terrain: str,
    stacks: Mapping[int, Sequence[str]] | None = None,
    *,
    player: str = "A",
    racks: Mapping[str, int] | None = None,
    discards: Mapping[str, Mapping[str, int]] | None = None,
    blocked: Mapping[str, int] | None = None,
    variant: Variant | None = None,
) -> State:
    """A state on ``terrain`` with ``stacks`` written as node -> ["A:Hook", "B:Roxy", ...]
    (bottom to top); reserves fill up to 24 troops per colour (4 removed)."""
    pieces = {
        n: tuple((s.split(":")[0], TROOP_INDEX[s.split(":")[1]]) for s in items)
        for n, items in (stacks or {}).items()
    }
    racks = {"A": 4, "B": 4, **(racks or {})}
    seats = []
    for seat in ("A", "B"):
        discard = [0] * 8
        for name, n in (discards or {}).get(seat, {}).items():
            discard[TROOP_INDEX[name]] = n
        board = sum(1 for p in pieces.values() for s, _ in p if s == seat)
        seats.append(
            SeatState(
                rack=racks[seat],
                reserve=24 - 4 - racks[seat] - board - sum(discard),
                removed=4,
                discard=tuple(discard),
                medals=0,
                blocked=(blocked or {}).get(seat, 0),
            )
        )
    state = State(
        terrain=terrain,
        variant=variant or Variant(),
        first_player="A",
        player=player,
        turn=1,
        seats=(seats[0], seats[1]),
        stacks=tuple(sorted(pieces.items())),
        captured=(),
        pending=(),
        ended=None,
    )
    tbstate.check_state(state)
    return state


def place(state: State, troop: str, node: int, seat: str | None = None) -> State:
    """Play a placement for the player to move (or ``seat``)."""
    return effects.apply(state, seat or state.player, moves.Place(troop=troop, node=node))


def resolve(state: State, **choice: object) -> State:
    """Resolve the first pending effect with ``choice`` (node=, to=, troop=)."""
    return effects.apply(state, state.player, moves.Resolve(**choice))  # type: ignore[arg-type]


def decline(state: State) -> State:
    """Decline the first pending effect."""
    return effects.apply(state, state.player, moves.Decline())


def top(state: State, node: int) -> str | None:
    """``"A:Hook"`` for the top of ``node``, None when empty."""
    stack = state.stack(node)
    return f"{stack[-1][0]}:{rules.TROOPS[stack[-1][1]]}" if stack else None


def legal_nodes(state: State, troop: str) -> list[int]:
    """Nodes where the player to move may place ``troop`` now."""
    return sorted(
        a.node
        for a in effects.legal_actions(state)
        if isinstance(a, moves.Place) and a.troop == troop
    )
