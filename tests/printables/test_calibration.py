"""The duplex calibration sheet: scales readable at 100 % (no two labels overlap, none sits
on a tick) and placed where the front's lines land."""

from __future__ import annotations

import itertools
from pathlib import Path

import pypdf
import pytest

from printables.calibration import (
    LABEL_PT,
    SCALE_RANGE,
    references,
    render_calibration,
    scale_drawing,
)
from printables.duplex import Duplex
from printables.layout import PAPER_SIZES, Rect, Segment

SHEETS = [
    (paper, landscape, duplex)
    for paper, landscape, duplex in itertools.product(
        PAPER_SIZES, (False, True), (Duplex.LONG_EDGE, Duplex.SHORT_EDGE)
    )
]


def segment_box(seg: Segment, pad: float) -> Rect:
    return Rect(
        x=min(seg.x0, seg.x1) - pad,
        y=min(seg.y0, seg.y1) - pad,
        width=abs(seg.x1 - seg.x0) + 2 * pad,
        height=abs(seg.y1 - seg.y0) + 2 * pad,
    )


@pytest.mark.parametrize(("paper", "landscape", "duplex"), SHEETS)
def test_no_two_scale_labels_overlap_and_none_sits_on_a_tick(
    paper: str, landscape: bool, duplex: Duplex
) -> None:
    w, h = PAPER_SIZES[paper][::-1] if landscape else PAPER_SIZES[paper]
    drawings = [scale_drawing(ref) for ref in references(w, h, duplex, landscape)]
    labels = [label for d in drawings for label in d.labels]
    ticks = [tick for d in drawings for tick in d.ticks]
    assert len(labels) == 3 * (int(SCALE_RANGE) + 1 + 1)  # -6, -4 .. 6 and the name
    for a, b in itertools.combinations(labels, 2):
        # 0.3 mm clear of each other (the ink boxes, grown by 0.15 mm each)
        assert not a.box.inset(-0.15).overlaps(b.box.inset(-0.15)), (a.text, b.text)
    for label in labels:
        for tick in ticks:
            assert not label.box.overlaps(segment_box(tick, 0.2)), (label.text, tick)
        assert label.size_pt >= LABEL_PT
        assert label.box.height >= 1.8  # digits at least 1.8 mm high
        assert label.box.x >= 10 and label.box.right <= w - 10  # well inside the paper


def test_labels_sit_at_their_ticks_and_the_ticks_every_half_millimetre() -> None:
    ref = references(210, 297, Duplex.LONG_EDGE, False)[0]
    assert ref.name == "X" and ref.vertical_line
    drawing = scale_drawing(ref)
    bx, by = ref.back
    xs = sorted(round(t.x0 - bx, 6) for t in drawing.ticks)
    assert xs == [i / 2 for i in range(-12, 13)]
    values = {label.text: label for label in drawing.labels if label.text != "X"}
    assert list(values) == ["-6", "-4", "-2", "0", "2", "4", "6"]
    for text, label in values.items():
        centre = label.box.x + label.box.width / 2
        assert centre == pytest.approx(bx + float(text))  # centred on its own tick
        tick = next(t for t in drawing.ticks if t.x0 == pytest.approx(bx + float(text)))
        assert label.box.y == pytest.approx(tick.y1 + 0.6)  # just beyond the tick's end
    # near and far labels alternate, 4 mm apart within a row
    rows = sorted({round(label.box.y, 6) for label in values.values()})
    assert len(rows) == 2
    near = [float(t) for t, label in values.items() if round(label.box.y, 6) == rows[0]]
    assert near == [-4.0, 0.0, 4.0]


def test_the_sheet_renders_every_label(tmp_path: Path) -> None:
    (out,) = render_calibration(tmp_path / "cal.pdf", paper="letter", landscape=True)
    back = pypdf.PdfReader(out).pages[1].extract_text()
    for text in ("X", "YL", "YR", "-6", "-4", "-2", "0", "2", "4", "6", "D = 219.4 mm"):
        assert text in back
