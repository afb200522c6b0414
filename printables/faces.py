"""Card faces and generated backs, drawn with ReportLab onto a card's box on the page.

Every face follows one anatomy (:mod:`games.cards.anatomy`, drawn by :func:`standard_face`),
read at a glance at the size of a real card:

* a **badge** in the top-left corner with the number a fanned hand needs, optionally repeated
  upside down in the bottom-right corner, like playing cards;
* a **header** with the name (and corner icons or a mode tab at its right end), and a **type
  band** with the card kind and its icons as drawn symbols with their words next to them;
* an **art window** holding the card's image (cropped to fill) or a generated pattern
  (:mod:`printables.patterns`); it gives up height when the rules text needs it;
* a **stats row** of big numbers with their symbol and word;
* the **rules text** on a light box, left-aligned, 8.5 pt shrinking to 6 pt at the least, a
  lead-in before the first colon in bold ("Carrier power:");
* a **footer** with the QR code, build stars as a number with a star, a legend line, and an
  optional defense corner bottom-right (the QR code then goes bottom-left).

What a game's cards show (colours, frames, badges) is decided by the game's face builder
(:attr:`games.cards.cardgame.CardGame.face`, in ``games/<game>/cards.py``); this module draws
any :class:`~games.cards.anatomy.FaceContent` and names no game. The static parts of a frame
are one form XObject per frame and size, and everything on a face but its name and QR code is
one form XObject per card design (:func:`standard_face`), so copies and cards that differ only
in name are drawn once.

Coordinates inside a face are mm from the card's trim bottom-left corner; the content stays
inside ``SAFE_MARGIN``; the frame colour runs into the bleed. Fixed sizes are given for a
63 x 88 mm card and scale with the card (:attr:`Painter.unit`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.cards.anatomy import Badge, Chip, FaceContent, Frame
from games.cards.cardgame import CardGame
from games.cards.fields import ValidatedCard
from games.registry import CARD_GAMES
from printables.facebox import CAP as CAP_EM
from printables.facebox import Box, box_problems, overlap, text_extent
from printables.fonts import BOLD, REGULAR
from printables.icons import colour_of, defined_forms
from printables.layout import Rect
from printables.painter import INK, MIN_TEXT_PT, SAFE_MARGIN, Painter, fitted_paragraph
from printables.patterns import draw_pattern
from printables.qr import MIN_MODULE_MM, draw_qr, qr_size_mm
from printables.text import Overflow
from printables.units import MM

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

MAX_TEXT_PT = 8.5
"""Starting font size for rules text on a 63 x 88 mm card, pt."""
MIN_ART_MM = 10.0
"""Lowest art window on a 63 x 88 mm card, mm (the art gives way to long rules text)."""

PANEL = "#fbfaf6"
"""Background of the card's inner panel."""
TEXT_BOX = "#f1ece0"
"""Background of the rules text box."""


def _frame_form(p: Painter, frame: Frame) -> None:
    """The static frame of ``frame`` cards of this size: bleed colour, panel, header band,
    type band, kind decoration. One form XObject per frame key, size and bleed."""
    c = p.canvas
    w, h, b, u = p.trim.width, p.trim.height, p.bleed, p.unit
    name = f"frame-{frame.key}-{w:g}x{h:g}-b{b:g}"
    defined = defined_forms(c)
    if name not in defined:
        c.beginForm(name, -b * MM, -b * MM, (w + b) * MM, (h + b) * MM)
        local = Painter(canvas=c, trim=Rect(x=0, y=0, width=w, height=h), bleed=b, card_name="")
        colour = frame.colour
        local.fill(local.bleed_box, colour)
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
        head = _header_box(w, h, u)
        local.fill(head, frame.header, radius=1.2)
        band = _band_box(w, h, u)
        local.fill(band, "#ffffff", radius=0.8, stroke=colour, width_pt=0.5)
        if frame.stripe:  # a metal stripe under the header
            local.fill(Rect(x=s, y=head.y - 0.6, width=w - 2 * s, height=0.6), "#b0bec5")
        c.endForm()
        defined.add(name)
    c.saveState()
    c.translate(*p.pt(0, 0))
    c.doForm(name)
    c.restoreState()


def _header_box(w: float, h: float, u: float) -> Rect:
    s = SAFE_MARGIN
    return Rect(x=s, y=h - s - 8.5 * u, width=w - 2 * s, height=8.5 * u)


def _band_box(w: float, h: float, u: float) -> Rect:
    head = _header_box(w, h, u)
    return Rect(x=SAFE_MARGIN, y=head.y - 0.8 - 5.2 * u, width=w - 2 * SAFE_MARGIN, height=5.2 * u)


def _badge(
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


@dataclass(frozen=True, kw_only=True)
class _Design:
    """A card design drawn once as a form XObject: everything on a face except its name and
    QR code, with where those two go (face mm) and the text problems found drawing it.

    What does not change from card to card is checked once here: the design's own overlaps
    (``overlaps``) and the QR code's (``qr_found``: its safe margin, then its crossings with
    the design's boxes); ``edges`` holds each box's (left, right, bottom, top), mm, for the
    name's check per card."""

    form: str
    title: tuple[float, float, float]
    qr_x: float
    problems: tuple[tuple[str, str], ...]
    boxes: tuple[Box, ...] = ()
    overlaps: tuple[str, ...] = ()
    qr_box: Box | None = None
    qr_found: tuple[str, ...] = ()
    edges: tuple[tuple[float, float, float, float, Box], ...] = ()


_design_fields = attrgetter(
    *(f.name for f in fields(FaceContent) if f.name not in ("title", "art_key"))
)
"""The fields of a face that make its design (:func:`standard_face`) as a tuple: all but the
name and the art key (which is part of the design only without an image)."""


def _designs(c: Canvas) -> dict[tuple[Any, ...], _Design]:
    designs: dict[tuple[Any, ...], _Design] | None = getattr(c, "_tablesmith_designs", None)
    if designs is None:
        designs = {}
        c._tablesmith_designs = designs
    return designs


def standard_face(
    p: Painter, face: FaceContent, *, image: Path | None = None, qr_url: str | None = None
) -> None:
    """Draw ``face`` on the painter's card (see the module docstring for the anatomy), with
    ``image`` (an image file) in its art window, or a generated pattern where it is None,
    and the QR code of ``qr_url`` (none where it is None).

    Everything but the name and the QR code is one form XObject per card design (the face
    without its name and QR code, at this size and bleed; with an image the art is part of
    it, without one the generated pattern is, which differs per card id), defined on first
    use in the document: copies of a card, and cards that differ only in name, cost one
    ``Do`` each. Text problems found while drawing the design are reported for every card
    that uses it.
    """
    c = p.canvas
    qr_edge = qr_size_mm(qr_url) if qr_url else 0.0
    art_key = "" if image is not None else (face.art_key or face.title)
    key = (_design_fields(face), image, art_key, qr_edge, p.trim.width, p.trim.height, p.bleed)
    designs = _designs(c)
    design = designs.get(key)
    if design is None:
        design_face = replace(face, title="", art_key=art_key)
        design = _define_design(p, design_face, image, qr_edge, f"face{len(designs)}")
        designs[key] = design
    for field_name, reason in design.problems:
        p.problems.append(Overflow(card=p.card_name, field=field_name, reason=reason))
    c.saveState()
    c.translate(*p.pt(0, 0))
    c.doForm(design.form)
    c.restoreState()
    x, y, width = design.title
    first = len(p.boxes)
    p.line(
        face.title,
        x,
        y,
        width,
        max_pt=11.5 * p.unit,
        min_pt=MIN_TEXT_PT,
        field_name="name",
        bold=True,
        colour="#ffffff",
    )
    names = p.boxes[first:]
    found = list(design.overlaps)
    found += box_problems(names, p.trim.width, p.trim.height, SAFE_MARGIN)
    found += _crossings(names, design.edges)
    if qr_url and design.qr_box is not None:  # a design has its QR box iff its face has a QR
        draw_qr(c, qr_url, p.trim.x + design.qr_x, p.trim.y + SAFE_MARGIN, MIN_MODULE_MM)
        p.boxes.append(design.qr_box)
        found += _crossings(names, _edges((design.qr_box,)))
        found += design.qr_found
    if found:
        size = f"{p.trim.width:g} x {p.trim.height:g} mm"
        p.warnings.extend(f"card '{p.card_name}' ({size}): {line}" for line in found)


def _edges(boxes: Iterable[Box]) -> tuple[tuple[float, float, float, float, Box], ...]:
    """(left, right, bottom, top, box) of each box, face mm."""
    return tuple((b.rect.x, b.rect.right, b.rect.y, b.rect.top, b) for b in boxes)


def _crossings(
    own: Iterable[Box], others: tuple[tuple[float, float, float, float, Box], ...]
) -> list[str]:
    """The overlaps of the boxes ``own`` (the name, the QR code) with the boxes of
    ``others`` (as :func:`_edges` gives them), in the words of :func:`box_problems`."""
    found = []
    for box in own:
        a = box.rect
        left, right, bottom, top = a.x, a.right, a.y, a.top
        for x0, x1, y0, y1, other in others:
            if x0 >= right or left >= x1 or y0 >= top or bottom >= y1:
                continue  # the common case, decided without a call
            line = overlap(box, other)
            if line:
                found.append(line)
    return found


def _define_design(
    p: Painter, face: FaceContent, image: Path | None, qr_edge: float, name: str
) -> _Design:
    """Draw the form XObject ``name`` of ``face`` (a face without name and QR code; ``image``
    in its art window, or its pattern where None) at the painter's card size and bleed;
    return where the name and QR code go."""
    c = p.canvas
    w, h, b = p.trim.width, p.trim.height, p.bleed
    local = Painter(canvas=c, trim=Rect(x=0, y=0, width=w, height=h), bleed=b, card_name="")
    c.beginForm(name, -b * MM, -b * MM, (w + b) * MM, (h + b) * MM)
    title, band_bottom = _design_upper(local, face)
    qr_x = _lower_half(local, face, image, band_bottom - 1.0, qr_edge)
    c.endForm()
    defined_forms(c).add(name)
    edges = _edges(local.boxes)
    qr_box = None
    qr_found: list[str] = []
    if qr_edge:
        qr_box = Box(
            what="QR code", rect=Rect(x=qr_x, y=SAFE_MARGIN, width=qr_edge, height=qr_edge)
        )
        qr_found = box_problems([qr_box], w, h, SAFE_MARGIN) + _crossings([qr_box], edges)
    return _Design(
        form=name,
        title=title,
        qr_x=qr_x,
        problems=tuple((problem.field, problem.reason) for problem in local.problems),
        boxes=tuple(local.boxes),
        overlaps=tuple(box_problems(local.boxes, w, h, SAFE_MARGIN)),
        qr_box=qr_box,
        qr_found=tuple(qr_found),
        edges=edges,
    )


def _design_upper(p: Painter, face: FaceContent) -> tuple[tuple[float, float, float], float]:
    """Frame, corner icons, mode tab, badge and type band of ``face``; returns where the
    name goes, (x, baseline y, width), and the bottom of the lowest type band row, face
    mm."""
    w, h, u, s = p.trim.width, p.trim.height, p.unit, SAFE_MARGIN
    _frame_form(p, face.frame)
    head = _header_box(w, h, u)
    band = _band_box(w, h, u)
    # Badge: a disc overlapping the header's left end.
    r = 5.4 * u
    bx, by = s + r, h - s - r  # the disc inside the safe area, clear of the type band
    # Corner battle icons (TF-2) in the header's right end.
    icon_edge = 5.4 * u
    right = head.right - 1.0
    for i, (symbol, colour) in enumerate(face.corner_icons):
        x = right - (i + 1) * icon_edge - i * 0.6
        p.fill(
            Rect(x=x, y=head.y + (head.height - icon_edge) / 2, width=icon_edge, height=icon_edge),
            colour,
            radius=1.0,
            stroke="#ffffff",
            width_pt=0.7,
        )
        fg = "#111111" if colour == "#ffffff" else "#ffffff"
        p.icon(
            symbol,
            x + icon_edge * 0.18,
            head.y + (head.height - icon_edge) / 2 + icon_edge * 0.18,
            icon_edge * 0.64,
            fg,
        )
    if face.corner_icons:
        right -= len(face.corner_icons) * (icon_edge + 0.6) + 0.6
    if face.mode_tab:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        tab_w = max(12.5 * u, stringWidth(face.mode_tab, BOLD, MIN_TEXT_PT) / MM + 1.0)
        p.fill(
            Rect(x=right - tab_w, y=head.y + 1.4 * u, width=tab_w, height=head.height - 2.8 * u),
            "#eceff1",
            radius=1.0,
        )
        p.line(
            face.mode_tab,
            right - tab_w,
            head.y + head.height / 2 - 1.0 * u,
            tab_w,
            max_pt=7 * u,
            min_pt=MIN_TEXT_PT,
            field_name="mode",
            bold=True,
            colour="#263238",
            align="centre",
        )
        right -= tab_w + 1.0
    name_left = bx + r + 1.6
    title = (name_left, head.y + head.height / 2 - 1.45 * u, right - name_left)
    _badge(p, face.badge, bx, by, r)
    # Type band: kind label + subtitle on the left, chips (icon + word) on the right; chips
    # that leave the label no room go onto extra band rows below it (the art gives way).
    from reportlab.pdfbase.pdfmetrics import stringWidth

    chip_h = band.height - 1.4
    chip_font = max(MIN_TEXT_PT, 5.6 * u)
    rows = _chip_rows(p, face, band, chip_h, chip_font)
    for index, row in enumerate(rows):
        row_band = replace(band, y=band.y - index * (band.height + 0.8))
        if index:
            p.fill(row_band, "#ffffff", radius=0.8, stroke=face.frame.colour, width_pt=0.5)
        _chips(p, row, row_band, chip_h, chip_font)
    x = _chips_left(rows[0], band, chip_h, chip_font) if rows else band.right - 0.8
    left = band.x + 1.2
    label_size = p.line(
        face.kind_label,
        left,
        band.y + band.height / 2 - 0.9 * u,
        max(x - left - 1.0, 6.0),
        max_pt=7.0 * u,
        min_pt=MIN_TEXT_PT,
        field_name="type",
        bold=True,
        colour=face.frame.colour,
    )
    if face.subtitle and label_size:
        used = stringWidth(face.kind_label, BOLD, label_size) / MM + 1.4
        room = x - left - used - 1.0
        if room > 8:
            p.line(
                face.subtitle,
                left + used,
                band.y + band.height / 2 - 0.9 * u,
                room,
                max_pt=6.5 * u,
                min_pt=MIN_TEXT_PT,
                field_name="subtitle",
                colour="#555555",
            )
        else:
            p.problems.append(
                Overflow(
                    card=p.card_name,
                    field="subtitle",
                    reason=f"no room on the type band ({room:.1f} mm left)",
                )
            )
    bottom = band.y - max(len(rows) - 1, 0) * (band.height + 0.8)
    return title, bottom


def _chip_width(chip: Chip, chip_h: float, chip_font: float) -> float:
    """Width of one chip and the gap before it, mm."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return float(stringWidth(chip.word, BOLD, chip_font)) / MM + chip_h + 1.6


def _chips_left(row: tuple[Chip, ...], band: Rect, chip_h: float, chip_font: float) -> float:
    """The x where a row of chips right-aligned on ``band`` begins, mm."""
    return band.right - 0.8 - sum(_chip_width(chip, chip_h, chip_font) for chip in row)


def _chip_rows(
    p: Painter, face: FaceContent, band: Rect, chip_h: float, chip_font: float
) -> list[tuple[Chip, ...]]:
    """The chips of ``face`` in band rows: the first row beside the kind label (which keeps
    room for itself at 6 pt), the others full width. A chip wider than a whole row is a
    problem of the card."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if not face.chips:
        return []
    label = stringWidth(face.kind_label, BOLD, MIN_TEXT_PT) / MM + 2.2
    rows: list[list[Chip]] = [[]]
    room = band.width - 1.6 - label
    for chip in face.chips:
        need = _chip_width(chip, chip_h, chip_font)
        if need > room + 1e-9:
            rows.append([])
            room = band.width - 1.6
            if need > room + 1e-9:
                p.problems.append(
                    Overflow(
                        card=p.card_name,
                        field="icons",
                        reason=f"the icon '{chip.word}' needs {need:.1f} mm at "
                        f"{MIN_TEXT_PT:g} pt, the type band is {room:.1f} mm wide",
                    )
                )
                continue
        rows[-1].append(chip)
        room -= need
    return [tuple(row) for row in rows]


def _chips(p: Painter, row: tuple[Chip, ...], band: Rect, chip_h: float, chip_font: float) -> None:
    """Draw a row of chips (icon and word) right-aligned on ``band``."""
    x = band.right - 0.8
    for chip in reversed(row):
        x -= _chip_width(chip, chip_h, chip_font)
        p.fill(
            Rect(
                x=x, y=band.y + 0.7, width=_chip_width(chip, chip_h, chip_font) - 0.4, height=chip_h
            ),
            chip.colour,
            radius=chip_h / 2,
        )
        p.icon(chip.icon, x + 0.5, band.y + 0.7 + 0.4, chip_h - 0.8, "#ffffff")
        p.text(
            chip.word,
            x + chip_h + 0.1,
            band.y + 0.7 + chip_h / 2 - chip_font * 0.36 / MM,
            chip_font,
            "icon",
            colour="#ffffff",
        )


def _lower_half(
    p: Painter, face: FaceContent, image: Path | None, top: float, qr_edge: float
) -> float:
    """Art (``image``, or the pattern where None), stats and the bottom zone below ``top``
    (mm): the bottom zone keeps one corner
    free for a QR code of edge ``qr_edge`` mm (0: none), holds the defense corner or
    the mirrored badge in the other, and the rules text between them; the text box
    grows upwards (the art gives way) when the text needs it.

    Returns:
        The x of the QR code's left edge, face mm (its bottom is at ``SAFE_MARGIN``).
    """
    from reportlab.pdfbase.pdfmetrics import stringWidth

    c = p.canvas
    w, h, u, s = p.trim.width, p.trim.height, p.unit, SAFE_MARGIN
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
    qr_x = s if qr_left else w - s - qr_edge
    if face.defense_corner is not None:
        edge = corner_w
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
        mr = corner_w / 2
        _badge(p, face.badge, w - s - mr, s + mr, mr, upside_down=True)
    # Text box between the corners.
    tx = s + (left_w + 1.0 if left_w else 0.0)
    tr = w - s - (right_w + 1.0 if right_w else 0.0)
    base = s
    if tr - tx < 24.0:  # a narrow card: the text box goes above the bottom zone
        tx, tr, base = s, w - s, s + zone_h + 1.0
    stats_h = 11.0 * u if face.stats else 0.0
    legend_h = 4.6 * u if face.legend else 0.0
    stars_in_box = face.stars and face.defense_corner is None and face.badge.icon != "star"
    stars_h = 5.2 * u if stars_in_box else 0.0
    avail = top - base - (stats_h + 1.0 if stats_h else 0.0)
    art_min = MIN_ART_MM * u
    art_default = min(0.34 * h, avail - zone_h - 1.0)
    text, field_name = face.text
    inner_w = tr - tx - 2.4
    max_pt = max(MAX_TEXT_PT * u, MIN_TEXT_PT)
    box_h = max(zone_h if base == s else 8.0 * u, avail - art_default - 1.0)
    reserved = legend_h + stars_h
    if text:
        need = fitted_paragraph(
            text,
            round(inner_w * MM, 2),
            round((box_h - 2.0 - reserved) * MM, 2),
            max_pt,
            min(7.0 * u, max_pt),
            0,
        )[0]
        if need is None:
            box_h = max(box_h, avail - art_min - 1.0)
    box = Rect(x=tx, y=base, width=tr - tx, height=box_h)
    p.fill(box, TEXT_BOX, radius=1.0)
    if text:
        p.text_block(
            text,
            Rect(x=tx + 1.2, y=base + 1.0 + reserved, width=inner_w, height=box_h - 2.0 - reserved),
            field_name=field_name,
            max_pt=max_pt,
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
    # Legend line (battle icons) and stars at the bottom of the text box.
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
            p.icon(
                symbol,
                x + 0.5,
                y + 0.5,
                size - 1.0,
                "#111111" if colour == "#ffffff" else "#ffffff",
            )
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
        y += legend_h
    if face.stars and face.defense_corner is not None:
        size = 4.0 * u
        x0 = w - s - corner_w
        p.icon("star", x0 + 0.3, s + corner_w + 0.8, size, "#c9a227")
        p.line(
            str(face.stars),
            x0 + size + 0.8,
            s + corner_w + 1.4,
            corner_w - size - 1,
            max_pt=10 * u,
            min_pt=6,
            field_name="stars",
            bold=True,
            colour="#8d6e00",
        )
    elif stars_in_box:
        size = 4.0 * u
        p.icon("star", tx + 1.2, y, size, "#c9a227")
        p.line(
            f"{face.stars}",
            tx + 1.2 + size + 0.8,
            y + 0.7,
            8,
            max_pt=9 * u,
            min_pt=6,
            field_name="stars",
            bold=True,
            colour="#8d6e00",
        )
    # Stats row above the text box, art above that.
    stats_y = box.top + 1.0
    if face.stats:
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
    art_bottom = stats_y + stats_h + 1.0 if face.stats else box.top + 1.0
    art = Rect(x=s, y=art_bottom, width=w - 2 * s, height=top - art_bottom)
    if art.height < 3.0:
        parts = (["the stats row"] if face.stats else []) + [f"the text box ({box_h:.1f} mm)"]
        below = top - base
        reason = (
            f"does not fit: {' and '.join(parts)} "
            f"{'leave' if len(parts) > 1 else 'leaves'} {max(art.height, 0):.1f} mm of the "
            f"{below:.1f} mm below the type band for the art window, which needs 3 mm"
            if below > 0
            else f"does not fit: the header and type band fill the {h:g} mm high card"
        )
        p.problems.append(
            Overflow(card=p.card_name, field="stats" if face.stats else field_name, reason=reason)
        )
        return qr_x
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
        p.fill(Rect(x=art.x, y=art.y, width=art.width, height=2.2 * u), face.art_bar)
    return qr_x


def face_content(card: ValidatedCard, *, side: str = "front") -> FaceContent:
    """The :class:`FaceContent` of a card's ``side`` (``front``, or one of its class's
    ``SIDES``), built by its game's face builder (:attr:`games.cards.cardgame.CardGame.face`).

    Raises:
        TypeError: not a card class of a registered game.
    """
    return card_game(card).face(card, side)


def card_game(card: ValidatedCard) -> CardGame:
    """The registered card game whose kinds include ``card``'s class.

    Raises:
        TypeError: not a card class of a registered game.
    """
    cards = _BY_CLASS.get(type(card))
    if cards is None:
        raise TypeError(f"no face for {type(card).__name__}")
    return cards


_BY_CLASS: dict[type, CardGame] = {
    kind: cards for cards in CARD_GAMES.values() for kind in cards.kinds.values()
}


def game_title(game: str) -> str:
    """Display title of a game slug."""
    return CARD_GAMES[game].title
