"""Crop marks that sit on the cards' bleed, drawn over the faces.

When the cards fill the printable width or height exactly, :func:`printables.layout.layout_sheet`
may move the crop marks of that side onto the grid's outer bleed (artwork that is cut away).
The sheet furniture is drawn before the faces, so these marks would vanish under the art;
:func:`draw_marks_on_art` draws them again after the faces, with the same white halo under a
black line as every crop mark (visible on white paper and on dark art). Lengths in mm.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from printables.icons import colour_of
from printables.layout import Rect, Segment, SheetLayout
from printables.units import MM

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas


def marks_on_art(layout: SheetLayout) -> list[Segment]:
    """The crop marks of ``layout`` that overlap any card's bleed box."""
    found = []
    for mark in layout.crop_marks:
        box = Rect(
            x=min(mark.x0, mark.x1),
            y=min(mark.y0, mark.y1),
            width=abs(mark.x1 - mark.x0),
            height=abs(mark.y1 - mark.y0),
        ).inset(-0.01)
        if any(box.overlaps(slot.bleed) for slot in layout.slots):
            found.append(mark)
    return found


def draw_marks_on_art(c: Canvas, layout: SheetLayout) -> None:
    """Draw the crop marks that lie on a bleed box again, over the faces already drawn
    (0.3 pt black on a 1.4 pt white halo). Does nothing when every mark is off the cards."""
    marks = marks_on_art(layout)
    if not marks:
        return
    c.saveState()
    for width, colour in ((1.4, "#ffffff"), (0.3, "#000000")):
        c.setLineWidth(width)
        c.setStrokeColor(colour_of(colour))
        for seg in marks:
            c.line(seg.x0 * MM, seg.y0 * MM, seg.x1 * MM, seg.y1 * MM)
    c.restoreState()


def marks_for_cards(layout: SheetLayout, count: int) -> SheetLayout:
    """``layout`` for a sheet whose first ``count`` slots hold cards: only the crop marks that
    continue a trim line of a card on it and sit next to that card (in the gap beside it, or
    just outside the grid beside it). An empty slot gets no marks, so nobody cuts it out. A
    full sheet's layout is returned as it is."""
    if count >= layout.per_page:
        return layout
    used = layout.slots[:count]
    grid = layout.grid
    reach = layout.spec.gutter + layout.spec.bleed + 0.01

    def wanted(mark: Segment) -> bool:
        vertical = abs(mark.x0 - mark.x1) < 1e-9
        at = mark.x0 if vertical else mark.y0
        low, high = sorted((mark.y0, mark.y1) if vertical else (mark.x0, mark.x1))
        grid_low, grid_high = (grid.y, grid.top) if vertical else (grid.x, grid.right)
        beyond = max(grid_low - high, low - grid_high, 0.0)  # an outer mark's gap to the grid
        for slot in used:
            t = slot.trim
            edges = (t.x, t.right) if vertical else (t.y, t.top)
            start, end = (t.y, t.top) if vertical else (t.x, t.right)
            gap = max(low - end, start - high, 0.0)
            if any(abs(at - edge) < 1e-6 for edge in edges) and gap <= beyond + reach:
                return True
        return False

    return replace(layout, crop_marks=tuple(m for m in layout.crop_marks if wanted(m)))
