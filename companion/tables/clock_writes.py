"""The clock's writes: choose it, pause and resume it, and log that a side ran out of time.

``POST /api/t/<table>/clock`` ``{"client_action_id", "op", "clock"?}`` (a seat's token; a
watcher gets 403) goes the way of every write (:meth:`companion.tables.writes.Writes.write`:
idempotent by ``client_action_id``, logged before the answer, then published). Like a dice
roll it needs no ``expected_revision``: a pause means the same at any revision, and what
``expired`` and ``set`` depend on is checked on the table as it is. ``op``:

* ``set`` with ``clock`` (:func:`companion.tables.clock.parse_setting`): only before the game
  is set up (else 422 ``illegal``); a table made with a clock logs it right away
  (:func:`start_clock`).
* ``pause`` / ``resume``: either seat; 409 ``clock_state`` when the clock is paused (or runs)
  already, 409 ``clock_stopped`` while no side's time runs (before the game's first move, after
  its end: the view's ``running`` is null and the phone shows no control), 422 ``no_clock`` on
  a table without one.
* ``expired``: a phone's counter reached zero. Decided by the server alone: accepted only
  when its own remaining time of the running side is at most
  :data:`~companion.tables.clock.EXPIRY_TOLERANCE` (else 409 ``clock_running``), and logged
  once per turn (per-turn timer) or per side (chess clock), later reports getting 409
  ``clock_state`` (so does a report while the clock is paused; while no side's time runs,
  before the first move or after the end, 409 ``clock_stopped`` as for pause and resume). Both phones report; the first one logs it, which is what the action log
  shows. The phones signal zero themselves (they need no answer for that); nothing ends the
  game: what follows is the players' call.

A refused clock write carries the current view, so the phone shows the clock as it is.
"""

from __future__ import annotations

import time
from typing import Any

from companion.store.base import Event
from companion.tables.clock import EXPIRY_TOLERANCE, ClockSetting, parse_setting
from companion.tables.keys import clock_request_key
from companion.tables.rejected import Rejected, brief
from companion.tables.seats import Seat
from companion.tables.table import Table
from companion.tables.writes import Writes, envelope

OPS = ("set", "pause", "resume", "expired")
"""What a clock write may ask for."""
SET_ID = "clock-set"
"""The ``client_action_id`` of the ``set`` event logged when a table is made with a clock."""


def clock_write(writes: Writes, seat: Seat, body: Any) -> str:
    """Apply a phone's clock write (see the module docstring).

    Returns:
        JSON text ``{"revision", "duplicate", "view"}``.

    Raises:
        Rejected: 400 malformed (naming the field), 403 watcher, 409 ``clock_state`` /
            ``clock_running`` / ``clock_stopped``, 422 ``illegal`` / ``no_clock``.
    """
    _, client_id, _ = envelope(body, need_revision=False)
    op = body.get("op")
    if op not in OPS:
        raise Rejected(400, "malformed", f"op must be one of {list(OPS)}, got {brief(op)}")
    setting = parse_setting(body.get("clock")) if op == "set" else None
    key = clock_request_key(seat.role, op)
    return writes.write(
        seat, client_id, key, lambda table: ([_event(table, seat, op, setting)], None)
    )


def start_clock(writes: Writes, seat: Seat, setting: ClockSetting | None) -> None:
    """Log the clock a table was made with (nothing for None: no clock), as seat ``seat``."""
    if setting is not None:
        writes.write(
            seat,
            SET_ID,
            clock_request_key(seat.role, "set"),
            lambda table: ([_event(table, seat, "set", setting)], None),
        )


def _stopped(table: Table) -> str:
    """Why no side's time runs (the clock has nothing to pause or resume)."""
    state = table.fold.state
    if state is not None and table.fold.game.outcome(state) is not None:
        return "the game has ended: the clock has stopped"
    return "the clock starts with the game's first move (both decks in, both seats taken)"


def _event(table: Table, seat: Seat, op: str, setting: ClockSetting | None) -> Event:
    """The ``clock`` event of a write, decided on the table under its lock."""
    clock = table.clock
    now = time.time()

    def refuse(status: int, error: str, message: str) -> Rejected:
        return Rejected(status, error, message, table.view(seat.role))

    payload: dict[str, Any] = {"op": op}
    if op == "set":
        if table.fold.state is not None:
            raise refuse(422, "illegal", "the clock is chosen before the game is set up")
        payload.update(setting.to_json() if setting else {"mode": "none"})
    elif clock.setting is None:
        raise refuse(422, "no_clock", "this table has no clock")
    elif clock.running is None and op in ("pause", "resume", "expired"):
        raise refuse(409, "clock_stopped", _stopped(table))
    elif op == "pause" and clock.paused:
        raise refuse(409, "clock_state", "the clock is paused already")
    elif op == "resume" and not clock.paused:
        raise refuse(409, "clock_state", "the clock is running already")
    elif op == "expired":
        side = clock.running
        if side is None or clock.paused:
            raise refuse(409, "clock_state", "the clock is paused: no player's time runs out")
        if clock.expiry_key(side) in clock.expired:
            raise refuse(409, "clock_state", f"seat {side}'s time was logged as run out already")
        left = clock.left(now)[side]
        if left > EXPIRY_TOLERANCE:
            raise refuse(409, "clock_running", f"seat {side} has {left:.1f} s left")
        payload.update(side=side, period=clock.period, left=round(left, 3))
    return Event(
        seq=table.revision + 1,
        kind="clock",
        seat=seat.role,
        client_action_id=None,
        payload=payload,
        created_at=now,
    )
