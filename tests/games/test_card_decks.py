"""Deck parsing and validation (games.cards): YAML and CSV text in, a Deck or all errors out."""

from __future__ import annotations

import subprocess
import sys

import pytest

from games.cards import DeckError, FieldError, card_url, parse_deck_text
from games.cards.pocketmodel import PocketModelCard, PocketModelUnit
from games.cards.toy_battle import ToyBattleTroop
from games.cards.transformers import TransformersBattleCard, TransformersCharacter

UNIT = "{kind: unit, name: Skiff, stars: 2, attack: 1, damage: 1, defense: 7, shields: 2, icons: Laser}"


def test_yaml_scalars_stay_text_until_their_field_converts_them() -> None:
    deck = parse_deck_text(
        "game: pocketmodel\ncards:\n"
        "  - {kind: unit, name: 007, id: '007', stars: 3, attack: 2, damage: 1, defense: 9, "
        "shields: 2, icons: [Laser, leader], ground: no}\n",
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
        parse_deck_text(text, source="bad.yaml")
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
    deck = parse_deck_text(CSV, source="troops.csv")
    skully, star = deck.cards
    assert isinstance(skully, ToyBattleTroop)
    assert skully.text == "Draw 2.\r\nOr 1 if the rack holds 7."
    assert skully.strength == 1 and skully.copies == 3
    assert star.name == "007" and star.id == "007" and star.strength == 6
    assert deck.game == "toy-battle" and deck.slug == "troops"


def test_csv_errors_name_the_line_where_the_record_starts() -> None:
    text = CSV.replace("\ufeff", "") + "toy-battle;troop;X;Blob;green;many;\r\n"
    with pytest.raises(DeckError) as info:
        parse_deck_text(text.replace(";", ","), source="t.csv")
    problems = info.value.problems
    # Record 3 starts on physical line 5 (record 1 spans lines 2 and 3).
    assert {where for where, _ in problems} == {"line 5"}
    assert sorted(p.field for _, p in problems) == ["colour", "copies", "troop"]
    copies = next(p for _, p in problems if p.field == "copies")
    assert copies.allowed == "a whole number 1..99" and copies.found == "many"


def test_csv_game_column_must_agree() -> None:
    text = "game,name,troop,colour\ntoy-battle,A,Star,red\npocketmodel,B,Star,red\n"
    with pytest.raises(DeckError, match="all rows: field 'game': allowed the same value"):
        parse_deck_text(text, source="m.csv")


def test_transformers_character_sides_and_battle_card_rules_tf1_tf2() -> None:
    deck = parse_deck_text(
        "game: transformers\ncards:\n"
        "  - {kind: character, name: Quay, faction: decepticon, stars: 8, health: 9,"
        " alt_attack: 2, alt_defense: 1, bot_attack: 3, bot_defense: 2, bot_text: Grr}\n"
        "  - {kind: upgrade, upgrade: Armor, name: Plate, icons: blue blue, text: +2 Defense}\n",
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
    legal = parse_deck_text(_pm_deck("  - " + UNIT + "\n", 3, 10), source="a.yaml")
    assert legal.legality_problems() == []
    big_unit = UNIT.replace("stars: 2", "stars: 5").replace("Skiff", "Big")[:-1] + ", copies: 7}"
    bad = parse_deck_text(_pm_deck("  - " + big_unit + "\n", 4, 7), source="b.yaml")
    found = {(p.field, p.found) for p in bad.legality_problems()}
    assert ("stars", 35) in found  # fleet of 35 stars > 30
    assert ("copies", 28) in found  # 28 cards < 30
    assert ("copies", 4) in found  # 4 copies > 3


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
    deck = parse_deck_text(text, source="t.yaml")
    assert deck.legality_problems() == []  # 25 stars: legal by the seed's reading
    from games.cards.transformers import legality_problems

    # The official reading also counts the 42 stars on battle cards.
    assert [p.found for p in legality_problems(deck.cards, count_battle_stars=True)] == [67]
    twice = text.replace("name: B, faction", "name: B, copies: 2, faction")
    found = {
        (p.field, p.found) for p in parse_deck_text(twice, source="t.yaml").legality_problems()
    }
    assert ("stars", 37) in found and ("copies", 2) in found


def test_tb1_needs_three_of_each_type_per_colour() -> None:
    from games.cards.toy_battle import TROOP_STRENGTHS

    rows = "".join(
        f'  - {{troop: "{t}", name: "{t}", colour: blue, copies: 3}}\n' for t in TROOP_STRENGTHS
    )
    deck = parse_deck_text("game: toy-battle\ncards:\n" + rows, source="tb.yaml")
    assert deck.card_count == 24 and deck.legality_problems() == []
    short = parse_deck_text(
        "game: toy-battle\ncards:\n" + rows.replace("copies: 3}", "copies: 2}", 1), source="tb.yaml"
    )
    assert [(p.allowed, p.found) for p in short.legality_problems()] == [
        ("3 blue Kwak troops (TB-1)", 2)
    ]


def test_duplicate_ids_and_unknown_extension_are_errors() -> None:
    with pytest.raises(DeckError, match="field 'id'"):
        parse_deck_text(
            "game: toy-battle\ncards:\n  - {troop: Star, name: S, colour: red}\n"
            "  - {troop: Star, name: S, colour: blue}\n",
            source="x.yaml",
        )
    with pytest.raises(DeckError, match=r"field 'extension'.*found '\.txt'"):
        parse_deck_text("", source="deck.txt")


def test_card_url_scheme() -> None:
    assert card_url("http://10.0.0.2:5000/", "toy-battle", "troops", "cap-n") == (
        "http://10.0.0.2:5000/card/toy-battle/troops/cap-n"
    )


def test_games_cards_is_pure() -> None:
    code = (
        "import sys, games.cards; bad = {'reportlab', 'flask', 'cadquery', 'segno'}"
        " & set(sys.modules); print(sorted(bad))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
