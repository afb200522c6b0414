"""Decks at the table: the shipped demo decks, deck files a phone uploads, and the cards that
printed QR codes point to (``/card/<game>/<deck>/<card>``, :func:`games.cards.card_path`).

The demo decks are the ones ``tablesmith cards demo:NAME`` prints, read by the same loader
(:func:`games.demos.demo_decks`), so a demo card's QR code opens its face here. Uploaded decks are parsed with
the same reader as the card sheets (:func:`games.cards.parse_deck_text`); their problems are
reported with the file, line and field.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from companion.tables.rejected import MESSAGE_CHARS, Rejected
from games.cards.deck import Card, Deck, DeckError, parse_deck_text
from games.demos import demo_decks as demo_decks  # re-exported: the pages list them
from games.registry import CARD_GAMES

MAX_DECK_CHARS = 48 * 1024
"""Largest deck file text a phone may upload (the request body limit is 64 KiB)."""
MAX_NAME_CHARS = 120
"""Longest file name accepted with an upload."""


def demos_for(deck_game: str) -> dict[str, Deck]:
    """The demo decks of one deck game (``game:`` of the file), by demo name."""
    return {name: deck for name, deck in demo_decks().items() if deck.game == deck_game}


def default_demo(deck_game: str, seat: str) -> str | None:
    """The demo deck a seat's picker offers first: seat A the game's first demo, seat B the
    next one (the opposing side: another fleet, the Decepticons against the Autobots), so two
    new players never bring the same deck without choosing to. None for a watcher or a game
    without demo decks.

    Args:
        deck_game: the deck-file ``game:`` value of the table's game.
        seat: ``"A"``, ``"B"`` or ``"watch"``.
    """
    names = list(demos_for(deck_game))
    if not names or seat not in ("A", "B"):
        return None
    return names[min(("A", "B").index(seat), len(names) - 1)]


MAX_PROBLEM_LINES = 50
"""Most problems of a deck file a phone is sent (``lines``; each cut to
:data:`~companion.tables.rejected.MESSAGE_CHARS` characters), then how many more there are."""


def parse_upload(body: Any) -> Deck:
    """The deck a phone sends: ``{"demo": NAME}`` or ``{"filename": "x.yaml", "text": ...}``.

    Raises:
        Rejected: 400 when the body has neither form; 422 ``deck`` for a text over
            :data:`MAX_DECK_CHARS`, and
            with every problem of the file (file name, line, field, allowed values) in the
            phone's language: ``lines``, one per problem (at most :data:`MAX_PROBLEM_LINES`),
            and the message (cut to 300 characters like every message).
    """
    if not isinstance(body, dict):
        raise Rejected(400, "malformed", "the body must be a JSON object")
    demo = body.get("demo")
    if demo is not None:
        if demo not in demo_decks():
            known = ", ".join(demo_decks())
            raise Rejected(400, "malformed", f"demo must be one of {known}, got {str(demo)[:40]!r}")
        return demo_decks()[demo]
    filename, text = body.get("filename"), body.get("text")
    if not isinstance(filename, str) or not 1 <= len(filename) <= MAX_NAME_CHARS:
        raise Rejected(400, "malformed", "filename must be the deck file's name (.yaml or .csv)")
    if not isinstance(text, str):
        raise Rejected(400, "malformed", "text must be the deck file's text")
    if len(text) > MAX_DECK_CHARS:  # a real file a player chose: said in the phone's language
        said = gettext(
            "%(file)s has %(size)s characters; a phone brings a deck file of at most "
            "%(limit)s (a deck this big prints with the print shop or the command)",
            file=filename,
            size=len(text),
            limit=MAX_DECK_CHARS,
        )
        raise Rejected(422, "deck", said, details={"lines": [said]})
    try:
        return parse_deck_text(text, games=CARD_GAMES, source=filename)
    except DeckError as exc:  # in the phone's language (the log keeps nothing of it)
        lines = exc.translated(gettext)
        shown = [line[:MESSAGE_CHARS] for line in lines[:MAX_PROBLEM_LINES]]
        if len(lines) > MAX_PROBLEM_LINES:
            more = len(lines) - MAX_PROBLEM_LINES
            shown.append(gettext("… and %(count)s more problems", count=more))
        raise Rejected(422, "deck", "\n".join(shown), details={"lines": shown}) from exc


def find_card(game: str, deck: str, card: str) -> tuple[Deck, Card] | None:
    """A card of a demo deck by its URL parts, or None."""
    for candidate in demo_decks().values():
        if candidate.game == game and candidate.slug == deck:
            for entry in candidate.cards:
                if entry.id == card:
                    return candidate, entry
    return None


def card_facts(card: Card) -> list[tuple[str, Any]]:
    """The printed fields of a card that a player reads (name first, bookkeeping left out)."""
    skip = {"id", "copies", "image", "back_image", "qr"}
    facts = []
    for spec in type(card).FIELDS:
        value = getattr(card, spec.name)
        if spec.name in skip or value in (None, "", ()):
            continue
        if isinstance(value, tuple):
            value = ", ".join(str(v) for v in value)
        elif isinstance(value, bool):
            value = "✓" if value else "–"
        facts.append((spec.name, value))
    return facts
