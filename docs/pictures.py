"""Make the three pictures of the documentation from real outputs of the installed ``tablesmith``.

    python docs/pictures.py [--out docs/images]

Each picture comes from a command a user runs, started here as a subprocess of this Python
(``python -m tablesmith``) in a temporary folder that is removed at the end:

``kit-plate.png``
    ``tablesmith build asteroids``: the kit's preview of the fragment plate beside its preview
    of one ship (the colour change shows the engraved symbol).
``card-sheet.png``
    ``tablesmith cards demo:pocketmodel``: the first page of the PDF, rendered by pypdfium2.
``table-phones.png``
    ``tablesmith serve`` on a free port of 127.0.0.1 with a database of its own: two phones
    (headless chromium through Playwright, 390 x 844 CSS px) at one Asteroids table, one in
    English and one in German. Phone 1 opens the table, phone 2 takes the second seat through
    the join link phone 1 shows, the set-up is drawn at random and both players move; then both
    screens are put side by side. The server is stopped whatever happens.

The PNGs are committed, so they are scaled down to about 1200 px across and optimised (the
phones also reduced to 256 colours). Needs Playwright and chromium (``apt-get install
chromium``; another chromium by ``TABLESMITH_CHROMIUM``).
"""

from __future__ import annotations

import contextlib
import io
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click
from PIL import Image, ImageDraw

CHROMIUM = os.environ.get("TABLESMITH_CHROMIUM", "/usr/bin/chromium")
"""The browser the phones run in (Debian package chromium), as for the browser tests."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
"""A phone's browser context (the locale is added per phone)."""
LOCALES = ("en-GB", "de-DE")
"""Phone 1 reads English, phone 2 German (the browser's language, as on a real phone)."""
WIDTH = 1200
"""About how wide each picture is, in pixels."""
BACKDROP = (226, 228, 233)
"""The colour around and between the two phones."""
START_SECONDS = 30.0
"""How long ``tablesmith serve`` may take to answer."""
STEP_MS = 10_000
"""How long the phones wait for any one thing on their page, in milliseconds."""


class PictureError(Exception):
    """A step failed; the message is the one line printed."""


def tablesmith(*args: str, cwd: Path) -> None:
    """Run ``tablesmith ARGS`` (this Python's installed package) in ``cwd``; a failure raises
    :class:`PictureError` with the command's last line of output."""
    command = [sys.executable, "-m", "tablesmith", *args]
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        lines = (result.stderr or result.stdout).strip().splitlines() or ["(no output)"]
        raise PictureError(f"tablesmith {' '.join(args[:2])} failed: {lines[-1]}")


def scaled(image: Image.Image, width: int) -> Image.Image:
    """``image`` scaled to ``width`` pixels across (height in proportion), in RGB."""
    height = round(image.height * width / image.width)
    return image.convert("RGB").resize((width, height), Image.Resampling.LANCZOS)


def save(image: Image.Image, path: Path, palette: bool) -> str:
    """Write ``image`` as an optimised PNG at ``path``, in 256 colours where ``palette`` is set
    (a third of the weight; only for a picture without smooth gradients, which would show
    bands); return its size and weight for the progress line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if palette:
        image = image.quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    image.save(path, optimize=True)
    return f"{image.width} x {image.height} px, {path.stat().st_size // 1024} KB"


def kit_plate(work: Path) -> Image.Image:
    """The Asteroids kit's plate preview of the fragments beside its preview of one ship, from
    a fresh ``tablesmith build asteroids`` into ``work``."""
    kit = work / "kit"
    tablesmith("build", "asteroids", "--out", str(kit), "--no-cache", "--quiet", cwd=work)
    previews = kit / "preview"
    plates = sorted(previews.glob("plate-*-fragments.png"))
    ship = previews / "ship.png"
    if not plates or not ship.exists():
        found = ", ".join(p.name for p in sorted(previews.glob("*.png"))) or "none"
        raise PictureError(f"the kit has no fragment plate or ship preview (found: {found})")
    with Image.open(plates[0]) as plate, Image.open(ship) as piece:
        left, right = plate.convert("RGB"), piece.convert("RGB")
    right = scaled(right, round(right.width * left.height / right.height))
    both = Image.new("RGB", (left.width + right.width, left.height), left.getpixel((0, 0)))
    both.paste(left, (0, 0))
    both.paste(right, (left.width, 0))
    return scaled(both, WIDTH)


def card_sheet(work: Path) -> Image.Image:
    """The first page of the PocketModel demo deck's card sheets, from a real
    ``tablesmith cards demo:pocketmodel`` into ``work``, rendered about 1000 px across."""
    import pypdfium2

    pdf = work / "pocketmodel.pdf"
    tablesmith("cards", "demo:pocketmodel", "--out", str(pdf), cwd=work)
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        page = document[0]
        width, _ = page.get_size()
        image: Image.Image = page.render(scale=1000 / width).to_pil()
    finally:
        document.close()
    return image.convert("RGB")


def free_port() -> int:
    """A TCP port of 127.0.0.1 that is free now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def serving(work: Path) -> Iterator[str]:
    """``tablesmith serve`` on a free port of 127.0.0.1 only, with a database in ``work``:
    yields its base URL once it answers and stops it on the way out, whatever happens."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = work / "serve.log"
    options = ["--host", "127.0.0.1", "--port", str(port), "--base-url", base]
    options += ["--db", str(work / "companion.sqlite"), "--no-mdns", "--no-qr"]
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "tablesmith", "serve", *options],
            cwd=work,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            if process.poll() is not None:
                lines = log.read_text(encoding="utf-8").strip().splitlines() or ["(no output)"]
                raise PictureError(f"tablesmith serve ended: {lines[-1]}")
            try:
                with urllib.request.urlopen(base + "/", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                raise PictureError(f"tablesmith serve did not answer within {START_SECONDS:g} s")
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def play(browser: Any, base: str) -> list[Image.Image]:
    """Two phones at one Asteroids table at ``base``, as two players meet it: phone 1 opens a
    table on the start page, phone 2 opens the join link phone 1 shows (its QR code) and takes
    the seat, phone 1 draws a random set-up, the player whose turn it is moves a ship twice and
    pushes a row of asteroids, and the other player moves a ship out of the home base. Returns
    the two screens (phone 1 first); a page error or a toast on either phone fails."""
    errors: list[str] = []
    phones: list[Any] = []
    for locale in LOCALES:
        page = browser.new_context(**PHONE, locale=locale).new_page()
        page.set_default_timeout(STEP_MS)
        page.on("pageerror", lambda error, locale=locale: errors.append(f"{locale}: {error}"))
        phones.append(page)
    first, second = phones
    first.goto(base + "/")
    first.click("#new-table-asteroids")
    first.wait_for_selector("#invite .qr svg")
    second.goto(first.locator("#join-link").get_attribute("href") or "")
    second.click("#take-seat")
    second.wait_for_selector("#random-setup")
    first.click("#random-setup")
    for phone in phones:
        phone.wait_for_selector("#c-0-0")  # the board is drawn
    mover = first if "Your turn" in first.inner_text("#who") else second
    other = second if mover is first else first

    def tap(phone: Any, selector: str) -> None:
        phone.locator(selector).first.click()

    tap(mover, ".base.origin")  # step 1: a ship out of the home base
    tap(mover, ".cell.target")
    tap(mover, ".cell.origin")  # step 2: the same ship again
    tap(mover, ".cell.target")
    mover.wait_for_selector(".edge.push")
    tap(mover, ".edge.push")  # the unstable rift pushes a row of asteroids
    other.wait_for_selector(".base.origin")  # the other player's turn has come
    tap(other, ".base.origin")  # the other player's first step
    tap(other, ".cell.target")
    ships = "document.querySelectorAll('.cell .ship').length === 2"
    for phone in phones:
        phone.wait_for_function(ships)  # both phones show both ships
        phone.locator("#toast").wait_for(state="hidden")  # no message over the board
    time.sleep(0.5)  # let the last stream event and transitions settle
    if errors:
        raise PictureError(f"a phone page failed: {errors[0]}")
    return [Image.open(io.BytesIO(phone.screenshot())).convert("RGB") for phone in phones]


def side_by_side(screens: list[Image.Image], gap: int = 40, border: int = 30) -> Image.Image:
    """The phone ``screens`` next to each other on :data:`BACKDROP`, ``gap`` px apart with a
    ``border`` around, corners rounded like a phone's, about :data:`WIDTH` px across."""
    width = (WIDTH - 2 * border - gap * (len(screens) - 1)) // len(screens)
    shrunk = [scaled(screen, width) for screen in screens]
    height = max(screen.height for screen in shrunk)
    total = 2 * border + len(shrunk) * width + gap * (len(shrunk) - 1)
    picture = Image.new("RGB", (total, height + 2 * border), BACKDROP)
    for i, screen in enumerate(shrunk):
        corners = Image.new("L", screen.size, 0)
        ImageDraw.Draw(corners).rounded_rectangle((0, 0, *screen.size), radius=28, fill=255)
        picture.paste(screen, (border + i * (width + gap), border), corners)
    return picture


def require_browser() -> None:
    """Raise :class:`PictureError`, saying what to install, where Playwright or chromium is
    missing."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        raise PictureError("Playwright is missing: pip install playwright") from None
    if not Path(CHROMIUM).exists():
        raise PictureError(
            f"chromium not found at {CHROMIUM}: apt-get install chromium "
            "(or set TABLESMITH_CHROMIUM)"
        )


def table_phones(work: Path) -> Image.Image:
    """Two phones, English and German, at one Asteroids table in progress on a real
    ``tablesmith serve`` (its database in ``work``)."""
    require_browser()
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    with serving(work) as base, sync_playwright() as driver:
        try:
            browser = driver.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
            )
        except PlaywrightError as error:
            raise PictureError(f"chromium did not start: {first_line(error)}") from None
        try:
            screens = play(browser, base)
        except PlaywrightError as error:
            raise PictureError(f"the phones could not play: {first_line(error)}") from None
        finally:
            browser.close()
    return side_by_side(screens)


def first_line(error: BaseException) -> str:
    """The first line of ``error``'s message."""
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


PICTURES: dict[str, tuple[str, Callable[[Path], Image.Image], bool]] = {
    "kit-plate.png": ("tablesmith build asteroids", kit_plate, False),
    "card-sheet.png": ("tablesmith cards demo:pocketmodel", card_sheet, False),
    "table-phones.png": ("tablesmith serve, two phones", table_phones, True),
}
"""Each picture's file name, the command it shows, the function that makes it, and whether it
is saved in 256 colours (:func:`save`: the shaded plates and the cards' gradients would band;
the phones' flat colours do not)."""


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path(__file__).resolve().parent / "images",
    show_default=False,
    help="Folder to write the PNGs into [default: docs/images, beside this script].",
)
def main(out: Path) -> None:
    """Make the documentation's pictures (kit plate, card sheet, two phones at a table) from
    real outputs of the installed tablesmith."""
    started = time.monotonic()
    try:
        require_browser()  # before the first picture, not after two
    except PictureError as error:
        raise click.ClickException(f"table-phones.png: {error}") from None
    with tempfile.TemporaryDirectory(prefix="tablesmith-pictures-") as folder:
        for name, (what, make, palette) in PICTURES.items():
            begun = time.monotonic()
            work = Path(folder) / name.removesuffix(".png")
            work.mkdir()
            try:
                image = make(work)
            except PictureError as error:
                raise click.ClickException(f"{name}: {error}") from None
            weight = save(image, out / name, palette)
            click.echo(f"{out / name}: {weight} ({what}, {time.monotonic() - begun:.1f} s)")
    click.echo(f"{len(PICTURES)} pictures in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
