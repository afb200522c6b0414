"""The upper part of a card face: the frame, the badge, the header (the name's place, corner
icons, a mode tab) and the type band (the card kind, a subtitle, icon chips in rows).

Face mm from the card's trim bottom-left corner (:class:`printables.painter.Painter`); text
sizes in pt; fixed sizes are for a 63 x 88 mm card and scale with :attr:`Painter.unit`.
"""

from __future__ import annotations

from dataclasses import replace

from games.cards.anatomy import Chip, FaceContent
from printables.badge import draw_badge
from printables.faceframe import band_box, frame_form, header_box
from printables.fonts import BOLD
from printables.layout import Rect
from printables.painter import MIN_TEXT_PT, SAFE_MARGIN, Painter
from printables.text import Overflow
from printables.units import MM


def design_upper(p: Painter, face: FaceContent) -> tuple[tuple[float, float, float], float]:
    """Frame, corner icons, mode tab, badge and type band of ``face``; returns where the
    name goes, (x, baseline y, width), and the bottom of the lowest type band row, face
    mm."""
    w, h, u, s = p.trim.width, p.trim.height, p.unit, SAFE_MARGIN
    frame_form(p, face.frame)
    head = header_box(w, h, u)
    band = band_box(w, h, u)
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
    draw_badge(p, face.badge, bx, by, r)
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
