"""Every option of ``tablesmith cards`` and ``tablesmith toy-battle-aids`` does what its --help
says over the whole range the help states, read back from the output (page sizes and card
positions from the PDF), and is refused just outside it with the option's name."""

from __future__ import annotations

import re
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from tablesmith import cli

MM = 72 / 25.4
DECK = (
    "game: pocketmodel\ncards:\n"
    "  - {kind: objective, name: Relay Beacon, copies: 4, stars: 2, defense: 9, text: Hold.}\n"
)


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TABLESMITH_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deck.yaml").write_text(DECK, encoding="utf-8")

    def invoke(command: str, *args: str):
        return CliRunner().invoke(cli, [command, *args])

    return invoke


def sizes_mm(pdf: Path) -> set[tuple[float, float]]:
    return {
        (round(float(p.mediabox.width) / MM, 1), round(float(p.mediabox.height) / MM, 1))
        for p in pypdf.PdfReader(pdf).pages
    }


def face_origins(pdf: Path, page_content) -> list[tuple[float, float]]:
    """Trim bottom-left corners (mm) of the card faces on the first page."""
    page = page_content(pypdf.PdfReader(pdf).pages[0])
    return sorted((round(x, 2), round(y, 2)) for name, x, y in page.forms if "face" in name)


def help_text(run, command: str) -> str:
    return " ".join(run(command, "--help").output.split())


# -- toy-battle-aids -----------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("paper", "size"), [("a4", (210.0, 297.0)), ("letter", (215.9, 279.4)), ("a3", (297.0, 420.0))]
)
def test_aids_every_page_is_on_the_chosen_paper(run, tmp_path: Path, paper: str, size) -> None:
    result = run("toy-battle-aids", "-o", "aids.pdf", "--paper", paper)
    assert result.exit_code == 0, result.output
    assert sizes_mm(tmp_path / "aids.pdf") == {size}


@pytest.mark.slow
@pytest.mark.parametrize("tile", ["15", "19.9", "60"])
def test_aids_tile_size_over_the_whole_stated_range(
    run, tmp_path: Path, page_content, tile: str
) -> None:
    assert "(15..60)" in help_text(run, "toy-battle-aids")
    result = run("toy-battle-aids", "-o", "aids.pdf", "--tile-size", tile)
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(tmp_path / "aids.pdf")
    tiles = page_content(reader.pages[8])  # the first tile sheet, after the 8 aids
    assert f"Toy Battle spare troop tiles, {tile} mm" in [t for t, _, _ in tiles.texts]
    assert f"at {float(tile):g} mm" in result.output


@pytest.mark.parametrize("tile", ["14.9", "60.1"])
def test_aids_tile_size_outside_the_range_is_refused_naming_it(run, tile: str) -> None:
    result = run("toy-battle-aids", "-o", "aids.pdf", "--tile-size", tile)
    assert result.exit_code == 2
    assert f"--tile-size must be 15..60 mm, got {tile} mm" in result.output


@pytest.mark.slow
def test_aids_language(run, tmp_path: Path) -> None:
    result = run("toy-battle-aids", "-o", "aids.pdf", "--language", "de")
    assert result.exit_code == 0, result.output
    assert "Spielhilfe" in pypdf.PdfReader(tmp_path / "aids.pdf").pages[0].extract_text()


# -- cards ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "size"),
    [
        ([], (210.0, 297.0)),
        (["--paper", "letter"], (215.9, 279.4)),
        (["--paper", "a3"], (297.0, 420.0)),
        (["--paper", "letter", "--landscape"], (279.4, 215.9)),
    ],
)
def test_cards_paper_and_landscape(run, tmp_path: Path, args: list[str], size) -> None:
    result = run("cards", "deck.yaml", "-o", "d.pdf", *args)
    assert result.exit_code == 0, result.output
    assert sizes_mm(tmp_path / "d.pdf") == {size}


@pytest.mark.parametrize(
    ("option", "low", "high", "message"),
    [
        ("--bleed", "0", "10", "--bleed must be 0..10 mm, got {} mm"),
        ("--gutter", "0", "30", "--gutter must be 0..30 mm, got {} mm"),
        ("--page-margin", "0", "40", "--page-margin must be 0..40 mm, got {} mm"),
        ("--back-rotation", "-5", "5", "--back-rotation must be -5..5 degrees, got {} degrees"),
        ("--png-dpi", "30", "600", "--png-dpi must be 30..600, got {}"),
    ],
)
def test_cards_numbers_over_their_stated_range_and_just_outside(
    run, tmp_path: Path, option: str, low: str, high: str, message: str
) -> None:
    assert f"({low}..{high}" in help_text(run, "cards")
    extra = ["--png", "png"] if option == "--png-dpi" else []
    for value in (low, high):
        result = run("cards", "deck.yaml", "-o", "d.pdf", option, value, *extra)
        assert result.exit_code == 0, (option, value, result.output)
    step = 1 if option == "--png-dpi" else 0.1
    for value in (float(low) - step, float(high) + step):
        shown = f"{value:g}"
        result = run("cards", "deck.yaml", "-o", "x.pdf", option, shown, *extra)
        assert result.exit_code == 2
        assert message.format(shown) in result.output, result.output
        assert not (tmp_path / "x.pdf").exists()


def test_cards_back_offset_range(run, tmp_path: Path) -> None:
    assert "(each -20..20)" in help_text(run, "cards")
    for value in ("-20,20", "20,-20"):
        assert run("cards", "deck.yaml", "-o", "d.pdf", "--back-offset", value).exit_code == 0
    for value, axis, shown in (("-20.1,0", "DX", "-20.1"), ("0,20.1", "DY", "20.1")):
        result = run("cards", "deck.yaml", "-o", "d.pdf", "--back-offset", value)
        assert f"--back-offset {axis} must be -20..20 mm, got {shown} mm" in result.output


def test_cards_bleed_gutter_and_margin_move_the_cards(run, tmp_path: Path, page_content) -> None:
    result = run("cards", "deck.yaml", "-o", "d.pdf", "--bleed", "2", "--gutter", "3")
    assert result.exit_code == 0, result.output
    origins = face_origins(tmp_path / "d.pdf", page_content)
    xs = sorted({x for x, _ in origins})
    assert len(xs) == 2  # 4 cards: 2 x 2 on A4 at 63 + 4 + 3 mm a column
    assert xs[1] - xs[0] == pytest.approx(63 + 2 * 2 + 3, abs=0.01)
    reader = pypdf.PdfReader(tmp_path / "d.pdf")
    face = reader.pages[0]["/Resources"]["/XObject"]["/FormXob.face0"].get_object()
    assert float(face["/BBox"][2]) - float(face["/BBox"][0]) == pytest.approx((63 + 4) * MM)
    result = run("cards", "deck.yaml", "-o", "m.pdf", "--page-margin", "40")
    assert "63 x 88 mm: 2 x 2 = 4 cards per sheet" in result.output  # 130 mm wide: 2 columns
    result = run("cards", "deck.yaml", "-o", "m.pdf")
    assert "63 x 88 mm: 3 x 3 = 9 cards per sheet" in result.output


@pytest.mark.parametrize(
    ("size", "text"),
    [("poker", "63.5 x 88.9"), ("mini", "44 x 63"), ("20x20", None), ("300x300", None)],
)
def test_cards_card_size_presets_and_the_stated_range(run, tmp_path: Path, size, text) -> None:
    assert "each side 20..300" in help_text(run, "cards")
    result = run("cards", "deck.yaml", "-o", "d.pdf", "--card-size", size, "--paper", "a3")
    if size == "300x300":  # in range, but bigger than A3: says so
        assert "does not fit on a3 portrait" in result.output
        return
    if size == "20x20":  # in range, but no card's content fits: says what does not
        assert result.exit_code == 2
        assert "card 'Relay Beacon', field 'type': does not fit: 'OBJECTIVE'" in result.output
        return
    assert result.exit_code == 0, result.output
    text = text or size.replace("x", " x ")
    assert re.search(rf"^{re.escape(text)} mm: \d+ x \d+", result.output, re.M), result.output
    for bad in ("19.9x30", "30x300.1"):
        result = run("cards", "deck.yaml", "-o", "d.pdf", "--card-size", bad)
        assert result.exit_code == 2
        assert re.search(r"card (width|height) must be 20\.\.300 mm, got", result.output)


@pytest.mark.parametrize(
    ("mode", "viewer", "pages"),
    [
        ("long-edge", "/DuplexFlipLongEdge", 2),
        ("short-edge", "/DuplexFlipShortEdge", 2),
        ("none", "/Simplex", 1),
    ],
)
def test_cards_duplex(run, tmp_path: Path, mode: str, viewer: str, pages: int) -> None:
    result = run("cards", "deck.yaml", "-o", "d.pdf", "--duplex", mode)
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(tmp_path / "d.pdf")
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == viewer
    assert len(reader.pages) == pages


def test_cards_duplex_separate_writes_a_backs_file(run, tmp_path: Path) -> None:
    result = run("cards", "deck.yaml", "-o", "d.pdf", "--duplex", "separate")
    assert result.exit_code == 0, result.output
    assert len(pypdf.PdfReader(tmp_path / "d.pdf").pages) == 1
    assert len(pypdf.PdfReader(tmp_path / "d-backs.pdf").pages) == 1


def test_cards_crop_marks_qr_and_png(run, tmp_path: Path, page_content) -> None:
    with_marks = run("cards", "deck.yaml", "-o", "a.pdf", "--png", "png", "--png-dpi", "72")
    assert with_marks.exit_code == 0, with_marks.output
    without = run("cards", "deck.yaml", "-o", "b.pdf", "--no-crop-marks", "--no-qr")
    assert without.exit_code == 0, without.output
    a = page_content(pypdf.PdfReader(tmp_path / "a.pdf").pages[0])
    b = page_content(pypdf.PdfReader(tmp_path / "b.pdf").pages[0])
    assert len(a.lines) > len(b.lines)  # crop marks are line segments
    assert any("qrfinders" in name for name, _, _ in a.forms)
    assert not any("qrfinders" in name for name, _, _ in b.forms)
    from PIL import Image

    with Image.open(tmp_path / "png" / "a-p01.png") as image:
        assert image.size[0] == pytest.approx(210 / 25.4 * 72, abs=1)
        assert image.size[1] == pytest.approx(297 / 25.4 * 72, abs=1)


def test_an_exact_fit_keeps_its_columns_with_crop_marks(run, tmp_path: Path, page_content) -> None:
    """Letter, poker cards, 12.7 mm margins, no gutter: 3 x 2 fit exactly (190.5 mm)."""
    result = run(
        "cards",
        "demo:toy-battle",
        "-o",
        "t.pdf",
        "--paper",
        "letter",
        "--card-size",
        "poker",
        "--page-margin",
        "12.7",
        "--gutter",
        "0",
        "--duplex",
        "none",
    )
    assert result.exit_code == 0, result.output
    assert "63.5 x 88.9 mm: 3 x 2 = 6 cards per sheet, 48 cards on 8 sheet(s)" in result.output
    assert (
        "reach 5.0 mm into the 12.7 mm page margin, up to 4 mm from the paper edge" in result.output
    )
    page = page_content(pypdf.PdfReader(tmp_path / "t.pdf").pages[0])
    horizontal = [
        line
        for line in page.lines
        if abs(line[1] - line[3]) < 1e-6 and abs(line[0] - line[2]) > 0.5
    ]
    trims = {50.8, 139.7, 228.6}  # the 2 rows' cut lines, grid centred on 279.4 mm
    marks = [
        line
        for line in horizontal
        if round(line[1], 3) in trims and max(line[0], line[2]) <= 12.7 - 0.5
    ]
    assert {round(line[1], 3) for line in marks} == trims  # each cut line marked on the left
    # 1 mm from the trim, 5 mm long: clear of the 4 mm a printer cannot print
    assert min(min(line[0], line[2]) for line in marks) == pytest.approx(12.7 - 1 - 5, abs=0.01)


def test_cards_character_size_sets_the_transformers_characters_only(run, tmp_path: Path) -> None:
    result = run(
        "cards", "demo:transformers", "-o", "t.pdf", "--character-size", "80x120", "--paper", "a3"
    )
    assert result.exit_code == 0, result.output
    assert re.search(r"^80 x 120 mm: \d+ x \d+ = \d+ cards per sheet, 3 cards", result.output, re.M)
    assert re.search(r"^63 x 88 mm: \d+ x \d+ = \d+ cards per sheet, 42 cards", result.output, re.M)
