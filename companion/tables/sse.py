"""Server-Sent Events: how a table's log and views are framed on a live stream.

Each event is ``id: <seq>`` with ``data: {"event": ..., "view": ...}``; the view (the table's
published view for the stream's role, with presence) rides on the newest event sent only. A
change of presence alone is sent as ``data: {"event": null, "view": ...}`` without an ``id``
(the page keeps its place in the log). A stream starts with ``retry: 1500`` and sends a
comment line (``: heartbeat``) after every ``heartbeat`` seconds without events.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass

from companion.tables.budgets import StreamSlot
from companion.tables.table import Table, iso_utc

RETRY = "retry: 1500\n\n"
"""The first frame of every stream: the browser reconnects 1.5 s after losing it."""
HEARTBEAT = ": heartbeat\n\n"
"""Sent after ``heartbeat`` seconds without anything else, so proxies and phones keep it."""


def frames(table: Table, role: str, sent: int) -> tuple[str, int]:
    """The Server-Sent Events a stream at ``sent`` has not had yet, and the new ``sent``.

    Each event is ``id: <seq>`` with ``data: {"event": ..., "view": ...}``; the view (the
    table's published view for ``role``) rides on the newest event only. Returns ``("", sent)``
    when the stream is up to date.
    """
    published = table.published  # one snapshot: the view belongs to the newest event sent
    revision = published[0]
    if revision <= sent:
        return "", sent
    view_json = table.view_json(role, published)
    chunks = []
    for seq in range(sent + 1, revision + 1):
        view = view_json if seq == revision else "null"
        message = table.message(seq, role)
        chunks.append(f'id: {seq}\ndata: {{"event":{message},"view":{view}}}\n\n')
    return "".join(chunks), revision


def pending(slot: StreamSlot, sent: int) -> tuple[str, int]:
    """What a stream has not sent yet: the new events (:func:`frames`), else, when the
    presence changed since this stream last sent a view, ``data: {"event": null, "view":
    ...}`` without an ``id``; and the new ``sent``.

    A stream whose token lost its seat (another phone took it over,
    :meth:`companion.tables.seats.Seats.reclaim`) gets ``data: {"revoked": {"seat", "at"}}``
    instead, its last frame: the slot ends."""
    table = slot.table
    if slot.token_hash not in table.roles:
        slot.ended = True
        told = json.dumps({"seat": slot.seat.role, "at": iso_utc(time.time())})
        return f'data: {{"revoked":{told}}}\n\n', sent
    version = table.presence_version
    text, sent = frames(table, slot.seat.role, sent)
    if text:
        slot.presence_sent = version
    elif version != slot.presence_sent:
        slot.presence_sent = version
        text = f'data: {{"event":null,"view":{table.view_json(slot.seat.role)}}}\n\n'
    return text, sent


@dataclass(frozen=True)
class Wait:
    """What :func:`stream_loop` yields when it has nothing to send: wait until the table
    changes (its published revision passes ``seen``, or its presence changes) or ``seconds``
    pass, then send back True if they passed without a change."""

    seconds: float
    seen: int


StreamLoop = Generator[str | Wait, bool | None, None]
"""A live stream's frames and waits (:func:`stream_loop`)."""


def stream_loop(
    slot: StreamSlot, since: int, heartbeat: float, deadline: float, closed: threading.Event
) -> StreamLoop:
    """The one loop of every live stream, whichever server drives it: yields the frames to send
    (text) and the waits between them (:class:`Wait`), until ``closed`` is set, the slot is
    taken back or ``deadline`` (``time.monotonic()``) has passed.

    A driver sends each frame and, for a :class:`Wait`, waits for the table to change and sends
    back whether the wait timed out: :func:`blocking_frames` (a WSGI server's thread, on the
    table's condition) and :meth:`companion.asgi.CompanionASGI._drive` (the event loop,
    on the hub's wake-up).

    Args:
        slot: the stream's slot (:meth:`companion.tables.budgets.StreamBudgets.open`).
        since: the last seq the phone has (``since`` / ``Last-Event-ID``).
        heartbeat: seconds without a frame after which :data:`HEARTBEAT` is sent.
        deadline: when the stream ends (the page reconnects with ``since``).
        closed: set at server shutdown.
    """
    table = slot.table
    yield RETRY
    sent = max(0, min(since, table.published[0]))
    while not closed.is_set() and not slot.ended:
        text, sent = pending(slot, sent)
        if text:
            yield text
            continue
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        timed_out = yield Wait(min(heartbeat, remaining), sent)
        if timed_out and not slot.ended and time.monotonic() < deadline:
            yield HEARTBEAT


def has_news(slot: StreamSlot, seen: int) -> bool:
    """True when the stream's table has something a stream at ``seen`` has not sent: a newer
    revision, or a presence change since its last view."""
    table = slot.table
    return table.published[0] > seen or table.presence_version != slot.presence_sent


def blocking_frames(loop: StreamLoop, slot: StreamSlot, closed: threading.Event) -> Iterator[str]:
    """Drive :func:`stream_loop` in a WSGI server's thread: each wait is on the table's
    condition (:attr:`companion.tables.table.Table.changed`), looked at under its lock so no
    change is missed."""
    changed = slot.table.changed
    reply: bool | None = None
    while True:
        try:
            step = loop.send(reply)
        except StopIteration:
            return
        if isinstance(step, str):
            reply = None
            yield step
            continue
        with changed:
            if has_news(slot, step.seen) or closed.is_set() or slot.ended:
                reply = False
            else:
                reply = not changed.wait(step.seconds)


class Stream:
    """A live stream opened by :meth:`companion.tables.service.TableService.stream`.

    A WSGI server iterates it (:func:`blocking_frames` in its thread) and calls :meth:`close`
    when it is done or the phone went away, which gives the slot back exactly once. The event
    loop instead takes it over (:meth:`detach`) and drives :attr:`loop` itself.

    Attributes:
        slot: the stream's slot.
        loop: its :func:`stream_loop`.
    """

    def __init__(self, slot: StreamSlot, loop: StreamLoop, closed: threading.Event) -> None:
        self.slot = slot
        self.loop = loop
        self._closed = closed
        self._owned = True

    def __iter__(self) -> Iterator[str]:
        return blocking_frames(self.loop, self.slot, self._closed)

    def detach(self) -> Stream:
        """Take the stream over: :meth:`close` no longer ends it; the new owner drives
        :attr:`loop` and calls ``slot.release()`` when done."""
        self._owned = False
        return self

    def close(self) -> None:
        """End the stream and give its slot back (once; nothing once detached)."""
        if self._owned:
            self._owned = False
            self.loop.close()
            self.slot.release()
