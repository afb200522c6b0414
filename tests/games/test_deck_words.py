"""A deck file's problems in the reader's language (issue 31, point 5): every text of
:class:`~games.cards.fields.FieldError` and its location is a
:class:`~games.cards.wording.Words` with a German translation, the English stays exactly as
the command prints it, and a walk through many broken decks meets no English template."""

from __future__ import annotations

import pickle
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from games import registry
from games.cards.deck import DeckError, parse_deck_text
from games.cards.wording import TRANSLATIONS, Words
from games.registry import CARD_GAMES

ROOT = Path(__file__).resolve().parents[2]
FIELD = re.compile(r"%\((\w+)\)s")


def german(path: Path) -> dict[str, str]:
    with path.open("rb") as handle:
        return {m.id: m.string for m in read_po(handle) if m.id and m.string and not m.fuzzy}


def templates(path: Path) -> Iterator[tuple[int, str]]:
    for line, message, _, _ in extract_from_file("python", str(path), keywords={"Words": None}):
        yield line, message


GENERIC = german(TRANSLATIONS / "de/LC_MESSAGES/messages.po")
VIEWS = {
    entry.package: german(
        ROOT / "companion/views" / entry.slug / "translations/de/LC_MESSAGES/messages.po"
    )
    for entry in registry.ENTRIES
}


def gettext_de(text: str) -> str:
    """German as the phone's merged catalogs give it (the generic texts and every view's)."""
    for catalog in (GENERIC, *VIEWS.values()):
        if text in catalog:
            return catalog[text]
    return text


def test_every_template_has_german_with_the_same_fields() -> None:
    generic = [*sorted((ROOT / "games/cards").glob("*.py")), ROOT / "games/demos.py"]
    generic.append(ROOT / "printables/deckfile.py")
    checked = 0
    for path in generic:
        for line, text in templates(path):
            where = f"{path.relative_to(ROOT)}:{line}"
            assert text in GENERIC, f"{where}: no German for {text!r}"
            assert set(FIELD.findall(GENERIC[text])) == set(FIELD.findall(text)), where
            checked += 1
    for entry in registry.ENTRIES:  # a game's own texts: in its phone view's catalog
        for path in sorted((ROOT / "games" / entry.package).glob("*.py")):
            for line, text in templates(path):
                where = f"{path.relative_to(ROOT)}:{line}"
                assert text in VIEWS[entry.package], f"{where}: no German for {text!r}"
                german_text = VIEWS[entry.package][text]
                assert set(FIELD.findall(german_text)) == set(FIELD.findall(text)), where
                checked += 1
    assert checked >= 100


BROKEN = [
    ("empty.yaml", ""),
    ("list.yaml", "- a\n- b\n"),
    ("twice.yaml", "game: toy-battle\ngame: toy-battle\ncards: []\n"),
    ("alias.yaml", "game: toy-battle\nx: &a 1\ncards: [*a]\n"),
    ("tag.yaml", "game: !!str toy-battle\ncards: []\n"),
    ("syntax.yaml", "game: [toy-battle\n"),
    ("two.yaml", "game: toy-battle\n---\ngame: toy-battle\n"),
    (
        "header.yaml",
        "game: toy-battle\ntitel: T\ncards:\n  - {troop: Star, name: A, colour: red}\n",
    ),
    ("nocards.yaml", "game: toy-battle\ncards: 3\n"),
    ("nocard.yaml", "game: toy-battle\ncards:\n  - 3\n"),
    ("zero.yaml", "game: toy-battle\ncards: []\n"),
    ("game.yaml", "game: chess\ncards: []\n"),
    ("back.yaml", "game: toy-battle\nback: {colour: red, size: 3}\ncards: []\n"),
    ("backtext.yaml", 'game: toy-battle\nback:\n  text: "a\\u0007b"\ncards: []\n'),
    (
        "fields.yaml",
        "game: toy-battle\ncolour: blue\ncards:\n"
        "  - {trop: Star, name: A, colour: blue, coppies: 2}\n"
        "  - {troop: Star, name: '', colour: green, copies: 200, qr: maybe}\n"
        '  - {troop: Star, name: "a\\nb", colour: red, id: Bad_Id}\n'
        "  - {troop: Star, name: B, colour: red, id: b}\n"
        "  - {troop: Star, name: C, colour: red, id: b}\n",
    ),
    (
        "tf.yaml",
        "game: transformers\ncards:\n  - {kind: upgrade, name: U, text: x}\n"
        "  - {kind: action, name: A, upgrade: weapon, text: x}\n"
        "  - {kind: character, name: C, back_image: x.png, faction: Autobot, stars: 5, "
        "health: 9, alt_attack: 1, alt_defense: 1, bot_attack: 1, bot_defense: 1}\n",
    ),
    ("d.txt", "game: toy-battle\n"),
    ("empty.csv", ""),
    ("header.csv", "game,name,name\n"),
    ("rows.csv", "game,kind,name,troop,colour\n"),
    ("quote.csv", 'game,kind,name,troop,colour\ntoy-battle,troop,"A,Star,red\n'),
    (
        "cells.csv",
        "game,kind,name,troop,colour\ntoy-battle,troop,A,Star,red,extra\n"
        "transformers,troop,B,Star,red\n",
    ),
]


def broken_decks() -> Iterator[tuple[str, DeckError]]:
    for name, text in BROKEN:
        with pytest.raises(DeckError) as info:
            parse_deck_text(text, games=CARD_GAMES, source=name)
        yield name, info.value


def words_in(value: object) -> Iterator[Words]:
    if isinstance(value, Words):
        yield value
        for inner in (*value.values.values(), *value.parts):
            yield from words_in(inner)


def test_a_walk_through_broken_decks_meets_only_texts_with_german() -> None:
    seen: set[str] = set()
    for name, error in broken_decks():
        english = str(error).splitlines()
        said = error.translated(gettext_de)
        assert error.translated(lambda text: text) == english, name  # English: as printed
        assert len(said) == len(english) == len(error.problems), name
        for (where, problem), line, line_de in zip(error.problems, english, said, strict=True):
            for words in (*words_in(where), *words_in(problem.words)):
                if words.template is not None:
                    seen.add(words.template)
                    assert gettext_de(words.template) != words.template or not re.search(
                        "[a-z]{3}", words.template.replace("%(", "").replace(")s", "")
                    ), (name, words.template)
            assert line_de != line and line_de.startswith(name + ": "), (name, line)
            assert "field '" not in line_de and "line " not in line_de, (name, line_de)
    assert len(seen) >= 40, sorted(seen)


def test_german_lines_read_as_german() -> None:
    errors = dict(broken_decks())
    said = errors["fields.yaml"].translated(gettext_de)
    assert said[1] == (
        "fields.yaml: Zeile 4 (Karte 1): Feld 'trop': erlaubt ist ein Feld aus name, id, "
        "copies, image, back_image, qr, troop, colour, text; gefunden 'trop' "
        "(meinten Sie 'troop'?)"
    )
    assert "Feld 'colour': erlaubt ist eines von blue, red; gefunden 'green'" in "\n".join(said)
    assert errors["empty.yaml"].translated(gettext_de) == [
        "empty.yaml: die Datei ist leer (ein Deck braucht game: und cards:)"
    ]
    csv = errors["header.csv"].translated(gettext_de)
    assert csv == ["header.csv: Zeile 1: die Spalten 2 und 3 heißen beide 'name'"]
    assert errors["tf.yaml"].translated(gettext_de) == [
        "tf.yaml: Zeile 3 (Karte 1): Feld 'upgrade': erlaubt ist eines von weapon, armor, "
        "utility für ein Upgrade; gefunden ''",
        "tf.yaml: Zeile 4 (Karte 2): Feld 'upgrade': erlaubt ist leer für eine Aktion; gefunden "
        "'weapon'",
        "tf.yaml: Zeile 5 (Karte 3): Feld 'back_image': erlaubt ist leer (die Bot-Seite ist die "
        "Rückseite, TF-1); gefunden 'x.png'",
    ]


def test_words_survive_pickling() -> None:
    """A problem's location and message may cross a process boundary (a job's answer)."""
    error = next(e for name, e in broken_decks() if name == "fields.yaml")
    places = pickle.loads(pickle.dumps([where for where, _ in error.problems]))
    assert places == [str(where) for where, _ in error.problems]
    assert places[1].translated(gettext_de) == "Zeile 4 (Karte 1)"
    message = pickle.loads(pickle.dumps(error.problems[1][1].words))
    assert message.translated(gettext_de).startswith("Feld 'trop': erlaubt ist ein Feld aus")


def test_words_are_their_english_text_and_leave_a_percent_without_values_alone() -> None:
    line = Words("line %(line)s", line=12)
    assert line == "line 12" and f"{line}:" == "line 12:" and line.template == "line %(line)s"
    assert Words("100% cotton") == "100% cotton"
    assert Words.verbatim("a, b").translated(lambda text: "X") == "a, b"
    nested = Words("allowed %(what)s", what=Words("yes or no"))
    fake: Callable[[str], str] = {"allowed %(what)s": "erlaubt %(what)s", "yes or no": "ja"}.get  # type: ignore[assignment]
    assert nested.translated(lambda text: fake(text) or text) == "erlaubt ja"


def test_the_building_rules_warnings_read_in_german_too() -> None:
    """What the print shop warns of (a deck that prints but breaks a building rule)."""
    small = {
        "toy-battle": "game: toy-battle\ncards:\n  - {troop: Star, name: A, colour: red}\n",
        "transformers": (
            "game: transformers\ncards:\n  - {kind: action, name: A, text: x, copies: 5}\n"
            "  - {kind: character, name: C, faction: Autobot, stars: 20, health: 9, "
            "alt_attack: 1, alt_defense: 1, bot_attack: 1, bot_defense: 1, copies: 2}\n"
        ),
    }
    said = []
    for game, text in small.items():
        deck = parse_deck_text(text, games=CARD_GAMES, source=f"{game}.yaml")
        problems = deck.legality_problems()
        assert problems, game
        for problem in problems:
            for words in words_in(problem.words):
                assert (
                    words.template is None
                    or words.template in GENERIC
                    or any(words.template in view for view in VIEWS.values())
                ), words.template
            said.append(problem.words.translated(gettext_de))
    text = "\n".join(said)
    assert (
        "ein Toy-Battle-Satz hat 24 Truppen je Farbe, 3 von jeder der 8 Sorten (TB-1): red fehlen "
        "3 Kwak, 3 Skully, 3 Cap'n, 3 Jumbo, 3 Hook, 3 XB-42, 2 Star, 3 Roxy (1 von 24 Truppen)"
    ) in text
    assert "erlaubt ist ein Team mit höchstens 25 Sternen (TF-3)" in text
    assert "erlaubt ist ein Deck mit mindestens 40 Kampfkarten (TF-3)" in text
    assert "höchstens 3 Kopien von 'A' (TF-3)" in text
