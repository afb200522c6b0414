"""``tablesmith serve`` at start: the address it names for phones (a LAN address, or why no
phone can reach it) and its terminal QR code, read back with zbarimg as a phone camera would
see it on a light and on a dark terminal."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from companion import serve
from companion.serve import phone_address, terminal_qr

ROOT = Path(__file__).resolve().parents[2]
THEMES = {"light": ((0, 0, 0), (255, 255, 255)), "dark": ((230, 230, 230), (20, 20, 20))}
"""Terminal themes: (text colour, background) where the output sets no colour itself."""
ANSI = re.compile(r"\033\[([0-9;]*)m")


def screen(text: str, theme: str) -> Image.Image:
    """What a terminal shows for ``text`` (half blocks and ANSI colours), 4 x 4 pixels per
    character cell, as an image: explicit 256-colour codes win over the theme's colours."""
    fg_default, bg_default = THEMES[theme]
    lines = [line for line in text.splitlines() if ANSI.sub("", line)]
    width = max(len(ANSI.sub("", line)) for line in lines)
    image = Image.new("RGB", (width * 4 + 32, len(lines) * 4 + 32), bg_default)
    for y, line in enumerate(lines):
        fg, bg, x = fg_default, bg_default, 0
        for part in re.split(r"(\033\[[0-9;]*m)", line):
            codes = ANSI.fullmatch(part)
            if codes:
                numbers = codes.group(1)
                if numbers in ("0", ""):
                    fg, bg = fg_default, bg_default
                elif numbers.startswith("38;5;"):
                    fg = (0, 0, 0) if numbers.endswith(";16") else (255, 255, 255)
                elif numbers.startswith("48;5;"):
                    bg = (255, 255, 255) if numbers.endswith(";231") else (0, 0, 0)
                continue
            for char in part:
                top = fg if char in "\u2588\u2580" else bg
                bottom = fg if char in "\u2588\u2584" else bg
                for dx in range(4):
                    for dy in range(2):
                        image.putpixel((16 + x * 4 + dx, 16 + y * 4 + dy), top)
                        image.putpixel((16 + x * 4 + dx, 16 + y * 4 + 2 + dy), bottom)
                x += 1
    return image


def decode(image: Image.Image, tmp_path: Path) -> str:
    path = tmp_path / "screen.png"
    image.save(path)
    found = subprocess.run(
        ["zbarimg", "--quiet", "--raw", str(path)], capture_output=True, text=True, check=False
    )
    return found.stdout.strip()


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbarimg (Debian zbar-tools)")
@pytest.mark.parametrize("theme", sorted(THEMES))
def test_the_terminal_qr_code_reads_on_light_and_dark_terminals(theme: str, tmp_path: Path) -> None:
    url = "http://192.168.1.20:8765/"
    out = io.StringIO()
    terminal_qr(url, out)
    assert decode(screen(out.getvalue(), theme), tmp_path) == url
    # segno's plain compact output draws the light modules in the text colour: inverted on a
    # light terminal (what the phones could not read)
    plain = io.StringIO()
    serve.segno.make(url, error="m").terminal(out=plain, compact=True)
    assert (decode(screen(plain.getvalue(), theme), tmp_path) == url) == (theme == "dark")


def test_a_loopback_host_is_never_named_for_a_phone(monkeypatch: pytest.MonkeyPatch) -> None:
    for host in ("127.0.0.1", "localhost", "::1", "127.0.1.1"):
        address, why = phone_address(host)
        assert address == host and why is not None and "this computer only" in why
    monkeypatch.setattr(serve, "lan_address", lambda: "192.168.1.20")
    assert phone_address("0.0.0.0") == ("192.168.1.20", None)
    assert phone_address("192.168.1.20") == ("192.168.1.20", None)
    monkeypatch.setattr(serve, "lan_address", lambda: "127.0.0.1")
    address, why = phone_address("0.0.0.0")
    assert why is not None and "no network address" in why and "--base-url" in why


def test_serve_on_127_0_0_1_says_no_phone_can_reach_it_and_prints_no_qr(tmp_path: Path) -> None:
    code = "import sys\nfrom tablesmith import cli\nsys.exit(cli())"
    args = ["serve", "--host", "127.0.0.1", "--port", "0", "--db", str(tmp_path / "c.sqlite")]
    process = subprocess.Popen(
        [sys.executable, "-u", "-c", code, *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        first, second = process.stdout.readline(), process.stdout.readline()
    finally:
        process.kill()
        process.wait()
        if process.stdout is not None:
            process.stdout.close()
    assert re.match(
        r"Tablesmith companion: open http://127\.0\.0\.1:\d+/ in a browser on this", first
    )
    assert "No phone can reach it: --host 127.0.0.1 listens on this computer only" in first
    assert "on a phone" not in first
    assert second.startswith("Database: ")  # and no QR code of an address phones cannot open
