"""The PDF page boxes of card pages, in millimetres: where a print shop finds the trim.

Pure maths in the page frame of :mod:`printables.layout` (origin bottom-left, x right, y up,
mm); :meth:`printables.pdfcanvas.BackgroundCanvas.set_page_boxes` writes them in points.

PDF 32000-1:2008, 14.11.2 ("Page boundaries"): the *MediaBox* is the paper; the *BleedBox*
is the region the page is clipped to in production (the trim plus the bleed); the *TrimBox*
is the intended size of the finished piece after trimming. Each lies inside the one before.
PDF/X (ISO 15930) makes TrimBox and BleedBox mandatory; print-on-demand card shops read them
to find the cut.

Decisions:

* A sheet's TrimBox is the trim of its card area: the bounding box of every slot's trim box
  (the whole grid, also on a last sheet that is not full, so fronts and backs agree); its
  BleedBox is the grid of bleed boxes. Without bleed the two are equal. The crop marks,
  heading, ruler and note lie outside the TrimBox: they are printer's marks.
* Both boxes follow what the page's drawing does with the cards: the print scale about the
  page centre, and on back pages the back adjustment (shift and rotation): the boxes are the
  bounding boxes of the moved corners, kept inside the MediaBox.
* One card per page (``--layout single``): the page is the card's trim plus the bleed on
  every side; MediaBox = BleedBox, TrimBox = the card (:func:`single_page`).
"""

from __future__ import annotations

from dataclasses import dataclass

from printables.duplex import BackAdjust, PrintScale, adjust_point, scale_point
from printables.geometry import Rect
from printables.layout import CardSize, SheetLayout

POD_BLEED = 3.175
"""The bleed print-on-demand card shops ask for on every side, mm: 1/8 in (DriveThruCards,
The Game Crafter, MakePlayingCards and PrinterStudio templates; see docs/print-cards.md)."""


@dataclass(frozen=True, kw_only=True)
class PageBoxes:
    """The boxes of one page in the page frame, mm.

    Attributes:
        media: the paper (origin at 0, 0).
        bleed: the trim grown by the bleed, inside ``media``.
        trim: the finished size, inside ``bleed``.
    """

    media: Rect
    bleed: Rect
    trim: Rect


def _bounds(points: list[tuple[float, float]], media: Rect) -> Rect:
    """The bounding box of ``points`` (mm), clipped to ``media``."""
    x0 = max(media.x, min(x for x, _ in points))
    y0 = max(media.y, min(y for _, y in points))
    x1 = min(media.right, max(x for x, _ in points))
    y1 = min(media.top, max(y for _, y in points))
    return Rect(x=x0, y=y0, width=max(0.0, x1 - x0), height=max(0.0, y1 - y0))


def sheet_boxes(
    layout: SheetLayout, scale: PrintScale, adjust: BackAdjust | None = None
) -> PageBoxes:
    """The MediaBox, BleedBox and TrimBox of a sheet of ``layout`` (mm, page frame).

    Args:
        layout: the sheet.
        scale: the print scale the page is drawn with (about the page centre).
        adjust: the back adjustment of a back page (rotation about the page centre, then the
            shift), or None for a front page.
    """
    w, h = layout.page_width, layout.page_height
    media = Rect(x=0.0, y=0.0, width=w, height=h)
    first, last = layout.slots[0], layout.slots[-1]
    trim = Rect(
        x=first.trim.x,
        y=last.trim.y,
        width=last.trim.right - first.trim.x,
        height=first.trim.top - last.trim.y,
    )

    def moved(rect: Rect) -> Rect:
        corners = [(x, y) for x in (rect.x, rect.right) for y in (rect.y, rect.top)]
        if adjust is not None:
            corners = [
                adjust_point(x, y, page_width=w, page_height=h, adjust=adjust) for x, y in corners
            ]
        corners = [scale_point(x, y, page_width=w, page_height=h, scale=scale) for x, y in corners]
        return _bounds(corners, media)

    return PageBoxes(media=media, bleed=moved(layout.grid), trim=moved(trim))


def single_page(card: CardSize, bleed: float) -> PageBoxes:
    """The page of one card at trim plus ``bleed`` mm on every side: MediaBox = BleedBox,
    TrimBox = the card's trim, ``bleed`` mm in from every edge."""
    media = Rect(x=0.0, y=0.0, width=card.width + 2 * bleed, height=card.height + 2 * bleed)
    return PageBoxes(media=media, bleed=media, trim=media.inset(bleed))
