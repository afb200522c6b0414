"""Toy Battle printables: a player aid per terrain and spare troop tiles (issue 8, point 3)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from games.toybattle.terrains import TERRAINS
from printables.layout import CardSize, Rect, SheetSpec, layout_sheet
from printables.toybattle_aids import (
    ASPECT,
    DEFAULT_TILE_SIZE,
    TEXT,
    AidError,
    graph_frame,
    node_points,
    render_aids,
    tile_items,
)


def test_tiles_are_three_of_each_type_in_both_colours() -> None:
    items = tile_items()
    assert len(items) == 48
    assert Counter(items) == {(c, t): 3 for c in ("blue", "red") for t in range(8)}


def test_graph_frame_keeps_the_phones_aspect_and_centres() -> None:
    x0, y_top, width = graph_frame(Rect(x=10, y=20, width=200, height=118))
    assert [x0, y_top, width] == pytest.approx([60, 138, 100])
    points = node_points(TERRAINS["castle"], Rect(x=0, y=0, width=100, height=118), inset=0)
    assert list(points[1]) == pytest.approx([50, 0])  # blue H.Q. at the bottom
    assert list(points[41]) == pytest.approx([50, 118])  # red at the top
    assert round(ASPECT, 2) == 1.18


def test_every_text_exists_in_english_and_german() -> None:
    assert set(TEXT["en"]) == set(TEXT["de"])
    assert set(TERRAINS) <= set(TEXT["en"])


@pytest.mark.parametrize("language", ["en", "de"])
def test_aids_pdf_has_a_page_per_terrain_and_the_tiles(tmp_path: Path, language: str) -> None:
    out = tmp_path / "aids.pdf"
    result = render_aids(out, language=language)
    assert (result.aid_pages, result.tile_pages, result.overflows) == (8, 1, ())
    reader = pypdf.PdfReader(str(out))
    assert len(reader.pages) == 9
    for page, terrain in zip(reader.pages, TERRAINS.values()):
        text = page.extract_text()
        assert terrain.name in text
        assert f"{terrain.objective} " in text and terrain.rule in text
    tiles = reader.pages[8].extract_text()
    assert tiles.count("Roxy") == 6 and tiles.count("XB-42") == 6
    assert ("Spielhilfe" in reader.pages[0].extract_text()) == (language == "de")


def test_tile_size_is_a_parameter_with_the_real_size_on_paper(tmp_path: Path) -> None:
    small = render_aids(tmp_path / "s.pdf", tile_size=20)
    assert small.tiles_per_page > render_aids(tmp_path / "d.pdf").tiles_per_page
    assert DEFAULT_TILE_SIZE == 30.0
    big = render_aids(tmp_path / "b.pdf", tile_size=60)
    assert big.tile_pages == -(-48 // big.tiles_per_page) and big.tile_pages > 1
    with pytest.raises(AidError, match=r"tile_size must be 15..60 mm, got 99"):
        render_aids(tmp_path / "x.pdf", tile_size=99)
    with pytest.raises(AidError, match=r"language"):
        render_aids(tmp_path / "x.pdf", language="fr")


def test_cli_writes_the_aids(tmp_path: Path) -> None:
    from tablesmith import cli

    runner = CliRunner()
    out = str(tmp_path / "tb.pdf")
    result = runner.invoke(cli, ["toy-battle-aids", "-o", out, "--tile-size", "25"])
    assert result.exit_code == 0, result.output
    assert "8 player aids" in result.output and "25 mm" in result.output
    assert Path(out).stat().st_size > 10_000
    bad = runner.invoke(cli, ["toy-battle-aids", "-o", out, "--tile-size", "5"])
    assert bad.exit_code == 2 and "--tile-size must be 15..60 mm, got 5 mm" in bad.output


def test_the_a3_tile_sheet_counts_the_tiles_it_prints_and_marks_no_empty_slot(
    tmp_path: Path, page_content
) -> None:
    from tablesmith import cli

    out = tmp_path / "a3.pdf"
    result = CliRunner().invoke(cli, ["toy-battle-aids", "-o", str(out), "--paper", "a3"])
    assert result.exit_code == 0, result.output
    assert "48 tiles at 30 mm on 1 page(s) of up to 108" in result.output
    lines = page_content(pypdf.PdfReader(str(out)).pages[8]).lines
    marks = [line for line in lines if min(line[1], line[3]) > 20]  # above the ruler band
    tile = CardSize(width=30, height=30, min_side=15)
    slots = layout_sheet(SheetSpec(card=tile, paper="a3", gutter=2.0)).slots
    below_last_tile = slots[47].trim.y - 2.0 - 0.01  # the gap under the sixth row of tiles
    assert {round(line[0], 3) for line in marks} >= {round(s.trim.x, 3) for s in slots[:9]}
    assert marks and all(min(line[1], line[3]) >= below_last_tile for line in marks)
    full = render_aids(tmp_path / "full.pdf", paper="a3")
    assert (full.tiles, full.tiles_per_page, full.tile_pages) == (48, 108, 1)


def test_landscape_aids_and_tiles(tmp_path: Path) -> None:
    out = tmp_path / "l.pdf"
    result = render_aids(out, landscape=True, language="de")
    assert (result.aid_pages, result.tiles, result.overflows) == (8, 48, ())
    for page in pypdf.PdfReader(str(out)).pages:
        assert float(page.mediabox.width) > float(page.mediabox.height)
    assert "Spielhilfe" in pypdf.PdfReader(str(out)).pages[0].extract_text()
