"""The print scale: the calibration sheet's 100 mm rulers measured in the PDF, a per-axis
correction (option and printer profile) that scales every page about its centre, and duplex
pairing that still holds with it."""

from __future__ import annotations

import math
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from printables.calibration import render_calibration
from printables.deckfile import read_deck
from printables.duplex import Duplex, PrintScale, scale_point
from printables.layout import SettingError
from printables.render import RenderOptions, render_deck
from tablesmith import cli


def rulers(pdf: Path, page_content) -> tuple[float, float]:
    """(across, up) lengths of the calibration sheet's size rulers as drawn, mm: the longest
    horizontal and the longest vertical line on the front page."""
    page = page_content(pypdf.PdfReader(pdf).pages[0])
    across = max(abs(x1 - x0) for x0, y0, x1, y1 in page.lines if abs(y1 - y0) < 1e-6)
    up = max(abs(y1 - y0) for x0, y0, x1, y1 in page.lines if abs(x1 - x0) < 1e-6)
    return across, up


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("landscape", [False, True])
def test_the_rulers_measure_100_mm_at_scale_1(
    tmp_path: Path, page_content, paper: str, landscape: bool
) -> None:
    out = tmp_path / "cal.pdf"
    render_calibration(out, paper=paper, landscape=landscape)
    assert rulers(out, page_content) == (
        pytest.approx(100.0, abs=1e-3),
        pytest.approx(100.0, abs=1e-3),
    )


def test_a_correction_scales_the_rulers_per_axis(tmp_path: Path, page_content) -> None:
    out = tmp_path / "cal.pdf"
    render_calibration(out, scale=PrintScale(x=1.004, y=0.985))
    across, up = rulers(out, page_content)
    assert across == pytest.approx(100.4, abs=1e-3)
    assert up == pytest.approx(98.5, abs=1e-3)


def test_the_scale_is_about_the_page_centre_and_checked() -> None:
    scale = PrintScale(x=1.01, y=0.99)
    assert scale_point(105, 148.5, page_width=210, page_height=297, scale=scale) == (105, 148.5)
    assert scale_point(5, 48.5, page_width=210, page_height=297, scale=scale) == pytest.approx(
        (4.0, 49.5)
    )
    for bad in (0.9, 1.06, math.nan):
        with pytest.raises(SettingError, match="scale_x must be 0.95..1.05"):
            PrintScale(x=bad)


@pytest.mark.parametrize(
    ("duplex", "landscape"),
    [(Duplex.LONG_EDGE, False), (Duplex.SHORT_EDGE, True), (Duplex.LONG_EDGE, True)],
)
def test_duplex_pairing_holds_with_a_scale(
    tmp_path: Path, page_content, duplex: Duplex, landscape: bool
) -> None:
    """Each back face, as printed (scaled) and turned with the sheet, lies exactly behind its
    front face as printed: to 0.0001 mm."""
    scale = PrintScale(x=1.012, y=0.988)
    deck = read_deck("demo:toy-battle").deck
    out = tmp_path / "s.pdf"
    options = RenderOptions(duplex=duplex, landscape=landscape, scale=scale)
    result = render_deck(deck, options, out)
    reader = pypdf.PdfReader(out)
    w = float(reader.pages[0].mediabox.width) * 25.4 / 72
    h = float(reader.pages[0].mediabox.height) * 25.4 / 72
    left_right = (duplex is Duplex.LONG_EDGE) != landscape
    size = result.layouts[0].spec.card
    checked = 0
    for front_no in (1, 3):
        front = page_content(reader.pages[front_no - 1])
        back = page_content(reader.pages[front_no])
        fronts = sorted((x, y) for name, x, y in front.forms if ".face" in name)
        backs = [
            (x, y) for name, x, y in back.forms if "back" in name.lower() and ".face" not in name
        ]
        assert len(fronts) == result.layouts[0].per_page
        for fx, fy in fronts:
            # the printed box of this front face: origin (fx, fy), size scaled
            fw, fh = size.width * scale.x, size.height * scale.y
            # turning the sheet maps the front box onto the back page here:
            tx, ty = (w - fx - fw, fy) if left_right else (fx, h - fy - fh)
            nearest = min(backs, key=lambda b: math.hypot(b[0] - tx, b[1] - ty))
            assert nearest == (pytest.approx(tx, abs=1e-4), pytest.approx(ty, abs=1e-4))
            checked += 1
    assert checked == 2 * result.layouts[0].per_page
    unscaled = render_deck(
        deck, RenderOptions(duplex=duplex, landscape=landscape), tmp_path / "u.pdf"
    )
    assert [p.trim for p in unscaled.placements] == [p.trim for p in result.placements]


def test_print_scale_option_and_profile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, page_content
) -> None:
    monkeypatch.setenv("TABLESMITH_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    saved = runner.invoke(
        cli, ["cards", "--save-profile", "office", "--print-scale", "1.004,0.996"]
    )
    assert saved.exit_code == 0, saved.output
    made = runner.invoke(cli, ["cards", "--calibration", "--printer", "office", "-o", "cal.pdf"])
    assert made.exit_code == 0, made.output
    across, up = rulers(tmp_path / "cal.pdf", page_content)
    assert (across, up) == (pytest.approx(100.4, abs=1e-3), pytest.approx(99.6, abs=1e-3))
    for value, message in (
        ("1.06,1", "--print-scale X must be 0.95..1.05, got 1.06"),
        ("1,0.9", "--print-scale Y must be 0.95..1.05, got 0.9"),
        ("1.01", "--print-scale must be X,Y, each 0.95..1.05 (e.g. 1.004,0.998), got '1.01'"),
    ):
        bad = runner.invoke(
            cli, ["cards", "demo:toy-battle", "-o", "x.pdf", "--print-scale", value]
        )
        assert bad.exit_code == 2 and message in bad.output, bad.output
        assert not (tmp_path / "x.pdf").exists()
