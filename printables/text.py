"""Fitting text into boxes: shrink the font to a minimum size, report what still overflows.

ReportLab ``Paragraph`` wraps; this module's loop checks both the height of the wrapped text
and the widest unbreakable word against the box (ARCHITECTURE.md: own fit loop, no silent
clipping). Sizes in points (``_pt``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from printables.fonts import BOLD, REGULAR, register_fonts
from printables.units import MM

if TYPE_CHECKING:
    from reportlab.platypus import Paragraph

LEADING = 1.18
"""Line spacing as a multiple of the font size."""
STEP_PT = 0.25
"""Font size resolution of the fit loop, pt."""


@dataclass(frozen=True, kw_only=True)
class Overflow:
    """A text that does not fit even at the minimum size, or uses glyphs the font lacks.

    Attributes:
        card: the card's name.
        field: the card field (e.g. ``text``, ``name``, ``bot_text``).
        reason: what went wrong, e.g. ``"needs 31.2 x 20.0 mm at 6 pt, box 30.0 x 18.0 mm"``.
    """

    card: str
    field: str
    reason: str

    def __str__(self) -> str:
        return f"card '{self.card}', field '{self.field}': {self.reason}"


LEAD_IN_LIMIT = 32
"""Longest lead-in (text before the first colon) set in bold, characters."""


def markup(text: str, *, lead_bold: bool = False) -> str:
    """Escape ``text`` for a ReportLab Paragraph, keeping its line breaks.

    With ``lead_bold`` a short lead-in before the first ``:`` ("Carrier power:", "While face
    up:") is set in bold, as printed cards set their keywords.
    """
    body = text.strip()
    lead = ""
    head, colon, rest = body.partition(":")
    if (
        lead_bold
        and colon
        and 0 < len(head) <= LEAD_IN_LIMIT
        and "\n" not in head
        and "." not in head
    ):
        lead, body = f"<b>{escape(head)}:</b>", rest
    return lead + "<br/>".join(escape(line) for line in body.splitlines())


def _paragraph(
    text: str, size: float, bold: bool, align: int, colour: str, lead_bold: bool = False
) -> Paragraph:
    from reportlab.lib.colors import HexColor
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    style = ParagraphStyle(
        "fit",
        fontName=BOLD if bold else REGULAR,
        fontSize=size,
        leading=size * LEADING,
        alignment=align,
        textColor=HexColor(colour),
    )
    return Paragraph(markup(text, lead_bold=lead_bold), style)


def fit_paragraph(
    text: str,
    width_pt: float,
    height_pt: float,
    *,
    max_pt: float,
    min_pt: float,
    bold: bool = False,
    align: int = 0,
    colour: str = "#111111",
    lead_bold: bool = False,
) -> tuple[Paragraph | None, float, str | None]:
    """The largest Paragraph of ``text`` between ``min_pt`` and ``max_pt`` that fits the box.

    Args:
        text: plain text (no markup; line breaks kept).
        width_pt: box width, pt.
        height_pt: box height, pt.
        max_pt: starting (largest) font size, pt.
        min_pt: smallest allowed font size, pt.
        bold: use the bold face.
        align: 0 left, 1 centre, 2 right, 4 justified.
        colour: ``#RRGGBB``.
        lead_bold: set a short lead-in before the first colon in bold (:func:`markup`).

    Returns:
        ``(paragraph, size_pt, None)`` when it fits (already wrapped to the box width), or
        ``(None, min_pt, reason)`` when it does not fit at ``min_pt``.
    """
    register_fonts()

    def fits(size: float) -> tuple[Paragraph, float, float]:
        para = _paragraph(text, size, bold, align, colour, lead_bold)
        _, used = para.wrap(width_pt, height_pt)
        return para, used, para.minWidth()

    steps = round((max_pt - min_pt) / STEP_PT)
    para, used, widest = fits(max_pt)  # most texts fit at the largest size: one wrap
    if used <= height_pt + 0.01 and widest <= width_pt + 0.01:
        return para, max_pt, None
    low, high, best = 0, steps, None
    while low <= high:  # binary search over sizes: the largest that fits
        middle = (low + high) // 2
        size = max_pt - (steps - middle) * STEP_PT
        para, used, widest = fits(size)
        if used <= height_pt + 0.01 and widest <= width_pt + 0.01:
            best, low = (para, size), middle + 1
        else:
            high = middle - 1
    if best is not None:
        return best[0], best[1], None
    para, used, widest = fits(min_pt)
    mm = 1 / MM
    return (
        None,
        min_pt,
        (
            f"does not fit: at {min_pt:g} pt, the smallest size allowed, it needs "
            f"{max(widest, 0) * mm:.1f} mm width and {used * mm:.1f} mm height, "
            f"the box is {width_pt * mm:.1f} x {height_pt * mm:.1f} mm"
        ),
    )


def fit_line(
    text: str, width_pt: float, *, max_pt: float, min_pt: float, bold: bool = False
) -> tuple[float, str | None]:
    """The largest size (``STEP_PT`` steps) at which one line of ``text`` fits ``width_pt``.

    Returns:
        ``(size_pt, None)``, or ``(min_pt, reason)`` if it is too wide even at ``min_pt``.
    """
    from reportlab.pdfbase.pdfmetrics import stringWidth

    register_fonts()
    font = BOLD if bold else REGULAR
    width_at_1pt = stringWidth(text, font, 1.0)
    if width_at_1pt <= 0:
        return max_pt, None
    size = min(max_pt, width_pt / width_at_1pt)
    size = int(size / STEP_PT + 1e-9) * STEP_PT
    if size + 1e-9 < min_pt and width_at_1pt * min_pt <= width_pt + 1e-9:
        size = min_pt  # fits at min_pt, which need not be a multiple of STEP_PT
    if size + 1e-9 < min_pt:
        mm = 1 / MM
        return min_pt, (
            f"does not fit: {_short(text)} is {width_at_1pt * min_pt * mm:.1f} mm wide at "
            f"{min_pt:g} pt, the smallest size allowed, and has {width_pt * mm:.1f} mm"
        )
    return size, None


def _short(text: str) -> str:
    return repr(text if len(text) <= 30 else text[:29] + "…")
