"""The shipped demo decks (``demo:NAME``): the one loader the companion, the card printer and
the print shop read them with, so a demo card's QR code opens the face that was printed.

Each demo deck is package data of its game (``games/<game>/demo/NAME.yaml``, listed in
:data:`games.registry.DEMO_DECKS`), parsed with the registry's card games and kept once read.
No I/O besides reading that package data.
"""

from __future__ import annotations

import functools
from importlib import resources
from importlib.resources.abc import Traversable

from games.cards.deck import Deck, DeckError, parse_deck_text
from games.cards.fields import FieldError, one_of
from games.cards.wording import Words
from games.registry import CARD_GAMES, DEMO_DECKS


def demo_names() -> list[str]:
    """Names of the shipped demo decks, sorted: a game's first demo (``<game>``) then its
    others (``<game>-<side>``)."""
    return sorted(DEMO_DECKS)


def demo_resource(name: str) -> Traversable:
    """The package file of demo deck ``name`` (its folder holds the deck's images).

    Raises:
        DeckError: no demo deck of that name (the message lists the names).
    """
    if name not in DEMO_DECKS:
        problem = FieldError(field="demo", allowed=one_of(demo_names()), found=name)
        raise DeckError(f"demo:{name}", [(Words("deck"), problem)])
    package, path = DEMO_DECKS[name]
    return resources.files(package) / path


@functools.cache
def demo_deck(name: str) -> Deck:
    """Demo deck ``name``, read and validated once (the same object on every call).

    Raises:
        DeckError: no demo deck of that name, or the shipped file has problems.
    """
    text = demo_resource(name).read_text(encoding="utf-8")
    return parse_deck_text(text, games=CARD_GAMES, source=f"{name}.yaml", default_slug=name)


def demo_decks() -> dict[str, Deck]:
    """Every demo deck by name, in :func:`demo_names` order."""
    return {name: demo_deck(name) for name in demo_names()}
