"""The pieces door in a real browser (Debian chromium via Playwright; issue 27, point 6),
against a real ``tablesmith serve``: a phone in English and a desktop in German queue two
kits, the second waits its turn and is cancelled with its button, the first is made and its
zip, downloaded through the page's link, holds the command's kit byte for byte."""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.companion.phones import PHONE, shot, shots_folder
from tests.companion.servers import Serve

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_two_kits_queue_one_is_cancelled_the_other_is_the_commands_kit(
    browser: Any, server: Serve, tmp_path: Path
) -> None:
    folder = shots_folder(tmp_path)
    phone = browser.new_context(**PHONE, accept_downloads=True).new_page()
    desk = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE").new_page()
    errors: list[str] = []
    for page in (phone, desk):
        page.on("pageerror", lambda error: errors.append(str(error)))

    phone.goto(server.base + "/")
    phone.click("#door-pieces")
    phone.fill("#f-scale", "0.8")
    phone.fill("#f-printer", "mini")
    shot(phone, folder, "pieces-phone-en")
    phone.click("#make-kit")
    phone.wait_for_selector("#job-status[data-state=running]", timeout=30_000)

    desk.goto(server.base + "/pieces")
    assert desk.inner_text("h1") == "Die Spielteile drucken"
    desk.fill("#f-plate_spacing", "7")
    desk.click("#make-kit")
    desk.wait_for_selector("#job-status[data-state=queued]", timeout=10_000)
    assert desk.inner_text("#job-status") == "In der Warteschlange: Platz 1"
    shot(desk, folder, "queued-desk-de")
    desk.click("#cancel")
    desk.wait_for_selector("#job-status[data-state=cancelled]", timeout=10_000)
    assert desk.inner_text("#job-status") == "Abgebrochen: nichts wurde behalten"
    assert desk.is_hidden("#cancel-form") and desk.is_hidden("#job-done")

    phone.wait_for_selector("#job-status[data-state=done]", timeout=180_000)
    assert phone.inner_text("#job-status") == "Done: your kit is ready"
    assert phone.locator("#plates img").count() >= 4
    notes = phone.inner_text("#notes")
    assert "Layer height **0.2 mm**" in notes and "plate-1-board" in notes  # the kit's own notes
    shot(phone, folder, "done-phone-en")
    with phone.expect_download() as caught:
        phone.click("#download-zip")
    made = zipfile.ZipFile(io.BytesIO(Path(caught.value.path()).read_bytes()))
    command = tmp_path / "command"
    subprocess.run(
        [sys.executable, str(ROOT / "tablesmith.py"), "build", "-q", "--no-cache", "--scale",
         "0.8", "--printer", "mini", "--out", str(command)],
        check=True, capture_output=True,
    )  # fmt: skip
    expected = {
        p.relative_to(command).as_posix(): p.read_bytes() for p in command.rglob("*") if p.is_file()
    }
    got = {n.removeprefix("asteroids/"): made.read(n) for n in made.namelist()}
    assert sorted(got) == sorted(expected)
    assert [n for n in expected if got[n] != expected[n]] == []
    assert errors == []
