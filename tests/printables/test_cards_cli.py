"""``tablesmith cards``: files written, one-line errors with exit code 2, profiles."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from printables.outputs import shown
from tablesmith import cli


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TABLESMITH_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)

    def invoke(*args: str):
        return CliRunner().invoke(cli, ["cards", *args])

    return invoke


def test_writes_the_pdf_and_png_previews(run, tmp_path: Path) -> None:
    result = run(
        "demo:toy-battle",
        "--out",
        "tb.pdf",
        "--paper",
        "letter",
        "--landscape",
        "--png",
        "png",
        "--png-dpi",
        "30",
    )
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(tmp_path / "tb.pdf")
    assert float(reader.pages[0].mediabox.width) == pytest.approx(792.0)
    # 48 troops, 8 per Letter landscape sheet = 6 sheets with backs.
    assert len(reader.pages) == 12
    assert len(list((tmp_path / "png").glob("tb-p*.png"))) == 12


def test_default_output_name_and_no_qr(run, tmp_path: Path) -> None:
    result = run("demo:pocketmodel", "--no-qr", "--duplex", "none")
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(tmp_path / "pocketmodel.pdf")
    assert len(reader.pages) == 5
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/Simplex"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["demo:nope"],
            (
                "Error: demo:nope: deck: field 'demo': allowed one of pocketmodel, "
                "pocketmodel-corsairs, toy-battle, transformers, transformers-decepticons; "
                "found 'nope'"
            ),
        ),
        (
            ["demo:pocketmodel", "--paper", "b5"],
            "Error: --paper must be one of a4, letter, a3, got 'b5'",
        ),
        (["demo:pocketmodel", "--back-offset", "1"], "Error: --back-offset must be DX,DY in mm"),
        (["demo:pocketmodel", "--duplex", "sideways"], "Error: --duplex must be one of"),
        (
            ["demo:pocketmodel", "--card-size", "10x10"],
            "Error: --card-size '10x10': card width must be 20..300 mm, got 10 mm",
        ),
        (["demo:pocketmodel", "--printer", "office"], "Error: printer profile 'office' not found"),
        ([], "Error: give a DECKFILE"),
    ],
)
def test_errors_are_one_line_with_exit_code_2(
    run, tmp_path: Path, args: list[str], message: str
) -> None:
    result = run(*args, "--out", "x.pdf")
    assert result.exit_code == 2
    assert result.output.startswith(message)
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert not (tmp_path / "x.pdf").exists()


def test_a_bad_deck_reports_all_problems_on_one_line_and_writes_nothing(
    run, tmp_path: Path
) -> None:
    (tmp_path / "bad.csv").write_text(
        "game,kind,name,troop,colour\ntoy-battle,troop,A,Star,green\ntoy-battle,troop,B,Zap,red\n",
        encoding="utf-8",
    )
    (tmp_path / "x.pdf").write_bytes(b"%PDF-old")
    result = run("bad.csv", "--out", "x.pdf")
    assert result.exit_code == 2
    assert result.output.startswith("Error: 2 problems: bad.csv: line 2: field 'colour'")
    assert "bad.csv: line 3: field 'troop'" in result.output
    assert (tmp_path / "x.pdf").read_bytes() == b"%PDF-old"  # untouched, no half-written file
    assert list(tmp_path.glob("*.part")) == []


def test_overflow_is_an_error_naming_the_card(run, tmp_path: Path) -> None:
    text = "Place one more troop and apply its effect right away. " * 5
    (tmp_path / "long.yaml").write_text(
        f"game: toy-battle\ncards:\n  - {{troop: Hook, name: Chatty, colour: red, text: '{text}'}}\n",
        encoding="utf-8",
    )
    result = run("long.yaml", "--card-size", "mini", "--out", "long.pdf")
    assert result.exit_code == 2
    assert "card 'Chatty', field 'text'" in result.output
    assert not (tmp_path / "long.pdf").exists()


def test_save_a_printer_profile_and_use_it(run, tmp_path: Path, page_content) -> None:
    from printables.duplex import BackAdjust, adjust_point

    saved = run(
        "--save-profile",
        "office",
        "--duplex",
        "short-edge",
        "--back-offset",
        "0.5,-1",
        "--back-rotation",
        "0.2",
    )
    assert saved.exit_code == 0, saved.output
    assert "saved printer profile 'office'" in saved.output
    assert (tmp_path / "config" / "printers.json").is_file()
    assert run("demo:toy-battle", "--printer", "office", "--out", "p.pdf").exit_code == 0
    assert run("demo:toy-battle", "--duplex", "short-edge", "--out", "plain.pdf").exit_code == 0
    reader = pypdf.PdfReader(tmp_path / "p.pdf")
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipShortEdge"
    adjusted = [f for f in page_content(reader.pages[1]).forms if ".back" in f[0]]
    plain = [
        f
        for f in page_content(pypdf.PdfReader(tmp_path / "plain.pdf").pages[1]).forms
        if ".back" in f[0]
    ]  # the back design's own icon forms are nested in it
    assert len(adjusted) == len(plain) == 9
    adjust = BackAdjust(dx=0.5, dy=-1.0, rotation_deg=0.2)
    for (_, x, y), (_, px, py) in zip(adjusted, plain, strict=True):
        ex, ey = adjust_point(px, py, page_width=210, page_height=297, adjust=adjust)
        assert (x, y) == (pytest.approx(ex, abs=1e-3), pytest.approx(ey, abs=1e-3))
        assert (x, y) != (pytest.approx(px, abs=0.1), pytest.approx(py, abs=0.1))


def test_calibration_sheet(run, tmp_path: Path) -> None:
    result = run("--calibration", "--out", "cal.pdf", "--paper", "a3")
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(tmp_path / "cal.pdf")
    assert len(reader.pages) == 2
    assert float(reader.pages[1].mediabox.height) == pytest.approx(1190.551, abs=0.01)
    back = reader.pages[1].extract_text()
    assert "YL" in back and "YR" in back and "D = 237 mm" in back


# --- QA regressions (items G, J, K): outputs, option checks, option names in errors ---

TROOPS_CSV = "game,kind,name,troop,colour\ntoy-battle,troop,A,Star,blue\n"


def _one_error_line(result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "Errno" not in result.output
    lines = [line for line in result.output.splitlines() if not line.startswith("warning:")]
    assert len(lines) == 1, result.output
    return lines[0]


def test_out_may_not_be_the_deck_file(run, tmp_path: Path) -> None:
    deck = tmp_path / "mydeck.csv"
    deck.write_text(TROOPS_CSV, encoding="utf-8")
    (tmp_path / "alias.pdf").symlink_to(deck)
    for out in ("mydeck.csv", "./mydeck.csv", str(deck), "alias.pdf"):
        line = _one_error_line(run("mydeck.csv", "--out", out))
        assert (
            line
            == f"Error: --out: {shown(Path(out))} is the deck file itself; choose another .pdf name"
        )
    assert deck.read_text(encoding="utf-8") == TROOPS_CSV


@pytest.mark.parametrize("out", ["some.yaml", "deck.csv", "noext", "x.pdf.bak"])
def test_out_must_end_in_pdf(run, tmp_path: Path, out: str) -> None:
    line = _one_error_line(run("demo:toy-battle", "--out", out))
    assert line == f"Error: --out: must be a file name ending in .pdf, got '{out}'"
    assert not (tmp_path / out).exists()


def test_out_pdf_suffix_is_case_insensitive(run, tmp_path: Path) -> None:
    result = run("demo:toy-battle", "--out", "TB.PDF")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "TB.PDF").read_bytes().startswith(b"%PDF-")


def test_an_existing_file_that_is_no_pdf_is_not_overwritten(run, tmp_path: Path) -> None:
    (tmp_path / "notes.pdf").write_text("my notes", encoding="utf-8")
    line = _one_error_line(run("demo:toy-battle", "--out", "notes.pdf"))
    assert line == (
        "Error: --out: notes.pdf exists and is not a PDF (it does not start with %PDF-); "
        "not overwriting it"
    )
    assert (tmp_path / "notes.pdf").read_text(encoding="utf-8") == "my notes"
    # The backs file of --duplex separate is protected the same way.
    (tmp_path / "tb-backs.pdf").write_text("keep", encoding="utf-8")
    line = _one_error_line(run("demo:toy-battle", "--out", "tb.pdf", "--duplex", "separate"))
    assert line.startswith("Error: --out: tb-backs.pdf exists and is not a PDF")
    assert not (tmp_path / "tb.pdf").exists()
    assert (tmp_path / "tb-backs.pdf").read_text(encoding="utf-8") == "keep"


def test_an_existing_pdf_is_replaced(run, tmp_path: Path) -> None:
    (tmp_path / "old.pdf").write_bytes(b"%PDF-1.4 old")
    assert run("demo:toy-battle", "--out", "old.pdf").exit_code == 0
    assert len(pypdf.PdfReader(tmp_path / "old.pdf").pages) == 12


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--png-dpi", "0", "--png", "png"], "Error: --png-dpi must be 30..600, got 0"),
        (["--png", "afile/sub"], "Error: --png: cannot use folder afile/sub: afile is a file"),
    ],
)
def test_preview_options_are_checked_before_the_pdf_is_written(
    run, tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    line = _one_error_line(run("demo:toy-battle", "--out", "tb.pdf", *args))
    assert line == message
    assert not (tmp_path / "tb.pdf").exists() and not (tmp_path / "png").exists()


def test_a_failed_run_leaves_no_new_folder_behind(run, tmp_path: Path) -> None:
    (tmp_path / "glyph.yaml").write_text(
        "game: toy-battle\ncards:\n  - {troop: Star, name: '星 A', colour: blue}\n",
        encoding="utf-8",
    )
    line = _one_error_line(run("glyph.yaml", "--out", "new/sub/g.pdf", "--png", "previews/p"))
    # The missing-glyph error names the deck file.
    assert (
        line
        == "Error: glyph.yaml: card '星 A', field 'name': glyph(s) not in the font: U+661F '星'"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["glyph.yaml"]
    ok = run("demo:toy-battle", "--out", "new/sub/tb.pdf", "--png", "previews/p", "--png-dpi", "30")
    assert ok.exit_code == 0, ok.output
    assert (tmp_path / "new" / "sub" / "tb.pdf").is_file()
    assert len(list((tmp_path / "previews" / "p").glob("tb-p*.png"))) == 12


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--paper", "B5"], "Error: --paper must be one of a4, letter, a3, got 'B5'"),
        (["--bleed", "20"], "Error: --bleed must be 0..10 mm, got 20 mm"),
        (["--gutter", "-1"], "Error: --gutter must be 0..30 mm, got -1 mm"),
        (["--page-margin", "-1"], "Error: --page-margin must be 0..40 mm, got -1 mm"),
        (["--page-margin", "nan"], "Error: --page-margin must be 0..40 mm, got nan"),
        (
            ["--back-offset", "nan,0"],
            "Error: --back-offset must be DX,DY in mm (e.g. 0.5,-1.2), got 'nan,0'",
        ),
        (
            ["--back-offset", "0,inf"],
            "Error: --back-offset must be DX,DY in mm (e.g. 0.5,-1.2), got '0,inf'",
        ),
        (["--back-offset", "0,-25"], "Error: --back-offset DY must be -20..20 mm, got -25 mm"),
        (["--back-rotation", "9"], "Error: --back-rotation must be -5..5 degrees, got 9 degrees"),
        (["--back-rotation", "nan"], "Error: --back-rotation must be -5..5 degrees, got nan"),
        (
            ["--card-size", "huge"],
            "Error: --card-size must be one of poker, tcg, mini, tarot, tf-character or "
            "WIDTHxHEIGHT in mm, got 'huge'",
        ),
        (
            ["--character-size", "88x400"],
            "Error: --character-size '88x400': card height must be 20..300 mm, got 400 mm",
        ),
        (
            ["--qr-base", "http://"],
            "Error: --qr-base must be an http:// or https:// URL with a host, "
            "e.g. http://192.168.1.20:8765, got 'http://'",
        ),
        (["--qr-base", "ftp://host"], "Error: --qr-base must be an http:// or https:// URL"),
        (["--png-dpi", "5000"], "Error: --png-dpi must be 30..600, got 5000"),
        (["--duplex", "sideways"], "Error: --duplex must be one of long-edge, short-edge"),
        (
            ["--paper", "x" * 200],
            "Error: --paper must be one of a4, letter, a3, got "
            "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…",
        ),
    ],
)
def test_errors_name_the_option_the_allowed_values_and_the_value(
    run, tmp_path: Path, args: list[str], message: str
) -> None:
    line = _one_error_line(run("demo:toy-battle", "--out", "x.pdf", *args))
    assert line.startswith(message), line
    assert "_" not in line.split(" got ")[0]  # no internal names such as page_margin
    assert not (tmp_path / "x.pdf").exists()


def test_paper_is_case_insensitive(run, tmp_path: Path) -> None:
    result = run("demo:toy-battle", "--paper", "A4", "--out", "a4.pdf")
    assert result.exit_code == 0, result.output
    assert float(pypdf.PdfReader(tmp_path / "a4.pdf").pages[0].mediabox.width) == pytest.approx(
        595.276, abs=0.01
    )


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc")
def test_os_errors_are_one_line_without_errno_or_temporary_names(run) -> None:
    line = _one_error_line(run("demo:toy-battle", "--out", "/proc/x.pdf"))
    assert line in (
        "Error: --out: cannot write /proc/x.pdf: No such file or directory",
        "Error: --out: cannot write into folder /proc: not writable",
    )
    line = _one_error_line(run("demo:toy-battle", "--out", "/proc/new/x.pdf"))
    assert line.startswith("Error: --out: cannot create folder /proc/new: ")


def test_a_header_only_csv_and_an_empty_yaml(run, tmp_path: Path) -> None:
    (tmp_path / "h.csv").write_text("game,kind,name,troop,colour\n", encoding="utf-8")
    (tmp_path / "e.yaml").write_text("", encoding="utf-8")
    assert _one_error_line(run("h.csv")) == (
        "Error: h.csv: line 2: no cards: the file has a header row and no card rows"
    )
    assert _one_error_line(run("e.yaml")) == (
        "Error: e.yaml: the file is empty (a deck needs game: and cards:)"
    )
    assert _one_error_line(run("missing.yaml")) == (
        "Error: missing.yaml: cannot read the deck file: No such file or directory"
    )


def test_many_problems_show_the_first_three_and_a_count(run, tmp_path: Path) -> None:
    rows = "".join(f"toy-battle,troop,N{i},Zap,blue\n" for i in range(7))
    (tmp_path / "m.csv").write_text("game,kind,name,troop,colour\n" + rows, encoding="utf-8")
    line = _one_error_line(run("m.csv", "--out", "m.pdf"))
    assert line.startswith("Error: 7 problems: m.csv: line 2: field 'troop'")
    assert line.count("m.csv: ") == 3 and line.endswith(
        "; and 4 more (--all-problems lists every one)"
    )


def test_all_problems_lists_every_problem_in_file_order(run, tmp_path: Path) -> None:
    (tmp_path / "m.yaml").write_text(
        "game: toy-battle\ncards:\n"
        "  - {kind: troop, name: A, troop: Zap, colour: blue}\n"
        "  - {kind: troop, name: B, troop: Star, colour: green}\n"
        "  - {kind: troop, name: C, troop: Zap, colour: blue, name: D}\n"
        "  - {kind: troop, name: E, troop: Zap, colour: red}\n",
        encoding="utf-8",
    )
    result = run("m.yaml", "--out", "m.pdf", "--all-problems")
    assert result.exit_code == 2
    summary, *listed = result.output.splitlines()
    assert summary == f"Error: {len(listed)} problems, in file order:"
    lines = [int(item.split(": line ")[1].split(":")[0].split(" ")[0]) for item in listed]
    assert lines == sorted(lines) and len(listed) > 3
    assert all(item.startswith("  m.yaml: line ") for item in listed)
    assert any("line 5" in item and "given twice" in item for item in listed)
    assert not (tmp_path / "m.pdf").exists()


def test_a_card_too_big_for_the_paper_suggests_what_fits(run) -> None:
    line = _one_error_line(run("demo:toy-battle", "--card-size", "250x150", "--out", "x.pdf"))
    assert line.startswith("Error: a 250 x 150 mm card with 0 mm bleed does not fit on a4 portrait")
    assert line.endswith("; try --landscape or --paper a3 or --paper a3 --landscape")
    line = _one_error_line(run("demo:toy-battle", "--card-size", "280x280", "--out", "x.pdf"))
    assert line.endswith("; try --paper a3")
    line = _one_error_line(run("demo:toy-battle", "--card-size", "300x300", "--out", "x.pdf"))
    assert "try" not in line


def test_a_damaged_image_is_a_deck_error(run, tmp_path: Path) -> None:
    (tmp_path / "art.png").write_text("not a png", encoding="utf-8")
    (tmp_path / "im.yaml").write_text(
        "game: toy-battle\ncards:\n  - {troop: Star, name: A, colour: blue, image: art.png}\n",
        encoding="utf-8",
    )
    line = _one_error_line(run("im.yaml", "--out", "im.pdf"))
    assert line.startswith(
        "Error: im.yaml: card 'A': field 'image': 'art.png' is not a readable PNG, JPEG or WebP image"
    )


def test_new_files_get_the_umask_mode_and_replaced_files_keep_theirs(run, tmp_path: Path) -> None:
    import os
    import stat

    old = os.umask(0o022)
    try:
        assert run("demo:toy-battle", "--out", "new.pdf").exit_code == 0
        assert stat.S_IMODE((tmp_path / "new.pdf").stat().st_mode) == 0o644
        (tmp_path / "new.pdf").chmod(0o640)
        assert run("demo:toy-battle", "--out", "new.pdf").exit_code == 0
        assert stat.S_IMODE((tmp_path / "new.pdf").stat().st_mode) == 0o640
        os.umask(0o077)
        assert run("--calibration", "--out", "cal.pdf").exit_code == 0
        assert stat.S_IMODE((tmp_path / "cal.pdf").stat().st_mode) == 0o600
    finally:
        os.umask(old)


@pytest.mark.parametrize("damage", ["cut-off", "zeroed-middle-and-end"])
def test_a_truncated_jpeg_is_refused_with_its_name(run, tmp_path: Path, damage: str) -> None:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    noise = Image.effect_noise((600, 800), 80).convert("RGB")
    noise.save(buffer, "JPEG", quality=90)
    data = buffer.getvalue()
    if damage == "cut-off":
        data = data[: len(data) // 2]
    else:
        data = data[: len(data) // 2] + b"\0" * (len(data) - len(data) // 2)
    (tmp_path / "half.jpg").write_bytes(data)
    with Image.open(tmp_path / "half.jpg") as image:
        image.verify()  # the header alone looks fine: this is what slipped through
    (tmp_path / "im.yaml").write_text(
        "game: toy-battle\ncards:\n  - {troop: Star, name: A, colour: blue, image: half.jpg}\n",
        encoding="utf-8",
    )
    line = _one_error_line(run("im.yaml", "--out", "im.pdf"))
    assert "card 'A': field 'image': 'half.jpg'" in line
    assert not (tmp_path / "im.pdf").exists()


@pytest.mark.parametrize(
    ("args", "name", "option"),
    [
        (["--cutter", "silhouette"], "tb-cut.svg", "--out"),
        (["--cutter", "silhouette"], "tb-cut.dxf", "--out"),
        (["--cutter", "cricut", "--duplex", "separate"], "tb-cricut-p02.png", "--out"),
        (["--png", "png", "--png-dpi", "30"], "png/tb-p03.png", "--png"),
        (
            ["--png", "png", "--png-dpi", "30", "--duplex", "separate"],
            "png/tb-backs-p01.png",
            "--png",
        ),
    ],
)
def test_files_written_beside_the_pdf_never_replace_a_file_of_another_kind(
    run, tmp_path: Path, args: list[str], name: str, option: str
) -> None:
    mine = tmp_path / name
    mine.parent.mkdir(exist_ok=True)
    mine.write_text("my own notes", encoding="utf-8")
    line = _one_error_line(run("demo:toy-battle", "--out", "tb.pdf", *args))
    assert (
        line
        == f"Error: {option}: {shown(mine.relative_to(tmp_path))} exists and is not "
        + (
            "an SVG file"
            if name.endswith(".svg")
            else "a DXF file"
            if name.endswith(".dxf")
            else "a PNG image"
        )
        + "; not overwriting it"
    )
    assert mine.read_text(encoding="utf-8") == "my own notes"
    assert not (tmp_path / "tb.pdf").exists()


def test_side_files_of_their_kind_are_replaced_atomically(run, tmp_path: Path) -> None:
    (tmp_path / "png").mkdir()
    (tmp_path / "png" / "tb-p01.png").write_bytes(b"\x89PNG\r\n\x1a\nold")
    (tmp_path / "tb-cut.svg").write_text("<svg/>", encoding="utf-8")
    result = run(
        "demo:toy-battle",
        "--out",
        "tb.pdf",
        "--cutter",
        "silhouette",
        "--png",
        "png",
        "--png-dpi",
        "30",
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "png" / "tb-p01.png").stat().st_size > 1000
    assert "Tablesmith cut lines" in (tmp_path / "tb-cut.svg").read_text(encoding="utf-8")
    assert not list(tmp_path.rglob("*.part"))


def test_csv_line_breaks_are_quoted_cells_and_a_typed_backslash_n_prints_as_typed(
    run, tmp_path: Path
) -> None:
    import pypdfium2 as pdfium

    (tmp_path / "d.csv").write_text(
        "game;name;troop;colour;text\n"
        'toy-battle;Breaker;Star;blue;"First line.\nSecond line."\n'
        "toy-battle;Typist;Roxy;red;One\\nTwo\n",
        encoding="utf-8",
    )
    result = run("d.csv", "--out", "d.pdf", "--duplex", "none", "--no-qr")
    assert result.exit_code == 0, result.output
    assert (
        "warning: d.csv: card 'Typist': field 'text' holds a literal \\n, printed as typed"
        in result.output
    )
    assert "Breaker" not in result.output.split("holds a literal")[0]
    page = pdfium.PdfDocument(str(tmp_path / "d.pdf"))[0]
    text = page.get_textpage()
    lines = text.get_text_range().splitlines()
    assert "First line." in [line.strip() for line in lines]  # a line of its own
    assert "Second line." in [line.strip() for line in lines]
    assert "One\\nTwo" in text.get_text_range()
    first, second = (text.get_text_range().index(s) for s in ("First", "Second"))
    y_first = text.get_charbox(first)[1]
    y_second = text.get_charbox(second)[1]
    assert y_first - y_second > 5  # the second line is set below the first, pt


@pytest.mark.slow
@pytest.mark.skipif(
    __import__("shutil").which("zbarimg") is None, reason="needs zbarimg (Debian zbar-tools)"
)
def test_every_qr_code_in_the_default_previews_decodes(run, tmp_path: Path) -> None:
    import subprocess

    result = run("demo:toy-battle", "--out", "tb.pdf", "--duplex", "none", "--png", "png")
    assert result.exit_code == 0, result.output
    assert "may not decode" not in result.output
    for number in (1, 6):  # a full sheet of 9 and the last one
        png = tmp_path / "png" / f"tb-p{number:02d}.png"
        found = subprocess.run(
            ["zbarimg", "-q", str(png)], capture_output=True, text=True, check=False
        ).stdout.splitlines()
        expected = 9 if number == 1 else 48 - 5 * 9
        assert len(found) == expected, (png.name, found)
    low = run("demo:toy-battle", "--out", "tb.pdf", "--png", "png", "--png-dpi", "100")
    assert "note: --png-dpi 100: the QR codes in the previews may not decode" in low.output


def test_cutter_without_ezdxf_names_the_extra_in_one_line(
    run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "ezdxf" else real(name, *a)
    )
    line = _one_error_line(run("demo:toy-battle", "--out", "c.pdf", "--cutter", "silhouette"))
    assert line == (
        "Error: --cutter writes DXF cut lines with ezdxf, which is not installed: "
        "pip install 'tablesmith[cutter]'  (from a checkout: pip install -r requirements/cutter.txt)"
    )
    assert not (tmp_path / "c.pdf").exists()


def test_a_full_disk_names_the_pdf_it_could_not_write(run, tmp_path: Path, monkeypatch) -> None:
    import errno

    import printables.render

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")  # as zlib's write fails

    monkeypatch.setattr(printables.render, "render_deck", full)
    line = _one_error_line(run("demo:toy-battle", "--out", "sheets.pdf"))
    assert line == "Error: --out: cannot write sheets.pdf: No space left on device"


def test_a_qr_base_too_long_for_the_cards_is_refused_naming_the_option(run) -> None:
    from printables.render import MAX_QR_BASE

    fits = "http://h.example/" + "a" * (MAX_QR_BASE - 17)
    assert run("demo:pocketmodel", "--out", "ok.pdf", "--qr-base", fits).exit_code == 0
    line = _one_error_line(run("demo:pocketmodel", "--out", "x.pdf", "--qr-base", fits + "a"))
    assert line == (
        f"Error: --qr-base must be a URL of at most {MAX_QR_BASE} characters (the QR codes "
        f"grow with it), got {MAX_QR_BASE + 1} characters"
    )
