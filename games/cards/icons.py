"""The stat icons every card game may print, and shapes the games' icons share: pen drawings
in the unit box (0, 0)-(1, 1) with the current fill and stroke colours
(:data:`games.cards.pen.IconDrawing`; the card printer's ``printables.icons.draw_icon`` places
them).

Meanings (legend words, shown next to the icons on the cards): ``attack`` crosshair,
``damage`` burst, ``defense`` shield, ``shields`` hexagon ring, ``health`` heart, ``star``
five-pointed star (build stars, star cost). :func:`robot` (a robot head) is drawn by two games
(PocketModel's ``droid``, Transformers' ``bot``), so it lives here rather than in one of them.
Pure: no I/O.
"""

from __future__ import annotations

import math
from types import MappingProxyType

from games.cards.pen import IconDrawing, PathPen, Pen, poly, star_points


def star(c: Pen) -> None:
    """Five-pointed star: build stars, star cost."""
    p = c.beginPath()
    poly(p, star_points(0.5, 0.48, 0.5, 0.2))
    c.drawPath(p, stroke=0, fill=1)


def attack(c: Pen) -> None:
    """Crosshair: Attack."""
    c.setLineWidth(0.11)
    c.circle(0.5, 0.5, 0.3, stroke=1, fill=0)
    for x0, y0, x1, y1 in (
        (0.5, 0.02, 0.5, 0.34),
        (0.5, 0.66, 0.5, 0.98),
        (0.02, 0.5, 0.34, 0.5),
        (0.66, 0.5, 0.98, 0.5),
    ):
        c.line(x0, y0, x1, y1)
    c.circle(0.5, 0.5, 0.07, stroke=0, fill=1)


def damage(c: Pen) -> None:
    """Burst: Damage."""
    p = c.beginPath()
    poly(p, star_points(0.5, 0.5, 0.5, 0.26, 8))
    c.drawPath(p, stroke=0, fill=1)


def _shield_path(c: Pen, inset: float = 0.0) -> PathPen:
    p = c.beginPath()
    p.moveTo(0.5, 0.98 - inset)
    p.lineTo(0.9 - inset, 0.84 - inset)
    p.curveTo(0.9 - inset, 0.4, 0.72, 0.16 + inset, 0.5, 0.02 + inset)
    p.curveTo(0.28, 0.16 + inset, 0.1 + inset, 0.4, 0.1 + inset, 0.84 - inset)
    p.close()
    return p


def defense(c: Pen) -> None:
    """Shield: Defense (also ``armor``)."""
    c.drawPath(_shield_path(c), stroke=0, fill=1)


def shields(c: Pen) -> None:
    """Hexagon ring: Shields (PocketModel)."""
    c.setLineWidth(0.14)
    p = c.beginPath()
    poly(
        p,
        [
            (0.5 + 0.42 * math.cos(a), 0.5 + 0.42 * math.sin(a))
            for a in (math.pi / 6 + k * math.pi / 3 for k in range(6))
        ],
    )
    c.drawPath(p, stroke=1, fill=0)
    c.circle(0.5, 0.5, 0.13, stroke=0, fill=1)


def health(c: Pen) -> None:
    """Heart: Health (Transformers)."""
    p = c.beginPath()
    p.moveTo(0.5, 0.08)
    p.curveTo(0.2, 0.32, 0.02, 0.5, 0.06, 0.72)
    p.curveTo(0.1, 0.95, 0.42, 0.98, 0.5, 0.76)
    p.curveTo(0.58, 0.98, 0.9, 0.95, 0.94, 0.72)
    p.curveTo(0.98, 0.5, 0.8, 0.32, 0.5, 0.08)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def robot(c: Pen) -> None:
    """Robot head: PocketModel's Droid, Transformers' bot mode."""
    c.roundRect(0.16, 0.14, 0.68, 0.6, 0.14, stroke=0, fill=1)
    c.setLineWidth(0.07)
    c.line(0.5, 0.74, 0.5, 0.92)
    c.circle(0.5, 0.93, 0.06, stroke=0, fill=1)
    c.saveState()
    c.setFillColorRGB(1, 1, 1)
    c.circle(0.36, 0.48, 0.08, stroke=0, fill=1)
    c.circle(0.64, 0.48, 0.08, stroke=0, fill=1)
    c.rect(0.32, 0.24, 0.36, 0.06, stroke=0, fill=1)
    c.restoreState()


STAT_ICONS: MappingProxyType[str, IconDrawing] = MappingProxyType(
    {
        "star": star,
        "attack": attack,
        "damage": damage,
        "defense": defense,
        "shields": shields,
        "health": health,
    }
)
"""The stat icons (icon name -> drawing), offered to every card game."""
