"""Cutting machines: print-then-cut geometry (pure, mm) for Silhouette and Cricut.

Frame: the page frame of :mod:`printables.layout` (origin bottom-left, y up, mm).

Silhouette Studio, registration marks "Type 1" (CAMEO, Portrait, Curio): a filled square in
the top-left corner and L-shaped corner marks at the top-right and bottom-left corners, all
``inset`` from the paper edges. Sources, and where they differ:

* fablabnbg/inkscape-silhouette ``render_silhouette_regmarks.py``: square 5 mm, arms 20 mm,
  corners 10 mm from the left and top edges; its ``Graphtec.py`` sends the machine
  ``TB51,400`` (mark length 400/20 = 20 mm) and ``TB53,10`` (mark width 10/20 = 0.5 mm),
  the values Silhouette Studio sends. dim13/robo ``marks.go``: offset 10 mm, length 20 mm.
* Cardwright and Proxxied (proxy tools) use arms of 8.4-8.9 mm and 1 mm lines, and a
  2016 inkscape-silhouette issue quotes Studio placing marks 15.9 mm from the edges.

Decision: the machine's own commands win: inset 10 mm, arms 20 mm, lines 0.5 mm, square
5 mm - every one of them a value the user types into Studio's Registration Marks panel, so
docs/print-cards.md and the sheet's heading name them and Studio expects exactly what we print.
No card is printed within ``padding`` (1.5 mm, Cardwright's keep-clear) of a mark's square
(the mark's arm length on each side), and the cards stay inside the rectangle the marks span;
the sheet's heading, ruler and note keep :data:`printables.regmarks.MARK_CLEARANCE` (5 mm)
from every mark and from the paper edges beside it (:func:`printables.regmarks.furniture_zones`).

Cricut Design Space, Print Then Cut: Design Space prints its own registration frame around
the image and cannot read marks printed by another program (Proxy-PDF-Maker's tutorial works
around it by printing Design Space's page first). Decision: for ``cricut`` no marks are
printed; the cards are laid out inside Design Space's largest Print Then Cut image,
6.75 x 9.25 in (171.45 x 234.95 mm, Cricut Help "Print Then Cut"), and that area is written
as PNG images with transparent space around each card, which Design Space traces into one
cut path per card (its sticker-sheet workflow); the cut lines are written in that area's
frame too.

Cut lines follow each card's trim with rounded corners (``CUT_CORNER_RADIUS``, the usual
3 mm of trading cards).
"""

from __future__ import annotations

import enum
import math
from pathlib import Path

from printables.geometry import Rect
from printables.layout import SheetLayout
from printables.regmarks import cricut_area

CUT_CORNER_RADIUS = 3.0
"""Corner radius of the cut path around each card, mm."""
BULGE_QUARTER = math.tan(math.pi / 8)
"""DXF bulge of a 90-degree arc (tan of a quarter of the included angle)."""


class Cutter(enum.StrEnum):
    """The cutting machine a sheet is laid out for."""

    NONE = "none"
    SILHOUETTE = "silhouette"
    SILHOUETTE_4 = "silhouette-4"
    CRICUT = "cricut"


def rounded_rect_path(rect: Rect, radius: float) -> list[tuple[float, float, float]]:
    """The corners of a rounded rectangle as DXF-style ``(x, y, bulge)`` vertices,
    counter-clockwise from the bottom edge: 8 vertices, a quarter arc after every other.

    Raises:
        ValueError: ``radius`` is negative or more than half a side.
    """
    if not 0 <= radius <= min(rect.width, rect.height) / 2:
        raise ValueError(
            f"corner radius must be 0..{min(rect.width, rect.height) / 2:g} mm, got {radius:g}"
        )
    r, b = radius, BULGE_QUARTER
    x0, y0, x1, y1 = rect.x, rect.y, rect.right, rect.top
    return [
        (x0 + r, y0, 0.0),
        (x1 - r, y0, b),
        (x1, y0 + r, 0.0),
        (x1, y1 - r, b),
        (x1 - r, y1, 0.0),
        (x0 + r, y1, b),
        (x0, y1 - r, 0.0),
        (x0, y0 + r, b),
    ]


def cut_rects(layout: SheetLayout, cards: int | None = None) -> list[Rect]:
    """The trim boxes of the first ``cards`` slots of ``layout`` (all when None), the slots a
    sheet fills in order: the cut lines (page frame, mm)."""
    return [slot.trim for slot in layout.slots[:cards]]


def cut_frame(layout: SheetLayout) -> Rect:
    """The frame of the cut files: the whole page, or Design Space's image area for Cricut."""
    if layout.spec.cutter == "cricut":
        return cricut_area(layout.page_width, layout.page_height)
    return Rect(x=0, y=0, width=layout.page_width, height=layout.page_height)


def svg_text(
    layout: SheetLayout, radius: float = CUT_CORNER_RADIUS, cards: int | None = None
) -> str:
    """The cut lines of ``layout`` (of its first ``cards`` slots: a sheet's cards) as an SVG
    document in millimetres.

    The document is the size of :func:`cut_frame` (``width``/``height`` in mm, a ``viewBox``
    of the same numbers), y pointing down as SVG has it; one closed path per card (straight
    edges and quarter arcs ``A``), a hairline red stroke and no fill, as cutting software
    expects cut lines.
    """
    frame = cut_frame(layout)
    paths = []
    for rect in cut_rects(layout, cards):
        x0, x1 = rect.x - frame.x, rect.right - frame.x
        y0, y1 = frame.top - rect.top, frame.top - rect.y  # SVG y grows downwards
        r = radius
        paths.append(
            f'  <path d="M {x0 + r:.4f} {y0:.4f} H {x1 - r:.4f} A {r:g} {r:g} 0 0 1 {x1:.4f} '
            f"{y0 + r:.4f} V {y1 - r:.4f} A {r:g} {r:g} 0 0 1 {x1 - r:.4f} {y1:.4f} H "
            f"{x0 + r:.4f} A {r:g} {r:g} 0 0 1 {x0:.4f} {y1 - r:.4f} V {y0 + r:.4f} A {r:g} "
            f'{r:g} 0 0 1 {x0 + r:.4f} {y0:.4f} Z"/>'
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{frame.width:g}mm" '
        f'height="{frame.height:g}mm" viewBox="0 0 {frame.width:g} {frame.height:g}">\n'
        f"  <title>Tablesmith cut lines: {len(paths)} cards, "
        f"{layout.spec.card.width:g} x {layout.spec.card.height:g} mm</title>\n"
        '  <g fill="none" stroke="#ff0000" stroke-width="0.1">\n'
        + "\n".join("  " + p for p in paths)
        + "\n  </g>\n</svg>\n"
    )


def write_dxf(
    layout: SheetLayout, path: Path, radius: float = CUT_CORNER_RADIUS, cards: int | None = None
) -> None:
    """Write the cut lines of ``layout`` (of its first ``cards`` slots) as a DXF (ezdxf, R2010,
    millimetres): one closed
    LWPOLYLINE with quarter-arc bulges per card, origin at the bottom-left corner of
    :func:`cut_frame`, y up (DXF's frame)."""
    import ezdxf
    from ezdxf import units

    frame = cut_frame(layout)
    doc = ezdxf.new("R2010")  # type: ignore[attr-defined]
    doc.units = units.MM
    doc.header["$INSUNITS"] = units.MM
    space = doc.modelspace()
    for rect in cut_rects(layout, cards):
        local = Rect(x=rect.x - frame.x, y=rect.y - frame.y, width=rect.width, height=rect.height)
        space.add_lwpolyline(rounded_rect_path(local, radius), format="xyb", close=True)
    doc.saveas(path)


DXF_EXTRA = "cutter"
"""The pyproject extra that installs ezdxf (the DXF cut lines)."""


class MissingExtraError(RuntimeError):
    """A feature needs a library of an extra that is not installed (the message says which
    ``pip install`` adds it)."""


def require_dxf() -> None:
    """Check that ezdxf, which writes the DXF cut lines, is installed, before anything is
    rendered (the slim ``pip install .`` leaves it out: it brings numpy and fontTools).

    Raises:
        MissingExtraError: ezdxf cannot be imported; the message names the extra.
    """
    import importlib.util

    if importlib.util.find_spec("ezdxf") is None:
        raise MissingExtraError(
            "--cutter writes DXF cut lines with ezdxf, which is not installed: "
            f"pip install 'tablesmith[{DXF_EXTRA}]'  (from a checkout: pip install -r requirements/{DXF_EXTRA}.txt)"
        )
