"""Request guards: seat tokens and the seat cookie, a cross-site write check, rate limiters.

Writes are authorised by the seat token in the ``X-Seat-Token`` header, which a cross-site
page cannot set without a CORS preflight that the companion never grants; in addition every
POST whose ``Origin`` (or ``Sec-Fetch-Site``) shows another site is refused with 403.
``Origin: null`` (sandboxed frames, ``data:`` pages, cross-site redirects) counts as another
site: the companion's own pages always send their real origin.
"""

from __future__ import annotations

import re
import threading
import time
from collections import deque
from collections.abc import Callable
from urllib.parse import urlsplit

from flask import Request, current_app, request
from werkzeug.wrappers import Response

from companion.tables.rejected import Rejected
from companion.tables.seats import Seat

TOKEN_HEADER = "X-Seat-Token"
SEAT_COOKIE_PREFIX = "ts_seat_"
KEY_COOKIE_PREFIX = "ts_key_"
"""``ts_key_<table>_<seat>``: the seat key this browser was given for that seat (shown on the
table page, filled in on the page without a seat: :func:`seat_key_of`)."""
SEAT_KEY = re.compile("[A-Z0-9]{10}")
COOKIE_AGE = 30 * 24 * 3600
"""The seat cookie lives 30 days."""
JOIN_LIMITER = "tablesmith.join_limiter"
LOOKUP_LIMITER = "tablesmith.lookup_limiter"
"""The keys of the app's two rate limiters in ``app.extensions``."""


def token_from(request: Request, *, allow_query: bool) -> str | None:
    """The seat or watch token: the header, else (GET only, for EventSource) ``?token=``."""
    token = request.headers.get(TOKEN_HEADER)
    if token is None and allow_query:
        token = request.args.get("token")
    return token


def seated(response: Response, seat: Seat) -> Response:
    """Attach the seat cookie ``ts_seat_<table>`` (HttpOnly, SameSite=Lax, 30 days) to
    ``response``, and the seat key's cookie ``ts_key_<table>_<seat>`` where the seat came with
    a key (made, joined, or taken back with the key). Both are ``Secure`` when the phone
    came by https (directly, or through a trusted proxy's ``X-Forwarded-Proto``:
    :mod:`companion.proxy`), so a browser never sends them over plain http."""
    for name, value in (
        (SEAT_COOKIE_PREFIX + seat.table_id, seat.token),
        (f"{KEY_COOKIE_PREFIX}{seat.table_id}_{seat.role}", seat.key),
    ):
        if value is not None:
            response.set_cookie(
                name,
                value,
                max_age=COOKIE_AGE,
                httponly=True,
                samesite="Lax",
                secure=request.is_secure,
            )
    return response


def seat_key_of(request: Request, table_id: str, seat: str) -> str | None:
    """The seat key this browser keeps for ``seat`` at ``table_id``, or None (a cookie that
    is not a key's shape counts as none)."""
    value = request.cookies.get(f"{KEY_COOKIE_PREFIX}{table_id}_{seat}", "")
    return value if SEAT_KEY.fullmatch(value) else None


def is_cross_site(method: str, host: str, sec_fetch_site: str | None, origin: str | None) -> bool:
    """True for a state-changing request that comes from another site: ``Sec-Fetch-Site:
    cross-site``, ``Origin: null``, or an ``Origin`` whose host is not ``host`` (the request's
    ``host[:port]``, as :attr:`werkzeug.Request.host` gives it). GET, HEAD and OPTIONS never are.

    The one test for every route: :func:`refuse_cross_site` (Flask) and the event loop's
    direct action route (:mod:`companion.asgi`), which hands such a request to Flask.
    """
    if method in ("GET", "HEAD", "OPTIONS"):
        return False
    if (sec_fetch_site or "").lower() == "cross-site":
        return True
    return origin == "null" or bool(origin and urlsplit(origin).netloc != host)


def refuse_cross_site(request: Request) -> None:
    """Refuse (403 ``cross_site``) a state-changing request that comes from another site.

    Raises:
        Rejected: ``Sec-Fetch-Site: cross-site``, ``Origin: null``, or an ``Origin`` whose
            host is not this server's (:func:`is_cross_site`).
    """
    headers = request.headers
    if is_cross_site(
        request.method, request.host, headers.get("Sec-Fetch-Site"), headers.get("Origin")
    ):
        raise Rejected(403, "cross_site", "cross-site request refused")


def cross_site_guard() -> None:
    """The app's ``before_request`` hook: :func:`refuse_cross_site` for every request (the
    event loop's direct action route makes the same test itself, :mod:`companion.asgi`).

    Raises:
        Rejected: 403 ``cross_site``.
    """
    refuse_cross_site(request)


class RateLimiter:
    """At most ``limit`` events per ``window_seconds`` per key (sliding window).

    Args:
        limit: events allowed within the window, >= 1.
        window_seconds: the window, > 0.
        clock: a monotonic clock in seconds (injectable for tests).

    Raises:
        ValueError: limit or window out of range.
    """

    def __init__(
        self, limit: int, window_seconds: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if limit < 1 or window_seconds <= 0:
            raise ValueError(
                f"limit must be >= 1 and window_seconds > 0, got {limit}, {window_seconds}"
            )
        self.limit = limit
        self.window = window_seconds
        self.clock = clock
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        """Record an attempt for ``key``; False when it exceeds the limit."""
        now = self.clock()
        with self._lock:
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                return False
            hits.append(now)
            return True


def join_limiter() -> RateLimiter:
    """The app's rate limiter for joining and creating tables (inside a request)."""
    limiter: RateLimiter = current_app.extensions[JOIN_LIMITER]
    return limiter


def lookup_limiter() -> RateLimiter:
    """The app's rate limiter for looking up join and watch links (guessing them)."""
    limiter: RateLimiter = current_app.extensions[LOOKUP_LIMITER]
    return limiter
