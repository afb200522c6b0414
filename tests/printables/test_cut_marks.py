"""Cut marks wherever a blade goes, found in the rendered pages of every demo deck: each cut
line's crop marks in the margin, and its inner marks in every gap between cards it crosses
(two-tone, so they show on any frame colour), on the fronts and on the backs of ``separate``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest

from printables.cropmarks import INNER_TICK, inner_marks
from printables.deckfile import demo_names, read_deck
from printables.duplex import Duplex
from printables.layout import FURNITURE_HEIGHT, SheetLayout
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


def missing_marks(page: Page, layout: SheetLayout) -> list[str]:
    """Every cut line of ``layout`` without its crop marks in the margin, or without a
    two-tone mark in a gap between cards it crosses."""
    missing = []
    xs, ys = cut_lines(layout)
    grid, h, w = layout.grid, layout.page_height, layout.page_width
    band = layout.spec.page_margin + FURNITURE_HEIGHT  # heading above, ruler and note below
    for x in xs:  # above and below the grid, in the margin
        for y0, y1 in ((grid.top, h - band), (band, grid.y)):
            if not page.dark(x, y0, y1, vertical=True):
                missing.append(f"crop mark of x = {x:.2f} mm at y {y0:.1f}..{y1:.1f}")
    for y in ys:
        for x0, x1 in ((5, grid.x), (grid.right, w - 5)):
            if not page.dark(y, x0, x1, vertical=False):
                missing.append(f"crop mark of y = {y:.2f} mm at x {x0:.1f}..{x1:.1f}")
    across, down = gaps(layout)
    for low, high in across:  # each row line in each gap between columns
        shift = min(1.0, INNER_TICK / 2 - 0.5) if high - low < 2 else 0.0
        for y in ys:
            if not page.two_tone((low + high) / 2 - shift, y, horizontal=True):
                missing.append(f"inner mark of y = {y:.2f} mm between x {low:.1f} and {high:.1f}")
    for low, high in down:
        shift = min(1.0, INNER_TICK / 2 - 0.5) if high - low < 2 else 0.0
        for x in xs:
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
        for file in (out, backs_path(out)):
            assert missing_marks(Page(file, sheet), layout) == [], (file.name, sheet)


def test_without_the_new_marks_the_check_finds_them_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check above is not blind: with the inner marks taken out, the dark frame band
    between touching PocketModel cards shows no mark at the inner crossings, and without the
    marks on the backs file it finds none there."""
    import printables.cropmarks
    import printables.render

    monkeypatch.setattr(printables.cropmarks, "inner_marks", lambda layout: [])
    monkeypatch.setattr(printables.render, "inner_marks", lambda layout: [])
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
