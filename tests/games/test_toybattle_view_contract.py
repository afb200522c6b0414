"""The phone view (companion/views/toy-battle) and the engine speak the same JSON: terrain
slugs and names, troop names, variant flags and their defaults, effect and reason codes, and
the terrain drawing data in the view."""

from __future__ import annotations

import json
import re
from pathlib import Path

from games.toybattle import rules
from games.toybattle.game import GAME
from games.toybattle.terrains import TERRAINS

VIEW = Path(__file__).resolve().parents[2] / "companion" / "views" / "toy-battle"
HTML = (VIEW / "view.html").read_text(encoding="utf-8")
JS = (VIEW / "view.js").read_text(encoding="utf-8")


def test_the_terrain_menu_is_the_engines_terrains() -> None:
    pairs = re.findall(r'\("(\w+)", _\("([^"]+)"\)\)', HTML.split("</select>")[0])
    assert pairs == [(t.slug, t.name) for t in TERRAINS.values()]


def test_troop_names_are_the_engines() -> None:
    listed = re.search(r"const TROOPS = (\[.*?\]);", JS)
    assert listed is not None
    assert tuple(json.loads(listed.group(1))) == rules.TROOPS


def test_variant_checkboxes_are_the_flags_with_their_defaults() -> None:
    boxes = re.findall(r'<input type="checkbox" name="(\w+)"( checked)?>', HTML)
    assert {name: bool(checked) for name, checked in boxes} == rules.variant_to_json(
        rules.Variant()
    )


def test_effect_reason_and_terrain_texts_cover_the_engines_codes() -> None:
    strings = HTML.split('"effects": {')[1].split("},")[0]
    # "draw_one" is the singular text of "draw" (count 1: "draw 1 troop", not "1 troops")
    assert set(re.findall(r'"(\w+)": _\(', strings)) == set(rules.EFFECTS) | {"draw_one"}
    reasons = HTML.split('"reasons": {')[1].split("},")[0]
    assert set(re.findall(r'"(\w+)": _\(', reasons)) == set(rules.REASONS)
    terrain_rules = HTML.split('"terrain_rules": {')[1].split("},")[0]
    assert re.findall(r'"(\w+)": _\(', terrain_rules) == list(TERRAINS)
    assert '"starting player (TB-3)"' in HTML  # the purpose of the setup roll


def test_the_view_carries_the_engines_terrain() -> None:
    assert len(TERRAINS) == 8  # TB-30: the eight terrains of the box
    for slug, terrain in TERRAINS.items():
        setup = GAME.parse_setup({"type": "setup", "terrain": slug})
        view = GAME.view(GAME.start(GAME.setup_event(setup, ((1,),))), "A")
        assert view["terrain"] == terrain.to_json()
        assert json.loads(json.dumps(view))["terrain"]["objective"] == terrain.objective
        assert {"state", "legal", "terrain"} <= set(view)
        state = view["state"]
        assert state["seats"]["A"]["colour"] == "blue" and state["seats"]["B"]["colour"] == "red"
        assert state["derived"]["medals_left"] == terrain.medal_total
        assert {"draw"} == {a["type"] for a in view["legal"]} - {"place"}
