"""The Toy Battle table: racks, reserves, stacks, pending effects, the end, and their JSON.

Source: shared/rules/toy-battle.md (TB-1..TB-41). Pure: no I/O. The companion follows the
table (ARCHITECTURE.md): troops are real tiles in the players' hands, so racks, reserves and
the 4 troops removed at setup are counts; what lies face up (the board's stacks and the
discards) is known by type. The decisions D1..D16 are listed in :mod:`games.toybattle.rules`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.protocol import StateError
from games.toybattle.rules import (
    COPIES,
    EFFECTS,
    OTHER,
    RACK_MAX,
    REASONS,
    REMOVED_AT_SETUP,
    SEAT_COLOUR,
    START_RACK,
    TROOP_INDEX,
    TROOPS,
    TROOPS_PER_COLOUR,
    Piece,
    Variant,
    variant_to_json,
)
from games.toybattle.terrains import TERRAINS

# ------------------------------------------------------------------------------------ state


@dataclass(frozen=True, kw_only=True)
class SeatState:
    """One colour's troops off the board and its medals.

    Attributes:
        rack: troops on the rack, 0..8 (TB-10), blocked ones included (TB-37).
        reserve: face-down troops to draw from (TB-3).
        removed: troops removed unseen at setup (4, TB-3).
        discard: face-up discarded troops per type (index = strength), 8 counts.
        medals: medals taken (TB-14), kept for good.
        blocked: rack troops that cannot be placed this turn (TB-37, D10).
    """

    rack: int
    reserve: int
    removed: int
    discard: tuple[int, ...]
    medals: int
    blocked: int = 0


@dataclass(frozen=True, kw_only=True)
class Pending:
    """An effect waiting to be resolved or declined (TB-13, D13).

    Attributes:
        effect: one of :data:`EFFECTS`.
        source: the troop's name or the terrain's name (shown on the phone).
        rule: the rule id (``"TB-20"`` troop, ``"TB-30".."TB-37"`` base).
        node: the node the troop was placed on.
        troop: the placed troop's type index.
        height: the stack height right after the placement (D4's visibility check).
        count: troops to draw (``draw``), else 0.
        base: True for a special base's effect, False for a troop's.
    """

    effect: str
    source: str
    rule: str
    node: int
    troop: int
    height: int
    count: int = 0
    base: bool = False


@dataclass(frozen=True, kw_only=True)
class Ended:
    """How the game ended (TB-40, TB-41)."""

    winner: str
    reason: str
    rule: str


@dataclass(frozen=True, kw_only=True)
class State:
    """The table (immutable).

    Attributes:
        terrain: terrain slug (:data:`games.toybattle.terrains.TERRAINS`).
        variant: the variant flags.
        first_player: the seat that started (TB-3).
        player: the seat to act (also after the end: the one who acted last).
        turn: 1, 2, ... (one seat's turn each).
        seats: (seat A, seat B).
        stacks: (node, pieces bottom to top) for every non-empty node, by node.
        captured: (region index, seat) in capture order.
        pending: the effects still to resolve this turn, in order.
        ended: the end, or None.
    """

    terrain: str
    variant: Variant
    first_player: str
    player: str
    turn: int
    seats: tuple[SeatState, SeatState]
    stacks: tuple[tuple[int, tuple[Piece, ...]], ...]
    captured: tuple[tuple[int, str], ...]
    pending: tuple[Pending, ...]
    ended: Ended | None

    def seat(self, seat: str) -> SeatState:
        """The seat's troops and medals."""
        return self.seats[0 if seat == "A" else 1]

    def stack(self, node: int) -> tuple[Piece, ...]:
        """The pieces on ``node``, bottom to top (empty tuple if none)."""
        for n, pieces in self.stacks:
            if n == node:
                return pieces
        return ()

    def tops(self) -> dict[int, Piece]:
        """node -> its visible (top) piece."""
        return {n: pieces[-1] for n, pieces in self.stacks}

    def on_board(self, seat: str) -> list[int]:
        """Counts per type of the seat's troops on the board (visible or covered)."""
        counts = [0] * 8
        for _, pieces in self.stacks:
            for s, t in pieces:
                if s == seat:
                    counts[t] += 1
        return counts

    def known(self, seat: str) -> list[int]:
        """Counts per type of the seat's troops face up (board + discard), at most 3 (D8)."""
        board = self.on_board(seat)
        discard = self.seat(seat).discard
        return [board[t] + discard[t] for t in range(8)]


def new_game(terrain: str, variant: Variant, first_player: str) -> State:
    """The state after TB-3's setup.

    Raises:
        ValueError: unknown terrain or seat.
    """
    if terrain not in TERRAINS:
        raise ValueError(f"terrain must be one of {list(TERRAINS)}, got {terrain!r}")
    if first_player not in OTHER:
        raise ValueError(f"first_player must be A or B, got {first_player!r}")

    def seat(rack: int) -> SeatState:
        return SeatState(
            rack=rack,
            reserve=TROOPS_PER_COLOUR - REMOVED_AT_SETUP - rack,
            removed=REMOVED_AT_SETUP,
            discard=(0,) * 8,
            medals=0,
        )

    first, second = seat(START_RACK["first"]), seat(START_RACK["second"])
    return State(
        terrain=terrain,
        variant=variant,
        first_player=first_player,
        player=first_player,
        turn=1,
        seats=(first, second) if first_player == "A" else (second, first),
        stacks=(),
        captured=(),
        pending=(),
        ended=None,
    )


# ------------------------------------------------------------------------------------- JSON


def draw_count(seat: SeatState, wanted: int = 2) -> int:
    """Troops a draw of ``wanted`` takes now: cut by the rack's room (8) and the reserve
    (TB-10, TB-20)."""
    return max(0, min(wanted, RACK_MAX - seat.rack, seat.reserve))


def state_to_json(state: State) -> dict[str, Any]:
    """The whole state as JSON (what the phone reads, see view.js), plus ``derived`` (medals
    left, the size of a draw per seat, troops on the board per seat), which
    :func:`state_from_json` ignores."""
    seats = {}
    for name in ("A", "B"):
        s = state.seat(name)
        seats[name] = {
            "colour": SEAT_COLOUR[name],
            "rack": s.rack,
            "reserve": s.reserve,
            "removed": s.removed,
            "discard": {TROOPS[t]: n for t, n in enumerate(s.discard) if n},
            "medals": s.medals,
            "blocked": s.blocked,
        }
    terrain = TERRAINS[state.terrain]
    taken = {r for r, _ in state.captured}
    return {
        "terrain": state.terrain,
        "variant": variant_to_json(state.variant),
        "first_player": state.first_player,
        "player": state.player,
        "turn": state.turn,
        "seats": seats,
        "stacks": [
            {"node": n, "troops": [{"seat": s, "troop": TROOPS[t]} for s, t in pieces]}
            for n, pieces in state.stacks
        ],
        "captured": [{"region": r, "seat": s} for r, s in state.captured],
        "pending": [
            {
                "effect": p.effect,
                "source": p.source,
                "rule": p.rule,
                "node": p.node,
                "troop": TROOPS[p.troop],
                "height": p.height,
                "count": p.count,
                "base": p.base,
            }
            for p in state.pending
        ],
        "ended": None
        if state.ended is None
        else {"winner": state.ended.winner, "reason": state.ended.reason, "rule": state.ended.rule},
        "derived": {
            "medals_left": sum(r.medals for r in terrain.regions if r.index not in taken),
            "draw": {n: draw_count(state.seat(n)) for n in ("A", "B")},
            "board": {n: sum(state.on_board(n)) for n in ("A", "B")},
        },
    }


def _int(data: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise StateError(f"{key} must be an integer {low}..{high}, got {value!r:.40}")
    return value


def state_from_json(data: Any) -> State:
    """Parse :func:`state_to_json` output and check its conservation laws (24 troops per
    colour, medals on the board plus taken = the terrain's total).

    Raises:
        StateError: not a consistent Toy Battle state.
    """
    try:
        terrain = TERRAINS[data["terrain"]]
        seats = []
        for name in ("A", "B"):
            s = data["seats"][name]
            discard = [0] * 8
            for troop, n in s["discard"].items():
                discard[TROOP_INDEX[troop]] = _int({"n": n}, "n", 1, COPIES)
            seats.append(
                SeatState(
                    rack=_int(s, "rack", 0, RACK_MAX),
                    reserve=_int(s, "reserve", 0, TROOPS_PER_COLOUR),
                    removed=_int(s, "removed", 0, TROOPS_PER_COLOUR),
                    discard=tuple(discard),
                    medals=_int(s, "medals", 0, terrain.medal_total),
                    blocked=_int(s, "blocked", 0, RACK_MAX),
                )
            )
        stacks = tuple(
            (
                int(item["node"]),
                tuple((str(p["seat"]), TROOP_INDEX[p["troop"]]) for p in item["troops"]),
            )
            for item in data["stacks"]
        )
        pending = tuple(
            Pending(
                effect=str(p["effect"]),
                source=str(p["source"]),
                rule=str(p["rule"]),
                node=int(p["node"]),
                troop=TROOP_INDEX[p["troop"]],
                height=int(p["height"]),
                count=int(p["count"]),
                base=bool(p["base"]),
            )
            for p in data["pending"]
        )
        ended = data["ended"]
        state = State(
            terrain=terrain.slug,
            variant=Variant(**data["variant"]),
            first_player=str(data["first_player"]),
            player=str(data["player"]),
            turn=_int(data, "turn", 1, 10**6),
            seats=(seats[0], seats[1]),
            stacks=stacks,
            captured=tuple((int(c["region"]), str(c["seat"])) for c in data["captured"]),
            pending=pending,
            ended=None
            if ended is None
            else Ended(
                winner=str(ended["winner"]), reason=str(ended["reason"]), rule=str(ended["rule"])
            ),
        )
    except StateError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise StateError(f"not a Toy Battle state: {exc!r:.200}") from exc
    check_state(state)
    return state


def check_state(state: State) -> None:
    """The conservation laws: per colour 24 = removed + reserve + rack + board + discard,
    at most 3 of a type face up, blocked <= rack; nodes on the terrain, stacks non-empty and
    ordered; medals taken = the captured regions' medals; pending effects known.

    Raises:
        StateError: the first law broken.
    """
    terrain = TERRAINS[state.terrain]
    if state.player not in OTHER or state.first_player not in OTHER:
        raise StateError("player and first_player must be A or B")
    nodes = [n for n, _ in state.stacks]
    if nodes != sorted(set(nodes)) or any(n not in terrain.positions for n in nodes):
        raise StateError(f"stacks must be on distinct nodes of {terrain.slug}, ascending")
    if any(not pieces or any(s not in OTHER for s, _ in pieces) for _, pieces in state.stacks):
        raise StateError("a stack must hold at least one troop of seat A or B")
    for name in ("A", "B"):
        s = state.seat(name)
        board = sum(state.on_board(name))
        total = s.removed + s.reserve + s.rack + board + sum(s.discard)
        if total != TROOPS_PER_COLOUR:
            raise StateError(f"seat {name} has {total} troops in all, must be 24 (TB-1)")
        if max(state.known(name)) > COPIES:
            raise StateError(f"seat {name} shows more than 3 troops of a type (TB-1)")
        if s.blocked > s.rack:
            raise StateError(f"seat {name} has {s.blocked} blocked of {s.rack} on the rack")
    regions = {r.index: r for r in terrain.regions}
    indexes = [r for r, _ in state.captured]
    if len(set(indexes)) != len(indexes) or any(r not in regions for r in indexes):
        raise StateError("captured regions must be distinct regions of the terrain")
    for name in ("A", "B"):
        taken = sum(regions[r].medals for r, s in state.captured if s == name)
        if taken != state.seat(name).medals:
            raise StateError(
                f"seat {name} has {state.seat(name).medals} medals, regions give {taken}"
            )
    for p in state.pending:
        if p.effect not in EFFECTS:
            raise StateError(f"pending effect must be one of {EFFECTS}, got {p.effect!r:.40}")
    if state.ended is not None and (
        state.ended.winner not in OTHER or state.ended.reason not in REASONS
    ):
        raise StateError("ended must name a seat and a known reason")
