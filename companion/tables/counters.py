"""Counters of your own: named counters each player keeps beside any game's state.

A player adds a counter to the table (victory points, a resource, a house rule), changes it by
+/- n and removes it; both phones and watchers see every counter live. The platform keeps them
for every game alike, without knowing any: they are folded from the table's log beside the
game state (:class:`companion.tables.fold.Fold`), never passed to a game's rules. (Not the
games' own counters on units and characters: those are game actions of type ``counter``,
logged as ``action`` events; these are ``counter`` events of the platform.)

Decisions:

* **Owned by a seat.** "Each player can add": a counter belongs to the seat that added it;
  both seats and watchers see it, only its owner changes or removes it. A shared counter would
  need both phones to agree on who changed it last; two counters of the same name (one per
  seat) say the same without that.
* **Names** are 1..:data:`NAME_CHARS` characters once trimmed, runs of white space read as one
  space, no control characters, no format characters but the joiners (a right-to-left
  override would turn the other phone's log line around; a zero-width space alone shows
  nothing), at least one visible character; unique per seat ignoring case ("Victory points" and "victory
  points" are one counter), so seat A and seat B may each keep a "Victory points".
* **Values** are whole numbers in :data:`VALUE_MIN`..:data:`VALUE_MAX`; a change that would
  leave them is refused (never clamped, so every change can be undone exactly). At most
  :data:`MAX_COUNTERS` counters per seat.
* **Logged and undoable like a game action.** Each change is a ``counter`` event (payload
  ``{"counter": CounterChange.to_json(), "after": value}``; for a removal ``after`` is the
  value it had) and an undoable entry of its seat in the turn's undo stack. It never changes
  whose turn it is and is no barrier; a turn's end, a roll and the setup are barriers for it
  as for game actions. *Undo my last action* takes back the seat's own most recent entry, also
  when the other seat's entries came after it, as long as those cannot depend on it: a counter
  change depends on nothing but its own counter, so the other seat's counter changes never
  block an undo, and the other seat's game actions do not block the undo of a counter change
  (:func:`undo_index`). Two game actions keep the games' rule: only the most recent.
* **Both phones at once.** A counter change chosen at an older revision still applies unless
  that same counter of the same seat changed in between (:func:`commutes_since`); game actions
  pass over counter changes likewise (:mod:`companion.tables.commute`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from companion.tables.rejected import brief

NAME_CHARS = 40
"""Longest counter name, in characters after trimming."""
VALUE_MIN = -9999
"""Smallest value a counter may hold."""
VALUE_MAX = 9999
"""Largest value a counter may hold."""
STEP_MAX = VALUE_MAX - VALUE_MIN
"""Largest change in one step (``by``, either sign): from one bound to the other."""
MAX_COUNTERS = 12
"""Counters one seat may keep at a time (the panel stays small; the view stays short)."""
OPS = ("add", "change", "remove")
"""What a counter write does: add a counter, change its value by ``by``, remove it."""

Op = Literal["add", "change", "remove"]
_SPACE = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_JOINERS = frozenset("\u200c\u200d")
"""Format characters a name may hold: the zero-width non-joiner and joiner (Persian words,
emoji sequences); every other format character (bidi overrides and isolates, zero-width
spaces, the byte order mark) is refused."""
_INVISIBLE = ("M", "Z", "C")
"""Unicode category initials of what alone shows nothing: marks, spaces, the joiners."""


def _unshown(name: str) -> str | None:
    """Why ``name`` (trimmed) would not show as what it says, or None: a format character
    other than a joiner (a right-to-left override would turn the log line around), a lone
    surrogate, or no visible character at all."""
    for char in name:
        category = unicodedata.category(char)
        if category == "Cs":
            return "must be text (a lone surrogate is not)"
        if category == "Cf" and char not in _JOINERS:
            return f"must not hold format characters (U+{ord(char):04X})"
    if all(unicodedata.category(char)[0] in _INVISIBLE for char in name):
        return "must hold a visible character"
    return None


class CounterError(ValueError):
    """A counter request that cannot be read (HTTP 400 ``malformed``): names the field, the
    allowed values and what was sent.

    Attributes:
        field: the request's field (``"op"``, ``"name"``, ``"by"``, ``"value"``).
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class CounterRefused(ValueError):
    """A counter change the table's counters do not allow now (HTTP 422).

    Attributes:
        reason: ``"counter_exists"`` (the seat has one of that name), ``"counter_unknown"``
            (it has none), ``"counter_bounds"`` (the value would leave
            :data:`VALUE_MIN`..:data:`VALUE_MAX`) or ``"counter_limit"`` (:data:`MAX_COUNTERS`
            already).
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def _integer(data: Mapping[str, Any], field: str, low: int, high: int, default: int) -> int:
    value = data.get(field, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise CounterError(
            field, f"{field} must be a whole number in {low}..{high}, got {brief(value)}"
        )
    return value


def counter_name(value: Any) -> str:
    """A counter's name as kept: trimmed, white space runs as one space.

    Raises:
        CounterError: not a string, no control characters allowed, empty once trimmed or
            longer than :data:`NAME_CHARS` characters, a format character other than the
            joiners U+200C/U+200D (bidi controls, zero-width spaces), a lone surrogate, or
            nothing visible (only marks and joiners) (field ``name``).
    """
    if not isinstance(value, str):
        raise CounterError(
            "name", f"name must be text of 1..{NAME_CHARS} characters, got {brief(value)}"
        )
    if _CONTROL.search(value.replace("\t", " ").replace("\n", " ")):
        raise CounterError("name", f"name must not hold control characters, got {brief(value)}")
    name = _SPACE.sub(" ", value).strip()
    if not 1 <= len(name) <= NAME_CHARS:
        raise CounterError(
            "name",
            f"name must be 1..{NAME_CHARS} characters once trimmed, got {len(name)} "
            f"({brief(name)})",
        )
    unshown = _unshown(name)
    if unshown is not None:
        raise CounterError("name", f"name {unshown}, got {ascii(name)[:60]}")
    return name


@dataclass(frozen=True, kw_only=True)
class CounterChange:
    """One counter write of a seat, checked (:meth:`from_json`) and logged (:meth:`to_json`).

    Attributes:
        op: ``"add"``, ``"change"`` or ``"remove"``.
        name: the counter's name (:func:`counter_name`).
        by: for ``change``: the step, nonzero, within +/- :data:`STEP_MAX`; else 0.
        value: for ``add``: the starting value in :data:`VALUE_MIN`..:data:`VALUE_MAX`
            (default 0); else 0.
    """

    op: Op
    name: str
    by: int = 0
    value: int = 0

    @classmethod
    def from_json(cls, data: Any) -> CounterChange:
        """Read a counter write: ``{"op": "add", "name", "value"?}``, ``{"op": "change",
        "name", "by"}`` or ``{"op": "remove", "name"}``.

        Raises:
            CounterError: naming the field (``op``, ``name``, ``by``, ``value``) and its
                allowed values.
        """
        if not isinstance(data, Mapping):
            raise CounterError(
                "counter", f"a counter write must be a JSON object, got {brief(data)}"
            )
        op = data.get("op")
        if op not in OPS:
            raise CounterError("op", f"op must be one of {', '.join(OPS)}, got {brief(op)}")
        name = counter_name(data.get("name"))
        if op == "add":
            return cls(op="add", name=name, value=_integer(data, "value", VALUE_MIN, VALUE_MAX, 0))
        if op == "change":
            by = _integer(data, "by", -STEP_MAX, STEP_MAX, 0)
            if by == 0:
                raise CounterError(
                    "by", f"by must be a nonzero whole number in -{STEP_MAX}..{STEP_MAX}, got 0"
                )
            return cls(op="change", name=name, by=by)
        return cls(op="remove", name=name)

    def to_json(self) -> dict[str, Any]:
        """The logged form (the fields :meth:`from_json` reads, only those the op uses)."""
        if self.op == "add":
            return {"op": "add", "name": self.name, "value": self.value}
        if self.op == "change":
            return {"op": "change", "name": self.name, "by": self.by}
        return {"op": "remove", "name": self.name}

    @property
    def key(self) -> str:
        """The name as compared: case-folded (names are unique per seat ignoring case)."""
        return self.name.casefold()


@dataclass(frozen=True, kw_only=True)
class Counter:
    """One counter on the table: its owner (``"A"``/``"B"``), name and value."""

    seat: str
    name: str
    value: int

    def to_json(self) -> dict[str, Any]:
        """``{"seat", "name", "value"}`` as the phones get it."""
        return {"seat": self.seat, "name": self.name, "value": self.value}


@dataclass(frozen=True)
class Counters:
    """Every counter of a table, in the order they were added (immutable: :meth:`apply`
    returns a new one, so the fold can keep the turn's start for undo)."""

    items: tuple[Counter, ...] = ()

    def find(self, seat: str, name: str) -> int | None:
        """The index of ``seat``'s counter ``name`` (ignoring case), or None."""
        key = name.casefold()
        for index, counter in enumerate(self.items):
            if counter.seat == seat and counter.name.casefold() == key:
                return index
        return None

    def value(self, seat: str, name: str) -> int | None:
        """The value of ``seat``'s counter ``name``, or None when it has none."""
        index = self.find(seat, name)
        return None if index is None else self.items[index].value

    def apply(self, seat: str, change: CounterChange) -> Counters:
        """The counters after ``seat``'s ``change``.

        Raises:
            CounterRefused: the seat already has a counter of that name or
                :data:`MAX_COUNTERS` (add), has none of that name (change, remove), or the
                value would leave :data:`VALUE_MIN`..:data:`VALUE_MAX` (change).
        """
        index = self.find(seat, change.name)
        items = list(self.items)
        if change.op == "add":
            if index is not None:
                raise CounterRefused(
                    "counter_exists", f"you have a counter named {items[index].name!r} already"
                )
            if sum(c.seat == seat for c in items) >= MAX_COUNTERS:
                raise CounterRefused(
                    "counter_limit", f"a player may keep at most {MAX_COUNTERS} counters"
                )
            items.append(Counter(seat=seat, name=change.name, value=change.value))
            return Counters(tuple(items))
        if index is None:
            raise CounterRefused("counter_unknown", f"you have no counter named {change.name!r}")
        if change.op == "remove":
            del items[index]
            return Counters(tuple(items))
        counter = items[index]
        after = counter.value + change.by
        if not VALUE_MIN <= after <= VALUE_MAX:
            raise CounterRefused(
                "counter_bounds",
                f"{counter.name} would be {after}; a counter stays in {VALUE_MIN}..{VALUE_MAX}",
            )
        items[index] = Counter(seat=seat, name=counter.name, value=after)
        return Counters(tuple(items))

    def to_json(self) -> list[dict[str, Any]]:
        """The table view's ``counters``: ``[{"seat", "name", "value"}, ...]`` in order added."""
        return [counter.to_json() for counter in self.items]


def event_payload(before: Counters, seat: str, change: CounterChange) -> dict[str, Any]:
    """The payload of the ``counter`` event of ``seat``'s ``change`` (checked on ``before``):
    ``{"counter": change, "after": value}``; ``after`` is the value after an add or change, the
    value the counter had for a removal (the log line says what was removed).

    Raises:
        CounterRefused: as :meth:`Counters.apply`.
    """
    after = before.apply(seat, change)
    value = (
        after.value(seat, change.name) if change.op != "remove" else before.value(seat, change.name)
    )
    return {"counter": change.to_json(), "after": value}


def undo_index(undoable: Sequence[tuple[int, str, Any]], seat: str) -> int | None:
    """Which entry of the turn's undo stack ``seat``'s undo takes back, or None.

    The seat's most recent entry, when every entry after it (all of the other seat) is
    independent of it: a counter change of either side (counters belong to one seat and no
    game action reads them). Two game actions depend on each other (the games' rule: only the
    most recent can be undone).

    Args:
        undoable: ``(seq, seat, action)`` entries, oldest first; counter entries hold a
            :class:`CounterChange`, game entries the game's action.
        seat: the seat asking to undo.
    """
    later_counters_only = True
    for index in range(len(undoable) - 1, -1, -1):
        _, owner, entry = undoable[index]
        if owner == seat:
            return index if later_counters_only or isinstance(entry, CounterChange) else None
        later_counters_only = later_counters_only and isinstance(entry, CounterChange)
    return None


def undo_seats(undoable: Sequence[tuple[int, str, Any]], seats: Iterable[str]) -> list[str]:
    """The seats of ``seats`` whose undo would take something back now (:func:`undo_index`)."""
    return [seat for seat in seats if undo_index(undoable, seat) is not None]


def commutes_since(
    recent: Iterable[tuple[int, str, str | None, Any]],
    expected: int,
    seat: str,
    change: CounterChange,
) -> bool:
    """Whether ``seat``'s ``change``, chosen at revision ``expected``, means the same now.

    True unless an event after ``expected`` changed the same counter of the same seat (a
    ``counter`` event, or an ``undo`` of one): the phone's view of that counter was out of
    date. Game actions, rolls, seats, the setup and the other seat's counters leave it alone.
    The caller checks that ``recent`` still reaches back to ``expected``.

    Args:
        recent: the fold's recent events ``(seq, kind, seat, parsed action or undone entry)``.
        expected: the revision the phone saw.
        seat: the seat that sent ``change``.
        change: the counter write.
    """
    for seq, kind, other_seat, other in recent:
        if seq <= expected or other_seat != seat or not isinstance(other, CounterChange):
            continue
        if kind in ("counter", "undo") and other.key == change.key:
            return False
    return True
