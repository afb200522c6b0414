"""Refusals as HTTP answers: the one place every refused or failed request is answered.

The app's error handlers (:func:`init_app`) turn what a view raised into the answer: a
:class:`~companion.tables.rejected.Rejected` (its status, reason, message, view, and
``Retry-After`` where it has one), a :class:`~companion.store.base.StorageUnavailable` (503
with ``Retry-After``), an HTTP error of Werkzeug (404, 405, 408, 413 ...) and anything
unexpected (500, logged). Under ``/api/`` the answer is JSON ``{"error", "message",
"view"?}``; the pages answer with the app's own HTML page. The event loop's routes
(:mod:`companion.asgi`) raise into these same handlers, so a refusal has the same bytes
whichever server runs the app.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, current_app, jsonify, make_response, render_template, request
from flask_babel import ngettext
from werkzeug.exceptions import HTTPException, InternalServerError, default_exceptions
from werkzeug.wrappers import Response as BaseResponse

from companion.durations import duration_parts
from companion.store.base import StorageUnavailable
from companion.tables.rejected import RETRY_AFTER_SECONDS, Rejected
from games.protocol import GameError


def wants_json() -> bool:
    """True for the JSON API (``/api/...``); the pages answer errors with HTML."""
    return request.path == "/api" or request.path.startswith("/api/")


def error_response(
    status: int,
    reason: str,
    message: str,
    view: Any = None,
    headers: Any = (),
    detail: Mapping[str, Any] | None = None,
) -> Response:
    """A JSON error ``{"error": reason, "message": message, "view"?: view, **detail}``
    (``detail``: the refusal's own fields, such as a game's ``rule``, ``message_id`` and
    ``values`` or when a seat was last seen)."""
    body: dict[str, Any] = {**(detail or {}), "error": reason, "message": message}
    if view is not None:
        body["view"] = view
    response = jsonify(body)
    response.status_code = status
    response.headers.extend(headers)
    return response


def error_page(
    status: int, headers: Any = (), details: Mapping[str, Any] | None = None
) -> BaseResponse:
    """A page's error as the app's own styled page (``message.html``, kind ``error``).

    It says in the page's language (English or German) what happened for the usual codes
    (403, 404, 405, 409, 410, 413, 429, 500, 503; any other code gets a general text naming it) and
    links to the start page. Should the template itself fail (a 500 while the app is broken),
    Werkzeug's plain page for ``status`` is answered instead.

    Args:
        status: the HTTP status code, 400..599.
        headers: extra headers such as ``Allow`` (405) or ``Retry-After`` (503).
        details: the refusal's own fields the page may name (a removed table's
            ``retention_seconds``, 410, said as :func:`spoken_duration`).
    """
    response: BaseResponse
    seconds = (details or {}).get("retention_seconds")
    try:
        retention = None if seconds is None else spoken_duration(seconds)
        response = make_response(
            render_template(
                "message.html", kind="error", status=status, details=details, retention=retention
            )
        )
    except Exception:  # noqa: BLE001 - the error page must never raise
        current_app.logger.exception("the error page for %s could not be drawn", status)
        response = default_exceptions.get(status, InternalServerError)().get_response()
    response.status_code = status
    response.headers.extend(headers)
    return response


def spoken_duration(seconds: float) -> str:
    """A duration in the request's language, in its largest whole unit ("45 seconds", "30
    Tage"; :func:`companion.durations.duration_parts`)."""
    count, unit = duration_parts(seconds)
    if unit == "day":
        words = ngettext("%(num)s day", "%(num)s days", count)
    elif unit == "hour":
        words = ngettext("%(num)s hour", "%(num)s hours", count)
    elif unit == "minute":
        words = ngettext("%(num)s minute", "%(num)s minutes", count)
    else:
        words = ngettext("%(num)s second", "%(num)s seconds", count)
    return str(words)


def rejected(error: Rejected) -> BaseResponse:
    """Answer a refused request with its status, reason code, message and the current view,
    and ``Retry-After`` where the refusal says when to try again (a full server or table); a
    refusal by the game's rules (raised from a :class:`~games.protocol.GameError`) also carries
    its ``rule``, ``message_id`` and ``values``, which the phone shows translated."""
    headers = [] if error.retry_after is None else [("Retry-After", str(error.retry_after))]
    if not wants_json():
        return error_page(error.status, headers, error.details)
    detail: dict[str, Any] = dict(error.details or {})
    cause = error.__cause__
    if isinstance(cause, GameError) and error.status != 409:
        detail |= {k: v for k, v in cause.to_json().items() if k != "message"}
    return error_response(error.status, error.reason, str(error), error.view, headers, detail)


def http_error(error: HTTPException) -> BaseResponse:
    """404, 405, 413 ... as JSON under ``/api/`` (with their headers, e.g. ``Allow``).

    The pages answer the same codes with :func:`error_page`; a redirect passes unchanged.
    """
    if not wants_json():
        if error.code is None or error.code < 400:
            return error.get_response()
        headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
        return error_page(error.code, headers)
    reason = (error.name or "error").lower().replace(" ", "_")
    headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
    return error_response(error.code or 500, reason, error.description or "", headers=headers)


def storage_unavailable(error: StorageUnavailable) -> BaseResponse:
    """503 at once when the database cannot be used (locked, disk full, read-only)."""
    current_app.logger.error("storage unavailable: %s", error)
    message = f"the database is not available now; nothing was changed, try again ({error})"
    headers = [("Retry-After", str(RETRY_AFTER_SECONDS))]
    if not wants_json():
        return error_page(503, headers)
    return error_response(503, "storage_unavailable", message, headers=headers)


def internal_error(error: Exception) -> BaseResponse:
    """Anything unexpected: logged with its traceback, answered 500 (JSON under ``/api/``).

    The traceback is taken from ``error`` itself, not from :func:`sys.exc_info`: a handler
    called after its ``except`` block has ended would log "NoneType: None" with
    ``logger.exception``.
    """
    current_app.logger.error(
        "unexpected error on %s %s", request.method, request.path, exc_info=error
    )
    if not wants_json():
        return error_page(500)
    return error_response(500, "internal", "internal server error")


def init_app(app: Flask) -> None:
    """Register the error handlers for the whole app (pages and API)."""
    app.register_error_handler(Rejected, rejected)
    app.register_error_handler(StorageUnavailable, storage_unavailable)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(Exception, internal_error)
