"""Phones in a real browser for the browser tests: Debian's chromium through Playwright at a
phone viewport (:data:`PHONE`), and the steps every game's browser test starts with."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

CHROMIUM = os.environ.get("TABLESMITH_CHROMIUM", "/usr/bin/chromium")
"""The browser the tests drive (Debian package chromium; .ci/run installs it)."""
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "en-GB",
}
"""A phone's browser context: 390 x 844 CSS px, touch, English (pass locale="de-DE" for German)."""


def launch(extra_args: Sequence[str] = ()) -> Iterator[Any]:
    """A headless chromium for one test (a generator for a fixture); skips, saying why, where
    Playwright or chromium is missing."""
    playwright = pytest.importorskip("playwright.sync_api", reason="Playwright (the test extra)")
    if not Path(CHROMIUM).exists():
        pytest.skip(
            f"chromium not found at {CHROMIUM} (Debian package chromium; .ci/run installs it)"
        )
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=CHROMIUM, args=[*ARGS, *extra_args], headless=True
        )
        yield browser
        browser.close()


SHOTS = os.environ.get("TABLESMITH_SHOTS")
"""A folder to keep the screenshots in (else they go to the test's tmp_path)."""


def shots_folder(tmp_path: Path) -> Path:
    """Where a test's screenshots go: ``$TABLESMITH_SHOTS`` or ``tmp_path`` (created)."""
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shot(page: Any, folder: Path, name: str) -> None:
    """A full-page screenshot ``folder/name.png``."""
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def two_phones(
    browser: Any, base: str, game: str, locale: str = "en-GB", base_b: str | None = None
) -> tuple[Any, Any]:
    """Phone A starts a ``game`` table on the start page at ``base``, phone B opens the join
    link (at ``base_b`` instead where given: another way to the same server) and takes seat B;
    both pages are returned (A first)."""
    context = {**PHONE, "locale": locale}
    phone_a = browser.new_context(**context).new_page()
    phone_b = browser.new_context(**context).new_page()
    phone_a.goto(base + "/")
    phone_a.click(f"#new-table-{game}")
    join = phone_a.locator("#join-link").get_attribute("href")
    if base_b is not None:
        join = base_b + urlsplit(join).path
    phone_b.goto(join)
    phone_b.click("#take-seat")
    return phone_a, phone_b


def count_is(page: Any, piece: str, text: str) -> None:
    """Wait (3 s at most) until the counter of unit or character ``piece`` reads ``text``
    ("counters/limit")."""
    page.wait_for_function(
        f"(document.getElementById('count-{piece}') || {{}}).textContent === '{text}'",
        timeout=3000,
    )


def bring_offered_decks(phone_a: Any, phone_b: Any, section: str) -> tuple[str, str]:
    """Both phones bring the demo deck their picker offers first (seat B's is the side
    opposing seat A's) and wait until both teams or fleets are on the table; ``section`` is
    the game's deck section (``pm-fleets``, ``tf-teams``). Returns the two demo names."""
    chosen = []
    for phone in (phone_a, phone_b):
        phone.wait_for_selector(f"#{section}:not([hidden]) #deck-bring")
        chosen.append(phone.eval_on_selector("#deck-demo", "s => s.value"))
        phone.click("#deck-bring")
    piece = "unit" if section == "pm-fleets" else "char"
    for phone in (phone_a, phone_b):
        phone.wait_for_selector(f"#{piece}-A1")
        phone.wait_for_selector(f"#{piece}-B1")
    return chosen[0], chosen[1]


def demo_decks_table(
    browser: Any,
    base: str,
    game: str,
    *,
    opener: str,
    decks: str,
    waiting: str,
    pieces: Sequence[str],
    base_b: str | None = None,
) -> tuple[Any, Any]:
    """Two phones at a ``game`` table (:func:`two_phones`): A taps ``opener``, both wait for
    the ``decks`` panel, each brings the shipped demo deck (A first, then waits for
    ``waiting``), and both boards show the ``pieces`` (selectors)."""
    phone_a, phone_b = two_phones(browser, base, game, base_b=base_b)
    phone_a.wait_for_selector(opener)
    phone_a.click(opener)
    for phone in (phone_a, phone_b):
        phone.wait_for_selector(decks)
    phone_a.click("#deck-bring")
    phone_a.wait_for_selector(waiting)
    phone_b.click("#deck-bring")
    for phone in (phone_a, phone_b):
        for piece in pieces:
            phone.wait_for_selector(piece)
    return phone_a, phone_b


def pocketmodel_table(browser: Any, base: str, base_b: str | None = None) -> tuple[Any, Any]:
    """Two phones at a PocketModel table, each with the shipped demo fleet brought
    (:func:`demo_decks_table`), both boards drawn with the units A1 and B1 at home."""
    return demo_decks_table(
        browser,
        base,
        "pocketmodel",
        opener="#pm-open",
        decks="#pm-fleets:not([hidden]) #deck-bring",
        waiting="#pm-fleet-wait:not([hidden])",
        pieces=["#zone-home_A #unit-A1", "#zone-home_B #unit-B1"],
        base_b=base_b,
    )


SOCKET_ROUTE = re.compile(r".*/api/t/[^/]+/socket$")
"""A table page's socket (companion/static/socket.js)."""


def socket_writes(page: Any) -> list[Callable[[str, str], None]]:
    """The listeners of the writes ``page`` sends on its table's socket: each is called with
    the write's route name and its body (JSON text). The first call relays the page's sockets
    through Playwright (a pass-through route, installed before the page opens its socket) so
    that their messages can be seen; later calls give the same list."""
    listeners: list[Callable[[str, str], None]] | None = getattr(page, "socket_listeners", None)
    if listeners is not None:
        return listeners
    found: list[Callable[[str, str], None]] = []
    page.socket_listeners = found

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            try:
                parsed = json.loads(message)
            except ValueError:
                parsed = None
            if isinstance(parsed, dict) and "post" in parsed:
                for listener in list(found):
                    listener(parsed["post"], json.dumps(parsed.get("body")))
            server.send(message)

        ws.on_message(to_server)

    page.route_web_socket(SOCKET_ROUTE, route)
    return found


class Link:
    """A phone's network path to the server that can be cut: a TCP relay on a loopback port in
    front of the server at ``target`` ("http://host:port"). :meth:`drop` cuts every open
    connection; until :meth:`restore` a new one is either closed at once (a server that is
    down) or, with ``hold=True``, accepted and never answered, not even after the restore (a
    lost Wi-Fi: the request just hangs). The page's ``navigator.onLine`` stays true, as it does
    on a phone whose Wi-Fi is up but cannot reach the table's server.

    With ``sockets=False`` it is a proxy that lets no WebSocket through: a connection whose
    first request asks for an upgrade is closed at once.

    Use as a context manager; ``url`` is the base address through the relay.
    """

    def __init__(self, target: str, *, sockets: bool = True) -> None:
        self.sockets = sockets
        parts = urlsplit(target)
        self.upstream = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.dropped = False
        self.hold = False
        self.held: list[socket.socket] = []
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        self.closed = False
        self.listener.settimeout(0.2)  # the accept loop sees ``closed`` soon after the exit
        self.acceptor = threading.Thread(target=self._accept, daemon=True)
        self.acceptor.start()

    def __enter__(self) -> Link:
        return self

    def __exit__(self, *exc: object) -> None:
        with self.lock:
            self.closed = True
        self.acceptor.join(timeout=5)
        self.listener.close()
        self._cut()
        with self.lock:
            held, self.held = self.held, []
        for sock in held:
            sock.close()

    def drop(self, hold: bool = False) -> None:
        """Cut every open connection; until :meth:`restore` close new ones at once, or hold
        them unanswered (``hold``)."""
        self.hold = hold
        self.dropped = True
        self._cut()

    def restore(self) -> None:
        """Let connections through again."""
        self.dropped = False

    def _cut(self) -> None:
        with self.lock:
            sockets, self.open = list(self.open), set()
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def _accept(self) -> None:
        # every socket made here is registered under the lock unless the relay is closed, when
        # it is closed at once: none outlives the ``with`` block (an unclosed socket is a
        # ResourceWarning, an error in this suite, in whatever test runs next)
        while not self.closed:
            try:
                phone, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            phone.settimeout(None)
            if self.sockets:
                if not self._relay(phone):
                    return
            else:  # the request's head is peeked at in a thread of its own
                threading.Thread(target=self._relay, args=(phone,), daemon=True).start()

    def _relay(self, phone: socket.socket) -> bool:
        """Relay one accepted connection to the server (or close or hold it as the link is
        now); False once the relay is closed."""
        if not self.sockets and self._upgrade(phone):
            phone.close()
            return True
        if self.dropped:
            if self.hold:
                with self.lock:
                    if not self.closed:
                        self.held.append(phone)
                        return True
            phone.close()
            return True
        try:
            server = socket.create_connection(self.upstream, timeout=5)
        except OSError:
            phone.close()
            return True
        server.settimeout(None)
        with self.lock:
            if self.closed:
                phone.close()
                server.close()
                return False
            self.open.update((phone, server))
        for a, b in ((phone, server), (server, phone)):
            threading.Thread(target=self._pump, args=(a, b), daemon=True).start()
        return True

    @staticmethod
    def _upgrade(phone: socket.socket) -> bool:
        """True when the connection's first request asks for a WebSocket (its head peeked at,
        not read)."""
        phone.settimeout(2)
        try:
            head = phone.recv(4096, socket.MSG_PEEK)
        except OSError:
            head = b""
        phone.settimeout(None)
        return b"upgrade: websocket" in head.lower()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for sock in (source, sink):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
