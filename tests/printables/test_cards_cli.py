"""``tablesmith cards``: files written, one-line errors with exit code 2, profiles."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

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
                "toy-battle, transformers; found 'nope'"
            ),
        ),
        (
            ["demo:pocketmodel", "--paper", "b5"],
            "Error: paper must be one of a4, letter, a3, got 'b5'",
        ),
        (["demo:pocketmodel", "--back-offset", "1"], "Error: --back-offset must be DX,DY in mm"),
        (["demo:pocketmodel", "--duplex", "sideways"], "Error: --duplex must be one of"),
        (["demo:pocketmodel", "--card-size", "10x10"], "Error: card width must be 20..300 mm"),
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
    (tmp_path / "x.pdf").write_bytes(b"old")
    result = run("bad.csv", "--out", "x.pdf")
    assert result.exit_code == 2
    assert result.output.startswith("Error: 2 problems: bad.csv: line 2: field 'colour'")
    assert "bad.csv: line 3: field 'troop'" in result.output
    assert (tmp_path / "x.pdf").read_bytes() == b"old"  # untouched, no half-written file
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
    from printables.layout import BackAdjust, adjust_point

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
    adjusted = page_content(reader.pages[1]).forms
    plain = page_content(pypdf.PdfReader(tmp_path / "plain.pdf").pages[1]).forms
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
