"""Vector icons drawn with ReportLab paths (no emoji font): game symbols in a unit box.

Every icon is a function that draws into the box (0, 0)-(1, 1) with the current fill and
stroke colours; :func:`draw_icon` places it as a PDF form XObject (defined once per icon and
colour, then reused), so a thousand cards cost one ``Do`` per icon.

Meanings (legend words, shown next to the icons on the cards):

* Stats: ``attack`` crosshair, ``damage`` burst, ``defense`` shield, ``shields`` hexagon ring,
  ``health`` heart, ``star`` five-pointed star (build stars, star cost).
* PocketModel icons (PM-2): ``droid`` robot head, ``laser`` beam, ``leader`` rank chevrons,
  ``torpedo`` torpedo, ``troops`` three helmets, ``carrier`` hangar deck, ``turbolaser`` twin
  barrels, ``luck`` clover, ``force`` spiral.
* Transformers (TF-2, TF-13): ``action`` lightning bolt, ``weapon`` sword, ``armor`` shield,
  ``utility`` wrench; battle icons ``orange`` (attack, a blade), ``blue`` (defense, a
  shield), ``white`` (flip two more, TF-21: two arrows), ``black`` diamond, ``green`` leaf;
  ``alt`` wheel, ``bot`` robot head.
* Toy Battle: ``joker`` (Kwak, TB-11) four-pointed sparkle.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from reportlab.lib.colors import Color, HexColor

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.pdfgen.pathobject import PDFPathObject


@lru_cache(maxsize=512)
def _hex(colour: str) -> Color:
    return HexColor(colour)


def colour_of(colour: str | Color) -> Color:
    """A ReportLab colour for ``#RRGGBB`` (parsed once and cached: ReportLab parses a colour
    string on every use, which cost a fifth of the time of a thousand cards)."""
    return _hex(colour) if isinstance(colour, str) else colour


def mix(colour: str | Color, other: str | Color, t: float) -> Color:
    """``colour`` moved toward ``other`` by ``t`` (0..1) in RGB: ``other`` laid over
    ``colour`` at opacity ``t``, as one opaque colour (an alpha inside a form XObject has no
    ExtGState in ReportLab, so translucency is drawn this way)."""
    a, b = colour_of(colour), colour_of(other)
    return Color(
        a.red + (b.red - a.red) * t,
        a.green + (b.green - a.green) * t,
        a.blue + (b.blue - a.blue) * t,
    )


FORM_SIZE = 20.0
"""Edge of an icon's form XObject, pt (icons are scaled from it)."""


def _poly(p: PDFPathObject, points: list[tuple[float, float]]) -> None:
    p.moveTo(*points[0])
    for point in points[1:]:
        p.lineTo(*point)
    p.close()


def _star_points(
    cx: float, cy: float, outer: float, inner: float, n: int = 5
) -> list[tuple[float, float]]:
    return [
        (
            cx + (outer if i % 2 == 0 else inner) * math.sin(math.pi * i / n),
            cy + (outer if i % 2 == 0 else inner) * math.cos(math.pi * i / n),
        )
        for i in range(2 * n)
    ]


def star(c: Canvas) -> None:
    """Five-pointed star: build stars, star cost."""
    p = c.beginPath()
    _poly(p, _star_points(0.5, 0.48, 0.5, 0.2))
    c.drawPath(p, stroke=0, fill=1)


def attack(c: Canvas) -> None:
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


def damage(c: Canvas) -> None:
    """Burst: Damage."""
    p = c.beginPath()
    _poly(p, _star_points(0.5, 0.5, 0.5, 0.26, 8))
    c.drawPath(p, stroke=0, fill=1)


def _shield_path(c: Canvas, inset: float = 0.0) -> PDFPathObject:
    p = c.beginPath()
    p.moveTo(0.5, 0.98 - inset)
    p.lineTo(0.9 - inset, 0.84 - inset)
    p.curveTo(0.9 - inset, 0.4, 0.72, 0.16 + inset, 0.5, 0.02 + inset)
    p.curveTo(0.28, 0.16 + inset, 0.1 + inset, 0.4, 0.1 + inset, 0.84 - inset)
    p.close()
    return p


def defense(c: Canvas) -> None:
    """Shield: Defense (also ``armor``)."""
    c.drawPath(_shield_path(c), stroke=0, fill=1)


def shields(c: Canvas) -> None:
    """Hexagon ring: Shields (PocketModel)."""
    c.setLineWidth(0.14)
    p = c.beginPath()
    _poly(
        p,
        [
            (0.5 + 0.42 * math.cos(a), 0.5 + 0.42 * math.sin(a))
            for a in (math.pi / 6 + k * math.pi / 3 for k in range(6))
        ],
    )
    c.drawPath(p, stroke=1, fill=0)
    c.circle(0.5, 0.5, 0.13, stroke=0, fill=1)


def health(c: Canvas) -> None:
    """Heart: Health (Transformers)."""
    p = c.beginPath()
    p.moveTo(0.5, 0.08)
    p.curveTo(0.2, 0.32, 0.02, 0.5, 0.06, 0.72)
    p.curveTo(0.1, 0.95, 0.42, 0.98, 0.5, 0.76)
    p.curveTo(0.58, 0.98, 0.9, 0.95, 0.94, 0.72)
    p.curveTo(0.98, 0.5, 0.8, 0.32, 0.5, 0.08)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def droid(c: Canvas) -> None:
    """Robot head: Droid (also the ``bot`` mode)."""
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


def laser(c: Canvas) -> None:
    """Beam with a flash: Laser."""
    c.setLineWidth(0.12)
    c.line(0.08, 0.08, 0.7, 0.7)
    p = c.beginPath()
    _poly(p, _star_points(0.76, 0.76, 0.22, 0.08, 4))
    c.drawPath(p, stroke=0, fill=1)


def leader(c: Canvas) -> None:
    """Two rank chevrons: Leader."""
    for y in (0.12, 0.46):
        p = c.beginPath()
        _poly(
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


def torpedo(c: Canvas) -> None:
    """Torpedo with fins: Torpedo."""
    p = c.beginPath()
    _poly(p, [(0.1, 0.42), (0.62, 0.42), (0.8, 0.5), (0.62, 0.58), (0.1, 0.58)])
    c.drawPath(p, stroke=0, fill=1)
    p = c.beginPath()
    _poly(p, [(0.1, 0.58), (0.24, 0.58), (0.06, 0.8)])
    _poly(p, [(0.1, 0.42), (0.24, 0.42), (0.06, 0.2)])
    c.drawPath(p, stroke=0, fill=1)
    c.circle(0.9, 0.5, 0.05, stroke=0, fill=1)


def troops(c: Canvas) -> None:
    """Three helmets: Troops."""
    for cx, cy, r in ((0.26, 0.34, 0.17), (0.74, 0.34, 0.17), (0.5, 0.58, 0.2)):
        p = c.beginPath()
        p.moveTo(cx - r, cy)
        p.curveTo(cx - r, cy + 1.2 * r, cx + r, cy + 1.2 * r, cx + r, cy)
        p.close()
        c.drawPath(p, stroke=0, fill=1)
        c.rect(cx - r * 1.15, cy - 0.05, 2.3 * r, 0.05, stroke=0, fill=1)


def carrier(c: Canvas) -> None:
    """Hangar deck with two small craft: Carrier."""
    p = c.beginPath()
    _poly(p, [(0.04, 0.3), (0.96, 0.3), (0.82, 0.12), (0.18, 0.12)])
    c.drawPath(p, stroke=0, fill=1)
    for x in (0.3, 0.62):
        p = c.beginPath()
        _poly(p, [(x, 0.42), (x + 0.16, 0.52), (x, 0.62), (x + 0.04, 0.52)])
        c.drawPath(p, stroke=0, fill=1)
    c.rect(0.04, 0.72, 0.92, 0.08, stroke=0, fill=1)


def turbolaser(c: Canvas) -> None:
    """Twin barrels on a turret: Turbolaser."""
    c.roundRect(0.12, 0.1, 0.5, 0.36, 0.08, stroke=0, fill=1)
    c.rect(0.5, 0.5, 0.46, 0.08, stroke=0, fill=1)
    c.rect(0.5, 0.66, 0.46, 0.08, stroke=0, fill=1)
    c.rect(0.3, 0.44, 0.24, 0.34, stroke=0, fill=1)


def luck(c: Canvas) -> None:
    """Four-leaf clover: Luck."""
    for dx, dy in ((0, 0.18), (0.18, 0), (0, -0.18), (-0.18, 0)):
        c.circle(0.5 + dx, 0.56 + dy, 0.17, stroke=0, fill=1)
    c.setLineWidth(0.07)
    c.line(0.5, 0.5, 0.62, 0.04)


def force(c: Canvas) -> None:
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


def action(c: Canvas) -> None:
    """Lightning bolt: Action."""
    p = c.beginPath()
    _poly(p, [(0.58, 0.98), (0.18, 0.46), (0.46, 0.46), (0.36, 0.02), (0.82, 0.58), (0.54, 0.58)])
    c.drawPath(p, stroke=0, fill=1)


def weapon(c: Canvas) -> None:
    """Sword: Weapon upgrade (and the orange attack icon)."""
    p = c.beginPath()
    _poly(p, [(0.9, 0.96), (0.94, 0.92), (0.44, 0.3), (0.36, 0.38)])
    c.drawPath(p, stroke=0, fill=1)
    c.setLineWidth(0.09)
    c.line(0.22, 0.28, 0.52, 0.58)
    c.setLineWidth(0.12)
    c.line(0.1, 0.1, 0.34, 0.34)


def utility(c: Canvas) -> None:
    """Wrench: Utility upgrade."""
    c.setLineWidth(0.16)
    c.line(0.16, 0.16, 0.6, 0.6)
    c.circle(0.7, 0.7, 0.22, stroke=0, fill=1)
    c.saveState()
    c.setFillColorRGB(1, 1, 1)
    p = c.beginPath()
    _poly(p, [(0.7, 0.7), (0.98, 0.84), (0.84, 0.98)])
    c.drawPath(p, stroke=0, fill=1)
    c.restoreState()


def flip(c: Canvas) -> None:
    """Two arrows: flip two more cards (the white battle icon, TF-21)."""
    c.setLineWidth(0.1)
    for y, d in ((0.66, 1), (0.34, -1)):
        x0, x1 = (0.12, 0.76) if d == 1 else (0.88, 0.24)
        c.line(x0, y, x1, y)
        p = c.beginPath()
        _poly(p, [(x1 + d * 0.16, y), (x1, y + 0.12), (x1, y - 0.12)])
        c.drawPath(p, stroke=0, fill=1)


def diamond(c: Canvas) -> None:
    """Diamond: the black battle icon."""
    p = c.beginPath()
    _poly(p, [(0.5, 0.96), (0.88, 0.5), (0.5, 0.04), (0.12, 0.5)])
    c.drawPath(p, stroke=0, fill=1)


def leaf(c: Canvas) -> None:
    """Leaf: the green battle icon."""
    p = c.beginPath()
    p.moveTo(0.14, 0.14)
    p.curveTo(0.1, 0.7, 0.5, 0.94, 0.92, 0.9)
    p.curveTo(0.9, 0.46, 0.6, 0.1, 0.14, 0.14)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def wheel(c: Canvas) -> None:
    """Wheel: the alt (vehicle) mode."""
    c.setLineWidth(0.12)
    c.circle(0.5, 0.5, 0.38, stroke=1, fill=0)
    c.circle(0.5, 0.5, 0.12, stroke=0, fill=1)
    for k in range(5):
        a = k * 2 * math.pi / 5
        c.line(0.5, 0.5, 0.5 + 0.36 * math.cos(a), 0.5 + 0.36 * math.sin(a))


def joker(c: Canvas) -> None:
    """Four-pointed sparkle: the joker (Kwak, TB-11)."""
    p = c.beginPath()
    _poly(p, _star_points(0.5, 0.5, 0.5, 0.13, 4))
    c.drawPath(p, stroke=0, fill=1)


ICONS: dict[str, Callable[[Canvas], None]] = {
    "star": star,
    "attack": attack,
    "damage": damage,
    "defense": defense,
    "shields": shields,
    "health": health,
    "droid": droid,
    "laser": laser,
    "leader": leader,
    "torpedo": torpedo,
    "troops": troops,
    "carrier": carrier,
    "turbolaser": turbolaser,
    "luck": luck,
    "force": force,
    "action": action,
    "weapon": weapon,
    "armor": defense,
    "utility": utility,
    "flip": flip,
    "diamond": diamond,
    "leaf": leaf,
    "alt": wheel,
    "bot": droid,
    "joker": joker,
}
"""Icon name -> drawing function (unit box)."""


def defined_forms(c: Canvas) -> set[str]:
    """The names of the form XObjects already defined on canvas ``c`` (kept on the canvas,
    so a new document starts empty)."""
    forms: set[str] | None = getattr(c, "_tablesmith_forms", None)
    if forms is None:
        forms = set()
        c._tablesmith_forms = forms
    return forms


def draw_icon(c: Canvas, name: str, x_pt: float, y_pt: float, size_pt: float, colour: str) -> None:
    """Draw icon ``name`` in ``colour`` into the square (x, y, size) in page points.

    The icon is a form XObject named after the icon and colour, defined on first use in this
    document.

    Raises:
        KeyError: unknown icon name.
    """
    form = f"icon-{name}-{colour.lstrip('#')}"
    defined = defined_forms(c)
    if form not in defined:
        draw = ICONS[name]
        c.beginForm(form, 0, 0, FORM_SIZE, FORM_SIZE)
        c.scale(FORM_SIZE, FORM_SIZE)
        c.setFillColor(colour_of(colour))
        c.setStrokeColor(colour_of(colour))
        c.setLineCap(1)
        c.setLineJoin(1)
        draw(c)
        c.endForm()
        defined.add(form)
    c.saveState()
    c.translate(x_pt, y_pt)
    c.scale(size_pt / FORM_SIZE, size_pt / FORM_SIZE)
    c.doForm(form)
    c.restoreState()
