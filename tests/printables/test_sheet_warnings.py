"""``tablesmith cards`` says what a sheet costs or risks: cards per sheet and pages, crop marks
shortened or moved to keep an exact fit (or a column they cost), a page margin too small for
most printers, a back offset or rotation that moves a back off the paper or into the border."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablesmith import cli

DECK = """game: toy-battle
deck: few
cards:
  - {troop: Star, name: Star, colour: blue, copies: 4, text: "Draw 1 troop."}
  - {troop: Jumbo, name: Jumbo, colour: red, copies: 3}
"""


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TABLESMITH_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "few.yaml").write_text(DECK, encoding="utf-8")

    def invoke(*args: str) -> tuple[int, list[str]]:
        result = CliRunner().invoke(cli, ["cards", "few.yaml", "--no-qr", *args])
        assert "Traceback" not in result.output
        return result.exit_code, result.output.splitlines()

    return invoke


def warnings(lines: list[str]) -> list[str]:
    """The warnings of a run, without the deck's legality warnings (TB-1 counts)."""
    return [
        line.removeprefix("warning: ")
        for line in lines
        if line.startswith("warning: ") and not line.startswith("warning: few.yaml:")
    ]


def test_cards_per_sheet_and_pages_are_printed(run) -> None:
    code, lines = run("--duplex", "long-edge")
    assert code == 0
    assert "63 x 88 mm: 3 x 3 = 9 cards per sheet, 7 cards on 1 sheet(s)" in lines
    assert "pages: 2" in lines  # a front and its back
    code, lines = run("--duplex", "separate", "--card-size", "mini")
    assert "44 x 63 mm: 4 x 4 = 16 cards per sheet, 7 cards on 1 sheet(s)" in lines
    assert "pages: 1 + 1" in lines  # fronts file + backs file
    assert warnings(lines) == []


def test_an_exact_fit_keeps_its_column_and_says_what_the_crop_marks_gave(run) -> None:
    # 3 x 65.5 mm = 196.5 of A4's 200 mm inside 5 mm margins: 1.75 mm beside the grid
    code, lines = run("--card-size", "65.5x88", "--duplex", "none")
    assert code == 0
    assert "65.5 x 88 mm: 3 x 3 = 9 cards per sheet, 7 cards on 1 sheet(s)" in lines
    assert warnings(lines) == [
        "crop marks left and right of the grid shortened to 1.2 mm (1.8 mm free left and "
        "right of the grid inside the margins; marks at full length would cost a column of "
        "65.5 x 88 mm cards)"
    ]
    # 3 x 66.6 = 199.8 mm: 0.1 mm beside the grid holds no mark, and there is no bleed or
    # gutter: the column is given up, and the run says so
    code, lines = run("--card-size", "66.6x88", "--duplex", "none")
    assert "66.6 x 88 mm: 2 x 3 = 6 cards per sheet, 7 cards on 2 sheet(s)" in lines
    assert warnings(lines) == [
        "crop marks cost 1 of 3 columns of 66.6 x 88 mm cards: no room for a 1 mm mark "
        "(0.1 mm free left and right of the grid inside the margins) and no bleed or gutter "
        "to hold one; --no-crop-marks keeps it"
    ]
    code, lines = run("--card-size", "66.6x88", "--duplex", "none", "--no-crop-marks")
    assert "66.6 x 88 mm: 3 x 3 = 9 cards per sheet, 7 cards on 1 sheet(s)" in lines
    assert warnings(lines) == []


def test_a_page_margin_under_4_mm_is_warned_about(run) -> None:
    code, lines = run("--page-margin", "3", "--duplex", "none")
    assert code == 0
    assert warnings(lines) == [
        "--page-margin 3 mm: most printers cannot print within about 4 mm of the paper edge; "
        "crop marks and card edges there may be missing"
    ]
    assert warnings(run("--page-margin", "4", "--duplex", "none")[1]) == []


def test_a_back_offset_into_the_border_or_off_the_paper_names_card_and_distance(run) -> None:
    # A4 portrait, 3 x 3 TCG cards: the grid spans x 10.5..199.5 mm. Long-edge backs are
    # mirrored left-right: Star (front slots 0..3) has backs in slots 2, 1, 0, 5 and Jumbo
    # (front slots 4..6) in 4, 3, 8; slots 2, 5 and 8 are in the right column. A 6 mm shift
    # right puts the right column 0.5 mm past 205 mm (the 5 mm border), 11 mm 0.5 mm past
    # the paper's edge at 210 mm. Each card is named once.
    code, lines = run("--back-offset", "6,0")
    assert code == 0
    assert warnings(lines) == [
        f"the back offset/rotation moves the back of card '{name}' (sheet 1) 0.5 mm into the "
        "5 mm unprintable border at the right"
        for name in ("Star", "Jumbo")
    ]
    code, lines = run("--back-offset", "11,0")
    assert warnings(lines) == [
        f"the back offset/rotation moves the back of card '{name}' (sheet 1) 0.5 mm off the "
        "paper at the right"
        for name in ("Star", "Jumbo")
    ]
    assert warnings(run("--back-offset", "5,0")[1]) == []  # exactly on the border: fine


def test_a_back_rotation_is_measured_at_the_far_corner(run) -> None:
    # 3 degrees counter-clockwise about the page centre (105, 148.5): the top-left corner
    # of back slot 0 (Star) at (10.5, 280.5) moves to x = 105 - 94.5 cos 3 - 132 sin 3, the
    # bottom-right corner of slot 8 (Jumbo) at (199.5, 16.5) to 105 + 94.5 cos 3 + 132 sin 3
    reach = 5.0 - (105 - 94.5 * math.cos(math.radians(3)) - 132 * math.sin(math.radians(3)))
    assert reach == pytest.approx(1.28, abs=0.01)
    code, lines = run("--back-rotation", "3")
    assert code == 0
    assert warnings(lines) == [
        f"the back offset/rotation moves the back of card '{name}' (sheet 1) {reach:.1f} mm "
        f"into the 5 mm unprintable border at the {side}"
        for name, side in (("Star", "left"), ("Jumbo", "right"))
    ]
    assert warnings(run("--back-rotation", "2")[1]) == []  # corners stay 0.95 mm inside
