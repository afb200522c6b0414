"""The generated card back: the deck's colour over the bleed, a fine lattice, a double frame,
an emblem and centred words, for decks that bring no back image.

Face mm from the card's trim bottom-left corner, like the faces (:mod:`printables.faces`).
"""

from __future__ import annotations

from printables.icons import colour_of, mix
from printables.layout import Rect
from printables.painter import SAFE_MARGIN, Painter
from printables.units import MM


def draw_generated_back(p: Painter, *, colour: str, text: str, subtitle: str) -> None:
    """A generated back: ``colour`` over the bleed, a fine diagonal lattice, a double frame,
    an emblem and centred words."""
    c = p.canvas
    w, h = p.trim.width, p.trim.height
    p.fill(p.bleed_box, colour)
    box = p.bleed_box
    # White at 12 % / 15 % over the back colour, as solid colours: the back is a form XObject,
    # and ReportLab does not give a form the ExtGState an alpha needs (viewers then report
    # "ExtGState 'gRLs0' is unknown" and may draw the lattice opaque).
    c.saveState()
    c.setStrokeColor(mix(colour, "#ffffff", 0.12))
    c.setLineWidth(0.5)
    step = 4.0
    k = -box.height
    while k < box.width:
        c.line(*p.pt(box.x + k, box.y), *p.pt(box.x + k + box.height, box.top))
        c.line(*p.pt(box.x + k + box.height, box.y), *p.pt(box.x + k, box.top))
        k += step
    c.restoreState()
    c.setStrokeColor(colour_of("#ffffff"))
    for inset, width in ((SAFE_MARGIN + 0.6, 1.4), (SAFE_MARGIN + 1.8, 0.5)):
        inner = Rect(x=0, y=0, width=w, height=h).inset(inset)
        c.setLineWidth(width)
        c.roundRect(
            *p.pt(inner.x, inner.y), inner.width * MM, inner.height * MM, 2 * MM, stroke=1, fill=0
        )
    mid = h / 2
    r = min(w, h) * 0.16
    c.setFillColor(mix(colour, "#ffffff", 0.15))
    c.circle(*p.pt(w / 2, mid + r * 0.9), r * MM, stroke=0, fill=1)
    p.icon("star", w / 2 - r * 0.55, mid + r * 0.35, r * 1.1, "#ffffff")
    p.line(
        text,
        6,
        mid - 5,
        w - 12,
        max_pt=16,
        min_pt=7,
        field_name="back.text",
        bold=True,
        colour="#ffffff",
        align="centre",
    )
    p.line(
        subtitle,
        6,
        mid - 11,
        w - 12,
        max_pt=8,
        min_pt=5,
        field_name="deck title",
        colour="#ffffff",
        align="centre",
    )
