"""Generated art for cards without an image: the drawer of the card games' art patterns.

A pattern is a pen drawing of a box (:data:`games.cards.pen.PatternDrawing`) that a card game
declares by style name (:attr:`games.cards.cardgame.CardGame.patterns`, in
``games/<game>/art.py``) and its frames name (``Frame.pattern``). Each style has
:data:`VARIANTS` variants picked by the card's id, so neighbouring cards differ, and each
(style, variant, tint, size) is one form XObject drawn once per PDF. This module names no game.
"""

from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING

from games.cards.pen import PatternDrawing
from games.registry import CARD_GAMES
from printables.icons import declared, defined_forms

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

VARIANTS = 4
"""Variants per style."""


def variant_of(key: str) -> int:
    """A stable variant number 0..VARIANTS-1 for a card id."""
    return hashlib.sha1(key.encode()).digest()[0] % VARIANTS


def pattern_drawing(style: str) -> PatternDrawing:
    """The art pattern ``style`` a registered card game declares.

    Raises:
        KeyError: unknown style. ValueError: two games declare it differently.
    """
    return declared("art pattern", style, {}, lambda slug: CARD_GAMES[slug].patterns)


def draw_pattern(
    c: Canvas, style: str, key: str, tint: str, x_pt: float, y_pt: float, w_pt: float, h_pt: float
) -> None:
    """Draw the generated art of ``style`` for card ``key`` into the box (x, y, w, h) in pt.

    Raises:
        KeyError: unknown style. ValueError: two games declare it differently.
    """
    variant = variant_of(key)
    form = f"pat-{style}-{variant}-{tint.lstrip('#')}-{w_pt:.1f}x{h_pt:.1f}"
    defined = defined_forms(c)
    if form not in defined:
        c.beginForm(form, 0, 0, w_pt, h_pt)
        p = c.beginPath()
        p.rect(0, 0, w_pt, h_pt)
        c.clipPath(p, stroke=0, fill=0)
        pattern_drawing(style)(c, random.Random(f"{style}{variant}"), w_pt, h_pt, tint)
        c.endForm()
        defined.add(form)
    c.saveState()
    c.translate(x_pt, y_pt)
    c.doForm(form)
    c.restoreState()
