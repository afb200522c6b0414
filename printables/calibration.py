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

from printables.faces import MM
from printables.fonts import BOLD, REGULAR
from printables.layout import (
    BackAdjust,
    CardSize,
    Duplex,
    SettingError,
    SheetSpec,
    flip_point,
    layout_sheet,
    mirrors_left_right,
)
from printables.outputs import atomic_outputs
from printables.render import backs_path, draw_furniture, new_canvas

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

SCALE_RANGE = 5.0
"""The scales read -5..+5 mm."""
LINE_LENGTH = 2 * SCALE_RANGE + 6.0
"""Length of each front reference line, mm (covers the whole scale)."""
EDGE_DISTANCE = 30.0
"""Distance of the reference lines from the page edges, mm."""


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


def _scale(c: Canvas, ref: Reference) -> None:
    bx, by = ref.back
    c.setFont(REGULAR, 5)
    steps = int(SCALE_RANGE * 2)
    for i in range(-steps, steps + 1):
        v = i / 2
        tick = 3.0 if i % 2 == 0 else 1.5
        if ref.vertical_line:  # horizontal scale, ticks vertical
            c.line((bx + v) * MM, by * MM, (bx + v) * MM, (by + tick) * MM)
            if i % 2 == 0:
                c.drawCentredString((bx + v) * MM, (by + 4) * MM, f"{v:g}")
        else:
            c.line(bx * MM, (by + v) * MM, (bx + tick) * MM, (by + v) * MM)
            if i % 2 == 0:
                c.drawString((bx + 4) * MM, (by + v - 0.6) * MM, f"{v:g}")
    c.setFont(BOLD, 8)
    label_x, label_y = (bx - 3, by + 8) if ref.vertical_line else (bx - 2, by + SCALE_RANGE + 3)
    c.drawString(label_x * MM, label_y * MM, ref.name)


def render_calibration(
    out: Path,
    *,
    paper: str = "a4",
    landscape: bool = False,
    duplex: Duplex = Duplex.LONG_EDGE,
    adjust: BackAdjust | None = None,
) -> tuple[Path, ...]:
    """Write the calibration sheet (front page and back page).

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
        ):
            text.textLine(line)
        front.drawText(text)
        front.showPage()
        back.setPageSize((w * MM, h * MM))
        back.saveState()
        back.translate(adjust.dx * MM, adjust.dy * MM)
        back.translate(w / 2 * MM, h / 2 * MM)
        back.rotate(adjust.rotation_deg)
        back.translate(-w / 2 * MM, -h / 2 * MM)
        back.setLineWidth(0.25)
        for ref in refs:
            _scale(back, ref)
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
