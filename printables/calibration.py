"""The duplex calibration sheet: read a printer's back-page offset and rotation.

Front page: three thin reference lines - one vertical line near the top centre and two
horizontal lines near the left and right edges. Back page: a scale behind each line, drawn
where the line lands after the sheet is turned (as the chosen duplex mode turns it). Hold the
printed sheet against a light and read, on each scale, the value where the front's line
shows through:

* ``X`` (on the horizontal scale) is the correction ``dx`` directly, in mm.
* ``YL`` and ``YR`` (left and right vertical scales, as seen on the back page) give
  ``dy = (YL + YR) / 2`` and ``rotation_deg = degrees(atan((YR - YL) / D))``, where ``D`` (mm)
  is printed on the sheet.

Why the reading is the correction: if the printer shifts the back by ``e``, the scale mark
labelled ``v`` lands at ``v + e`` from its nominal place, so the front line (at the nominal
place) meets the mark ``v = -e``, which is exactly the shift that cancels the error. The back
page is drawn with the current correction applied, so a calibrated printer reads 0 everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from printables.duplex import BackAdjust, Duplex, PrintScale, flip_point, mirrors_left_right
from printables.fonts import BOLD, REGULAR, register_fonts
from printables.layout import CardSize, Rect, Segment, SettingError, SheetSpec, layout_sheet
from printables.outputs import atomic_outputs
from printables.render import apply_scale, backs_path, draw_furniture, new_canvas
from printables.units import MM

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

SCALE_RANGE = 6.0
"""The scales read -6..+6 mm."""
LINE_LENGTH = 2 * SCALE_RANGE + 6.0
"""Length of each front reference line, mm (covers the whole scale)."""
EDGE_DISTANCE = 30.0
"""Distance of the reference lines from the page edges, mm."""
LABEL_PT = 7.0
"""Size of the scale labels, pt (digits about 1.9 mm high)."""
TICKS = {"half": 1.5, "mm": 2.5, "near": 3.5, "far": 6.5}
"""Tick lengths, mm: every 0.5 mm, every 1 mm, and the labelled even values, whose ticks
alternate between a near and a far length so that each label sits at the end of its own tick
with 4 mm to the next label in its row (labels 2 mm apart in one row overlapped, and 1 mm
apart were unreadable)."""
LABEL_GAP = 0.6
"""Gap between a tick's end and its label, mm."""


@dataclass(frozen=True, kw_only=True)
class Label:
    """A text on the back page: baseline start (x, y), mm, and its ink box, mm."""

    text: str
    x: float
    y: float
    size_pt: float
    bold: bool
    box: Rect


@dataclass(frozen=True, kw_only=True)
class ScaleDrawing:
    """One reference's scale on the back page (page frame before the back correction, mm).

    Attributes:
        ticks: tick lines, from the scale's base line outward.
        labels: the value labels (even values, signed) and the scale's name.
    """

    ticks: tuple[Segment, ...]
    labels: tuple[Label, ...]


def _label(text: str, x: float, y: float, *, size_pt: float, bold: bool, anchor: str) -> Label:
    """A label whose ink box is anchored at (x, y) mm: ``anchor`` ``bottom-centre`` or
    ``middle-left``. The box is the text's advance width by the font's cap height (digits
    and capitals have no descenders)."""
    from reportlab.pdfbase.pdfmetrics import getFont, stringWidth

    register_fonts()
    font = BOLD if bold else REGULAR
    width = stringWidth(text, font, size_pt) / MM
    height = getFont(font).face.capHeight / 1000 * size_pt / MM
    left = x - width / 2 if anchor == "bottom-centre" else x
    bottom = y if anchor == "bottom-centre" else y - height / 2
    return Label(
        text=text,
        x=left,
        y=bottom,
        size_pt=size_pt,
        bold=bold,
        box=Rect(x=left, y=bottom, width=width, height=height),
    )


def scale_drawing(ref: Reference) -> ScaleDrawing:
    """The ticks and labels of ``ref``'s scale: ticks every 0.5 mm over -SCALE_RANGE..
    +SCALE_RANGE, each even value labelled (negative ones with ``-``) at the end of its
    tick, near and far alternating; the name (``X``, ``YL``, ``YR``) beside the scale's negative end."""
    bx, by = ref.back
    ticks, labels = [], []
    steps = int(SCALE_RANGE * 2)
    for i in range(-steps, steps + 1):
        v = i / 2
        if i % 4 == 0:
            length = TICKS["near"] if (i // 4) % 2 == 0 else TICKS["far"]
        else:
            length = TICKS["mm"] if i % 2 == 0 else TICKS["half"]
        text = f"{v:g}"  # "-4" as typed into --back-offset; the narrow hyphen keeps room
        if ref.vertical_line:  # horizontal scale along x, ticks upwards
            ticks.append(Segment(x0=bx + v, y0=by, x1=bx + v, y1=by + length))
            if i % 4 == 0:
                labels.append(
                    _label(
                        text,
                        bx + v,
                        by + length + LABEL_GAP,
                        size_pt=LABEL_PT,
                        bold=False,
                        anchor="bottom-centre",
                    )
                )
        else:  # vertical scale along y, ticks to the right
            ticks.append(Segment(x0=bx, y0=by + v, x1=bx + length, y1=by + v))
            if i % 4 == 0:
                labels.append(
                    _label(
                        text,
                        bx + length + LABEL_GAP,
                        by + v,
                        size_pt=LABEL_PT,
                        bold=False,
                        anchor="middle-left",
                    )
                )
    if ref.vertical_line:  # left of the scale's negative end, level with the near ticks
        probe = _label(ref.name, 0, 0, size_pt=9, bold=True, anchor="middle-left")
        name = _label(
            ref.name,
            bx - SCALE_RANGE - 2.0 - probe.box.width,
            by + TICKS["near"] / 2,
            size_pt=9,
            bold=True,
            anchor="middle-left",
        )
    else:  # below the scale's negative end
        name = _label(
            ref.name, bx, by - SCALE_RANGE - 4.0, size_pt=9, bold=True, anchor="middle-left"
        )
    labels.append(name)
    return ScaleDrawing(ticks=tuple(ticks), labels=tuple(labels))


@dataclass(frozen=True, kw_only=True)
class Reference:
    """A reference line on the front and its scale on the back (page frame, mm).

    Attributes:
        name: ``X``, ``YL`` or ``YR``.
        front: centre of the front line.
        back: centre of its scale on the back page (the flipped front centre).
        vertical_line: the front line is vertical (so it is read on a horizontal scale).
    """

    name: str
    front: tuple[float, float]
    back: tuple[float, float]
    vertical_line: bool


def references(
    page_width: float, page_height: float, duplex: Duplex, landscape: bool
) -> tuple[Reference, ...]:
    """The three reference lines of the calibration sheet for this paper and duplex mode.

    Raises:
        LayoutError: ``duplex`` is ``NONE``.
    """
    left_right = mirrors_left_right(duplex, landscape)
    cx, cy = page_width / 2, page_height / 2
    fronts = (
        ("X", (cx, page_height - EDGE_DISTANCE), True),
        ("Y", (EDGE_DISTANCE, cy), False),
        ("Y", (page_width - EDGE_DISTANCE, cy), False),
    )
    refs = []
    for name, (x, y), vertical in fronts:
        back = flip_point(
            x, y, page_width=page_width, page_height=page_height, left_right=left_right
        )
        if name == "Y":
            name = "YL" if back[0] < cx else "YR"
        refs.append(Reference(name=name, front=(x, y), back=back, vertical_line=vertical))
    return tuple(refs)


def _draw_scale(c: Canvas, ref: Reference) -> None:
    drawing = scale_drawing(ref)
    for tick in drawing.ticks:
        c.line(tick.x0 * MM, tick.y0 * MM, tick.x1 * MM, tick.y1 * MM)
    for label in drawing.labels:
        c.setFont(BOLD if label.bold else REGULAR, label.size_pt)
        c.drawString(label.x * MM, label.y * MM, label.text)


SIZE_RULER = 100.0
"""Length of the two size rulers, mm."""


def size_rulers(page_width: float, page_height: float) -> tuple[Segment, ...]:
    """The two 100 mm rulers of the front page, an L: its corner 50 mm left of and 20 mm
    below the page centre, one ruler to the right, one upwards; each is its base line
    (the first segment of each ruler, 100 mm) and ticks every mm (1 mm long), 5 mm (2 mm)
    and 10 mm (3 mm) on the outside of the L. Page mm."""
    x0, y0 = page_width / 2 - SIZE_RULER / 2, page_height / 2 - 20.0
    out = [Segment(x0=x0, y0=y0, x1=x0 + SIZE_RULER, y1=y0)]
    ticks = [(v, 3.0 if v % 10 == 0 else 2.0 if v % 5 == 0 else 1.0) for v in range(101)]
    out += [Segment(x0=x0 + v, y0=y0, x1=x0 + v, y1=y0 + t) for v, t in ticks]
    out.append(Segment(x0=x0, y0=y0, x1=x0, y1=y0 + SIZE_RULER))
    out += [Segment(x0=x0, y0=y0 + v, x1=x0 + t, y1=y0 + v) for v, t in ticks]
    return tuple(out)


def _draw_size_rulers(c: Canvas, page_width: float, page_height: float) -> None:
    c.saveState()
    c.setLineWidth(0.25)
    for line in size_rulers(page_width, page_height):
        c.line(line.x0 * MM, line.y0 * MM, line.x1 * MM, line.y1 * MM)
    x0, y0 = page_width / 2 - SIZE_RULER / 2, page_height / 2 - 20.0
    c.setFont(REGULAR, 7)
    c.drawString((x0 + SIZE_RULER + 1.0) * MM, (y0 + 0.5) * MM, "100 mm")
    c.drawString((x0 + 4.0) * MM, (y0 + SIZE_RULER - 1.0) * MM, "100 mm")
    c.drawString(
        (x0 + 8.0) * MM,
        (y0 + 8.0) * MM,
        "Measure both rulers: --print-scale X,Y with X = 100 / across, Y = 100 / up",
    )
    c.restoreState()


def render_calibration(
    out: Path,
    *,
    paper: str = "a4",
    landscape: bool = False,
    duplex: Duplex = Duplex.LONG_EDGE,
    adjust: BackAdjust | None = None,
    scale: PrintScale | None = None,
) -> tuple[Path, ...]:
    """Write the calibration sheet (front page and back page).

    The front page also has two 100 mm rulers, across and up (:func:`size_rulers`), for the
    print scale; both pages are drawn with ``scale`` applied (a calibrated printer's rulers
    measure 100 mm).

    With duplex ``separate`` the back page goes to :func:`printables.render.backs_path`.

    Returns:
        The files written.

    Raises:
        SettingError: duplex ``none`` (nothing to calibrate) or a bad paper name.
        OutputError: the file cannot be written.
    """
    if duplex is Duplex.NONE:
        raise SettingError(
            setting="duplex",
            allowed="long-edge, short-edge or separate (the calibration sheet has a back)",
            found=duplex.value,
        )
    adjust = adjust or BackAdjust()
    scale = scale or PrintScale()
    layout = layout_sheet(
        SheetSpec(
            card=CardSize(width=63, height=88), paper=paper, landscape=landscape, crop_marks=False
        )
    )
    w, h = layout.page_width, layout.page_height
    paper = layout.spec.paper
    refs = references(w, h, duplex, landscape)
    separate = duplex is Duplex.SEPARATE
    paths = [out, backs_path(out)] if separate else [out]
    with atomic_outputs(paths) as temps:
        front = new_canvas(temps[0], "Tablesmith duplex calibration", duplex)
        back = (
            new_canvas(temps[1], "Tablesmith duplex calibration - back", duplex)
            if separate
            else front
        )
        front.setPageSize((w * MM, h * MM))
        back.setPageSize((w * MM, h * MM))
        front.saveState()
        apply_scale(front, w, h, scale)
        _draw_size_rulers(front, w, h)
        draw_furniture(
            front,
            layout,
            f"Tablesmith duplex calibration · {paper} · "
            f"{'landscape' if landscape else 'portrait'} · {duplex.value}",
        )
        front.setLineWidth(0.25)
        for ref in refs:
            x, y = ref.front
            if ref.vertical_line:
                front.line(x * MM, (y - LINE_LENGTH / 2) * MM, x * MM, (y + LINE_LENGTH / 2) * MM)
            else:
                front.line((x - LINE_LENGTH / 2) * MM, y * MM, (x + LINE_LENGTH / 2) * MM, y * MM)
        text = front.beginText(25 * MM, (h / 2 - 30) * MM)
        text.setFont(REGULAR, 9)
        for line in (
            "1. Print this file double-sided at 100 % with the duplex mode named above.",
            "2. Hold the sheet against a light and look at the back page.",
            "3. Read where each line of this page crosses the scales X, YL and YR (mm).",
            (
                f"4. dx = X;  dy = (YL + YR) / 2;  rotation = atan((YR - YL) / {w - 2 * EDGE_DISTANCE:g})"
                " in degrees."
            ),
            (
                "5. tablesmith cards --save-profile NAME --duplex MODE --back-offset DX,DY "
                "--back-rotation DEG"
            ),
            "6. Measure the two 100 mm rulers above; add --print-scale 100/ACROSS,100/UP.",
        ):
            text.textLine(line)
        front.drawText(text)
        front.restoreState()
        front.showPage()
        back.setPageSize((w * MM, h * MM))
        back.saveState()
        apply_scale(back, w, h, scale)
        back.translate(adjust.dx * MM, adjust.dy * MM)
        back.translate(w / 2 * MM, h / 2 * MM)
        back.rotate(adjust.rotation_deg)
        back.translate(-w / 2 * MM, -h / 2 * MM)
        back.setLineWidth(0.25)
        for ref in refs:
            _draw_scale(back, ref)
        back.setFont(REGULAR, 8)
        back.drawCentredString(
            w / 2 * MM,
            h / 2 * MM,
            f"Back page · D = {w - 2 * EDGE_DISTANCE:g} mm · correction in "
            f"use: dx {adjust.dx:g}, dy {adjust.dy:g}, rotation "
            f"{adjust.rotation_deg:g} deg",
        )
        back.restoreState()
        back.showPage()
        front.save()
        if separate:
            back.save()
    return tuple(paths)
