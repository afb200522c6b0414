"""The painter of one card box: text fitted to its box (never clipped, never under 6 pt),
symbols and rectangles in the card's own frame, and a record of every box drawn.

Coordinates are mm from the card's trim bottom-left corner (y up); ReportLab's points only at
the canvas calls (:data:`printables.units.MM`). A text that does not fit at
:data:`MIN_TEXT_PT` is collected as an :class:`~printables.text.Overflow`, not clipped; every
text run and symbol is recorded as a :class:`~printables.facebox.Box` for the overlap check.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from printables.facebox import Box, text_box
from printables.fonts import BOLD, REGULAR, missing_glyphs
from printables.icons import colour_of, defined_forms, draw_icon
from printables.images import MAX_ART_PPI, MIN_ART_PPI, prepare_image, print_ppi
from printables.layout import Rect
from printables.text import Overflow, fit_line, fit_paragraph
from printables.units import MM

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Paragraph

SAFE_MARGIN = 3.0
"""Distance of all content from the trim line, mm."""
MIN_TEXT_PT = 6.0
"""Smallest font size for rules text, pt."""
INK = "#1a1a1a"
"""Text colour."""


@dataclass(kw_only=True)
class Painter:
    """Draws on one card box; collects text problems instead of clipping.

    Attributes:
        canvas: the ReportLab canvas.
        trim: the card's trim box on the page, mm.
        bleed: bleed width, mm.
        card_name: for problem reports.
        problems: shared list that collects :class:`Overflow` items.
        boxes: every text run and symbol drawn, face mm (:mod:`printables.facebox`).
        warnings: shared list that collects ``card '<name>': <what overlaps>`` lines.
    """

    canvas: Canvas
    trim: Rect
    bleed: float
    card_name: str
    problems: list[Overflow] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def unit(self) -> float:
        """Scale of fixed sizes: 1 on a 63 x 88 mm card, smaller on mini, larger on tarot
        and large cards (at most 1.4)."""
        return max(0.7, min(self.trim.width / 63.0, self.trim.height / 88.0, 1.4))

    @property
    def bleed_box(self) -> Rect:
        """The card's bleed box in face mm (the trim box grown by the bleed)."""
        return Rect(x=0, y=0, width=self.trim.width, height=self.trim.height).inset(-self.bleed)

    def pt(self, x: float, y: float) -> tuple[float, float]:
        """Face mm -> page pt."""
        return (self.trim.x + x) * MM, (self.trim.y + y) * MM

    def _check(self, text: str, font: str, field_name: str) -> bool:
        missing = missing_glyphs(text, font)
        if missing:
            listed = ", ".join(f"U+{ord(ch):04X} {ch!r}" for ch in missing)
            self.problems.append(
                Overflow(
                    card=self.card_name,
                    field=field_name,
                    reason=f"glyph(s) not in the font: {listed}",
                )
            )
        return not missing

    def fill(
        self,
        box: Rect,
        colour: str,
        *,
        radius: float = 0.0,
        stroke: str | None = None,
        width_pt: float = 0.6,
    ) -> None:
        """Fill (and optionally stroke) a face-relative rectangle, mm."""
        c = self.canvas
        c.setFillColor(colour_of(colour))
        if stroke:
            c.setStrokeColor(colour_of(stroke))
            c.setLineWidth(width_pt)
        x, y = self.pt(box.x, box.y)
        if radius:
            c.roundRect(
                x, y, box.width * MM, box.height * MM, radius * MM, stroke=int(bool(stroke)), fill=1
            )
        else:
            c.rect(x, y, box.width * MM, box.height * MM, stroke=int(bool(stroke)), fill=1)

    def line(
        self,
        text: str,
        x: float,
        y: float,
        width: float,
        *,
        max_pt: float,
        min_pt: float,
        field_name: str,
        bold: bool = False,
        colour: str = INK,
        align: str = "left",
    ) -> float:
        """One line of text with its baseline at (x, y) mm, shrunk to fit ``width`` mm.

        Returns:
            The font size used, pt (0 when nothing was drawn).
        """
        from reportlab.pdfbase.pdfmetrics import stringWidth

        font = BOLD if bold else REGULAR
        if not text or not self._check(text, font, field_name):
            return 0.0
        min_pt = max(min_pt, MIN_TEXT_PT)  # nothing on a card under 6 pt
        max_pt = max(max_pt, min_pt)
        size, problem = fit_line(text, width * MM, max_pt=max_pt, min_pt=min_pt, bold=bold)
        if problem:
            self.problems.append(Overflow(card=self.card_name, field=field_name, reason=problem))
            return 0.0
        used = stringWidth(text, font, size) / MM
        start = {"centre": x + (width - used) / 2, "right": x + width - used}.get(align, x)
        self.text(text, start, y, size, field_name, bold=bold, colour=colour, advance=used)
        return size

    def text(
        self,
        text: str,
        x: float,
        y: float,
        size: float,
        field_name: str,
        *,
        bold: bool = True,
        colour: str = INK,
        advance: float | None = None,
    ) -> None:
        """Draw one run of ``text`` at ``size`` pt, its baseline starting at (x, y) mm, and
        record its box (no fitting: for texts sized by the caller). ``advance``: the run's
        width, mm, where the caller has measured it already."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        font = BOLD if bold else REGULAR
        c = self.canvas
        c.setFillColor(colour_of(colour))
        c.setFont(font, size)
        c.drawString(*self.pt(x, y), text)
        used = stringWidth(text, font, size) / MM if advance is None else advance
        self.boxes.append(text_box(field_name, text, size, x, y, used))

    def centred(
        self, text: str, cx: float, y: float, size: float, field_name: str, colour: str
    ) -> None:
        """:meth:`text` (bold) centred on ``cx`` mm."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        used = stringWidth(text, BOLD, size) / MM
        self.text(text, cx - used / 2, y, size, field_name, colour=colour)

    def icon(self, name: str, x: float, y: float, size: float, colour: str) -> None:
        """Icon ``name`` (see :mod:`printables.icons`) in the square (x, y, size) mm."""
        draw_icon(self.canvas, name, *self.pt(x, y), size * MM, colour)
        self.boxes.append(
            Box(what=f"symbol {name!r}", rect=Rect(x=x, y=y, width=size, height=size))
        )

    def disc_icon(self, name: str, cx: float, cy: float, diameter: float, colour: str) -> None:
        """A white icon on a disc of ``colour`` centred at (cx, cy) mm."""
        c = self.canvas
        c.setFillColor(colour_of(colour))
        c.circle(*self.pt(cx, cy), diameter / 2 * MM, stroke=0, fill=1)
        inner = diameter * 0.62
        fg = "#111111" if colour in ("#ffffff", "#f9a825") else "#ffffff"
        self.icon(name, cx - inner / 2, cy - inner / 2, inner, fg)

    def image(self, path: Path, area: Rect) -> None:
        """Draw an image file so that it fills ``area`` (mm): scaled to cover it, centred,
        the overflow clipped. ReportLab embeds each distinct file once however often it is
        drawn; the file is prepared (upright, sRGB; downsampled where it would print above
        :data:`~printables.images.MAX_ART_PPI` on this card) once per file, modification
        time and card size. Art printing under :data:`~printables.images.MIN_ART_PPI` here is
        noted in :attr:`warnings` (without the card's name: a design is drawn once for all
        the cards that share it)."""
        art = prepare_image(path)
        ppi = print_ppi(art.size, (area.width, area.height))
        if ppi < MIN_ART_PPI:
            iw, ih = art.size
            self.warnings.append(
                f"art {path.name!r} prints at {ppi:.0f} ppi ({iw} x {ih} pixels in a "
                f"{area.width:.0f} x {area.height:.0f} mm window); it looks soft or blocky "
                f"under {MIN_ART_PPI} ppi: use a picture of at least "
                f"{math.ceil(area.width / 25.4 * MIN_ART_PPI)} x "
                f"{math.ceil(area.height / 25.4 * MIN_ART_PPI)} pixels"
            )
        elif ppi > MAX_ART_PPI:
            art = prepare_image(path, cover_mm=(self.trim.width, self.trim.height))
        iw, ih = art.size
        scale = max(area.width / iw, area.height / ih)
        w, h = iw * scale, ih * scale
        c = self.canvas
        c.saveState()
        clip = c.beginPath()
        clip.rect(*self.pt(area.x, area.y), area.width * MM, area.height * MM)
        c.clipPath(clip, stroke=0, fill=0)
        x, y = self.pt(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2)
        art.draw(c, x, y, w * MM, h * MM)
        c.restoreState()

    def text_block(
        self,
        text: str,
        area: Rect,
        *,
        field_name: str,
        max_pt: float,
        min_pt: float = MIN_TEXT_PT,
        align: int = 0,
        middle: bool = False,
    ) -> float:
        """Rules text fitted into ``area`` (mm, face-relative), top-aligned (with ``middle``:
        centred from top to bottom), drawn as a form XObject shared by every card with the same
        text and box. ``align``: 0 left, 1 centred (ReportLab's alignment).

        Returns:
            The height the text uses, mm (0 when nothing was drawn).
        """
        if (
            not text
            or not self._check(text, REGULAR, field_name)
            or not self._check(text, BOLD, field_name)
        ):
            return 0.0
        min_pt = max(min_pt, MIN_TEXT_PT)
        max_pt = max(max_pt, min_pt)
        fitted = fitted_paragraph(
            text, round(area.width * MM, 2), round(area.height * MM, 2), max_pt, min_pt, align
        )
        para, problem = fitted
        if para is None:
            self.problems.append(
                Overflow(card=self.card_name, field=field_name, reason=problem or "does not fit")
            )
            return 0.0
        c = self.canvas
        key = f"{text}|{area.width:.2f}|{area.height:.2f}|{max_pt}|{min_pt}|{align}"
        form = "txt" + hashlib.sha1(key.encode()).hexdigest()[:16]
        defined = defined_forms(c)
        height = float(para.height)
        if form not in defined:
            c.beginForm(form, 0, 0, area.width * MM, height + 1)
            para.drawOn(c, 0, 0)
            c.endForm()
            defined.add(form)
        x, top = self.pt(area.x, area.top)
        if middle:
            top -= (area.height * MM - height) / 2
        c.saveState()
        c.translate(x, top - height)
        c.doForm(form)
        c.restoreState()
        widths = para.getActualLineWidths0() or [0.0]
        left = area.x + (area.width - max(widths) / MM) / 2 if align == 1 else area.x
        self.boxes.append(
            Box(
                what=f"{field_name} text",
                rect=Rect(
                    x=left,
                    y=(top - height) / MM - self.trim.y,
                    width=max(widths) / MM,
                    height=height / MM,
                ),
            )
        )
        return height / MM


@lru_cache(maxsize=2048)
def fitted_paragraph(
    text: str, width_pt: float, height_pt: float, max_pt: float, min_pt: float, align: int
) -> tuple[Paragraph | None, str | None]:
    """The rules-text paragraph fitted to ``width_pt`` x ``height_pt`` between ``max_pt`` and
    ``min_pt`` (lead-in bold), or None with the problem; cached, as card designs repeat."""
    para, _, problem = fit_paragraph(
        text, width_pt, height_pt, max_pt=max_pt, min_pt=min_pt, align=align, lead_bold=True
    )
    return para, problem
