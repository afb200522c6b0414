"""Toy Battle's card art: its icon and art pattern, drawn on a pen
(:class:`games.cards.pen.Pen`).

Icon: ``joker`` (Kwak, TB-11) four-pointed sparkle. Pattern: ``toy`` (stripes and toy blocks
in the troop colour). Pure: no I/O.
"""

from __future__ import annotations

import random
from types import MappingProxyType

from games.cards.pen import IconDrawing, PatternDrawing, Pen, gradient, mix, poly, star_points


def joker(c: Pen) -> None:
    """Four-pointed sparkle: the joker (Kwak, TB-11)."""
    p = c.beginPath()
    poly(p, star_points(0.5, 0.5, 0.5, 0.13, 4))
    c.drawPath(p, stroke=0, fill=1)


def _toy(c: Pen, rnd: random.Random, w: float, h: float, tint: str) -> None:
    gradient(c, w, h, (mix(tint, "#ffffff", 0.55), mix(tint, "#ffffff", 0.25)))
    c.setFillColor(mix(tint, "#ffffff", 0.7))
    step = 9.0
    p = c.beginPath()
    for k in range(-int(h / step) - 2, int(w / step) + 2):
        x = k * step
        p.moveTo(x, 0)
        p.lineTo(x + step / 2, 0)
        p.lineTo(x + step / 2 + h, h)
        p.lineTo(x + h, h)
        p.close()
    c.drawPath(p, stroke=0, fill=1)
    palette = ("#ffca28", "#66bb6a", "#ef5350", "#42a5f5", "#ab47bc")
    for _ in range(int(w * h / 260)):
        c.setFillColor(rnd.choice(palette))
        x, y, s = rnd.uniform(0, w), rnd.uniform(0, h), rnd.uniform(3, 6)
        if rnd.random() < 0.5:
            c.roundRect(x, y, s, s, 1.0, stroke=0, fill=1)
        else:
            c.circle(x, y, s / 2, stroke=0, fill=1)


ART_ICONS: MappingProxyType[str, IconDrawing] = MappingProxyType(
    {
        "joker": joker,
    }
)
"""The game's icons (icon name -> drawing), declared in its ``CARDS``."""

ART_PATTERNS: MappingProxyType[str, PatternDrawing] = MappingProxyType({"toy": _toy})
"""The game's art patterns (style name, a frame's ``pattern`` -> drawing), declared in its
``CARDS``."""
