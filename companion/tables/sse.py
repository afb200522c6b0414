"""Server-Sent Events: how a table's log and views are framed on a live stream.

Each event is ``id: <seq>`` with ``data: {"event": ..., "view": ...}``; the view (the table's
published view for the stream's role, with presence) rides on the newest event sent only. A
change of presence alone is sent as ``data: {"event": null, "view": ...}`` without an ``id``
(the page keeps its place in the log). A stream starts with ``retry: 1500`` and sends a
comment line (``: heartbeat``) after every ``heartbeat`` seconds without events.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

from companion.tables.budgets import StreamSlot
from companion.tables.table import Table

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
        message = table.messages[seq - 1]
        chunks.append(f'id: {seq}\ndata: {{"event":{message},"view":{view}}}\n\n')
    return "".join(chunks), revision


def pending(slot: StreamSlot, sent: int) -> tuple[str, int]:
    """What a stream has not sent yet: the new events (:func:`frames`), else, when the
    presence changed since this stream last sent a view, ``data: {"event": null, "view":
    ...}`` without an ``id``; and the new ``sent``."""
    table = slot.table
    version = table.presence_version
    text, sent = frames(table, slot.seat.role, sent)
    if text:
        slot.presence_sent = version
    elif version != slot.presence_sent:
        slot.presence_sent = version
        text = f'data: {{"event":null,"view":{table.view_json(slot.seat.role)}}}\n\n'
    return text, sent


def blocking_events(
    slot: StreamSlot, since: int, heartbeat: float, deadline: float, closed: threading.Event
) -> Iterator[str]:
    """The frames of a stream for a WSGI server thread: waits on the table's condition
    between them, until ``closed`` is set, the slot is taken back or ``deadline``
    (``time.monotonic()``) has passed."""
    table = slot.table
    yield RETRY
    sent = max(0, min(since, table.published[0]))
    while not closed.is_set() and not slot.ended and time.monotonic() < deadline:
        with table.changed:
            if (
                table.published[0] <= sent
                and table.presence_version == slot.presence_sent
                and not closed.is_set()
                and not slot.ended
            ):
                table.changed.wait(heartbeat)
        if slot.ended:
            return
        text, sent = pending(slot, sent)
        yield text or HEARTBEAT


class Stream:
    """A live stream's iterable for the WSGI server; ``close`` frees its slot exactly once."""

    def __init__(self, events: Iterator[str], release: Callable[[], None]) -> None:
        self._events = events
        self._release: Callable[[], None] | None = release

    def __iter__(self) -> Iterator[str]:
        return self._events

    def close(self) -> None:
        """End the stream (the server calls this when the phone goes away)."""
        if hasattr(self._events, "close"):
            self._events.close()
        release, self._release = self._release, None
        if release is not None:
            release()
