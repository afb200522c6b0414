"""Card and deck schemas of the card games (PocketModel, Transformers, Toy Battle).

Pure: deck files are parsed from text handed in by the caller (``printables.deckfile`` reads
them). Sources: shared/rules/pocketmodel.md, transformers.md, toy-battle.md.
"""

from games.cards.deck import (
    GAMES,
    BackSpec,
    Card,
    Deck,
    DeckError,
    card_path,
    card_url,
    parse_deck_text,
)
from games.cards.fields import FieldError, slugify

__all__ = [
    "GAMES",
    "BackSpec",
    "Card",
    "Deck",
    "DeckError",
    "FieldError",
    "card_path",
    "card_url",
    "parse_deck_text",
    "slugify",
]
