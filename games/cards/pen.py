"""What a game's card art draws on: a pen (duck-typed; a ReportLab canvas is one), and pure
colour and shape helpers.

A card game declares its icons and art patterns (:attr:`games.cards.cardgame.CardGame.icons`,
:attr:`~games.cards.cardgame.CardGame.patterns`) as functions drawing on a :class:`Pen`, so the
drawings live in ``games/<game>/art.py`` without importing ReportLab (games import no
rendering library); the card printer hands them its canvas. Colours are ``#RRGGBB`` strings
or :data:`RGB` tuples (components 0..1). Pure: no I/O.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Protocol

RGB = tuple[float, float, float]
"""A colour as red, green, blue, each 0..1 (what a PDF ``rg`` operator takes)."""

Colour = str | RGB
"""A colour a pen takes: ``#RRGGBB`` or :data:`RGB`."""


class PathPen(Protocol):
    """A path under construction (ReportLab's ``PDFPathObject``), coordinates in pt."""

    def moveTo(self, x: float, y: float, /) -> None:  # noqa: N802 - ReportLab's name
        """Start a subpath at (x, y)."""

    def lineTo(self, x: float, y: float, /) -> None:  # noqa: N802
        """A straight segment to (x, y)."""

    def curveTo(  # noqa: N802
        self, x1: float, y1: float, x2: float, y2: float, x3: float, y3: float, /
    ) -> None:
        """A cubic Bézier to (x3, y3) with control points (x1, y1), (x2, y2)."""

    def close(self) -> None:
        """Close the current subpath."""

    def circle(self, x_cen: float, y_cen: float, r: float, /) -> None:
        """A circle subpath."""

    def rect(self, x: float, y: float, width: float, height: float, /) -> None:
        """A rectangle subpath."""


class Pen(Protocol):
    """The drawing calls card art makes (a subset of ReportLab's ``Canvas``), in pt with
    ``stroke``/``fill`` flags 0 or 1."""

    def beginPath(self) -> PathPen:  # noqa: N802
        """A new, empty path."""

    def drawPath(self, path: PathPen, /, stroke: int = 1, fill: int = 0) -> None:  # noqa: N802
        """Stroke and/or fill ``path``."""

    def clipPath(self, path: PathPen, /, stroke: int = 1, fill: int = 0) -> None:  # noqa: N802
        """Clip to ``path`` (until :meth:`restoreState`)."""

    def circle(
        self, x_cen: float, y_cen: float, r: float, /, stroke: int = 1, fill: int = 0
    ) -> None:
        """A circle."""

    def ellipse(
        self, x1: float, y1: float, x2: float, y2: float, /, stroke: int = 1, fill: int = 0
    ) -> None:
        """An ellipse in the box (x1, y1)-(x2, y2)."""

    def rect(
        self, x: float, y: float, width: float, height: float, /, stroke: int = 1, fill: int = 0
    ) -> None:
        """A rectangle."""

    def roundRect(  # noqa: N802
        self,
        x: float,
        y: float,
        width: float,
        height: float,
        radius: float,
        /,
        stroke: int = 1,
        fill: int = 0,
    ) -> None:
        """A rectangle with rounded corners."""

    def line(self, x1: float, y1: float, x2: float, y2: float, /) -> None:
        """A straight line."""

    def setLineWidth(self, width: float, /) -> None:  # noqa: N802
        """The stroke width."""

    def setFillColor(self, colour: Colour, /) -> None:  # noqa: N802
        """The fill colour."""

    def setStrokeColor(self, colour: Colour, /) -> None:  # noqa: N802
        """The stroke colour."""

    def setFillColorRGB(self, r: float, g: float, b: float, /) -> None:  # noqa: N802
        """The fill colour from components 0..1."""

    def saveState(self) -> None:  # noqa: N802
        """Push the graphics state."""

    def restoreState(self) -> None:  # noqa: N802
        """Pop the graphics state."""

    def translate(self, dx: float, dy: float, /) -> None:
        """Move the origin."""


IconDrawing = Callable[[Pen], None]
"""An icon: draws into the unit box (0, 0)-(1, 1) with the current fill and stroke colour."""

PatternDrawing = Callable[[Pen, random.Random, float, float, str], None]
"""An art pattern: (pen, random source, width pt, height pt, tint ``#RRGGBB``) -> draws the box
(0, 0)-(width, height)."""


def rgb(colour: Colour) -> RGB:
    """``#RRGGBB`` (or an :data:`RGB`, returned as is) as components 0..1, computed as ReportLab's
    ``HexColor`` does (byte / 255), so a PDF is the same whichever parsed it.

    Raises:
        ValueError: not ``#`` and six hex digits.
    """
    if not isinstance(colour, str):
        return colour
    if len(colour) != 7 or colour[0] != "#":
        raise ValueError(f"colour {colour!r}: expected #RRGGBB")
    value = int(colour[1:], 16)
    return ((value >> 16) & 0xFF) / 255.0, ((value >> 8) & 0xFF) / 255.0, (value & 0xFF) / 255.0


def mix(colour: Colour, other: Colour, t: float) -> RGB:
    """``colour`` moved toward ``other`` by ``t`` (0..1) in RGB: ``other`` laid over ``colour``
    at opacity ``t``, as one opaque colour (an alpha inside a form XObject has no ExtGState in
    ReportLab, so translucency is drawn this way)."""
    a, b = rgb(colour), rgb(other)
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t)


def gradient(
    pen: Pen, w: float, h: float, colours: tuple[Colour, ...], *, vertical: bool = True
) -> None:
    """A gradient through ``colours`` over the box (0, 0)-(w, h) pt, as 40 bands of flat colour
    (shadings inside form XObjects lose their resources in ReportLab, so no
    ``linearGradient``)."""
    bands = 40
    stops = [rgb(c) for c in colours]
    for k in range(bands):
        t = k / (bands - 1) * (len(stops) - 1)
        i = min(int(t), len(stops) - 2)
        a, b, f = stops[i], stops[i + 1], t - i
        pen.setFillColor(
            (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f)
        )
        if vertical:
            pen.rect(0, h - (k + 1) * h / bands, w, h / bands + 0.3, stroke=0, fill=1)
        else:
            pen.rect(k * w / bands, 0, w / bands + 0.3, h, stroke=0, fill=1)


def poly(path: PathPen, points: list[tuple[float, float]]) -> None:
    """A closed polygon through ``points`` added to ``path``."""
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()


def star_points(
    cx: float, cy: float, outer: float, inner: float, n: int = 5
) -> list[tuple[float, float]]:
    """The 2n corners of an ``n``-pointed star centred at (cx, cy), first point up."""
    return [
        (
            cx + (outer if i % 2 == 0 else inner) * math.sin(math.pi * i / n),
            cy + (outer if i % 2 == 0 else inner) * math.cos(math.pi * i / n),
        )
        for i in range(2 * n)
    ]
