"""Deck parsing and validation (games.cards): YAML and CSV text in, a Deck or all errors out."""

from __future__ import annotations

import subprocess
import sys

import pytest

from games.cards.deck import DeckError, card_url, parse_deck_text
from games.cards.fields import FieldError
from games.demos import demo_deck, demo_resource
from games.pocketmodel.cards import PocketModelCard, PocketModelUnit
from games.registry import CARD_GAMES
from games.toybattle.cards import ToyBattleTroop
from games.transformers.cards import TransformersBattleCard, TransformersCharacter

UNIT = "{kind: unit, name: Skiff, stars: 2, attack: 1, damage: 1, defense: 7, shields: 2, icons: Laser}"


def test_yaml_scalars_stay_text_until_their_field_converts_them() -> None:
    deck = parse_deck_text(
        "game: pocketmodel\ncards:\n"
        "  - {kind: unit, name: 007, id: '007', stars: 3, attack: 2, damage: 1, defense: 9, "
        "shields: 2, icons: [Laser, leader], ground: no}\n",
        games=CARD_GAMES,
        source="decks/x.yaml",
    )
    unit = deck.cards[0]
    assert isinstance(unit, PocketModelUnit)
    assert unit.name == "007" and unit.id == "007"
    assert unit.icons == ("Laser", "Leader") and unit.ground is False
    assert deck.slug == "x" and deck.title == "x"


def test_kind_selects_the_card_type_pm3() -> None:
    deck = parse_deck_text(
        "game: pocketmodel\ndeck: d\ncards:\n"
        "  - {kind: objective, name: Depot, text: Hold, stars: 3, defense: 10}\n"
        "  - {kind: combat, name: Roll, text: Dodge, stars: 1, defense: 6, bonus_defense: 3}\n",
        games=CARD_GAMES,
        source="d.yaml",
    )
    objective, combat = deck.cards
    assert isinstance(objective, PocketModelCard) and objective.type == "objective"
    assert combat.type == "combat" and combat.bonus_defense == 3 and combat.bonus_attack == 0


def test_all_errors_of_a_yaml_file_are_reported_at_once_with_line_field_allowed_found() -> None:
    text = (
        "game: pocketmodel\ncards:\n"
        "  - {kind: unit, name: A, stars: 9, attack: 1, damage: 1, defense: 7, shields: 2, "
        "icons: Laser}\n"
        "  - {kind: combat, name: B, text: t, stars: 1, defense: 6, icons: Sparkle, colour: x}\n"
        "  - {kind: wing, name: C}\n"
    )
    with pytest.raises(DeckError) as info:
        parse_deck_text(text, games=CARD_GAMES, source="bad.yaml")
    message = str(info.value)
    lines = message.splitlines()
    assert len(lines) == 4
    assert (
        "bad.yaml: line 3 (card 1): field 'stars': allowed a whole number 1..5; found 9" in message
    )
    assert "line 4 (card 2): field 'icons'" in message and "found 'Sparkle'" in message
    assert "line 4 (card 2): field 'colour': allowed a field of name" in message
    assert (
        "line 5 (card 3): field 'kind': allowed one of unit, combat, objective; found 'wing'"
        in message
    )


CSV = (
    "\ufeffgame;kind;name;troop;colour;copies;text\r\n"
    'toy-battle;troop;Skully;Skully;blue;3;"Draw 2.\r\nOr 1 if the rack holds 7."\r\n'
    "toy-battle;troop;007;Star;red;3;\r\n"
)


def test_csv_with_bom_semicolons_and_line_breaks_in_quotes() -> None:
    deck = parse_deck_text(CSV, games=CARD_GAMES, source="troops.csv")
    skully, star = deck.cards
    assert isinstance(skully, ToyBattleTroop)
    assert skully.text == "Draw 2.\nOr 1 if the rack holds 7."  # CRLF in a cell -> \n
    assert skully.strength == 1 and skully.copies == 3
    assert star.name == "007" and star.id == "007" and star.strength == 6
    assert deck.game == "toy-battle" and deck.slug == "troops"


def test_csv_errors_name_the_line_where_the_record_starts() -> None:
    text = CSV.replace("\ufeff", "") + "toy-battle;troop;X;Blob;green;many;\r\n"
    with pytest.raises(DeckError) as info:
        parse_deck_text(text.replace(";", ","), games=CARD_GAMES, source="t.csv")
    problems = info.value.problems
    # Record 3 starts on physical line 5 (record 1 spans lines 2 and 3).
    assert {where for where, _ in problems} == {"line 5"}
    assert sorted(p.field for _, p in problems) == ["colour", "copies", "troop"]
    copies = next(p for _, p in problems if p.field == "copies")
    assert copies.allowed == "a whole number 1..99" and copies.found == "many"


def test_csv_game_column_must_agree() -> None:
    text = "game,name,troop,colour\ntoy-battle,A,Star,red\npocketmodel,B,Star,red\n"
    with pytest.raises(DeckError, match="all rows: field 'game': allowed the same value"):
        parse_deck_text(text, games=CARD_GAMES, source="m.csv")


def test_transformers_character_sides_and_battle_card_rules_tf1_tf2() -> None:
    deck = parse_deck_text(
        "game: transformers\ncards:\n"
        "  - {kind: character, name: Quay, faction: decepticon, stars: 8, health: 9,"
        " alt_attack: 2, alt_defense: 1, bot_attack: 3, bot_defense: 2, bot_text: Grr}\n"
        "  - {kind: upgrade, upgrade: Armor, name: Plate, icons: blue blue, text: +2 Defense}\n",
        games=CARD_GAMES,
        source="t.yaml",
    )
    character, plate = deck.cards
    assert isinstance(character, TransformersCharacter) and character.faction == "Decepticon"
    assert character.side("bot").attack == 3 and character.side("bot").text == "Grr"
    assert character.side("alt").text == ""
    assert isinstance(plate, TransformersBattleCard) and plate.icons == ("blue", "blue")
    with pytest.raises(FieldError, match="field 'upgrade'"):
        TransformersBattleCard(name="X", type="upgrade", text="t")
    with pytest.raises(FieldError, match="field 'icons'"):
        TransformersBattleCard(name="X", type="action", text="t", icons=("orange",) * 3)
    with pytest.raises(FieldError, match="back_image"):
        TransformersCharacter(
            name="X",
            faction="Autobot",
            stars=1,
            health=1,
            alt_attack=1,
            alt_defense=1,
            bot_attack=1,
            bot_defense=1,
            back_image="b.png",
        )


def test_dataclasses_validate_when_built_in_code() -> None:
    with pytest.raises(FieldError) as info:
        PocketModelUnit(
            name="A", stars=6, attack=1, damage=1, defense=1, shields=1, icons=("Laser",)
        )
    assert (info.value.field, info.value.found) == ("stars", 6)
    with pytest.raises(FieldError, match="field 'icons'"):
        PocketModelUnit(
            name="A", stars=1, attack=1, damage=1, defense=1, shields=1, icons=("Luck",)
        )  # gold icons appear on cards only (PM-2)


def _pm_deck(units: str, copies: int, distinct: int) -> str:
    cards = "".join(
        f"  - {{kind: combat, name: C{i}, text: t, stars: 1, defense: 5, copies: {copies}}}\n"
        for i in range(distinct)
    )
    return "game: pocketmodel\ncards:\n" + units + cards


def test_pm5_fleet_and_deck_limits() -> None:
    legal = parse_deck_text(
        _pm_deck("  - " + UNIT + "\n", 3, 10), games=CARD_GAMES, source="a.yaml"
    )
    assert legal.legality_problems() == []
    big_unit = UNIT.replace("stars: 2", "stars: 5").replace("Skiff", "Big")[:-1] + ", copies: 7}"
    bad = parse_deck_text(
        _pm_deck("  - " + big_unit + "\n", 4, 7), games=CARD_GAMES, source="b.yaml"
    )
    found = {(p.field, p.found) for p in bad.legality_problems()}
    assert ("stars", 35) in found  # fleet of 35 stars > 30
    assert ("copies", 28) in found  # 28 cards < 30
    assert ("copies", 4) in found  # 4 copies > 3
    # the 7 unit copies are the fleet, not the deck: the message says which cards count
    short = next(p for p in bad.legality_problems() if p.found == 28)
    assert short.allowed == (
        "a deck of at least 30 combat and objective cards (units are the fleet) (PM-5)"
    )


def test_tf3_team_stars_and_character_copies() -> None:
    char = (
        "  - {{kind: character, name: {n}, faction: Autobot, stars: {s}, health: 5, "
        "alt_attack: 1, alt_defense: 1, bot_attack: 1, bot_defense: 1{extra}}}\n"
    )
    battle = "".join(
        f"  - {{kind: action, name: A{i}, text: t, copies: 3, stars: 1}}\n" for i in range(14)
    )
    text = (
        "game: transformers\ncards:\n"
        + char.format(n="A", s=13, extra="")
        + char.format(n="B", s=12, extra="")
        + battle
    )
    deck = parse_deck_text(text, games=CARD_GAMES, source="t.yaml")
    assert deck.legality_problems() == []  # 25 stars: legal by the seed's reading
    from games.transformers.cards import legality_problems

    # The official reading also counts the 42 stars on battle cards.
    assert [p.found for p in legality_problems(deck.cards, count_battle_stars=True)] == [67]
    twice = text.replace("name: B, faction", "name: B, copies: 2, faction")
    found = {
        (p.field, p.found)
        for p in parse_deck_text(twice, games=CARD_GAMES, source="t.yaml").legality_problems()
    }
    assert ("stars", 37) in found and ("copies", 2) in found


def test_tb1_needs_three_of_each_type_per_colour() -> None:
    from games.toybattle.rules import TROOPS

    rows = "".join(f'  - {{troop: "{t}", name: "{t}", colour: blue, copies: 3}}\n' for t in TROOPS)
    deck = parse_deck_text("game: toy-battle\ncards:\n" + rows, games=CARD_GAMES, source="tb.yaml")
    assert deck.card_count == 24 and deck.legality_problems() == []
    short = parse_deck_text(
        "game: toy-battle\ncards:\n" + rows.replace("copies: 3}", "copies: 2}", 1),
        games=CARD_GAMES,
        source="tb.yaml",
    )
    assert [str(p) for p in short.legality_problems()] == [
        "a Toy Battle set has 24 troops per colour, 3 of each of the 8 types (TB-1): "
        "blue lacks 1 Kwak (23 of 24 troops)"
    ]
    one = parse_deck_text(
        "game: toy-battle\ncards:\n  - {troop: Star, name: S, colour: red, copies: 4}\n"
        "  - {troop: Kwak, name: K, colour: blue}\n",
        games=CARD_GAMES,
        source="tb.yaml",
    )
    assert [str(p) for p in one.legality_problems()] == [
        "a Toy Battle set has 24 troops per colour, 3 of each of the 8 types (TB-1): "
        "blue lacks 2 Kwak, 3 Skully, 3 Cap'n, 3 Jumbo, 3 Hook, 3 XB-42, 3 Star, 3 Roxy "
        "(1 of 24 troops); red lacks 3 Kwak, 3 Skully, 3 Cap'n, 3 Jumbo, 3 Hook, 3 XB-42, "
        "3 Roxy and has 1 Star too many (4 of 24 troops)"
    ]


def test_duplicate_ids_and_unknown_extension_are_errors() -> None:
    with pytest.raises(DeckError, match="field 'id'"):
        parse_deck_text(
            "game: toy-battle\ncards:\n  - {troop: Star, name: S, colour: red}\n"
            "  - {troop: Star, name: S, colour: blue}\n",
            games=CARD_GAMES,
            source="x.yaml",
        )
    with pytest.raises(DeckError, match=r"field 'extension'.*found '\.txt'"):
        parse_deck_text("", games=CARD_GAMES, source="deck.txt")


def test_card_url_scheme() -> None:
    assert card_url("http://10.0.0.2:5000/", "toy-battle", "troops", "cap-n") == (
        "http://10.0.0.2:5000/card/toy-battle/troops/cap-n"
    )


def test_games_cards_is_pure() -> None:
    code = (
        "import sys, games.cards.deck, games.cards.anatomy, games.cards.cardgame;"
        " bad = {'reportlab', 'flask', 'cadquery', 'segno'}"
        " & set(sys.modules); print(sorted(bad))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


# --- QA regressions (items H and I): odd YAML, CSV quoting, ids of non-Latin names ---

TROOP = "{troop: Star, name: A, colour: blue}"


@pytest.mark.parametrize(
    ("back", "field", "found"),
    [
        ("{colour: [1, 2]}", "back.colour", "['1', '2']"),
        ("{image: [a.png]}", "back.image", "['a.png']"),
        ("{text: [a, b]}", "back.text", "['a', 'b']"),
        ("{text: {a: b}}", "back.text", "{'a': 'b'}"),
        ("{colour: red}", "back.colour", "'red'"),
    ],
)
def test_back_fields_must_be_text(back: str, field: str, found: str) -> None:
    text = f"game: toy-battle\nback: {back}\ncards:\n  - {TROOP}\n"
    with pytest.raises(DeckError) as info:
        parse_deck_text(text, games=CARD_GAMES, source="b.yaml")
    assert str(info.value).startswith(f"b.yaml: line 2: field '{field}': allowed ")
    assert str(info.value).endswith(f"; found {found}")


def test_back_built_in_code_checks_types() -> None:
    from games.cards.deck import BackSpec

    with pytest.raises(FieldError, match=r"field 'back.colour': allowed #RRGGBB; found \[1, 2\]"):
        BackSpec(colour=[1, 2])  # type: ignore[arg-type]
    with pytest.raises(FieldError, match="field 'back.text'"):
        BackSpec(text={"a": "b"})  # type: ignore[arg-type]


def test_a_yaml_alias_is_refused_with_its_line() -> None:
    text = f"game: toy-battle\ncards:\n  - &star {TROOP}\n  - *star\n"
    with pytest.raises(DeckError) as info:
        parse_deck_text(text, games=CARD_GAMES, source="a.yaml")
    assert str(info.value) == (
        "a.yaml: line 4: YAML aliases (*name) are not supported; "
        "write the value out, or repeat a card with copies"
    )


def test_billion_laughs_is_refused_quickly_with_a_short_message() -> None:

    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    text = "\n".join(lines) + "\ngame: *a9\ncards: []\n"
    with pytest.raises(DeckError) as info:  # refused at the first alias, never expanded
        parse_deck_text(text, games=CARD_GAMES, source="lol.yaml")
    assert str(info.value).startswith("lol.yaml: line 2: YAML aliases (*name) are not supported")


def test_duplicate_yaml_keys_are_errors_naming_both_lines() -> None:
    text = (
        "game: toy-battle\ngame: pocketmodel\ncards:\n"
        "  - {troop: Star, name: A, colour: blue, colour: red}\n"
    )
    with pytest.raises(DeckError) as info:
        parse_deck_text(text, games=CARD_GAMES, source="d.yaml")
    assert str(info.value).splitlines() == [
        "d.yaml: line 2: field 'game' is given twice (first on line 1)",
        "d.yaml: line 4: field 'colour' is given twice (first on line 4)",
    ]


def test_internal_names_are_ordinary_unknown_fields() -> None:
    text = "game: toy-battle\n__line__: 9\ncards:\n  - {troop: Star, name: A, colour: blue, __line__: x}\n"
    with pytest.raises(DeckError) as info:
        parse_deck_text(text, games=CARD_GAMES, source="u.yaml")
    problems = {(where, p.field) for where, p in info.value.problems}
    assert problems == {("line 2", "__line__"), ("line 4 (card 1)", "__line__")}


@pytest.mark.parametrize("text", ["", "# only a comment\n", "---\n"])
def test_an_empty_yaml_file_says_so(text: str) -> None:
    with pytest.raises(DeckError) as info:
        parse_deck_text(text, games=CARD_GAMES, source="e.yaml")
    assert str(info.value) == "e.yaml: the file is empty (a deck needs game: and cards:)"


def test_found_values_are_cut_to_60_characters() -> None:
    name = "Gorgeous " * 30
    with pytest.raises(DeckError) as info:
        parse_deck_text(
            f"game: toy-battle\ncards:\n  - {{troop: Star, name: '{name}', colour: blue}}\n",
            games=CARD_GAMES,
            source="n.yaml",
        )
    (problem,) = info.value.problems
    assert problem[1].found == name.strip()  # the attribute keeps the whole value
    message = str(info.value)
    assert message.endswith("found 'Gorgeous Gorgeous Gorgeous Gorgeous Gorgeous Gorgeous Gor…'")
    assert len(message.split("found ", 1)[1]) == 60


def test_short_repr_abbreviates_nested_values() -> None:
    from games.cards.fields import short_repr

    assert short_repr("abc") == "'abc'"
    assert short_repr(["x"] * 100) == "['x', 'x', 'x', 'x', ...]"
    assert len(short_repr([[["lol"] * 9] * 9] * 9)) <= 60


@pytest.mark.parametrize(
    ("csv_text", "where"),
    [
        # The closing quote is missing: the rest of the file would become one cell.
        (
            'game,kind,name,troop,colour,text\ntoy-battle,troop,A,Star,blue,"oops\n'
            "toy-battle,troop,B,Star,red,x\ntoy-battle,troop,C,Star,red,y\n",
            "line 2",
        ),
        # A later opening quote closes the open one, followed by text.
        (
            'game,kind,name,troop,colour,text\ntoy-battle,troop,A,Star,blue,"oops\n'
            'toy-battle,troop,B,Star,red,"x"\n',
            "line 2",
        ),
        # A stray quote at the end of a later row closes it: rows 3 and 4 are swallowed.
        (
            'game,kind,name,troop,colour,text\ntoy-battle,troop,A,Star,blue,"oops\n'
            'toy-battle,troop,B,Star,red,x\ntoy-battle,troop,C,Star,red,y"\n'
            "toy-battle,troop,D,Star,red,z\n",
            "line 2",
        ),
    ],
)
def test_csv_unterminated_quote_is_an_error(csv_text: str, where: str) -> None:
    with pytest.raises(DeckError) as info:
        parse_deck_text(csv_text, games=CARD_GAMES, source="q.csv")
    assert str(info.value).startswith(f"q.csv: {where}: unterminated quoted field: ")


def test_csv_text_after_a_closing_quote_is_an_error() -> None:
    text = 'game,kind,name,troop,colour\ntoy-battle,troop,"A"x,Star,blue\n'
    with pytest.raises(DeckError) as info:
        parse_deck_text(text, games=CARD_GAMES, source="x.csv")
    assert str(info.value) == (
        "x.csv: line 2: malformed CSV: ',' expected after '\"' "
        '(a quote inside a quoted cell is written "")'
    )


def test_csv_multi_line_text_with_a_few_commas_is_fine() -> None:
    text = 'game,kind,name,troop,colour,text\ntoy-battle,troop,A,Star,blue,"Draw 1, then\nplay 1, if you can."\n'
    (card,) = parse_deck_text(text, games=CARD_GAMES, source="ok.csv").cards
    assert card.text == "Draw 1, then\nplay 1, if you can."


def test_csv_duplicate_column_names_both_columns() -> None:
    text = "game,kind,name,troop,colour,Name\ntoy-battle,troop,A,Star,blue,B\n"
    with pytest.raises(DeckError) as info:
        parse_deck_text(text, games=CARD_GAMES, source="dup.csv")
    assert str(info.value) == "dup.csv: line 1: columns 3 and 6 are both named 'name'"


def test_csv_without_card_rows_says_no_cards() -> None:
    with pytest.raises(DeckError) as info:
        parse_deck_text("game,kind,name,troop,colour\n\n", games=CARD_GAMES, source="h.csv")
    assert str(info.value) == "h.csv: line 2: no cards: the file has a header row and no card rows"
    with pytest.raises(DeckError) as empty:
        parse_deck_text("\ufeff", games=CARD_GAMES, source="e.csv")
    assert str(empty.value) == "e.csv: the file is empty (a deck needs a header row and card rows)"


def test_yaml_without_cards_says_no_cards() -> None:
    with pytest.raises(DeckError) as info:
        parse_deck_text("game: toy-battle\ncards: []\n", games=CARD_GAMES, source="n.yaml")
    assert str(info.value) == "n.yaml: header: no cards: the deck needs at least one card"


def test_default_ids_of_non_latin_names_differ_and_are_stable() -> None:
    from games.cards.fields import slugify

    names = ["Звезда", "Луна", "Αστέρι", "星", "星星", "★"]
    deck = parse_deck_text(
        "game: toy-battle\ncards:\n"
        + "".join(f"  - {{troop: Star, name: '{n}', colour: blue}}\n" for n in names),
        games=CARD_GAMES,
        source="w.yaml",
    )
    ids = [card.id for card in deck.cards]
    assert len(set(ids)) == len(names)
    assert ids[0] == "card-638a9a"  # sha256("Звезда") starts 638a9a: stable across runs
    assert all(i.startswith("card-") and len(i) == 11 for i in ids)
    assert slugify("Звезда 2") == "2-b2d126"
    assert slugify("Łódź") == "lodz" and slugify("Größe") == "grosse"
    assert slugify("Comet Lancer") == "comet-lancer"
    assert parse_deck_text(
        f"game: toy-battle\ncards:\n  - {TROOP}\n", games=CARD_GAMES, source="колода.yaml"
    ).slug.startswith("deck-")


def test_duplicate_id_names_the_line_of_the_second_card_after_a_bad_card() -> None:
    text = (
        "game: toy-battle\ncards:\n  - {troop: Star, name: S, colour: red}\n"
        "  - {troop: Zap, name: T, colour: red}\n"
        "  - {troop: Star, name: S, colour: blue}\n"
    )
    with pytest.raises(DeckError) as info:
        parse_deck_text(text, games=CARD_GAMES, source="x.yaml")
    where = {p.field: w for w, p in info.value.problems}
    assert where == {"troop": "line 4 (card 2)", "id": "line 5 (card 3)"}


def test_text_problem_accepts_visible_text_and_spaces_and_names_the_rest() -> None:
    from games.cards.fields import LINE_BREAK_LIMIT, text_problem

    six = "\n".join(["line"] * LINE_BREAK_LIMIT)
    assert text_problem("Comet Lancer ★ 3", multiline=False) is None
    assert text_problem("no\u00a0break space", multiline=False) is None  # Zs is a space
    assert text_problem(six, multiline=True) is None
    assert text_problem(six + "\nseventh", multiline=True) == "7 lines (at most 6)"
    assert text_problem("two\nlines", multiline=False) == (
        "a line break at character 4 (this field is one line)"
    )
    assert text_problem("a\u2028b", multiline=True) == "line separator U+2028 at character 2"
    assert text_problem("tab\x07bell", multiline=True) == "control character U+0007 at character 4"


def test_a_list_field_with_too_many_items_shows_them_as_the_file_wrote_them() -> None:
    text = "game: transformers\ncards:\n  - {kind: upgrade, name: A, text: t, icons: orange orange orange}\n"
    with pytest.raises(
        DeckError, match=r"field 'icons': allowed 0\.\.2 of .*; found 'orange orange orange'$"
    ):
        parse_deck_text(text, games=CARD_GAMES, source="t.yaml")


def test_a_kwak_without_text_shows_the_joker_rule_and_roxy_no_effect() -> None:
    from games.toybattle.cards import JOKER_TEXT, ToyBattleTroop, face

    kwak = face(ToyBattleTroop(name="Kwak", troop="Kwak", colour="blue"))
    assert kwak.badge.label == "JOKER" and kwak.text == (JOKER_TEXT, "text")
    assert "any enemy troop may cover it" in JOKER_TEXT  # TB-11
    own = face(ToyBattleTroop(name="Kwak", troop="Kwak", colour="red", text="Quack."))
    assert own.text == ("Quack.", "text")
    roxy = face(ToyBattleTroop(name="Roxy", troop="Roxy", colour="red"))
    assert roxy.text == ("", "text") and roxy.empty_text == "No effect."


def test_the_deck_reader_knows_only_the_card_games_it_is_given() -> None:
    """games.cards.deck imports no registry: the caller passes the card games (issue 28)."""
    text = demo_resource("toy-battle").read_text(encoding="utf-8")
    others = {slug: game for slug, game in CARD_GAMES.items() if slug != "toy-battle"}
    with pytest.raises(DeckError) as refused:
        parse_deck_text(text, games=others, source="tb.yaml")
    assert "field 'game': allowed one of pocketmodel, transformers" in str(refused.value)
    alone = parse_deck_text(text, games={"toy-battle": CARD_GAMES["toy-battle"]}, source="tb.yaml")
    assert alone.card_game is CARD_GAMES["toy-battle"] and alone.game == "toy-battle"
    assert alone == demo_deck("toy-battle") and alone.card_count == 48
    imported = subprocess.run(
        [
            sys.executable,
            "-c",
            "import games.cards.deck, sys; print('games.registry' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert imported.stdout.strip() == "False"
