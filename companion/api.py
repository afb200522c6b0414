"""JSON API and the live stream (blueprint ``api``, prefix ``/api``).

Routes:

* ``POST /api/tables`` ``{"game": "asteroids", "colours"?: {"A": "#2E64C8", "B": "#C0392B"},
  "clock"?: {"mode": "chess", "seconds": 600, "increment": 5}}`` -> 201 seat A's token and the
  links (the clock: :func:`companion.tables.clock.parse_setting`).
* ``POST /api/join/<join_token>`` -> 201 seat B's token (rate-limited, 429).
* ``GET /api/t/<table>/state`` -> the table view (seat or watch token).
* ``POST /api/t/<table>/actions`` ``{expected_revision, client_action_id, action,
  ask_before_end?}``: with ``"ask_before_end": true`` (the phones) an action that would end
  the game is refused with 409 ``confirm_end``, nothing applied, the view's ``ending`` saying
  how it would end; sent again without the flag, it is applied
  (:func:`post_action`; under ``tablesmith serve`` the event loop answers it without Flask
  where Flask would accept the request as it is, :mod:`companion.asgi`).
* ``POST /api/t/<table>/dice`` ``{client_action_id, count, sides, purpose}``; ``GET`` the
  history with frequencies.
* ``POST /api/t/<table>/counters`` ``{expected_revision, client_action_id, op, name, by?,
  value?}``: the seat's own named counters (``op`` ``add`` / ``change`` / ``remove``;
  :meth:`companion.tables.writes.Writes.counter`), logged and undone like actions.
* ``POST /api/t/<table>/deck`` ``{client_action_id, expected_revision, demo | filename+text}``:
  bring a deck to the table (the game's own action, :mod:`companion.decks`).
* ``POST /api/t/<table>/clock`` ``{client_action_id, op: set|pause|resume|expired, clock?}``:
  the game clock (:mod:`companion.tables.clock_writes`); a table with a clock has ``clock``
  and ``now`` in its views (:meth:`companion.tables.clock.Clock.view`).
* ``GET /api/t/<table>/log`` -> the newest events (the action log: who and when).
* ``GET /api/t/<table>/events?since=<seq>&token=<token>`` -> Server-Sent Events
  (:mod:`companion.tables.sse`; this route opens the stream under every server; a WSGI server
  iterates it in a thread, ``tablesmith serve`` drives it on its event loop,
  :data:`LIVE_STREAM`). 429 ``watchers_full`` / 503 ``server_full`` with ``Retry-After`` when
  over budget (:meth:`companion.tables.budgets.StreamBudgets.open`). A change of presence alone
  is sent as ``data: {"event": null, "view": {...}}`` without an ``id``.
* ``GET /api/t/<table>/socket`` (WebSocket, ``tablesmith serve`` only): the stream and the
  writes above on one socket, answered by these same routes (:mod:`companion.sockets`); the
  token comes in the socket's first message.
* ``POST /api/t/<table>/reclaim-code`` ``{"seat"?}`` (seated phone) -> ``{"code", "seat",
  "expires_at"}``: a 6-character code, 10 minutes, for the other seat by default.
* ``POST /api/t/<table>/reclaim`` ``{"code"}`` (no token needed) -> 200 that seat's new token
  and links, and the seat cookie (rate-limited like joining).

Every table view (state, action answers, the stream) has ``colours`` (``{"A": "#RRGGBB",
"B": ...}``) and ``presence`` (``{"A": {"connected": bool, "since": "2026-12-01T19:30:00Z"},
"B": ...}``: whether the seat has a live stream open, since when it has or has not).

Tokens travel in the ``X-Seat-Token`` header (``?token=`` is accepted on GET only, because an
EventSource cannot set headers). Every error under ``/api/`` is JSON ``{"error", "message",
"view"?}``, whatever raised it (:mod:`companion.refusals`): a refused request, 403 cross-site, 404, 405,
413 (bodies are limited to ``MAX_CONTENT_LENGTH``, 64 KiB), 503 ``storage_unavailable`` and
500 ``internal``. The pages answer errors with HTML.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    request,
)
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from companion import decks
from companion.links import links
from companion.security import join_limiter, lookup_limiter, seated, token_from
from companion.tables.clock import parse_setting
from companion.tables.clock_writes import clock_write, start_clock
from companion.tables.rejected import Rejected, brief
from companion.tables.seats import Seat
from companion.tables.service import TableService, tables
from companion.tables.writes import check_may_write
from games.protocol import GameError, Reason, SetupError
from games.registry import TITLES

bp = Blueprint("api", __name__, url_prefix="/api")
JSON = "application/json"
LIVE_STREAM = "tablesmith.take_stream"
"""WSGI environ key: a list the event loop puts in every request's environ; the stream route
appends the opened :class:`~companion.tables.sse.Stream` to it, and the loop then drives that
stream instead of a thread iterating the answer (Flask still made its status and headers)."""
SEQUENCE = re.compile(r"[0-9]{1,15}")
"""``since`` / ``Last-Event-ID``: ASCII digits only (``str.isdigit`` accepts '²' and '١')."""


def json_body() -> Any:
    """The request's JSON, None when it is not JSON.

    Raises:
        Rejected: 400 when it is nested too deeply to parse.
    """
    try:
        return request.get_json(silent=True)
    except RecursionError:
        raise Rejected(400, "malformed", "the JSON body is nested too deeply") from None


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
    body = json_body()
    if body is None:
        body = {}
    if not isinstance(body, dict):
        raise Rejected(400, "malformed", "the body must be a JSON object")
    clock = parse_setting(body.get("clock"))
    seat, _, _ = tables().create(body.get("game"), body.get("colours"))
    start_clock(tables().writes, seat, clock)
    return jsonify(seat_answer(seat)), 201


@bp.post("/join/<join_token>")
def join(join_token: str) -> tuple[Response, int]:
    """Take seat B."""
    if not lookup_limiter().allow(request.remote_addr or "?"):
        raise Rejected(429, "rate_limited", "too many attempts; wait a minute")
    check_rate()
    seat = tables().join(join_token)
    return jsonify(seat_answer(seat)), 201


@bp.get("/t/<table_id>/state")
def state(table_id: str) -> Response:
    """The table's view plus ``you`` (the token's role)."""
    seat = seat_for(table_id)
    view = tables().fresh(table_id).view(seat.role)
    return jsonify({**view, "you": seat.role})


def post_action(
    service: TableService, table_id: str, token: str | None, body: Callable[[], Any]
) -> str:
    """``POST /api/t/<table>/actions`` once the request passed the app's checks (cross-site,
    body size, JSON): the token's seat (403/404 first), then the write
    (:meth:`companion.tables.writes.Writes.submit`: client_action_id, expected_revision, the
    rules). The Flask route answers through this function, and so does the event loop's
    direct route (:mod:`companion.asgi`) where it cannot decide the action on the loop itself
    (:meth:`companion.tables.writes.Writes.submit_soon`, the same checks in the same order).

    Args:
        service: the app's tables.
        table_id: the table of the URL.
        token: the ``X-Seat-Token`` header (never ``?token=`` on a write), or None.
        body: gives the JSON body (None when it is not JSON), called after the seat is known.

    Returns:
        JSON text ``{"revision", "duplicate", "view"}``.

    Raises:
        Rejected: 400/403/404/409/422 as :meth:`~companion.tables.seats.Seats.authorise` and
            :meth:`~companion.tables.writes.Writes.submit` say.
        StorageUnavailable: the database cannot be written now.
    """
    seat = service.authorise(table_id, token)
    return service.submit(seat, body())


def action_answer(text: str) -> tuple[bytes, list[tuple[str, str]]]:
    """The 200 answer of an action write, framed once for both routes (the Flask route and
    the event loop's direct one, :mod:`companion.asgi`): the body and its headers.

    Args:
        text: the JSON answer of :func:`post_action` or
            :meth:`~companion.tables.writes.Writes.submit_soon`.
    """
    body = text.encode()
    return body, [("Content-Type", JSON), ("Content-Length", str(len(body)))]


@bp.post("/t/<table_id>/actions")
def action(table_id: str) -> Response:
    """Apply an action (200), or refuse it (400/403/409/422)."""
    token = token_from(request, allow_query=False)
    body, headers = action_answer(post_action(tables(), table_id, token, json_body))
    return Response(body, headers=headers)


@bp.post("/t/<table_id>/dice")
def roll(table_id: str) -> Response:
    """Roll dice for a purpose (logged; cannot be undone)."""
    seat = seat_for(table_id)
    return Response(tables().roll(seat, json_body()), mimetype=JSON)


@bp.post("/t/<table_id>/counters")
def counter(table_id: str) -> Response:
    """Add, change or remove one of the calling seat's own counters (logged; undoable)."""
    return Response(tables().counter(seat_for(table_id), json_body()), mimetype=JSON)


@bp.post("/t/<table_id>/clock")
def clock(table_id: str) -> Response:
    """Choose, pause or resume the game clock, or log that a side ran out of time."""
    seat = seat_for(table_id)
    return Response(clock_write(tables().writes, seat, json_body()), mimetype=JSON)


@bp.post("/t/<table_id>/deck")
def bring_deck(table_id: str) -> Response:
    """Bring a deck to the table for the calling seat (:mod:`companion.decks`).

    Body: ``{client_action_id, expected_revision, demo}`` or ``{..., filename, text}``, and
    ``"casual": true`` to play a deck that breaks the building rules anyway (the table
    records the rules and numbers it breaks). The deck becomes the game's own action
    (:meth:`games.protocol.Game.setup_from_deck`) and is then submitted like any action
    (idempotent, 409 when stale). A deck that breaks the building rules without ``casual`` is
    refused with 422 ``deck_rules`` (the message gives the rule and the numbers; ``problems``
    lists each broken rule as ``{text, message_id, values, rule}``, which the phone shows in
    its language).
    """
    seat = seat_for(table_id)
    check_may_write(seat)
    body = json_body()
    deck = decks.parse_upload(body)
    game = tables().table(table_id).fold.game
    if game.deck_game is None or deck.game != game.deck_game:
        said = gettext(
            "that is a deck of %(deck)s; this table plays %(game)s",
            deck=TITLES.get(deck.game, deck.game),
            game=game.title,
        )
        raise Rejected(422, "deck", said)
    casual = body.get("casual", False)
    if not isinstance(casual, bool):
        raise Rejected(400, "malformed", "casual must be true or false")
    try:
        action = game.setup_from_deck(deck, seat.role, casual)
    except SetupError as exc:  # each problem with its message id: the phone translates them
        problems = [Reason.of(p).to_json() for p in exc.problems or (exc,)]
        raise Rejected(422, "deck_rules", str(exc), details={"problems": problems}) from exc
    except GameError as exc:
        raise Rejected(422, "illegal", str(exc)) from exc
    envelope = {k: body.get(k) for k in ("client_action_id", "expected_revision")}
    return Response(tables().submit(seat, {**envelope, "action": action}), mimetype=JSON)


@bp.post("/t/<table_id>/reclaim-code")
def reclaim_code(table_id: str) -> Response:
    """A seated phone makes a short code with which a new browser takes over a seat."""
    return jsonify(tables().reclaim_code(seat_for(table_id), json_body()))


@bp.post("/t/<table_id>/reclaim")
def reclaim(table_id: str) -> BaseResponse:
    """Take over a seat with a reclaim code: the seat's new token, links, and the cookie."""
    if not lookup_limiter().allow(request.remote_addr or "?"):
        raise Rejected(429, "rate_limited", "too many attempts; wait a minute")
    seat = tables().reclaim(table_id, json_body())
    return seated(jsonify(seat_answer(seat)), seat)


def seat_answer(seat: Seat) -> dict[str, Any]:
    """``{table_id, seat, token, seat_key?, table_url, join_url, watch_url}``: a seat just
    taken, with its seat key where the seat came with one."""
    answer = {"table_id": seat.table_id, "seat": seat.role, "token": seat.token}
    if seat.key is not None:
        answer["seat_key"] = seat.key
    return {**answer, **links(seat.table_id)}


@bp.get("/t/<table_id>/dice")
def dice_history(table_id: str) -> Response:
    """All rolls and observed versus expected frequencies."""
    return jsonify(tables().dice_history(seat_for(table_id)))


@bp.get("/t/<table_id>/log")
def log(table_id: str) -> Response:
    """The action log: the newest events with who and when (seat or watch token)."""
    return jsonify(tables().log(seat_for(table_id)))


@bp.get("/t/<table_id>/events")
def events(table_id: str) -> Response:
    """The live stream: Server-Sent Events from ``since`` on (``Last-Event-ID`` also works)."""
    seat = seat_for(table_id)
    since_text = request.args.get("since") or request.headers.get("Last-Event-ID") or "0"
    if not SEQUENCE.fullmatch(since_text):
        raise Rejected(
            400,
            "malformed",
            f"since must be a sequence number (1..15 digits 0-9), got {brief(since_text)}",
        )
    heartbeat = float(current_app.config["HEARTBEAT_SECONDS"])
    lifetime = float(current_app.config["STREAM_SECONDS"])
    stream = tables().stream(seat, int(since_text), heartbeat, lifetime)
    taken = request.environ.get(LIVE_STREAM)
    if taken is not None:  # the event loop drives the stream (companion.asgi)
        taken.append(stream)
    return Response(
        stream,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
