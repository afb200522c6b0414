"""Crop marks that sit on the cards' bleed, drawn over the faces.

When the cards fill the printable width or height exactly, :func:`printables.layout.layout_sheet`
may move the crop marks of that side onto the grid's outer bleed (artwork that is cut away).
The sheet furniture is drawn before the faces, so these marks would vanish under the art;
:func:`draw_marks_on_art` draws them again after the faces, with the same white halo under a
black line as every crop mark (visible on white paper and on dark art). Lengths in mm.
"""

from __future__ import annotations

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
