"""Decks as spreadsheets save them (issue 29, point 6): a CSV saved by German Excel in
Windows-1252 is read with one warning naming the file; an Excel ``sep=;`` first line names the
delimiter. The files are in tests/data/cards/ as the programs write them (CRLF, no BOM or a
BOM)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from games.cards.deck import DeckError
from printables.deckfile import read_deck
from tablesmith import cli

DATA = Path(__file__).resolve().parents[1] / "data" / "cards"


def test_a_windows_1252_csv_is_read_with_a_warning_naming_the_file() -> None:
    loaded = read_deck(str(DATA / "excel-cp1252.csv"))
    first = loaded.deck.cards[0]
    assert (first.name, first.text) == ("Größe", "Zieh 1 Truppe – für Jörg")
    (note,) = loaded.notes
    assert note.startswith(
        f"{DATA / 'excel-cp1252.csv'}: not UTF-8 (line 2: byte 0xf6); read as Windows-1252"
    )
    assert 'save it as "CSV UTF-8"' in note
    assert read_deck(str(DATA / "excel-sep.csv")).notes == ()


def test_the_cli_prints_the_warning_and_the_pdf(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(DATA / "excel-cp1252.csv", tmp_path / "deck.csv")
    result = CliRunner().invoke(cli, ["cards", "deck.csv", "--out", "d.pdf", "--no-qr"])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if "Windows-1252" in line]
    assert len(warnings) == 1 and warnings[0].startswith("warning: deck.csv: not UTF-8")
    assert (tmp_path / "d.pdf").read_bytes().startswith(b"%PDF-")


def test_an_excel_sep_line_is_read_as_the_delimiter() -> None:
    deck = read_deck(str(DATA / "excel-sep.csv")).deck
    assert [(c.name, c.troop, c.colour) for c in deck.cards] == [
        ("Größe", "Star", "blue"),
        ("Kwak", "Kwak", "red"),
    ]


def test_bytes_that_are_no_text_in_either_stay_an_error_and_yaml_stays_utf8(
    tmp_path: Path,
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_bytes((DATA / "excel-cp1252.csv").read_bytes().replace(b"\xf6", b"\x81"))
    with pytest.raises(
        DeckError, match=r"line 2: field 'encoding': allowed UTF-8 text; found 'byte 0x81'"
    ):
        read_deck(str(bad))
    yaml = tmp_path / "d.yaml"
    yaml.write_bytes(
        "game: toy-battle\ncards:\n  - {troop: Star, name: Jörg, colour: red}\n".encode("cp1252")
    )
    with pytest.raises(DeckError, match="found 'byte 0xf6'"):
        read_deck(str(yaml))
