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
no platform module. A game kept outside this repository brings its view in its own package
(:attr:`games.entry.GameEntry.view`); :func:`folder` finds either.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, abort, send_from_directory
from jinja2 import BaseLoader, ChoiceLoader, Environment, FileSystemLoader, TemplateNotFound
from werkzeug.wrappers import Response

from games import registry

ROOT = Path(__file__).parent / "views"
"""The folder of the games' phone views."""
ASSETS = ("view.js", "view.css")
"""Files of a view folder that are served to the phones."""

bp = Blueprint("views", __name__, url_prefix="/views")


def folder(game: str) -> Path:
    """The folder of a registered game's phone view: the one its entry names
    (:meth:`games.entry.GameEntry.view_folder`), else ``companion/views/<game>/``."""
    own = registry.entry(game).view_folder() if game in registry.GAMES else None
    return ROOT / game if own is None else Path(str(own))


class _OwnViews(BaseLoader):
    """Jinja loader of ``<game>/<file>`` from the view folders games bring themselves."""

    def get_source(self, environment: Environment, template: str) -> tuple[str, str, Any]:
        game, _, name = template.partition("/")
        if game not in registry.GAMES or registry.entry(game).view is None or "/" in name:
            raise TemplateNotFound(template)
        path = folder(game) / name
        if not path.is_file():
            raise TemplateNotFound(template)
        mtime = path.stat().st_mtime
        return path.read_text(encoding="utf-8"), str(path), lambda: path.stat().st_mtime == mtime


def template(game: str) -> str:
    """The Jinja name of a game's view fragment (``"<game>/view.html"``)."""
    return f"{game}/view.html"


def card_template(game: str) -> str | None:
    """The Jinja name of a game's card face fragment (``"<game>/card.html"``), if it has one."""
    return f"{game}/card.html" if (folder(game) / "card.html").is_file() else None


def translation_folders() -> list[Path]:
    """Every game view's ``translations`` folder (for the translation catalogs)."""
    own = [folder(e.slug) / "translations" for e in registry.entries() if e.view is not None]
    return sorted(p for p in [*ROOT.glob("*/translations"), *own] if p.is_dir())


def stylesheet(game: str) -> bool:
    """True when the game's view has its own ``view.css``."""
    return (folder(game) / "view.css").is_file()


@bp.get("/<game>/<filename>")
def asset(game: str, filename: str) -> Response:
    """A registered game's ``view.js`` or ``view.css`` (404 for anything else)."""
    if game not in registry.GAMES or filename not in ASSETS:
        abort(404)
    return send_from_directory(folder(game), filename, max_age=300)


def init_app(app: Flask) -> None:
    """Let templates include ``<game>/view.html`` and serve the view assets."""
    assert app.jinja_loader is not None
    app.jinja_loader = ChoiceLoader([app.jinja_loader, FileSystemLoader(ROOT), _OwnViews()])
    app.register_blueprint(bp)
