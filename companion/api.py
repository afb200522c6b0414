"""JSON API and the live stream (blueprint ``api``, prefix ``/api``).

Routes (issue 4; URL scheme in docs/companion.md):

* ``POST /api/tables`` ``{"game": "asteroids"}`` -> 201 seat A's token and the links.
* ``POST /api/join/<join_token>`` -> 201 seat B's token (rate-limited, 429).
* ``GET /api/t/<table>/state`` -> the table view (seat or watch token).
* ``POST /api/t/<table>/actions`` ``{expected_revision, client_action_id, action}``.
* ``POST /api/t/<table>/dice`` ``{client_action_id, count, sides, purpose}``; ``GET`` the
  history with frequencies.
* ``GET /api/t/<table>/events?since=<seq>&token=<token>`` -> Server-Sent Events.

Tokens travel in the ``X-Seat-Token`` header (``?token=`` is accepted on GET only, because an
EventSource cannot set headers). Errors are JSON ``{"error", "message", "view"?}``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for

from companion import join_limiter, tables
from companion.security import token_from
from companion.tables import Rejected, Seat

bp = Blueprint("api", __name__, url_prefix="/api")
JSON = "application/json"


@bp.errorhandler(Rejected)
def rejected(error: Rejected) -> tuple[Response, int]:
    """Answer a refused request with its status, reason code, message and the current view."""
    body: dict[str, Any] = {"error": error.reason, "message": str(error)}
    if error.view is not None:
        body["view"] = error.view
    return jsonify(body), error.status


def base_url() -> str:
    """The URL phones reach the server at (``BASE_URL`` or the request's host), no slash."""
    configured = current_app.config.get("BASE_URL")
    return str(configured or request.host_url).rstrip("/")


def links(table_id: str) -> dict[str, str]:
    """Absolute table, join and watch links of a table (for QR codes)."""
    table = tables().table(table_id)
    root = base_url()
    return {
        "table_url": root + url_for("pages.table", table_id=table_id),
        "join_url": root + url_for("pages.join", join_token=table.join_token),
        "watch_url": root + url_for("pages.watch", watch_token=table.watch_token),
    }


def check_rate() -> None:
    """429 when this client address joins or creates too often."""
    if not join_limiter().allow(request.remote_addr or "?"):
        raise Rejected(429, "rate_limited", "too many attempts; wait a minute")


def seat_for(table_id: str) -> Seat:
    """The seat of the request's token (403 without one)."""
    allow_query = request.method == "GET"
    return tables().authorise(table_id, token_from(request, allow_query=allow_query))


@bp.post("/tables")
def create_table() -> tuple[Response, int]:
    """Create a table; the caller holds seat A."""
    check_rate()
    body = request.get_json(silent=True) or {}
    seat, _, _ = tables().create(body.get("game", "asteroids"))
    return jsonify(
        table_id=seat.table_id, seat=seat.role, token=seat.token, **links(seat.table_id)
    ), 201


@bp.post("/join/<join_token>")
def join(join_token: str) -> tuple[Response, int]:
    """Take seat B."""
    check_rate()
    seat = tables().join(join_token)
    return jsonify(
        table_id=seat.table_id, seat=seat.role, token=seat.token, **links(seat.table_id)
    ), 201


@bp.get("/t/<table_id>/state")
def state(table_id: str) -> Response:
    """The table's view plus ``you`` (the token's role)."""
    seat = seat_for(table_id)
    view = tables().table(table_id).view()
    return jsonify({**view, "you": seat.role})


@bp.post("/t/<table_id>/actions")
def action(table_id: str) -> Response:
    """Apply an action (200), or refuse it (400/403/409/422)."""
    seat = seat_for(table_id)
    return Response(tables().submit(seat, request.get_json(silent=True)), mimetype=JSON)


@bp.post("/t/<table_id>/dice")
def roll(table_id: str) -> Response:
    """Roll dice for a purpose (logged; cannot be undone)."""
    seat = seat_for(table_id)
    return Response(tables().roll(seat, request.get_json(silent=True)), mimetype=JSON)


@bp.get("/t/<table_id>/dice")
def dice_history(table_id: str) -> Response:
    """All rolls and observed versus expected frequencies."""
    return jsonify(tables().dice_history(seat_for(table_id)))


@bp.get("/t/<table_id>/events")
def events(table_id: str) -> Response:
    """The live stream: Server-Sent Events from ``since`` on (``Last-Event-ID`` also works)."""
    seat = seat_for(table_id)
    since_text = request.args.get("since") or request.headers.get("Last-Event-ID") or "0"
    if not since_text.isdigit():
        raise Rejected(400, "malformed", f"since must be a sequence number, got {since_text!r}")
    heartbeat = float(current_app.config["HEARTBEAT_SECONDS"])
    lifetime = float(current_app.config["STREAM_SECONDS"])
    stream = tables().stream(seat, int(since_text), heartbeat, lifetime)
    return Response(
        stream,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
