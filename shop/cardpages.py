"""The print shop's cards door: a deck in, card sheets out (issue 27, point 3).

``GET /cards`` is the form: a demo deck, or a deck file uploaded or pasted (YAML or CSV, read
on the server by the same reader as ``tablesmith cards``), and the command's sheet options.
**Check the deck** lists the deck's problems by line and field, as the command reports them,
with the text kept in the page to fix and check again. **Make the card sheets** queues
``tablesmith cards`` itself (:mod:`shop.cardjob`) and the job's page shows the progress, a
preview of every page (fronts and backs), and the PDF and cut file to download; a demo deck
also gets **Play with this deck**, which opens a table that offers it first.

Limits (stated on the page; tested at and past): a deck's text at most :data:`MAX_UPLOAD`
bytes in UTF-8 (the request body may hold that plus :data:`FORM_ROOM`), a file name at most
:data:`MAX_NAME` characters,
each option at most :data:`shop.pages.MAX_FIELD` characters. Card art cannot be uploaded: a
deck whose cards name art files prints from the command, next to its pictures.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from flask import render_template, request
from flask_babel import gettext
from werkzeug.wrappers import Response

from games.cards.deck import DeckError, parse_deck_text
from games.cards.problems import HEADER
from games.cards.wording import Words
from games.registry import CARD_GAMES, TITLES
from printables.cutter import Cutter
from shop.jobs import Job
from shop.pages import (
    MAX_FIELD,
    bp,
    cancel_answer,
    file_answer,
    job_or_404,
    runner,
    state_answer,
)

MAX_UPLOAD = 192 * 1024
"""Bytes of a deck's text (UTF-8) the page takes. The command reads up to
:data:`games.cards.deck.MAX_DECK_BYTES` (1 MiB) from a file; a page's request must stay under
the server's own body limit (``companion.asgi.MAX_REQUEST_BODY``, 256 KiB, and waitress's),
and 192 KiB holds a deck of well over a thousand cards."""

FORM_ROOM = 16 * 1024
"""Bytes of a cards request beside the deck's text (the options, the file name)."""

MAX_NAME = 100
"""Characters of a deck file's name."""

PREVIEW_RETENTION = 300.0
"""Seconds a live preview's files stay (the page shows them at once; a new change makes new
ones)."""

# (form name, command option, kind, default): the command's sheet options the page offers
SHEET_OPTIONS: tuple[tuple[str, str, str, Any], ...] = (
    ("paper", "--paper", "choice", "a4"),
    ("landscape", "--landscape", "flag", False),
    ("card_size", "--card-size", "text", ""),
    ("bleed", "--bleed", "text", "0"),
    ("gutter", "--gutter", "text", "0"),
    ("page_margin", "--page-margin", "text", "5"),
    ("crop_marks", "--crop-marks", "switch", True),
    ("duplex", "--duplex", "choice", ""),
    ("back_offset", "--back-offset", "text", ""),
    ("back_rotation", "--back-rotation", "text", ""),
    ("print_scale", "--print-scale", "text", ""),
    ("printer", "--printer", "text", ""),
    ("cutter", "--cutter", "choice", "none"),
    ("layout", "--layout", "choice", "sheet"),
    ("qr", "--qr", "switch", True),
    ("qr_base", "--qr-base", "text", ""),
)
"""The form's fields: each becomes the command's option of the same name; an empty text or
choice leaves the command's default (or the printer profile's)."""

CHOICES: dict[str, tuple[str, ...]] = {
    "paper": ("a4", "letter", "a3"),
    "duplex": ("", "long-edge", "short-edge", "separate", "none"),
    "cutter": tuple(cutter.value for cutter in Cutter),
    "layout": ("sheet", "single", "single-back-first"),
}
"""The allowed values of each choice (the command checks them again)."""


class FormProblem(ValueError):
    """A field of the cards form that cannot be used (the message names it)."""


def limit_body() -> None:
    """Let this request carry a deck: :data:`MAX_UPLOAD` plus :data:`FORM_ROOM`, in the body
    and in one form field (the companion's own bodies stay at 64 KiB). Called by the two
    views that take a deck before they read the form; not a ``before_request`` hook, which
    would switch off the companion's direct action route (``companion.asgi.unknown_hooks``)."""
    request.max_content_length = MAX_UPLOAD + FORM_ROOM
    request.max_form_memory_size = MAX_UPLOAD + FORM_ROOM


@cache
def demo_decks() -> list[dict[str, str]]:
    """The shipped demo decks: name, title, game (registry slug), its title, and the cards
    printed, copies included (read once)."""
    from printables.deckfile import DEMO_PREFIX, demo_names, read_deck

    decks = []
    for name in demo_names():
        deck = read_deck(DEMO_PREFIX + name).deck
        printed = sum(card.copies for card in deck.cards)
        title = TITLES[deck.game]
        decks.append(
            {"name": name, "title": deck.title, "game": deck.game, "cards": str(printed),
             "game_title": title}
        )  # fmt: skip
    return decks


def _values() -> dict[str, Any]:
    """The posted form, by field name (flags and switches as booleans)."""
    values: dict[str, Any] = {}
    for name, _, kind, default in SHEET_OPTIONS:
        if kind in ("flag", "switch"):
            values[name] = request.form.get(name) == "on"
        else:
            values[name] = (request.form.get(name) or "").strip() or default
    for name in ("source", "demo", "filename", "text"):
        values[name] = request.form.get(name, "")
    return values


def command_options(values: dict[str, Any]) -> list[str]:
    """The command's arguments for the form's options.

    Raises:
        FormProblem: a field over :data:`MAX_FIELD` characters or a choice not offered.
    """
    arguments: list[str] = []
    for name, flag, kind, _default in SHEET_OPTIONS:
        value = values[name]
        if kind == "flag":
            arguments += [flag] if value else []
        elif kind == "switch":
            arguments.append(flag if value else "--no-" + flag[2:])
        elif value != "":  # empty: the command's (or the printer profile's) default
            text = str(value)
            if any(ord(c) < 32 for c in text):
                raise FormProblem(f"{flag}: a control character (line break, NUL) is not allowed")
            if len(text) > MAX_FIELD:
                raise FormProblem(f"{flag}: at most {MAX_FIELD} characters, got {len(text)}")
            if kind == "choice" and text not in CHOICES[name]:
                raise FormProblem(f"{flag}: allowed {', '.join(CHOICES[name])}, got {text[:40]!r}")
            arguments += [flag, text]
    return arguments


def deck_of(values: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The job's deck (``{"deck": "demo:NAME"}`` or ``{"filename", "text"}``) and the deck's
    problems as the command reports them (file, line, field), or its building-rule warnings.

    Raises:
        FormProblem: no deck, an unknown demo, a file name or text over its limit.
    """
    if values["source"] == "demo":
        names = {d["name"] for d in demo_decks()}
        if values["demo"] not in names:
            raise FormProblem(f"demo: allowed {', '.join(sorted(names))}")
        return {"deck": "demo:" + values["demo"]}, []
    name, text = str(values["filename"]).strip() or "deck.yaml", str(values["text"])
    if len(name) > MAX_NAME:
        raise FormProblem(f"file name: at most {MAX_NAME} characters, got {len(name)}")
    size = len(text.encode("utf-8"))
    if size > MAX_UPLOAD:
        raise FormProblem(f"deck: at most {MAX_UPLOAD:,} bytes here, got {size:,}")
    if not text.strip():
        raise FormProblem("deck: choose a demo deck, or upload or paste a deck file")
    from shop.cardjob import safe_deck_name

    name = safe_deck_name(name)
    try:
        deck = parse_deck_text(text, games=CARD_GAMES, source=name)
    except DeckError as exc:  # in the page's language (the command's are English)
        return {"filename": name, "text": text}, exc.translated(gettext)
    art = art_fields(deck)
    if art:  # never a path on the server's disk: no art comes with a deck here
        return {"filename": name, "text": text}, [
            gettext(
                "%(file)s: %(where)s: field '%(field)s': card art cannot be uploaded here; "
                "found %(value)s (print a deck with art with the command, beside its pictures)",
                file=name,
                where=where.translated(gettext),
                field=field,
                value=repr(value[:60]),
            )
            for where, field, value in art
        ]
    warnings = [f"warning: {name}: {p.words.translated(gettext)}" for p in deck.legality_problems()]
    return {"filename": name, "text": text}, warnings


def art_fields(deck: Any) -> list[tuple[Words, str, str]]:
    """Every art file a deck names (a card's ``image`` or ``back_image``, the deck's
    ``back.image``) as ``(where, field, value)``: an uploaded deck may name none, or it could
    print any picture the server can read, or learn which paths exist."""
    found = [
        (Words("card '%(name)s'", name=card.name), field, str(getattr(card, field)))
        for card in deck.cards
        for field in ("image", "back_image")
        if getattr(card, field, None)
    ]
    if deck.back.image:
        found.append((HEADER, "back.image", str(deck.back.image)))
    return found


def _page(values: dict[str, Any], status: int, **extra: Any) -> tuple[str, int]:
    html = render_template(
        "shop/cards.html",
        values=values,
        demos=demo_decks(),
        options=SHEET_OPTIONS,
        choices=CHOICES,
        max_field=MAX_FIELD,
        max_deck=MAX_UPLOAD,
        **extra,
    )
    return html, status


@bp.get("/cards")
def cards() -> tuple[str, int]:
    """The cards form with the command's defaults (the first demo deck chosen)."""
    values: dict[str, Any] = {name: default for name, _, _, default in SHEET_OPTIONS}
    values.update(source="demo", demo=request.args.get("demo", ""), filename="", text="")
    return _page(values, 200)


@bp.post("/cards/check")
def cards_check() -> tuple[str, int]:
    """Check the deck: its problems by line and field (400), or that it is fine."""
    limit_body()
    values = _values()
    try:
        _, problems = deck_of(values)
    except FormProblem as exc:
        return _page(values, 400, error=str(exc))
    bad = [p for p in problems if not p.startswith("warning:")]
    return _page(values, 400 if bad else 200, problems=problems, checked=not bad)


def _submit(
    values: dict[str, Any], retention: float | None = None
) -> tuple[Job | None, int, dict[str, Any]]:
    """Queue the card sheets of the posted form: (the job, 303) or (None, the status, what
    the page shows instead: ``error`` or the deck's ``problems``)."""
    from shop.jobs import ShopBusy

    try:
        deck, problems = deck_of(values)
        options = command_options(values)
    except FormProblem as exc:
        return None, 400, {"error": str(exc)}
    if any(not p.startswith("warning:") for p in problems):
        return None, 400, {"problems": problems}
    try:
        job = runner().submit(
            "cards", {**deck, "options": options}, request.remote_addr or "?", retention
        )
    except ShopBusy as exc:
        return None, 503, {"error": str(exc)}
    return job, 303, {}


@bp.post("/cards")
def new_cards() -> Response | tuple[str, int]:
    """Check the deck and the options and queue the card sheets."""
    from flask import redirect, url_for

    limit_body()
    values = _values()
    job, status, shown = _submit(values)
    if job is None:
        return _page(values, status, **shown)
    return redirect(url_for("shop.cards_job", job_id=job.id), code=303)


@bp.post("/cards/preview")
def preview_cards() -> tuple[Response, int]:
    """The form's live preview (cards.js, after each change): the same job as
    :func:`new_cards`, answered as JSON: ``state_url`` and ``cancel_url`` of the job (the page
    cancels the previous preview first), else ``error`` or the deck's ``problems``."""
    from flask import jsonify, url_for

    limit_body()
    job, status, shown = _submit(_values(), retention=PREVIEW_RETENTION)
    if job is None:
        return jsonify(shown), status
    urls = {
        "state_url": url_for("shop.cards_job_state", job_id=job.id),
        "cancel_url": url_for("shop.cancel_cards", job_id=job.id),
        "page_url": url_for("shop.cards_job", job_id=job.id),
    }
    return jsonify(urls), 202


@bp.get("/cards/jobs/<job_id>")
def cards_job(job_id: str) -> str:
    """A card job's page: progress, then the previews and the downloads."""
    job = job_or_404(job_id, "cards")
    demo = str(job.payload.get("deck", "")).removeprefix("demo:")
    carried, game = None, None
    if demo:
        game = {d["name"]: d["game"] for d in demo_decks()}.get(demo)
    elif "text" in job.payload:  # an own deck: this tab carries it to the table (decks.js)
        carried = {"filename": job.payload["filename"], "text": job.payload["text"]}
        game = parse_deck_text(carried["text"], games=CARD_GAMES, source=carried["filename"]).game
    return render_template("shop/cards_job.html", job=job, demo=demo, game=game, carried=carried)


@bp.get("/cards/jobs/<job_id>.json")
def cards_job_state(job_id: str) -> tuple[Response, int]:
    """A card job's state (:func:`shop.pages.state`), for the page's polling."""
    return state_answer(job_id, "cards")


@bp.post("/cards/jobs/<job_id>/cancel")
def cancel_cards(job_id: str) -> Response:
    """Cancel queued or running card sheets; back to the job."""
    return cancel_answer(job_or_404(job_id, "cards"), "shop.cards_job")


@bp.get("/cards/jobs/<job_id>/files/<path:name>")
def cards_file(job_id: str, name: str) -> Response:
    """One file of done card sheets (a PDF, a cut file, a page preview)."""
    return file_answer(job_or_404(job_id, "cards"), name)
