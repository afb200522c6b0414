"""Countdown's card art: its own icon and art pattern, drawn on a pen (no ReportLab here).

Icon: ``counter`` (a counter, a ring with a dot). Pattern: ``countdown`` (rows of counters on
the frame's tint). Declared in its ``CARDS``; the printer finds both by name. Pure.
"""

from __future__ import annotations

import random
from types import MappingProxyType

from games.cards.pen import IconDrawing, PatternDrawing, Pen, gradient, mix


def counter(c: Pen) -> None:
    """A counter: a ring with a dot."""
    c.setLineWidth(0.12)
    c.circle(0.5, 0.5, 0.38, stroke=1, fill=0)
    c.circle(0.5, 0.5, 0.14, stroke=0, fill=1)


def countdown(c: Pen, rnd: random.Random, w: float, h: float, tint: str) -> None:
    """Rows of counters on the tint, a few of them taken (lighter)."""
    gradient(c, w, h, (mix(tint, "#ffffff", 0.3), mix(tint, "#000000", 0.3)))
    step = 8.0
    for row in range(int(h / step) + 1):
        for col in range(int(w / step) + 1):
            taken = rnd.random() < 0.3
            c.setFillColor(mix(tint, "#ffffff", 0.8 if taken else 0.5))
            c.circle((col + 0.5) * step, (row + 0.5) * step, step * 0.3, stroke=0, fill=1)


ART_ICONS: MappingProxyType[str, IconDrawing] = MappingProxyType({"counter": counter})
"""Countdown's icons (declared in its ``CARDS``)."""

ART_PATTERNS: MappingProxyType[str, PatternDrawing] = MappingProxyType({"countdown": countdown})
"""Countdown's art patterns (declared in its ``CARDS``)."""
