"""Cut marks wherever a blade goes, found in the rendered pages of every demo deck: each cut
line's crop marks in the margin, and its inner marks in every gap between cards it crosses
(two-tone, so they show on any frame colour), on the fronts and on the backs of ``separate``.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest

from printables.cropmarks import INNER_TICK, inner_marks
from printables.deckfile import demo_names, read_deck
from printables.duplex import Duplex, back_slot_index, mirrors_left_right
from printables.layout import FURNITURE_HEIGHT, Rect, SheetLayout
from printables.render import RenderOptions, backs_path, render_deck

DPI = 300
DARK = 110  # grey level of the 0.3 pt black line at 300 dpi (a 1.25 px line, anti-aliased)
LIGHT = 200  # the white halo


class Page:
    """A page rendered in grey at :data:`DPI`, looked at in page mm (origin bottom-left)."""

    def __init__(self, path: Path, number: int) -> None:
        page = pdfium.PdfDocument(str(path))[number - 1]
        self.pixels = np.asarray(page.render(scale=DPI / 72, grayscale=True).to_pil().convert("L"))

    def window(self, x: float, y: float, across: float, along: float) -> np.ndarray:
        """The pixels within ``across`` mm of (x, y) in x and ``along`` mm in y."""
        k = DPI / 25.4
        height = self.pixels.shape[0]
        col, row = round(x * k), round(height - y * k)
        dx, dy = max(1, round(across * k)), max(1, round(along * k))
        return self.pixels[row - dy : row + dy + 1, col - dx : col + dx + 1]

    def two_tone(self, x: float, y: float, horizontal: bool) -> bool:
        """A dark stroke and a light one within 0.4 mm across a line through (x, y)."""
        box = self.window(x, y, 0.15, 0.4) if horizontal else self.window(x, y, 0.4, 0.15)
        return bool(box.min() < DARK and box.max() > LIGHT)

    def dark(self, x: float, y0: float, y1: float, *, vertical: bool) -> bool:
        """A dark pixel on the line at x between y0 and y1, 0.3 mm in from both (mm; x and y
        swapped for a row line)."""
        low, high = sorted((y0, y1))
        centre, half = (low + high) / 2, (high - low) / 2 - 0.3  # clear of the cards' edge
        box = self.window(x, centre, 0.1, half) if vertical else self.window(centre, x, half, 0.1)
        return bool(box.min() < DARK)


def cut_lines(layout: SheetLayout) -> tuple[list[float], list[float]]:
    """Every column trim line (x) and row trim line (y) of the grid, mm."""
    xs = sorted({round(v, 6) for s in layout.slots for v in (s.trim.x, s.trim.right)})
    ys = sorted({round(v, 6) for s in layout.slots for v in (s.trim.y, s.trim.top)})
    return xs, ys


def gaps(layout: SheetLayout) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """The gaps between neighbouring columns (x from, to) and rows (y from, to), mm."""
    row = layout.slots[: layout.columns]
    column = layout.slots[:: layout.columns]
    across = [(a.trim.right, b.trim.x) for a, b in zip(row, row[1:], strict=False)]
    down = [(b.trim.top, a.trim.y) for a, b in zip(column, column[1:], strict=False)]
    return across, down


def missing_marks(
    page: Page, layout: SheetLayout, filled: Collection[int] | None = None
) -> list[str]:
    """Every cut line of ``layout`` without its crop marks in the margin, or without a
    two-tone mark in a gap between cards it crosses; ``filled``: the slots that hold a card
    (None: all), only the marks beside one of them are looked for."""
    cards = (
        [s.trim for s in layout.slots] if filled is None else [layout.slots[i].trim for i in filled]
    )

    def near(line: float, *sides: tuple[str, float]) -> bool:
        """A card on the trim line ``line`` with one of ``sides`` (a Rect attribute and its
        place, mm) there: ``top``/``y`` sides ask about a column line, ``x``/``right`` a row."""
        column = sides[0][0] in ("top", "y")
        return any(
            any(abs(edge - line) < 1e-6 for edge in ((t.x, t.right) if column else (t.y, t.top)))
            and any(abs(getattr(t, name) - at) < 1e-6 for name, at in sides)
            for t in cards
        )

    missing = []
    xs, ys = cut_lines(layout)
    grid, h, w = layout.grid, layout.page_height, layout.page_width
    top, bottom = max(s.trim.top for s in layout.slots), min(s.trim.y for s in layout.slots)
    left, right = min(s.trim.x for s in layout.slots), max(s.trim.right for s in layout.slots)
    band = layout.spec.page_margin + FURNITURE_HEIGHT  # heading above, ruler and note below
    for x in xs:  # above and below the grid, in the margin
        for (y0, y1), side in (
            ((grid.top, h - band), ("top", top)),
            ((band, grid.y), ("y", bottom)),
        ):
            if near(x, side) and not page.dark(x, y0, y1, vertical=True):
                missing.append(f"crop mark of x = {x:.2f} mm at y {y0:.1f}..{y1:.1f}")
    for y in ys:
        for (x0, x1), side in (((5, grid.x), ("x", left)), ((grid.right, w - 5), ("right", right))):
            if near(y, side) and not page.dark(y, x0, x1, vertical=False):
                missing.append(f"crop mark of y = {y:.2f} mm at x {x0:.1f}..{x1:.1f}")
    across, down = gaps(layout)
    for low, high in across:  # each row line in each gap between columns
        shift = min(1.0, INNER_TICK / 2 - 0.5) if high - low < 2 else 0.0
        for y in ys:
            if not near(y, ("right", low), ("x", high)):
                continue
            if not page.two_tone((low + high) / 2 - shift, y, horizontal=True):
                missing.append(f"inner mark of y = {y:.2f} mm between x {low:.1f} and {high:.1f}")
    for low, high in down:
        shift = min(1.0, INNER_TICK / 2 - 0.5) if high - low < 2 else 0.0
        for x in xs:
            if not near(x, ("top", low), ("y", high)):
                continue
            if not page.two_tone(x, (low + high) / 2 - shift, horizontal=False):
                missing.append(f"inner mark of x = {x:.2f} mm between y {low:.1f} and {high:.1f}")
    return missing


@pytest.mark.parametrize("name", demo_names())
@pytest.mark.parametrize(("bleed", "gutter"), [(0.0, 0.0), (2.0, 0.0), (0.0, 3.0)])
def test_every_cut_line_has_its_marks_on_fronts_and_separate_backs(
    name: str, bleed: float, gutter: float, tmp_path: Path
) -> None:
    loaded = read_deck(f"demo:{name}")
    out = tmp_path / f"{name}.pdf"
    options = RenderOptions(bleed=bleed, gutter=gutter, duplex=Duplex.SEPARATE, qr=False)
    result = render_deck(loaded.deck, options, out, base_dir=loaded.base_dir)
    assert result.layouts and result.placements, name
    for layout in result.layouts:  # the first sheet of every card size
        size = (layout.spec.card.width, layout.spec.card.height)
        sheet = min(
            p.page
            for p in result.placements
            if p.file == 0 and (p.trim.width, p.trim.height) == size
        )
        assert inner_marks(layout), "a grid of several cards has inner marks"
        count = sum(1 for p in result.placements if p.file == 0 and p.page == sheet)
        left_right = mirrors_left_right(options.duplex, options.landscape)
        mirrored = [back_slot_index(layout, i, left_right=left_right) for i in range(count)]
        for file, filled in ((out, range(count)), (backs_path(out), mirrored)):
            found = missing_marks(Page(file, sheet), layout, filled)
            assert found == [], (file.name, sheet)


def test_without_the_new_marks_the_check_finds_them_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check above is not blind: with the inner marks taken out, the dark frame band
    between touching PocketModel cards shows no mark at the inner crossings, and without the
    marks on the backs file it finds none there."""
    import printables.cropmarks
    import printables.render

    monkeypatch.setattr(printables.cropmarks, "inner_marks", lambda layout, filled=None: [])
    monkeypatch.setattr(printables.render, "inner_marks", lambda layout, filled=None: [])
    monkeypatch.setattr(printables.render, "draw_marks", lambda c, marks: None)
    loaded = read_deck("demo:pocketmodel")
    out = tmp_path / "pm.pdf"
    options = RenderOptions(duplex=Duplex.SEPARATE, qr=False)
    result = render_deck(loaded.deck, options, out, base_dir=loaded.base_dir)
    layout = result.layouts[0]
    assert (layout.columns, layout.rows) == (3, 3)
    # the 2 inner row lines in the 2 gaps between columns, and the 2 inner column lines in
    # the 2 gaps between rows (the grid's outer lines meet the white margin, which shows them)
    missing = missing_marks(Page(out, 1), layout)
    assert len(missing) == 8
    assert all(m.startswith("inner mark") for m in missing)
    missing = missing_marks(Page(backs_path(out), 1), layout)
    assert len([m for m in missing if m.startswith("crop mark")]) == 2 * (4 + 4)
    assert len([m for m in missing if m.startswith("inner mark")]) == 8


def mark_lines(
    pdf: Path, page: int, layout: SheetLayout
) -> list[tuple[float, float, float, float]]:
    """The cut-mark strokes of a page (mm): axis-parallel lines on a trim line of the grid, no
    longer than a crop mark, not inside any card (a face's own lines are), outside the
    heading and the ruler band."""
    import pypdf

    from tests.printables.conftest import read_page

    xs, ys = cut_lines(layout)
    band = layout.spec.page_margin + FURNITURE_HEIGHT
    found = []
    for x0, y0, x1, y1 in read_page(pypdf.PdfReader(str(pdf)).pages[page - 1]).lines:
        vertical, horizontal = abs(x0 - x1) < 1e-3, abs(y0 - y1) < 1e-3
        on_line = (vertical and any(abs(x0 - x) < 1e-3 for x in xs)) or (
            horizontal and any(abs(y0 - y) < 1e-3 for y in ys)
        )
        mid_x, mid_y = (x0 + x1) / 2, (y0 + y1) / 2
        inside = any(
            s.trim.x + 0.01 < mid_x < s.trim.right - 0.01
            and s.trim.y + 0.01 < mid_y < s.trim.top - 0.01
            for s in layout.slots
        )
        long = max(abs(x1 - x0), abs(y1 - y0)) > layout.spec.crop_mark_length + 1e-3
        in_band = min(y0, y1) < band or max(y0, y1) > layout.page_height - band
        if on_line and not inside and not long and not in_band:
            found.append((x0, y0, x1, y1))
    return found


def distance(line: tuple[float, float, float, float], box: Rect) -> float:
    """How far a line segment (mm) keeps from a rectangle, mm (0 where they touch)."""
    x0, y0, x1, y1 = line
    dx = max(box.x - max(x0, x1), min(x0, x1) - box.right, 0.0)
    dy = max(box.y - max(y0, y1), min(y0, y1) - box.top, 0.0)
    return float(np.hypot(dx, dy))


@pytest.mark.parametrize(("bleed", "gutter"), [(0.0, 0.0), (2.0, 3.0)])
def test_a_last_sheet_marks_its_own_cards_only(bleed: float, gutter: float, tmp_path: Path) -> None:
    """The 39 PocketModel cards leave 3 on their last sheet (3 x 3 sheets; 2 x 2 with bleed
    and gutter): its fronts and its backs sheet carry crop and inner marks beside those 3
    cards only, none beside an empty slot (a mark there says "cut here" around a blank
    card). The same check finds marks far from the first 3 cards on a full sheet, so it is
    not blind."""
    loaded = read_deck("demo:pocketmodel")
    out = tmp_path / "pm.pdf"
    options = RenderOptions(bleed=bleed, gutter=gutter, duplex=Duplex.SEPARATE, qr=False)
    result = render_deck(loaded.deck, options, out, base_dir=loaded.base_dir)
    layout = result.layouts[0]
    sheets = -(-39 // layout.per_page)
    assert (layout.per_page, result.pages) == ((9, (5, 5)) if gutter == 0 else (4, (10, 10)))
    last = [p for p in result.placements if p.page == sheets]
    fronts = [p.trim for p in last if p.side != "back"]
    backs = [p.trim for p in last if p.side == "back"]
    assert len(fronts) == len(backs) == 3
    reach = bleed + layout.spec.crop_mark_offset + layout.spec.crop_mark_length + 1.0
    assert reach < min(layout.spec.card.width, layout.spec.card.height) / 2

    def far(pdf: Path, page: int, cards: list[Rect]) -> list[tuple[float, float, float, float]]:
        lines = mark_lines(pdf, page, layout)
        assert len(lines) >= 8, (pdf.name, page)  # at least a card's own 4 corners, 2 each
        return [line for line in lines if min(distance(line, c) for c in cards) > reach]

    assert far(out, sheets, fronts) == []
    assert far(backs_path(out), sheets, backs) == []
    # a full sheet has marks beside its other cards
    assert far(out, 1, [s.trim for s in layout.slots[:3]])
    left_right = mirrors_left_right(options.duplex, options.landscape)
    mirrored = [layout.slots[back_slot_index(layout, i, left_right=left_right)] for i in range(3)]
    assert far(backs_path(out), 1, [s.trim for s in mirrored])
