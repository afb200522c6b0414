"""The German catalogs agree where they share a text.

Flask-Babel merges the shell's catalog and every game view's into one (``companion.i18n``), so
a message id translated two ways gets one of them on every page, whichever loaded last: the
Asteroids page said "Zug 2" for the turn beside "Zug 1 von 2" for the step, while its own
catalog said "Runde 2". A shared id must have one German text; a game that needs another
word uses another id.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]


def catalogs() -> list[Path]:
    """Every German catalog of the companion: the shell's and each view's."""
    found = sorted((ROOT / "companion").rglob("de/LC_MESSAGES/messages.po"))
    assert len(found) >= 5, found  # the shell and four games
    return found


def test_a_text_shared_by_two_catalogs_has_one_german_translation() -> None:
    texts: dict[str, dict[str, Path]] = {}
    for path in catalogs():
        with path.open("rb") as handle:
            for message in read_po(handle):
                if not message.id or not message.string or message.fuzzy:
                    continue
                key = message.id if isinstance(message.id, str) else message.id[0]
                german = message.string if isinstance(message.string, str) else message.string[0]
                texts.setdefault(key, {}).setdefault(german, path)
    shared = {key for key, variants in texts.items() if len(variants) == 1}
    assert "Turn %(turn)s" in shared  # the four games share it
    clashes = {
        key: {german: str(path.relative_to(ROOT)) for german, path in variants.items()}
        for key, variants in texts.items()
        if len(variants) > 1
    }
    assert not clashes, f"one text, several German translations: {clashes}"


def test_asteroids_says_zug_for_the_turn_and_schritt_for_a_step() -> None:
    """The original: "Spielzug ... Jeder Spieler muss genau zweimal Ziehen bzw. Springen und
    einmal Schieben"; its refusals already said "Schritt" for a step."""
    path = ROOT / "companion/views/asteroids/translations/de/LC_MESSAGES/messages.po"
    with path.open("rb") as handle:
        german = {m.id: m.string for m in read_po(handle) if m.id}
    assert german["Turn %(turn)s"] == "Zug %(turn)s"
    assert german["Step 1 of 2: tap one of your ships"].startswith("Schritt 1 von 2")
    assert german["No step possible: skip"].startswith("Kein Schritt")
