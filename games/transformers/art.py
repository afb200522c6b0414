"""Transformers' card art: its icons (TF-2, TF-13) and art pattern, drawn on a pen
(:class:`games.cards.pen.Pen`).

Icons: ``action`` lightning bolt, ``weapon`` sword, ``armor`` shield, ``utility`` wrench;
battle icons ``flip`` (the white one, flip two more, TF-21: two arrows), ``diamond`` (black),
``leaf`` (green); ``alt`` wheel, ``bot`` robot head. Pattern: ``circuit`` (brushed metal with
circuit traces). Pure: no I/O.
"""

from __future__ import annotations

import math
import random
from types import MappingProxyType

from games.cards.icons import defense, robot
from games.cards.pen import IconDrawing, PatternDrawing, Pen, gradient, mix, poly


def action(c: Pen) -> None:
    """Lightning bolt: Action."""
    p = c.beginPath()
    poly(p, [(0.58, 0.98), (0.18, 0.46), (0.46, 0.46), (0.36, 0.02), (0.82, 0.58), (0.54, 0.58)])
    c.drawPath(p, stroke=0, fill=1)


def weapon(c: Pen) -> None:
    """Sword: Weapon upgrade (and the orange attack icon)."""
    p = c.beginPath()
    poly(p, [(0.9, 0.96), (0.94, 0.92), (0.44, 0.3), (0.36, 0.38)])
    c.drawPath(p, stroke=0, fill=1)
    c.setLineWidth(0.09)
    c.line(0.22, 0.28, 0.52, 0.58)
    c.setLineWidth(0.12)
    c.line(0.1, 0.1, 0.34, 0.34)


def utility(c: Pen) -> None:
    """Wrench: Utility upgrade."""
    c.setLineWidth(0.16)
    c.line(0.16, 0.16, 0.6, 0.6)
    c.circle(0.7, 0.7, 0.22, stroke=0, fill=1)
    c.saveState()
    c.setFillColorRGB(1, 1, 1)
    p = c.beginPath()
    poly(p, [(0.7, 0.7), (0.98, 0.84), (0.84, 0.98)])
    c.drawPath(p, stroke=0, fill=1)
    c.restoreState()


def flip(c: Pen) -> None:
    """Two arrows: flip two more cards (the white battle icon, TF-21)."""
    c.setLineWidth(0.1)
    for y, d in ((0.66, 1), (0.34, -1)):
        x0, x1 = (0.12, 0.76) if d == 1 else (0.88, 0.24)
        c.line(x0, y, x1, y)
        p = c.beginPath()
        poly(p, [(x1 + d * 0.16, y), (x1, y + 0.12), (x1, y - 0.12)])
        c.drawPath(p, stroke=0, fill=1)


def diamond(c: Pen) -> None:
    """Diamond: the black battle icon."""
    p = c.beginPath()
    poly(p, [(0.5, 0.96), (0.88, 0.5), (0.5, 0.04), (0.12, 0.5)])
    c.drawPath(p, stroke=0, fill=1)


def leaf(c: Pen) -> None:
    """Leaf: the green battle icon."""
    p = c.beginPath()
    p.moveTo(0.14, 0.14)
    p.curveTo(0.1, 0.7, 0.5, 0.94, 0.92, 0.9)
    p.curveTo(0.9, 0.46, 0.6, 0.1, 0.14, 0.14)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def wheel(c: Pen) -> None:
    """Wheel: the alt (vehicle) mode."""
    c.setLineWidth(0.12)
    c.circle(0.5, 0.5, 0.38, stroke=1, fill=0)
    c.circle(0.5, 0.5, 0.12, stroke=0, fill=1)
    for k in range(5):
        a = k * 2 * math.pi / 5
        c.line(0.5, 0.5, 0.5 + 0.36 * math.cos(a), 0.5 + 0.36 * math.sin(a))


def _circuit(c: Pen, rnd: random.Random, w: float, h: float, tint: str) -> None:
    gradient(c, w, h, ("#37474f", "#78909c", "#263238"), vertical=False)
    c.setStrokeColor(mix("#cfd8dc", tint, 0.25))
    c.setLineWidth(0.35)
    size = 7.0
    for row in range(int(h / (size * 0.87)) + 2):
        for col in range(int(w / (size * 1.5)) + 2):
            x = col * size * 1.5 + (0.75 * size if row % 2 else 0)
            y = row * size * 0.87
            p = c.beginPath()
            for k in range(7):
                a = k * math.pi / 3
                px, py = x + 0.5 * size * math.cos(a), y + 0.5 * size * math.sin(a)
                if k == 0:
                    p.moveTo(px, py)
                else:
                    p.lineTo(px, py)
            c.drawPath(p, stroke=1, fill=0)
    c.setStrokeColor(mix(tint, "#ffffff", 0.35))
    c.setFillColor(mix(tint, "#ffffff", 0.35))
    c.setLineWidth(1.2)
    for _ in range(3):
        x, y = rnd.uniform(0, w), rnd.uniform(0, h)
        p = c.beginPath()
        p.moveTo(x, y)
        for _ in range(3):
            x += rnd.choice((-1, 1)) * rnd.uniform(8, 20)
            y += rnd.uniform(-6, 6) if rnd.random() < 0.5 else 0
            p.lineTo(x, y)
        c.drawPath(p, stroke=1, fill=0)
        c.circle(x, y, 1.6, stroke=0, fill=1)


ART_ICONS: MappingProxyType[str, IconDrawing] = MappingProxyType(
    {
        "action": action,
        "weapon": weapon,
        "armor": defense,
        "utility": utility,
        "flip": flip,
        "diamond": diamond,
        "leaf": leaf,
        "alt": wheel,
        "bot": robot,
    }
)
"""The game's icons (icon name -> drawing), declared in its ``CARDS``."""

ART_PATTERNS: MappingProxyType[str, PatternDrawing] = MappingProxyType({"circuit": _circuit})
"""The game's art patterns (style name, a frame's ``pattern`` -> drawing), declared in its
``CARDS``."""
