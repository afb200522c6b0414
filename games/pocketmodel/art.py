"""PocketModel's card art: its icons (PM-2) and art patterns, drawn on a pen
(:class:`games.cards.pen.Pen`).

Icons: ``droid`` robot head, ``laser`` beam, ``leader`` rank chevrons, ``torpedo`` torpedo,
``troops`` three helmets, ``carrier`` hangar deck, ``turbolaser`` twin barrels, ``luck``
clover, ``force`` spiral. Patterns: ``space`` (units: a night sky with a planet), ``rays``
(combat cards: a burst), ``radar`` (objectives: target rings). Pure: no I/O.
"""

from __future__ import annotations

import math
import random
from types import MappingProxyType

from games.cards.icons import robot
from games.cards.pen import IconDrawing, PatternDrawing, Pen, gradient, mix, poly, star_points


def laser(c: Pen) -> None:
    """Beam with a flash: Laser."""
    c.setLineWidth(0.12)
    c.line(0.08, 0.08, 0.7, 0.7)
    p = c.beginPath()
    poly(p, star_points(0.76, 0.76, 0.22, 0.08, 4))
    c.drawPath(p, stroke=0, fill=1)


def leader(c: Pen) -> None:
    """Two rank chevrons: Leader."""
    for y in (0.12, 0.46):
        p = c.beginPath()
        poly(
            p,
            [
                (0.08, y + 0.12),
                (0.5, y + 0.4),
                (0.92, y + 0.12),
                (0.92, y),
                (0.5, y + 0.26),
                (0.08, y),
            ],
        )
        c.drawPath(p, stroke=0, fill=1)


def torpedo(c: Pen) -> None:
    """Torpedo with fins: Torpedo."""
    p = c.beginPath()
    poly(p, [(0.1, 0.42), (0.62, 0.42), (0.8, 0.5), (0.62, 0.58), (0.1, 0.58)])
    c.drawPath(p, stroke=0, fill=1)
    p = c.beginPath()
    poly(p, [(0.1, 0.58), (0.24, 0.58), (0.06, 0.8)])
    poly(p, [(0.1, 0.42), (0.24, 0.42), (0.06, 0.2)])
    c.drawPath(p, stroke=0, fill=1)
    c.circle(0.9, 0.5, 0.05, stroke=0, fill=1)


def troops(c: Pen) -> None:
    """Three helmets: Troops."""
    for cx, cy, r in ((0.26, 0.34, 0.17), (0.74, 0.34, 0.17), (0.5, 0.58, 0.2)):
        p = c.beginPath()
        p.moveTo(cx - r, cy)
        p.curveTo(cx - r, cy + 1.2 * r, cx + r, cy + 1.2 * r, cx + r, cy)
        p.close()
        c.drawPath(p, stroke=0, fill=1)
        c.rect(cx - r * 1.15, cy - 0.05, 2.3 * r, 0.05, stroke=0, fill=1)


def carrier(c: Pen) -> None:
    """Hangar deck with two small craft: Carrier."""
    p = c.beginPath()
    poly(p, [(0.04, 0.3), (0.96, 0.3), (0.82, 0.12), (0.18, 0.12)])
    c.drawPath(p, stroke=0, fill=1)
    for x in (0.3, 0.62):
        p = c.beginPath()
        poly(p, [(x, 0.42), (x + 0.16, 0.52), (x, 0.62), (x + 0.04, 0.52)])
        c.drawPath(p, stroke=0, fill=1)
    c.rect(0.04, 0.72, 0.92, 0.08, stroke=0, fill=1)


def turbolaser(c: Pen) -> None:
    """Twin barrels on a turret: Turbolaser."""
    c.roundRect(0.12, 0.1, 0.5, 0.36, 0.08, stroke=0, fill=1)
    c.rect(0.5, 0.5, 0.46, 0.08, stroke=0, fill=1)
    c.rect(0.5, 0.66, 0.46, 0.08, stroke=0, fill=1)
    c.rect(0.3, 0.44, 0.24, 0.34, stroke=0, fill=1)


def luck(c: Pen) -> None:
    """Four-leaf clover: Luck."""
    for dx, dy in ((0, 0.18), (0.18, 0), (0, -0.18), (-0.18, 0)):
        c.circle(0.5 + dx, 0.56 + dy, 0.17, stroke=0, fill=1)
    c.setLineWidth(0.07)
    c.line(0.5, 0.5, 0.62, 0.04)


def force(c: Pen) -> None:
    """Spiral: Force."""
    c.setLineWidth(0.1)
    p = c.beginPath()
    steps = 40
    for i in range(steps + 1):
        a = i / steps * 3.2 * math.pi
        r = 0.04 + 0.4 * i / steps
        x, y = 0.5 + r * math.cos(a), 0.5 + r * math.sin(a)
        if i == 0:
            p.moveTo(x, y)
        else:
            p.lineTo(x, y)
    c.drawPath(p, stroke=1, fill=0)


def _space(c: Pen, rnd: random.Random, w: float, h: float, tint: str) -> None:
    gradient(c, w, h, (mix("#0b1026", tint, 0.15), mix("#2a1f5c", tint, 0.25)))
    for _ in range(int(w * h / 90)):
        shade = rnd.uniform(0.55, 1.0)
        c.setFillColorRGB(shade, shade, min(1.0, shade + 0.05))
        c.circle(
            rnd.uniform(0, w),
            rnd.uniform(0, h),
            rnd.choice((0.35, 0.45, 0.6, 0.9)),
            stroke=0,
            fill=1,
        )
    cx, cy, r = rnd.uniform(0.6, 0.85) * w, rnd.uniform(-0.1, 0.25) * h, rnd.uniform(0.28, 0.4) * w
    c.saveState()
    p = c.beginPath()
    p.circle(cx, cy, r)
    c.clipPath(p, stroke=0, fill=0)
    c.translate(cx - r, cy - r)
    gradient(c, 2 * r, 2 * r, (mix(tint, "#ffffff", 0.45), mix(tint, "#000000", 0.55)))
    c.restoreState()
    c.setStrokeColor(mix(tint, "#ffffff", 0.6))
    c.setLineWidth(0.8)
    c.ellipse(cx - 1.5 * r, cy - 0.25 * r, cx + 1.5 * r, cy + 0.25 * r, stroke=1, fill=0)


def _rays(c: Pen, rnd: random.Random, w: float, h: float, tint: str) -> None:
    gradient(c, w, h, (mix(tint, "#ffb74d", 0.35), mix(tint, "#000000", 0.45)))
    cx, cy = rnd.uniform(0.3, 0.7) * w, rnd.uniform(0.3, 0.6) * h
    c.setFillColor(mix(tint, "#ffe082", 0.55))
    n = 18
    p = c.beginPath()
    for k in range(n):
        a0 = (k + rnd.uniform(0, 0.2)) * 2 * math.pi / n
        a1 = a0 + math.pi / n * 0.6
        p.moveTo(cx, cy)
        p.lineTo(cx + 2 * w * math.cos(a0), cy + 2 * w * math.sin(a0))
        p.lineTo(cx + 2 * w * math.cos(a1), cy + 2 * w * math.sin(a1))
        p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.setFillColor(mix(tint, "#fff8e1", 0.8))
    c.circle(cx, cy, 0.12 * min(w, h), stroke=0, fill=1)


def _radar(c: Pen, rnd: random.Random, w: float, h: float, tint: str) -> None:
    gradient(c, w, h, (mix(tint, "#000000", 0.55), mix(tint, "#000000", 0.2)))
    cx, cy = rnd.uniform(0.35, 0.65) * w, rnd.uniform(0.35, 0.65) * h
    c.setStrokeColor(mix(tint, "#b2ebf2", 0.6))
    c.setLineWidth(0.7)
    for k in range(1, 9):
        c.circle(cx, cy, k * 0.11 * max(w, h), stroke=1, fill=0)
    c.line(cx, 0, cx, h)
    c.line(0, cy, w, cy)
    c.setFillColor(mix(tint, "#e0f7fa", 0.8))
    for _ in range(4):
        c.circle(rnd.uniform(0, w), rnd.uniform(0, h), 1.4, stroke=0, fill=1)


ART_ICONS: MappingProxyType[str, IconDrawing] = MappingProxyType(
    {
        "droid": robot,
        "laser": laser,
        "leader": leader,
        "torpedo": torpedo,
        "troops": troops,
        "carrier": carrier,
        "turbolaser": turbolaser,
        "luck": luck,
        "force": force,
    }
)
"""The game's icons (icon name -> drawing), declared in its ``CARDS``."""

ART_PATTERNS: MappingProxyType[str, PatternDrawing] = MappingProxyType(
    {"space": _space, "rays": _rays, "radar": _radar}
)
"""The game's art patterns (style name, a frame's ``pattern`` -> drawing), declared in its
``CARDS``."""
