"""The print shop: the print kit and the card sheets made from a page in the browser.

``tablesmith serve`` adds it to the companion (:func:`init_app`, given to
:func:`companion.create_app` by the composition root), so its start page gets a door to it
beside Play. The shop calls the same code as the commands (:mod:`cad`, :mod:`printables`)
in worker processes (:mod:`shop.jobs`); the companion never imports it. Arrows:
``tablesmith.py -> shop -> {cad, printables, games}``.
"""

from __future__ import annotations

import atexit
from pathlib import Path

from flask import Flask
from flask_babel import lazy_gettext

from shop.jobs import DEFAULT_RETENTION, JobRunner, shop_root

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
"""The shop's catalogs (German), merged with the companion's."""


def init_app(app: Flask) -> None:
    """Add the print shop to ``app``: its pages, its door on the start page, its catalogs
    and a :class:`JobRunner` (config ``SHOP_SLOTS``, default 1 worker process;
    ``SHOP_RETENTION`` seconds, default :data:`shop.jobs.DEFAULT_RETENTION`; ``SHOP_ROOT``, the
    folder its job folders go under, default the system's temporary folder), stopped with the
    process."""
    from shop import cardpages, pages

    del cardpages  # imported for its routes: it adds them to the pages' blueprint

    runner = JobRunner(
        shop_root(app.config.get("SHOP_ROOT")),
        slots=int(app.config.get("SHOP_SLOTS", 1)),
        retention=float(app.config.get("SHOP_RETENTION", DEFAULT_RETENTION)),
    )
    app.extensions[pages.RUNNER] = runner
    atexit.register(runner.close)
    app.register_blueprint(pages.bp)
    app.config["DOORS"].append(
        {
            "id": "pieces",
            "endpoint": "shop.pieces",
            "title": lazy_gettext("Print the pieces"),
            "text": lazy_gettext("The Asteroids board and ships as a 3D print kit"),
        }
    )
    app.config["DOORS"].append(
        {
            "id": "cards",
            "endpoint": "shop.cards",
            "title": lazy_gettext("Print the cards"),
            "text": lazy_gettext("Card sheets as PDF from a demo deck or your own"),
        }
    )
    app.config["EXTRA_TRANSLATIONS"].append(TRANSLATIONS)
