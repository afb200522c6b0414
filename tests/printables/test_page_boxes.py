"""Page boxes a print shop reads: MediaBox, TrimBox and BleedBox of every page (read back with
pypdf, in pt), and ``--layout single``: one card per page at trim plus bleed."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from printables.calibration import render_calibration
from printables.deckfile import read_deck
from printables.duplex import BackAdjust, Duplex, PrintScale
from printables.layout import SettingError
from printables.render import RenderOptions, backs_path, render_deck
from printables.single import render_single
from tablesmith import cli

MM = 72 / 25.4
TOLERANCE = 0.001  # pt: boxes are written to 0.0001 pt


def boxes(path: Path) -> list[dict[str, list[float]]]:
    """The raw /MediaBox, /TrimBox and /BleedBox of every page (pt); a box the page lacks is
    missing from its dict (pypdf's ``trimbox`` would fall back to the CropBox)."""
    pages = pypdf.PdfReader(path).pages
    return [
        {name: [float(v) for v in page[name]] for name in ("/MediaBox", "/TrimBox", "/BleedBox")}
        for page in pages
    ]


def mm_box(x0: float, y0: float, x1: float, y1: float) -> list[float]:
    return [v * MM for v in (x0, y0, x1, y1)]


def assert_box(found: list[float], expected: list[float]) -> None:
    assert found == pytest.approx(expected, abs=TOLERANCE)


def render_demo(name: str, out: Path, **options: object) -> None:
    loaded = read_deck(f"demo:{name}")
    render_deck(loaded.deck, RenderOptions(**options), out, base_dir=loaded.base_dir)  # type: ignore[arg-type]


def test_sheet_boxes_are_the_trim_and_bleed_of_the_card_area(tmp_path: Path) -> None:
    # A4, 63 x 88 mm with 2 mm bleed: cells 67 x 92 mm, 2 x 3 of them (a third column needs
    # 201 mm of the 200 inside the margins) centred: grid x 38..172, y 10.5..286.5 mm.
    out = tmp_path / "pm.pdf"
    render_demo("pocketmodel", out, bleed=2.0, duplex=Duplex.SEPARATE)
    for file in (out, backs_path(out)):
        pages = boxes(file)
        assert len(pages) == 7
        for page in pages:
            assert_box(page["/MediaBox"], mm_box(0, 0, 210, 297))
            assert_box(page["/BleedBox"], mm_box(38, 10.5, 172, 286.5))
            assert_box(page["/TrimBox"], mm_box(40, 12.5, 170, 284.5))
    # trim: 2 cards and the 2 x 2 mm bleed between them across, 3 cards and 2 x 4 mm down
    trim = boxes(out)[0]["/TrimBox"]
    assert trim[2] - trim[0] == pytest.approx((2 * 63 + 4) * MM, abs=TOLERANCE)
    assert trim[3] - trim[1] == pytest.approx((3 * 88 + 2 * 4) * MM, abs=TOLERANCE)


def test_without_bleed_the_bleed_box_is_the_trim_box(tmp_path: Path) -> None:
    # 3 x 3 TCG cards on A4: 189 x 264 mm centred.
    out = tmp_path / "tb.pdf"
    render_demo("toy-battle", out)
    pages = boxes(out)
    assert len(pages) >= 2  # fronts and backs
    for page in pages:
        assert_box(page["/TrimBox"], mm_box(10.5, 16.5, 199.5, 280.5))
        assert page["/BleedBox"] == page["/TrimBox"]


def test_boxes_follow_the_print_scale_and_the_back_offset(tmp_path: Path) -> None:
    out = tmp_path / "pm.pdf"
    scale = PrintScale(x=1.02, y=0.98)
    render_demo(
        "pocketmodel", out, scale=scale, adjust=BackAdjust(dx=1.5, dy=-2.0), duplex=Duplex.LONG_EDGE
    )
    pages = boxes(out)

    def scaled(x0: float, y0: float, x1: float, y1: float) -> list[float]:
        return mm_box(
            105 + (x0 - 105) * 1.02,
            148.5 + (y0 - 148.5) * 0.98,
            105 + (x1 - 105) * 1.02,
            148.5 + (y1 - 148.5) * 0.98,
        )

    assert_box(pages[0]["/TrimBox"], scaled(10.5, 16.5, 199.5, 280.5))  # front
    assert_box(pages[1]["/TrimBox"], scaled(12.0, 14.5, 201.0, 278.5))  # back: shifted first


def test_a_calibration_page_is_its_own_trim(tmp_path: Path) -> None:
    out = tmp_path / "cal.pdf"
    render_calibration(out, paper="letter", landscape=False, duplex=Duplex.LONG_EDGE)
    pages = boxes(out)
    assert len(pages) >= 1
    for page in pages:
        letter = mm_box(0, 0, 215.9, 279.4)
        assert_box(page["/MediaBox"], letter)
        assert_box(page["/TrimBox"], letter)
        assert_box(page["/BleedBox"], letter)


@pytest.mark.parametrize("bleed", [0.0, 3.175])
def test_single_layout_is_one_card_per_page_front_then_back(tmp_path: Path, bleed: float) -> None:
    out = tmp_path / "pm.pdf"
    loaded = read_deck("demo:pocketmodel")
    result = render_single(
        loaded.deck, RenderOptions(layout="single", bleed=bleed), out, base_dir=loaded.base_dir
    )
    cards = sum(card.copies for card in loaded.deck.cards)
    pages = boxes(out)
    assert len(pages) == 2 * cards == result.pages[0]
    for page in pages:  # TCG 63 x 88 mm: the page is the card plus the bleed
        assert_box(page["/MediaBox"], mm_box(0, 0, 63 + 2 * bleed, 88 + 2 * bleed))
        assert_box(page["/BleedBox"], page["/MediaBox"])
        assert_box(page["/TrimBox"], mm_box(bleed, bleed, 63 + bleed, 88 + bleed))
    sides = [(p.page, p.side) for p in result.placements]
    assert sides[:4] == [(1, "front"), (2, "back"), (3, "front"), (4, "back")]
    ids = [p.card_id for p in result.placements]
    assert ids[0::2] == ids[1::2]  # each back right after its own front
    reader = pypdf.PdfReader(out)
    first = loaded.deck.cards[0]
    assert first.name in reader.pages[0].extract_text()
    assert first.name not in reader.pages[1].extract_text()  # the deck's generated back
    assert ("print-on-demand" in " ".join(result.warnings)) == (bleed == 0.0)


def test_single_back_first_puts_each_back_before_its_front(tmp_path: Path) -> None:
    loaded = read_deck("demo:toy-battle")
    options = RenderOptions(layout="single-back-first", bleed=3.175)
    result = render_single(loaded.deck, options, tmp_path / "tb.pdf", base_dir=loaded.base_dir)
    sides = [p.side for p in sorted(result.placements, key=lambda p: p.page)]
    assert sides[:4] == ["back", "front", "back", "front"]
    assert not result.warnings


def test_single_layout_separate_and_none(tmp_path: Path) -> None:
    out = tmp_path / "tf.pdf"
    loaded = read_deck("demo:transformers")
    options = RenderOptions(layout="single", bleed=3.0, duplex=Duplex.SEPARATE)
    result = render_single(loaded.deck, options, out, base_dir=loaded.base_dir)
    fronts, backs = boxes(out), boxes(backs_path(out))
    assert len(fronts) == len(backs) == result.pages[0] == result.pages[1]
    for front, back in zip(fronts, backs, strict=True):
        assert front == back  # the back of page k is the same card size
    sizes = {tuple(round(v / MM, 3) for v in page["/TrimBox"][2:]) for page in fronts}
    assert sizes == {(91.0, 129.0), (66.0, 91.0)}  # characters and standard cards, trim + 3
    options = RenderOptions(layout="single", duplex=Duplex.NONE)
    none = render_single(loaded.deck, options, tmp_path / "n.pdf", base_dir=loaded.base_dir)
    characters = sum(c.copies for c in loaded.deck.cards if len(c.SIDES) > 1)
    assert none.pages == (len(fronts) + characters,)  # bot sides as cards of their own
    assert {p.side for p in none.placements} == {"front", "bot"}


def test_single_layout_on_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "tb.pdf"
    args = ["cards", "demo:toy-battle", "--out", str(out), "--layout", "single", "--bleed", "3.175"]
    run = CliRunner().invoke(cli, args)
    assert run.exit_code == 0, run.output
    assert "63 x 88 mm: one card per page, 69.35 x 94.35 mm with 3.175 mm bleed" in run.output
    assert_box(boxes(out)[0]["/MediaBox"], mm_box(0, 0, 69.35, 94.35))
    run = CliRunner().invoke(cli, [*args, "--cutter", "silhouette"])
    assert run.exit_code == 2
    assert "--layout must be sheet with --cutter" in run.output


def test_render_deck_draws_sheets_only_and_a_layout_is_checked(tmp_path: Path) -> None:
    loaded = read_deck("demo:toy-battle")
    with pytest.raises(SettingError, match="^layout must be sheet"):
        render_deck(loaded.deck, RenderOptions(layout="single"), tmp_path / "x.pdf")
    assert not (tmp_path / "x.pdf").exists()
    with pytest.raises(SettingError, match="^layout must be sheet or single or"):
        RenderOptions(layout="grid")
