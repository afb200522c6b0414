"""docs/pictures.py (issues 26 and 27): the documentation's pictures made from real outputs, a
kit's plate preview, a card sheet, two phones at one table and the print shop's three doors (its
start page on a phone, a finished kit's job page, a deck's problems on a phone beside a finished
card job), come out as small PNGs that show something, each shown in the docs; without chromium
the script stops at once with one line saying what to install."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import cast

import numpy as np
import pytest
from PIL import Image, ImageStat

from tests.companion.phones import CHROMIUM, PHONE

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "docs" / "pictures.py"
DOCS = ROOT / "docs"
PNG = b"\x89PNG\r\n\x1a\n"
PICTURES = (
    "kit-plate.png",
    "card-sheet.png",
    "table-phones.png",
    "door-start.png",
    "door-pieces.png",
    "door-cards.png",
)


def run_script(out: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``python docs/pictures.py --out OUT`` with ``env`` added to the environment."""
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, **env},
    )


def panels(image: Image.Image) -> list[tuple[int, int, int, int]]:
    """The boxes (left, top, right, bottom) of the runs of columns of ``image`` that are not
    all the colour of its top left pixel (the backdrop)."""
    pixels = np.asarray(image.convert("RGB"))
    drawn = (pixels != pixels[0, 0]).any(axis=2)
    columns = drawn.any(axis=0)
    boxes = []
    x = 0
    while x < len(columns):
        if not columns[x]:
            x += 1
            continue
        start = x
        while x < len(columns) and columns[x]:
            x += 1
        rows = np.flatnonzero(drawn[:, start:x].any(axis=1))
        boxes.append((start, int(rows[0]), x, int(rows[-1]) + 1))
    return boxes


def phone_ratio() -> float:
    """Height / width of the phone's viewport (:data:`PHONE`)."""
    viewport = cast(dict[str, int], PHONE["viewport"])
    return viewport["height"] / viewport["width"]


@pytest.mark.slow
def test_the_script_makes_six_small_pictures_that_show_something(tmp_path: Path) -> None:
    pytest.importorskip("playwright.sync_api", reason="Playwright (the test extra)")
    if not Path(CHROMIUM).exists():
        pytest.skip(
            f"chromium not found at {CHROMIUM} (Debian package chromium; .ci/run installs it)"
        )
    result = run_script(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(PICTURES) + 1, result.stdout  # a line per picture, the total
    for name, line in zip(PICTURES, lines):
        assert line.startswith(str(tmp_path / name) + ": "), line

    for name in PICTURES:
        path = tmp_path / name
        assert path.read_bytes()[:8] == PNG, name
        assert 20_000 < path.stat().st_size < 400_000, (name, path.stat().st_size)
        with Image.open(path) as image:
            image.verify()
        with Image.open(path) as image:
            picture = image.convert("RGB")
        smallest = 400 if name == "door-start.png" else 900  # one phone
        assert smallest <= picture.width <= 1400, (name, picture.size)
        assert 500 <= picture.height <= 1700, (name, picture.size)
        assert len(picture.getcolors(1 << 16) or ()) >= 64, name  # not a blank page
        assert ImageStat.Stat(picture.convert("L")).stddev[0] > 20, name

    with Image.open(tmp_path / "kit-plate.png") as image:
        assert image.width / image.height == pytest.approx(2, rel=0.01)  # two previews
    with Image.open(tmp_path / "card-sheet.png") as image:
        assert image.height / image.width == pytest.approx(297 / 210, abs=0.01)  # an A4 page
    with Image.open(tmp_path / "table-phones.png") as image:
        phones = panels(image)
    assert len(phones) == 2, phones
    (left_a, top_a, right_a, bottom_a), (left_b, top_b, right_b, bottom_b) = phones
    assert left_b - right_a >= 20  # a gap between the phones
    assert right_a - left_a == right_b - left_b >= 400
    for left, top, right, bottom in phones:
        assert (bottom - top) / (right - left) == pytest.approx(phone_ratio(), rel=0.02)

    with Image.open(tmp_path / "door-start.png") as image:
        (start,) = panels(image)  # one phone, on the backdrop
    left, top, right, bottom = start
    assert right - left >= 400 and (bottom - top) / (right - left) == pytest.approx(
        phone_ratio(), rel=0.02
    )
    with Image.open(tmp_path / "door-pieces.png") as image:
        assert image.width == 1200 and image.height > image.width  # the page down to the plates
    with Image.open(tmp_path / "door-cards.png") as image:
        screens = panels(image)
    assert len(screens) == 2, screens  # a phone beside a desktop, as tall
    (left_a, top_a, right_a, bottom_a), (left_b, top_b, right_b, bottom_b) = screens
    assert left_b - right_a >= 20
    assert (bottom_a - top_a) / (right_a - left_a) == pytest.approx(phone_ratio(), rel=0.02)
    assert right_b - left_b > 1.5 * (right_a - left_a)
    assert abs((bottom_a - top_a) - (bottom_b - top_b)) <= 2


def test_every_picture_is_committed_and_shown_in_the_docs() -> None:
    pages = "\n".join(
        path.read_text(encoding="utf-8") for path in [ROOT / "README.md", *DOCS.rglob("*.md")]
    )
    assert len(PICTURES) >= 3
    for name in PICTURES:
        assert (DOCS / "images" / name).read_bytes()[:8] == PNG, name
        assert f"images/{name}" in pages, f"{name} is shown on no page"


def test_without_chromium_the_script_says_what_to_install_and_makes_nothing(
    tmp_path: Path,
) -> None:
    pytest.importorskip("playwright.sync_api", reason="Playwright (the test extra)")
    out = tmp_path / "images"
    result = run_script(out, TABLESMITH_CHROMIUM=str(tmp_path / "no-chromium"))
    assert result.returncode == 1
    assert result.stdout == ""
    message = result.stderr.strip()
    assert len(message.splitlines()) == 1, message
    assert "apt-get install chromium" in message and "Traceback" not in message
    assert not out.exists()
