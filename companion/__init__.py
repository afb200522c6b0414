"""The phone companion: a Flask app that keeps a shared table for two phones.

``create_app`` is the factory (flaskr style): it loads the config, registers the services
(event store, dice, tables, translations, join rate limiter) and the blueprints
(:mod:`companion.pages` for the phone pages, :mod:`companion.api` for JSON and the live
stream). Run it with ``tablesmith serve`` (:mod:`companion.serve`: uvicorn,
:mod:`companion.evented`, with live streams on the event loop, :mod:`companion.asgi`; or
waitress, :mod:`companion.server`).

The house: :mod:`companion.tables` (the tables, one module per job, behind
:class:`~companion.tables.service.TableService`), :mod:`companion.store` and
:mod:`companion.hub` (interface, implementations and factory each), the HTTP side
(:mod:`~companion.api`, :mod:`~companion.pages`, :mod:`~companion.links`,
:mod:`~companion.refusals`, :mod:`~companion.security`, :mod:`~companion.views`,
:mod:`~companion.i18n`, :mod:`~companion.decks`, :mod:`~companion.durations`), and the servers (:mod:`~companion.asgi`,
:mod:`~companion.evented`, :mod:`~companion.server`, :mod:`~companion.serve`,
:mod:`~companion.mdns`). A service's accessor sits beside it (``tables()`` in
:mod:`companion.tables.service`, the rate limiters in :mod:`companion.security`), never here,
so the blueprints never import this package's ``__init__``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from flask import Flask

from companion import i18n
from companion.dice import DiceService
from companion.hub.factory import make_hub
from companion.security import (
    JOIN_LIMITER,
    LOOKUP_LIMITER,
    RateLimiter,
    cross_site_guard,
)
from companion.store.factory import open_store
from companion.tables.retention import DEFAULT_IDLE, DEFAULT_RETENTION, Retention
from companion.tables.seats import SEAT_GONE_SECONDS
from companion.tables.service import EXTENSION, TableService
from games import registry

DEFAULTS: dict[str, Any] = {
    "DATABASE": None,
    "DURABILITY": "power",
    "BUSY_SECONDS": 3.0,
    "BASE_URL": None,
    "HEARTBEAT_SECONDS": 5.0,
    "PUBSUB": None,
    "MAX_STREAMS": None,
    "STREAM_SECONDS": 600.0,
    "JOIN_RATE_LIMIT": (10, 60.0),
    "LOOKUP_RATE_LIMIT": (60, 60.0),
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "DICE_RNG": None,
    "I18N_CACHE": None,
    "SEAT_GONE_SECONDS": SEAT_GONE_SECONDS,
    "RETENTION_SECONDS": DEFAULT_RETENTION,
    "IDLE_SECONDS": DEFAULT_IDLE,
}


def default_database() -> Path:
    """The companion database in the user's data folder.

    ``$XDG_DATA_HOME/tablesmith/companion.sqlite`` (default ``~/.local/share``); on Windows
    ``%LOCALAPPDATA%\\tablesmith``; on macOS ``~/Library/Application Support/tablesmith``.
    """
    if os.name == "nt":
        root = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif os.uname().sysname == "Darwin":
        root = Path.home() / "Library" / "Application Support"
    else:
        root = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return root / "tablesmith" / "companion.sqlite"


def create_app(
    test_config: dict[str, Any] | None = None,
    extensions: Sequence[Callable[[Flask], None]] = (),
) -> Flask:
    """Build the companion app.

    ``extensions`` are called with the app before the translations are compiled: the
    composition root (``tablesmith serve``) adds the print shop's pages this way, so the
    companion never imports them. An extension may register blueprints, add a door to the
    start page (``DOORS``: dicts of ``endpoint``, ``title``, ``text``, ``id``) and a folder of
    catalogs (``EXTRA_TRANSLATIONS``).

    Args:
        test_config: config overrides. Keys: ``DATABASE`` (an SQLite file path, or a
            ``postgresql://`` URL: :func:`companion.store.factory.open_store`), ``DURABILITY`` (``"power"``,
            default, or ``"crash"``, see :mod:`companion.store.sqlite`), ``BUSY_SECONDS`` (how long a write
            waits for a database lock held by another program; then 503), ``BASE_URL`` (the URL put in
            QR codes; default: the request's host), ``HEARTBEAT_SECONDS`` (live stream; also how
            soon a vanished phone is noticed, :mod:`companion.evented`), ``PUBSUB`` (fan-out
            between processes: None in-process, or a ``redis://`` URL, :mod:`companion.hub.factory`), ``STREAM_SECONDS`` (a live stream's lifetime, the page reconnects),
            ``MAX_STREAMS`` (live streams
            open at once; ``tablesmith serve`` keeps 1/8 of its threads free for actions),
            ``JOIN_RATE_LIMIT`` ((joins, seconds) per client address), ``LOOKUP_RATE_LIMIT``
            ((join or watch link lookups, seconds) per client address, found or not),
            ``MAX_CONTENT_LENGTH`` (request bodies, bytes; 413 above), ``DICE_RNG`` (a
            ``random.Random`` for tests; default ``secrets.SystemRandom``), ``I18N_CACHE``,
            ``SEAT_GONE_SECONDS`` (how long a seat's phone must be away before a seat code
            takes the seat, :data:`companion.tables.seats.SEAT_GONE_SECONDS`),
            ``RETENTION_SECONDS`` (a table not played this long is removed, 0 never; default
            30 days) and ``IDLE_SECONDS`` (a table unused this long leaves memory, 0 never;
            default 5 minutes), :mod:`companion.tables.retention`.
    """
    registry.load_engines()  # now, not inside a player's first request
    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS)
    if test_config:
        app.config.from_mapping(test_config)
    database = app.config["DATABASE"] or default_database()
    app.config["DATABASE"] = str(database)

    hub = make_hub(app.config["PUBSUB"])  # before the store: a bad URL leaves nothing open
    store = open_store(database, app.config["DURABILITY"], app.config["BUSY_SECONDS"])
    dice = DiceService(app.config["DICE_RNG"])
    service = TableService(store, dice, app.config["MAX_STREAMS"], hub)
    service.seats.gone_seconds = float(app.config["SEAT_GONE_SECONDS"])
    service.retention = Retention(
        store,
        service.cache,
        service.budgets,
        float(app.config["RETENTION_SECONDS"]),
        float(app.config["IDLE_SECONDS"]),
    )
    app.extensions[EXTENSION] = service
    app.extensions[JOIN_LIMITER] = RateLimiter(*app.config["JOIN_RATE_LIMIT"])
    app.extensions[LOOKUP_LIMITER] = RateLimiter(*app.config["LOOKUP_RATE_LIMIT"])
    app.config.setdefault("DOORS", [])
    app.config.setdefault("EXTRA_TRANSLATIONS", [])
    for extension in extensions:
        extension(app)
    i18n.init_app(app)
    app.before_request(cross_site_guard)

    from companion import api, pages, refusals, views

    refusals.init_app(app)
    views.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    return app
