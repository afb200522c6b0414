"""Cutting machines: registration marks, cut lines (SVG, DXF) and printed cards agree to 0.1 mm."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import ezdxf
import pypdfium2 as pdfium
import pytest

from printables.cutter import CUT_CORNER_RADIUS, cut_frame, rounded_rect_path
from printables.deckfile import read_deck
from printables.layout import PAPER_SIZES, SheetSpec, layout_sheet, parse_card_size
from printables.regmarks import CRICUT_AREA, SILHOUETTE_MARKS, cricut_area
from printables.render import RenderOptions, render_deck

DPI_MM = 10  # render at 254 dpi: one pixel is 0.1 mm


def render(tmp_path: Path, cutter: str, **options: object):
    loaded = read_deck("demo:pocketmodel")
    out = tmp_path / "deck.pdf"
    result = render_deck(
        loaded.deck, RenderOptions(cutter=cutter, **options), out, base_dir=loaded.base_dir
    )
    page = pdfium.PdfDocument(str(out))[0].render(scale=DPI_MM * 25.4 / 72).to_pil().convert("RGB")
    return result, page


def pixel(page, layout, x: float, y: float) -> tuple[int, int, int]:
    """The colour at page point (x, y) mm (y up)."""
    return page.getpixel((round(x * DPI_MM), round((layout.page_height - y) * DPI_MM)))


def dark(rgb: tuple[int, int, int]) -> bool:
    return sum(rgb) < 150


def svg_cards(path: Path) -> list[tuple[float, float, float, float]]:
    """(left, top, right, bottom) in SVG mm (y down) of every cut path."""
    root = ET.parse(path).getroot()
    boxes = []
    for element in root.iter("{http://www.w3.org/2000/svg}path"):
        d = element.get("d", "")  # M x y H x A r r 0 0 1 x y V y A ... Z
        points = [tuple(map(float, p)) for p in re.findall(r"(-?\d+\.\d+) (-?\d+\.\d+)", d)]
        horizontals = [float(v) for v in re.findall(r"H (-?\d+\.\d+)", d)]
        verticals = [float(v) for v in re.findall(r"V (-?\d+\.\d+)", d)]
        xs = [p[0] for p in points] + horizontals
        ys = [p[1] for p in points] + verticals
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return boxes


def test_silhouette_marks_are_printed_where_studio_expects_them(tmp_path: Path) -> None:
    result, page = render(tmp_path, "silhouette")
    layout = result.layouts[0]
    w, h = layout.page_width, layout.page_height
    marks = SILHOUETTE_MARKS
    assert (marks.inset, marks.length, marks.thickness, marks.square) == (10, 20, 0.5, 5)
    # The filled 5 mm square, its edges 10 mm from the left and top paper edges.
    assert dark(pixel(page, layout, 12.5, h - 12.5))
    assert dark(pixel(page, layout, 10.15, h - 10.15)) and dark(
        pixel(page, layout, 14.85, h - 14.85)
    )
    assert not dark(pixel(page, layout, 9.8, h - 12.5)) and not dark(
        pixel(page, layout, 15.2, h - 12.5)
    )
    # Top-right L: arms 20 mm long and 0.5 mm thick from the corner (w - 10, h - 10).
    assert dark(pixel(page, layout, w - 10 - 19.8, h - 10.25)) and dark(
        pixel(page, layout, w - 10.25, h - 29.8)
    )
    assert not dark(pixel(page, layout, w - 10 - 20.3, h - 10.25))
    assert not dark(pixel(page, layout, w - 10.25, h - 10.8 - 20))
    # Bottom-left L.
    assert dark(pixel(page, layout, 29.8, 10.25)) and dark(pixel(page, layout, 10.25, 29.8))
    assert not dark(pixel(page, layout, 30.3, 10.25)) and not dark(pixel(page, layout, 10.25, 30.3))
    # Nothing printed in the keep-clear squares but the marks themselves (no crop marks).
    for box in marks.keep_out(w, h):
        for slot in layout.slots:
            assert not slot.bleed.overlaps(box)
    assert layout.crop_marks == ()


@pytest.mark.parametrize("cutter", ["silhouette", "cricut"])
def test_cut_lines_svg_dxf_and_printed_cards_agree_to_0_1_mm(tmp_path: Path, cutter: str) -> None:
    result, page = render(tmp_path, cutter)
    layout = result.layouts[0]
    svg, dxf = result.cut_files[:2]  # the full sheets' (a partial last sheet's follow)
    frame = cut_frame(layout)
    root = ET.parse(svg).getroot()
    assert (
        root.get("width") == f"{frame.width:g}mm"
        and root.get("viewBox") == f"0 0 {frame.width:g} {frame.height:g}"
    )
    boxes = svg_cards(svg)
    assert len(boxes) == layout.per_page
    for (left, top, right, bottom), slot in zip(boxes, layout.slots, strict=True):
        assert left + frame.x == pytest.approx(slot.trim.x, abs=0.1)
        assert right + frame.x == pytest.approx(slot.trim.right, abs=0.1)
        assert frame.top - top == pytest.approx(slot.trim.top, abs=0.1)
        assert frame.top - bottom == pytest.approx(slot.trim.y, abs=0.1)
    # The DXF holds the same outlines, y up, in the same frame.
    polylines = list(ezdxf.readfile(dxf).modelspace().query("LWPOLYLINE"))
    assert len(polylines) == layout.per_page
    for polyline, slot in zip(polylines, layout.slots, strict=True):
        points = polyline.get_points("xyb")
        assert polyline.closed and len(points) == 8
        assert min(p[0] for p in points) + frame.x == pytest.approx(slot.trim.x, abs=0.1)
        assert max(p[1] for p in points) + frame.y == pytest.approx(slot.trim.top, abs=0.1)
        assert sum(1 for p in points if p[2]) == 4  # four quarter-arc corners
    # The printed cards: the frame colour starts at the cut line (outer grid edges).
    first, last = layout.slots[0], layout.slots[-1]
    mid = first.trim.y + first.trim.height / 2
    assert not dark(pixel(page, layout, first.trim.x - 0.3, mid))
    assert pixel(page, layout, first.trim.x + 0.3, mid) != (255, 255, 255)
    assert pixel(page, layout, last.trim.right - 0.3, last.trim.y + 40) != (255, 255, 255)
    assert pixel(page, layout, last.trim.right + 0.3, last.trim.y + 40) == (255, 255, 255)


@pytest.mark.parametrize(
    ("paper", "landscape", "card"),
    list(itertools.product(PAPER_SIZES, [False, True], ["tcg", "poker", "mini"])),
)
def test_cards_stay_inside_the_cutting_area(paper: str, landscape: bool, card: str) -> None:
    for cutter in ("silhouette", "cricut"):
        spec = SheetSpec(
            card=parse_card_size(card),
            paper=paper,
            landscape=landscape,
            crop_marks=False,
            cutter=cutter,
        )
        layout = layout_sheet(spec)
        w, h = layout.page_width, layout.page_height
        area = SILHOUETTE_MARKS.cut_area(w, h) if cutter == "silhouette" else cricut_area(w, h)
        for slot in layout.slots:
            assert area.x - 1e-6 <= slot.bleed.x and slot.bleed.right <= area.right + 1e-6
            assert area.y - 1e-6 <= slot.bleed.y and slot.bleed.top <= area.top + 1e-6
            if cutter == "silhouette":
                assert not any(slot.bleed.overlaps(k) for k in SILHOUETTE_MARKS.keep_out(w, h))
        # The grid is the largest that fits: one more column or row would not.
        assert layout.per_page >= 1


def test_cricut_area_is_design_space_print_then_cut_maximum() -> None:
    assert (pytest.approx(6.75 * 25.4), pytest.approx(9.25 * 25.4)) == CRICUT_AREA
    area = cricut_area(215.9, 279.4)
    assert (area.width, area.height) == CRICUT_AREA
    assert area.x == pytest.approx((215.9 - 171.45) / 2)


def test_rounded_corners_have_quarter_arc_bulges() -> None:
    from printables.layout import Rect

    path = rounded_rect_path(Rect(x=0, y=0, width=63, height=88), CUT_CORNER_RADIUS)
    assert path[0] == (3.0, 0.0, 0.0) and path[1][:2] == (60.0, 0.0)
    assert path[1][2] == pytest.approx(0.41421356)
    with pytest.raises(ValueError, match="corner radius"):
        rounded_rect_path(Rect(x=0, y=0, width=5, height=5), 3.0)


def test_cli_writes_cut_files_and_cricut_images(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner
    from PIL import Image

    from tablesmith import cli

    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        cli, ["cards", "demo:toy-battle", "--cutter", "cricut", "--out", "tb.pdf"]
    )
    assert result.exit_code == 0, result.output
    assert "63 x 88 mm: 2 x 2 = 4 cards per sheet, 48 cards on 12 sheet(s)" in result.output
    assert "pages: 24" in result.output
    assert (tmp_path / "tb-cut.svg").is_file() and (tmp_path / "tb-cut.dxf").is_file()
    image = Image.open(tmp_path / "tb-cricut-p01.png")
    assert image.mode == "RGBA"
    assert image.size == (round(171.45 / 25.4 * 300), round(234.95 / 25.4 * 300))
    assert image.getpixel((5, 5))[3] == 0  # transparent outside the cards
    assert image.getpixel((image.width // 2 - 80, image.height // 2 - 80))[3] == 255


@pytest.mark.parametrize("cutter", ["silhouette", "cricut"])
def test_a_partial_last_sheet_gets_cut_lines_for_its_own_cards_only(
    tmp_path: Path, cutter: str
) -> None:
    loaded = read_deck("demo:pocketmodel")  # 8 units and 31 cards
    out = tmp_path / "tb.pdf"
    result = render_deck(loaded.deck, RenderOptions(cutter=cutter), out, base_dir=loaded.base_dir)
    layout = result.layouts[0]
    count = sum(1 for p in result.placements if p.side != "back")
    full, rest = divmod(count, layout.per_page)
    assert rest, "the demo deck must leave a partial last sheet for this test"
    names = [p.name for p in result.cut_files]
    last = f"tb-cut-sheet{full + 1:02d}"
    assert names == ["tb-cut.svg", "tb-cut.dxf", f"{last}.svg", f"{last}.dxf"]
    assert len(svg_cards(tmp_path / "tb-cut.svg")) == layout.per_page
    boxes = svg_cards(tmp_path / f"{last}.svg")
    assert len(boxes) == rest
    frame = cut_frame(layout)
    printed = [p.trim for p in result.placements if p.page == 2 * full + 1 and p.side != "back"]
    assert len(printed) == rest
    for (left, _top, _right, bottom), trim in zip(boxes, printed, strict=True):
        assert left + frame.x == pytest.approx(trim.x, abs=0.1)
        assert frame.top - bottom == pytest.approx(trim.y, abs=0.1)
    assert (
        len(list(ezdxf.readfile(tmp_path / f"{last}.dxf").modelspace().query("LWPOLYLINE"))) == rest
    )
    # each sheet's heading names its cut file
    reader = pdfium.PdfDocument(str(out))
    assert f"cut file {last}.svg" in reader[2 * full].get_textpage().get_text_range()
    assert "cut file tb-cut.svg" in reader[0].get_textpage().get_text_range()


def test_four_corner_marks_for_the_cameo_5(tmp_path: Path) -> None:
    from printables.regmarks import SILHOUETTE_4_MARKS

    result, page = render(tmp_path, "silhouette-4")
    layout = result.layouts[0]
    w, h = layout.page_width, layout.page_height
    # The three Type 1 marks as before ...
    assert dark(pixel(page, layout, 12.5, h - 12.5))
    assert dark(pixel(page, layout, w - 10 - 19.8, h - 10.25))
    assert dark(pixel(page, layout, 29.8, 10.25)) and dark(pixel(page, layout, 10.25, 29.8))
    # ... and a bottom-right L: arms 20 mm from the corner (w - 10, 10), 0.5 mm thick.
    assert dark(pixel(page, layout, w - 10 - 19.8, 10.25)) and dark(
        pixel(page, layout, w - 10.25, 29.8)
    )
    assert not dark(pixel(page, layout, w - 10 - 20.3, 10.25))
    assert not dark(pixel(page, layout, w - 10.25, 30.3))
    assert not dark(pixel(page, layout, w - 10.8, 10.8))  # inside the L: paper
    assert len(SILHOUETTE_4_MARKS.keep_out(w, h)) == 4
    for box in SILHOUETTE_4_MARKS.keep_out(w, h):
        for slot in layout.slots:
            assert not slot.bleed.overlaps(box)
    # the cut lines still match the printed cards (same layout rules, same frame)
    svg = result.cut_files[0]
    for (left, _top, _right, bottom), slot in zip(svg_cards(svg), layout.slots, strict=True):
        assert left == pytest.approx(slot.trim.x, abs=0.1)
        assert h - bottom == pytest.approx(slot.trim.y, abs=0.1)
    text = pdfium.PdfDocument(str(tmp_path / "deck.pdf"))[0].get_textpage().get_text_range()
    assert "registration marks: 4 marks (CAMEO 5), length 20 mm" in text
