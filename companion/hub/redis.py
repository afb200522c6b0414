"""Fan-out between processes through Redis pub/sub (``tablesmith serve --pubsub redis://...``).

Several ``tablesmith serve`` processes (or machines) behind one address serve the same tables
from one shared event log (PostgreSQL, :mod:`companion.store.postgres`). A phone's action lands in
the process its request reached; the phones of that table may stream from any other process.
:class:`RedisHub` tells them (design in :mod:`companion.hub.base`):

* every write is published on :data:`CHANNEL` as ``{"t": table id, "r": revision, "o":
  origin}``; each other process that has the table in memory catches it up from the shared
  log (:meth:`companion.tables.service.TableService._remote`) and wakes its own streams. The log never
  travels through Redis: a lost message delays a phone, it never corrupts a table, and the
  next write or reconnection heals it;
* presence: when a process's open streams of a seat change it publishes ``{"t", "p": {seat:
  count}, "o"}``, and repeats the counts of every table with streams every
  :data:`PRESENCE_SECONDS`; counts of a process not heard for :data:`PRESENCE_EXPIRY` seconds
  are forgotten (a process killed with ``kill -9`` cannot say that its phones left);
* a seat's requests: ``{"t", "h": {seat: UNIX seconds}, "o"}`` (:meth:`RedisHub.notify_heard`),
  so that a phone that only makes requests (no live stream) through one process counts as at
  the table in every other (a seat code waits until it is gone);
* after the subscription to Redis was lost and made again, every table with streams here is
  caught up from the log (messages sent meanwhile were lost).

All Redis I/O runs on the server's event loop (redis.asyncio): a write in a worker thread hands
its message over with one ``call_soon_threadsafe``; messages queued together go out in one
pipeline. Own messages coming back from Redis are ignored (``"o"`` is this process).

Redis pub/sub channels ignore the database number of the URL: deployments that must not see
each other's messages need their own Redis server (or another ``channel``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import Any

import redis
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from companion.hub.base import HubUnavailable
from companion.hub.local import LocalHub
from companion.urls import redact_url, url_error

CHANNEL = "tablesmith:tables"
"""The pub/sub channel every process publishes to and listens on."""
PRESENCE_SECONDS = 5.0
"""How often a process repeats its stream counts for every table with streams."""
PRESENCE_EXPIRY = 3 * PRESENCE_SECONDS
"""Another process's stream counts are forgotten when not heard for this many seconds."""
CONNECT_SECONDS = 5.0
"""How long connecting to Redis may take."""
RESYNC = 2**53
"""Revision used to ask for a catch-up from the log (higher than any real revision)."""
BATCH = 512
"""Messages sent in one pipeline at most."""
MAX_QUEUED = 10_000
"""Messages waiting for Redis at most (while it is away); more are dropped: the listeners
catch their tables up from the log when they get their subscription back."""

log = logging.getLogger(__name__)


class RedisHub(LocalHub):
    """In-process fan-out (:class:`LocalHub`) plus Redis pub/sub between processes.

    Args:
        url: ``redis://[[user]:password@]host[:port][/db]``, ``rediss://...`` (TLS) or
            ``unix:///path/to/redis.sock`` (redis-py's URL forms).
        channel: the pub/sub channel (every process of one deployment must use the same).

    :meth:`start` (the server's lifespan startup) connects and subscribes; :meth:`check`
    only tests that Redis answers (``tablesmith serve`` calls it before listening, for a clear
    error).
    """

    def __init__(self, url: str, *, channel: str = CHANNEL) -> None:
        super().__init__()
        self.redis_url = url
        self.url = redact_url(url)
        self.channel = channel
        self.origin = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        """This process in the messages (``"o"``)."""
        self._client: aioredis.Redis | None = None
        self._outbox: asyncio.Queue[str] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.published = 0
        """Messages handed to Redis (for tests and tools)."""
        self.received = 0
        """Messages of other processes received."""

    def _clean(self, exc: BaseException) -> str:
        """The first line of an error's message, without the URL's password."""
        return url_error(exc, self.redis_url)

    def check(self) -> None:
        """Connect once and ``PING`` (blocking; before the server starts).

        Raises:
            HubUnavailable: Redis cannot be reached, refuses the password, or the URL is bad.
        """
        try:
            client = redis.Redis.from_url(
                self.redis_url,
                socket_connect_timeout=CONNECT_SECONDS,
                socket_timeout=CONNECT_SECONDS,
            )
            try:
                client.ping()
            finally:
                client.close()
        except (RedisError, OSError, ValueError) as exc:
            raise HubUnavailable(f"cannot use Redis at {self.url}: {self._clean(exc)}") from exc

    # -------------------------------------------------------------------------- event loop side

    async def start(self) -> None:
        """Connect, subscribe, and start the listener, publisher and presence tasks.

        Raises:
            HubUnavailable: Redis cannot be reached.
        """
        self.attach(asyncio.get_running_loop())
        if self._tasks:
            return
        client = aioredis.Redis.from_url(
            self.redis_url,
            socket_connect_timeout=CONNECT_SECONDS,
            health_check_interval=30,
        )
        try:
            pubsub = await self._subscribe(client)
        except (RedisError, OSError, ValueError) as exc:
            await client.aclose()
            raise HubUnavailable(f"cannot use Redis at {self.url}: {self._clean(exc)}") from exc
        self._client = client
        self._outbox = asyncio.Queue()
        self._tasks = [
            asyncio.create_task(self._listen(pubsub), name="redis-hub-listen"),
            asyncio.create_task(self._send_loop(), name="redis-hub-publish"),
            asyncio.create_task(self._presence_loop(), name="redis-hub-presence"),
        ]

    async def stop(self) -> None:
        """Stop the tasks and close the connections (server shutdown)."""
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, RedisError, OSError):
                await task
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(RedisError, OSError):
                await client.aclose()

    async def _subscribe(self, client: aioredis.Redis) -> aioredis.client.PubSub:
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(self.channel)
        except BaseException:
            await _close_quietly(pubsub)
            raise
        return pubsub

    async def _listen(self, pubsub: aioredis.client.PubSub) -> None:
        """Receive the other processes' messages; on a lost connection subscribe again (with
        backoff up to 5 s) and catch up every table that has streams here."""
        delay = 0.1
        while True:
            try:
                async for message in pubsub.listen():
                    delay = 0.1
                    if message.get("type") == "message":
                        self._receive(message["data"])
            except (RedisError, OSError) as exc:
                log.warning(
                    "Redis pub/sub at %s lost: %s; reconnecting", self.url, self._clean(exc)
                )
            await _close_quietly(pubsub)
            while True:
                await asyncio.sleep(delay)
                delay = min(5.0, delay * 2)
                assert self._client is not None
                try:
                    pubsub = await self._subscribe(self._client)
                    break
                except (RedisError, OSError) as exc:
                    log.warning("Redis at %s: %s", self.url, self._clean(exc))
            self._resync()

    def _receive(self, data: bytes | str) -> None:
        try:
            message = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            return
        if not isinstance(message, dict) or message.get("o") == self.origin:
            return
        self.received += 1
        if self.on_remote is not None:
            self.on_remote(message)

    def _resync(self) -> None:
        """Catch up every table that has streams here (messages may have been lost)."""
        if self.on_remote is None:
            return
        for table_id in list(self._waiters):
            self.on_remote({"t": table_id, "r": RESYNC, "o": "resync"})

    async def _send_loop(self) -> None:
        """Hand the queued messages to Redis, several in one pipeline when they queue up."""
        assert self._outbox is not None and self._client is not None
        outbox, client = self._outbox, self._client
        while True:
            batch = [await outbox.get()]
            while len(batch) < BATCH and not outbox.empty():
                batch.append(outbox.get_nowait())
            # a connection that Redis closed (a restart) fails once, then the client reconnects
            for attempt in (1, 2):
                try:
                    await self._publish(client, batch)
                    self.published += len(batch)
                    break
                except (RedisError, OSError) as exc:
                    if attempt == 2:
                        log.warning(
                            "Redis at %s: %d message(s) not sent: %s",
                            self.url,
                            len(batch),
                            self._clean(exc),
                        )

    async def _publish(self, client: aioredis.Redis, batch: list[str]) -> None:
        if len(batch) == 1:
            await client.publish(self.channel, batch[0])
            return
        async with client.pipeline(transaction=False) as pipe:
            for text in batch:
                pipe.publish(self.channel, text)
            await pipe.execute()

    async def _presence_loop(self) -> None:
        """Every :data:`PRESENCE_SECONDS`: repeat this process's stream counts and forget the
        counts of processes not heard for :data:`PRESENCE_EXPIRY` seconds."""
        while True:
            await asyncio.sleep(PRESENCE_SECONDS)
            if self.on_counts is not None:
                for table_id, counts in self.on_counts().items():
                    self._send({"t": table_id, "p": counts, "o": self.origin})
            if self.on_expire is not None:
                self.on_expire(PRESENCE_EXPIRY)

    def _send(self, message: dict[str, Any]) -> None:
        """Queue a message for Redis (event loop thread only)."""
        if self._outbox is not None and self._outbox.qsize() < MAX_QUEUED:
            self._outbox.put_nowait(json.dumps(message, separators=(",", ":")))

    # --------------------------------------------------------------------------- writer side

    def notify(self, table_id: str, revision: int) -> None:
        """A table changed in this process (any thread): wake its streams here and tell the
        other processes ``{"t", "r", "o"}``."""

        def here_and_there() -> None:
            self.wake(table_id)
            self._send({"t": table_id, "r": revision, "o": self.origin})

        self._call(here_and_there)

    def notify_presence(self, table_id: str, counts: dict[str, int], *, wake: bool) -> None:
        """This process's open streams per seat of a table changed (any thread): tell the
        other processes ``{"t", "p", "o"}``; ``wake``: wake the table's streams here too."""

        def here_and_there() -> None:
            if wake:
                self.wake(table_id)
            self._send({"t": table_id, "p": dict(counts), "o": self.origin})

        self._call(here_and_there)

    def notify_heard(self, table_id: str, seat: str, at: float) -> None:
        """A seat's request here (any thread): tell the other processes ``{"t", "h": {seat:
        at}, "o"}``."""
        message = {"t": table_id, "h": {seat: round(at, 3)}, "o": self.origin}
        self._call(lambda: self._send(message))


async def _close_quietly(pubsub: aioredis.client.PubSub) -> None:
    """Close a pub/sub connection, ignoring a connection that is already gone.

    ``PubSub.aclose`` is untyped before redis 8.2 and typed from 8.2 on; taking it as a typed
    callable first keeps mypy (strict) clean on both sides of that release, with no
    ``type: ignore`` that one version needs and the other flags as unused.
    """
    close: Callable[[], Awaitable[None]] = pubsub.aclose
    with contextlib.suppress(RedisError, OSError):
        await close()
