"""Sheet layout maths in mm, without ReportLab."""

from __future__ import annotations

import itertools
import subprocess
import sys
from dataclasses import replace

import pytest

from printables.duplex import (
    BackAdjust,
    Duplex,
    adjust_point,
    back_slot_index,
    flip_rect,
    mirrors_left_right,
)
from printables.layout import (
    CARD_SIZES,
    FURNITURE_HEIGHT,
    MIN_CROP_MARK_GAP,
    MIN_CROP_MARK_LENGTH,
    PAPER_SIZES,
    SHORTEST_CROP_MARK,
    CardSize,
    LayoutError,
    Rect,
    Segment,
    SheetLayout,
    SheetSpec,
    crop_mark_notes,
    layout_sheet,
    parse_card_size,
)

ALL_SPECS = [
    SheetSpec(
        card=parse_card_size(card), paper=paper, landscape=landscape, bleed=bleed, gutter=gutter
    )
    for card, paper, landscape, (bleed, gutter) in itertools.product(
        ["poker", "tcg", "mini", "tarot"], PAPER_SIZES, [False, True], [(0, 0), (2, 3)]
    )
]


def spec_id(spec: SheetSpec) -> str:
    """Readable test id of a sheet spec."""
    return f"{spec.card.name}-{spec.paper}-{'L' if spec.landscape else 'P'}-b{spec.bleed}"


EVERY_SPEC = pytest.mark.parametrize("spec", ALL_SPECS, ids=spec_id)


def test_presets_and_custom_sizes() -> None:
    assert CARD_SIZES["poker"] == (63.5, 88.9) and CARD_SIZES["tf-character"] == (88.0, 126.0)
    assert parse_card_size("70x120mm") == CardSize(width=70, height=120)
    with pytest.raises(LayoutError, match="card size must be one of"):
        parse_card_size("huge")
    with pytest.raises(LayoutError, match=r"card width must be 20..300 mm, got 5 mm"):
        parse_card_size("5x80")
    with pytest.raises(LayoutError, match=r"bleed must be 0..10 mm, got 11"):
        SheetSpec(card=parse_card_size("tcg"), bleed=11)


@pytest.mark.parametrize(
    ("paper", "landscape", "card", "grid"),
    [
        ("a4", False, "poker", (3, 3)),
        ("a4", False, "mini", (4, 4)),
        ("a4", True, "tcg", (4, 2)),
        ("a3", False, "tarot", (4, 3)),
        ("letter", True, "poker", (4, 2)),
        ("a4", False, "tf-character", (2, 2)),
    ],
)
def test_grid_counts(paper: str, landscape: bool, card: str, grid: tuple[int, int]) -> None:
    layout = layout_sheet(SheetSpec(card=parse_card_size(card), paper=paper, landscape=landscape))
    assert (layout.columns, layout.rows) == grid
    assert layout.page_width == PAPER_SIZES[paper][1 if landscape else 0]


def test_a_grid_that_fits_exactly_keeps_its_last_column() -> None:
    # A4 width 210 - 2 * (5 margin + 3 crop-mark room) = 194 mm, filled exactly by three
    # 63.0 mm bleed boxes (62.8 + 2 * 0.1) and two 2.5 mm gutters; in floats 3 * 63.0 + 5.0
    # and the division are not exact, so a plain floor() would drop the third column.
    spec = SheetSpec(card=CardSize(width=62.8, height=88), bleed=0.1, gutter=2.5)
    cell = 62.8 + 0.2
    assert 3 * cell + 2 * 2.5 == pytest.approx(194.0)
    layout = layout_sheet(spec)
    assert layout.columns == 3 and layout.crop_mark_places == ("outside", "outside")
    assert crop_mark_notes(layout) == []
    # 0.01 mm wider: full-length marks no longer fit beside the grid, the column stays and
    # the side marks shorten (offset 1 -> 0.985 mm beyond the bleed, length 2 mm)
    wider = layout_sheet(SheetSpec(card=CardSize(width=62.81, height=88), bleed=0.1, gutter=2.5))
    assert wider.columns == 3 and wider.crop_mark_places == ("shortened", "outside")
    left = [m for m in wider.crop_marks if m.y0 == m.y1 and m.x0 < 105]
    assert {round(m.x0, 3) for m in left} == {round(wider.grid.x - 0.985, 3)}
    assert {round(m.x1, 3) for m in left} == {5.0}  # ends on the page margin


def _mark_box(m: Segment, pad: float = 0.0) -> Rect:
    return Rect(
        x=min(m.x0, m.x1) - pad,
        y=min(m.y0, m.y1) - pad,
        width=abs(m.x1 - m.x0) + 2 * pad,
        height=abs(m.y1 - m.y0) + 2 * pad,
    )


def check_crop_marks(layout: SheetLayout) -> None:
    """Every trim line has marks; every mark lies inside the margins and furniture bands, at
    least MIN_CROP_MARK_GAP from every trim box, and is at least SHORTEST_CROP_MARK long (at
    its normal place beyond the bleed and at least MIN_CROP_MARK_LENGTH)."""
    spec = layout.spec
    marks = layout.crop_marks
    trim_xs = {round(x, 6) for s in layout.slots for x in (s.trim.x, s.trim.right)}
    trim_ys = {round(y, 6) for s in layout.slots for y in (s.trim.y, s.trim.top)}
    vertical = [m for m in marks if m.x0 == m.x1]
    horizontal = [m for m in marks if m.y0 == m.y1]
    assert {round(m.x0, 6) for m in vertical} == trim_xs
    assert {round(m.y0, 6) for m in horizontal} == trim_ys
    for axis, group in ((0, horizontal), (1, vertical)):
        place = layout.crop_mark_places[axis]
        lines = trim_ys if axis == 0 else trim_xs
        count = layout.columns if axis == 0 else layout.rows
        assert len(group) == (count - 1 if place == "gutter" else 2) * len(lines)
        for m in group:
            length = abs(m.x1 - m.x0) + abs(m.y1 - m.y0)
            shortest = MIN_CROP_MARK_LENGTH if place == "outside" else SHORTEST_CROP_MARK
            assert shortest - 1e-9 <= length <= spec.crop_mark_length + 1e-9
            if place == "outside":
                assert not _mark_box(m, 0.01).overlaps(layout.grid)  # off every bleed box
    for m in marks:
        box = _mark_box(m)
        for slot in layout.slots:
            assert not box.overlaps(slot.trim.inset(-(MIN_CROP_MARK_GAP - 1e-6)))
        assert not _mark_box(m, 0.01).overlaps(layout.ruler)
        low, high = spec.page_margin - 1e-9, spec.page_margin + FURNITURE_HEIGHT - 1e-9
        assert low <= box.x and box.right <= layout.page_width - low
        assert high <= box.y and box.top <= layout.page_height - high


@EVERY_SPEC
def test_crop_marks_continue_every_trim_line_and_never_touch_a_card(spec: SheetSpec) -> None:
    check_crop_marks(layout_sheet(spec))


@pytest.mark.parametrize(
    ("card", "bleed", "gutter", "place", "columns", "length"),
    [
        # A4 portrait, 5 mm margins: 200 mm across. Room beside the grid = (200 - grid) / 2.
        (65.5, 0.0, 0.0, "shortened", 3, 1.25),  # 1.75 mm room: 0.5 mm gap + 1.25 mm mark
        (63.0, 1.5, 0.0, "bleed", 3, 2.0),  # 1 mm room + 1.5 mm bleed: 0.5 .. 2.5 mm out
        (64.0, 0.0, 4.0, "gutter", 3, 3.0),  # exact fit, 4 mm gutters: 3 mm marks in them
        (66.6, 0.0, 0.0, "outside", 2, 5.0),  # nowhere to put a mark: the column is given up
    ],
)
def test_an_exact_fit_keeps_its_column_with_crop_marks(
    card: float, bleed: float, gutter: float, place: str, columns: int, length: float
) -> None:
    spec = SheetSpec(card=CardSize(width=card, height=88), bleed=bleed, gutter=gutter)
    without = layout_sheet(replace(spec, crop_marks=False))
    assert without.columns == 3
    layout = layout_sheet(spec)
    assert (layout.columns, layout.crop_mark_places[0]) == (columns, place)
    assert layout.lost_to_crop_marks == (3 - columns, 0)
    side = [m for m in layout.crop_marks if m.y0 == m.y1]
    assert min(abs(m.x1 - m.x0) for m in side) == pytest.approx(length)
    check_crop_marks(layout)
    (note,) = crop_mark_notes(layout)
    expected = {
        "shortened": "crop marks left and right of the grid shortened to 1.2 mm (1.8 mm free",
        "bleed": "crop marks left and right of the grid moved onto the 1.5 mm bleed, 2.0 mm",
        "gutter": "crop marks of the row cut lines moved into the gaps between the cards, 3.0",
        "outside": "crop marks cost 1 of 3 columns of 66.6 x 88 mm cards: no room for a 1 mm",
    }[place if columns == 3 else "outside"]
    assert note.startswith(expected), note
    if place == "gutter":  # centred between the neighbouring trim lines
        gap = layout.slots[1].trim.x - layout.slots[0].trim.right
        first = min(side, key=lambda m: (m.x0, m.y0))
        assert first.x0 - layout.slots[0].trim.right == pytest.approx((gap - 3.0) / 2)


def test_poker_on_letter_with_2_mm_margins_keeps_3_rows_with_crop_marks() -> None:
    # 279.4 - 2 * (2 + 4 furniture) = 267.4 mm high for three 88.9 mm cards (266.7 mm): the
    # 0.35 mm left above and below holds no mark, nor does a bleed or gutter: the run says
    # the third row is lost; with a 1 mm bleed the marks move onto it and the row stays.
    spec = SheetSpec(card=parse_card_size("poker"), paper="letter", page_margin=2.0)
    assert layout_sheet(replace(spec, crop_marks=False)).rows == 3
    lost = layout_sheet(spec)
    assert (lost.rows, lost.lost_to_crop_marks) == (2, (0, 1))
    assert "crop marks cost 1 of 3 rows" in crop_mark_notes(lost)[0]
    gutter = layout_sheet(replace(spec, card=CardSize(width=63.5, height=87.5), gutter=2.0))
    assert gutter.rows == 3 and gutter.crop_mark_places[1] == "gutter"
    check_crop_marks(gutter)


def test_ruler_is_50_mm_in_the_bottom_band() -> None:
    layout = layout_sheet(SheetSpec(card=parse_card_size("poker")))
    assert layout.ruler.width == 50.0
    assert layout.ruler.y >= 5.0 and layout.ruler.top <= 5.0 + FURNITURE_HEIGHT
    assert layout.heading_origin[1] > layout.grid.top


def test_card_too_big_for_the_paper() -> None:
    with pytest.raises(LayoutError, match="does not fit on a4 landscape"):
        layout_sheet(SheetSpec(card=CardSize(width=150, height=200), landscape=True))


@pytest.mark.parametrize(
    ("duplex", "landscape", "left_right"),
    [
        (Duplex.LONG_EDGE, False, True),
        (Duplex.LONG_EDGE, True, False),
        (Duplex.SHORT_EDGE, False, False),
        (Duplex.SHORT_EDGE, True, True),
        (Duplex.SEPARATE, False, True),
    ],
)
def test_duplex_axis(duplex: Duplex, landscape: bool, left_right: bool) -> None:
    assert mirrors_left_right(duplex, landscape) is left_right


@EVERY_SPEC
@pytest.mark.parametrize("duplex", [Duplex.LONG_EDGE, Duplex.SHORT_EDGE, Duplex.SEPARATE])
def test_back_of_card_k_lands_behind_card_k(spec: SheetSpec, duplex: Duplex) -> None:
    layout = layout_sheet(spec)
    left_right = mirrors_left_right(duplex, spec.landscape)
    targets = set()
    for slot in layout.slots:
        target = layout.slots[back_slot_index(layout, slot.index, left_right=left_right)]
        targets.add(target.index)
        behind = flip_rect(
            slot.trim,
            page_width=layout.page_width,
            page_height=layout.page_height,
            left_right=left_right,
        )
        assert behind.x == pytest.approx(target.trim.x, abs=1e-9)
        assert behind.y == pytest.approx(target.trim.y, abs=1e-9)
    assert targets == set(range(layout.per_page))  # a permutation: no two backs share a slot


def test_first_slot_of_a4_poker_long_edge_goes_to_the_top_right() -> None:
    layout = layout_sheet(SheetSpec(card=parse_card_size("poker")))
    assert back_slot_index(layout, 0, left_right=True) == 2
    assert back_slot_index(layout, 0, left_right=False) == 6
    # 210 - 190.5 = 19.5 mm free across: the grid starts at 9.75 mm.
    assert layout.slots[0].trim.x == pytest.approx(9.75)
    assert layout.slots[2].trim.right == pytest.approx(210 - 9.75)


def test_back_adjust_shifts_and_rotates_about_the_page_centre() -> None:
    assert adjust_point(
        10, 20, page_width=210, page_height=297, adjust=BackAdjust(dx=1.5, dy=-0.5)
    ) == (11.5, 19.5)
    x, y = adjust_point(
        105 + 100, 148.5, page_width=210, page_height=297, adjust=BackAdjust(rotation_deg=1.0)
    )
    assert x == pytest.approx(105 + 100 * 0.9998477) and y == pytest.approx(
        148.5 + 1.745241, abs=1e-5
    )
    with pytest.raises(LayoutError, match="dx must be -20..20 mm"):
        BackAdjust(dx=25)


def test_layout_imports_no_reportlab() -> None:
    code = "import sys, printables.layout; print('reportlab' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_a_card_that_does_not_fit_lists_the_sheets_it_fits() -> None:
    from printables.layout import DoesNotFitError, fits_on

    spec = SheetSpec(card=CardSize(width=250, height=150))
    assert fits_on(spec) == (("a4", True), ("a3", False), ("a3", True))
    with pytest.raises(DoesNotFitError) as info:
        layout_sheet(spec)
    assert info.value.fits_on == (("a4", True), ("a3", False), ("a3", True))
    assert str(info.value).endswith("; it fits on a4 landscape or a3 portrait or a3 landscape")
    assert fits_on(SheetSpec(card=CardSize(width=300, height=300), paper="a3")) == ()


def test_setting_errors_name_the_setting_and_paper_is_case_insensitive() -> None:
    from printables.layout import SettingError

    assert SheetSpec(card=CardSize(width=63, height=88), paper=" A4 ").paper == "a4"
    with pytest.raises(SettingError) as info:
        SheetSpec(card=CardSize(width=63, height=88), page_margin=float("nan"))
    assert (info.value.setting, info.value.allowed, info.value.found_text) == (
        "page_margin",
        "0..40 mm",
        "nan",
    )
    with pytest.raises(SettingError, match=r"rotation_deg must be -5..5 degrees, got inf"):
        BackAdjust(rotation_deg=float("inf"))
