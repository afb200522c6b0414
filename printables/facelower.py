"""The lower part of a card face: the bottom zone (a QR code in one corner, the defense corner
or the mirrored badge in the other), the rules text box, the legend and build stars, the stats
row and the art window above them.

The rules text sits between the two corners where that column is wide enough
(:data:`WIDE_TEXT_MM`); where it is narrower and the art keeps :data:`MIN_WIDE_ART_MM`, the
text box spans the card's width above the bottom zone instead, so a 63 mm card's text is not
set in a 24 mm column. A text of symbols only (``★ ★``, ``→ +2``: no letter) is centred in
its box. A card without text and without an ``empty_text`` gets no empty box. The text box
grows upwards (the art gives way) when the text needs it.

Face mm from the card's trim bottom-left corner (:class:`printables.painter.Painter`); text
sizes in pt; fixed sizes are for a 63 x 88 mm card and scale with :attr:`Painter.unit`.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path

from games.cards.anatomy import FaceContent
from printables.badge import draw_badge
from printables.facebox import CAP as CAP_EM
from printables.fonts import REGULAR
from printables.icons import colour_of
from printables.layout import Rect
from printables.painter import INK, MIN_TEXT_PT, SAFE_MARGIN, Painter, fitted_paragraph
from printables.patterns import draw_pattern
from printables.text import Overflow
from printables.units import MM

MAX_TEXT_PT = 8.5
"""Starting font size for rules text on a 63 x 88 mm card, pt."""
MIN_ART_MM = 10.0
"""Lowest art window on a 63 x 88 mm card, mm (the art gives way to long rules text)."""
WIDE_TEXT_MM = 34.0
"""Narrowest column between the bottom corners that keeps the rules text, on a 63 x 88 mm
card, mm; below it the text spans the card's width above the bottom zone."""
MIN_WIDE_ART_MM = 18.0
"""Art height a card keeps when its text moves to the full width, on a 63 x 88 mm card, mm."""
TEXT_BOX = "#f1ece0"
"""Background of the rules text box."""


def symbols_only(text: str) -> bool:
    """True if ``text`` has no letter (Unicode category L*): a symbol or number line such as
    ``★ ★`` or ``→ +2``, set centred in its box."""
    return bool(text.strip()) and not any(unicodedata.category(ch)[0] == "L" for ch in text)


@dataclass(frozen=True, kw_only=True)
class _Plan:
    """Where the parts of the lower half go, face mm.

    Attributes:
        qr_x: the QR code's left edge (its bottom is at the safe margin).
        corner_w: the edge of the defense corner or mirrored badge (0: none).
        zone_h: the bottom zone's height.
        text: the text box's left, right and bottom.
        stats_h: the stats row's height (0: no stats).
        legend_h: the legend line's height inside the text box (0: none).
        stars_h: the build stars' height inside the text box (0: elsewhere or none).
    """

    qr_x: float
    corner_w: float
    zone_h: float
    text: tuple[float, float, float]
    stats_h: float
    legend_h: float
    stars_h: float


def lower_half(
    p: Painter, face: FaceContent, image: Path | None, top: float, qr_edge: float
) -> float:
    """Art (``image``, or the pattern where None), stats and the bottom zone below ``top``
    (mm): the bottom zone keeps one corner free for a QR code of edge ``qr_edge`` mm (0: none),
    holds the defense corner or the mirrored badge in the other, and the rules text between
    them or above them (see the module docstring).

    Returns:
        The x of the QR code's left edge, face mm (its bottom is at ``SAFE_MARGIN``).
    """
    plan = _plan(p, face, qr_edge, top)
    _corners(p, face, plan)
    box = _text_box(p, face, plan, top)
    _legend_and_stars(p, face, plan, box)
    stats_y = box.top + 1.0
    if face.stats:
        _stats(p, face, stats_y, plan.stats_h)
    art_bottom = stats_y + plan.stats_h + 1.0 if face.stats else box.top + 1.0
    width = p.trim.width - 2 * SAFE_MARGIN
    art = Rect(x=SAFE_MARGIN, y=art_bottom, width=width, height=top - art_bottom)
    _art(p, face, image, art, box, top)
    return plan.qr_x


def _plan(p: Painter, face: FaceContent, qr_edge: float, top: float) -> _Plan:
    """The :class:`_Plan` of ``face``: corners, bottom zone and the text box's place."""
    w, u, s = p.trim.width, p.unit, SAFE_MARGIN
    qr_left = face.defense_corner is not None or face.mirror_index
    corner_w = (
        10.5 * u if face.defense_corner is not None else (8.8 * u if face.mirror_index else 0.0)
    )
    left_w = qr_edge if qr_left else 0.0
    right_w = corner_w if qr_left else qr_edge
    zone_h = max(
        qr_edge,
        corner_w + (5.5 * u if face.stars and face.defense_corner is not None else 0.0),
        14.0 * u,
    )
    tx = s + (left_w + 1.0 if left_w else 0.0)
    tr = w - s - (right_w + 1.0 if right_w else 0.0)
    base = s
    stats_h = 11.0 * u if face.stats else 0.0
    if tr - tx < 24.0:  # a narrow card: the text box goes above the bottom zone
        tx, tr, base = s, w - s, s + zone_h + 1.0
    elif face.text[0] and tr - tx < WIDE_TEXT_MM * u:
        room = top - (s + zone_h + 1.0) - (stats_h + 1.0 if stats_h else 0.0)
        need = _text_need(p, face, w - 2 * s)
        if need is not None and room - need - 1.0 >= MIN_WIDE_ART_MM * u:
            tx, tr, base = s, w - s, s + zone_h + 1.0
    return _Plan(
        qr_x=s if qr_left else w - s - qr_edge,
        corner_w=corner_w,
        zone_h=zone_h,
        text=(tx, tr, base),
        stats_h=stats_h,
        legend_h=4.6 * u if face.legend else 0.0,
        stars_h=5.2 * u if _stars_in_box(face) else 0.0,
    )


def _text_need(p: Painter, face: FaceContent, width: float) -> float | None:
    """The height of a text box ``width`` mm wide that holds the rules text at the starting
    size (its padding, legend and stars included), mm; None if it would need more than the
    card's height."""
    u = p.unit
    max_pt = max(MAX_TEXT_PT * u, MIN_TEXT_PT)
    para, _ = fitted_paragraph(
        face.text[0], round((width - 2.4) * MM, 2), round(p.trim.height * MM, 2), max_pt, max_pt, 0
    )
    if para is None:
        return None
    reserved = (4.6 * u if face.legend else 0.0) + (5.2 * u if _stars_in_box(face) else 0.0)
    return max(8.0 * u, float(para.height) / MM + 2.0 + reserved)


def _stars_in_box(face: FaceContent) -> bool:
    """The build stars go into the text box: not above a defense corner, not in the badge."""
    return bool(face.stars) and face.defense_corner is None and face.badge.icon != "star"


def _corners(p: Painter, face: FaceContent, plan: _Plan) -> None:
    """The defense corner (its value, symbol and ``DEF``) or the mirrored badge, bottom right."""
    w, u, s = p.trim.width, p.unit, SAFE_MARGIN
    if face.defense_corner is not None:
        edge = plan.corner_w
        x0 = w - s - edge
        p.fill(Rect(x=x0, y=s, width=edge, height=edge), face.corner_colour, radius=1.4)
        p.icon("defense", x0 + 0.8, s + edge - 4.0 * u, 3.2 * u, "#ffffff")
        label_pt = max(MIN_TEXT_PT, 4.8 * u)
        label_top = s + 0.8 + CAP_EM * label_pt / MM
        # the value between the word and the icon in the box's top-left corner
        icon_bottom = s + edge - 4.0 * u
        value_pt = min(15 * u, (icon_bottom - 0.3 - (label_top + 0.5)) * MM / CAP_EM)
        p.centred(
            str(face.defense_corner),
            x0 + edge / 2 + 1.2 * u,
            label_top + 0.5,
            value_pt,
            "defense",
            "#ffffff",
        )
        p.centred("DEF", x0 + edge / 2, s + 0.8, label_pt, "defense", "#ffffff")
    if face.mirror_index:
        mr = plan.corner_w / 2
        draw_badge(p, face.badge, w - s - mr, s + mr, mr, upside_down=True)


def _text_box(p: Painter, face: FaceContent, plan: _Plan, top: float) -> Rect:
    """Draw the rules text box and its text (or the face's ``empty_text``); returns the box.
    A card with neither gets the box's place left empty, not an empty box."""
    h, u, s = p.trim.height, p.unit, SAFE_MARGIN
    tx, tr, base = plan.text
    avail = top - base - (plan.stats_h + 1.0 if plan.stats_h else 0.0)
    art_default = min(0.34 * h, avail - plan.zone_h - 1.0)
    text, field_name = face.text
    inner_w = tr - tx - 2.4
    max_pt = max(MAX_TEXT_PT * u, MIN_TEXT_PT)
    reserved = plan.legend_h + plan.stars_h
    if base == s:
        box_h = max(plan.zone_h, avail - art_default - 1.0)
    else:  # above the bottom zone: as high as the text needs, the art keeps the rest
        need = _text_need(p, face, tr - tx) if text else None
        most = avail - MIN_ART_MM * u - 1.0  # the art keeps its least height
        box_h = min(need, most) if need is not None else avail - art_default - 1.0
        box_h = max(box_h, 8.0 * u)
    if text:
        fits = fitted_paragraph(
            text,
            round(inner_w * MM, 2),
            round((box_h - 2.0 - reserved) * MM, 2),
            max_pt,
            min(7.0 * u, max_pt),
            0,
        )[0]
        if fits is None:
            box_h = max(box_h, avail - MIN_ART_MM * u - 1.0)
    box = Rect(x=tx, y=base, width=tr - tx, height=box_h)
    if not (text or face.empty_text or face.legend or plan.stars_h):
        return box
    p.fill(box, TEXT_BOX, radius=1.0)
    if text:
        p.text_block(
            text,
            Rect(x=tx + 1.2, y=base + 1.0 + reserved, width=inner_w, height=box_h - 2.0 - reserved),
            field_name=field_name,
            max_pt=max_pt,
            align=1 if symbols_only(text) else 0,
            middle=symbols_only(text),
        )
    elif face.empty_text:
        p.line(
            face.empty_text,
            box.x,
            box.y + box.height / 2 - 1.0,
            box.width,
            max_pt=7 * u,
            min_pt=MIN_TEXT_PT,
            field_name="text",
            colour="#8a8172",
            align="centre",
        )
    return box


def _legend_and_stars(p: Painter, face: FaceContent, plan: _Plan, box: Rect) -> None:
    """The legend line (battle icons with their words) at the bottom of the text box, and the
    build stars: above the defense corner, or in the text box."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    w, u, s = p.trim.width, p.unit, SAFE_MARGIN
    tx, tr, base = plan.text
    y = base + 1.0
    if face.legend:
        x = tx + 1.2
        for symbol, colour, words in face.legend:
            size = 3.4 * u
            if x + size + 10 > tr:
                break
            p.fill(
                Rect(x=x, y=y, width=size, height=size),
                colour,
                radius=0.6,
                stroke="#888888",
                width_pt=0.3,
            )
            fg = "#111111" if colour == "#ffffff" else "#ffffff"
            p.icon(symbol, x + 0.5, y + 0.5, size - 1.0, fg)
            used = p.line(
                words,
                x + size + 0.7,
                y + 0.9 * u,
                18 * u,
                max_pt=max(5.6 * u, MIN_TEXT_PT),
                min_pt=MIN_TEXT_PT,
                field_name="legend",
                colour="#444444",
            )
            x += size + 1.6 + stringWidth(words, REGULAR, used or 5.0) / MM + 1.8
        y += plan.legend_h
    size = 4.0 * u
    if face.stars and face.defense_corner is not None:
        x0 = w - s - plan.corner_w
        p.icon("star", x0 + 0.3, s + plan.corner_w + 0.8, size, "#c9a227")
        _stars_number(
            p,
            face.stars,
            x0 + size + 0.8,
            s + plan.corner_w + 1.4,
            plan.corner_w - size - 1,
            10 * u,
        )
    elif plan.stars_h:
        p.icon("star", tx + 1.2, y, size, "#c9a227")
        _stars_number(p, face.stars, tx + 1.2 + size + 0.8, y + 0.7, 8, 9 * u)


def _stars_number(p: Painter, stars: int, x: float, y: float, width: float, max_pt: float) -> None:
    """The number of build stars, bold gold, its baseline starting at (x, y) mm."""
    p.line(
        str(stars),
        x,
        y,
        width,
        max_pt=max_pt,
        min_pt=6,
        field_name="stars",
        bold=True,
        colour="#8d6e00",
    )


def _stats(p: Painter, face: FaceContent, stats_y: float, stats_h: float) -> None:
    """The stats row at ``stats_y`` mm: a cell per stat with its symbol, value and word."""
    w, u, s = p.trim.width, p.unit, SAFE_MARGIN
    slot = (w - 2 * s) / max(len(face.stats), 3)
    first = s + ((w - 2 * s) - slot * len(face.stats)) / 2
    for i, stat in enumerate(face.stats):
        x0 = first + slot * i
        cell = Rect(x=x0 + 0.5, y=stats_y, width=slot - 1.0, height=stats_h)
        p.fill(cell, "#ffffff", radius=1.2, stroke=stat.colour, width_pt=1.0)
        d = 4.4 * u
        p.disc_icon(
            stat.icon, x0 + 0.5 + 1.0 + d / 2, stats_y + stats_h - 1.0 - d / 2, d, stat.colour
        )
        p.line(
            stat.value,
            x0 + 0.5 + d + 1.4,
            stats_y + stats_h - 1.2 - d * 0.85,
            slot - d - 2.6,
            max_pt=15 * u,
            min_pt=8,
            field_name="stats",
            bold=True,
            colour=INK,
        )
        p.line(
            stat.label,
            x0 + 0.5,
            stats_y + 1.2,
            slot - 1.0,
            max_pt=max(5.2 * u, MIN_TEXT_PT),
            min_pt=MIN_TEXT_PT,
            field_name="stats",
            bold=True,
            colour=stat.colour,
            align="centre",
        )


def _art(
    p: Painter, face: FaceContent, image: Path | None, art: Rect, box: Rect, top: float
) -> None:
    """The art window ``art`` (mm): the image, or the frame's generated pattern, with a rule
    in the header colour; a problem of the card when less than 3 mm is left for it."""
    c = p.canvas
    if art.height < 3.0:
        parts = (["the stats row"] if face.stats else []) + [f"the text box ({box.height:.1f} mm)"]
        below = top - box.y
        reason = (
            f"does not fit: {' and '.join(parts)} "
            f"{'leave' if len(parts) > 1 else 'leaves'} {max(art.height, 0):.1f} mm of the "
            f"{below:.1f} mm below the type band for the art window, which needs 3 mm"
            if below > 0
            else f"does not fit: the header and type band fill the {p.trim.height:g} mm high card"
        )
        field_name = "stats" if face.stats else face.text[1]
        p.problems.append(Overflow(card=p.card_name, field=field_name, reason=reason))
        return
    if image is not None:
        p.image(image, art)
    else:
        draw_pattern(
            c,
            face.frame.pattern,
            face.art_key or face.title,
            face.frame.colour,
            *p.pt(art.x, art.y),
            art.width * MM,
            art.height * MM,
        )
    c.setStrokeColor(colour_of(face.frame.header))
    c.setLineWidth(0.6)
    c.rect(*p.pt(art.x, art.y), art.width * MM, art.height * MM, stroke=1, fill=0)
    if face.art_bar:
        p.fill(Rect(x=art.x, y=art.y, width=art.width, height=2.2 * p.unit), face.art_bar)
