"""The Asteroids rules engine: pure state, actions, ``legal_actions`` and ``apply``.

Source: shared/rules/asteroids.md (rule ids AST-n are cited on every decision). The engine
performs no I/O and never rolls dice: randomness (the layout of AST-4, the starting player of
AST-5) comes in as dice faces rolled by the caller.

Board frame (the same as :mod:`games.asteroids.spec`): rifts 1..6 run from player A's home base
to player B's; places 1..8 run from the left end of a rift to the right end. A :class:`Spot`
with ``rift`` 0 is A's home base, ``rift`` 7 is B's home base (``place`` 0 for both); a base is
one big place (AST-14). "Up" is towards B (rift + 1), "down" towards A (rift - 1).

A turn is exactly step, step, push (AST-10..AST-24). ``State.phase`` walks
``"step1" -> "step2" -> "push"`` and hands over to the other player; ``"over"`` once a player
has 5 ships in the opposing base (AST-30).

Decisions where the rules digest is silent (each also named where it applies):

* D1 (AST-12, variant ``stack_on_enemy=False``): a ship may end only on an empty place or on a
  stack made of its own colour only.
  Seed: "Befindet sich auf dem Zielfeld schon ein Raumschiff, so darf gestapelt werden (max.
  drei Raumschiffe)." (If a ship is on the target place already, ships may stack, at most three;
  it names no colour.)
* D2 (AST-14): a ship may move into either base from the adjacent rift, its own base included
  (a retreat); entering the opposing base scores it (AST-18).
  Seed: "man darf von jedem Feld in die Heimatbasis ziehen und aus der Heimatbasis in jedes
  beliebige anliegende Feld ziehen" (one may move from any place into the home base and out of
  it onto any adjacent place).
* D3 (AST-22, AST-24): if the 2nd step was skipped, the player chooses the rift to push, as if
  the step had ended off the board.
  Seed: "Die Subraumspalte, in der die zweite Zug- bzw. Sprungaktion endete, wird instabil!"
  (The rift in which the second step or jump ended becomes unstable; it names no rift for a step
  that ended elsewhere.)
* D4 (AST-23, variant ``immediate_repush=False``): "pushed straight back in" means the fragment
  that fell out at the previous push, pushed into the same rift from the end where it fell
  out (undoing that push). Pushing it elsewhere stays legal.
  Seed: "Der Spieler wählt eine der vier verbleibenden Fragmente aus und schiebt diese wahlweise
  von rechts oder links in die Spalte." (The player picks one of the four remaining fragments
  and pushes it in from the right or the left; nothing forbids the one that fell out.)
* D5 (AST-15/AST-16): a step or a jump whose target is a base or off the board has the same
  outcome whatever its length, so a :class:`Move` names the origin and the target only.
* D6: a fragment's layout in a rift is ``"HH"``, ``"HA"`` (hole left, asteroid right) or
  ``"AH"``; an HH fragment has the single layout ``"HH"``.
  Seed: "Die Basis ist hierbei eine Ausnahme: hier dürfen übrige Sprungfelder verfallen." (The
  base is the exception: leftover jump places may be forfeited.)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
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


# ----------------------------------------------------------------------------------- actions


@dataclass(frozen=True, kw_only=True)
class Move:
    """A step (AST-10) or a jump (AST-15) of the top ship at ``origin`` of the player to move.

    Attributes:
        origin: where the ship stands: a place, the player's own base, or (variant
            ``scored_ships_mobile``) the opposing base.
        target: where it ends: a place, a base, or ``None`` for off the board sideways, which
            returns it home (AST-13, AST-16). See D5.
    """

    origin: Spot
    target: Spot | None

    def __post_init__(self) -> None:
        if not isinstance(self.origin, Spot):
            raise MalformedAction(f"origin must be a Spot, got {self.origin!r}")
        if self.target is not None and not isinstance(self.target, Spot):
            raise MalformedAction(f"target must be a Spot or None, got {self.target!r}")


@dataclass(frozen=True, kw_only=True)
class Skip:
    """Skip a step because no step is possible (AST-24)."""


@dataclass(frozen=True, kw_only=True)
class Push:
    """Push a supply fragment into a rift (AST-20).

    Attributes:
        fragment: id of a fragment in the supply.
        layout: its orientation as it enters (D6).
        side: the end it is pushed in from, ``"left"`` or ``"right"``.
        rift: 1..6; must be the rift of the 2nd step unless AST-22 / D3 lets the player choose.

    Raises:
        MalformedAction: a field out of range.
    """

    fragment: int
    layout: str
    side: str
    rift: int

    def __post_init__(self) -> None:
        _check_int("fragment", self.fragment, 0, ASTEROIDS.fragment_total - 1, MalformedAction)
        _check_choice("layout", self.layout, ("HH", "HA", "AH"), MalformedAction)
        _check_choice("side", self.side, SIDES, MalformedAction)
        _check_int("rift", self.rift, 1, RIFTS, MalformedAction)


Action = Move | Skip | Push


def action_to_json(action: Action) -> dict[str, Any]:
    """Encode an action as a JSON-ready dict (``{"type": "move"|"skip"|"push", ...}``)."""
    if isinstance(action, Move):
        target = None if action.target is None else action.target.to_json()
        return {"type": "move", "origin": action.origin.to_json(), "target": target}
    if isinstance(action, Skip):
        return {"type": "skip"}
    return {
        "type": "push",
        "fragment": action.fragment,
        "layout": action.layout,
        "side": action.side,
        "rift": action.rift,
    }


_ACTION_FIELDS = {"move": {"origin", "target"}, "skip": set(), "push": set(Push.__annotations__)}


def action_from_json(data: Any) -> Action:
    """Decode an action produced by :func:`action_to_json`.

    Raises:
        MalformedAction: not an object, unknown ``type``, missing or extra fields, values out of
            range.
    """
    if not isinstance(data, dict):
        raise MalformedAction(f"an action must be a JSON object, got {type(data).__name__}")
    kind = data.get("type", "")
    _check_choice("type", kind, tuple(_ACTION_FIELDS), MalformedAction)
    fields = set(data) - {"type"}
    if fields != _ACTION_FIELDS[kind]:
        raise MalformedAction(
            f"fields of a {kind} action must be {sorted(_ACTION_FIELDS[kind])}, got {sorted(fields)}"
        )
    if kind == "move":
        target = None if data["target"] is None else Spot.from_json(data["target"], "target")
        return Move(origin=Spot.from_json(data["origin"], "origin"), target=target)
    if kind == "skip":
        return Skip()
    return Push(**{name: data[name] for name in _ACTION_FIELDS["push"]})


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
            raise _refuse("rift_count", "AST-2", LayoutError, rifts=RIFTS, got=len(self.rifts))
        counts = dict.fromkeys(FragmentKind, 0)
        for number, rift in enumerate(self.rifts, start=1):
            if len(rift) != ASTEROIDS.fragments_per_rift:
                raise _refuse(
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
                raise _refuse("rift_needs_hh", "AST-3", LayoutError, rift=number, got=list(rift))
        if len(self.supply) != ASTEROIDS.supply_size:
            raise _refuse(
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


# ------------------------------------------------------------------------------ move making


def _can_land(state: State, spot: Spot, colour: str) -> bool:
    """AST-11, AST-12 (and D1): may a ship of ``colour`` end on ``spot``?"""
    if spot.is_base:
        return True
    if state.cell(spot) == "A":
        return False
    stack = state.stacks.get(spot, ())
    if len(stack) >= ASTEROIDS.max_stack:
        return False
    return state.variant.stack_on_enemy or all(c == colour for c in stack)


_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _destination(origin: Spot, drift: int, dplace: int, distance: int) -> Spot | None:
    """Where a straight line of ``distance`` places ends (AST-10, AST-15, AST-16).

    Returns the landing spot, a base (leftover distance forfeited, AST-16) or None when the
    line leaves the board sideways (AST-13).
    """
    if dplace:
        place = origin.place + dplace * distance
        return SPOTS[origin.rift, place] if 1 <= place <= PLACES else None
    for k in range(1, distance + 1):
        rift = origin.rift + drift * k
        if rift in (0, RIFTS + 1):
            return SPOTS[rift, 0]
    return SPOTS[origin.rift + drift * distance, origin.place]


def _origins(state: State) -> list[Spot]:
    """Spots holding a ship of the player to move that may move (AST-12, AST-14, AST-18)."""
    me = state.player
    spots = [spot for spot, stack in state.stacks.items() if stack[-1] == me]
    if state.home[me]:
        spots.append(BASE[me])
    if state.variant.scored_ships_mobile and state.scored[me]:
        spots.append(BASE[other(me)])
    return sorted(spots)


def _targets(state: State, origin: Spot) -> list[Spot | None]:
    """All ends of a legal step or jump from ``origin`` (AST-10..AST-16, D5)."""
    me = state.player
    found: list[Spot | None] = []
    if origin.is_base:
        rift = 1 if origin.rift == 0 else RIFTS
        for place in range(1, PLACES + 1):
            spot = SPOTS[rift, place]
            if _can_land(state, spot, me):
                found.append(spot)
        return found
    height = len(state.stacks[origin])
    distances = [height] if height > 1 and state.variant.jump_mandatory else [1]
    if height > 1 and not state.variant.jump_mandatory:
        distances.append(height)
    for distance in distances:
        for drift, dplace in _DIRECTIONS:
            end = _destination(origin, drift, dplace, distance)
            if (end is None or _can_land(state, end, me)) and end not in found:
                found.append(end)
    return found


def _legal_targets(state: State) -> Mapping[Spot, list[Spot | None]]:
    """Origin -> the ends of its legal steps or jumps, for every origin of the player to move
    (AST-10..AST-16, D5); empty outside the step phases.

    Computed once per state and kept on it (a state never changes): the view's legal actions
    and the check of the next move read the same search.
    """
    memo: Mapping[Spot, list[Spot | None]] | None = state.__dict__.get("_legal_targets")
    if memo is None:
        if state.phase in ("step1", "step2"):
            memo = {origin: _targets(state, origin) for origin in _origins(state)}
        else:
            memo = {}
        object.__setattr__(state, "_legal_targets", memo)
    return memo


def legal_moves(state: State) -> list[Move]:
    """Every legal :class:`Move` of the player to move (empty outside the step phases)."""
    return [Move(origin=o, target=t) for o, ends in _legal_targets(state).items() for t in ends]


def legal_actions(state: State) -> list[Action]:
    """Every action :func:`apply` accepts in ``state``, in a stable order.

    Steps: the legal moves, or ``Skip`` when there is none (AST-24). Push: every supply
    fragment x layout x side x allowed rift (AST-20, AST-22, AST-23 / D4). Over: none.
    """
    if state.phase in ("step1", "step2"):
        moves: list[Action] = list(legal_moves(state))
        return moves or [Skip()]
    if state.phase == "push":
        rifts = [state.push_rift] if state.push_rift else range(1, RIFTS + 1)
        return [
            push
            for fragment in state.supply
            for layout in LAYOUTS[state.fragments[fragment]]
            for rift in rifts
            for side in SIDES
            if not _is_straight_back(
                state, push := Push(fragment=fragment, layout=layout, side=side, rift=rift)
            )
        ]
    return []


def _is_straight_back(state: State, push: Push) -> bool:
    """D4: would this push undo the previous one while the variant forbids it (AST-23)?"""
    last = state.last_out
    return (
        not state.variant.immediate_repush
        and last is not None
        and push.fragment == last.fragment
        and push.rift == last.rift
        and push.side == last.side
    )


def apply(state: State, action: Action) -> State:
    """The state after ``action`` by the player to move.

    Raises:
        MalformedAction: ``action`` is not a Move, Skip or Push.
        IllegalAction: the rules forbid it now; the message cites the rule id.
    """
    if not isinstance(action, (Move, Skip, Push)):
        raise MalformedAction(f"action must be a Move, Skip or Push, got {type(action).__name__}")
    if state.phase == "over":
        raise _refuse("game_over", "AST-30", winner=state.winner)
    if isinstance(action, Push):
        return _apply_push(state, action)
    if state.phase == "push":
        raise _refuse("must_push", "AST-20")
    if isinstance(action, Skip):
        if any(_legal_targets(state).values()):
            raise _refuse("skip_not_allowed", "AST-24")
        return _after_step(state, end=None, returned=(), skipped=True, **_unchanged(state))
    return _apply_move(state, action)


def _wrong_count(kind: FragmentKind, got: int) -> RulesError:
    """AST-2: a layout uses ``got`` fragments of ``kind``, the set has another number."""
    count = ASTEROIDS.fragment_counts[kind]
    return _refuse("fragment_count", "AST-2", LayoutError, count=count, kind=kind.value, got=got)


def _refuse(
    message_id: str, rule: str, cls: type[RulesError] | None = None, /, **values: Any
) -> RulesError:
    """The refusal ``message_id`` of :data:`~games.asteroids.messages.MESSAGES` citing
    ``rule`` (an :class:`IllegalAction` unless ``cls`` says otherwise)."""
    error = MESSAGES.error(message_id, rule, cls or IllegalAction, **values)
    assert isinstance(error, RulesError)
    return error


def _why_not(state: State, origin: Spot, target: Spot | None) -> RulesError:
    """The one rule a move from a legal ``origin`` to ``target`` breaks (AST-10..AST-16)."""
    shown = {"origin": str(origin.to_json()), "target": str(target.to_json()) if target else "off"}
    if origin.is_base:
        if target is not None and target.rift == (1 if origin.rift == 0 else RIFTS):
            return _landing(state, target, shown)
        return _refuse("from_base", "AST-14", **shown)
    height = len(state.stacks[origin])
    for distance in (1, height):
        ends = {_destination(origin, dr, dp, distance) for dr, dp in _DIRECTIONS}
        if target in ends:
            if distance == 1 and height > 1 and state.variant.jump_mandatory:
                return _refuse("jump_mandatory", "AST-15", height=height, **shown)
            assert target is not None  # leaving the board sideways is never refused
            return _landing(state, target, shown)
    if target is None:
        return _refuse("not_off_here", "AST-13", **shown)
    if height > 1 and abs(target.rift - origin.rift) + abs(target.place - origin.place) > 1:
        return _refuse("jump_length", "AST-15", height=height, **shown)
    return _refuse("not_orthogonal", "AST-10", **shown)


def _landing(state: State, target: Spot, shown: dict[str, Any]) -> RulesError:
    """Why a ship of the player to move may not end on ``target`` (AST-11, AST-12, D1)."""
    if state.cell(target) == "A":
        return _refuse("onto_asteroid", "AST-11", **shown)
    if len(state.stacks.get(target, ())) >= ASTEROIDS.max_stack:
        return _refuse("stack_full", "AST-12", **shown)
    return _refuse("own_stacks_only", "AST-12", **shown)


def _unchanged(state: State) -> dict[str, Any]:
    return {"stacks": dict(state.stacks), "home": dict(state.home), "scored": dict(state.scored)}


def _apply_move(state: State, move: Move) -> State:
    me = state.player
    origin, target = move.origin, move.target
    ends = _legal_targets(state).get(origin)
    if ends is None:
        if not origin.is_base and origin in state.stacks:
            raise _refuse("top_ship_only", "AST-12", player=me)
        if origin == BASE[other(me)] and state.scored[me]:
            raise _refuse("scored_stay", "AST-18")
        raise _refuse("no_ship_here", "AST-10", player=me, origin=str(origin.to_json()))
    if target not in ends:
        raise _why_not(state, origin, target)
    parts = _unchanged(state)
    stacks, home, scored = parts["stacks"], parts["home"], parts["scored"]
    if origin == BASE[me]:
        home[me] -= 1
    elif origin.is_base:
        scored[me] -= 1
    else:
        rest = stacks[origin][:-1]
        if rest:
            stacks[origin] = rest
        else:
            del stacks[origin]
    returned: tuple[str, ...] = ()
    if target is None:
        home[me] += 1
        returned = (me,)
    elif target == BASE[me]:
        home[me] += 1
    elif target.is_base:
        scored[me] += 1
    else:
        stacks[target] = stacks.get(target, ()) + (me,)
    return _after_step(state, end=target, returned=returned, skipped=False, **parts)


def _after_step(
    state: State,
    *,
    end: Spot | None,
    returned: tuple[str, ...],
    skipped: bool,
    stacks: dict[Spot, tuple[str, ...]],
    home: dict[str, int],
    scored: dict[str, int],
) -> State:
    """Advance the phase after a step or a skip; check AST-30 after every step."""
    winner = state.player if scored[state.player] >= ASTEROIDS.ships_to_win else None
    if winner:
        phase, push_rift = "over", None
    elif state.phase == "step1":
        phase, push_rift = "step2", None
    else:
        phase = "push"
        push_rift = end.rift if end is not None and not end.is_base and not skipped else None
    return replace(
        state,
        stacks=MappingProxyType(stacks),
        home=_frozen_counts(home),
        scored=_frozen_counts(scored),
        phase=phase,
        push_rift=push_rift,
        winner=winner,
        ply=state.ply + 1,
        returned=returned,
    )


def _apply_push(state: State, push: Push) -> State:
    if state.phase != "push":
        raise _refuse("push_after_steps", "AST-20", phase=state.phase)
    if push.fragment not in state.supply:
        raise _refuse("not_in_supply", "AST-20", supply=list(state.supply), fragment=push.fragment)
    kind = state.fragments[push.fragment]
    if push.layout not in LAYOUTS[kind]:
        raise _refuse(
            "layout_of_kind",
            "AST-20",
            kind=kind.value,
            layouts=list(LAYOUTS[kind]),
            layout=push.layout,
        )
    if state.push_rift is not None and push.rift != state.push_rift:
        raise _refuse("push_this_rift", "AST-20", rift=state.push_rift, got=push.rift)
    if _is_straight_back(state, push):
        raise _refuse("no_straight_back", "AST-23")
    tiles = list(state.rifts[push.rift - 1])
    shift = 2 if push.side == "left" else -2
    new_tile = Tile(fragment=push.fragment, layout=push.layout)
    if push.side == "left":
        out, tiles = tiles[-1], [new_tile, *tiles[:-1]]
        out_places, out_side = (PLACES - 1, PLACES), "right"
    else:
        out, tiles = tiles[0], [*tiles[1:], new_tile]
        out_places, out_side = (1, 2), "left"
    stacks: dict[Spot, tuple[str, ...]] = {}
    home = dict(state.home)
    returned: list[str] = []
    for spot, stack in state.stacks.items():
        if spot.rift != push.rift:
            stacks[spot] = stack
        elif spot.place in out_places:
            for colour in stack:  # AST-21
                home[colour] += 1
                returned.append(colour)
        else:
            stacks[SPOTS[spot.rift, spot.place + shift]] = stack
    rifts = list(state.rifts)
    rifts[push.rift - 1] = tuple(tiles)
    supply = tuple(sorted([f for f in state.supply if f != push.fragment] + [out.fragment]))
    return replace(
        state,
        rifts=tuple(rifts),
        supply=supply,
        stacks=MappingProxyType(stacks),
        home=_frozen_counts(home),
        player=other(state.player),
        phase="step1",
        push_rift=None,
        last_out=LastOut(fragment=out.fragment, rift=push.rift, side=out_side),
        turn=state.turn + 1,
        ply=state.ply + 1,
        returned=tuple(returned),
    )


# ------------------------------------------------------------------------------------ outcome


@dataclass(frozen=True, kw_only=True)
class Outcome:
    """How a finished game ended (AST-30).

    Attributes:
        winner: "A" or "B".
        score: ships in the opposing base per colour.
        turn: the turn in which the game ended.
    """

    winner: str
    score: Mapping[str, int]
    turn: int


def outcome(state: State) -> Outcome | None:
    """The :class:`Outcome` once the game is over (AST-30), else None."""
    if state.winner is None:
        return None
    return Outcome(winner=state.winner, score=state.scored, turn=state.turn)


def score(state: State) -> dict[str, int]:
    """Ships of each colour in the opposing base (AST-18, AST-30)."""
    return dict(state.scored)


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
