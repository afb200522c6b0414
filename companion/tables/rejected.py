"""Refusals: the one error a table raises for a request it will not carry out.

:class:`Rejected` carries the HTTP status, a stable reason code, a message and, where it helps
the phone recover, the table's current view; the HTTP layer answers it
(:mod:`companion.answers`). :func:`brief` quotes what the phone sent, cut short.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ECHO_CHARS = 60
"""An error message quotes at most this many characters of what the phone sent."""
MESSAGE_CHARS = 300
"""Longer messages (e.g. a rules error quoting a huge value) are cut to this length."""


def brief(value: Any) -> str:
    """``repr(value)`` cut to :data:`ECHO_CHARS` characters (for quoting input in errors)."""
    text = repr(value)
    return text if len(text) <= ECHO_CHARS else text[: ECHO_CHARS - 1] + "\u2026"


RETRY_AFTER_SECONDS = 5
"""``Retry-After`` of a refusal that will pass soon (a full server or table, a busy database)."""


class Rejected(ValueError):
    """A request the table refuses; ``status`` is the HTTP status, ``reason`` a stable code.

    Attributes:
        status: 400 malformed, 403 not allowed, 404 unknown, 409 stale or seat taken,
            410 removed (retention), 422 illegal in the rules, 429 too many joins, 503 too
            many live streams.
        message: what went wrong, cut to :data:`MESSAGE_CHARS` characters.
        reason: a short machine-readable code (``"stale"``, ``"illegal"``, ``"malformed"`` ...).
        view: the table's current view when it helps the phone recover (409, 422).
        retry_after: seconds after which the same request may pass (``Retry-After``), or None.
        details: more fields of the JSON answer (``{"seat", "seen_at", "retry_in"}`` of a
            seat in use), or empty.
    """

    def __init__(
        self,
        status: int,
        reason: str,
        message: str,
        view: Mapping[str, Any] | None = None,
        *,
        retry_after: int | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        if len(message) > MESSAGE_CHARS:
            message = message[: MESSAGE_CHARS - 1] + "\u2026"
        super().__init__(message)
        self.status = status
        self.reason = reason
        self.view = view
        self.retry_after = retry_after
        self.details: Mapping[str, Any] = dict(details or {})
