"""PocketModel rule scenarios, one (or more) per rule id PM-5..PM-40 and per variant flag."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from games.cards.deck import parse_deck_text
from games.pocketmodel import legal, rules
from games.pocketmodel.actions import Fleet, FleetUnit, action_from_json
from games.pocketmodel.codec import state_from_json, state_to_json
from games.pocketmodel.fleet import EXAMPLE_DECK, STANDARD_FLEET
from games.pocketmodel.game import GAME
from games.pocketmodel.messages import MESSAGES
from games.pocketmodel.state import State, Variant
from games.protocol import IllegalAction, MalformedAction, NotYourTurn, SetupError
from games.registry import CARD_GAMES
from tests.games.playouts import tried_refusals

DEMO = Path(__file__).resolve().parents[2] / "games" / "pocketmodel" / "demo" / "pocketmodel.yaml"


def unit(
    name: str,
    stars: int = 2,
    attack: int = 2,
    damage: int = 1,
    defense: int = 7,
    shields: int = 2,
    icons: str = "",
    deploy: bool = True,
) -> FleetUnit:
    return FleetUnit(
        name=name,
        stars=stars,
        attack=attack,
        damage=damage,
        defense=defense,
        shields=shields,
        icons=tuple(icons.split()),
        deploy=deploy,
    )


def table(
    a: list[FleetUnit],
    b: list[FleetUnit],
    variant: Variant | None = None,
    first: str = "A",
    deck: bool = True,
) -> State:
    dl = EXAMPLE_DECK if deck else None
    return rules.new_game(
        variant or Variant(),
        (Fleet(units=tuple(a), deck=dl), Fleet(units=tuple(b), deck=dl)),
        first,
    )


def do(state: State, seat: str, action: dict[str, Any], *faces: tuple[int, ...]) -> State:
    parsed = action_from_json(action)
    assert rules.check(state, seat, parsed) == rules.dice_requests(state, parsed)
    after = rules.apply(state, seat, parsed, tuple(faces))
    assert state_from_json(json.loads(json.dumps(state_to_json(after)))) == after
    return after


def place(state: State, **places: str) -> State:
    """Put units into zones directly (scenario set-up)."""
    return replace(
        state, units=tuple(replace(u, place=places.get(u.id, u.place)) for u in state.units)
    )


def refused(
    rule: str, state: State, seat: str, action: dict[str, Any], *faces: tuple[int, ...]
) -> None:
    with pytest.raises(IllegalAction) as error:
        rules.apply(state, seat, action_from_json(action), tuple(faces))
    assert error.value.rule == rule, str(error.value)
    assert error.value.message_id in MESSAGES.texts, str(error.value)
    assert str(error.value).endswith(f"({rule})")


def battle_to_roll(state: State, pairs: list[list[str]]) -> State:
    state = do(state, "A", {"type": "combat", "pairs": pairs})
    state = do(state, "A", {"type": "pass"})
    return do(state, "B", {"type": "pass"})


def test_pm5_fleet_over_30_stars_and_small_decks_are_refused_with_the_numbers() -> None:
    big = Fleet(units=tuple(unit(f"U{n}", stars=5, deploy=n < 4) for n in range(7)))
    with pytest.raises(SetupError, match=r"fleet has 35 stars, at most 30 \(PM-5\)"):
        table(list(big.units), [unit("x")])
    thin = replace(EXAMPLE_DECK, cards=EXAMPLE_DECK.cards[:5])
    with pytest.raises(SetupError, match=r"deck has 15 cards, at least 30 \(PM-5\)"):
        rules.new_game(Variant(), (Fleet(units=(unit("a"),), deck=thin), None), None)
    many = replace(
        EXAMPLE_DECK, cards=(replace(EXAMPLE_DECK.cards[0], copies=4), *EXAMPLE_DECK.cards[1:])
    )
    with pytest.raises(SetupError, match=r"4 copies of 'Steady', at most 3 \(PM-5\)"):
        rules.new_game(Variant(), (Fleet(units=(unit("a"),), deck=many), None), None)


def test_pm5_a_deck_file_becomes_a_fleet_and_an_illegal_file_is_refused() -> None:
    text = DEMO.read_text(encoding="utf-8")
    deck = parse_deck_text(
        text, games=CARD_GAMES, source="pocketmodel.yaml", default_slug="pocketmodel"
    )
    action = GAME.setup_from_deck(deck, "A")
    assert action["type"] == "fleet" and len(action["units"]) == 8
    assert sum(u["stars"] for u in action["units"]) == 29
    assert sum(u["stars"] for u in action["units"] if u["deploy"]) == 20  # PM-8, D12
    assert sum(c["copies"] for c in action["deck"]["cards"]) == 31
    heavy = text.replace("stars: 2, attack: 1, damage: 1", "stars: 5, attack: 1, damage: 1")
    bad = parse_deck_text(heavy, games=CARD_GAMES, source="heavy.yaml", default_slug="heavy")
    with pytest.raises(SetupError, match=r"fleet has 32 stars, at most 30 \(PM-5\)"):
        GAME.setup_from_deck(bad, "A")


def test_pm6_zones_and_reserve_and_pm8_deployment() -> None:
    state = table([unit("a", deploy=True), unit("r", deploy=False)], [unit("b")])
    places = {u.id: u.place for u in state.units}
    assert places == {"A1": "home_A", "A2": "reserve", "B1": "home_B"}
    with pytest.raises(SetupError, match=r"deployed units have 22 stars, at most 20 \(PM-8\)"):
        table([unit(f"u{n}", stars=5) for n in range(4)] + [unit("x")], [unit("b")])
    with pytest.raises(SetupError, match=r"\(PM-8\)"):
        table([unit("a", deploy=False)], [unit("b")])


def test_pm7_three_face_down_objectives_each() -> None:
    state = table([unit("a")], [unit("b")])
    for seat in "AB":
        player = state.player(seat)
        assert player is not None
        assert [(o.slot, o.status) for o in player.objectives] == [
            (1, "face_down"),
            (2, "face_down"),
            (3, "face_down"),
        ]


def test_pm9_the_second_fleet_rolls_the_first_player() -> None:
    state = GAME.start(GAME.setup_event(GAME.parse_setup({"type": "setup"}), ()))
    assert state.phase == "fleets" and GAME.to_act(state) == "A"
    fleet = GAME.parse_action(
        {"type": "fleet", **json.loads(json.dumps(GAME.action_to_json(STANDARD_FLEET)))}
    )
    assert GAME.dice_for(state, "B", fleet) == ()  # either seat may bring theirs first (D8)
    state = GAME.apply(state, "B", fleet)
    (request,) = GAME.dice_for(state, "A", fleet)
    assert (request.count, request.sides, request.purpose) == (1, 2, "first player (PM-9)")
    state = GAME.apply(state, "A", fleet, ((2,),))
    assert (state.phase, state.active, state.first, GAME.to_act(state)) == ("main", "B", "B", "B")


def test_pm10_play_an_objective_once_per_turn_face_up() -> None:
    state = table([unit("a")], [unit("b")])
    state = do(state, "A", {"type": "objective", "slot": 2, "card": "depot"})
    objective = state.player("A").objectives[1]  # type: ignore[union-attr]
    assert (objective.status, objective.name, objective.defense, objective.stars) == (
        "face_up",
        "Depot",
        10,
        3,
    )
    refused("PM-10", state, "A", {"type": "objective", "slot": 1, "card": "beacon"})
    fresh = table([unit("a")], [unit("b")])
    refused(
        "PM-10", fresh, "A", {"type": "objective", "slot": 1, "card": "steady"}
    )  # a combat card
    nodeck = table([unit("a")], [unit("b")], deck=False)
    refused("PM-10", nodeck, "A", {"type": "objective", "slot": 1, "card": "depot"})


def test_pm11_move_up_to_5_stars_to_an_adjacent_zone_then_the_turn_ends() -> None:
    state = table([unit("a", stars=3), unit("b", stars=2), unit("c", stars=1)], [unit("x")])
    refused("PM-11", state, "A", {"type": "move", "units": ["A1", "A2", "A3"], "to": "contested"})
    refused("PM-11", state, "A", {"type": "move", "units": ["A1"], "to": "home_B"})
    refused("PM-11", state, "A", {"type": "move", "units": ["B1"], "to": "contested"})
    with pytest.raises(NotYourTurn):
        rules.apply(
            state, "B", action_from_json({"type": "move", "units": ["B1"], "to": "contested"})
        )
    state = do(state, "A", {"type": "move", "units": ["A1", "A2"], "to": "contested"})
    assert [u.place for u in state.units[:3]] == ["contested", "contested", "home_A"]
    assert (state.phase, state.action.kind, state.action.stars, state.action.budget) == (
        "end",
        "move",
        5,
        5,
    )  # type: ignore[union-attr]
    refused("PM-11", state, "A", {"type": "move", "units": ["A3"], "to": "contested"})
    state = do(state, "A", {"type": "end_turn"})
    assert (state.active, state.turn, state.phase, state.action) == ("B", 2, "main", None)


def test_d1_units_from_both_sides_of_the_contested_zone_move_together() -> None:
    state = place(table([unit("a"), unit("b")], [unit("x")]), A2="home_B")
    state = do(state, "A", {"type": "move", "units": ["A1", "A2"], "to": "contested"})
    assert {u.place for u in state.units if u.seat == "A"} == {"contested"}


def test_pm12_combat_needs_the_same_zone_and_5_stars_of_attackers() -> None:
    state = place(
        table([unit("a", stars=3), unit("b", stars=3)], [unit("x"), unit("y")]),
        A1="contested",
        A2="contested",
        B1="contested",
    )
    refused("PM-12", state, "A", {"type": "combat", "pairs": [["A1", "B2"]]})  # B2 at home
    refused(
        "PM-12", state, "A", {"type": "combat", "pairs": [["A1", "B1"], ["A2", "B1"]]}
    )  # 6 stars
    refused("PM-12", state, "A", {"type": "combat", "pairs": [["A1", "A2"]]})
    refused("PM-6", state, "A", {"type": "combat", "pairs": [["A1", "B9"]]})
    state = do(state, "A", {"type": "combat", "pairs": [["A1", "B1"]]})
    assert (state.phase, state.battle.step, state.action.stars) == ("battle", "attacker_card", 3)  # type: ignore[union-attr]


def test_pm13_strikers_stand_in_the_enemy_home_zone() -> None:
    state = place(table([unit("a"), unit("b")], [unit("x")]), A1="home_B")
    refused("PM-13", state, "A", {"type": "strike", "units": ["A1", "A2"]})
    state = do(state, "A", {"type": "strike", "units": ["A1"]})
    assert (state.phase, state.strike.step, state.action.kind) == ("strike", "target", "strike")  # type: ignore[union-attr]


def test_pm14_carrier_brings_2_stars_of_reserve_into_its_zone() -> None:
    state = place(
        table(
            [
                unit("c", stars=5, icons="Carrier"),
                unit("r1", stars=1, deploy=False),
                unit("r2", stars=1, deploy=False),
                unit("r3", stars=1, deploy=False),
            ],
            [unit("x")],
        ),
        A1="contested",
    )
    refused("PM-14", state, "A", {"type": "carrier", "carrier": "A1", "units": ["A2", "A1"]})
    with pytest.raises(MalformedAction):
        action_from_json({"type": "carrier", "carrier": "A1", "units": ["A2", "A3", "A4"]})
    state = do(state, "A", {"type": "carrier", "carrier": "A1", "units": ["A2", "A3"]})
    assert [u.place for u in state.units[:4]] == ["contested", "contested", "contested", "reserve"]
    assert (state.phase, state.action.stars, state.action.budget) == ("end", 2, 2)  # type: ignore[union-attr]
    plain = table([unit("c", stars=5), unit("r", stars=1, deploy=False)], [unit("x")])
    refused("PM-14", plain, "A", {"type": "carrier", "carrier": "A1", "units": ["A2"]})


def test_pm14_turbolaser_adds_1_damage_against_4_and_5_star_units_only() -> None:
    for stars, damage in ((4, 3), (5, 3), (3, 2)):
        state = place(
            table(
                [unit("t", stars=4, attack=5, damage=2, icons="Turbolaser", shields=9)],
                [unit("big", stars=stars, defense=7, shields=9)],
            ),
            A1="contested",
            B1="contested",
        )
        state = do(battle_to_roll(state, [["A1", "B1"]]), "A", {"type": "roll"}, (1, 1), (1, 1))
        result = state.battle.result  # type: ignore[union-attr]
        assert result.attacker.attack_total == 7 and result.attacker.hits
        assert (result.attacker.damage, result.attacker.turbolaser) == (damage, stars >= 4)


def test_pm20_card_order_attacker_defender_then_attacker_again() -> None:
    state = place(table([unit("a", icons="Laser")], [unit("b")]), A1="contested", B1="contested")
    state = do(state, "A", {"type": "combat", "pairs": [["A1", "B1"]]})
    with pytest.raises(NotYourTurn):
        rules.apply(state, "B", action_from_json({"type": "pass"}))
    state = do(state, "A", {"type": "pass"})
    assert rules.to_act(state) == "B"
    state = do(state, "B", {"type": "play", "card": "brace"})
    assert (state.battle.step, rules.to_act(state)) == ("attacker_again", "A")  # type: ignore[union-attr]
    state = do(state, "A", {"type": "play", "card": "overdrive"})
    assert state.battle.step == "roll"  # type: ignore[union-attr]
    both = place(table([unit("a")], [unit("b")]), A1="contested", B1="contested")
    both = do(both, "A", {"type": "combat", "pairs": [["A1", "B1"]]})
    both = do(both, "A", {"type": "play", "attack": 1})
    both = do(both, "B", {"type": "play", "card": "brace"})
    assert both.battle.step == "roll"  # type: ignore[union-attr]  (the attacker had played)


def test_pm20_only_combat_cards_of_the_deck_list() -> None:
    state = place(table([unit("a")], [unit("b")]), A1="contested", B1="contested")
    state = do(state, "A", {"type": "combat", "pairs": [["A1", "B1"]]})
    refused("PM-20", state, "A", {"type": "play", "card": "depot"})
    refused("PM-20", state, "A", {"type": "play", "card": "no-such"})


def test_pm21_pm22_simultaneous_attacks_with_bonuses_by_colour() -> None:
    state = place(
        table(
            [unit("a", attack=3, damage=1, defense=8, shields=5, icons="Laser")],
            [unit("b", attack=2, damage=2, defense=9, shields=5)],
        ),
        A1="contested",
        B1="contested",
    )
    state = do(state, "A", {"type": "combat", "pairs": [["A1", "B1"]]})
    state = do(state, "A", {"type": "play", "card": "overdrive"})  # +2 red Attack, +1 yellow Damage
    state = do(state, "B", {"type": "play", "card": "brace"})  # +3 blue Defense
    (att, dfn) = rules.check(state, "A", action_from_json({"type": "roll"}))
    assert (att.purpose, dfn.purpose, att.count, att.sides) == (
        "attacker's 2d6 (PM-21)",
        "defender's 2d6 (PM-21)",
        2,
        6,
    )
    state = do(state, "A", {"type": "roll"}, (3, 4), (2, 2))
    r = state.battle.result  # type: ignore[union-attr]
    assert (r.attacker.dice, r.attacker.attack_total, r.attacker.defense_total) == (7, 12, 12)
    assert r.attacker.hits and r.attacker.damage == 2  # PM-22: >= hits; 1 + 1 yellow
    assert (r.defender.attack_total, r.defender.defense_total, r.defender.hits) == (6, 8, False)
    state = do(state, "A", {"type": "confirm"})
    assert [u.counters for u in state.units] == [0, 2]
    assert state.phase == "end" and state.battle is None


def test_pm22_a_total_below_the_defense_misses_and_both_can_hit() -> None:
    state = place(
        table(
            [unit("a", attack=2, damage=1, defense=7, shields=5)],
            [unit("b", attack=2, damage=1, defense=7, shields=5)],
        ),
        A1="contested",
        B1="contested",
    )
    state = do(battle_to_roll(state, [["A1", "B1"]]), "A", {"type": "roll"}, (2, 2), (1, 3))
    r = state.battle.result  # type: ignore[union-attr]
    assert (r.attacker.attack_total, r.attacker.hits, r.defender.attack_total, r.defender.hits) == (
        6,
        False,
        6,
        False,
    )
    state = place(
        table(
            [unit("a", attack=2, damage=1, defense=7, shields=5)],
            [unit("b", attack=2, damage=3, defense=7, shields=5)],
        ),
        A1="contested",
        B1="contested",
    )
    state = do(
        do(battle_to_roll(state, [["A1", "B1"]]), "A", {"type": "roll"}, (2, 3), (4, 4)),
        "A",
        {"type": "confirm"},
    )
    assert [u.counters for u in state.units] == [3, 1]  # both hit at once


def test_pm23_modifiers_change_totals_and_damage() -> None:
    state = place(
        table([unit("a", attack=2, damage=1, shields=5)], [unit("b", shields=5)]),
        A1="contested",
        B1="contested",
    )
    state = battle_to_roll(state, [["A1", "B1"]])
    state = do(state, "A", {"type": "modify", "unit": "A1", "attack": 1, "damage": 2})
    state = do(state, "A", {"type": "modify", "unit": "B1", "defense": -1})
    refused("PM-21", state, "A", {"type": "modify", "unit": "A9", "attack": 1})
    state = do(state, "A", {"type": "roll"}, (1, 1), (1, 1))
    r = state.battle.result  # type: ignore[union-attr]
    assert (r.attacker.attack_total, r.attacker.defense_total, r.attacker.damage) == (5, 6, 0)
    state = place(
        table([unit("a", attack=2, damage=1, shields=5)], [unit("b", shields=5)]),
        A1="contested",
        B1="contested",
    )
    state = do(
        battle_to_roll(state, [["A1", "B1"]]), "A", {"type": "modify", "unit": "A1", "damage": 2}
    )
    state = do(state, "A", {"type": "roll"}, (3, 3), (1, 1))
    assert state.battle.result.attacker.damage == 3  # type: ignore[union-attr]


@pytest.mark.parametrize(("flag", "survives"), [(False, False), (True, True)])
def test_pm24_destroyed_at_shields_or_only_above_with_the_official_flag(
    flag: bool, survives: bool
) -> None:
    variant = Variant(destroy_above_shields=flag)
    state = place(
        table([unit("a", attack=9, damage=2)], [unit("b", shields=2), unit("c")], variant),
        A1="contested",
        B1="contested",
    )
    state = do(battle_to_roll(state, [["A1", "B1"]]), "A", {"type": "roll"}, (6, 6), (1, 1))
    assert state.battle.result.destroyed == (() if survives else ("B1",))  # type: ignore[union-attr]
    state = do(state, "A", {"type": "confirm"})
    b1 = state.unit("B1")
    assert b1 is not None
    if survives:
        assert (b1.place, b1.counters, b1.destroyed) == ("contested", 2, False)
        state = do(
            do(state, "A", {"type": "end_turn"}), "B", {"type": "counter", "unit": "B1", "delta": 1}
        )
        b1 = state.unit("B1")
        assert b1 is not None
    assert (b1.place, b1.counters, b1.destroyed) == ("reserve", 0, True)


def test_pm24_counters_are_table_actions_for_either_seat() -> None:
    state = table([unit("a", shields=3)], [unit("b")])
    state = do(state, "B", {"type": "counter", "unit": "A1", "delta": 1})  # not B's turn: fine (D5)
    state = do(state, "A", {"type": "counter", "unit": "A1", "delta": 1})
    assert state.unit("A1").counters == 2  # type: ignore[union-attr]
    state = do(state, "A", {"type": "counter", "unit": "A1", "delta": -1})
    assert state.unit("A1").counters == 1  # type: ignore[union-attr]
    state = do(state, "A", {"type": "counter", "unit": "A1", "delta": -1})
    refused("PM-23", state, "A", {"type": "counter", "unit": "A1", "delta": -1})
    reserve = table([unit("a"), unit("r", deploy=False)], [unit("b")])
    refused("PM-6", reserve, "A", {"type": "counter", "unit": "A2", "delta": 1})
    refused("PM-6", reserve, "A", {"type": "counter", "unit": "Z9", "delta": 1})


@pytest.mark.parametrize(("gate", "counts"), [(None, True), (True, False), (False, True)])
def test_pm25_a_cards_bonus_counts_and_only_the_flag_gates_it(
    gate: bool | None, counts: bool
) -> None:
    """PM-25: the bonus always counts by default (None: the default table); the missing icon
    is reported either way (the card's ability is not the unit's)."""
    variant = Variant() if gate is None else Variant(icon_gates_bonus=gate)
    state = place(
        table([unit("a", attack=2, icons="Troops")], [unit("b", defense=7)], variant),
        A1="contested",
        B1="contested",
    )
    state = do(state, "A", {"type": "combat", "pairs": [["A1", "B1"]]})
    state = do(state, "A", {"type": "play", "card": "overdrive"})  # needs Laser
    play = state.battle.play_attacker  # type: ignore[union-attr]
    assert (play.applies, play.missing) == (counts, ("Laser",))  # type: ignore[union-attr]
    state = do(state, "B", {"type": "pass"})
    state = do(state, "A", {"type": "roll"}, (1, 1), (1, 1))
    assert state.battle.result.attacker.attack_total == (6 if counts else 4)  # type: ignore[union-attr]


def test_pm25_gold_icons_gate_nothing_and_green_icons_on_the_unit_count() -> None:
    state = place(table([unit("a", icons="Leader")], [unit("b")]), A1="contested", B1="contested")
    state = do(state, "A", {"type": "combat", "pairs": [["A1", "B1"]]})
    state = do(state, "A", {"type": "play", "card": "rally"})  # Leader + Force
    assert state.battle.play_attacker.applies  # type: ignore[union-attr]


def test_pm26_battles_follow_in_sequence_and_a_destroyed_unit_skips_its_pair() -> None:
    state = place(
        table(
            [unit("a", stars=2, attack=9, damage=5), unit("b", stars=2, attack=9, damage=5)],
            [unit("x", shields=2), unit("y", shields=2)],
        ),
        A1="contested",
        A2="contested",
        B1="contested",
        B2="contested",
    )
    state = battle_to_roll(state, [["A1", "B1"], ["A2", "B1"]])
    state = do(do(state, "A", {"type": "roll"}, (6, 6), (1, 1)), "A", {"type": "confirm"})
    assert state.unit("B1").destroyed and state.phase == "end"  # type: ignore[union-attr]  (pair 2 skipped, D4)
    state = place(
        table(
            [unit("a", attack=9, damage=1, shields=5), unit("b", attack=9, damage=1, shields=5)],
            [unit("x", shields=5), unit("y", shields=5)],
        ),
        A1="contested",
        A2="contested",
        B1="contested",
        B2="contested",
    )
    state = battle_to_roll(state, [["A1", "B1"], ["A2", "B2"]])
    state = do(do(state, "A", {"type": "roll"}, (6, 6), (1, 1)), "A", {"type": "confirm"})
    assert (state.battle.index, state.battle.step, state.battle.attacker) == (
        1,
        "attacker_card",
        "A2",
    )  # type: ignore[union-attr]


def strike_ready(variant: Variant | None = None) -> State:
    state = place(
        table(
            [unit("s", attack=4), unit("t", attack=4)],
            [unit("b"), unit("r", stars=2, deploy=False), unit("q", stars=4, deploy=False)],
            variant,
        ),
        A1="home_B",
        A2="home_B",
    )
    return do(state, "A", {"type": "strike", "units": ["A1", "A2"]})


def test_pm30_the_struck_objective_is_turned_face_up_by_its_owner() -> None:
    state = strike_ready()
    state = do(state, "A", {"type": "target", "slot": 2})
    assert (state.strike.step, rules.to_act(state)) == ("reveal", "B")  # type: ignore[union-attr]
    refused("PM-30", state, "B", {"type": "reveal", "card": "nope"})
    state = do(state, "B", {"type": "reveal", "card": "beacon"})
    objective = state.player("B").objectives[1]  # type: ignore[union-attr]
    assert (objective.status, objective.name, objective.defense, objective.stars) == (
        "face_up",
        "Beacon",
        9,
        2,
    )
    assert rules.to_act(state) == "A"


def test_pm31_strike_total_against_the_objective_defense() -> None:
    state = do(
        do(strike_ready(), "A", {"type": "target", "slot": 1}),
        "B",
        {"type": "reveal", "card": "depot"},
    )
    (request,) = rules.check(state, "A", action_from_json({"type": "roll"}))
    assert request.purpose == "strike 2d6 (PM-31)"
    missed = do(state, "A", {"type": "roll"}, (2, 3))
    r = missed.strike.result  # type: ignore[union-attr]
    assert (r.strike_total, r.defense_total, r.destroyed) == (9, 10, False)
    missed = do(missed, "A", {"type": "confirm"})
    assert missed.player("B").objectives[0].status == "face_up"  # type: ignore[union-attr]
    # PM-13: the strike attacks one objective: the second striker rolls against slot 1 too
    assert (missed.strike.index, missed.strike.step, missed.strike.slot) == (1, "roll", 1)  # type: ignore[union-attr]
    hit = do(state, "A", {"type": "modify", "unit": None, "defense": -1})
    hit = do(hit, "A", {"type": "roll"}, (2, 3))
    assert hit.strike.result.destroyed  # type: ignore[union-attr]


def test_pm32_reinforcements_up_to_the_destroyed_cards_stars() -> None:
    state = do(
        do(strike_ready(), "A", {"type": "target", "slot": 1}),
        "B",
        {"type": "reveal", "card": "depot"},
    )
    state = do(do(state, "A", {"type": "roll"}, (6, 6)), "A", {"type": "confirm"})
    assert state.player("B").objectives[0].status == "destroyed"  # type: ignore[union-attr]
    assert (state.strike.step, state.strike.reinforce_stars, rules.to_act(state)) == (
        "reinforce",
        3,
        "B",
    )  # type: ignore[union-attr]
    refused("PM-32", state, "B", {"type": "reinforce", "units": ["B3"]})  # 4 stars > 3
    refused("PM-32", state, "B", {"type": "reinforce", "units": ["B2", "B3"]})
    state = do(state, "B", {"type": "reinforce", "units": ["B2"]})
    assert state.unit("B2").place == "home_B"  # type: ignore[union-attr]
    # PM-13: the one objective is destroyed, so the strike is over (A2 does not strike)
    assert (state.phase, state.strike, rules.to_act(state)) == ("end", None, "A")


def test_pm32_without_deck_the_owner_types_defense_and_stars() -> None:
    state = place(
        table([unit("s", attack=4)], [unit("b"), unit("r", stars=1, deploy=False)], deck=False),
        A1="home_B",
    )
    state = do(
        do(state, "A", {"type": "strike", "units": ["A1"]}), "A", {"type": "target", "slot": 3}
    )
    state = do(state, "B", {"type": "reveal", "defense": 8, "stars": 1})
    state = do(do(state, "A", {"type": "roll"}, (2, 2)), "A", {"type": "confirm"})
    assert state.strike.step == "reinforce"  # type: ignore[union-attr]
    state = do(state, "B", {"type": "reinforce", "units": []})
    assert state.phase == "end" and state.unit("B2").place == "reserve"  # type: ignore[union-attr]


def test_pm40_no_objectives_left_loses() -> None:
    state = place(table([unit("s", attack=9)], [unit("b")]), A1="home_B")
    for slot in (1, 2, 3):
        state = do(state, "A", {"type": "strike", "units": ["A1"]})
        state = do(state, "A", {"type": "target", "slot": slot})
        state = do(state, "B", {"type": "reveal", "card": "beacon"})
        state = do(do(state, "A", {"type": "roll"}, (6, 6)), "A", {"type": "confirm"})
        if slot < 3:
            state = do(
                do(state, "A", {"type": "end_turn"}),
                "B",
                {"type": "move", "units": ["B1"], "to": "contested"},
            )
            state = do(state, "B", {"type": "end_turn"})
            state = place(state, B1="home_B")
    outcome = GAME.outcome(state)
    assert outcome is not None and (outcome.winner, outcome.reason, outcome.rule) == (
        "A",
        "no_objectives",
        "PM-40",
    )
    assert GAME.to_act(state) is None and GAME.legal_actions(state, "A") == []
    refused("PM-40", state, "A", {"type": "end_turn"})


def test_pm40_no_units_in_play_loses() -> None:
    """(Both at once: a draw, D7, in :func:`test_pm40_flag_double_loss_active_wins`.)"""
    state = place(
        table(
            [unit("a", attack=9, damage=3, shields=2), unit("r", deploy=False)],
            [unit("b", attack=9, damage=1, shields=2)],
        ),
        A1="contested",
        B1="contested",
    )
    state = do(
        do(battle_to_roll(state, [["A1", "B1"]]), "A", {"type": "roll"}, (6, 6), (1, 1)),
        "A",
        {"type": "confirm"},
    )
    outcome = GAME.outcome(state)
    assert outcome is not None and (outcome.winner, outcome.reason) == ("A", "no_units")


def test_pieces_of_card_finds_the_units_of_a_printed_card() -> None:
    text = DEMO.read_text(encoding="utf-8")
    deck = parse_deck_text(
        text, games=CARD_GAMES, source="pocketmodel.yaml", default_slug="pocketmodel"
    )
    fleet = GAME.parse_action(GAME.setup_from_deck(deck, "A"))
    state = rules.new_game(Variant(), (fleet, fleet), "A")  # type: ignore[arg-type]
    card = fleet.units[0].card  # type: ignore[union-attr]
    assert GAME.pieces_of_card(state, deck.slug, card) == ["A1", "B1"]
    assert GAME.pieces_of_card(state, "other-deck", card) == []
    reserve_card = fleet.units[-1].card  # type: ignore[union-attr]
    assert GAME.pieces_of_card(state, deck.slug, reserve_card) == ["A8", "B8"]
    # both brought the same deck: a scan opens the scanner's own unit first
    assert GAME.pieces_of_card(state, deck.slug, card, "B") == ["B1", "A1"]
    assert GAME.pieces_of_card(state, deck.slug, card, "A") == ["A1", "B1"]


def test_malformed_actions_name_the_field() -> None:
    for bad, field in [
        ({"type": "counter", "unit": "A1", "delta": 2}, "delta"),
        ({"type": "move", "units": ["A1"], "to": "moon"}, "to"),
        ({"type": "play", "attack": 12}, "attack"),
        (
            {
                "type": "fleet",
                "units": [
                    {"name": "x", "stars": 6, "attack": 1, "damage": 1, "defense": 1, "shields": 1}
                ],
            },
            "stars",
        ),
        ({"type": "move", "units": ["A1", "A1"], "to": "contested"}, "twice"),
    ]:
        with pytest.raises(MalformedAction, match=field):
            action_from_json(bad)


@pytest.mark.parametrize("objective_first", [False, True])
def test_turn_a_player_may_pass_the_action(objective_first: bool) -> None:
    """The seed: "Während seines Zuges darf ein Spieler zwei Dinge tun: 1. Ein Ziel ausspielen.
    2. Eine dieser drei Aktionen durchführen": both are optional, so the turn may end with no
    action, before or after an objective; the flag ``action_required`` refuses it."""
    state = table([unit("a")], [unit("b")])
    if objective_first:
        card = next(c.id for c in EXAMPLE_DECK.cards if c.type == "objective")
        state = do(state, "A", {"type": "objective", "slot": 1, "card": card})
    assert action_from_json({"type": "end_turn"}) in legal.legal_actions(state, "A")
    passed = do(state, "A", {"type": "end_turn"})
    assert (passed.active, passed.turn, passed.phase, passed.objective_played) == (
        "B",
        2,
        "main",
        False,
    )
    assert passed.units == state.units
    strict = replace(state, variant=Variant(action_required=True))
    assert action_from_json({"type": "end_turn"}) not in legal.legal_actions(strict, "A")
    refused("PM-11", strict, "A", {"type": "end_turn"})


def _objectives(state: State, seat: str) -> list[str]:
    return [o.status for o in state.player(seat).objectives]  # type: ignore[union-attr]


def test_pm13_a_strike_with_two_strikers_hits_exactly_one_objective() -> None:
    """Seed: "Zielschlagaktion: Greife eines der Ziele des Gegners an" (attack ONE of the
    opponent's objectives) and "wählt das Ziel aus, das er angreifen will": both strikers
    attack slot 1; the first misses, the second destroys it; slots 2 and 3 stay face down."""
    state = do(strike_ready(), "A", {"type": "target", "slot": 1})
    state = do(state, "B", {"type": "reveal", "card": "depot"})  # defense 10
    state = do(do(state, "A", {"type": "roll"}, (1, 1)), "A", {"type": "confirm"})  # 4+2 < 10
    assert (state.strike.unit, state.strike.step, state.strike.slot) == ("A2", "roll", 1)  # type: ignore[union-attr]
    refused("PM-30", state, "A", {"type": "target", "slot": 2})
    state = do(do(state, "A", {"type": "roll"}, (6, 6)), "A", {"type": "confirm"})  # 4+12
    assert _objectives(state, "B") == ["destroyed", "face_down", "face_down"]
    state = do(state, "B", {"type": "reinforce", "units": []})
    assert (state.phase, state.strike) == ("end", None)
    assert _objectives(state, "B") == ["destroyed", "face_down", "face_down"]


def test_pm13_both_strikers_hitting_still_destroy_one_objective() -> None:
    """The first striker destroys the objective: the strike is over, the second never rolls."""
    state = do(strike_ready(), "A", {"type": "target", "slot": 2})
    state = do(state, "B", {"type": "reveal", "card": "beacon"})
    state = do(do(state, "A", {"type": "roll"}, (6, 6)), "A", {"type": "confirm"})
    state = do(state, "B", {"type": "reinforce", "units": ["B2"]})
    assert (state.phase, state.strike) == ("end", None)
    assert _objectives(state, "B") == ["face_down", "destroyed", "face_down"]
    refused("PM-30", state, "A", {"type": "target", "slot": 1})


def test_pm13_flag_each_striker_picks_objective_destroys_two() -> None:
    """The former reading (flag ``each_striker_picks_objective``): each striker picks its own
    target, so two strikers destroy objectives 1 and 2 in one action."""
    state = strike_ready(Variant(each_striker_picks_objective=True))
    state = do(state, "A", {"type": "target", "slot": 1})
    state = do(state, "B", {"type": "reveal", "card": "depot"})
    state = do(do(state, "A", {"type": "roll"}, (6, 6)), "A", {"type": "confirm"})
    state = do(state, "B", {"type": "reinforce", "units": []})
    assert (state.strike.unit, state.strike.step) == ("A2", "target")  # type: ignore[union-attr]
    state = do(state, "A", {"type": "target", "slot": 2})
    state = do(state, "B", {"type": "reveal", "card": "beacon"})
    state = do(do(state, "A", {"type": "roll"}, (6, 6)), "A", {"type": "confirm"})
    assert _objectives(state, "B") == ["destroyed", "destroyed", "face_down"]


def _carrier_table(variant: Variant | None = None) -> State:
    return table(
        [unit("c", stars=5, icons="Carrier"), unit("r", stars=1, deploy=False)],
        [unit("x")],
        variant,
    )


def test_pm14_the_carrier_power_takes_the_whole_turn() -> None:
    """Seed: "Bei TTräger darfst du anstatt des Zuges bis zu zwei Sterne an Einheiten aus der
    Reserve in die Zone deiner Einheit stellen" (instead of the turn): not after an objective
    was played this turn; the flag ``carrier_replaces_action`` (the former reading, instead of
    the action) allows it."""
    carrier = {"type": "carrier", "carrier": "A1", "units": ["A2"]}
    played = do(_carrier_table(), "A", {"type": "objective", "slot": 1, "card": "depot"})
    refused("PM-14", played, "A", carrier)
    kinds = {GAME.action_to_json(a)["type"] for a in legal.legal_actions(played, "A")}
    assert "move" in kinds and "carrier" not in kinds
    fresh = {GAME.action_to_json(a)["type"] for a in legal.legal_actions(_carrier_table(), "A")}
    assert "carrier" in fresh
    alone = do(_carrier_table(), "A", carrier)
    assert (alone.phase, alone.unit("A2").place) == ("end", "home_A")  # type: ignore[union-attr]
    refused("PM-10", alone, "A", {"type": "objective", "slot": 1, "card": "depot"})
    former = _carrier_table(Variant(carrier_replaces_action=True))
    former = do(former, "A", {"type": "objective", "slot": 1, "card": "depot"})
    former = do(former, "A", carrier)
    assert (former.phase, former.unit("A2").place) == ("end", "home_A")  # type: ignore[union-attr]


def test_pm40_flag_double_loss_active_wins() -> None:
    """Both last units destroyed in one battle: a draw by default (D7); with the flag
    ``double_loss_active_wins`` the active player (A, who attacked) wins."""
    for variant, winner in ((None, None), (Variant(double_loss_active_wins=True), "A")):
        state = place(
            table(
                [unit("a", attack=9, damage=3, shields=2)],
                [unit("b", attack=9, damage=3, shields=2)],
                variant,
            ),
            A1="contested",
            B1="contested",
        )
        state = do(
            do(battle_to_roll(state, [["A1", "B1"]]), "A", {"type": "roll"}, (6, 6), (6, 6)),
            "A",
            {"type": "confirm"},
        )
        outcome = GAME.outcome(state)
        assert outcome is not None and (outcome.winner, outcome.reason) == (winner, "no_units")


def test_refusals_cite_the_rule_the_action_breaks_not_the_next_step() -> None:
    """A second combat card from the attacker breaks PM-20 (one card each, before the roll),
    though the next step is the roll (PM-21); a second action breaks PM-11; ending the turn
    in a battle leaves PM-12 unfinished; a roll before the cards breaks PM-20."""
    state = place(table([unit("a")], [unit("b")]), A1="contested", B1="contested")
    state = do(state, "A", {"type": "combat", "pairs": [["A1", "B1"]]})
    refused("PM-20", state, "A", {"type": "roll"})
    refused("PM-12", state, "A", {"type": "end_turn"})
    refused("PM-11", state, "A", {"type": "move", "units": ["A1"], "to": "home_A"})
    state = do(state, "A", {"type": "play", "card": "overdrive"})
    state = do(state, "B", {"type": "pass"})
    assert state.battle.step == "roll"  # type: ignore[union-attr]
    with pytest.raises(IllegalAction) as error:
        rules.apply(state, "A", action_from_json({"type": "play", "card": "overdrive"}))
    assert (error.value.rule, error.value.message_id) == ("PM-20", "expect_roll")
    refused("PM-20", state, "A", {"type": "pass"})
    refused("PM-10", state, "A", {"type": "objective", "slot": 1, "card": "depot"})
    with pytest.raises(NotYourTurn) as late:
        rules.apply(state, "B", action_from_json({"type": "play", "card": "brace"}))
    assert late.value.rule == "PM-20"


def test_stored_tables_without_the_new_flags_keep_their_former_readings() -> None:
    """A setup event or state stored before ``each_striker_picks_objective`` and
    ``carrier_replaces_action`` existed reads them as the former readings (True) and replays as
    before; a new table's setup event writes every flag (False by default)."""
    fleets = {seat: None for seat in "AB"}
    old = GAME.start(
        {"variant": {"destroy_above_shields": False}, "fleets": fleets, "first_player": None}
    )
    assert (old.variant.each_striker_picks_objective, old.variant.carrier_replaces_action) == (
        True,
        True,
    )
    assert old.variant.double_loss_active_wins is False
    event = GAME.setup_event(GAME.parse_setup({"type": "setup"}), ())
    assert event["variant"] == {
        "destroy_above_shields": False,
        "icon_gates_bonus": False,
        "action_required": False,
        "each_striker_picks_objective": False,
        "carrier_replaces_action": False,
        "double_loss_active_wins": False,
    }
    assert GAME.start(event).variant == Variant()
    data = state_to_json(strike_ready())
    data["variant"] = {"destroy_above_shields": False, "icon_gates_bonus": True}
    assert state_from_json(data).variant == Variant(
        icon_gates_bonus=True, each_striker_picks_objective=True, carrier_replaces_action=True
    )


def test_out_of_step_refusals_in_played_games_cite_the_rule_of_the_action() -> None:
    """In seeded random games (standard fleets), every action tried out of its step is
    refused citing the rule it breaks: a combat card or a pass PM-20, an objective PM-10, a
    second action PM-11, whatever step comes next."""
    expected = {"PlayCard": "PM-20", "Pass": "PM-20", "PlayObjective": "PM-10"}
    expected |= dict.fromkeys(("Move", "Combat", "Strike", "Carrier"), "PM-11")
    seen: dict[tuple[str, str], str] = {}
    for action, refusal in tried_refusals(GAME, GAME.example_setups()[:1] * 6, plies=120):
        kind = type(action).__name__
        if kind in expected and (refusal.message_id or "").startswith("expect_"):
            seen[(kind, refusal.message_id or "")] = refusal.rule or ""
    assert {"PlayCard", "Pass", "PlayObjective", "Move"} <= {k for k, _ in seen}, seen
    assert ("PlayCard", "expect_roll") in seen, seen  # the case: a second card
    wrong = {key: rule for key, rule in seen.items() if rule != expected[key[0]]}
    assert wrong == {}, wrong
