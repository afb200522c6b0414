"""The phone pages (blueprint ``pages``): home, table, join, watch, language, card links.

A seated phone keeps its seat token in an HttpOnly cookie ``ts_seat_<table>`` (SameSite=Lax,
30 days), so a reload keeps the seat; the page hands the token to its script, which sends it
in the ``X-Seat-Token`` header (see :mod:`companion.security`).
"""

from __future__ import annotations

import time
import unicodedata
from typing import Any
from urllib.parse import urlsplit

import segno
from flask import (
    Blueprint,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup
from werkzeug.wrappers import Response

from companion import clock_page, decks, i18n, views
from companion.api import LIVE_STREAM
from companion.links import links
from companion.security import SEAT_COOKIE_PREFIX, join_limiter, lookup_limiter, seat_key_of, seated
from companion.tables.clock_writes import start_clock
from companion.tables.rejected import Rejected
from companion.tables.seats import Seat
from companion.tables.service import tables
from games import registry
from games.protocol import SEATS

bp = Blueprint("pages", __name__)
MAX_NEXT = 2000
"""Longest ``next`` path the language switch redirects to."""


def local_path(target: str) -> str:
    """``target`` if it is a path on this site, else ``"/"`` (no open redirect).

    Refused: anything with a scheme or a host (``http://x``, ``//x``), a path not starting
    with one ``/``, backslashes (browsers read ``/\\x`` as ``//x``), and any whitespace or
    control character (browsers drop tabs and newlines, so ``/\\t/x`` would become ``//x``).
    """
    if len(target) > MAX_NEXT or "\\" in target:
        return "/"
    if any(ch.isspace() or unicodedata.category(ch).startswith("C") for ch in target):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return "/"
    if parts.path.startswith("//"):
        return "/"
    return target


def check_lookup() -> None:
    """429 when this client address looks up too many join or watch links (guessing)."""
    if not lookup_limiter().allow(request.remote_addr or "?"):
        abort(429)


def qr_svg(url: str) -> Markup:
    """An inline SVG QR code for ``url`` (black on white, 4-module quiet zone)."""
    return Markup(segno.make(url, error="m").svg_inline(scale=5, border=4))


def cookie_seat(table_id: str) -> Seat | None:
    """The seat this browser holds at a table, from its cookie, or None."""
    token = request.cookies.get(SEAT_COOKIE_PREFIX + table_id)
    try:
        return tables().authorise(table_id, token)
    except Rejected:
        return None


def render_table(seat: Seat) -> str:
    """The table page for a seat or a watcher."""
    table = tables().table(seat.table_id)
    urls = links(seat.table_id)
    deck_game = table.fold.game.deck_game or ""
    context: dict[str, Any] = {
        "seat": seat,
        "table": table,
        "game": table.fold.game,
        "view_template": views.template(table.game),
        "view_css": views.stylesheet(table.game),
        "demo_decks": [
            {
                "name": name,
                "title": deck.title,
                "cards": deck.card_count,
                "default": name == decks.default_demo(deck_game, seat.role),
            }
            for name, deck in decks.demos_for(deck_game).items()
        ],
        "urls": urls,
        "strings": i18n.js_strings(),
        "join_qr": qr_svg(urls["join_url"]) if seat.role == "A" else None,
        "watch_qr": qr_svg(urls["watch_url"]) if seat.role in ("A", "B") else None,
        "seat_key": spaced(seat_key_of(request, seat.table_id, seat.role)),
        # served by the event loop (tablesmith serve), which also serves the table's socket
        # (companion/sockets.py); waitress serves SSE + POST only
        "sockets": LIVE_STREAM in request.environ,
    }
    return render_template("table.html", **context)


@bp.get("/")
def index() -> str:
    """Home: the doors an extension added (the print shop's), and a new table of any
    registered game (the Play door)."""
    doors = [{**door, "url": url_for(door["endpoint"])} for door in current_app.config["DOORS"]]
    return render_template("home.html", games=list(registry.GAMES.values()), doors=doors)


@bp.post("/tables")
def new_table() -> Response:
    """Create a table from the home page's form and take seat A."""
    if not join_limiter().allow(request.remote_addr or "?"):
        abort(429)
    colours = {
        seat: request.form[f"colour_{seat.lower()}"]
        for seat in ("A", "B")
        if request.form.get(f"colour_{seat.lower()}")
    }
    clock = clock_page.form_setting(request.form)
    seat, _, _ = tables().create(request.form.get("game"), colours or None)
    start_clock(tables().writes, seat, clock)
    demo = request.form.get("demo")
    target = url_for("pages.table", table_id=seat.table_id)
    if demo in decks.demo_decks():
        target += "?demo=" + demo  # the game view offers this deck first
    elif request.form.get("deck") == "carried":
        target += "?deck=carried"  # a deck this browser tab carries (the print shop's)
    return seated(redirect(target, 303), seat)


@bp.get("/t/<table_id>")
def table(table_id: str) -> str | Response:
    """The table page of the seat this browser holds (403 page without a seat)."""
    tables().table(table_id)  # 404 for an unknown table
    seat = cookie_seat(table_id)
    if seat is None:
        # a browser whose seat another phone took keeps its seat key: filled in, one tap back
        keys = [seat_key_of(request, table_id, role) for role in SEATS]
        key = next((k for k in keys if k), None)
        token = request.cookies.get(SEAT_COOKIE_PREFIX + table_id)
        taken = tables().seats.taken_from(table_id, token)
        page = render_template(
            "message.html",
            kind="taken" if taken else "no_seat",
            table_id=table_id,
            seat_key=key,
            taken_seat=taken[0] if taken else None,
            taken_at=time.strftime("%H:%M UTC", time.gmtime(taken[1])) if taken else None,
        )
        return make_response(page, 403)
    return render_table(seat)


def spaced(key: str | None) -> str | None:
    """A seat key as shown, in two groups of five (``ABCDE-FGHJK``); typed with or without the
    dash."""
    return None if key is None else key[:5] + "-" + key[5:]


@bp.route("/j/<join_token>", methods=["GET", "POST"])
def join(join_token: str) -> str | Response:
    """GET: the "take seat B" page. POST: take it (rate-limited) and go to the table."""
    check_lookup()
    table_id = tables().table_for_token("join", join_token)
    if table_id is None:
        abort(404)
    if cookie_seat(table_id) is not None:
        return redirect(url_for("pages.table", table_id=table_id), 303)
    if request.method == "GET":
        return render_template("join.html", join_token=join_token)
    if not join_limiter().allow(request.remote_addr or "?"):
        abort(429)
    try:
        seat = tables().join(join_token)
    except Rejected:
        return make_response(render_template("message.html", kind="full", table_id=table_id), 409)
    return seated(redirect(url_for("pages.table", table_id=table_id), 303), seat)


@bp.get("/w/<watch_token>")
def watch(watch_token: str) -> str:
    """The read-only page for people watching."""
    check_lookup()
    table_id = tables().table_for_token("watch", watch_token)
    if table_id is None:
        abort(404)
    return render_table(Seat(table_id=table_id, role="watch", token=watch_token))


@bp.get("/lang/<code>")
def language(code: str) -> Response:
    """Switch the language (cookie) and go back to ``next`` (a local path only)."""
    if code not in i18n.LANGUAGES:
        abort(404)
    response = redirect(local_path(request.args.get("next", "/")), 303)
    response.set_cookie(i18n.LANG_COOKIE, code, max_age=365 * 24 * 3600, samesite="Lax")
    return response


def seated_tables() -> list[Seat]:
    """The seats this browser holds (its seat cookies), newest cookie names first."""
    found = []
    for name, token in request.cookies.items():
        if name.startswith(SEAT_COOKIE_PREFIX):
            try:
                found.append(tables().authorise(name[len(SEAT_COOKIE_PREFIX) :], token))
            except Rejected:
                continue
    return found


@bp.get("/card/<game>/<deck>/<card>")
def card(game: str, deck: str, card: str) -> str | Response:
    """Where a printed card's QR code points (``games.cards.card_path``).

    On a table where this browser holds a seat and the card is in play: that table, opened
    at the piece (``#piece=<id>``). Otherwise the card's face from its deck (the shipped demo
    decks) with a way to start a table with that deck; an unknown card says so (404).
    """
    if game not in registry.GAMES:
        abort(404)
    played = registry.get(game)
    for seat in seated_tables():
        table = tables().table(seat.table_id)
        state = table.fold.state
        if table.game == game and state is not None:
            own = seat.role if seat.role in SEATS else None
            pieces = played.pieces_of_card(state, deck, card, own)
            if pieces:
                url = url_for("pages.table", table_id=seat.table_id) + "#piece=" + pieces[0]
                return redirect(url, 303)
    found = decks.find_card(game, deck, card)
    demo = None
    if found is not None:
        demo = next(name for name, d in decks.demo_decks().items() if d is found[0])
    context = {
        "game": played,
        "deck": deck,
        "card_id": card,
        "found": found,
        "demo": demo,
        "facts": decks.card_facts(found[1]) if found else [],
        "face_template": views.card_template(game),
        "face_css": views.stylesheet(game),
    }
    return make_response(render_template("card.html", **context), 200 if found else 404)
