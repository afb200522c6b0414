"""Toy Battle rules: troops, variant flags, the state of the table, actions and their JSON.

Source: shared/rules/toy-battle.md (TB-1..TB-41). Pure: no I/O. The moves themselves live in
:mod:`games.toybattle.placement` (where a troop may go) and :mod:`games.toybattle.effects`
(what happens then, captures, the end).

The companion follows the table (ARCHITECTURE.md): troops are real tiles in the players' hands,
so racks, reserves and the 4 troops removed at setup are COUNTS; what lies face up (the board's
stacks and the discards) is known by type. Seat A plays blue, seat B red.

Decisions (the digest's two open points and the others found while writing the engine; each
flag is a field of :class:`Variant`, default first):

* D1 (open point, TB-33) Volcanic Jungle moves a troop onto bases only, never onto an H.Q.
  Flag ``jungle_onto_hq`` (False): with it, any adjacent H.Q. is a destination too; a moved
  troop never wins (TB-40 speaks of *placing* on an enemy H.Q.). On the published Volcanic
  Jungle no base next to a special base is next to an H.Q., so the flag changes nothing there
  (a test checks the fact); it is kept for terrains that differ.
  Seed (its rules are in English): "VOLCANIC JUNGLE: ... Move it to a base that is adjacent to
  its starting base, ignoring the placement rules."
* D2 (open point, TB-31) Kwak (strength 0) may not go on a value-restricted Tropical Pool base
  or H.Q. Flag ``kwak_on_restricted`` (False).
  Seed: "TROPICAL POOL: Only Troops with the indicated values can be placed on these special
  bases and H.Q." (Kwak shows no value.)
* D3 (TB-20/TB-36) Hook's freedom from the connection rule is its troop effect, and Station
  Metal-X suppresses troop effects on its special bases ("placement restrictions occur before
  placing"): an unconnected Hook may not go on a Metal-X base. Flag ``hook_ignores_metal_x``.
  Seed: "STATION METAL-X: Troop effects are not applied on these special bases. (Note: Placement
  restrictions occur before placing the Troop.)"
* D4 (TB-13, "special base effects only for visible troops") a special base acts only if the
  troop placed on it is still the visible top of its stack when its base effect comes (after
  the troop effects: a Cap'n's extra troop placed on top of it, or a Jungle move onto it, hides
  it). Flag ``covered_troop_triggers_base`` (False).
  Seed: "IMPORTANT: Special base terrain effects may only be applied to visible troops (i.e.,
  the troop on top of a stack)."
* D5 (TB-14) a region completed for the opponent during my turn (a discard, a return to the
  rack or a move uncovers their troop) is theirs at once. Flag ``opponent_captures_at_once``
  (True); without it they take it at their next capture check (after their next placement).
  Seed: "Wenn du Basen besetzt, die einen ununterbrochenen Pfad um eine Region bilden,
  beanspruchst du die Orden innerhalb dieser Region." (When you occupy bases forming an unbroken
  path around a region, you claim its medals; it does not say when the opponent does.)
* D6 (TB-14) regions are checked once, when the placed troop's effect and the base's effect
  (and a Cap'n's chain) are done: a region completed by the placement and opened again by an
  effect is not taken. Flag ``captures_after_effects`` (True); off (the former default):
  checked after the placement and after every single effect, so a capture (and the medal
  objective, TB-40) can come before the remaining effects, and is kept.
  Seed: "After placement, trigger that troop's effect (if any). Finally, trigger the base's
  effect (if any). If you now control region(s) by occupying all the bases surrounding it, claim
  the medal(s)": the default is one check once the effects are done (TB-14); flag
  ``captures_after_effects`` off: the former default, a check after every step.
* D7 (TB-3) seat A is blue, seat B red; a 2-sided die chooses the starting player, who takes 3
  troops (the other 4); each seat removes 4 unseen, so 17 and 16 stay in the reserves.
* D8 (TB-1, TB-11) the player says which troop they place; the engine refuses a type of which
  all 3 are already known (on the board or discarded), and any troop when the rack holds no
  unblocked troop.
* D9 (TB-20 XB-42) the random troop is drawn at the table; the player enters its type (types of
  which the opponent has 3 known are not offered).
* D10 (TB-37) a blocked troop is a count on its rack: the rack may place ``rack - blocked``
  troops; the block ends at the end of the blocked player's next turn; a block needs an
  unblocked troop on the opponent's rack.
* D11 (TB-41) when the player to move can neither draw (rack 8 or reserve 0) nor place (no
  unblocked troop, or no troop type with a legal base), the engine ends the game itself; when it
  cannot know (the rack's types are hidden), the player declares it with ``stuck`` (offered only
  when they cannot draw) and shows the rack.
  Seed: "Wenn ein Spieler keine Truppe ziehen oder einsetzen kann, endet das Spiel und wer die
  meisten Orden hat, gewinnt." (When a player can neither draw nor place a troop, the game ends
  and the most medals win.) and "If tied, the player who ended the game loses."
* D12 (TB-20, TB-30..37) every effect is optional (``decline``); an effect that can do nothing
  now (a full rack, no adjacent enemy, an empty discard) is skipped without asking, and a draw
  is cut to what the rack (8) and the reserve allow.
* D13 (TB-13) order: the placed troop's effect, then a Cap'n's extra troop and its effect
  (troop effects first, also of a chain of Cap'ns), then the special base effects in the order
  the troops were placed.
  Seed: "Note: First apply all the effects of Troops you just placed, then apply any special
  base effects."
* D14 (TB-30) Castle Field's "other troops" are the visible own troops on any other node.
* D15 (TB-33) a Jungle move ignores the placement rules (any adjacent base, own or enemy stack,
  the Jungle base itself included); only the visible top troop moves.
* D16 (TB-40) a troop placed on an enemy H.Q. wins at once, before any effect; reaching the
  objective wins at the capture that reaches it (D6).
  Seed: "Das Spiel endet, sobald du das H.Q. deines Gegners besetzt oder die erforderliche
  Anzahl an Orden auf der Grundlage des aktuellen Spielbretts gewonnen hast." (The game ends as
  soon as you occupy the enemy H.Q. or have won the medals the board requires.)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from games.protocol import MalformedAction, StateError
from games.toybattle.terrains import TERRAINS

TROOPS: tuple[str, ...] = ("Kwak", "Skully", "Cap'n", "Jumbo", "Hook", "XB-42", "Star", "Roxy")
"""TB-1: the troop types; the index is the strength (Kwak, the joker, is 0)."""
TROOP_INDEX: Mapping[str, int] = {name: i for i, name in enumerate(TROOPS)}
KWAK, SKULLY, CAPN, JUMBO, HOOK, XB42, STAR, ROXY = range(8)
COPIES = 3
"""TB-1: copies of each type per colour."""
TROOPS_PER_COLOUR = 24
REMOVED_AT_SETUP = 4
"""TB-3: troops removed unseen per colour."""
RACK_MAX = 8
"""TB-10: most troops on a rack."""
START_RACK = {"first": 3, "second": 4}
"""TB-3: troops on the rack at the start."""
SEAT_COLOUR: Mapping[str, str] = {"A": "blue", "B": "red"}
"""D7: seat -> colour."""
OTHER: Mapping[str, str] = {"A": "B", "B": "A"}

EFFECTS = (
    "draw",
    "place",
    "discard_adjacent",
    "discard_from_rack",
    "return_to_rack",
    "move_enemy",
    "take_from_discard",
    "block",
)
"""Codes of the pending effects (the phone translates them)."""
REASONS = ("hq_taken", "medal_objective", "most_medals", "tie_stuck_loses")
"""Codes of :attr:`Ended.reason`."""


@dataclass(frozen=True, kw_only=True)
class Variant:
    """Variant flags for the open points (decisions D1..D6 in the module docstring)."""

    kwak_on_restricted: bool = False
    jungle_onto_hq: bool = False
    hook_ignores_metal_x: bool = False
    covered_troop_triggers_base: bool = False
    opponent_captures_at_once: bool = True
    captures_after_effects: bool = True


VARIANT_FLAGS = tuple(f.name for f in fields(Variant))


def variant_from_json(data: Any) -> Variant:
    """Parse ``{"flag": bool, ...}`` (missing flags keep their defaults).

    Raises:
        MalformedAction: not an object, an unknown flag, or a value that is not a boolean.
    """
    if data is None:
        return Variant()
    if not isinstance(data, dict):
        raise MalformedAction("variant must be an object of flags")
    for key, value in data.items():
        if key not in VARIANT_FLAGS:
            raise MalformedAction(
                f"variant flag must be one of {list(VARIANT_FLAGS)}, got {key!r:.40}"
            )
        if not isinstance(value, bool):
            raise MalformedAction(f"variant flag {key} must be true or false, got {value!r:.40}")
    return Variant(**data)


def variant_to_json(variant: Variant) -> dict[str, bool]:
    """Every flag with its value."""
    return {name: getattr(variant, name) for name in VARIANT_FLAGS}


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


Piece = tuple[str, int]
"""A troop on the board: (seat, type index)."""


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


# ---------------------------------------------------------------------------------- actions


@dataclass(frozen=True, kw_only=True)
class Draw:
    """TB-10: draw 2 (or 1) troops from the reserve."""


@dataclass(frozen=True, kw_only=True)
class Place:
    """TB-11: place ``troop`` (a name of :data:`TROOPS`) on ``node``; also a Cap'n's extra."""

    troop: str
    node: int


@dataclass(frozen=True, kw_only=True)
class Resolve:
    """Apply the first pending effect with its choice: ``node`` (Jumbo, Castle Field, the
    Jungle's troop), ``to`` (the Jungle's destination), ``troop`` (XB-42, Cursed Cemetery);
    none for a draw or a Battlefield block."""

    node: int | None = None
    to: int | None = None
    troop: str | None = None


@dataclass(frozen=True, kw_only=True)
class Decline:
    """Skip the first pending effect (all effects are optional, TB-20)."""


@dataclass(frozen=True, kw_only=True)
class Stuck:
    """TB-41: the player to move declares they can neither draw nor place (D11)."""


Action = Draw | Place | Resolve | Decline | Stuck


def _node(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 99:
        raise MalformedAction(f"{key} must be a node id 1..99, got {value!r:.40}")
    return value


def _troop(data: Mapping[str, Any], key: str = "troop") -> str:
    value = data.get(key)
    if not isinstance(value, str) or value not in TROOP_INDEX:
        raise MalformedAction(f"{key} must be one of {list(TROOPS)}, got {value!r:.40}")
    return str(value)


_FIELDS = {
    "draw": {"type"},
    "place": {"type", "troop", "node"},
    "resolve": {"type", "node", "to", "troop"},
    "decline": {"type"},
    "stuck": {"type"},
}


def action_from_json(data: Any) -> Action:
    """Parse ``{"type": "draw"|"place"|"resolve"|"decline"|"stuck", ...}``.

    Raises:
        MalformedAction: not an object, unknown type or field, a bad node id or troop name.
    """
    if not isinstance(data, dict):
        raise MalformedAction("an action must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise MalformedAction(f"type must be one of {list(_FIELDS)}, got {kind!r:.40}")
    extra = set(data) - _FIELDS[kind]
    if extra:
        raise MalformedAction(
            f"{kind} takes the fields {sorted(_FIELDS[kind])}, got {sorted(extra)}"
        )
    if kind == "draw":
        return Draw()
    if kind == "decline":
        return Decline()
    if kind == "stuck":
        return Stuck()
    if kind == "place":
        return Place(troop=_troop(data), node=_node(data, "node"))
    return Resolve(
        node=_node(data, "node") if "node" in data else None,
        to=_node(data, "to") if "to" in data else None,
        troop=_troop(data) if "troop" in data else None,
    )


def action_to_json(action: Action) -> dict[str, Any]:
    """The action as JSON; a resolve leaves out its empty fields (the phone tests for them)."""
    if isinstance(action, Draw):
        return {"type": "draw"}
    if isinstance(action, Decline):
        return {"type": "decline"}
    if isinstance(action, Stuck):
        return {"type": "stuck"}
    if isinstance(action, Place):
        return {"type": "place", "troop": action.troop, "node": action.node}
    out: dict[str, Any] = {"type": "resolve"}
    if action.node is not None:
        out["node"] = action.node
    if action.to is not None:
        out["to"] = action.to
    if action.troop is not None:
        out["troop"] = action.troop
    return out


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
