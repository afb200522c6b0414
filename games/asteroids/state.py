"""The Asteroids table: the board frame, the layout of the rifts, the state and its JSON.

Source: shared/rules/asteroids.md (AST-n). Board frame (the same as
:mod:`games.asteroids.spec`): rifts 1..6 run from player A's home base to player B's; places
1..8 run from the left end of a rift to the right end. A :class:`Spot` with ``rift`` 0 is A's
home base, ``rift`` 7 is B's home base (``place`` 0 for both); a base is one big place (AST-14).

Also the engine's errors (:class:`RulesError` and its kinds), which every module raises. The
decisions D1..D6 are listed in :mod:`games.asteroids.rules`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from games.asteroids.messages import MESSAGES
from games.asteroids.spec import ASTEROIDS, FragmentKind, Variant
from games.protocol import GameError

COLOURS: tuple[str, str] = ASTEROIDS.colours


RIFTS = ASTEROIDS.rifts


PLACES = ASTEROIDS.places_per_rift


BASE_RIFT: Mapping[str, int] = MappingProxyType({"A": 0, "B": RIFTS + 1})
"""The pseudo-rift number of each player's home base (AST-14)."""


PHASES = ("step1", "step2", "push", "over")


SIDES = ("left", "right")


LAYOUTS: Mapping[FragmentKind, tuple[str, ...]] = MappingProxyType(
    {FragmentKind.HH: ("HH",), FragmentKind.HA: ("HA", "AH")}
)


LAYOUT_DIE_SIDES = 2_000_000
"""Sides of each of the 28 dice that :func:`random_layout` consumes (an even number)."""


STATE_FORMAT = 1


class RulesError(GameError):
    """Base class of every error the Asteroids engine raises (a protocol
    :class:`~games.protocol.GameError`: rule id, message id and values)."""


class MalformedAction(RulesError):
    """The action cannot be understood at all: wrong type, missing field, value out of range."""


class IllegalAction(RulesError):
    """The action is well formed but the rules forbid it in this state (cites the rule id)."""


class LayoutError(RulesError):
    """A setup layout breaks AST-2 or AST-3 or does not match the set's fragments."""


class StateError(RulesError):
    """A state is inconsistent (ships or fragments not conserved, stack too high, bad field)."""


def refuse(
    message_id: str, rule: str, cls: type[RulesError] | None = None, /, **values: Any
) -> RulesError:
    """The refusal ``message_id`` of :data:`~games.asteroids.messages.MESSAGES` citing
    ``rule`` (an :class:`IllegalAction` unless ``cls`` says otherwise)."""
    error = MESSAGES.error(message_id, rule, cls or IllegalAction, **values)
    assert isinstance(error, RulesError)
    return error


def _wrong_count(kind: FragmentKind, got: int) -> RulesError:
    """AST-2: a layout uses ``got`` fragments of ``kind``, the set has another number."""
    count = ASTEROIDS.fragment_counts[kind]
    return refuse("fragment_count", "AST-2", LayoutError, count=count, kind=kind.value, got=got)


def other(player: str) -> str:
    """The opponent of ``player`` ("A" <-> "B")."""
    return COLOURS[1] if player == COLOURS[0] else COLOURS[0]


def _check_int(name: str, value: Any, low: int, high: int, error: type[RulesError]) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise error(f"{name} must be an integer in {low}..{high}, got {value!r}")


def _check_choice(name: str, value: Any, allowed: Sequence[Any], error: type[RulesError]) -> None:
    if value not in allowed:
        raise error(f"{name} must be one of {list(allowed)}, got {value!r}")


@dataclass(frozen=True, kw_only=True, order=True)
class Spot:
    """A place on the board or a home base.

    Attributes:
        rift: 1..6 for a rift, 0 for A's home base, 7 for B's home base.
        place: 1..8 along the rift from the left; 0 for a base.

    Raises:
        MalformedAction: rift or place out of range, or a base with a place other than 0.
    """

    rift: int
    place: int

    def __post_init__(self) -> None:
        _check_int("rift", self.rift, 0, RIFTS + 1, MalformedAction)
        if self.is_base:
            if self.place != 0:
                raise MalformedAction(f"place of a base must be 0, got {self.place!r}")
        else:
            _check_int("place", self.place, 1, PLACES, MalformedAction)

    @property
    def is_base(self) -> bool:
        """True for a home base (AST-14)."""
        return self.rift in (0, RIFTS + 1)

    def to_json(self) -> list[int]:
        """``[rift, place]``."""
        return [self.rift, self.place]

    @classmethod
    def from_json(cls, data: Any, field: str = "spot") -> Spot:
        """Parse ``[rift, place]``; ``field`` names it in errors (``"origin"``).

        Raises:
            MalformedAction: not a pair of integers in range (names ``field``).
        """
        if not isinstance(data, list) or len(data) != 2:
            raise MalformedAction(f"{field} must be [rift, place], got {data!r:.40}")
        try:
            return cls(rift=data[0], place=data[1])
        except MalformedAction as exc:
            raise MalformedAction(f"{field}: {exc}") from exc


BASE = MappingProxyType({c: Spot(rift=r, place=0) for c, r in BASE_RIFT.items()})
"""Each player's home base as a :class:`Spot`."""


SPOTS: Mapping[tuple[int, int], Spot] = MappingProxyType(
    {
        **{
            (rift, place): Spot(rift=rift, place=place)
            for rift in range(1, RIFTS + 1)
            for place in range(1, PLACES + 1)
        },
        **{(spot.rift, 0): spot for spot in BASE.values()},
    }
)
"""Every spot of the board by ``(rift, place)``, made (and checked) once: the move search
looks spots up here instead of building and checking a new :class:`Spot` per candidate."""


@dataclass(frozen=True, kw_only=True)
class Tile:
    """A fragment standing in a rift (D6).

    Attributes:
        fragment: the fragment's id, an index into ``State.fragments`` (0..27).
        layout: ``"HH"``, ``"HA"`` (hole left, asteroid right) or ``"AH"``.
    """

    fragment: int
    layout: str

    def __post_init__(self) -> None:
        _check_int("fragment", self.fragment, 0, ASTEROIDS.fragment_total - 1, StateError)
        _check_choice("layout", self.layout, ("HH", "HA", "AH"), StateError)


@dataclass(frozen=True, kw_only=True)
class LastOut:
    """The fragment pushed out by the most recent push (AST-20, AST-23).

    Attributes:
        fragment: its id.
        rift: the rift it fell out of, 1..6.
        side: the end it fell out at, ``"left"`` or ``"right"``.
    """

    fragment: int
    rift: int
    side: str

    def __post_init__(self) -> None:
        _check_int("fragment", self.fragment, 0, ASTEROIDS.fragment_total - 1, StateError)
        _check_int("rift", self.rift, 1, RIFTS, StateError)
        _check_choice("side", self.side, SIDES, StateError)


def variant_to_json(variant: Variant) -> dict[str, Any]:
    """All variant flags by name (the form :func:`variant_from_json` reads)."""
    return {name: getattr(variant, name) for name in Variant.__annotations__}


def variant_from_json(data: Any) -> Variant:
    """Decode variant flags from JSON strictly: unnamed flags keep their defaults.

    Flags are typed exactly: ``jump_mandatory``, ``stack_on_enemy``, ``immediate_repush`` and
    ``scored_ships_mobile`` must be ``true``/``false`` (not 0/1, "no" or null); ``ships_in_play``
    must be the integer 7 or 8 (AST-1; not 7.0 and not a boolean).

    Raises:
        MalformedAction: not an object, an unknown flag, a wrongly typed or out-of-range value.
    """
    if not isinstance(data, dict):
        raise MalformedAction(f"variant must be a JSON object, got {type(data).__name__}")
    unknown = sorted(str(name)[:40] for name in set(data) - set(Variant.__annotations__))
    if unknown:
        raise MalformedAction(
            f"unknown variant flags {unknown[:5]}; known: {sorted(Variant.__annotations__)}"
        )
    defaults = Variant()
    for name, value in data.items():
        if isinstance(getattr(defaults, name), bool):
            if not isinstance(value, bool):
                raise MalformedAction(
                    f"variant {name} must be true or false, got {type(value).__name__} "
                    f"{repr(value)[:40]}"
                )
        elif name == "ships_in_play":
            _check_int(name, value, 7, 8, MalformedAction)  # AST-1
        elif not isinstance(value, int) or isinstance(value, bool):
            raise MalformedAction(f"variant {name} must be an integer, got {type(value).__name__}")
    try:
        return Variant(**data)
    except ValueError as exc:  # SpecError: a range the spec checks
        raise MalformedAction(f"variant: {exc}") from exc


# ------------------------------------------------------------------------------------ layout


@dataclass(frozen=True, kw_only=True)
class Layout:
    """The fragments as the players set them up (AST-2, AST-3, AST-4).

    Attributes:
        rifts: 6 rifts (rift 1 first) of 4 layouts each (left to right), see D6.
        supply: the kinds of the 4 remaining fragments.

    Raises:
        LayoutError: wrong number of rifts or fragments, an unknown layout, counts that do not
            match the set (14 HH + 14 HA), or a rift without an HH fragment (AST-3).
    """

    rifts: tuple[tuple[str, ...], ...]
    supply: tuple[FragmentKind, ...]

    def __post_init__(self) -> None:
        if len(self.rifts) != RIFTS:
            raise refuse("rift_count", "AST-2", LayoutError, rifts=RIFTS, got=len(self.rifts))
        counts = dict.fromkeys(FragmentKind, 0)
        for number, rift in enumerate(self.rifts, start=1):
            if len(rift) != ASTEROIDS.fragments_per_rift:
                raise refuse(
                    "rift_size",
                    "AST-2",
                    LayoutError,
                    rift=number,
                    size=ASTEROIDS.fragments_per_rift,
                    got=len(rift),
                )
            for layout in rift:
                _check_choice(f"layout in rift {number}", layout, ("HH", "HA", "AH"), LayoutError)
                counts[_kind_of(layout)] += 1
            if "HH" not in rift:
                raise refuse("rift_needs_hh", "AST-3", LayoutError, rift=number, got=list(rift))
        if len(self.supply) != ASTEROIDS.supply_size:
            raise refuse(
                "supply_size",
                "AST-2",
                LayoutError,
                size=ASTEROIDS.supply_size,
                got=len(self.supply),
            )
        for kind in self.supply:
            _check_choice("supply kind", kind, tuple(FragmentKind), LayoutError)
            counts[kind] += 1
        for kind, count in counts.items():
            if count != ASTEROIDS.fragment_counts[kind]:
                raise _wrong_count(kind, count)

    @classmethod
    def from_rifts(cls, rifts: Sequence[Sequence[str]]) -> Layout:
        """The layout the players built: the supply is whatever the rifts leave over (AST-4).

        Raises:
            LayoutError: as for the class, or more fragments of a kind than the set has.
        """
        frozen = tuple(tuple(rift) for rift in rifts)
        used = dict.fromkeys(FragmentKind, 0)
        for rift in frozen:
            for layout in rift:
                _check_choice("each layout of rifts", layout, ("HH", "HA", "AH"), LayoutError)
                used[_kind_of(layout)] += 1
        supply: list[FragmentKind] = []
        for kind in FragmentKind:
            left = ASTEROIDS.fragment_counts[kind] - used[kind]
            if left < 0:
                raise _wrong_count(kind, used[kind])
            supply += [kind] * left
        return cls(rifts=frozen, supply=tuple(supply))

    def to_json(self) -> dict[str, Any]:
        """``{"rifts": [[layout, ...], ...], "supply": [kind, ...]}``."""
        return {"rifts": [list(r) for r in self.rifts], "supply": [k.value for k in self.supply]}

    @classmethod
    def from_json(cls, data: Any) -> Layout:
        """Parse :meth:`to_json` output; ``supply`` may be omitted (see :meth:`from_rifts`).

        Raises:
            LayoutError: malformed or illegal layout.
        """
        if not isinstance(data, dict) or not isinstance(data.get("rifts"), list):
            raise LayoutError(f"a layout must be an object with a rifts list, got {data!r:.60}")
        rifts = data["rifts"]
        if not all(isinstance(r, list) for r in rifts):
            raise LayoutError(f"each of rifts must be a list of layouts, got {rifts!r:.60}")
        if data.get("supply") is None:
            return cls.from_rifts(rifts)
        try:
            supply = tuple(FragmentKind(k) for k in data["supply"])
        except (ValueError, TypeError) as exc:
            raise LayoutError(f"supply kinds must be HH or HA, got {data['supply']!r}") from exc
        return cls(rifts=tuple(tuple(r) for r in rifts), supply=supply)


def _kind_of(layout: str) -> FragmentKind:
    return FragmentKind.HH if layout == "HH" else FragmentKind.HA


def random_layout(faces: Sequence[int]) -> Layout:
    """A random legal layout from 28 dice of :data:`LAYOUT_DIE_SIDES` sides (AST-4, AST-3).

    Each face ``f`` gives a sort key ``(f - 1) // 2`` and an orientation bit ``(f - 1) % 2``
    (independent and uniform because the die has an even number of sides). The fragments are
    ordered by key (ties by index); the first 24 fill rifts 1..6 left to right, the last 4 are
    the supply. A rift left without an HH fragment swaps its first fragment with the first HH
    of the supply, or else with a spare HH of an earlier-ordered rift, so AST-3 always holds.

    Args:
        faces: 28 rolled faces, each 1..LAYOUT_DIE_SIDES.

    Raises:
        LayoutError: wrong number of faces or a face out of range.
    """
    total = ASTEROIDS.fragment_total
    if len(faces) != total:
        raise LayoutError(f"random_layout needs {total} faces, got {len(faces)}")
    for face in faces:
        if not isinstance(face, int) or not 1 <= face <= LAYOUT_DIE_SIDES:
            raise LayoutError(f"faces must be integers in 1..{LAYOUT_DIE_SIDES}, got {face!r}")
    kinds = [k for k in FragmentKind for _ in range(ASTEROIDS.fragment_counts[k])]
    order = sorted(range(total), key=lambda i: ((faces[i] - 1) // 2, i))
    layouts = []
    for i in order:
        flipped = (faces[i] - 1) % 2 == 1
        layouts.append("HH" if kinds[i] is FragmentKind.HH else ("AH" if flipped else "HA"))
    per = ASTEROIDS.fragments_per_rift
    rifts = [layouts[r * per : (r + 1) * per] for r in range(RIFTS)]
    supply = layouts[RIFTS * per :]
    for rift in rifts:
        if "HH" in rift:
            continue
        if "HH" in supply:
            j = supply.index("HH")
            rift[0], supply[j] = supply[j], rift[0]
            continue
        donor = next(r for r in rifts if r.count("HH") > 1)
        j = donor.index("HH")
        rift[0], donor[j] = donor[j], rift[0]
    return Layout(rifts=tuple(tuple(r) for r in rifts), supply=tuple(_kind_of(s) for s in supply))


# ------------------------------------------------------------------------------------- state


def _frozen_counts(counts: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType({c: counts[c] for c in COLOURS})


@dataclass(frozen=True, kw_only=True)
class State:
    """The whole game at one moment (the digital twin of the printed board).

    Attributes:
        variant: the variant flags in force (spec ``Variant``).
        fragments: the kind of every fragment by id (28).
        rifts: rift 1..6, each 4 :class:`Tile` left to right.
        supply: ids of the fragments beside the board, sorted (4, AST-2).
        stacks: ships on places: ``Spot -> colours bottom to top`` (at most 3, AST-12).
        home: ships in their own home base per colour (AST-1, AST-13, AST-21).
        scored: ships in the opposing base per colour (AST-18).
        player: whose turn it is.
        phase: ``"step1"``, ``"step2"``, ``"push"`` or ``"over"``.
        push_rift: the rift the push must use (AST-20), or None when the player chooses
            (AST-22, D3) or outside the push phase.
        last_out: the fragment pushed out by the most recent push (AST-23, D4).
        winner: the winning colour once ``phase`` is ``"over"`` (AST-30).
        turn: 1 for the first turn, +1 after every push.
        ply: actions applied since setup; only ever grows.
        returned: colours of the ships the last action sent home (AST-13, AST-16, AST-21).

    Raises:
        StateError: a field out of range, ships or fragments not conserved, a stack above 3,
            a ship on an asteroid.
    """

    variant: Variant
    fragments: tuple[FragmentKind, ...]
    rifts: tuple[tuple[Tile, ...], ...]
    supply: tuple[int, ...]
    stacks: Mapping[Spot, tuple[str, ...]]
    home: Mapping[str, int]
    scored: Mapping[str, int]
    player: str
    phase: str
    push_rift: int | None = None
    last_out: LastOut | None = None
    winner: str | None = None
    turn: int = 1
    ply: int = 0
    returned: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        _check_choice("player", self.player, COLOURS, StateError)
        _check_choice("phase", self.phase, PHASES, StateError)
        if (self.phase == "over") != (self.winner is not None):
            raise StateError(f"winner must be set exactly when phase is over, got {self.winner!r}")
        if self.push_rift is not None:
            _check_int("push_rift", self.push_rift, 1, RIFTS, StateError)
        ids = sorted([t.fragment for rift in self.rifts for t in rift] + list(self.supply))
        if (
            ids != list(range(len(self.fragments)))
            or len(self.fragments) != ASTEROIDS.fragment_total
        ):
            raise StateError(f"fragments must be conserved: ids {ids} for {len(self.fragments)}")
        if len(self.rifts) != RIFTS or any(
            len(r) != ASTEROIDS.fragments_per_rift for r in self.rifts
        ):
            raise StateError("rifts must be 6 rifts of 4 fragments (AST-2)")
        for rift in self.rifts:
            for tile in rift:
                if tile.layout not in LAYOUTS[self.fragments[tile.fragment]]:
                    raise StateError(f"fragment {tile.fragment} cannot lie as {tile.layout}")
        on_board = dict.fromkeys(COLOURS, 0)
        for spot, stack in self.stacks.items():
            if spot.is_base or not 1 <= len(stack) <= ASTEROIDS.max_stack:
                raise StateError(f"stack at {spot} must be 1..3 ships on a place, got {stack}")
            if self.cell(spot) == "A":
                raise StateError(f"a ship stands on an asteroid at {spot} (AST-11)")
            for colour in stack:
                _check_choice("ship colour", colour, COLOURS, StateError)
                on_board[colour] += 1
        for colour in COLOURS:
            total = on_board[colour] + self.home[colour] + self.scored[colour]
            if (
                total != self.variant.ships_in_play
                or min(self.home[colour], self.scored[colour]) < 0
            ):
                raise StateError(
                    f"ships of {colour} must be conserved at {self.variant.ships_in_play}, got "
                    f"{on_board[colour]} on board + {self.home[colour]} home + "
                    f"{self.scored[colour]} scored"
                )

    def cell(self, spot: Spot) -> str:
        """``"H"`` (hole) or ``"A"`` (asteroid) at a place; ``"B"`` for a base."""
        if spot.is_base:
            return "B"
        tile = self.rifts[spot.rift - 1][(spot.place - 1) // 2]
        return tile.layout[(spot.place - 1) % 2]

    @property
    def spares(self) -> int:
        """Ships per colour kept out of play (9 printed minus ships in play)."""
        return ASTEROIDS.ships_per_colour - self.variant.ships_in_play

    def ships_total(self) -> int:
        """All ships of both colours, spares included (18 with the default set)."""
        on_board = sum(len(s) for s in self.stacks.values())
        return on_board + sum(self.home.values()) + sum(self.scored.values()) + 2 * self.spares


STATE_FIELDS = frozenset(f.name for f in fields(State))


def evolve(state: State, **changes: Any) -> State:
    """``dataclasses.replace(state, **changes)`` without :class:`State`'s checks, for the rules'
    own steps (:mod:`games.asteroids.rules`): a step keeps the invariants by construction
    (fragments and ships conserved, layouts of their kind, stacks of 1..3 on holes), and every
    state of random legal playouts is checked again in ``tests/games/test_asteroids_rules.py``.
    A state built from outside (``State(...)``, :func:`new_game`, :func:`loads`) is still
    checked. Why: the checks walked every fragment and stack again on each action (issue 32's
    profile of the server). Only the fields are copied (not a memo such as the legal targets).

    Raises:
        TypeError: a name that is not a field of :class:`State`.
    """
    unknown = changes.keys() - STATE_FIELDS
    if unknown:
        raise TypeError(f"State has no field {sorted(unknown)}")
    new = object.__new__(State)
    values = vars(new)
    for name in STATE_FIELDS:
        values[name] = changes[name] if name in changes else getattr(state, name)
    return new


def new_game(*, layout: Layout, first_player: str, variant: Variant | None = None) -> State:
    """The state after setup (AST-1, AST-2, AST-3, AST-5).

    Fragment ids are assigned in layout order: rift 1 left to right, ..., rift 6, then the
    supply.

    Args:
        layout: the fragments, legal per AST-2/AST-3.
        first_player: "A" or "B", chosen at random by the caller (AST-5).
        variant: the variant flags; defaults to the digest's defaults.

    Raises:
        StateError: ``first_player`` not A or B.
    """
    variant = variant or Variant()
    _check_choice("first_player", first_player, COLOURS, StateError)
    fragments: list[FragmentKind] = []
    rifts = []
    for rift in layout.rifts:
        tiles = []
        for lay in rift:
            tiles.append(Tile(fragment=len(fragments), layout=lay))
            fragments.append(_kind_of(lay))
        rifts.append(tuple(tiles))
    supply = tuple(range(len(fragments), len(fragments) + len(layout.supply)))
    fragments += layout.supply
    counts = dict.fromkeys(COLOURS, variant.ships_in_play)
    return State(
        variant=variant,
        fragments=tuple(fragments),
        rifts=tuple(rifts),
        supply=supply,
        stacks=MappingProxyType({}),
        home=_frozen_counts(counts),
        scored=_frozen_counts(dict.fromkeys(COLOURS, 0)),
        player=first_player,
        phase="step1",
    )


def first_player_from_face(face: int) -> str:
    """AST-5: a 2-sided die chooses the starting player, 1 -> A, 2 -> B.

    Raises:
        StateError: face not 1 or 2.
    """
    _check_choice("face", face, (1, 2), StateError)
    return COLOURS[face - 1]


# --------------------------------------------------------------------------------- JSON I/O


def state_to_json(state: State) -> dict[str, Any]:
    """Encode a state as a JSON-ready dict (round trip with :func:`state_from_json`)."""
    last = state.last_out
    return {
        "format": STATE_FORMAT,
        "variant": variant_to_json(state.variant),
        "fragments": [k.value for k in state.fragments],
        "rifts": [[[t.fragment, t.layout] for t in rift] for rift in state.rifts],
        "supply": list(state.supply),
        "stacks": [[s.rift, s.place, list(st)] for s, st in sorted(state.stacks.items())],
        "home": dict(state.home),
        "scored": dict(state.scored),
        "player": state.player,
        "phase": state.phase,
        "push_rift": state.push_rift,
        "last_out": None if last is None else [last.fragment, last.rift, last.side],
        "winner": state.winner,
        "turn": state.turn,
        "ply": state.ply,
        "returned": list(state.returned),
    }


def state_from_json(data: Mapping[str, Any]) -> State:
    """Decode :func:`state_to_json` output.

    Raises:
        StateError: wrong format version, missing fields or an inconsistent state.
    """
    try:
        if data["format"] != STATE_FORMAT:
            raise StateError(f"format must be {STATE_FORMAT}, got {data['format']!r}")
        last = data["last_out"]
        return State(
            variant=Variant(**data["variant"]),
            fragments=tuple(FragmentKind(k) for k in data["fragments"]),
            rifts=tuple(tuple(Tile(fragment=f, layout=lay) for f, lay in r) for r in data["rifts"]),
            supply=tuple(data["supply"]),
            stacks=MappingProxyType(
                {Spot(rift=r, place=p): tuple(st) for r, p, st in data["stacks"]}
            ),
            home=_frozen_counts(data["home"]),
            scored=_frozen_counts(data["scored"]),
            player=data["player"],
            phase=data["phase"],
            push_rift=data["push_rift"],
            last_out=None
            if last is None
            else LastOut(fragment=last[0], rift=last[1], side=last[2]),
            winner=data["winner"],
            turn=data["turn"],
            ply=data["ply"],
            returned=tuple(data["returned"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, StateError):
            raise
        raise StateError(f"not an Asteroids state: {exc!r}") from exc


def dumps(state: State) -> str:
    """The state as compact, key-sorted JSON text."""
    return json.dumps(state_to_json(state), sort_keys=True, separators=(",", ":"))


def loads(text: str) -> State:
    """Parse :func:`dumps` output.

    Raises:
        StateError: not JSON or not a consistent state.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StateError(f"state is not JSON: {exc}") from exc
    return state_from_json(data)
