"""Writes: a phone's action, dice roll or own counter, checked, decided once, logged, then published.

Writes carry ``expected_revision`` (the last seq the phone saw) and a ``client_action_id``
(:mod:`companion.tables.keys`); a stale revision is refused with 409 and the current view,
unless only actions independent of the write came since (:mod:`companion.tables.commute`).
Each table has a lock; the log append is one transaction made before the answer, then every
stream of the table is woken. Two paths make the same decision with the same refusals in the
same order:

* :meth:`Writes.submit` / :meth:`Writes.roll` (a worker thread): the append is awaited in the
  thread (:meth:`companion.store.base.Store.append`);
* :meth:`Writes.submit_soon` (the event loop): the append is queued for the store's committer
  (:meth:`companion.store.base.Store.append_soon`) and awaited on the loop, where it can run
  without waiting for a lock or a read.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from companion.dice import DiceService, RollError, RollRequest
from companion.store.base import Event, Store, StoreError
from companion.tables.cache import TableCache
from companion.tables.catchup import CatchUp
from companion.tables.commute import counter_independent_since, independent_since
from companion.tables.counters import CounterChange, CounterError, CounterRefused, event_payload
from companion.tables.fold import Applied
from companion.tables.keys import (
    ActionRequest,
    action_request_key,
    counter_request_key,
    parse_request,
    roll_request_key,
)
from companion.tables.rejected import Rejected, brief
from companion.tables.seats import Seat, Seats, check_still_seated
from companion.tables.table import Table
from games.protocol import (
    SEATS,
    DiceRequest,
    Faces,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
)

CLIENT_ACTION_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
"""Matched with ``fullmatch`` (``$`` would accept a trailing newline)."""
MAX_REVISION = 10**15 - 1
"""Largest ``expected_revision`` / ``since`` accepted (15 digits)."""

MakeEvents = Callable[[Table], tuple[list[Event], Applied | None]]
"""Makes a write's events from the table it is decided on (under the table's lock)."""


def envelope(body: Any, *, need_revision: bool) -> tuple[int, str, Any]:
    """The parts every write carries: ``(expected_revision, client_action_id, action)``.

    Args:
        body: the parsed JSON body.
        need_revision: ``expected_revision`` is required (actions, counters); without it (a
            roll, a clock write) it is -1 when absent.

    Raises:
        Rejected: 400 ``malformed``: not an object, or a field out of its form (named).
    """
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


class Writes:
    """The write paths of every table.

    Args:
        store: the event store.
        cache: this process's tables.
        catch_up: the catch-up with other processes' writes.
        seats: who holds which token.
        dice: the dice service.
    """

    def __init__(
        self, store: Store, cache: TableCache, catch_up: CatchUp, seats: Seats, dice: DiceService
    ) -> None:
        self.store = store
        self.cache = cache
        self.catch_up = catch_up
        self.seats = seats
        self.dice = dice

    def submit(self, seat: Seat, body: Any) -> str:
        """Apply a phone's write: ``{expected_revision, client_action_id, action}``.

        ``action`` is one of the game's actions, ``{"type": "setup", ...}`` (the game's setup
        request) or ``{"type": "undo"}``.

        Returns:
            JSON text ``{"revision", "duplicate", "view"}`` (the view is the published one, so
            the answer and the live stream carry the same bytes).

        Raises:
            Rejected: 400 malformed, 403 watcher, 409 stale revision, 422 illegal.
        """
        return self._write(seat, *self._action_request(seat, body))

    def _action_request(self, seat: Seat, body: Any) -> tuple[str, str, MakeEvents]:
        """A phone's action write, checked: (client action id, request key, the function that
        makes its events from the table); :meth:`submit` and :meth:`submit_soon`.

        Raises:
            Rejected: 400 malformed envelope or action.
        """
        expected, client_id, action = envelope(body, need_revision=True)
        if not isinstance(action, dict):
            raise Rejected(400, "malformed", "action must be a JSON object")
        request = parse_request(self.cache.table(seat.table_id).fold.game, action)
        key = action_request_key(seat.role, request)
        ask = body.get("ask_before_end") is True
        return (
            client_id,
            key,
            lambda table: self._events_for(table, seat, expected, request, ask),
        )

    def roll(self, seat: Seat, body: Any) -> str:
        """Roll dice for a purpose: ``{client_action_id, count, sides, purpose}``.

        Rolls need no revision (they are not turn actions) and cannot be undone.

        Raises:
            Rejected: 400 malformed, 403 watcher.
        """
        _, client_id, _ = envelope(body, need_revision=False)
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

    def counter(self, seat: Seat, body: Any) -> str:
        """Add, change or remove one of the seat's own counters (:mod:`companion.tables.counters`):
        ``{expected_revision, client_action_id, op, name, by?, value?}``.

        Based on an older revision it still applies unless that counter changed in between
        (:func:`~companion.tables.commute.counter_independent_since`).

        Returns:
            JSON text ``{"revision", "duplicate", "view"}`` as :meth:`submit`.

        Raises:
            Rejected: 400 malformed (naming the field), 403 watcher, 409 stale, 422 with the
                reason of :class:`~companion.tables.counters.CounterRefused`.
        """
        expected, client_id, _ = envelope(body, need_revision=True)
        try:
            change = CounterChange.from_json(body)
        except CounterError as exc:
            raise Rejected(400, "malformed", str(exc)) from exc
        key = counter_request_key(seat.role, change.to_json())
        return self._write(seat, client_id, key, lambda t: self._counter(t, seat, expected, change))

    def _counter(
        self, table: Table, seat: Seat, expected: int, change: CounterChange
    ) -> tuple[list[Event], Applied | None]:
        fold = table.fold
        if expected != table.revision and not counter_independent_since(
            fold, expected, table.revision, seat.role, change
        ):
            raise _stale(table, seat.role, expected)
        try:
            payload = event_payload(fold.counters, seat.role, change)
        except CounterRefused as exc:
            raise Rejected(422, exc.reason, str(exc), table.view(seat.role)) from exc
        return [self._event(table, seat, "counter", payload, 1)], None

    def write(self, seat: Seat, client_id: str, key: str, make: MakeEvents) -> str:
        """A write of another module (the clock's, :mod:`companion.tables.clock_writes`) on
        the same path as actions and rolls: ``make`` gives its events from the table under
        its lock; the answer is ``{"revision", "duplicate", "view"}``.

        Raises:
            Rejected: 403 watcher, or whatever ``make`` raises.
        """
        return self._write(seat, client_id, key, make)

    def _write(self, seat: Seat, client_id: str, key: str, make: MakeEvents) -> str:
        """Apply a write under the table's lock: idempotent by ``client_action_id``, appended
        to the log before the answer. Where other processes write the same table, the table is
        caught up first, and a write that loses the race for a seq is decided again on the
        caught-up table (so it is refused as stale, or applied once after the other)."""
        check_may_write(seat)
        table = self.cache.table(seat.table_id)
        attempts = 3 if self.catch_up.shared else 1
        for attempt in range(attempts):
            with table.lock:
                try:
                    with self.catch_up.writing(table):
                        if self.catch_up.shared:  # seats may have changed in another process
                            check_still_seated(table, seat)
                        duplicate, events, applied = _decide(table, seat.role, client_id, key, make)
                        if not duplicate:
                            self.store.append(table.id, table.revision, events)
                except StoreError:
                    if attempt + 1 < attempts:
                        continue  # another process appended first: decide again
                    raise
                return self._written(table, seat, duplicate, events, applied, key)
        raise AssertionError("unreachable")  # pragma: no cover

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
            self.cache.publish(table)
        published = table.published
        revision, view_json = published[0], table.view_json(seat.role, published)
        flag = "true" if duplicate else "false"
        return f'{{"revision":{revision},"duplicate":{flag},"view":{view_json}}}'

    async def submit_soon(self, table_id: str, token: str | None, body: Any) -> str | None:
        """:meth:`Seats.authorise` and :meth:`submit` on the event loop, or None where they
        cannot run there without waiting for a lock or a read (the caller then runs them in a
        worker thread): other processes write the tables, the table is not loaded yet, or its
        lock is taken.

        The checks, the rules and the answer are those of the thread path (same order, same
        refusals); the append is queued for the store's committer and awaited, so the answer
        still comes after the durable commit, and the events are folded in and published (the
        streams woken) from the loop right after it, whatever happens to the request
        meanwhile. Saves the hand-offs of a worker thread.

        Raises:
            Rejected, StorageUnavailable, StoreError: as the thread path.
        """
        table = self.cache.get(table_id)
        if self.catch_up.shared or table is None:
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
            seat = self.seats.authorise(table_id, token)
            client_id, key, make = self._action_request(seat, body)
            check_may_write(seat)
            duplicate, events, applied = _decide(table, seat.role, client_id, key, make)
            if duplicate:
                return self._written(table, seat, True, events, applied, key)
            self.store.append_soon(table.id, table.revision, events, told)
            queued = True  # from here on, committed() gives the lock back
        finally:
            if not queued:
                table.lock.release()
        return await asyncio.shield(answer)

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
        self,
        table: Table,
        seat: Seat,
        expected: int,
        request: ActionRequest,
        ask_before_end: bool = False,
    ) -> tuple[list[Event], Applied | None]:
        """The events a write adds (rolls first, then the setup, action or undo), and for an
        action the parsed action with the state after it (:meth:`Fold.add` takes it, so the
        rules run once per action: :meth:`~games.protocol.Game.dice_for` checks it before
        anything is rolled, :meth:`~games.protocol.Game.apply` applies it).

        Order of the checks: malformed (400), stale (409), then the rules (422); last, with
        ``ask_before_end`` (the phone's ``"ask_before_end": true``), a dice-free action that
        would end the game is refused with 409 ``confirm_end`` (nothing logged; the view
        carries the would-be ``ending``): the phone asks, and sends it again without the flag.
        """
        game = table.fold.game
        state = table.fold.state
        if isinstance(request.error, MalformedAction):
            raise Rejected(400, "malformed", str(request.error)) from request.error
        if isinstance(request.error, IllegalAction):
            if expected != table.revision:
                raise _stale(table, seat.role, expected) from request.error
            raise Rejected(422, "illegal", str(request.error), table.view(seat.role)) from (
                request.error
            )
        if request.error is not None:
            raise request.error
        if expected != table.revision and not (
            request.kind == "action"
            and table.fold.state is not None
            and independent_since(table.fold, expected, table.revision, seat.role, request.parsed)
        ):
            raise _stale(table, seat.role, expected)

        def view() -> dict[str, Any]:  # only for a refusal: a view costs as much as the action
            return table.view(seat.role)

        parsed = request.parsed
        if request.kind == "setup":
            if state is not None:
                raise Rejected(422, "illegal", "the game is already set up", view())
            dice, faces = self._rolls(table, seat, game.setup_dice(parsed))
            try:
                payload = game.setup_event(parsed, faces)
            except IllegalAction as exc:
                raise Rejected(422, "illegal", str(exc), view()) from exc
            payload["request"] = request.canonical
            return [*dice, self._event(table, seat, "setup", payload, len(dice) + 1)], None
        if request.kind == "undo":  # counters may be undone before the setup too
            index = table.fold.undo_index(seat.role)
            if index is None:
                raise Rejected(
                    422, "illegal", "only your own actions of this turn can be undone", view()
                )
            undo = self._event(table, seat, "undo", {"undoes": table.fold.undoable[index][0]}, 1)
            return [undo], None
        if state is None:
            raise Rejected(422, "illegal", "set the game up first", view())
        try:
            dice, faces = self._rolls(table, seat, game.dice_for(state, seat.role, parsed))
            after = game.apply(state, seat.role, parsed, faces)
        except NotYourTurn as exc:
            raise Rejected(422, "not_your_turn", str(exc), view()) from exc
        except IllegalAction as exc:
            raise Rejected(422, "illegal", str(exc), view()) from exc
        ending = game.outcome(after)
        if ending is not None and not faces and ask_before_end:
            # the tap that ends the game is confirmed on the phone first; an action whose dice
            # ended it is not asked again (its dice are rolled once, never again)
            raise Rejected(
                409,
                "confirm_end",
                f"this action ends the game ({ending.rule}); send it without ask_before_end "
                "to end it",
                {**view(), "ending": ending.to_json()},
            )
        payload = {"action": request.canonical}
        if faces:
            payload["faces"] = [list(f) for f in faces]
        return [*dice, self._event(table, seat, "action", payload, len(dice) + 1)], (parsed, after)


def check_may_write(seat: Seat) -> None:
    """The one write-permission check of every write (actions and rolls on the thread and the
    event-loop path, clock writes, decks brought to the table): only a
    seated player (A or B) writes.

    Raises:
        Rejected: 403 ``forbidden`` for a watcher.
    """
    if seat.role not in SEATS:
        raise Rejected(403, "forbidden", "watchers cannot write")


def _decide(
    table: Table, role: str, client_id: str, key: str, make: MakeEvents
) -> tuple[bool, list[Event], Applied | None]:
    """Under the table's lock: (duplicate, the events to append, the applied action) of a
    write; a ``client_action_id`` already used for another request is refused (409, with the
    view of ``role``: a seat's view holds its own deck list)."""
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


def _stale(table: Table, role: str, expected: int) -> Rejected:
    return Rejected(
        409,
        "stale",
        f"the table is at revision {table.revision}, the action was based on {expected}",
        table.view(role),
    )
