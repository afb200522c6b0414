"""The corner badge of a card face: a disc with the number a fanned hand needs, a small symbol
or word under it (``JOKER``), optionally drawn upside down for the mirrored index.

Face mm from the card's trim bottom-left corner (:class:`printables.painter.Painter`); text
sizes in pt.
"""

from __future__ import annotations

from dataclasses import replace

from games.cards.anatomy import Badge
from printables.facebox import CAP as CAP_EM
from printables.facebox import Box, text_extent
from printables.fonts import BOLD
from printables.icons import colour_of
from printables.layout import Rect
from printables.painter import MIN_TEXT_PT, Painter
from printables.units import MM


def draw_badge(
    p: Painter, badge: Badge, cx: float, cy: float, r: float, *, upside_down: bool = False
) -> None:
    """The badge disc of radius ``r`` mm centred at (cx, cy) mm, its value, and a small
    symbol or word under the value. The word (``JOKER``) is set at 6 pt at the least and
    left out where it would not fit inside the disc at that size (the mirrored index of a
    troop: the value alone repeats the corner). Upside down, the drawing and its recorded
    boxes turn 180 degrees about the centre."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    c = p.canvas
    first = len(p.boxes)
    c.saveState()
    if upside_down:
        px, py = p.pt(cx, cy)
        c.translate(px, py)
        c.rotate(180)
        c.translate(-px, -py)
    c.setFillColor(colour_of(badge.colour))
    c.setStrokeColor(colour_of("#ffffff"))
    c.setLineWidth(1.2)
    c.circle(*p.pt(cx, cy), r * MM, stroke=1, fill=1)
    p.boxes.append(
        Box(what="badge", rect=Rect(x=cx - r, y=cy - r, width=2 * r, height=2 * r), container=True)
    )
    label_size = max(MIN_TEXT_PT, 0.3 * r * MM)
    label_y = cy - 0.62 * r
    # The word's top corners must stay inside the disc (the chord at its cap height).
    label_top = abs(label_y + CAP_EM * label_size / MM - cy)
    chord = 2 * (max(r * r - max(label_top, cy - label_y) ** 2, 0.0)) ** 0.5 - 0.6
    label = badge.label if stringWidth(badge.label, BOLD, label_size) / MM <= chord else ""
    if not badge.value:
        if badge.icon:
            p.icon(badge.icon, cx - 0.62 * r, cy - 0.62 * r, 1.24 * r, "#ffffff")
    else:
        small = bool(badge.icon or label)
        fit = 1.0 if len(badge.value) == 1 else (0.82 if len(badge.value) == 2 else 0.64)
        size = r * MM * (1.05 if small else 1.3) * fit  # pt; cap height is ~0.73 of it
        dark = "#111111" if badge.colour in ("#f9a825", "#ffca28", "#ffffff") else "#ffffff"
        cap = CAP_EM * size / MM
        baseline = cy - cap / 2 + (0.22 * r if small else 0.0)
        if label:  # clear of the word under it, descender (J) included
            below = text_extent(badge.value, size)[0]
            baseline = max(baseline, label_y + CAP_EM * label_size / MM + 0.3 + below)
        p.centred(badge.value, cx, baseline, size, "badge", dark)
        if badge.icon:
            p.icon(badge.icon, cx - 0.22 * r, cy - 0.8 * r, 0.44 * r, dark)
        elif label:
            p.centred(label, cx, label_y, label_size, "badge", dark)
    c.restoreState()
    if upside_down:
        p.boxes[first:] = [
            replace(
                box,
                rect=Rect(
                    x=2 * cx - box.rect.right,
                    y=2 * cy - box.rect.top,
                    width=box.rect.width,
                    height=box.rect.height,
                ),
            )
            for box in p.boxes[first:]
        ]
