"""Profiles and options refuse what they do not know (issue 29, point 4): an unknown key in
printers.json, a non-ASCII ``--qr-base`` host (IDNA-encoded into the QR codes), a number too
long for any field, and Pillow's own warnings, which never reach the terminal before ours."""

from __future__ import annotations

import json
import struct
import warnings
import zlib
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner

from games.cards.deck import DeckError, ascii_base, parse_deck_text
from games.registry import CARD_GAMES
from printables.deckfile import read_deck
from printables.layout import SettingError
from printables.render import RenderOptions, render_deck
from tablesmith import cli

TROOP = "game: toy-battle\ncards:\n  - {troop: Star, name: A, colour: blue, copies: %s}\n"


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TABLESMITH_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)

    def invoke(*args: str):
        return CliRunner().invoke(cli, ["cards", *args])

    return invoke


def test_an_unknown_key_in_a_printer_profile_is_named_with_the_file_and_the_nearest_key(
    run, tmp_path: Path
) -> None:
    config = tmp_path / "config"
    config.mkdir()
    path = config / "printers.json"
    path.write_text(json.dumps({"office": {"duplex": "long-edge", "dX": 0.8}}), encoding="utf-8")
    result = run("demo:toy-battle", "--printer", "office", "--out", "x.pdf")
    assert result.exit_code == 2
    assert result.output == (
        f"Error: {path}: profile 'office': unknown key 'dX' (did you mean 'dx'? known keys: "
        "duplex, dx, dy, rotation_deg, scale_x, scale_y)\n"
    )
    assert not (tmp_path / "x.pdf").exists()
    path.write_text(json.dumps({"office": {"rotation": 0.1}}), encoding="utf-8")
    assert "did you mean 'rotation_deg'?" in run("demo:toy-battle", "--printer", "office").output
    path.write_text(json.dumps({"office": {"zzz": 1}}), encoding="utf-8")
    assert (
        "unknown key 'zzz' (known keys: duplex"
        in run("demo:toy-battle", "--printer", "office").output
    )


def test_a_non_ascii_qr_base_host_is_idna_encoded_into_every_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import printables.faces

    drawn: list[str] = []
    real = printables.faces.draw_qr

    def record(canvas, url: str, *args, **kwargs):
        drawn.append(url)
        return real(canvas, url, *args, **kwargs)

    monkeypatch.setattr(printables.faces, "draw_qr", record)
    deck = read_deck("demo:toy-battle").deck
    options = RenderOptions(qr_base="http://Bücher.example:8765/tisch/ä")
    render_deck(deck, options, tmp_path / "q.pdf")
    assert len(drawn) == deck.card_count
    for url in drawn:
        assert url.isascii(), url
        parts = urlsplit(url)
        assert parts.hostname == "xn--bcher-kva.example" and parts.port == 8765
        assert parts.hostname.encode("ascii").decode("idna") == "bücher.example"
        assert parts.path.startswith(f"/tisch/%C3%A4/card/toy-battle/{deck.slug}/")
    assert ascii_base("http://192.168.1.20:8765") == "http://192.168.1.20:8765"


def test_a_qr_base_host_idna_cannot_encode_is_refused() -> None:
    with pytest.raises(SettingError) as info:
        RenderOptions(qr_base="http://" + "ü" * 64 + ".example")
    assert info.value.setting == "qr_base" and "1..63 characters" in info.value.allowed


def test_a_5000_digit_number_names_its_field(run, tmp_path: Path) -> None:
    digits = "9" * 5000
    with pytest.raises(DeckError) as info:
        parse_deck_text(TROOP % digits, games=CARD_GAMES, source="d.yaml")
    assert str(info.value).startswith(
        "d.yaml: line 3 (card 1): field 'copies': allowed a whole number 1..99; found '9999"
    )
    (tmp_path / "d.yaml").write_text(TROOP % ("-" + "0" * 4000 + "1"), encoding="utf-8")
    result = run("d.yaml", "--out", "d.pdf")
    assert result.exit_code == 2
    assert result.output.startswith("Error: d.yaml: line 3 (card 1): field 'copies': allowed")


def png_header_only(path: Path, width: int, height: int) -> Path:
    """A PNG whose header says ``width`` x ``height`` (1-bit grey) with one byte of image
    data: Pillow reads the size, and warns or refuses, on opening it."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\0"))
        + chunk(b"IEND", b"")
    )
    return path


@pytest.mark.parametrize(
    ("size", "expect"),
    [
        ((10_000, 9_500), "10000 x 9500 pixels; the limit is 40 megapixels"),
        ((20_000, 10_000), "more than 179 megapixels; the limit is 40 megapixels"),
    ],
)
def test_pillows_size_warning_never_reaches_the_terminal(
    run, tmp_path: Path, size: tuple[int, int], expect: str
) -> None:
    png_header_only(tmp_path / "huge.png", *size)
    (tmp_path / "d.yaml").write_text(
        "game: toy-battle\ncards:\n  - {troop: Star, name: A, colour: blue, image: huge.png}\n",
        encoding="utf-8",
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = run("d.yaml", "--out", "d.pdf")
    assert [str(w.message) for w in caught] == []
    assert result.exit_code == 2
    assert result.output == (
        "Error: d.yaml: card 'A': field 'image': 'huge.png' is not a readable PNG, JPEG or "
        f"WebP image ({expect})\n"
    )
