"""Seats: tables made, seats taken and taken over, and the token a request holds.

A table is made with seat A taken (:meth:`Seats.create`); seat B is taken through the join
token (:meth:`Seats.join`). Every channel asks :meth:`Seats.authorise` which role a token holds.
Seat tokens are stored hashed (:func:`companion.store.base.token_hash`).

Seats nobody can take: a taken seat changes phones only through a code typed on the new
browser (:meth:`Seats.reclaim`), and what a code allows is in its length (the codes share the
store's reclaim codes, kept hashed, each used once):

* seat key (:data:`SEAT_KEY_CHARS`): given with the seat when the table is made or joined, and
  to a phone that used it (renewed); never to a phone seated by another code. It takes its
  seat at once, even from a phone that holds it: the rightful player's way back.
* move code (:data:`MOVE_CODE_CHARS`, :data:`RECLAIM_SECONDS`): made by the seated phone for its
  own seat (asking for it is that phone's consent); takes the seat at once.
* seat code (:data:`SEAT_CODE_CHARS`, :data:`RECLAIM_SECONDS`): made by a seated phone for the
  other seat, whose phone lost its seat; takes it only once that seat's phone is gone (no live
  stream or socket here or elsewhere and no request in any process for
  :attr:`Seats.gone_seconds`: a process tells the others of a seat's requests through the hub,
  :meth:`Seats.note_heard`), else 409
  ``seat_in_use`` and the code stays usable (for :data:`RECLAIM_SECONDS` more).

The phone whose seat was taken is told on its live streams, which then close
(:func:`companion.tables.sse.pending`), and its token is refused from then on with a 403 that
says so (``reason`` ``seat_taken``, when, and the way back: the ``reclaim`` event names the
replaced token, :func:`~companion.tables.table.revoked_mark`); its table link says the same.
"""

from __future__ import annotations

import math
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

from companion.store.base import Event, Store, StoreError, token_hash
from companion.tables.cache import TableCache
from companion.tables.catchup import CatchUp
from companion.tables.rejected import RETRY_AFTER_SECONDS, Rejected, brief
from companion.tables.table import Table, iso_utc, revoked_mark
from games import registry
from games.protocol import SEATS

HEX_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")
RECLAIM_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Reclaim code letters: no 0/O, 1/I/L to mistake for each other."""
SEAT_CODE_CHARS = 6
"""A seat code: for the other seat, takes it once that seat's phone is gone."""
RECLAIM_CHARS = SEAT_CODE_CHARS
MOVE_CODE_CHARS = 8
"""A move code: the seated phone's own seat, taken at once (its consent)."""
SEAT_KEY_CHARS = 10
"""A seat key: the rightful player's, takes the seat at once, always."""
RECLAIM_SECONDS = 600.0
"""A seat or move code expires 10 minutes after it was made."""
SEAT_KEY_SECONDS = 400 * 24 * 3600.0
"""A seat key lasts longer than any game (its table's cookie lasts 30 days)."""
HEARD_SHARE_SECONDS = 5.0
"""A process tells the others of a seat's requests at most this often (through the hub,
:meth:`Seats.note_heard`): well within :data:`SEAT_GONE_SECONDS`, one message per phone per
5 s at most (none in one process)."""
SEAT_GONE_SECONDS = 60.0
"""A seat code takes a seat only when its phone had no live stream and made no request for
this long (the app's ``SEAT_GONE_SECONDS``): a locked phone drops its stream, an unlocked one
comes back within seconds."""


@dataclass(frozen=True, kw_only=True)
class Seat:
    """A token holder's place at a table: ``role`` is "A", "B" or "watch"."""

    table_id: str
    role: str
    token: str
    key: str | None = None
    """The seat key, where this answer hands one out (made, joined, or the key was used)."""


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


class Seats:
    """Who sits where at every table.

    Args:
        store: the event store (tables, seats, reclaim codes).
        cache: this process's tables.
        catch_up: the catch-up with other processes' writes.
    """

    def __init__(self, store: Store, cache: TableCache, catch_up: CatchUp) -> None:
        self.store = store
        self.cache = cache
        self.catch_up = catch_up
        self.gone_seconds = SEAT_GONE_SECONDS

    def _key(self, table_id: str, seat: str) -> str:
        """A new seat key for ``seat`` (stored hashed, like the codes)."""
        key = _code(SEAT_KEY_CHARS)
        self.store.add_reclaim_code(
            table_id=table_id, seat=seat, code=key, expires_at=time.time() + SEAT_KEY_SECONDS
        )
        return key

    def create(self, game: Any = None, colours: Any = None) -> tuple[Seat, str, str]:
        """A new table with seat A taken.

        Args:
            game: a registered game's name, or None for the first game of the registry (its
                menu order): the platform names no game itself.
            colours: the fleet colours, ``{"A": "#RRGGBB", "B": "#RRGGBB"}`` (either may be left
                out: :data:`~companion.tables.table.DEFAULT_COLOURS`), or None.

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
        key = self._key(table_id, "A")
        return Seat(table_id=table_id, role="A", token=token, key=key), join, watch

    def join(self, join_token: str) -> Seat:
        """Take seat B through the join token.

        Raises:
            Rejected: 404 unknown token, 409 seat taken.
        """
        table_id = self.store.table_by_token("join", join_token)
        if table_id is None:
            raise Rejected(404, "unknown", "no table has this join link")
        token = secrets.token_urlsafe(24)
        table = self.cache.table(table_id)
        with table.lock:
            with self.catch_up.writing(table):
                event = _seat_event(table.revision + 1, "join", "B")
                try:
                    self.store.add_seat(table_id=table_id, seat="B", token=token, event=event)
                except StoreError as exc:
                    raise Rejected(409, "seat_taken", "both seats of this table are taken") from exc
            table.roles[token_hash(token)] = "B"
            self.note_heard(table, "B")
            table.add(event)
            self.cache.publish(table)
        return Seat(table_id=table_id, role="B", token=token, key=self._key(table_id, "B"))

    def table_for_token(self, kind: str, token: str) -> str | None:
        """The table id a ``"join"`` or ``"watch"`` token opens, or None."""
        return self.store.table_by_token(kind, token)

    def authorise(self, table_id: str, token: str | None) -> Seat:
        """The seat a token holds at a table (every channel calls this).

        Raises:
            Rejected: 404 unknown table, 403 missing or wrong token.
        """
        table = self.cache.table(table_id)
        role = table.roles.get(token_hash(token)) if token else None
        if role is None and token and self.catch_up.shared:  # seated through another process?
            with table.lock:
                self.catch_up.catch_up(table, roles=True)
            role = table.roles.get(token_hash(token))
        if role is None and token:
            refuse_revoked(table, token)
        if role is None:
            raise Rejected(403, "forbidden", "a seat or watch token of this table is required")
        if role in SEATS:
            self.note_heard(table, role)
        return Seat(table_id=table_id, role=role, token=token or "")

    def taken_from(self, table_id: str, token: str | None) -> tuple[str, float] | None:
        """``(seat, when)`` when ``token`` held a seat of this table that another phone took
        over (a ``reclaim``), else None."""
        if not token:
            return None
        return self.cache.table(table_id).revoked.get(revoked_mark(token_hash(token)))

    def note_heard(self, table: Table, seat: str) -> None:
        """A request with ``seat``'s token came in (every channel: requests, live streams,
        sockets; :meth:`authorise` calls it): the phone is at the table now. Told to the
        other processes through the hub at most every :data:`HEARD_SHARE_SECONDS`, so that a
        seat code typed through another process waits for this phone too; not while the seat
        has a live stream or socket open in any process (its presence, which every process
        knows already: most phones, so most requests send nothing)."""
        now = time.time()
        table.heard[seat] = now
        if not self.catch_up.shared or table.presence.get(seat, (False, 0.0))[0]:
            return  # one process, or a live stream open somewhere: every process knows
        if now - table.heard_shared.get(seat, 0.0) >= HEARD_SHARE_SECONDS:
            table.heard_shared[seat] = now
            self.cache.hub.notify_heard(table.id, seat, now)

    def heard_elsewhere(self, table: Table, heard: Any) -> None:
        """Another process's ``{seat: UNIX seconds}`` of a seat's last request there (a hub
        message; anything else in it is ignored)."""
        now = time.time()
        for seat, at in heard.items():
            if seat in SEATS and isinstance(at, int | float) and not isinstance(at, bool):
                table.heard[seat] = max(table.heard.get(seat, 0.0), min(float(at), now))

    def last_seen(self, table: Table, seat: str) -> float | None:
        """When ``seat``'s phone was last at the table (UNIX seconds: now while it has a live
        stream or socket here or in another process, else its last request in any process
        (:meth:`note_heard`) or when its stream closed), or None when that was
        :attr:`gone_seconds` ago or longer (the phone is gone)."""
        now = time.time()
        connected, since = table.presence.get(seat, (False, 0.0))
        if connected:
            return now
        last = max(since, table.heard.get(seat, 0.0), table.loaded_at)
        return last if now - last < self.gone_seconds else None

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
        table = self.catch_up.fresh(seat.table_id)
        if target not in table.roles.values():
            raise Rejected(409, "seat_free", f"seat {target} is not taken; join with the join link")
        kind = "move" if target == seat.role else "seat"
        code = _code(MOVE_CODE_CHARS if kind == "move" else SEAT_CODE_CHARS)
        expires = time.time() + RECLAIM_SECONDS
        self.store.add_reclaim_code(table_id=table.id, seat=target, code=code, expires_at=expires)
        return {"code": code, "seat": target, "kind": kind, "expires_at": iso_utc(expires)}

    def reclaim(self, table_id: str, body: Any) -> Seat:
        """Take over a seat with a reclaim code ``{"code": "ABC234"}`` (case, spaces and dashes
        do not matter): the seat gets a new token (the old one stops working) and a
        ``reclaim`` event is logged. A code works once.

        Raises:
            Rejected: 400 malformed code, 404 unknown table, 403 ``reclaim_code_invalid``,
                503 ``busy`` (other processes kept appending to the table).
        """
        table = self.cache.table(table_id)
        code = body.get("code") if isinstance(body, dict) else None
        if isinstance(code, str):
            code = re.sub(r"[\s-]", "", code).upper()
        lengths = (SEAT_CODE_CHARS, MOVE_CODE_CHARS, SEAT_KEY_CHARS)
        if (
            not isinstance(code, str)
            or len(code) not in lengths
            or not re.fullmatch(f"[{RECLAIM_ALPHABET}]+", code)
        ):
            raise Rejected(
                400,
                "malformed",
                f"code must be {SEAT_CODE_CHARS}, {MOVE_CODE_CHARS} or {SEAT_KEY_CHARS} of "
                f"{RECLAIM_ALPHABET}, got {brief(code)}",
            )
        target = self.store.take_reclaim_code(table_id=table_id, code=code)
        if target is None:
            raise Rejected(403, "reclaim_code_invalid", "this code is unknown, used or expired")
        if len(code) == SEAT_CODE_CHARS:
            self._check_gone(table, table_id, target, code)
        token = secrets.token_urlsafe(24)
        key = self._key(table_id, target) if len(code) == SEAT_KEY_CHARS else None
        for _ in range(3):
            with table.lock:
                try:
                    with self.catch_up.writing(table):
                        old = [revoked_mark(h) for h, r in table.roles.items() if r == target]
                        event = _seat_event(table.revision + 1, "reclaim", target, old)
                        self.store.replace_seat(
                            table_id=table_id, seat=target, token=token, event=event
                        )
                except StoreError:
                    if self.catch_up.shared:
                        continue  # another process appended meanwhile: catch up, try again
                    raise
                table.roles = {h: r for h, r in table.roles.items() if r != target}
                table.roles[token_hash(token)] = target
                self.note_heard(table, target)
                table.add(event)
                self.cache.publish(table)  # wakes the old token's streams: told, they end
                return Seat(table_id=table_id, role=target, token=token, key=key)
        raise Rejected(
            503,
            "busy",
            "the table is too busy right now; try again",
            retry_after=RETRY_AFTER_SECONDS,
        )

    def _check_gone(self, table: Table, table_id: str, seat: str, code: str) -> None:
        """A seat code takes ``seat`` only when its phone is gone; else the code is kept (for
        another :data:`RECLAIM_SECONDS`: the store keeps no expiry to give back) and 409
        ``seat_in_use`` says when the phone was seen and when to try again.

        Raises:
            Rejected: 409 ``seat_in_use``.
        """
        seen = self.last_seen(table, seat)
        if seen is None:
            return
        self.store.add_reclaim_code(
            table_id=table_id, seat=seat, code=code, expires_at=time.time() + RECLAIM_SECONDS
        )
        wait = max(1, math.ceil(self.gone_seconds - (time.time() - seen)))
        raise Rejected(
            409,
            "seat_in_use",
            f"seat {seat}'s phone is still at the table (seen at {iso_utc(seen)}); a seat code "
            f"takes a seat once its phone has been away for {self.gone_seconds:g} s",
            retry_after=wait,
            details={"seat": seat, "seen_at": iso_utc(seen), "retry_in": wait},
        )


def _code(chars: int) -> str:
    """A random code of ``chars`` letters of :data:`RECLAIM_ALPHABET`."""
    return "".join(secrets.choice(RECLAIM_ALPHABET) for _ in range(chars))


def _seat_event(seq: int, kind: str, seat: str, revoked: list[str] | None = None) -> Event:
    """A ``join`` or ``reclaim`` event (the seat's token is in the seats table); a reclaim's
    payload ``{"revoked": [...]}`` names the replaced tokens by :func:`revoked_mark`."""
    payload: dict[str, Any] = {} if revoked is None else {"revoked": revoked}
    return Event(
        seq=seq,
        kind=kind,
        seat=seat,
        client_action_id=None,
        payload=payload,
        created_at=time.time(),
    )


def refuse_revoked(table: Table, token: str) -> None:
    """A token another phone took the seat from: 403 ``forbidden`` saying so, when and how
    to get back (``reason`` ``seat_taken``, ``seat``, ``taken_at``).

    Raises:
        Rejected: for a revoked seat token (else nothing happens).
    """
    taken = table.revoked.get(revoked_mark(token_hash(token)))
    if taken is None:
        return
    seat, at = taken
    raise Rejected(
        403,
        "forbidden",
        f"seat {seat} of this table was taken over by another phone at {iso_utc(at)} (a "
        "seat key, move code or seat code typed there); this phone can take it back with "
        "its seat key or a move code from that phone",
        details={"reason": "seat_taken", "seat": seat, "taken_at": iso_utc(at)},
    )


def check_still_seated(table: Table, seat: Seat) -> None:
    """Under the table's lock, after catching up with the other processes: ``seat``'s token
    still holds its seat. A write authorised a moment before another process handed the seat
    to a new phone (a ``reclaim`` this process had not heard of yet) is refused as the next
    request of that token will be, instead of being applied.

    Raises:
        Rejected: 403 ``forbidden`` (``reason`` ``seat_taken`` where the seat was taken over).
    """
    if table.roles.get(token_hash(seat.token)) == seat.role:
        return
    refuse_revoked(table, seat.token)
    raise Rejected(403, "forbidden", "a seat or watch token of this table is required")
