"""Sheet furniture on the page: crop marks, registration marks, the 50 mm ruler, the "print at
100 %" note and the page heading (ReportLab; positions from :class:`printables.layout.SheetLayout`,
page frame in mm, drawn in pt).

Texts are fitted into their boxes (:attr:`SheetLayout.heading_box`, :attr:`SheetLayout.note_box`,
both clear of a cutter's keep-out zones around its registration marks) and never set below
:data:`MIN_TEXT_SIZE`: a text first goes from 6.5 pt to 6 pt, then wraps at its `` · ``
separators (the note at its spaces) onto as many lines as the box holds, and only then
shortens the longest part of its last resort (the cut file's name, then the title) with an
ellipsis in the middle (:func:`fit_lines`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from printables.fonts import REGULAR
from printables.icons import colour_of, defined_forms
from printables.layout import Rect, SheetLayout
from printables.units import MM

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

HEADING_SIZES = (6.5, 6.0)
"""Font sizes a heading tries, pt, largest first."""
MIN_TEXT_SIZE = 6.0
"""No furniture text is set smaller, pt."""
LEADING = 1.2
"""Line distance as a multiple of the font size."""
ASCENT, DESCENT = 0.76, 0.24
"""DejaVu Sans' ascender and descender as a share of the font size (its hhea table)."""
MIN_SHORTENED = 16
"""A part is shortened down to this many characters before the next one is (``cut file
ab…-cut.svg`` still shows which file)."""
SEPARATOR = " · "
NOTE = ("Print at 100 % (actual size, no fit-to-page):", "this ruler must measure 50 mm.")
"""The note beside the ruler, in the two parts it may be broken into."""


@dataclass(frozen=True, kw_only=True)
class FittedText:
    """A text fitted into a box.

    Attributes:
        size: font size, pt (at least :data:`MIN_TEXT_SIZE`).
        lines: the lines, top first.
    """

    size: float
    lines: tuple[str, ...]


def _width(text: str, size: float) -> float:
    """The width of ``text`` in the regular font at ``size`` pt, mm."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return float(stringWidth(text, REGULAR, size)) / MM


def _wrap(parts: Sequence[str], joiner: str, size: float, width: float) -> list[str]:
    """Greedy line breaking of ``parts`` joined by ``joiner`` into lines of ``width`` mm."""
    lines: list[str] = []
    for part in parts:
        if lines and _width(lines[-1] + joiner + part, size) <= width:
            lines[-1] += joiner + part
        else:
            lines.append(part)
    return lines


def _ellipsis(text: str, size: float, width: float) -> str:
    """``text`` with its middle replaced by ``…`` until it fits ``width`` mm (keeps at least
    a character at each end)."""
    if _width(text, size) <= width:
        return text
    keep = len(text)
    while keep > 2:
        keep -= 1
        head = (keep + 1) // 2
        short = text[:head] + "…" + text[len(text) - (keep - head) :]
        if _width(short, size) <= width:
            return short
    return text[0] + "…" + text[-1]


def max_lines(box: Rect, size: float) -> int:
    """How many lines of ``size`` pt fit into ``box`` (mm), at least 1."""
    leading, height = size * LEADING / MM, size * (ASCENT + DESCENT) / MM
    return max(1, int((box.height - height) / leading + 1e-9) + 1)


def fit_lines(
    parts: Sequence[str],
    box: Rect,
    *,
    joiner: str = SEPARATOR,
    sizes: Sequence[float] = HEADING_SIZES,
    shorten: Sequence[int] = (-1, 0),
) -> FittedText:
    """Fit ``parts`` (joined by ``joiner``) into ``box`` (mm): one line at the first size of
    ``sizes`` that fits, else lines broken between parts at the last size, as many as the box
    holds; if they still do not fit, the parts at the indexes of ``shorten`` are shortened in
    turn with a middle ellipsis (a part longer than a line always is).

    Raises:
        ValueError: a size below :data:`MIN_TEXT_SIZE`.
    """
    if min(sizes) < MIN_TEXT_SIZE:
        raise ValueError(f"furniture text is never below {MIN_TEXT_SIZE:g} pt")
    whole = joiner.join(parts)
    for size in sizes:
        if _width(whole, size) <= box.width:
            return FittedText(size=size, lines=(whole,))
    size, room = sizes[-1], max_lines(box, sizes[-1])
    items = [_ellipsis(part, size, box.width) for part in parts]
    lines = _wrap(items, joiner, size, box.width)
    for index in shorten:
        while len(lines) > room and len(items[index]) > MIN_SHORTENED:
            target = _width(items[index], size) - 1.0  # 1 mm shorter each time
            items[index] = _ellipsis(parts[index], size, target)
            lines = _wrap(items, joiner, size, box.width)
    if len(lines) > room:  # even shortened: the last line that fits ends with an ellipsis
        lines = lines[: room - 1] + [_ellipsis(joiner.join(lines[room - 1 :]), size, box.width)]
    return FittedText(size=size, lines=tuple(lines))


def draw_heading(
    c: Canvas, layout: SheetLayout, parts: Sequence[str], shorten: Sequence[int] = (-1, 0)
) -> None:
    """The page heading ``parts`` (joined by `` · ``) fitted into the layout's heading box
    (:func:`fit_lines`, shortening the parts at ``shorten`` if need be), first baseline at
    ``heading_origin``, further lines below."""
    room = _below(layout.heading_box, layout.heading_origin[1])
    fitted = fit_lines(parts, room, shorten=shorten)
    x, y = layout.heading_origin
    c.saveState()
    c.setFillColor(colour_of("#444444"))
    c.setFont(REGULAR, fitted.size)
    for number, line in enumerate(fitted.lines):
        c.drawString(x * MM, y * MM - number * fitted.size * LEADING, line)
    c.restoreState()


def _below(box: Rect, baseline: float) -> Rect:
    """``box`` cut at its top to the room of text whose first baseline is ``baseline``."""
    top = min(box.top, baseline + HEADING_SIZES[0] * ASCENT / MM)
    return Rect(x=box.x, y=box.y, width=box.width, height=max(0.0, top - box.y))


def draw_furniture(
    c: Canvas,
    layout: SheetLayout,
    heading: str | Sequence[str],
    shorten: Sequence[int] = (-1, 0),
) -> None:
    """Crop marks (white halo under black, visible on white paper and dark bleed), the page
    heading (a text, or its parts and which of them may be shortened: :func:`draw_heading`),
    the "print at 100 %" note, the 50 mm ruler and any registration marks.

    Everything but the heading is one form XObject per layout, defined on the first page
    that uses it (the heading names the sheet, so it differs per page)."""
    known: dict[int, tuple[SheetLayout, str]] | None = getattr(c, "_tablesmith_furniture", None)
    if known is None:
        known = {}
        c._tablesmith_furniture = known
    entry = known.get(id(layout))
    if entry is None or entry[0] is not layout:
        name = f"furniture{len(known)}"
        c.beginForm(name, 0, 0, layout.page_width * MM, layout.page_height * MM)
        _draw_static_furniture(c, layout)
        c.endForm()
        defined_forms(c).add(name)
        entry = known[id(layout)] = (layout, name)
    c.doForm(entry[1])
    draw_heading(c, layout, [heading] if isinstance(heading, str) else heading, shorten)


def _draw_static_furniture(c: Canvas, layout: SheetLayout) -> None:
    """The parts of :func:`draw_furniture` that every page of ``layout`` shares."""
    for width, colour in ((1.4, "#ffffff"), (0.3, "#000000")):
        c.setLineWidth(width)
        c.setStrokeColor(colour_of(colour))
        for seg in layout.crop_marks:
            c.line(seg.x0 * MM, seg.y0 * MM, seg.x1 * MM, seg.y1 * MM)
    ruler = layout.ruler
    c.setStrokeColor(colour_of("#000000"))
    c.setLineWidth(0.35)
    c.line(ruler.x * MM, ruler.y * MM, ruler.right * MM, ruler.y * MM)
    for mm in range(int(ruler.width) + 1):
        tick = ruler.height if mm % 10 == 0 else ruler.height * (0.65 if mm % 5 == 0 else 0.35)
        c.line((ruler.x + mm) * MM, ruler.y * MM, (ruler.x + mm) * MM, (ruler.y + tick) * MM)
    note = fit_lines(NOTE, layout.note_box, joiner=" ", sizes=(MIN_TEXT_SIZE,))
    c.setFont(REGULAR, note.size)
    c.setFillColor(colour_of("#000000"))
    x, y = layout.note_origin
    for number, line in enumerate(reversed(note.lines)):  # the last line on the band's baseline
        c.drawString(x * MM, y * MM + number * note.size * LEADING, line)
    if layout.registration:
        c.setFillColor(colour_of("#000000"))
        for mark in layout.registration:
            c.rect(mark.x * MM, mark.y * MM, mark.width * MM, mark.height * MM, stroke=0, fill=1)
