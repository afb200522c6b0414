"""Make the pictures of the documentation from real outputs of the installed ``tablesmith``.

    python docs/pictures.py [--out docs/images] [--only door-cards.png ...]

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
    screens are put side by side.
``door-start.png``
    ``tablesmith serve``'s start page on an English phone: the doors Print the pieces, Print
    the cards and Play.
``door-pieces.png``
    The pieces door at a desktop (1280 x 900, English, WebGL on chromium's software renderer):
    the form sent with scale 0.8 for a Prusa MINI, the kit built by the server's worker (in a
    kit cache of its own, ``TABLESMITH_CACHE``), then its job page down to the first plate
    previews, the 3D view showing a ship.
``door-cards.png``
    The cards door in German: a phone chooses a deck file with two mistakes and checks it (the
    problems by line and field), beside a small desktop (1024 x 768) whose job page shows the
    first pages of a demo deck's card sheets.

Each ``tablesmith serve`` is stopped whatever happens. The PNGs are committed, so they are
scaled down to about 1200 px across (one phone: 480) and optimised (the screenshots also
reduced to 256 colours). Needs Playwright and chromium (``apt-get install chromium``; another
chromium by ``TABLESMITH_CHROMIUM``). Chromium's own file button reads "Choose File" on a
German page unless its translations (Debian package chromium-l10n) are installed.
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
DESK: dict[str, Any] = {"viewport": {"width": 1280, "height": 900}}
"""A desktop's browser context (the locale is added per page)."""
LAPTOP: dict[str, Any] = {"viewport": {"width": 1024, "height": 768}}
"""A small desktop's: beside a phone in one picture, its words stay readable."""
WEBGL = "--enable-unsafe-swiftshader"
"""The flag that gives headless chromium WebGL (on its software renderer) for the 3D view."""
VIEWED = "part:ship"
"""What the kit's 3D view shows in the picture (a choice of its menu)."""
MISTAKES = """\
game: pocketmodel
deck: my-fleet
title: My fleet
cards:
  - {kind: unit, name: Halo Frigate, stars: 5, attack: 4, damage: 3, defense: 11, shields: 6, icons: Carrier Leader}
  - {kind: unit, name: Drift Runner, stars: 9, attack: 3, damage: 2, defense: 8, shields: 2, icons: Laser}
  - {kind: unit, name: Spark Drone, stars: 2, attack: 1, damage: 1, defense: 7, shields: 1, icons: Droidd}
"""  # noqa: E501
"""The deck file the cards door checks: a unit of 9 stars (at most 5) and a mistyped icon."""
WIDTH = 1200
"""About how wide each picture is, in pixels."""
PHONE_WIDTH = 480
"""How wide the picture of one phone is, in pixels."""
BACKDROP = (226, 228, 233)
"""The colour around and between the two phones."""
START_SECONDS = 30.0
"""How long ``tablesmith serve`` may take to answer."""
STEP_MS = 10_000
"""How long a page waits for any one thing on it, in milliseconds."""
BUILD_MS = 600_000
"""How long a job page waits for the kit or the card sheets, in milliseconds."""


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
    """``tablesmith serve`` on a free port of 127.0.0.1 only, with a database and a kit cache
    (``TABLESMITH_CACHE``) in ``work``: yields its base URL once it answers and stops it on the
    way out, whatever happens."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = work / "serve.log"
    options = ["--host", "127.0.0.1", "--port", str(port), "--base-url", base]
    options += ["--db", str(work / "companion.sqlite"), "--no-mdns", "--no-qr"]
    cache = {"TABLESMITH_CACHE": str(work / "kit-cache")}  # not the user's cache
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "tablesmith", "serve", *options],
            cwd=work,
            env={**os.environ, **cache},
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


def open_page(browser: Any, errors: list[str], locale: str, **context: Any) -> Any:
    """A page in a new browser context of its own (``context``: :data:`PHONE`, :data:`DESK`
    or :data:`LAPTOP`) reading ``locale``, waiting at most :data:`STEP_MS` for anything; a
    script error on it is added to ``errors``."""
    page = browser.new_context(**context, locale=locale).new_page()
    page.set_default_timeout(STEP_MS)
    page.on("pageerror", lambda error: errors.append(f"{locale}: {error}"))
    return page


def screen(page: Any, below: str | None = None) -> Image.Image:
    """A screenshot of ``page``: what its window shows, or where ``below`` names an element,
    the page from its top down to that element's bottom edge (and 8 CSS px more)."""
    if below is None:
        return Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    bottom = page.eval_on_selector(
        below, "e => e.getBoundingClientRect().bottom + window.scrollY + 8"
    )
    page.evaluate("window.scrollTo(0, 0)")
    width = page.viewport_size["width"]
    clip = {"x": 0, "y": 0, "width": width, "height": bottom}
    return Image.open(io.BytesIO(page.screenshot(full_page=True, clip=clip))).convert("RGB")


def loaded(page: Any, images: str, count: int) -> None:
    """Wait until the first ``count`` images matching ``images`` have been drawn (they load
    lazily: each is scrolled to first)."""
    for i in range(count):
        page.locator(images).nth(i).scroll_into_view_if_needed()
    page.wait_for_function(
        "([images, count]) => { const found = [...document.querySelectorAll(images)];"
        " return found.length >= count && found.slice(0, count)"
        ".every(i => i.complete && i.naturalWidth > 0); }",
        arg=[images, count],
    )


def finished(page: Any, what: str) -> None:
    """Wait until the job ``page`` has just sent (its form) has ended, at most
    :data:`BUILD_MS`; unless it is done, raise :class:`PictureError` with the page's one line
    (the form's message where the job was refused, the job's error where it failed)."""
    ended = ", ".join(
        f"#job-status[data-state={state}]" for state in ("done", "failed", "cancelled", "gone")
    )
    page.wait_for_selector(f"{ended}, #form-error, #deck-problems", timeout=BUILD_MS)
    if page.locator("#job-status[data-state=done]").count():
        return
    shown = page.locator("#form-error:visible, #deck-problems:visible, #job-status, #job-error")
    said = " ".join(" ".join(text.split()) for text in shown.all_inner_texts() if text.strip())
    raise PictureError(f"{what} were not made: {said}")


def whose_turn(phones: list[Any]) -> Any:
    """The phone whose player moves first: the one that offers a ship of the home base (the
    drawn board alone does not say yet whose turn it is), waited for up to :data:`STEP_MS`."""
    deadline = time.monotonic() + STEP_MS / 1000
    while time.monotonic() < deadline:
        for phone in phones:
            if phone.locator(".base.origin").count():
                return phone
        time.sleep(0.1)
    raise PictureError("neither phone offers a ship to move")


def step(phone: Any, origin: str) -> None:
    """One step on ``phone``: tap the first ship matching ``origin``, then the first target it
    is offered: a spot in a rift where there is one, else a base or the way off the rift's
    end. Waits for the table's answer (its revision on the page changes)."""
    revision = "document.getElementById('app').dataset.revision"
    before = phone.evaluate(revision)
    phone.locator(origin).first.click()
    phone.wait_for_selector(".target")
    targets = phone.locator(".cell.target")
    (targets if targets.count() else phone.locator(".target")).first.click()
    phone.wait_for_function(f"{revision} !== {before!r}")


def play(browser: Any, base: str, errors: list[str]) -> list[Image.Image]:
    """Two phones at one Asteroids table at ``base``, as two players meet it: phone 1 opens a
    table on the start page, phone 2 opens the join link phone 1 shows (its QR code) and takes
    the seat, phone 1 draws a random set-up, the player whose turn it is moves a ship twice and
    pushes a row of asteroids, and the other player moves a ship out of the home base. Returns
    the two screens (phone 1 first)."""
    phones = [open_page(browser, errors, locale, **PHONE) for locale in LOCALES]
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
    mover = whose_turn(phones)
    other = second if mover is first else first

    step(mover, ".base.origin")  # step 1: a ship out of the home base
    step(mover, ".cell.origin, .base.origin")  # step 2: the same ship again where it can
    mover.wait_for_selector(".edge.push")
    mover.locator(".edge.push").first.click()  # the unstable rift pushes a row of asteroids
    other.wait_for_selector(".base.origin")  # the other player's turn has come
    step(other, ".base.origin")  # the other player's first step
    latest = other.evaluate("document.getElementById('app').dataset.revision")
    for phone in phones:  # both phones show the table as it is now
        phone.wait_for_function(f"document.getElementById('app').dataset.revision === {latest!r}")
        phone.locator("#toast").wait_for(state="hidden")  # no message over the board
    time.sleep(0.5)  # let the last stream event and transitions settle
    return [screen(phone) for phone in phones]


def start_page(browser: Any, base: str, errors: list[str]) -> list[Image.Image]:
    """The start page at ``base`` on an English phone: its three doors, Print the pieces,
    Print the cards and Play, above the form that opens a table."""
    phone = open_page(browser, errors, "en-GB", **PHONE)
    phone.goto(base + "/")
    for door in ("pieces", "cards", "play"):
        phone.wait_for_selector(f"#door-{door}")
    return [screen(phone)]


def pieces_job(browser: Any, base: str, errors: list[str]) -> list[Image.Image]:
    """The pieces door at ``base`` on an English desktop: the form filled in (scale 0.8, the
    Prusa MINI's bed) and sent; once the kit is made, its job page from the top down to the
    first row of plate previews, the 3D view showing a ship."""
    desk = open_page(browser, errors, "en-GB", **DESK)
    desk.goto(base + "/pieces")
    desk.fill("#f-scale", "0.8")
    desk.fill("#f-printer", "mini")
    desk.click("#make-kit")
    finished(desk, "the kit")
    desk.wait_for_selector("#viewer[data-shown] #viewer-stage canvas", timeout=BUILD_MS)
    desk.select_option("#viewer-pick", VIEWED)
    desk.wait_for_selector(f'#viewer[data-shown="{VIEWED}"]', timeout=BUILD_MS)
    loaded(desk, "#plates img", 2)
    return [screen(desk, below="#plates figure")]


def cards_pages(browser: Any, base: str, errors: list[str]) -> list[Image.Image]:
    """The cards door at ``base`` in German, twice: a phone chooses a deck file with two
    mistakes (:data:`MISTAKES`) and checks it, the problems listed by line and field; a desktop
    makes the card sheets of the first demo deck, its job page from the top down to the first
    row of page previews. Returns the phone's screen first. The desktop goes first: both are
    one client to the shop, which takes 2 jobs of a client at a time, and the phone's form
    starts previews of its own."""
    desk = open_page(browser, errors, "de-DE", **LAPTOP)
    desk.goto(base + "/cards")
    desk.click("#make-cards")
    finished(desk, "the card sheets")
    loaded(desk, "#pages img", 2)
    made = screen(desk, below="#pages figure")
    phone = open_page(browser, errors, "de-DE", **PHONE)
    phone.goto(base + "/cards")
    deck = {"name": "my-fleet.yaml", "mimeType": "text/yaml", "buffer": MISTAKES.encode()}
    phone.set_input_files("#f-file", deck)  # as if chosen among the phone's files
    phone.wait_for_function("document.getElementById('f-text').value.includes('stars: 9')")
    phone.click("#check-deck")
    phone.wait_for_selector("#deck-problems")
    return [screen(phone), made]


def side_by_side(
    screens: list[Image.Image], width: int = WIDTH, gap: int = 40, border: int = 30
) -> Image.Image:
    """The ``screens`` next to each other on :data:`BACKDROP`, all as tall, ``gap`` px apart
    with a ``border`` around, corners rounded like a phone's, ``width`` px across (give or
    take a pixel)."""
    room = width - 2 * border - gap * (len(screens) - 1)
    height = round(room / sum(screen.width / screen.height for screen in screens))
    shrunk = [scaled(screen, round(height * screen.width / screen.height)) for screen in screens]
    total = 2 * border + sum(screen.width for screen in shrunk) + gap * (len(shrunk) - 1)
    picture = Image.new("RGB", (total, height + 2 * border), BACKDROP)
    left = border
    for screen in shrunk:
        corners = Image.new("L", screen.size, 0)
        ImageDraw.Draw(corners).rounded_rectangle((0, 0, *screen.size), radius=28, fill=255)
        picture.paste(screen, (left, border), corners)
        left += screen.width + gap
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


def in_browser(
    work: Path, steps: Callable[[Any, str, list[str]], list[Image.Image]], *flags: str
) -> list[Image.Image]:
    """The screens ``steps(browser, base, errors)`` takes in a headless chromium (started
    with ``flags`` besides :data:`CHROMIUM_ARGS`) on a real ``tablesmith serve`` at ``base``
    (:func:`serving`, its files in ``work``). A failed step, or a script error on any page
    (``errors``), raises :class:`PictureError`; the browser and the server are stopped
    whatever happens."""
    require_browser()
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    with serving(work) as base, sync_playwright() as driver:
        try:
            browser = driver.chromium.launch(
                executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *flags], headless=True
            )
        except PlaywrightError as error:
            raise PictureError(f"chromium did not start: {first_line(error)}") from None
        try:
            screens = steps(browser, base, errors)
        except PlaywrightError as error:
            waited = [line.strip(" -") for line in str(error).splitlines() if "waiting for" in line]
            where = f" ({waited[0]})" if waited else ""
            raise PictureError(
                f"a step in the browser failed: {first_line(error)}{where}"
            ) from None
        finally:
            browser.close()
    if errors:
        raise PictureError(f"a page failed: {errors[0]}")
    return screens


def table_phones(work: Path) -> Image.Image:
    """Two phones, English and German, at one Asteroids table in progress (:func:`play`)."""
    return side_by_side(in_browser(work, play))


def door_start(work: Path) -> Image.Image:
    """The start page and its three doors on a phone (:func:`start_page`)."""
    return side_by_side(in_browser(work, start_page), width=PHONE_WIDTH)


def door_pieces(work: Path) -> Image.Image:
    """A finished kit's job page at a desktop, with its 3D view (:func:`pieces_job`)."""
    (page,) = in_browser(work, pieces_job, WEBGL)
    return scaled(page, WIDTH)


def door_cards(work: Path) -> Image.Image:
    """A deck's problems on a phone beside a finished card job at a desktop
    (:func:`cards_pages`)."""
    return side_by_side(in_browser(work, cards_pages))


def first_line(error: BaseException) -> str:
    """The first line of ``error``'s message."""
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


PICTURES: dict[str, tuple[str, Callable[[Path], Image.Image], bool]] = {
    "kit-plate.png": ("tablesmith build asteroids", kit_plate, False),
    "card-sheet.png": ("tablesmith cards demo:pocketmodel", card_sheet, False),
    "table-phones.png": ("tablesmith serve, two phones", table_phones, True),
    "door-start.png": ("tablesmith serve, the start page", door_start, True),
    "door-pieces.png": ("tablesmith serve, a kit made in the print shop", door_pieces, True),
    "door-cards.png": ("tablesmith serve, a deck checked, card sheets made", door_cards, True),
}
"""Each picture's file name, the command it shows, the function that makes it, and whether it
is saved in 256 colours (:func:`save`: the shaded plates and the cards' gradients would band;
the pages' flat colours do not, nor the small previews and the flat-shaded 3D view on them)."""


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path(__file__).resolve().parent / "images",
    show_default=False,
    help="Folder to write the PNGs into [default: docs/images, beside this script].",
)
@click.option(
    "--only",
    multiple=True,
    type=click.Choice(list(PICTURES)),
    help="Make only this picture (repeat for more) [default: all].",
)
def main(out: Path, only: tuple[str, ...]) -> None:
    """Make the documentation's pictures (kit plate, card sheet, two phones at a table, the
    print shop's three doors) from real outputs of the installed tablesmith."""
    started = time.monotonic()
    chosen = {name: PICTURES[name] for name in PICTURES if not only or name in only}
    try:
        require_browser()  # before the first picture, not after two
    except PictureError as error:
        raise click.ClickException(str(error)) from None
    with tempfile.TemporaryDirectory(prefix="tablesmith-pictures-") as folder:
        for name, (what, make, palette) in chosen.items():
            begun = time.monotonic()
            work = Path(folder) / name.removesuffix(".png")
            work.mkdir()
            try:
                image = make(work)
            except PictureError as error:
                raise click.ClickException(f"{name}: {error}") from None
            weight = save(image, out / name, palette)
            click.echo(f"{out / name}: {weight} ({what}, {time.monotonic() - begun:.1f} s)")
    pictures = "1 picture" if len(chosen) == 1 else f"{len(chosen)} pictures"
    click.echo(f"{pictures} in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
