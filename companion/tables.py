"""Tables: seats and tokens, the fold of the event log into game state, writes and live sync.

A table's state is its game's pure reducer (:meth:`games.protocol.Game.apply`) folded over its
event log (ARCHITECTURE.md, *Companion*). The game comes from :mod:`games.registry` by the name
stored with the table; nothing here knows any game's rules.

* ``setup``: :meth:`~games.protocol.Game.start` from the logged setup (the game's
  :meth:`~games.protocol.Game.setup_event`; the dice it needed are logged just before it as
  ``roll`` events). The payload also keeps the canonical request (``request``) for retries.
* ``action``: one action of a seat, with the faces of the dice it needed (``faces``).
* ``undo``: takes back the most recent action of the current turn, if the undoing seat made it
  and no roll came after it (rolls, actions with dice and the end of a turn are undo barriers).
* ``roll``: dice, logged with who rolled, the purpose and the faces.

Writes carry ``expected_revision`` (the last seq the phone saw) and a ``client_action_id``: a
repeated id with the same request (a retry, a double tap) is answered with the current view
and applied once; the same id with a different request is refused with 409
``client_action_id_reused``; a stale revision is refused with 409 and the current view. Each
table has a lock; the log append is one transaction (:mod:`companion.store`) made before the
answer, then every stream of the table is woken.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

import orjson

from companion.dice import DiceService, RollError, RollRequest, frequencies
from companion.hub import LocalHub
from companion.store import Event, Store, StoreError, token_hash
from games import registry
from games.protocol import (
    SEATS,
    DiceRequest,
    Faces,
    Game,
    GameError,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
)

ROLES = (*SEATS, "watch")
"""Every role a token can hold at a table: a seat, or a watcher."""
CLIENT_ACTION_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
"""Matched with ``fullmatch`` (``$`` would accept a trailing newline)."""
MAX_REVISION = 10**15 - 1
"""Largest ``expected_revision`` / ``since`` accepted (15 digits)."""
ECHO_CHARS = 60
"""An error message quotes at most this many characters of what the phone sent."""
LOG_EVENTS = 500
"""Events the action log returns at most (the newest)."""
MESSAGE_CHARS = 300
"""Longer messages (e.g. a rules error quoting a huge value) are cut to this length."""
SEAT_STREAMS = 4
"""Live streams one seat of a table may hold in a process (reloads, a second tab); a new
stream beyond this ends the seat's oldest one, so a player is never locked out."""
WATCH_STREAMS = 8
"""Live streams the watchers of one table may hold together; beyond: 429 ``watchers_full``."""
WATCH_SHARE = 0.5
"""Watchers of all tables together get at most this share of a process's streams, so the
seated phones always find a stream (beyond: 429 ``watchers_full``)."""
DEFAULT_COLOURS = {"A": "#2E64C8", "B": "#C0392B"}
"""Fleet colours when the table does not choose: blue A, red B, as the kit prints them
(``cad.settings.NAMED_COLOURS``; the companion does not import cad)."""
HEX_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")
RECLAIM_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Reclaim code letters: no 0/O, 1/I/L to mistake for each other."""
RECLAIM_CHARS = 6
RECLAIM_SECONDS = 600.0
"""A reclaim code expires 10 minutes after it was made."""


def iso_utc(when: float) -> str:
    """UNIX seconds as ISO-8601 UTC with a ``Z``, whole seconds (``2026-12-01T19:30:00Z``)."""
    return datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def brief(value: Any) -> str:
    """``repr(value)`` cut to :data:`ECHO_CHARS` characters (for quoting input in errors)."""
    text = repr(value)
    return text if len(text) <= ECHO_CHARS else text[: ECHO_CHARS - 1] + "\u2026"


class Rejected(ValueError):
    """A request the table refuses; ``status`` is the HTTP status, ``reason`` a stable code.

    Attributes:
        status: 400 malformed, 403 not allowed, 404 unknown, 409 stale or seat taken,
            422 illegal in the rules, 429 too many joins, 503 too many live streams.
        message: what went wrong, cut to :data:`MESSAGE_CHARS` characters.
        reason: a short machine-readable code (``"stale"``, ``"illegal"``, ``"malformed"`` ...).
        view: the table's current view when it helps the phone recover (409, 422).
    """

    def __init__(
        self, status: int, reason: str, message: str, view: Mapping[str, Any] | None = None
    ) -> None:
        if len(message) > MESSAGE_CHARS:
            message = message[: MESSAGE_CHARS - 1] + "\u2026"
        super().__init__(message)
        self.status = status
        self.reason = reason
        self.view = view


@dataclass(kw_only=True)
class Fold:
    """The running fold of one table's log (mutable, owned by :class:`Table`).

    Attributes:
        game: the table's game.
        state: the game state, None before setup.
        turn_start: the state the current turn's undoable actions start from.
        undoable: ``(seq, seat, action)`` of the current turn since the last barrier.
    """

    game: Game[Any, Any, Any]
    state: Any = None
    turn_start: Any = None
    undoable: list[tuple[int, str, Any]] = field(default_factory=list)

    def add(self, event: Event, applied: Applied | None = None) -> None:
        """Fold one event in (the event was validated before it was logged).

        Args:
            event: the event.
            applied: for an ``action`` event just checked by the server: the parsed action
                and the state the check computed with the same pure reducer from the same
                state, so the action is applied once, not again (issue 9, point 1). None:
                parse the logged action and apply it (loading a log, catching up).
        """
        payload = event.payload
        game = self.game
        if event.kind == "setup":
            self.state = game.start(payload)
            self._barrier()
        elif event.kind == "roll":
            self._barrier()
        elif event.kind == "action":
            assert self.state is not None and event.seat is not None
            before = self.state
            faces = _faces(payload.get("faces", ()))
            if applied is None:
                action = game.parse_action(payload["action"])
                self.state = game.apply(before, event.seat, action, faces)
            else:
                action, self.state = applied
            if faces or game.turn(self.state) != game.turn(before) or game.outcome(self.state):
                self._barrier()
            else:
                self.undoable.append((event.seq, event.seat, action))
        elif event.kind == "undo":
            self.undoable.pop()
            state = self.turn_start
            for _, seat, action in self.undoable:
                state = game.apply(state, seat, action)
            self.state = state

    def _barrier(self) -> None:
        self.turn_start = self.state
        self.undoable = []

    @property
    def undo_seat(self) -> str | None:
        """The seat that may undo now (its action is the most recent undoable), or None."""
        return self.undoable[-1][1] if self.undoable else None


Applied = tuple[Any, Any]
"""An action as checked by the server: (the parsed action, the state after it)."""


def _faces(data: Any) -> Faces:
    """Logged faces (lists from JSON) as the tuples the protocol takes."""
    return tuple(tuple(rolled) for rolled in data)


@dataclass(kw_only=True)
class Table:
    """One table in memory: identity, tokens, the cached log and fold, and its streams."""

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
    streams: dict[str, list[StreamSlot]] = field(default_factory=dict)
    """role -> this process's open streams of that role, oldest first."""
    remote: dict[str, tuple[float, dict[str, int]]] = field(default_factory=dict)
    """other process -> (when heard, open streams per seat there) (:mod:`companion.hub`)."""
    presence: dict[str, tuple[bool, float]] = field(default_factory=dict)
    """seat -> (connected, since when in UNIX seconds)."""
    presence_version: int = 0
    presence_json: str = "{}"

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
        current ``presence`` (JSON text)."""
        view = (published or self.published)[1][role]
        return view[:-1] + ',"presence":' + self.presence_json + "}"

    @property
    def revision(self) -> int:
        """The seq of the last event (0 for an empty log)."""
        return len(self.messages)

    def add(self, event: Event, applied: Applied | None = None, key: str | None = None) -> None:
        """Fold an event into the cache (log text, client ids, rolls, state); ``applied``:
        see :meth:`Fold.add`; ``key``: the event's :func:`event_request_key` where the caller
        has it already (the write that made the event: the request's own key)."""
        before = self.fold.state
        self.fold.add(event, applied)  # "join" events only wake the streams
        logged = event.to_json()
        self.messages.append(json.dumps(logged, separators=(",", ":")))
        if self.fold.game.hidden_information:
            self._hide(event, logged, before)
        if event.client_action_id:
            self.client_ids[event.client_action_id] = key or event_request_key(event)
        if event.kind == "roll":
            self.rolls.append(
                {
                    **event.payload,
                    "seq": event.seq,
                    "seat": event.seat,
                    "created_at": event.created_at,
                }
            )

    def _hide(self, event: Event, logged: dict[str, Any], before: Any) -> None:
        """Keep the event's text for each role that may not see all of it (a deck list)."""
        game = self.fold.game
        for role in ROLES:
            seat = role if role in SEATS else None
            shown = game.event_view(event.kind, event.payload, event.seat, seat, before)
            if shown is not None:
                text = json.dumps({**logged, "payload": shown}, separators=(",", ":"))
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
            views = {role: _dumps(self.view(role, presence=False)) for role in ROLES}
        else:
            shared = _dumps(self.view(presence=False))
            views = dict.fromkeys(ROLES, shared)
        self.published = (self.revision, views)

    def view(self, role: str | None = None, *, presence: bool = True) -> dict[str, Any]:
        """What a phone of the table sees: revision, seats, the game's view of the state (at
        least ``state`` and ``legal``), the seat to act, the outcome, who may undo, the fleet
        ``colours`` (``{"A": "#RRGGBB", "B": ...}``) and ``presence`` (:meth:`presence_view`).

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
        return {
            "table": self.id,
            "game": self.game,
            "revision": self.revision,
            "seats": {seat: seat in self.roles.values() for seat in SEATS},
            **seen,
            "undo_seat": self.fold.undo_seat,
            "rolls": len(self.rolls),
            "colours": self.colours,
            **({"presence": self.presence_view()} if presence else {}),
        }


def parse_colours(data: Any) -> dict[str, str] | None:
    """Check a table's fleet colours: None, or ``{"A"?: "#RRGGBB", "B"?: "#RRGGBB"}``
    (upper-cased; a seat left out keeps its default).

    Raises:
        Rejected: 400 naming the field and what is allowed.
    """
    if data is None:
        return None
    if not isinstance(data, dict) or not set(data) <= set(SEATS):
        raise Rejected(
            400, "malformed", f"colours must be an object with keys A and/or B, got {brief(data)}"
        )
    chosen = {}
    for seat, value in data.items():
        if not isinstance(value, str) or not HEX_COLOUR.fullmatch(value):
            raise Rejected(
                400, "malformed", f"colours.{seat} must be #RRGGBB (hex), got {brief(value)}"
            )
        chosen[seat] = value.upper()
    return chosen


def _dumps(data: Any) -> str:
    """Compact JSON text of a view sent to the phones (never of a stored event: the log keeps
    :func:`json.dumps`' exact bytes). orjson writes it several times faster than the standard
    library; the text differs only where both are valid JSON of the same content (non-ASCII
    characters as UTF-8 instead of ``\\u`` escapes). What orjson cannot write (an integer
    beyond 64 bits, say) falls back to :func:`json.dumps`."""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(data, separators=(",", ":"))


def _key(*parts: Any) -> str:
    return json.dumps(parts, sort_keys=True, separators=(",", ":"))


def event_request_key(event: Event) -> str:
    """What a logged event's request asked for, comparable with :func:`action_request_key`.

    A retry of a request (same ``client_action_id``) must ask for the same thing; the key
    leaves out what the server decided (dice faces, the layout of a random setup). A setup
    logged before the request was kept (``request`` missing) matches no retry: the retry is
    refused as ``client_action_id_reused`` and nothing is applied twice.
    """
    payload = event.payload
    if event.kind == "action":
        return _key("action", event.seat, payload["action"])
    if event.kind == "setup":
        return _key("setup", event.seat, payload.get("request"))
    if event.kind == "roll":
        return roll_request_key(event.seat, payload["count"], payload["sides"], payload["purpose"])
    return _key(event.kind, event.seat)


def action_request_key(game: Game[Any, Any, Any], seat: str, action: Any) -> str:
    """The key of an incoming ``/actions`` request (see :func:`event_request_key`)."""
    if not isinstance(action, dict):
        return _key("invalid")
    kind = action.get("type")
    if kind == "undo":
        return _key("undo", seat)
    try:
        if kind == "setup":
            return _key("setup", seat, game.setup_to_json(game.parse_setup(action)))
        return _key("action", seat, game.action_to_json(game.parse_action(action)))
    except GameError:
        return _key("invalid")


def roll_request_key(seat: str | None, count: Any, sides: Any, purpose: Any) -> str:
    """The key of a dice request (see :func:`event_request_key`)."""
    return _key("roll", seat, count, sides, purpose.strip() if isinstance(purpose, str) else None)


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


class StreamSlot:
    """One open live stream of a token holder (from :meth:`TableService.open_stream`).

    ``ended`` turns True when the slot was taken back (its seat opened more than
    :data:`SEAT_STREAMS` streams): the stream then ends and the page reconnects.
    """

    def __init__(self, service: TableService, seat: Seat, table: Table) -> None:
        self.service = service
        self.seat = seat
        self.table = table
        self.ended = False
        self.presence_sent = -1
        self._released = False

    def frames(self, table: Table, sent: int) -> tuple[str, int]:
        """What this stream has not sent yet: the new events (:func:`frames`), else, when the
        presence changed since this stream last sent a view, ``data: {"event": null, "view":
        ...}`` without an ``id`` (the page keeps its place in the log)."""
        version = table.presence_version
        text, sent = frames(table, self.seat.role, sent)
        if text:
            self.presence_sent = version
        elif version != self.presence_sent:
            self.presence_sent = version
            text = f'data: {{"event":null,"view":{table.view_json(self.seat.role)}}}\n\n'
        return text, sent

    def release(self) -> None:
        """Give the slot back (idempotent)."""
        if not self._released:
            self._released = True
            self.service._release_stream(self)


@dataclass(frozen=True, kw_only=True)
class Seat:
    """A token holder's place at a table: ``role`` is "A", "B" or "watch"."""

    table_id: str
    role: str
    token: str


class TableService:
    """Tables over an event store (:class:`companion.store.Store`); one instance per app (registered in the factory).

    Args:
        store: the event store.
        dice: the dice service.
        max_streams: live streams allowed at once (None: no limit).
        hub: the fan-out that wakes async live streams (default: in-process).
    """

    def __init__(
        self,
        store: Store,
        dice: DiceService,
        max_streams: int | None = None,
        hub: LocalHub | None = None,
    ) -> None:
        self.store = store
        self.dice = dice
        self.hub = hub if hub is not None else LocalHub()
        self.hub.on_remote = self._remote
        self.hub.on_counts = self.stream_counts
        self.hub.on_expire = self.expire_remote
        self.shared = self.hub.url != "local" or store.shared
        """True when other processes may write the same tables: catch up before using one."""
        self.max_streams = max_streams
        self.streams_open = 0
        self.watchers_open = 0
        self.started_at = time.time()
        self._tables: dict[str, Table] = {}
        self._guard = threading.Lock()
        self._streams_lock = threading.Lock()  # never held across I/O: the event loop takes it
        self.closed = threading.Event()

    def close(self) -> None:
        """End every live stream (server shutdown)."""
        self.closed.set()
        for table in list(self._tables.values()):
            with table.changed:
                table.changed.notify_all()
        self.hub.wake_all()

    # ------------------------------------------------------------------------ tables, seats

    def create(self, game: Any = None, colours: Any = None) -> tuple[Seat, str, str]:
        """A new table with seat A taken.

        Args:
            game: a registered game's name, or None for the first game of the registry (its
                menu order): the platform names no game itself.
            colours: the fleet colours, ``{"A": "#RRGGBB", "B": "#RRGGBB"}`` (either may be left
                out: :data:`DEFAULT_COLOURS`), or None.

        Returns:
            (seat A with its token, join token, watch token).

        Raises:
            Rejected: 400 unknown game or bad colours.
        """
        if game is None:
            game = next(iter(registry.GAMES))
        if not isinstance(game, str) or game not in registry.GAMES:
            raise Rejected(
                400, "malformed", f"game must be one of {list(registry.GAMES)}, got {brief(game)}"
            )
        chosen = parse_colours(colours)
        table_id = secrets.token_urlsafe(16)
        join, watch, token = (secrets.token_urlsafe(24) for _ in range(3))
        self.store.create_table(
            table_id=table_id, game=game, join_token=join, watch_token=watch, colours=chosen
        )
        self.store.add_seat(table_id=table_id, seat="A", token=token)
        return Seat(table_id=table_id, role="A", token=token), join, watch

    def join(self, join_token: str) -> Seat:
        """Take seat B through the join token.

        Raises:
            Rejected: 404 unknown token, 409 seat taken.
        """
        table_id = self.store.table_by_token("join", join_token)
        if table_id is None:
            raise Rejected(404, "unknown", "no table has this join link")
        token = secrets.token_urlsafe(24)
        table = self.table(table_id)
        with table.lock:
            with self._writing(table):
                event = Event(
                    seq=table.revision + 1,
                    kind="join",
                    seat="B",
                    client_action_id=None,
                    payload={},
                    created_at=time.time(),
                )
                try:
                    self.store.add_seat(table_id=table_id, seat="B", token=token, event=event)
                except StoreError as exc:
                    raise Rejected(409, "seat_taken", "both seats of this table are taken") from exc
            table.roles[token_hash(token)] = "B"
            table.add(event)
            self._publish(table)
        return Seat(table_id=table_id, role="B", token=token)

    def table_for_token(self, kind: str, token: str) -> str | None:
        """The table id a ``"join"`` or ``"watch"`` token opens, or None."""
        return self.store.table_by_token(kind, token)

    def table(self, table_id: str) -> Table:
        """The cached table, loading and folding its log on first use.

        Raises:
            Rejected: 404 unknown table.
        """
        table = self._tables.get(table_id)
        if table is not None:
            return table
        with self._guard:
            if table_id in self._tables:
                return self._tables[table_id]
            row = self.store.table(table_id)
            if row is None:
                raise Rejected(404, "unknown", "no such table")
            roles = {digest: seat for seat, digest in row.seat_hashes.items()}
            roles[token_hash(row.watch_token)] = "watch"
            table = Table(
                id=table_id,
                game=row.game,
                fold=Fold(game=registry.get(row.game)),
                roles=roles,
                join_token=row.join_token,
                watch_token=row.watch_token,
                colours={**DEFAULT_COLOURS, **(row.colours or {})},
            )
            away_since = max(row.created_at, self.started_at)
            table.presence = dict.fromkeys(SEATS, (False, away_since))
            table.presence_json = _dumps(table.presence_view())
            for event in self.store.events(table_id):
                table.add(event)
            table.publish()
            self._tables[table_id] = table
            return table

    def authorise(self, table_id: str, token: str | None) -> Seat:
        """The seat a token holds at a table (every channel calls this).

        Raises:
            Rejected: 404 unknown table, 403 missing or wrong token.
        """
        table = self.table(table_id)
        role = table.roles.get(token_hash(token)) if token else None
        if role is None and token and self.shared:  # seated through another process?
            with table.lock:
                self._catch_up(table, roles=True)
            role = table.roles.get(token_hash(token))
        if role is None:
            raise Rejected(403, "forbidden", "a seat or watch token of this table is required")
        return Seat(table_id=table_id, role=role, token=token or "")

    def fresh(self, table_id: str) -> Table:
        """The table, caught up with the shared log first when other processes write too."""
        table = self.table(table_id)
        if self.shared:
            with table.lock:
                self._catch_up(table)
        return table

    @contextmanager
    def _writing(self, table: Table) -> Iterator[None]:
        """The table's write lock across processes (:meth:`Store.locked`; the caller holds
        ``table.lock``), with the table caught up from the shared log first; committed before
        the streams are told."""
        with self.store.locked(table.id):
            if self.shared:
                self._catch_up(table)
            yield

    def _catch_up(self, table: Table, *, roles: bool = False) -> bool:
        """Fold in what other processes appended (caller holds ``table.lock``); True if any.

        Seats are re-read when asked or when a ``join`` or ``reclaim`` came in."""
        new = self.store.events(table.id, after=table.revision)
        if roles or any(e.kind in ("join", "reclaim") for e in new):
            row = self.store.table(table.id)
            if row is not None:
                fresh = {digest: seat for seat, digest in row.seat_hashes.items()}
                fresh[token_hash(row.watch_token)] = "watch"
                table.roles = fresh
        for event in new:
            table.add(event)
        if new:
            self._publish(table, broadcast=False)
        return bool(new)

    def _remote(self, message: dict[str, Any]) -> None:
        """A message from another process (:mod:`companion.hub`), on the event loop: presence
        counts are merged at once; a new revision is caught up from the log in a thread."""
        table = self._tables.get(str(message.get("t")))
        if table is None:
            return  # nobody here streams that table
        counts = message.get("p")
        if isinstance(counts, dict):
            with self._streams_lock:
                table.remote[str(message.get("o"))] = (time.monotonic(), counts)
                changed = self._presence(table)
            if changed:
                self.hub.wake(table.id)
            return
        revision = message.get("r")
        if isinstance(revision, int) and revision > table.revision:
            threading.Thread(target=self._catch_up_locked, args=(table,), daemon=True).start()

    def _catch_up_locked(self, table: Table) -> None:
        with table.lock:
            self._catch_up(table)

    def expire_remote(self, older_than: float) -> None:
        """Forget other processes' stream counts not heard for ``older_than`` seconds (a
        process that died cannot say its phones left)."""
        cutoff = time.monotonic() - older_than
        for table in list(self._tables.values()):
            with self._streams_lock:
                stale = [o for o, (heard, _) in table.remote.items() if heard < cutoff]
                for origin in stale:
                    del table.remote[origin]
                changed = bool(stale) and self._presence(table)
            if changed:
                self.hub.wake(table.id)

    def stream_counts(self) -> dict[str, dict[str, int]]:
        """This process's open streams per seat, per table that has any (for the hub)."""
        with self._streams_lock:
            return {
                table.id: {seat: len(table.streams.get(seat, ())) for seat in SEATS}
                for table in self._tables.values()
                if any(table.streams.get(seat) for seat in SEATS)
            }

    # ---------------------------------------------------------------------------- reclaim

    def reclaim_code(self, seat: Seat, body: Any) -> dict[str, Any]:
        """A short code with which a new browser takes over a seat (the phone that lost its
        seat cookie): ``{"code", "seat", "expires_at"}``; asked by a seated phone, by default
        for the other seat (``{"seat": "A" | "B"}`` to choose).

        Raises:
            Rejected: 403 watcher, 400 bad seat, 409 the seat is not taken yet.
        """
        if seat.role not in SEATS:
            raise Rejected(403, "forbidden", "only a seated phone can make a reclaim code")
        target = (body or {}).get("seat") if isinstance(body, dict) else None
        if target is None:
            target = SEATS[1 - SEATS.index(seat.role)]
        if target not in SEATS:
            raise Rejected(
                400, "malformed", f"seat must be one of {list(SEATS)}, got {brief(target)}"
            )
        table = self.fresh(seat.table_id)
        if target not in table.roles.values():
            raise Rejected(409, "seat_free", f"seat {target} is not taken; join with the join link")
        code = "".join(secrets.choice(RECLAIM_ALPHABET) for _ in range(RECLAIM_CHARS))
        expires = time.time() + RECLAIM_SECONDS
        self.store.add_reclaim_code(table_id=table.id, seat=target, code=code, expires_at=expires)
        return {"code": code, "seat": target, "expires_at": iso_utc(expires)}

    def reclaim(self, table_id: str, body: Any) -> Seat:
        """Take over a seat with a reclaim code ``{"code": "ABC234"}`` (case, spaces and dashes
        do not matter): the seat gets a new token (the old one stops working) and a
        ``reclaim`` event is logged. A code works once.

        Raises:
            Rejected: 400 malformed code, 404 unknown table, 403 ``reclaim_code_invalid``.
        """
        table = self.table(table_id)
        code = body.get("code") if isinstance(body, dict) else None
        if isinstance(code, str):
            code = re.sub(r"[\s-]", "", code).upper()
        if not isinstance(code, str) or not re.fullmatch(
            f"[{RECLAIM_ALPHABET}]{{{RECLAIM_CHARS}}}", code
        ):
            raise Rejected(
                400,
                "malformed",
                f"code must be {RECLAIM_CHARS} of {RECLAIM_ALPHABET}, got {brief(code)}",
            )
        target = self.store.take_reclaim_code(table_id=table_id, code=code)
        if target is None:
            raise Rejected(403, "reclaim_code_invalid", "this code is unknown, used or expired")
        token = secrets.token_urlsafe(24)
        for _ in range(3):
            with table.lock:
                try:
                    with self._writing(table):
                        event = Event(
                            seq=table.revision + 1,
                            kind="reclaim",
                            seat=target,
                            client_action_id=None,
                            payload={},
                            created_at=time.time(),
                        )
                        self.store.replace_seat(
                            table_id=table_id, seat=target, token=token, event=event
                        )
                except StoreError:
                    if self.shared:
                        continue  # another process appended meanwhile: catch up, try again
                    raise
                table.roles = {h: r for h, r in table.roles.items() if r != target}
                table.roles[token_hash(token)] = target
                table.add(event)
                self._publish(table)
                return Seat(table_id=table_id, role=target, token=token)
        raise Rejected(503, "busy", "the table is too busy right now; try again")

    # ---------------------------------------------------------------------------------- write

    def submit(self, seat: Seat, body: Any) -> str:
        """Apply a phone's write: ``{expected_revision, client_action_id, action}``.

        ``action`` is a rules action (``move``/``skip``/``push``), ``{"type": "setup", "mode":
        "random" | "manual", "rifts"?, "variant"?}`` or ``{"type": "undo"}``.

        Returns:
            JSON text ``{"revision", "duplicate", "view"}`` (the view is the published one, so
            the answer and the live stream carry the same bytes).

        Raises:
            Rejected: 400 malformed, 403 watcher, 409 stale revision, 422 illegal.
        """
        return self._write(seat, *self._action_request(seat, body))

    def _action_request(self, seat: Seat, body: Any) -> tuple[str, str, Any]:
        """A phone's action write, checked: (client action id, request key, the function that
        makes its events from the table); :meth:`submit` and :meth:`submit_soon`.

        Raises:
            Rejected: 400 malformed envelope or action.
        """
        expected, client_id, action = self._envelope(body, need_revision=True)
        if not isinstance(action, dict):
            raise Rejected(400, "malformed", "action must be a JSON object")
        key = action_request_key(self.table(seat.table_id).fold.game, seat.role, action)
        return client_id, key, lambda table: self._events_for(table, seat, expected, action)

    def roll(self, seat: Seat, body: Any) -> str:
        """Roll dice for a purpose: ``{client_action_id, count, sides, purpose}``.

        Rolls need no revision (they are not turn actions) and cannot be undone.

        Raises:
            Rejected: 400 malformed, 403 watcher.
        """
        _, client_id, _ = self._envelope(body, need_revision=False)
        try:
            request = RollRequest(
                count=body.get("count"), sides=body.get("sides"), purpose=body.get("purpose")
            )
        except RollError as exc:
            raise Rejected(400, "malformed", str(exc)) from exc
        key = roll_request_key(seat.role, request.count, request.sides, request.purpose)
        return self._write(
            seat,
            client_id,
            key,
            lambda table: (
                [
                    self._roll_event(
                        table, seat, request.purpose.strip(), request.count, request.sides, 1
                    )
                ],
                None,
            ),
        )

    @staticmethod
    def _envelope(body: Any, *, need_revision: bool) -> tuple[int, str, Any]:
        if not isinstance(body, dict):
            raise Rejected(400, "malformed", "the body must be a JSON object")
        client_id = body.get("client_action_id")
        if not isinstance(client_id, str) or not CLIENT_ACTION_ID.fullmatch(client_id):
            raise Rejected(
                400,
                "malformed",
                f"client_action_id must be 1..64 of [A-Za-z0-9_.:-], got {brief(client_id)}",
            )
        expected = body.get("expected_revision", -1)
        if need_revision and (
            not isinstance(expected, int)
            or isinstance(expected, bool)
            or not 0 <= expected <= MAX_REVISION
        ):
            raise Rejected(
                400,
                "malformed",
                f"expected_revision must be an integer in 0..{MAX_REVISION}, got {brief(expected)}",
            )
        return expected, client_id, body.get("action")

    def _write(self, seat: Seat, client_id: str, key: str, make: Any) -> str:
        """Apply a write under the table's lock: idempotent by ``client_action_id``, appended
        to the log before the answer. Where other processes write the same table, the table is
        caught up first, and a write that loses the race for a seq is decided again on the
        caught-up table (so it is refused as stale, or applied once after the other)."""
        if seat.role not in SEATS:
            raise Rejected(403, "forbidden", "watchers cannot write")
        table = self.table(seat.table_id)
        attempts = 3 if self.shared else 1
        for attempt in range(attempts):
            with table.lock:
                try:
                    with self._writing(table):
                        duplicate, events, applied = self._decide(
                            table, seat.role, client_id, key, make
                        )
                        if not duplicate:
                            self.store.append(table.id, table.revision, events)
                except StoreError:
                    if attempt + 1 < attempts:
                        continue  # another process appended first: decide again
                    raise
                return self._written(table, seat, duplicate, events, applied, key)
        raise AssertionError("unreachable")  # pragma: no cover

    @staticmethod
    def _decide(
        table: Table, role: str, client_id: str, key: str, make: Any
    ) -> tuple[bool, list[Event], Applied | None]:
        """Under the table's lock: (duplicate, the events to append, the applied action) of a
        write; a ``client_action_id`` already used for another request is refused (409)."""
        duplicate = client_id in table.client_ids
        if duplicate and table.client_ids[client_id] != key:
            raise Rejected(
                409,
                "client_action_id_reused",
                f"client_action_id {client_id} was already used for a different "
                "request; nothing was applied",
                table.view(role),
            )
        if duplicate:
            return True, [], None
        events, applied = make(table)
        events[-1] = replace(events[-1], client_action_id=client_id)
        return False, events, applied

    def _written(
        self,
        table: Table,
        seat: Seat,
        duplicate: bool,
        events: list[Event],
        applied: Applied | None,
        key: str,
    ) -> str:
        """Under the table's lock, once the events are in the log: fold them in, publish, and
        the answer ``{"revision", "duplicate", "view"}``."""
        if not duplicate:
            for event in events[:-1]:
                table.add(event)
            table.add(events[-1], applied, key)  # the request's key is the event's
            self._publish(table)
        published = table.published
        revision, view_json = published[0], table.view_json(seat.role, published)
        flag = "true" if duplicate else "false"
        return f'{{"revision":{revision},"duplicate":{flag},"view":{view_json}}}'

    async def submit_soon(self, table_id: str, token: str | None, body: Any) -> str | None:
        """:func:`companion.api.post_action` on the event loop, or None where it cannot run
        there without waiting for a lock or a read (the caller then runs ``post_action`` in a
        worker thread): the store has no :meth:`~companion.store.EventStore.append_soon`,
        other processes write the tables, the table is not loaded yet, or its lock is taken.

        The checks, the rules and the answer are those of the thread path (:meth:`authorise`,
        :meth:`submit`: same order, same refusals); the append is queued for the store's
        committer and awaited, so the answer still comes after the durable commit, and the
        events are folded in and published (the streams woken) from the loop right after it,
        whatever happens to the request meanwhile. Saves the hand-offs of a worker thread
        (issue 9, point 1).

        Raises:
            Rejected, StorageUnavailable, StoreError: as :func:`companion.api.post_action`.
        """
        append_soon = getattr(self.store, "append_soon", None)
        table = self._tables.get(table_id)
        if append_soon is None or self.shared or table is None:
            return None
        if not table.lock.acquire(blocking=False):
            return None
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[str] = loop.create_future()

        def committed(error: Exception | None) -> None:  # on the loop, the lock still held
            try:
                if error is not None:
                    answer.set_exception(error)
                else:
                    answer.set_result(self._written(table, seat, False, events, applied, key))
            except BaseException as exc:  # noqa: BLE001 - answered as the thread path would
                if not answer.done():
                    answer.set_exception(exc)
            finally:
                table.lock.release()

        def told(error: Exception | None) -> None:  # the committer thread
            try:
                loop.call_soon_threadsafe(committed, error)
            except RuntimeError:  # the loop closed (shutdown): give the table back anyway
                table.lock.release()

        queued = False
        try:
            seat = self.authorise(table_id, token)
            client_id, key, make = self._action_request(seat, body)
            if seat.role not in SEATS:
                raise Rejected(403, "forbidden", "watchers cannot write")
            duplicate, events, applied = self._decide(table, seat.role, client_id, key, make)
            if duplicate:
                return self._written(table, seat, True, events, applied, key)
            append_soon(table.id, table.revision, events, told)
            queued = True  # from here on, committed() gives the lock back
        finally:
            if not queued:
                table.lock.release()
        return await asyncio.shield(answer)

    def _publish(self, table: Table, *, broadcast: bool = True) -> None:
        """Recompute the views and wake the streams (here; and, if ``broadcast``, tell the
        other processes through the hub)."""
        table.publish()
        with table.changed:
            table.changed.notify_all()
        if broadcast:
            self.hub.notify(table.id, table.revision)
        else:
            self.hub.wake_table(table.id)

    def _event(
        self, table: Table, seat: Seat, kind: str, payload: dict[str, Any], offset: int
    ) -> Event:
        return Event(
            seq=table.revision + offset,
            kind=kind,
            seat=seat.role,
            client_action_id=None,
            payload=payload,
            created_at=time.time(),
        )

    def _roll_event(
        self, table: Table, seat: Seat, purpose: str, count: int, sides: int, offset: int
    ) -> Event:
        faces = self.dice.roll(count, sides)
        payload = {"purpose": purpose, "count": count, "sides": sides, "faces": faces}
        return self._event(table, seat, "roll", payload, offset)

    def _rolls(
        self, table: Table, seat: Seat, requests: tuple[DiceRequest, ...]
    ) -> tuple[list[Event], Faces]:
        """Roll the dice a game asked for: one ``roll`` event per request, and the faces."""
        events = [
            self._roll_event(table, seat, r.purpose, r.count, r.sides, offset)
            for offset, r in enumerate(requests, start=1)
        ]
        return events, tuple(tuple(e.payload["faces"]) for e in events)

    def _events_for(
        self, table: Table, seat: Seat, expected: int, action: dict[str, Any]
    ) -> tuple[list[Event], Applied | None]:
        """The events a write adds (rolls first, then the setup, action or undo), and for an
        action the parsed action with the state after it (:meth:`Fold.add` takes it, so the
        rules run once per action).

        Order of the checks: malformed (400), stale (409), then the rules (422).
        """
        game = table.fold.game
        kind = action.get("type")
        state = table.fold.state
        try:
            if kind == "setup":
                parsed: Any = game.parse_setup(action)
            elif kind != "undo":
                parsed = game.parse_action(action)
        except MalformedAction as exc:
            raise Rejected(400, "malformed", str(exc)) from exc
        except IllegalAction as exc:
            if expected != table.revision:
                raise self._stale(table, seat.role, expected) from exc
            raise Rejected(422, "illegal", str(exc), table.view(seat.role)) from exc
        if expected != table.revision:
            raise self._stale(table, seat.role, expected)

        def view() -> dict[str, Any]:  # only for a refusal: a view costs as much as the action
            return table.view(seat.role)

        if kind == "setup":
            if state is not None:
                raise Rejected(422, "illegal", "the game is already set up", view())
            dice, faces = self._rolls(table, seat, game.setup_dice(parsed))
            try:
                payload = game.setup_event(parsed, faces)
            except IllegalAction as exc:
                raise Rejected(422, "illegal", str(exc), view()) from exc
            payload["request"] = game.setup_to_json(parsed)
            return [*dice, self._event(table, seat, "setup", payload, len(dice) + 1)], None
        if state is None:
            raise Rejected(422, "illegal", "set the game up first", view())
        if kind == "undo":
            if table.fold.undo_seat != seat.role:
                raise Rejected(
                    422, "illegal", "only your own actions of this turn can be undone", view()
                )
            undo = self._event(table, seat, "undo", {"undoes": table.fold.undoable[-1][0]}, 1)
            return [undo], None
        try:
            dice, faces = self._rolls(table, seat, game.dice_for(state, seat.role, parsed))
            after = game.apply(state, seat.role, parsed, faces)
        except NotYourTurn as exc:
            raise Rejected(422, "not_your_turn", str(exc), view()) from exc
        except IllegalAction as exc:
            raise Rejected(422, "illegal", str(exc), view()) from exc
        payload = {"action": game.action_to_json(parsed)}
        if faces:
            payload["faces"] = [list(f) for f in faces]
        return [*dice, self._event(table, seat, "action", payload, len(dice) + 1)], (parsed, after)

    @staticmethod
    def _stale(table: Table, role: str, expected: int) -> Rejected:
        return Rejected(
            409,
            "stale",
            f"the table is at revision {table.revision}, the action was based on {expected}",
            table.view(role),
        )

    # ----------------------------------------------------------------------------------- read

    def log(self, seat: Seat, limit: int = LOG_EVENTS) -> dict[str, Any]:
        """The table's newest ``limit`` events, oldest first: ``{"events": [...], "total"}``
        (each event with ``seq``, ``kind``, ``seat``, ``payload``, ``created_at``)."""
        table = self.table(seat.table_id)
        with table.lock:
            total = len(table.messages)
            newest = [
                table.message(seq, seat.role) for seq in range(max(1, total - limit + 1), total + 1)
            ]
        return {"events": [json.loads(m) for m in newest], "total": total}

    def dice_history(self, seat: Seat) -> dict[str, Any]:
        """All rolls of the table and observed versus expected frequencies per die size."""
        table = self.table(seat.table_id)
        with table.lock:
            rolls = list(table.rolls)
        return {"rolls": rolls, "frequencies": frequencies(rolls)}

    def stream(self, seat: Seat, since: int, heartbeat: float, lifetime: float = 600.0) -> Stream:
        """Server-Sent Events for a table from ``since`` (exclusive) on, until :meth:`close`,
        as a blocking iterator for a WSGI server (the Flask route; ``tablesmith serve`` streams
        on its event loop instead, :mod:`companion.asgi`).

        Each event is ``id: <seq>`` with ``data: {"event": ..., "view": ...}``; the view (the
        table's current view) rides on the newest event sent. A comment line is sent every
        ``heartbeat`` seconds without events. Such a stream holds a server thread, so the
        stream budgets apply (:meth:`open_stream`), and a stream ends after ``lifetime``
        seconds (the page reconnects with ``since``).

        Raises:
            Rejected: see :meth:`open_stream`.
        """
        table = self.fresh(seat.table_id)  # a phone resuming from another process's log
        slot = self.open_stream(seat)
        events = self._events(table, slot, since, heartbeat, time.monotonic() + lifetime)
        return Stream(events, slot.release)

    def open_stream(self, seat: Seat) -> StreamSlot:
        """Reserve a live stream for a token holder; release it with ``slot.release()``.

        Budgets (issue 9, point 2): each seat of a table holds at most :data:`SEAT_STREAMS`
        streams (a new one ends the seat's oldest, so a reloaded phone always gets through);
        the watchers of a table share :data:`WATCH_STREAMS`, and watchers of all tables at most
        :data:`WATCH_SHARE` of ``max_streams``, so they can never starve the seats. The first
        stream of a seat makes it ``connected`` in the table's presence.

        Raises:
            Rejected: 429 ``watchers_full`` (this table's or this server's watcher budget), 503
                ``server_full`` (``max_streams`` streams open in this process).
        """
        table = self.table(seat.table_id)
        role = seat.role
        evicted: StreamSlot | None = None
        with self._streams_lock:
            if self.max_streams is not None and self.streams_open >= self.max_streams:
                raise Rejected(
                    503,
                    "server_full",
                    f"{self.streams_open} live streams are open on this server; try again soon",
                )
            mine = table.streams.setdefault(role, [])
            if role not in SEATS:
                if len(mine) >= WATCH_STREAMS:
                    raise Rejected(
                        429,
                        "watchers_full",
                        f"this table already has {WATCH_STREAMS} watchers; try again later",
                    )
                share = None if self.max_streams is None else int(self.max_streams * WATCH_SHARE)
                if share is not None and self.watchers_open >= share:
                    raise Rejected(
                        429,
                        "watchers_full",
                        "this server has no room for more watchers; the seated phones come first",
                    )
                self.watchers_open += 1
            elif len(mine) >= SEAT_STREAMS:
                evicted = mine.pop(0)
                evicted.ended = True
                evicted._released = True
                self.streams_open -= 1
            slot = StreamSlot(self, seat, table)
            mine.append(slot)
            self.streams_open += 1
            changed = self._presence(table)
        self._streams_changed(table, changed or evicted is not None)
        return slot

    def _release_stream(self, slot: StreamSlot) -> None:
        table = slot.table
        with self._streams_lock:
            mine = table.streams.get(slot.seat.role, [])
            if slot in mine:
                mine.remove(slot)
            self.streams_open -= 1
            if slot.seat.role not in SEATS:
                self.watchers_open -= 1
            changed = self._presence(table)
        self._streams_changed(table, changed)

    def _presence(self, table: Table) -> bool:
        """Recompute a table's presence from the streams here and elsewhere (caller holds
        ``_streams_lock``); True when a seat connected or went away."""
        now = time.time()
        changed = False
        for seat in SEATS:
            count = len(table.streams.get(seat, ())) + sum(
                int(counts.get(seat, 0)) for _, counts in table.remote.values()
            )
            connected = count > 0
            if connected != table.presence[seat][0]:
                table.presence[seat] = (connected, now)
                changed = True
        if changed:
            table.presence_json = _dumps(table.presence_view())
            table.presence_version += 1
        return changed

    def _streams_changed(self, table: Table, wake: bool) -> None:
        """Tell the other processes this process's stream counts; wake the table's streams
        when the presence changed (or a stream was taken back)."""
        counts = {seat: len(table.streams.get(seat, ())) for seat in SEATS}
        self.hub.notify_presence(table.id, counts, wake=wake)
        if wake:
            with table.changed:
                table.changed.notify_all()

    def _events(
        self, table: Table, slot: StreamSlot, since: int, heartbeat: float, deadline: float
    ) -> Iterator[str]:
        yield "retry: 1500\n\n"
        sent = max(0, min(since, table.published[0]))
        while not self.closed.is_set() and not slot.ended and time.monotonic() < deadline:
            with table.changed:
                if (
                    table.published[0] <= sent
                    and table.presence_version == slot.presence_sent
                    and not self.closed.is_set()
                    and not slot.ended
                ):
                    table.changed.wait(heartbeat)
            if slot.ended:
                return
            text, sent = slot.frames(table, sent)
            yield text or ": heartbeat\n\n"


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
