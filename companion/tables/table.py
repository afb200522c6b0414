"""One table in memory: its cached log and fold, and the views the phones are sent.

A :class:`Table` keeps the log's JSON text (what streams send), the fold of it
(:mod:`companion.tables.fold`), the client action ids already answered
(:mod:`companion.tables.keys`), and the views last published: one per role where the game hides
information, else one shared by all, computed once per revision (:meth:`Table.publish`) so that
an answer and every live stream carry the same bytes. Presence (whether each seat has a live
stream) is added to a view when it is sent.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson

from companion.store.base import Event, TableRow, token_hash
from companion.tables.clock import Clock, stamp
from companion.tables.fold import Applied, Fold
from companion.tables.keys import event_request_key
from games.protocol import SEATS

ROLES = (*SEATS, "watch")
"""Every role a token can hold at a table: a seat, or a watcher."""
DEFAULT_COLOURS = {"A": "#2E64C8", "B": "#C0392B"}
"""Fleet colours when the table does not choose: blue A, red B, as the kit prints them
(``cad.settings.NAMED_COLOURS``; the companion does not import cad)."""


def iso_utc(when: float) -> str:
    """UNIX seconds as ISO-8601 UTC with a ``Z``, whole seconds (``2026-12-01T19:30:00Z``)."""
    return datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def revoked_mark(digest: str) -> str:
    """What a ``reclaim`` event keeps of a replaced token's hash (:func:`token_hash`): its
    first 16 hex digits, enough to recognise the old phone, nothing to sit down with."""
    return digest[:16]


def roles_of(row: TableRow) -> dict[str, str]:
    """Token hash -> role (``"A"``, ``"B"``, ``"watch"``) of a table's stored row."""
    roles = {digest: seat for seat, digest in row.seat_hashes.items()}
    roles[token_hash(row.watch_token)] = "watch"
    return roles


@dataclass(kw_only=True)
class Table:
    """One table in memory: identity, tokens, the cached log and fold, its published views and
    its presence."""

    id: str
    game: str
    roles: dict[str, str]
    join_token: str
    watch_token: str
    fold: Fold
    messages: list[str] = field(default_factory=list)
    private: dict[int, dict[str, str]] = field(default_factory=dict)
    """seq -> role -> the event's text as that role may see it, where it differs from the
    logged one (games with hidden information: :meth:`games.protocol.Game.event_view`)."""
    client_ids: dict[str, str] = field(default_factory=dict)
    """client_action_id -> the request it answered (:func:`event_request_key`)."""
    rolls: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    changed: threading.Condition = field(default_factory=threading.Condition)
    published: tuple[int, Mapping[str, str]] = (0, {})
    """(revision, role -> view JSON without presence) as last sent to the phones (:meth:`publish`)."""
    colours: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_COLOURS))
    presence: dict[str, tuple[bool, float]] = field(default_factory=dict)
    """seat -> (connected, since when in UNIX seconds), kept by
    :class:`companion.tables.budgets.StreamBudgets` from the open streams here and elsewhere."""
    presence_version: int = 0
    presence_json: str = "{}"
    heard: dict[str, float] = field(default_factory=dict)
    """seat -> when a request with its token was last made, here or (heard through the hub) in
    another process (UNIX seconds; :meth:`companion.tables.seats.Seats.note_heard`)."""
    heard_shared: dict[str, float] = field(default_factory=dict)
    """seat -> when this process last told the other processes of a request of that seat."""
    revoked: dict[str, tuple[str, float]] = field(default_factory=dict)
    """:func:`revoked_mark` of a seat token another phone took the seat from -> (seat, when
    taken, UNIX seconds), from the ``reclaim`` events: so the old phone is told why."""
    clock: Clock = field(default_factory=Clock)
    """The game clock folded from the log (:mod:`companion.tables.clock`)."""
    loaded_at: float = field(default_factory=time.time)
    """When this process loaded the table (a seat counts as seen then: after a restart its
    phone has a minute to come back before a seat code may take the seat)."""

    def presence_view(self) -> dict[str, dict[str, Any]]:
        """``{"A": {"connected": bool, "since": ISO-8601 UTC}, "B": ...}``: whether each seat has a
        live stream open, and since when it has (or since when it has not: when it went away,
        or, never seen, when the table was created or this server started)."""
        return {
            seat: {"connected": connected, "since": iso_utc(since)}
            for seat, (connected, since) in sorted(self.presence.items())
        }

    def view_json(self, role: str, published: tuple[int, Mapping[str, str]] | None = None) -> str:
        """The published view of ``role`` (or of the given ``published`` snapshot) with the
        current ``presence`` and, where the table has a clock, the server's ``now`` (JSON
        text)."""
        view = (published or self.published)[1][role]
        now = stamp(time.time()) if self.clock.setting is not None else ""
        return view[:-1] + ',"presence":' + self.presence_json + now + "}"

    @property
    def revision(self) -> int:
        """The seq of the last event (0 for an empty log)."""
        return len(self.messages)

    def add(self, event: Event, applied: Applied | None = None, key: str | None = None) -> None:
        """Fold an event into the cache (log text, client ids, rolls, state); ``applied``:
        see :meth:`~companion.tables.fold.Fold.add`; ``key``: the event's :func:`event_request_key` where the caller
        has it already (the write that made the event: the request's own key)."""
        before = self.fold.state
        self.fold.add(event, applied)  # "join" events only wake the streams
        self.clock.add(event, self.fold.game, self.fold.state)
        self.messages.append(event.to_text())
        if self.fold.game.hidden_information:
            self._hide(event, before)
        if event.client_action_id:
            self.client_ids[event.client_action_id] = key or event_request_key(event)
        if event.kind == "reclaim" and event.seat is not None:
            for mark in event.payload.get("revoked", ()):
                self.revoked[str(mark)] = (event.seat, event.created_at)
        if event.kind == "roll":
            self.rolls.append(
                {
                    **event.payload,
                    "seq": event.seq,
                    "seat": event.seat,
                    "created_at": event.created_at,
                }
            )

    def _hide(self, event: Event, before: Any) -> None:
        """Keep the event's text for each role that may not see all of it (a deck list)."""
        game = self.fold.game
        for role in ROLES:
            seat = role if role in SEATS else None
            shown = game.event_view(event.kind, event.payload, event.seat, seat, before)
            if shown is not None:
                text = json.dumps({**event.to_json(), "payload": shown}, separators=(",", ":"))
                self.private.setdefault(event.seq, {})[role] = text

    def message(self, seq: int, role: str) -> str:
        """The JSON text of event ``seq`` as ``role`` (``"A"``, ``"B"``, ``"watch"``) may see
        it: the logged event, or where the game hides part of it from that role, the part on
        the table only (:meth:`games.protocol.Game.event_view`)."""
        hidden = self.private.get(seq)
        if hidden is not None and role in hidden:
            return hidden[role]
        return self.messages[seq - 1]

    def publish(self) -> None:
        """Compute the views the phones get at this revision (one per role where the game
        hides information, else one shared by all)."""
        if self.fold.game.hidden_information:
            views = {role: dumps(self.view(role, presence=False)) for role in ROLES}
        else:
            shared = dumps(self.view(presence=False))
            views = dict.fromkeys(ROLES, shared)
        self.published = (self.revision, views)

    def view(self, role: str | None = None, *, presence: bool = True) -> dict[str, Any]:
        """What a phone of the table sees: revision, seats, the game's view of the state (at
        least ``state`` and ``legal``), the seat to act, the outcome, who may undo
        (``undo_seat``: the seat of the most recent undoable entry; ``undo_seats``: every seat
        whose undo takes something back now), the players' own ``counters``
        (:meth:`~companion.tables.counters.Counters.to_json`), the fleet
        ``colours`` (``{"A": "#RRGGBB", "B": ...}``), ``presence`` (:meth:`presence_view`) and,
        where the table has a clock, ``clock`` (:meth:`~companion.tables.clock.Clock.view`)
        and the server's ``now`` (UNIX seconds, with presence).

        Args:
            role: ``"A"``, ``"B"``, ``"watch"`` or None (a watcher); only games with hidden information
                show the seats different views.
            presence: False leaves ``presence`` out (the published views; it is added when sent).
        """
        state = self.fold.state
        game = self.fold.game
        seen: dict[str, Any]
        if state is None:
            seen = {"state": None, "legal": [], "to_act": None, "outcome": None}
        else:
            ended = game.outcome(state)
            seen = {
                **game.view(state, role if role in SEATS else None),
                "to_act": game.to_act(state),
                "outcome": None if ended is None else ended.to_json(),
            }
        clock = self.clock.view()
        return {
            "table": self.id,
            "game": self.game,
            "revision": self.revision,
            "seats": {seat: seat in self.roles.values() for seat in SEATS},
            **seen,
            "undo_seat": self.fold.undo_seat,
            "undo_seats": self.fold.undo_seats(SEATS),
            "counters": self.fold.counters.to_json(),
            "rolls": len(self.rolls),
            "colours": self.colours,
            **({"clock": clock} if clock else {}),
            **({"presence": self.presence_view()} if presence else {}),
            **({"now": round(time.time(), 3)} if presence and clock else {}),
        }


def dumps(data: Any) -> str:
    """Compact JSON text of a view sent to the phones (never of a stored event: the log keeps
    :func:`json.dumps`' exact bytes). orjson writes it faster than the standard library; the text differs only where both are valid JSON of the same content (non-ASCII
    characters as UTF-8 instead of ``\\u`` escapes). What orjson cannot write (an integer
    beyond 64 bits, say) falls back to :func:`json.dumps`."""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(data, separators=(",", ":"))
