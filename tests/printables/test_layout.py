"""Sheet layout maths in mm, without ReportLab."""

from __future__ import annotations

import itertools
import subprocess
import sys

import pytest

from printables.layout import (
    CARD_SIZES,
    FURNITURE_HEIGHT,
    PAPER_SIZES,
    BackAdjust,
    CardSize,
    Duplex,
    LayoutError,
    Rect,
    SheetSpec,
    adjust_point,
    back_slot_index,
    flip_rect,
    layout_sheet,
    mirrors_left_right,
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
    assert layout_sheet(spec).columns == 3
    wider = SheetSpec(card=CardSize(width=62.81, height=88), bleed=0.1, gutter=2.5)
    assert layout_sheet(wider).columns == 2


@EVERY_SPEC
def test_grid_is_centred_and_inside_the_margins(spec: SheetSpec) -> None:
    layout = layout_sheet(spec)
    grid = layout.grid
    assert grid.x == pytest.approx(layout.page_width - grid.right)
    assert grid.y == pytest.approx(layout.page_height - grid.top)
    assert grid.x >= spec.page_margin and grid.y >= spec.page_margin + FURNITURE_HEIGHT
    first, second = layout.slots[0], layout.slots[min(1, len(layout.slots) - 1)]
    assert (
        first.trim.width == spec.card.width
        and first.bleed.width == spec.card.width + 2 * spec.bleed
    )
    if layout.columns > 1:
        assert second.bleed.x - first.bleed.right == pytest.approx(spec.gutter)
    for a, b in itertools.combinations(layout.slots, 2):
        assert not a.bleed.overlaps(b.bleed)


@EVERY_SPEC
def test_crop_marks_continue_every_trim_line_outside_every_card(spec: SheetSpec) -> None:
    layout = layout_sheet(spec)
    marks = layout.crop_marks
    trim_xs = {round(x, 6) for s in layout.slots for x in (s.trim.x, s.trim.right)}
    trim_ys = {round(y, 6) for s in layout.slots for y in (s.trim.y, s.trim.top)}
    vertical = [m for m in marks if m.x0 == m.x1]
    horizontal = [m for m in marks if m.y0 == m.y1]
    assert {round(m.x0, 6) for m in vertical} == trim_xs
    assert {round(m.y0, 6) for m in horizontal} == trim_ys
    assert len(vertical) == 2 * len(trim_xs) and len(horizontal) == 2 * len(trim_ys)
    grid = layout.grid
    for m in marks:
        length = abs(m.x1 - m.x0) + abs(m.y1 - m.y0)
        assert 2.0 - 1e-9 <= length <= spec.crop_mark_length + 1e-9
        box = Rect(
            x=min(m.x0, m.x1) - 0.01,
            y=min(m.y0, m.y1) - 0.01,
            width=abs(m.x1 - m.x0) + 0.02,
            height=abs(m.y1 - m.y0) + 0.02,
        )
        assert not box.overlaps(grid)  # never over any card or its bleed
        assert not box.overlaps(layout.ruler)
        for x, y in ((m.x0, m.y0), (m.x1, m.y1)):
            assert spec.page_margin - 1e-9 <= x <= layout.page_width - spec.page_margin + 1e-9
            assert spec.page_margin - 1e-9 <= y <= layout.page_height - spec.page_margin + 1e-9


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
