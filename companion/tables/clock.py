"""The game clock: none, a per-turn timer or a chess clock, folded from the table's log.

The clock is a pure fold like the game state (:mod:`companion.tables.fold`): it is derived
from the log alone, with every time taken from the events' ``created_at`` (the server's UNIX
seconds), never from a phone. A restart, a reload or a second process therefore computes the
same clock from the same log.

Events of kind ``clock`` (``seat``: who wrote it; ``payload["op"]``):

* ``set`` ``{"mode", "seconds", "increment"}``: the setting (:class:`ClockSetting`), chosen
  when the table is made or later, before the game is set up; the clock starts with the
  game's ``setup`` event. Without a ``set`` event a table has no clock.
* ``pause`` / ``resume``: either seat stops or restarts the running time.
* ``expired`` ``{"period", "side"}``: a phone saw the running side's time reach zero and the
  server agreed (:mod:`companion.tables.clock_writes`); logged once per turn (per-turn timer)
  or once per side (chess clock). Nothing else follows from it: what happens then is the
  players' call, the game does not end.

Every other event is followed through the game protocol: the running side is
:meth:`games.protocol.Game.to_act` (none before setup, before the second phone took seat B (its
``join`` event), while the players still bring their decks (:meth:`~games.protocol.Game.started`
is False: the game starts when both decks are in) and once :meth:`~games.protocol.Game.outcome`
says the game ended); a change of :meth:`~games.protocol.Game.turn` ends a turn. While no side
runs the clock has no pause: a pause ends with the game, and pause/resume are refused
(:mod:`companion.tables.clock_writes`), so the phone shows no clock control then. At the end of
a turn the chess clock adds the increment to the side that was running (Fischer increment:
the player who ended the turn), and the per-turn timer starts again at its full time (each
seat keeps its own timer within a turn, so a seat asked to act in the other's turn, a
reaction, uses its own and leaves the other's standing). The
game's end settles the time and stops the clock; undoing the last blow lets it run on.
Time keeps running below zero (overtime, shown as negative seconds).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.store.base import Event
from companion.tables.rejected import Rejected, brief
from games.protocol import SEATS, Game

MODES = ("none", "turn", "chess")
"""Clock modes: no clock, a timer per turn, a chess clock (time per player)."""
MAX_SECONDS = 24 * 3600
"""Longest time per turn or per player: a day."""
MAX_INCREMENT = 3600
"""Largest increment per turn: an hour."""
EXPIRY_TOLERANCE = 0.5
"""An ``expired`` report is accepted when the server's remaining time is at most this many
seconds (a phone's own counter may run a little ahead of the server's)."""


class ClockError(ValueError):
    """A clock setting out of range (the message names the field, the allowed values and the
    value)."""


@dataclass(frozen=True, kw_only=True)
class ClockSetting:
    """A table's clock: ``mode`` ``"turn"`` (``seconds`` per turn) or ``"chess"`` (``seconds``
    per player, ``increment`` seconds added to a player at the end of each of their turns).

    Raises:
        ClockError: mode not ``turn``/``chess``, ``seconds`` not in 1..:data:`MAX_SECONDS`,
            ``increment`` not in 0..:data:`MAX_INCREMENT` (0 for a per-turn timer).
    """

    mode: str
    seconds: float
    increment: float = 0.0

    def __post_init__(self) -> None:
        if self.mode not in MODES[1:]:
            raise ClockError(f"clock.mode must be one of {list(MODES)}, got {brief(self.mode)}")
        seconds = _check("seconds", self.seconds, 1, MAX_SECONDS)
        most = MAX_INCREMENT if self.mode == "chess" else 0
        increment = _check("increment", self.increment, 0, most)
        object.__setattr__(self, "seconds", seconds)  # ints as floats: one JSON form
        object.__setattr__(self, "increment", increment)

    def to_json(self) -> dict[str, Any]:
        """``{"mode", "seconds", "increment"}`` (the ``set`` event's payload without ``op``)."""
        return {"mode": self.mode, "seconds": self.seconds, "increment": self.increment}


def _check(name: str, value: Any, low: float, high: float) -> float:
    """``value`` as a float, if it is a number in ``low..high`` (seconds)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not low <= value <= high  # also false for NaN
    ):
        raise ClockError(f"clock.{name} must be a number in {low}..{high}, got {brief(value)}")
    return float(value)


def parse_setting(data: Any) -> ClockSetting | None:
    """A clock setting from JSON: None or ``{"mode": "none"}`` (no clock), ``{"mode": "turn",
    "seconds": 1..86400}`` or ``{"mode": "chess", "seconds": 1..86400, "increment"?:
    0..3600}`` (the increment defaults to 0; a per-turn timer's is ignored: it has none).

    Raises:
        Rejected: 400 naming the field and the allowed values.
    """
    if data is None:
        return None
    if not isinstance(data, dict):
        raise Rejected(400, "malformed", f"clock must be a JSON object, got {brief(data)}")
    mode = data.get("mode", "none")
    if mode == "none":
        return None
    seconds: Any = data.get("seconds")  # checked by ClockSetting
    increment: Any = data.get("increment", 0) if mode == "chess" else 0.0
    try:
        return ClockSetting(mode=mode, seconds=seconds, increment=increment)
    except ClockError as exc:
        raise Rejected(400, "malformed", str(exc)) from exc


@dataclass(kw_only=True)
class Clock:
    """The running fold of a table's clock (mutable, owned by the table, fed every event).

    Attributes:
        setting: the clock chosen, or None (no clock).
        remaining: seat -> seconds left as of ``since`` (negative: overtime).
        since: server time (UNIX seconds) ``remaining`` was settled at.
        running: the seat whose time runs (the game's seat to act), or None.
        paused: True while a seat paused the clock; ``paused_by`` is that seat.
        turn: the game's turn number last seen (None before setup).
        period: counts the clock's periods (a new turn, or the chess clock's side changing):
            what an ``expired`` report is for.
        expired: the ``(period, side)`` keys logged as expired (per-turn timer: this turn's
            period; chess: the period 0 of the side, so once per side).
        seated: seat B has joined (a ``join`` event): no time runs before, so a game set up
            by the first phone alone does not spend the time of a player not at the table.
    """

    setting: ClockSetting | None = None
    remaining: dict[str, float] = field(default_factory=dict)
    since: float = 0.0
    running: str | None = None
    paused: bool = False
    paused_by: str | None = None
    turn: int | None = None
    period: int = 0
    expired: set[tuple[int, str]] = field(default_factory=set)
    seated: bool = False

    def add(self, event: Event, game: Game[Any, Any, Any], state: Any) -> None:
        """Fold one event in, ``state`` being the game state after it (None before setup).

        Raises:
            KeyError: a ``clock`` event without ``op`` (the writes never log one).
        """
        now = event.created_at
        if event.kind == "join":
            self.seated = True
        if event.kind == "clock":
            op = event.payload["op"]
            self._settle(now)
            if op == "set":
                self.setting = parse_setting(event.payload)
                seconds = self.setting.seconds if self.setting else 0.0
                self.remaining = dict.fromkeys(SEATS, seconds)
            elif op == "pause":
                self.paused, self.paused_by = True, event.seat
            elif op == "resume":
                self.paused, self.paused_by = False, None
            elif op == "expired":
                self.expired.add(self.expiry_key(str(event.payload["side"])))
        self._follow(now, game, state)

    def _settle(self, now: float) -> None:
        """Charge the running side for the time since ``since`` (none while paused)."""
        if self.running is not None and not self.paused:
            self.remaining[self.running] -= now - self.since
        self.since = now

    def _follow(self, now: float, game: Game[Any, Any, Any], state: Any) -> None:
        """Follow the game: switch the running side, end a turn (increment or a new turn)."""
        if self.setting is None:
            return
        ended = state is not None and game.outcome(state) is not None
        waiting = state is None or not self.seated or not game.started(state)
        side = None if ended or waiting else game.to_act(state)
        turn = None if state is None else game.turn(state)
        if side == self.running and turn == self.turn:
            return
        self._settle(now)
        new_turn = turn != self.turn and turn is not None
        if new_turn and self.setting.mode == "chess" and self.running and self.turn is not None:
            self.remaining[self.running] += self.setting.increment
        if new_turn and self.setting.mode == "turn":
            self.remaining = dict.fromkeys(SEATS, self.setting.seconds)
        if new_turn or side != self.running:
            self.period += 1
        if side is None:  # the game ended (or is not under way): a pause ends with it
            self.paused, self.paused_by = False, None
        self.running, self.turn = side, turn

    def expiry_key(self, side: str) -> tuple[int, str]:
        """What an ``expired`` report of ``side`` is logged once for: this turn's period
        (per-turn timer) or the side alone (chess clock: a side runs out of time once)."""
        if self.setting is not None and self.setting.mode == "chess":
            return (0, side)
        return (self.period, side)

    def left(self, now: float) -> dict[str, float]:
        """Seat -> seconds left at server time ``now`` (negative: overtime)."""
        left = dict(self.remaining)
        if self.running is not None and not self.paused:
            left[self.running] -= now - self.since
        return left

    def view(self) -> dict[str, Any] | None:
        """The clock as the phones get it, None without a clock: ``{"mode", "seconds",
        "increment", "remaining": {"A": s, "B": s} as of "at" (server UNIX seconds), "running":
        seat or None, "paused", "paused_by", "turn" (the game's turn number, None before setup),
        "period", "expired": [seats logged as out of time this period]}``. Time-independent, so the published view is cached per revision; the
        phone counts down from ``remaining`` using the ``now`` the server adds when it sends a
        view (:func:`stamp`), never its own date."""
        if self.setting is None:
            return None
        return {
            **self.setting.to_json(),
            "remaining": {seat: round(left, 3) for seat, left in self.remaining.items()},
            "at": self.since,
            "running": self.running,
            "paused": self.paused,
            "paused_by": self.paused_by,
            "turn": self.turn,
            "period": self.period,
            "expired": sorted(s for s in SEATS if self.expiry_key(s) in self.expired),
        }


def stamp(now: float) -> str:
    """The ``"now"`` member added to a view of a table with a clock when it is sent: the
    server's time (UNIX seconds, ms), from which the phone counts (JSON text, with its comma)."""
    return f',"now":{now:.3f}'
