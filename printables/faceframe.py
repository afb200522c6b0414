"""The static frame of a card face: the bleed colour, the inner panel, the header band and the
type band, drawn once per frame, card size and bleed as a form XObject (ReportLab).

Face mm from the card's trim bottom-left corner (:class:`printables.painter.Painter`); fixed
sizes are for a 63 x 88 mm card and scale with :attr:`Painter.unit`.
"""

from __future__ import annotations

from games.cards.anatomy import Frame
from printables.icons import colour_of, defined_forms
from printables.layout import Rect
from printables.painter import SAFE_MARGIN, Painter
from printables.units import MM

PANEL = "#fbfaf6"
"""Background of the card's inner panel."""


def frame_form(p: Painter, frame: Frame) -> None:
    """The static frame of ``frame`` cards of this size: the edge colour (``frame.edge``, else
    the frame colour) over the bleed, panel, header band, type band, kind decoration. One form
    XObject per frame key, edge colour, size and bleed."""
    c = p.canvas
    w, h, b, u = p.trim.width, p.trim.height, p.bleed, p.unit
    name = f"frame-{frame.key}{frame.edge.lstrip('#')}-{w:g}x{h:g}-b{b:g}"
    defined = defined_forms(c)
    if name not in defined:
        c.beginForm(name, -b * MM, -b * MM, (w + b) * MM, (h + b) * MM)
        local = Painter(canvas=c, trim=Rect(x=0, y=0, width=w, height=h), bleed=b, card_name="")
        colour = frame.colour
        local.fill(local.bleed_box, frame.edge or colour)
        inner = Rect(x=0, y=0, width=w, height=h).inset(2.2)
        if frame.cut_corners:
            cut = 4.0 * u
            path = c.beginPath()
            x0, y0, x1, y1 = (v * MM for v in (inner.x, inner.y, inner.right, inner.top))
            k = cut * MM
            for i, (x, y) in enumerate(
                (
                    (x0 + k, y0),
                    (x1 - k, y0),
                    (x1, y0 + k),
                    (x1, y1 - k),
                    (x1 - k, y1),
                    (x0 + k, y1),
                    (x0, y1 - k),
                    (x0, y0 + k),
                )
            ):
                path.moveTo(x, y) if i == 0 else path.lineTo(x, y)
            path.close()
            c.setFillColor(colour_of(PANEL))
            c.drawPath(path, stroke=0, fill=1)
        else:
            local.fill(inner, PANEL, radius=frame.panel_radius)
        if frame.double_rule:
            c.setStrokeColor(colour_of(colour))
            for inset, width in ((0.5, 1.2), (1.3, 0.5)):
                r = inner.inset(inset)
                c.setLineWidth(width)
                c.roundRect(
                    r.x * MM, r.y * MM, r.width * MM, r.height * MM, 1.6 * MM, stroke=1, fill=0
                )
        s = SAFE_MARGIN
        head = header_box(w, h, u)
        local.fill(head, frame.header, radius=1.2)
        band = band_box(w, h, u)
        local.fill(band, "#ffffff", radius=0.8, stroke=colour, width_pt=0.5)
        if frame.stripe:  # a metal stripe under the header
            local.fill(Rect(x=s, y=head.y - 0.6, width=w - 2 * s, height=0.6), "#b0bec5")
        c.endForm()
        defined.add(name)
    c.saveState()
    c.translate(*p.pt(0, 0))
    c.doForm(name)
    c.restoreState()


def header_box(w: float, h: float, u: float) -> Rect:
    """The header band of a ``w`` x ``h`` mm card at scale ``u`` (:attr:`Painter.unit`),
    face mm: inside the safe margin at the top, 8.5 mm high on a 63 x 88 mm card."""
    s = SAFE_MARGIN
    return Rect(x=s, y=h - s - 8.5 * u, width=w - 2 * s, height=8.5 * u)


def band_box(w: float, h: float, u: float) -> Rect:
    """The type band under :func:`header_box`, face mm (5.2 mm high on a 63 x 88 mm card)."""
    head = header_box(w, h, u)
    return Rect(x=SAFE_MARGIN, y=head.y - 0.8 - 5.2 * u, width=w - 2 * SAFE_MARGIN, height=5.2 * u)
