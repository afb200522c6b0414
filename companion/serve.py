"""``tablesmith serve``: start the companion and run it until Ctrl+C or SIGTERM.

:func:`run` does everything after the options are parsed: it checks them, builds the hub and
the app (store included), chooses the server (uvicorn, :mod:`companion.evented`, or waitress,
:mod:`companion.server`), prints the address (and its QR code), announces
``tablesmith.local`` (mDNS, :mod:`companion.mdns`), tunes the garbage collector, serves, and
closes it all in order at the end. A user error (a bad option, a database or hub that cannot be
used, a port that is taken) is raised as :class:`ServeError`, a one-line message that starts
with the option to blame; the command line prints it without a traceback.
"""

from __future__ import annotations

import errno
import ipaddress
import signal
import socket
import sqlite3
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import click
import segno
from flask import Flask

from companion import create_app, default_database
from companion.durations import describe_duration, parse_duration
from companion.evented import create_evented_server, tune_gc
from companion.hub.base import HubUnavailable
from companion.hub.factory import make_hub
from companion.mdns import MdnsUnavailable, announce
from companion.proxy import parse_trusted_proxies
from companion.server import bound_port, connection_limit, create_server, max_streams
from companion.store.base import StorageUnavailable, StoreError
from companion.store.factory import POSTGRES_SCHEMES
from companion.tables.service import EXTENSION
from companion.urls import redact_url

STOPPED = "Tablesmith companion stopped; every confirmed action is on disk."


class ServeError(ValueError):
    """A user error at start-up: one line, starting with the option to blame (``--db: ...``)."""


@dataclass(frozen=True, kw_only=True)
class ServeOptions:
    """The options of ``tablesmith serve`` (their help texts are in ``tablesmith.py``).

    Attributes:
        host: address to listen on.
        port: TCP port (0: any free one).
        database: SQLite file path or ``postgresql://`` URL; None: :func:`default_database`.
        pubsub: ``"local"`` or a ``redis://`` URL.
        base_url: the URL phones use, or None (the LAN address and the port).
        threads: worker threads, or None (16; waitress 256).
        server: ``"uvicorn"`` or ``"waitress"``.
        fsync: flush every action to the disk before answering.
        qr: print the address as a QR code in the terminal.
        mdns: announce ``tablesmith.local`` on the LAN.
        card_qr_base: the companion address printed cards link to by default (the card
            printer's; the companion does not import it), named when it cannot reach us.
        retention: how long a table is kept after its last action, as typed (``30d``,
            ``12h``, ``90m``, ``45s``; ``0`` keeps every table):
            :mod:`companion.tables.retention`.
        trusted_proxy: ``ADDR[,ADDR]``: the reverse proxies whose X-Forwarded-For/-Proto are
            believed (:mod:`companion.proxy`), or None (the peer is the client).
        extensions: given to :func:`companion.create_app` (the print shop's pages).
    """

    host: str = "0.0.0.0"
    port: int = 8765
    database: str | None = None
    pubsub: str = "local"
    base_url: str | None = None
    threads: int | None = None
    server: str = "uvicorn"
    fsync: bool = True
    qr: bool = True
    mdns: bool = True
    card_qr_base: str = ""
    retention: str = "30d"
    trusted_proxy: str | None = None
    extensions: tuple[Callable[[Flask], None], ...] = ()


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), else 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))  # UDP connect only picks a route
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def is_loopback(host: str) -> bool:
    """True for an address or name only this computer reaches (127.x, ::1, localhost)."""
    if host.strip("[]").lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def phone_address(host: str) -> tuple[str, str | None]:
    """The address phones should open for a server listening on ``host``, and why no phone can
    reach it (None when one can).

    Listening on every network (``0.0.0.0``, ``::``) the LAN address is named; without one
    (no network) phones cannot reach this computer. A loopback ``--host`` (``127.0.0.1``,
    ``localhost``) serves this computer only: its address is for a browser here, never for a
    phone. Any other host is an address of this computer the user chose.
    """
    if host in ("0.0.0.0", "::", ""):
        address = lan_address()
        if is_loopback(address):
            return address, (
                "this computer has no network address; connect it to the Wi-Fi the phones "
                "use (or give --base-url the address they reach it at)"
            )
        return address, None
    if is_loopback(host):
        return host, (
            f"--host {host} listens on this computer only; leave --host out (0.0.0.0, every "
            "network) so that phones in your network reach it"
        )
    return host, None


QR_DARK = "\033[38;5;16m"
"""ANSI 256-colour foreground: pure black (the QR code's dark modules)."""
QR_LIGHT = "\033[48;5;231m"
"""ANSI 256-colour background: pure white (the light modules and the quiet zone)."""


def terminal_qr(text: str, out: Any) -> None:
    """Write ``text`` as a QR code to a terminal, black on white whatever the terminal's
    theme: two modules per character (half blocks) in explicit 256-colour ANSI colours, with
    the 4-module quiet zone, each line reset at its end.

    segno's own compact output draws the light modules in the terminal's text colour, so on a
    light terminal the code comes out inverted (light on dark) and most phone cameras do not
    read it.

    Args:
        text: what the code holds (the address).
        out: a text stream (``sys.stdout``).
    """
    code = segno.make(text, error="m")
    rows = [list(row) for row in code.matrix_iter(scale=1, border=4)]
    rows.append([0] * len(rows[0]))  # an odd last row: its lower half is light
    blocks = {(1, 1): "\u2588", (1, 0): "\u2580", (0, 1): "\u2584", (0, 0): " "}
    for top, bottom in zip(rows[0::2], rows[1::2]):
        line = "".join(blocks[(a, b)] for a, b in zip(top, bottom))
        out.write(f"{QR_DARK}{QR_LIGHT}{line}\033[0m\n")
    out.flush()


def check_base_url(text: str) -> str:
    """Check ``--base-url``: http(s), a host, no query or fragment; one trailing slash dropped.

    Raises:
        ServeError: the URL is unusable, or too long for a QR code.
    """
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise ServeError("--base-url: must not contain spaces or control characters")
    try:
        parts = urlsplit(text)
        _ = parts.port  # raises ValueError for a bad port
    except ValueError as exc:
        raise ServeError(f"--base-url: not a valid URL ({exc})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ServeError(
            f"--base-url: must be http://HOST[:PORT][/PATH] or https://..., got {text[:60]!r}"
        )
    if parts.query or parts.fragment or text.endswith(("?", "#")):
        raise ServeError("--base-url: must not have a query (?...) or a fragment (#...)")
    url = text[:-1] if text.endswith("/") else text
    try:  # the longest link the pages put in a QR code: /j/<32-character join token>
        segno.make(url + "/j/" + "x" * 32, error="m")
    except segno.DataOverflowError:
        raise ServeError(f"--base-url: too long for a QR code ({len(url)} characters)") from None
    return url


def _database(database: str | None) -> str | Path:
    """The ``--db`` value checked: a PostgreSQL URL as it is, else the SQLite file's path.

    Raises:
        ServeError: empty, a folder, or not a regular file.
    """
    if database is not None and not database.strip():
        raise ServeError("--db: must be a file path or a postgresql:// URL, got an empty string")
    if database is not None and database.strip().lower().startswith(POSTGRES_SCHEMES):
        return database.strip()
    path = Path(database) if database is not None else default_database()
    if path.is_dir():
        raise ServeError(f"--db: {path} is a folder; give a file path")
    if path.exists() and not path.is_file():
        raise ServeError(f"--db: {path} is not a regular file")
    return path


def _open_error(option: str, exc: BaseException, value: object) -> ServeError:
    """A one-line error naming the option for an OS or database error at startup."""
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return ServeError(f"{option}: cannot use {value}: {reason}")


def _listen_error(exc: OSError, host: str, port: int) -> ServeError:
    if exc.errno == errno.EADDRINUSE:
        return ServeError(f"--port: port {port} is already in use on {host}")
    if exc.errno == errno.EACCES:
        return ServeError(f"--port: no permission to listen on port {port}")
    return ServeError(f"--host: cannot listen on {host}: {exc.strerror or exc}")


def _announce(host: str, port: int, base_url: str, card_qr_base: str, announced: list[Any]) -> None:
    """Announce ``tablesmith.local`` (background thread of ``serve``) and say how it went."""
    try:
        announcement = announce(lan_address(), port, host)
    except MdnsUnavailable as exc:
        click.echo(
            f"note: cannot announce tablesmith.local on the LAN: {exc}. Cards printed with the "
            "default QR address will not open this server; print them with "
            f"--qr-base {base_url}",
            err=True,
        )
        return
    announced.append(announcement)
    message = f"Announced on the LAN as {announcement.url}/ (mDNS)."
    if announcement.url != card_qr_base:
        message += (
            f" Cards printed with the default QR address use {card_qr_base}: serve on "
            f"--port 8765 or print them with --qr-base {announcement.url}."
        )
    click.echo(message, err=True)


def _tell_start(
    options: ServeOptions,
    base_url: str,
    unreachable: str | None,
    location: str,
    retention: float,
    proxies: Any,
) -> None:
    """Tell where the phones open the companion (and its QR code), where the tables are kept
    and for how long, and which hub and proxies it listens to."""
    pubsub = options.pubsub
    if unreachable is None:
        click.echo(f"Tablesmith companion: open {base_url}/ on a phone in the same network.")
    else:
        click.echo(
            f"Tablesmith companion: open {base_url}/ in a browser on this computer. "
            f"No phone can reach it: {unreachable}."
        )
    kept = f"removed after {describe_duration(retention)} without play"
    kept = kept if retention else "never removed"
    click.echo(f"Database: {location} (tables are {kept})")
    if pubsub != "local":
        click.echo(f"Live updates between processes: {redact_url(pubsub)}")
    if proxies:
        trusted = ", ".join(proxies.entries)
        click.echo(f"Phone addresses and https: from X-Forwarded-For/-Proto of {trusted}")
    if options.qr and unreachable is None:  # a code no phone can follow helps nobody
        terminal_qr(base_url + "/", sys.stdout)
    click.echo("Press Ctrl+C to stop.", err=True)


def run(options: ServeOptions) -> None:
    """Serve the companion until Ctrl+C or SIGTERM (see the module docstring).

    Raises:
        ServeError: an option cannot be used (the message names it).
    """
    base_url = None if options.base_url is None else check_base_url(options.base_url)
    db_value = _database(options.database)
    host, port, pubsub = options.host, options.port, options.pubsub
    if not host.strip():
        raise ServeError("--host: must not be empty")
    try:
        retention = parse_duration(options.retention, "--retention")
    except ValueError as exc:
        raise ServeError(str(exc)) from None
    evented = options.server == "uvicorn"
    try:
        proxies = parse_trusted_proxies(options.trusted_proxy)
        if not evented:
            proxies.waitress_options()  # waitress trusts one address: say so before starting
    except ValueError as exc:
        raise ServeError(str(exc)) from None
    try:
        hub = make_hub(pubsub)
    except ValueError as exc:
        raise ServeError(str(exc)) from None  # the message starts with --pubsub
    if hub.url != "local":
        if not evented:
            raise ServeError("--pubsub: a Redis hub needs --server uvicorn (the default)")
        try:
            hub.check()
        except HubUnavailable as exc:
            raise ServeError(f"--pubsub: {exc}") from None
    threads = options.threads if options.threads is not None else (16 if evented else 256)
    connections = connection_limit()
    config = {
        "DATABASE": str(db_value),
        "PUBSUB": pubsub,
        "BASE_URL": base_url,
        "DURABILITY": "power" if options.fsync else "crash",
        "MAX_STREAMS": None if evented else max_streams(threads, connections),
        "RETENTION_SECONDS": retention,
    }
    try:
        app = create_app(config, options.extensions)
    except (StorageUnavailable, StoreError) as exc:
        if not isinstance(db_value, Path):  # the message names the URL without its password
            raise ServeError(f"--db: {exc}") from None
        raise _open_error("--db", exc, db_value) from None
    except (OSError, sqlite3.Error) as exc:
        raise _open_error("--db", exc, redact_url(str(db_value))) from None
    tables = app.extensions[EXTENSION]
    store = tables.store
    server: Any
    try:
        if evented:
            server, listener = create_evented_server(
                app, host=host, port=port, threads=threads, proxies=proxies
            )
        else:
            server = create_server(
                app,
                host=host,
                port=port,
                threads=threads,
                connections=connections,
                proxies=proxies,
            )
    except OSError as exc:
        store.close()
        raise _listen_error(exc, host, port) from None
    except ValueError:
        store.close()
        raise ServeError(f"--host: not an address or name of this machine: {host[:60]!r}") from None
    actual_port = listener.getsockname()[1] if evented else bound_port(server)
    unreachable = None
    if base_url is None:
        shown, unreachable = phone_address(host)
        shown = f"[{shown}]" if ":" in shown else shown
        base_url = f"http://{shown}:{actual_port}"
        app.config["BASE_URL"] = base_url
    _tell_start(options, base_url, unreachable, store.location, retention, proxies)
    announced: list[Any] = []
    if options.mdns:
        threading.Thread(
            target=_announce,
            args=(host, actual_port, base_url, options.card_qr_base, announced),
            daemon=True,
        ).start()
    tables.retention.start()  # removes the tables not played for --retention, at once too
    tune_gc()  # collector pauses out of the answers (both servers)
    if not evented:  # uvicorn handles the signals itself: streams end, then a clean stop

        def stop(signum: int, _frame: object) -> None:
            """Ctrl+C / SIGTERM: end the live streams at once, so the workers stop promptly."""
            tables.close()
            raise KeyboardInterrupt(f"signal {signum}")  # waitress stops its loop and workers

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
    try:
        if evented:
            server.run(sockets=[listener])
        else:
            server.run()
    finally:
        tables.retention.stop()
        tables.close()
        (listener if evented else server).close()
        store.close()
        for announcement in announced:
            announcement.close()
    click.echo(STOPPED, err=True)
