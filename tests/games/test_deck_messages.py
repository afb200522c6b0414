"""Deck messages as a player reads them (issue 29, point 5): the nearest known field name for
a typo, ``missing`` or ``empty`` for a required field not given, and an Excel ``sep=;`` first
line read as the delimiter it names."""

from __future__ import annotations

import pytest

from games.cards.deck import DeckError, csv_dialect, parse_deck_text
from games.registry import CARD_GAMES


def problems(text: str, source: str) -> list[str]:
    with pytest.raises(DeckError) as info:
        parse_deck_text(text, games=CARD_GAMES, source=source)
    return str(info.value).splitlines()


def test_a_misspelled_field_names_the_nearest_known_one() -> None:
    found = problems(
        "game: toy-battle\ncards:\n  - {trop: Star, name: A, colour: blue, coppies: 2}\n",
        "d.yaml",
    )
    assert found[0].endswith("found 'trop' (did you mean 'troop'?)")
    assert found[1].endswith("found 'coppies' (did you mean 'copies'?)")
    assert found[2] == (
        "d.yaml: line 3 (card 1): field 'troop': missing; allowed one of Kwak, Skully, Cap'n, "
        "Jumbo, Hook, XB-42, Star, Roxy"
    )
    assert len(found) == 3
    header = problems(
        "game: toy-battle\ntitel: T\ncards:\n  - {troop: Star, name: A, colour: red}\n", "d.yaml"
    )
    assert header == [
        "d.yaml: line 2: field 'titel': allowed game, deck, title, colour, back, cards; found 'titel' "
        "(did you mean 'title'?)"
    ]
    far = problems(
        "game: toy-battle\ncards:\n  - {troop: Star, name: A, colour: red, zzz: 1}\n", "d.yaml"
    )
    assert far[0].endswith("found 'zzz'")


def test_a_blank_required_cell_is_empty_and_an_absent_column_missing() -> None:
    found = problems("game,kind,name,troop\ntoy-battle,troop,,Star\n", "d.csv")
    assert found == [
        "d.csv: line 2: field 'name': empty; allowed non-empty text (one line) of at most 40 "
        "characters",
        "d.csv: line 2: field 'colour': missing; allowed one of blue, red",
    ]


def test_an_excel_sep_line_names_the_delimiter_and_lines_stay_the_files() -> None:
    text = "sep=;\r\ngame;kind;name;troop;colour;text\r\ntoy-battle;troop;A, B;Star;red;x, y\r\n"
    deck = parse_deck_text(text, games=CARD_GAMES, source="d.csv")
    assert [(c.name, c.text) for c in deck.cards] == [("A, B", "x, y")]
    assert csv_dialect("\ufeffSEP=,\nname;game\n") == ("name;game\n", ",", 1)
    assert csv_dialect("name;game\n") == ("name;game\n", ";", 0)
    bad = problems(text.replace(";red;", ";green;"), "d.csv")
    assert bad == ["d.csv: line 3: field 'colour': allowed one of blue, red; found 'green'"]
