"""Art as people have it (issue 29, point 6): a WebP file is read, art under 150 ppi at its
printed size is warned about per card, art above 600 ppi is downsampled once into the art
cache (the original untouched), and a file of another format is named as such. The pictures
are made here with Pillow (tiny, or one colour, so they cost nothing to write)."""

from __future__ import annotations

import hashlib
import math
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from games.cards.deck import parse_deck_text
from games.registry import CARD_GAMES
from printables.duplex import Duplex
from printables.images import MAX_ART_PPI, MIN_ART_PPI, print_ppi
from printables.render import RenderOptions, render_deck
from tablesmith import cli
from tests.printables.conftest import image_xobjects


@pytest.fixture(autouse=True)
def art_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TABLESMITH_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "cache"


def deck(tmp_path: Path, art: str, copies: int = 1, name: str = "d.yaml") -> Path:
    path = tmp_path / name
    path.write_text(
        "game: pocketmodel\ncards:\n"
        f"  - {{kind: unit, name: Lancer, copies: {copies}, stars: 3, attack: 4, damage: 2, "
        f"defense: 8, shields: 2, icons: Leader, image: {art}}}\n"
        "  - {kind: unit, name: Plain, stars: 1, attack: 1, damage: 1, defense: 6, shields: 1, "
        "icons: Laser}\n",
        encoding="utf-8",
    )
    return path


def cards(*args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(cli, ["cards", *args, "--no-qr", "--duplex", "none"])
    assert "Traceback" not in result.output
    return result.exit_code, result.output.splitlines()


def images(pdf: Path) -> list[tuple[int, int]]:
    """(width, height) of every image XObject, inside the card designs' forms too."""
    return [(int(obj["/Width"]), int(obj["/Height"])) for obj in image_xobjects(pdf)]


def test_a_webp_picture_is_printed(tmp_path: Path) -> None:
    Image.new("RGB", (400, 300), (200, 40, 40)).save(tmp_path / "art.webp", "WEBP")
    code, lines = cards(str(deck(tmp_path, "art.webp")), "--out", "w.pdf")
    assert code == 0, lines
    assert images(tmp_path / "w.pdf") == [(400, 300)]
    Image.new("RGB", (40, 30)).save(tmp_path / "art.gif", "GIF")
    code, lines = cards(str(deck(tmp_path, "art.gif")), "--out", "g.pdf")
    assert code == 2 and lines[-1].endswith(
        "field 'image': 'art.gif' is a .gif file; card art must be PNG, JPEG or WebP "
        "(.png, .jpg, .webp)"
    )
    code, lines = cards(str(deck(tmp_path, "gone.webp")), "--out", "m.pdf")
    assert code == 2 and "allowed an existing .png, .jpg or .webp file" in lines[-1]


def test_art_under_150_ppi_is_warned_about_once_per_card(tmp_path: Path) -> None:
    Image.new("RGB", (60, 40), (20, 90, 200)).save(tmp_path / "small.png")
    code, lines = cards(str(deck(tmp_path, "small.png", copies=3)), "--out", "s.pdf")
    assert code == 0, lines
    soft = [line for line in lines if " ppi " in line]
    assert len(soft) == 1, lines
    found = re.fullmatch(
        r"warning: card 'Lancer': art 'small.png' prints at (\d+) ppi \(60 x 40 pixels in a "
        r"57 x (\d+) mm window\); it looks soft or blocky under 150 ppi: use a picture of at "
        r"least (\d+) x (\d+) pixels",
        soft[0],
    )
    assert found, soft[0]
    ppi, height = int(found.group(1)), int(found.group(2))
    assert ppi == round(print_ppi((60, 40), (57.0, float(height))), 0) and ppi < MIN_ART_PPI
    assert int(found.group(3)) == math.ceil(57 / 25.4 * MIN_ART_PPI)
    Image.new("RGB", (600, 400), (20, 90, 200)).save(tmp_path / "sharp.png")
    code, lines = cards(str(deck(tmp_path, "sharp.png")), "--out", "ok.pdf")
    assert code == 0 and not [line for line in lines if " ppi " in line]


def test_art_above_600_ppi_is_downsampled_once_and_the_original_kept(
    tmp_path: Path, art_cache: Path
) -> None:
    big = tmp_path / "big.jpg"
    Image.new("RGB", (3300, 4600), (240, 200, 30)).save(big, "JPEG", quality=90)
    original = hashlib.sha256(big.read_bytes()).hexdigest()
    source = parse_deck_text(
        deck(tmp_path, "big.jpg", copies=2).read_text(), games=CARD_GAMES, source="d.yaml"
    )
    options = RenderOptions(duplex=Duplex.NONE, qr=False)
    render_deck(source, options, tmp_path / "b.pdf", base_dir=tmp_path)
    (embedded,) = images(tmp_path / "b.pdf")
    # covers the 63 x 88 mm card at 600 ppi: 88 mm = 2078.7 pixels high, 1491.3 wide
    assert embedded == (1492, 2079)
    assert min(print_ppi(embedded, (63, 88)), print_ppi(embedded, (57, 30))) >= MAX_ART_PPI
    assert hashlib.sha256(big.read_bytes()).hexdigest() == original
    copies = sorted(art_cache.rglob("*.jpg"))
    assert len(copies) == 1 and copies[0].name.endswith(f"-{embedded[0]}x{embedded[1]}.jpg")
    stamp = copies[0].stat().st_mtime_ns
    render_deck(source, options, tmp_path / "again.pdf", base_dir=tmp_path)
    assert sorted(art_cache.rglob("*.jpg")) == copies and copies[0].stat().st_mtime_ns == stamp
