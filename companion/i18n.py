"""Translations for the phone pages: Flask-Babel with English (source) and German catalogs.

The platform's German catalog ships as ``translations/de/LC_MESSAGES/messages.po`` (package
data), and each game's phone view brings its own (``views/<game>/translations/...``, see
:mod:`companion.views`), as the deck files' problems do (:mod:`games.cards.wording`: a game's
own ones in its view's); Flask-Babel merges them. They are compiled to ``.mo`` when the app starts, into a cache folder keyed by the catalog's content
hash, so a fresh ``pip install .`` works without a build step and no generated file is
committed. The phone's ``Accept-Language`` chooses the language; the ``lang`` cookie (set by
the switch at ``/lang/<code>``) overrides it.
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask, request
from flask_babel import Babel, gettext

from companion import clock_page, views
from games.cards.wording import TRANSLATIONS as CARD_TEXTS

LANGUAGES = ("en", "de")
LANG_COOKIE = "lang"
SOURCE_DIR = Path(__file__).parent / "translations"


def compile_catalogs(source: Path, cache_root: Path) -> Path:
    """Compile every ``<lang>/LC_MESSAGES/*.po`` under ``source`` to ``.mo`` files.

    Args:
        source: the folder holding the ``.po`` catalogs.
        cache_root: where compiled catalogs go; one subfolder per content hash.

    Returns:
        The folder to hand to Flask-Babel as translation directory.
    """
    catalogs = sorted(source.glob("*/LC_MESSAGES/*.po"))
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in catalogs)).hexdigest()[:16]
    target = cache_root / f"tablesmith-translations-{source.parent.name}-{digest}"
    for po in catalogs:
        mo = target / po.relative_to(source).with_suffix(".mo")
        if mo.exists():
            continue
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as handle:
            catalog = read_po(handle)
        partial = mo.with_suffix(".mo.tmp")
        with partial.open("wb") as handle:
            write_mo(handle, catalog)
        partial.replace(mo)
    return target


def select_locale() -> str:
    """The ``lang`` cookie if valid, else the best match of ``Accept-Language`` (English)."""
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or LANGUAGES[0]


def init_app(app: Flask) -> None:
    """Register Flask-Babel with compiled catalogs (cache: ``I18N_CACHE`` or the temp dir)."""
    cache = Path(app.config.get("I18N_CACHE") or tempfile.gettempdir())
    extra = app.config.get("EXTRA_TRANSLATIONS", [])  # an extension's (the print shop's)
    sources = [SOURCE_DIR, CARD_TEXTS, *views.translation_folders(), *extra]
    directories = [str(compile_catalogs(source, cache)) for source in sources]
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = ";".join(directories)
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals["current_language"] = select_locale


def js_strings() -> dict[str, Any]:
    """Every text the shell's script shows (``static/shell.js``), translated for the request.

    Each game's own texts come with its view fragment (:mod:`companion.views`).
    """
    return {
        "your_turn": gettext("Your turn"),
        "their_turn": gettext("Waiting for the other player"),
        "watching": gettext("Watching"),
        "over": gettext("Game over"),
        "winner": gettext("%(player)s wins!"),
        "draw": gettext("A draw"),
        "player_a": gettext("Player A"),
        "player_b": gettext("Player B"),
        "you": gettext("you"),
        "piece_of": gettext("%(piece)s (%(player)s)"),
        "confirm_end": gettext("This ends the game: %(result)s End it?"),
        "server": gettext("Server"),
        "stale": gettext("The table moved on; showing the latest state."),
        "offline": gettext("Reconnecting..."),
        "waiting_b": gettext("Waiting for the second phone to join"),
        "not_set_up": gettext("Set the game up"),
        "log_join": gettext("Second phone joined"),
        "log_undo": gettext("Undid #%(seq)s"),
        "rolls": gettext("Rolls (cannot be undone)"),
        "face": gettext("Face"),
        "observed": gettext("Observed"),
        "expected": gettext("Expected"),
        "chi_square": gettext("chi-square"),
        "by": gettext("by"),
        # The dice form's default purpose: sent as the English words, shown translated.
        "for_fun": gettext("for fun"),
        "demo": gettext("demo"),
        "deck_own": gettext("My own deck file (.yaml or .csv)"),
        "deck_bring": gettext("Bring this deck to the table"),
        "deck_choose": gettext("Choose a demo deck or a deck file first."),
        "err_deck": gettext("The deck was refused; see why below."),
        "err_deck_rules": gettext("The deck breaks the building rules; see below."),
        "deck_casual": gettext("Play anyway (a casual deck)"),
        "casual_deck": gettext("Casual deck: %(problems)s"),
        "err_illegal": gettext("The rules do not allow that move."),
        "err_not_your_turn": gettext("It is not your turn."),
        "err_malformed": gettext("The phone sent something the server did not understand."),
        "err_forbidden": gettext("This phone holds no seat at this table."),
        "err_rate_limited": gettext("Too many attempts; wait a minute."),
        "err_other": gettext("Something went wrong; please try again."),
        # Never a lost or doubled tap; presence; the screen; seat codes.
        "err_stale": gettext("the table moved on before it arrived"),
        "err_client_action_id_reused": gettext("the phone reused an action id"),
        "err_busy": gettext("the server has too many live connections now"),
        "err_storage_unavailable": gettext("the server cannot store anything right now"),
        "err_unknown": gettext("this table or code is not known"),
        "err_removed": gettext("this table was removed after a long time without play"),
        "err_cross_site": gettext("refused: the request came from another site"),
        "err_seat_taken": gettext("both seats of this table are taken"),
        "err_reclaim_code_invalid": gettext("that code is wrong, used or expired"),
        "err_seat_free": gettext("the other seat is not taken yet; use the join link"),
        "err_watchers_full": gettext("too many watchers are connected; try again soon"),
        "err_server_full": gettext("the server has too many live connections now"),
        "log_reclaim": gettext("Seat taken back with a seat code"),
        "reclaim_for": gettext("For %(player)s"),
        "refused": gettext("Not applied: %(reason)s"),
        "refused_stale": gettext("the table changed before your tap arrived; look again"),
        "outbox_sending": gettext("Sending..."),
        "outbox_kept": gettext("Kept, not sent yet"),
        "outbox_waiting": gettext(
            "Your tap waits on this phone; it is sent when the connection returns."
        ),
        "outbox_sent": gettext("Sent"),
        "outbox_refused": gettext("Not applied"),
        "offline_kept": gettext("No connection. Your tap is kept and sent when it returns."),
        "stream_refused": gettext("No live updates: %(reason)s"),
        "seat_taken": gettext(
            "Another phone took this seat over at %(time)s: this phone no longer plays here."
        ),
        "err_seat_in_use": gettext(
            "that seat's phone is still at the table; a seat code works once it has been away"
        ),
        "opponent_connected": gettext("Opponent connected"),
        "opponent_gone": gettext("Opponent's phone gone"),
        "opponent_gone_since": gettext("Opponent's phone gone since %(time)s"),
        "seat_connected": gettext("%(player)s connected"),
        "seat_gone": gettext("%(player)s gone"),
        "seat_gone_since": gettext("%(player)s gone since %(time)s"),
        "log_older": gettext("%(n)s older events are not shown"),
        "reclaim_until": gettext("Valid until %(time)s"),
        "reclaim_unavailable": gettext("This server cannot hand out seat codes."),
        "awake_tap": gettext("Tap to keep the screen on"),
        "awake_lock": gettext("Screen stays on"),
        "awake_video": gettext("Screen stays on (video)"),
        "awake_why_video": gettext(
            "No Wake Lock here (plain http on the LAN has none): a silent video keeps the screen on"
        ),
        "awake_unavailable": gettext("Screen may turn off: this browser cannot keep it on"),
        # Dice written as players write them: "2d6", German "2W6" (issue 31).
        "dice_notation": gettext("%(count)sd%(sides)s"),
        # The words every game view shares (the shell lends them to each as its own strings).
        "kit": {
            "turn": gettext("Turn %(turn)s"),
            "waiting_for": gettext("Waiting for %(player)s."),
            "choose_card": gettext("Choose a card"),
            "cancel": gettext("Cancel"),
            "attacker": gettext("Attacker"),
            "defender": gettext("Defender"),
            "counters": gettext("Damage counters"),
            "add_counter": gettext("Add a damage counter"),
            "remove_counter": gettext("Remove a damage counter"),
            "log_end": gettext("ended the turn"),
        },
        **clock_page.js_strings(),
    }
