"""The job page's 3D view in a real browser (Debian chromium via Playwright, WebGL on
SwiftShader; issue 27, points 2 and 6), against a real ``tablesmith serve``: once the kit is
made, every part and every plate is drawn, filling the view, in the kit's colours, the
engraved ones with their symbol layer in the symbol colour (counted in screenshots of the
canvas at 390 x 844 and 1280 x 900); nothing is fetched from anywhere but the server; a
browser without WebGL gets one line, in German too."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.companion.phones import ARGS, CHROMIUM, PHONE, launch, shots_folder
from tests.companion.servers import Serve

pytestmark = pytest.mark.slow

DESK = {"viewport": {"width": 1280, "height": 900}, "locale": "en-GB"}
BACKGROUND = "#0A0E17"
"""The stage's colour (viewer.js BACKGROUND)."""
NEAR = 20.0
"""How far (RGB distance) a pixel may be from a colour to count as it: the view lights a face
that looks up about as its filament looks."""


@pytest.fixture
def browser() -> Iterator[Any]:
    # chromium gives WebGL on its software renderer (SwiftShader) only when asked for it
    yield from launch(["--enable-unsafe-swiftshader"])


def share(shot: bytes, colour: str) -> float:
    """The share of the screenshot's pixels within :data:`NEAR` of ``colour`` (#RRGGBB)."""
    import numpy as np
    from PIL import Image

    pixels = np.asarray(Image.open(io.BytesIO(shot)).convert("RGB"), dtype=float)
    target = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)], dtype=float)
    near = np.sqrt(((pixels - target) ** 2).sum(axis=-1)) <= NEAR
    return float(near.mean())


def filled(shot: bytes) -> float:
    """How much of the canvas's width or height the drawn object spans (0..1, the larger)."""
    import numpy as np
    from PIL import Image

    pixels = np.asarray(Image.open(io.BytesIO(shot)).convert("RGB"), dtype=float)
    target = np.array([int(BACKGROUND[i : i + 2], 16) for i in (1, 3, 5)], dtype=float)
    drawn = np.sqrt(((pixels - target) ** 2).sum(axis=-1)) > 30
    rows, columns = np.nonzero(drawn.any(axis=1))[0], np.nonzero(drawn.any(axis=0))[0]
    if not len(rows):
        return 0.0
    height, width = drawn.shape
    return float(max((rows[-1] - rows[0] + 1) / height, (columns[-1] - columns[0] + 1) / width))


def expected(manifest: dict[str, Any]) -> dict[str, tuple[list[str], str | None]]:
    """For each choice of the view: the body colours it must show, and the symbol colour
    (None where nothing shown is engraved: it must not appear)."""
    settings = manifest["settings"]
    parts = {part["name"]: part for part in manifest["parts"]}
    found: dict[str, tuple[list[str], str | None]] = {}
    for name, part in parts.items():
        symbol = settings["symbol_colour"] if part["colour_change_mm"] else None
        found[f"part:{name}"] = ([c["colour"] for c in part["colours"]], symbol)
    for plate in manifest["plates"]:
        name = plate["file"].rsplit("/", 1)[-1].removesuffix(".3mf")
        engraved = any(parts[p]["colour_change_mm"] for p in plate["parts"])
        symbol = settings["symbol_colour"] if engraved else None
        found[f"plate:{name}"] = ([plate["colour"]], symbol)
    return found


def test_the_3d_view_draws_every_part_and_plate_in_its_colours_with_the_symbol_layer(
    browser: Any, server: Serve, tmp_path: Path
) -> None:
    folder = shots_folder(tmp_path)
    errors: list[str] = []
    elsewhere: list[str] = []
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(server.base + "/pieces")
    phone.fill("#f-scale", "0.8")
    phone.fill("#f-printer", "mini")
    phone.click("#make-kit")
    phone.wait_for_selector("#job-status[data-state=done]", timeout=300_000)
    job = phone.url
    manifest = requests.get(job + ".json", timeout=10).json()["manifest"]
    choices = expected(manifest)
    assert len(choices) == len(manifest["parts"]) + len(manifest["plates"])
    assert any(symbol for _, symbol in choices.values())
    desk = browser.new_context(**DESK).new_page()
    desk.add_init_script(
        "window.framesAsked = 0; const ask = window.requestAnimationFrame.bind(window);"
        "window.requestAnimationFrame = (f) => { window.framesAsked += 1; return ask(f); };"
    )
    for page, size in ((phone, "phone"), (desk, "desk")):
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "request",
            lambda r: None if r.url.startswith((server.base, "data:")) else elsewhere.append(r.url),
        )
        if page is desk:
            page.goto(job)
        page.wait_for_selector("#viewer[data-shown]", timeout=60_000)
        offered = page.eval_on_selector_all("#viewer-pick option", "os => os.map(o => o.value)")
        assert sorted(offered) == sorted(choices)
        canvas = page.locator("#viewer-stage canvas")
        for key, (bodies, symbol) in choices.items():
            page.select_option("#viewer-pick", key)
            page.wait_for_selector(f'#viewer[data-shown="{key}"]', timeout=60_000)
            shot = canvas.screenshot()
            (folder / f"viewer-{size}-{key.replace(':', '-')}.png").write_bytes(shot)
            for colour in bodies:
                assert share(shot, colour) > 0.005, (size, key, colour)
            if symbol is not None:
                assert share(shot, symbol) > 0.005, (size, key, symbol)
            else:
                assert share(shot, manifest["settings"]["symbol_colour"]) < 0.0005, (size, key)
            if key.startswith("part:"):
                assert filled(shot) > 0.6, (size, key)
        page.locator("#viewer").scroll_into_view_if_needed()
        page.screenshot(path=str(folder / f"viewer-{size}-page.png"))
    # on demand: no frame is drawn while nobody turns it; a drag turns it, the wheel zooms
    frames = desk.evaluate("window.framesAsked")
    desk.wait_for_timeout(1000)
    assert desk.evaluate("window.framesAsked") == frames
    canvas = desk.locator("#viewer-stage canvas")
    still = canvas.screenshot()
    box = canvas.bounding_box()
    desk.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    desk.mouse.down()
    desk.mouse.move(box["x"] + box["width"] / 2 - 120, box["y"] + box["height"] / 2, steps=6)
    desk.mouse.up()
    turned = canvas.screenshot()
    assert desk.evaluate("window.framesAsked") > frames and turned != still
    desk.mouse.wheel(0, -400)
    desk.wait_for_timeout(300)
    assert canvas.screenshot() != turned
    assert errors == []
    assert elsewhere == []

    # no WebGL: one line instead of the view (German here), the rest of the page as before
    plain = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*ARGS, "--disable-webgl", "--disable-3d-apis"]
    )
    try:
        page = plain.new_context(**{**PHONE, "locale": "de-DE"}).new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(job)
        page.wait_for_function(
            "(document.getElementById('viewer-note') || {}).textContent.includes('WebGL')",
            timeout=30_000,
        )
        assert page.inner_text("#viewer").strip() == (
            "Dieser Browser kann die 3D-Ansicht nicht zeigen (kein WebGL): Die Bilder unten "
            "zeigen jede Druckplatte."
        )
        assert page.locator("#plates img").count() == len(manifest["plates"])
        page.locator("#viewer").scroll_into_view_if_needed()
        page.screenshot(path=str(folder / "viewer-no-webgl-de.png"))
        assert errors == []
    finally:
        plain.close()
