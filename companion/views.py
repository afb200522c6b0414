"""The games' phone views: each game's table page part lives in ``companion/views/<game>/``.

A game's phone view is a folder named like the game in :mod:`games.registry`:

* ``view.html``: a Jinja fragment included in the shell page (``templates/table.html``); it
  holds the game's controls and its translated texts as JSON (``<script id="game-strings">``);
* ``view.js``: the script that draws the table from the view and registers itself with the
  shell (``Tablesmith.register({render, status, describe, purposes})``, ``static/shell.js``);
* ``view.css`` (optional): its styles;
* ``card.html`` (optional): a card's face for the page a printed QR code opens (the card is
  ``card``, its deck ``deck``; without it the page lists the card's fields);
* ``translations/<lang>/LC_MESSAGES/messages.po``: the German texts of the fragment.

The platform finds these by the game's name only: adding a game adds a folder here and touches
no platform module.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, abort, send_from_directory
from jinja2 import ChoiceLoader, FileSystemLoader
from werkzeug.wrappers import Response

from games import registry

ROOT = Path(__file__).parent / "views"
"""The folder of the games' phone views."""
ASSETS = ("view.js", "view.css")
"""Files of a view folder that are served to the phones."""

bp = Blueprint("views", __name__, url_prefix="/views")


def template(game: str) -> str:
    """The Jinja name of a game's view fragment (``"<game>/view.html"``)."""
    return f"{game}/view.html"


def card_template(game: str) -> str | None:
    """The Jinja name of a game's card face fragment (``"<game>/card.html"``), if it has one."""
    return f"{game}/card.html" if (ROOT / game / "card.html").is_file() else None


def translation_folders() -> list[Path]:
    """Every game view's ``translations`` folder (for the translation catalogs)."""
    return sorted(p for p in ROOT.glob("*/translations") if p.is_dir())


def stylesheet(game: str) -> bool:
    """True when the game's view has its own ``view.css``."""
    return (ROOT / game / "view.css").is_file()


@bp.get("/<game>/<filename>")
def asset(game: str, filename: str) -> Response:
    """A registered game's ``view.js`` or ``view.css`` (404 for anything else)."""
    if game not in registry.GAMES or filename not in ASSETS:
        abort(404)
    return send_from_directory(ROOT / game, filename, max_age=300)


def init_app(app: Flask) -> None:
    """Let templates include ``<game>/view.html`` and serve the view assets."""
    assert app.jinja_loader is not None
    app.jinja_loader = ChoiceLoader([app.jinja_loader, FileSystemLoader(ROOT)])
    app.register_blueprint(bp)
