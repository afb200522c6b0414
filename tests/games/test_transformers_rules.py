"""Scenario tests of the Transformers engine: one or more per rule id TF-3..TF-40, every
variant flag, and the decisions Dn of games/transformers/__init__.py."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.protocol import IllegalAction, MalformedAction, NotYourTurn, SetupError
from games.transformers.game import GAME
from games.transformers.messages import MESSAGES
from games.transformers.state import State
from tests.games.transformers_helpers import (
    DEMO_YAML,
    TEAM_A,
    TEAM_B,
    act,
    character,
    deck_list,
    demo_deck,
    empty_table,
    flips,
    table,
    team,
    turn_to,
)

NO_ICONS: dict[str, int] = {}


def refused(state: State, seat: str, kind: str, rule: str, /, **fields: Any) -> str:
    """Assert the action is refused citing ``rule`` and changes nothing; the message."""
    before = json.dumps(GAME.state_to_json(state))
    with pytest.raises(IllegalAction) as error:
        act(state, seat, kind, **fields)
    assert error.value.rule == rule, str(error.value)
    assert str(error.value).endswith(f"{rule})"), str(error.value)
    assert error.value.message_id in MESSAGES.texts, str(error.value)
    assert json.dumps(GAME.state_to_json(state)) == before
    return str(error.value)


def view(state: State) -> dict[str, Any]:
    shown: dict[str, Any] = GAME.view(state, None)["state"]
    return shown


def char(state: State, character_id: str) -> Any:
    found = state.character(character_id)
    assert found is not None
    return found


def attack(state: State, attacker: str, defender: str, **fields: Any) -> State:
    """Draw if needed, then start the attack."""
    if not state.this_turn.drawn:
        state = act(state, state.player, "draw")
    return act(state, state.player, "attack", attacker=attacker, defender=defender, **fields)


# ---------------------------------------------------------------------------------- TF-3


def test_tf3_a_team_of_27_stars_is_refused_with_the_numbers() -> None:
    big = [character("One", stars=9), character("Two", stars=9), character("Three", stars=9)]
    state = empty_table()
    message = refused(state, "A", "team", "TF-3", **team("A", big))
    assert message == "team has 27 stars, at most 25 (TF-3)"
    ok = [character("One", stars=9), character("Two", stars=9), character("Three", stars=7)]
    assert len(act(state, "A", "team", **team("A", ok)).characters) == 3  # 25 is allowed


def test_tf3_one_copy_per_full_name() -> None:
    state = empty_table()
    twins = [character("Bulwark", subtitle="Hauler"), character("Bulwark", subtitle="Hauler")]
    message = refused(state, "A", "team", "TF-3", **team("A", twins))
    assert message == "team has 2 copies of character 'Bulwark Hauler', at most 1 (TF-3)"
    cousins = [character("Bulwark", subtitle="Hauler"), character("Bulwark", subtitle="Guard")]
    assert [c.name for c in act(state, "A", "team", **team("A", cousins)).characters] == [
        "Bulwark",
        "Bulwark",
    ]


def test_tf3_a_deck_list_needs_40_cards_and_at_most_3_copies() -> None:
    state = empty_table()
    message = refused(state, "A", "team", "TF-3", **team("A", TEAM_A, deck_list(cards=4)))
    assert message == "deck has 12 battle cards, at least 40 (TF-3)"
    four = deck_list()
    four[0]["copies"] = 4
    message = refused(state, "A", "team", "TF-3", **team("A", TEAM_A, four))
    assert message == "deck has 4 copies of 'Card 1', at most 3 (TF-3)"
    assert act(state, "A", "team", **team("A", TEAM_A, deck_list())).team("A") is not None


def test_tf3_variant_count_battle_stars_counts_the_demo_decks_battle_stars() -> None:
    action = GAME.setup_from_deck(demo_deck(), "A")
    assert sum(c["stars"] for c in action["characters"]) == 24
    seed = GAME.apply(empty_table(), "A", GAME.parse_action(action))
    assert seed.team("A") is not None  # the seed's reading: 24 stars
    official = empty_table({"count_battle_stars": True})
    message = refused(official, "A", "team", "TF-3", **action)
    assert message == "team has 30 stars (24 on characters, 6 on battle cards), at most 25 (TF-3)"


def test_tf3_setup_from_deck_brings_the_demo_team_and_refuses_a_27_star_deck() -> None:
    action = GAME.setup_from_deck(demo_deck(), "B")
    assert action["type"] == "team" and action["seat"] == "B"
    assert action["deck"] == "demo-team" and action["title"] == "Harbour Watch"
    assert [c["name"] for c in action["characters"]] == ["Bulwark", "Quickstep", "Lanternfish"]
    assert action["characters"][0]["bot"] == {
        "subtitle": "Harbour Guardian",
        "traits": "Leader Melee",
        "attack": 4,
        "defense": 2,
        "text": "Other characters on your team get +1 Defense while Bulwark is untapped.",
    }
    assert sum(b["copies"] for b in action["battle_cards"]) == 42
    text = DEMO_YAML.read_text(encoding="utf-8").replace("stars: 7\n", "stars: 10\n", 1)
    with pytest.raises(SetupError) as error:
        GAME.setup_from_deck(demo_deck(text), "A")
    assert str(error.value) == "team has 27 stars, at most 25 (TF-3)"
    assert error.value.rule == "TF-3"


# ---------------------------------------------------------------------------------- TF-5


def test_tf5_characters_start_in_alt_mode_and_the_die_names_the_starting_player() -> None:
    state = empty_table()
    after_a = act(state, "A", "team", **team("A", TEAM_A))
    second = GAME.parse_action(team("B", TEAM_B))
    assert GAME.dice_for(state, "A", GAME.parse_action(team("A", TEAM_A))) == ()
    (request,) = GAME.dice_for(after_a, "B", second)
    assert (request.count, request.sides, request.purpose) == (1, 2, "starting player (TF-5)")
    for face, first in ((1, "A"), (2, "B")):
        started = GAME.apply(after_a, "B", second, ((face,),))
        assert (started.phase, started.player, started.first_player) == ("main", first, first)
        assert [(c.id, c.mode, c.tapped, c.damage) for c in started.characters] == [
            ("A1", "alt", False, 0),
            ("A2", "alt", False, 0),
            ("B1", "alt", False, 0),
            ("B2", "alt", False, 0),
        ]
    with pytest.raises(MalformedAction):
        GAME.apply(after_a, "B", second)  # the die is missing


def test_tf5_either_seat_brings_its_own_team_first_but_never_the_others() -> None:
    state = empty_table()
    with pytest.raises(NotYourTurn):
        act(state, "A", "team", **team("B", TEAM_B))
    b_first = act(state, "B", "team", **team("B", TEAM_B))
    assert b_first.player == "A" and b_first.phase == "team"
    refused(b_first, "B", "team", "TF-3", **team("B", TEAM_B))


# ---------------------------------------------------------------------------------- TF-10


def test_tf10_the_draw_comes_first_and_once() -> None:
    state = table()
    assert view(state)["allowed"] == {
        "draw": True,
        "flip": False,
        "tap": True,
        "action": False,
        "upgrade": False,
        "attack": False,
        "end_turn": False,
    }
    refused(state, "A", "flip", "TF-10", character="A1")
    refused(state, "A", "attack", "TF-10", attacker="A1", defender="B1")
    refused(state, "A", "end_turn", "TF-10")
    drawn = act(state, "A", "draw")
    assert drawn.this_turn.drawn
    refused(drawn, "A", "draw", "TF-10")
    with pytest.raises(NotYourTurn):
        act(state, "B", "draw")


# ---------------------------------------------------------------------------------- TF-11


def test_tf11_one_flip_per_turn_changes_the_mode_and_the_stats() -> None:
    state = act(table(), "A", "draw")
    flipped = act(state, "A", "flip", character="A1")
    shown = view(flipped)["characters"][0]
    assert (shown["mode"], shown["attack"], shown["defense"]) == ("bot", 4, 0)
    assert flipped.this_turn.flipped == "A1"
    refused(flipped, "A", "flip", "TF-11", character="A2")
    refused(state, "A", "flip", "TF-11", character="B1")  # not yours
    back = act(turn_to(flipped, 3), "A", "draw")
    assert char(act(back, "A", "flip", character="A1"), "A1").mode == "alt"


def test_tf11_one_action_and_one_upgrade_per_turn_from_the_deck_list() -> None:
    state = act(turn_to(table(a_cards=deck_list()), 3), "A", "draw")
    played = act(state, "A", "play_action", card="c1")
    assert played.this_turn.action is not None and played.this_turn.action.name == "Card 1"
    refused(played, "A", "play_action", "TF-11", name="Another")
    refused(state, "A", "play_action", "TF-11", card="c2")  # an upgrade, not an action
    refused(state, "A", "play_action", "TF-11", card="nope")
    upgraded = act(played, "A", "play_upgrade", character="A2", card="c2")
    assert char(upgraded, "A2").upgrades[0].name == "Card 2"
    refused(upgraded, "A", "play_upgrade", "TF-11", character="A1", card="c4")


def test_tf11_the_plays_come_before_the_attack() -> None:
    state = attack(turn_to(table(), 3), "A1", "B1")
    state = act(flips(state, NO_ICONS, NO_ICONS), "A", "resolve")
    assert state.phase == "end"
    refused(state, "A", "flip", "TF-11", character="A2")
    refused(state, "A", "play_action", "TF-11")
    refused(state, "A", "play_upgrade", "TF-11", character="A2", slot="armor")


# ---------------------------------------------------------------------------------- TF-12


def test_tf12_first_turn_no_action_no_upgrade_second_turn_one_of_them() -> None:
    first = act(table(first="B"), "B", "draw")
    assert first.turn == 1
    refused(first, "B", "play_action", "TF-12")
    refused(first, "B", "play_upgrade", "TF-12", character="B1", slot="weapon")
    second = act(turn_to(first, 2), "A", "draw")
    assert second.player == "A"
    with_action = act(second, "A", "play_action", name="Full Throttle")
    refused(with_action, "A", "play_upgrade", "TF-12", character="A1", slot="weapon")
    with_upgrade = act(second, "A", "play_upgrade", character="A1", slot="weapon")
    refused(with_upgrade, "A", "play_action", "TF-12")
    assert view(with_upgrade)["allowed"]["action"] is False
    third = act(turn_to(second, 3), "B", "draw")
    both = act(act(third, "B", "play_action"), "B", "play_upgrade", character="B2", slot="armor")
    assert both.this_turn.action is not None and both.this_turn.upgrade is not None


# ---------------------------------------------------------------------------------- TF-13


def test_tf13_one_upgrade_per_slot_a_new_one_scraps_the_old() -> None:
    start = act(turn_to(table(a_cards=deck_list()), 3), "A", "draw")
    refused(start, "A", "play_upgrade", "TF-13", character="B1", card="c2")  # not yours
    # slots (n // 2) % 3: c2 armor, c4 utility, c6 weapon, c8 armor
    state = act(start, "A", "play_upgrade", character="A1", card="c2")
    state = act(turn_to(state, 5), "A", "draw")
    state = act(state, "A", "play_upgrade", character="A1", card="c6")
    state = act(turn_to(state, 7), "A", "draw")
    state = act(state, "A", "play_upgrade", character="A1", card="c8")
    ups = {u.slot: u.name for u in char(state, "A1").upgrades}
    assert ups == {"weapon": "Card 6", "armor": "Card 8"}  # Card 2 scrapped
    shown = view(state)["characters"][0]["upgrades"]
    assert shown == {
        "weapon": {"card": "c6", "name": "Card 6"},
        "armor": {"card": "c8", "name": "Card 8"},
        "utility": None,
    }


def test_tf13_upgrades_are_scrapped_when_the_character_is_kod() -> None:
    state = act(turn_to(table(), 3), "A", "draw")
    state = act(state, "A", "play_upgrade", character="A2", slot="armor", name="Plating")
    assert char(state, "A2").upgrades[0].name == "Plating"
    state = act(state, "B", "counter", character="A2", delta=5)
    assert char(state, "A2").zone == "ko" and char(state, "A2").upgrades == ()


# ---------------------------------------------------------------------------------- TF-14


def test_tf14_tf26_the_played_action_waits_until_the_end_of_the_turn() -> None:
    state = act(turn_to(table(), 3), "A", "draw")
    state = act(state, "A", "play_action", name="Full Throttle")
    assert view(state)["this_turn"]["action"]["name"] == "Full Throttle"
    ended = act(state, "A", "end_turn")
    assert view(ended)["this_turn"] == {
        "drawn": False,
        "flipped": None,
        "action": None,
        "upgrade": None,
        "attacks": 0,
    }
    assert (ended.player, ended.turn) == ("B", 4)


# ---------------------------------------------------------------------------------- TF-20


def test_tf20_attack_with_an_untapped_own_character_and_tap_it() -> None:
    state = act(table(), "A", "draw")
    refused(state, "A", "attack", "TF-20", attacker="B1", defender="A1")
    refused(state, "A", "attack", "TF-20", attacker="A1", defender="A2")
    refused(state, "A", "attack", "TF-20", attacker="A9", defender="B1")
    started = act(state, "A", "attack", attacker="A1", defender="B2")
    assert char(started, "A1").tapped and started.phase == "attack"
    assert view(started)["attack"]["attacker"]["character"] == "A1"
    tapped = act(state, "A", "tap", character="A1", tapped=True)
    refused(tapped, "A", "attack", "TF-20", attacker="A1", defender="B1")


def test_tf20_the_defender_must_be_a_tapped_enemy_if_there_is_one() -> None:
    state = act(act(table(), "A", "draw"), "A", "tap", character="B2", tapped=True)
    message = refused(state, "A", "attack", "TF-20", attacker="A1", defender="B1")
    assert "Delta (B2)" in message
    assert act(state, "A", "attack", attacker="A1", defender="B2").attack is not None
    # D10: a card lets the attacker choose any defender
    chosen = act(state, "A", "attack", attacker="A1", defender="B1", any_defender=True)
    assert chosen.attack is not None and chosen.attack.defender.character == "B1"


def test_tf20_must_attack_refuses_to_end_the_turn_while_an_attack_is_possible() -> None:
    """The default (D9): "Im Zug folgt jetzt der Angriff"; the flag off: attacking is optional."""
    free = act(table({"must_attack": False}), "A", "draw")
    assert act(free, "A", "end_turn").player == "B"  # the former default
    assert GAME.parse_setup({"type": "setup"}).variant.must_attack is True
    state = act(table({"must_attack": True}), "A", "draw")
    assert view(state)["allowed"]["end_turn"] is False
    refused(state, "A", "end_turn", "TF-20")
    state = act(state, "A", "attack", attacker="A1", defender="B1")
    state = act(flips(state, NO_ICONS, NO_ICONS), "A", "resolve")
    assert state.phase == "end"  # TF-24: B still has untapped characters
    assert act(state, "A", "end_turn").player == "B"


# ---------------------------------------------------------------------------------- TF-21


def test_tf21_two_cards_each_and_two_more_after_a_white_icon_once_per_attack() -> None:
    state = attack(table(), "A1", "B1")
    shown = view(state)["attack"]
    assert shown["attacker"]["pending"] == "first" and shown["ready"] is False
    refused(state, "A", "resolve", "TF-21")
    state = act(state, "A", "icons", side="attacker", orange=1, white=1)
    assert view(state)["attack"]["attacker"]["pending"] == "extra"
    state = act(state, "A", "icons", side="attacker", white=2, orange=1)
    assert view(state)["attack"]["attacker"]["pending"] is None  # once per attack
    refused(state, "A", "icons", "TF-21", side="attacker", orange=1)
    state = act(state, "B", "icons", side="defender", blue=1)  # D19: the defender's phone
    assert view(state)["attack"]["ready"] is True
    assert [f["orange"] for f in view(state)["attack"]["attacker"]["flips"]] == [1, 1]


def test_tf21_at_most_four_icons_on_two_cards_and_the_defender_enters_its_side_only() -> None:
    state = attack(table(), "A1", "B1")
    refused(state, "A", "icons", "TF-21", side="attacker", orange=3, blue=2)
    with pytest.raises(NotYourTurn):
        act(state, "B", "icons", side="attacker", orange=1)
    with pytest.raises(NotYourTurn):
        act(state, "B", "resolve")
    with pytest.raises(MalformedAction, match="orange"):
        act(state, "A", "icons", side="attacker", orange=9)


def test_tf21_d23_icons_tapped_card_by_card_count_at_once_and_complete_the_flip() -> None:
    state = attack(table(), "A1", "B1")  # Alpha alt 2 attack; Gamma alt 1 defense
    state = act(state, "A", "card_icons", side="attacker", orange=1, white=1)
    shown = view(state)["attack"]["attacker"]
    # the first card counts in the total at once (both phones see it grow), the flip is open
    assert (shown["total"], shown["cards"], shown["flips"]) == (3, [shown["cards"][0]], [])
    assert shown["cards"][0]["orange"] == 1 and shown["pending"] == "first"
    refused(state, "A", "icons", "TF-21", side="attacker", orange=1)  # finish the cards first
    refused(state, "A", "card_icons", "TF-2", side="attacker", orange=2, blue=1)
    assert {a["type"] for a in GAME.view(state, "A")["legal"] if a.get("side") == "attacker"} == {
        "card_icons",
        "bonus",
    }
    state = act(state, "A", "card_icons", side="attacker", orange=2)
    shown = view(state)["attack"]["attacker"]
    assert shown["cards"] == [] and [f["orange"] for f in shown["flips"]] == [3]
    assert shown["total"] == 5 and shown["pending"] == "extra"  # the white icon: 2 more cards
    state = act(state, "A", "card_icons", side="attacker")
    state = act(state, "A", "card_icons", side="attacker", orange=1)
    assert view(state)["attack"]["attacker"]["pending"] is None
    refused(state, "A", "card_icons", "TF-21", side="attacker", orange=1)  # once per attack
    with pytest.raises(NotYourTurn):
        act(state, "B", "card_icons", side="attacker", orange=1)  # D19
    state = act(state, "B", "card_icons", side="defender", blue=2)
    assert view(state)["attack"]["defender"]["total"] == 3 and not view(state)["attack"]["ready"]
    state = act(state, "B", "card_icons", side="defender", blue=1)
    assert view(state)["attack"]["ready"] is True
    assert view(state)["attack"]["damage"] == 6 - 4
    assert GAME.state_from_json(GAME.state_to_json(state)) == state


def test_d23_a_half_entered_flip_round_trips_through_json() -> None:
    state = act(attack(table(), "A1", "B1"), "B", "card_icons", side="defender", blue=1)
    data = json.loads(json.dumps(GAME.state_to_json(state)))
    assert data["attack"]["defender"]["cards"] == [
        {"orange": 0, "blue": 1, "white": 0, "black": 0, "green": 0}
    ]
    assert GAME.state_from_json(data) == state


# ---------------------------------------------------------------------------------- TF-22


def test_tf22_totals_count_orange_for_the_attacker_blue_for_the_defender_and_bonuses() -> None:
    state = attack(table(), "A1", "B1")  # Alpha alt 2 attack; Gamma alt 1 defense
    state = flips(state, {"orange": 2, "blue": 2}, {"orange": 1, "blue": 1})
    state = act(state, "A", "bonus", side="attacker", value=2, source="Arc Lance")
    state = act(state, "B", "bonus", side="defender", value=-1)
    shown = view(state)["attack"]
    assert {k: shown["attacker"][k] for k in ("base", "icons", "bonus", "total")} == {
        "base": 2,
        "icons": 2,
        "bonus": 2,
        "total": 6,
    }
    assert {k: shown["defender"][k] for k in ("base", "icons", "bonus", "total")} == {
        "base": 1,
        "icons": 1,
        "bonus": -1,
        "total": 1,
    }
    assert shown["damage"] == 5
    assert shown["attacker"]["bonuses"] == [{"value": 2, "source": "Arc Lance"}]
    with pytest.raises(MalformedAction, match="value"):
        act(state, "A", "bonus", side="attacker", value=0)


def test_tf22_the_current_mode_counts() -> None:
    state = act(act(turn_to(table(), 3), "A", "draw"), "A", "flip", character="A1")
    state = act(state, "A", "attack", attacker="A1", defender="B1")
    assert view(state)["attack"]["attacker"]["base"] == 4  # Alpha's bot mode


# ---------------------------------------------------------------------------------- TF-23


def test_tf23_the_difference_is_damage_and_a_tie_is_nothing() -> None:
    state = flips(attack(table(), "A1", "B1"), {"orange": 2}, NO_ICONS)  # 4 vs 1
    hit = act(state, "A", "resolve")
    assert char(hit, "B1").damage == 3
    assert hit.last_attack is not None
    assert (hit.last_attack.attack_total, hit.last_attack.defense_total) == (4, 1)
    assert hit.last_attack.damage == 3 and not hit.last_attack.ko
    tie = flips(attack(table(), "A1", "B1"), {"orange": 0}, {"blue": 1})  # 2 vs 2
    assert char(act(tie, "A", "resolve"), "B1").damage == 0
    lower = flips(attack(table(), "A1", "B1"), NO_ICONS, {"blue": 4})
    assert view(lower)["attack"]["damage"] == 0


# ---------------------------------------------------------------------------------- TF-24


def test_tf24_the_turn_ends_after_the_attack_while_the_opponent_has_an_untapped_one() -> None:
    state = act(flips(attack(table(), "A1", "B1"), NO_ICONS, NO_ICONS), "A", "resolve")
    assert state.phase == "end"
    assert view(state)["allowed"]["attack"] is False
    refused(state, "A", "attack", "TF-24", attacker="A2", defender="B1")


def test_tf24_all_enemies_tapped_attack_again_until_all_of_yours_are_tapped() -> None:
    state = act(table(), "A", "draw")
    state = act(
        act(state, "A", "tap", character="B1", tapped=True), "A", "tap", character="B2", tapped=True
    )
    state = act(state, "A", "attack", attacker="A1", defender="B1")
    state = act(flips(state, NO_ICONS, NO_ICONS), "A", "resolve")
    assert state.phase == "main" and view(state)["allowed"]["attack"] is True
    state = act(state, "A", "attack", attacker="A2", defender="B2")
    state = act(flips(state, NO_ICONS, NO_ICONS), "A", "resolve")
    assert state.phase == "end"  # all of A's are tapped
    assert state.this_turn.attacks == 2


# ---------------------------------------------------------------------------------- TF-25


def _all_tapped_after_attack(variant: dict[str, bool] | None) -> State:
    state = act(table(variant), "A", "draw")
    for cid in ("A2", "B1", "B2"):
        state = act(state, "A", "tap", character=cid, tapped=True)
    state = act(state, "A", "attack", attacker="A1", defender="B1")
    return act(flips(state, NO_ICONS, NO_ICONS), "A", "resolve")


def test_tf25_flag_off_nothing_untaps_by_itself_only_by_hand() -> None:
    state = _all_tapped_after_attack({"untap_all": False})
    assert all(c.tapped for c in state.characters)
    untapped = act(state, "A", "tap", character="A1", tapped=False)  # D7
    assert not char(untapped, "A1").tapped
    refused(untapped, "A", "tap", "TF-20", character="A1", tapped=False)


@pytest.mark.parametrize("variant", [None, {"untap_all": True}])
def test_tf25_by_default_all_untap_once_every_character_is_tapped(
    variant: dict[str, bool] | None,
) -> None:
    state = _all_tapped_after_attack(variant)
    assert not any(c.tapped for c in state.characters)
    assert state.phase == "end"
    by_hand = act(table(variant), "A", "draw")
    for cid in ("A1", "A2", "B1"):
        by_hand = act(by_hand, "A", "tap", character=cid, tapped=True)
    assert sum(c.tapped for c in by_hand.characters) == 3
    by_hand = act(by_hand, "A", "tap", character="B2", tapped=True)
    assert not any(c.tapped for c in by_hand.characters)


# ---------------------------------------------------------------------------------- TF-26


def test_tf26_the_end_of_the_turn_hands_over_and_keeps_the_last_attack() -> None:
    state = act(flips(attack(table(), "A1", "B2"), {"orange": 1}, NO_ICONS), "A", "resolve")
    ended = act(state, "A", "end_turn")
    assert (ended.player, ended.turn, ended.phase) == ("B", 2, "main")
    assert ended.this_turn.drawn is False
    assert view(ended)["last_attack"] == {
        "attacker": "A1",
        "defender": "B2",
        "attack_total": 3,
        "defense_total": 1,
        "damage": 2,
        "ko": False,
    }
    with pytest.raises(NotYourTurn):
        act(ended, "A", "draw")


# ---------------------------------------------------------------------------------- TF-30


def test_tf30_counters_up_to_health_ko_and_never_below_zero() -> None:
    state = table()
    state = act(state, "B", "counter", character="A2", delta=1)  # either seat, any time
    state = act(state, "A", "counter", character="A2", delta=3)
    assert char(state, "A2").damage == 4
    state = act(state, "A", "counter", character="A2", delta=-1)
    assert char(state, "A2").damage == 3
    message = refused(table(), "A", "counter", "TF-30", character="A1", delta=-1)
    assert message == "Alpha (A1) has 0 damage counters; cannot remove 1 (TF-30)"
    ko = act(state, "A", "counter", character="A2", delta=2)  # 5 = Health
    assert (char(ko, "A2").zone, char(ko, "A2").damage) == ("ko", 0)
    assert refused(ko, "A", "counter", "TF-30", character="A2", delta=1).startswith(
        "Beta (A2) is KO'd"
    )
    refused(ko, "A", "counter", "TF-30", character="B7", delta=1)


def test_tf30_an_attack_kos_the_defender() -> None:
    state = act(table(), "B", "counter", character="B2", delta=2)  # Delta: Health 4
    state = act(flips(attack(state, "A1", "B2"), {"orange": 1}, NO_ICONS), "A", "resolve")
    assert char(state, "B2").zone == "ko" and state.last_attack is not None
    assert state.last_attack.ko and state.last_attack.damage == 2
    refused(state, "A", "tap", "TF-30", character="B2", tapped=True)


def test_tf30_a_ko_by_counters_of_a_fighter_ends_the_running_attack() -> None:
    state = attack(table(), "A1", "B2")
    state = act(state, "B", "counter", character="B2", delta=4)
    assert state.attack is None and state.phase == "end"
    assert char(state, "A1").tapped


# ---------------------------------------------------------------------------------- TF-31


def test_tf31_flips_are_never_limited_by_the_cards_left() -> None:
    """D3: the companion holds no deck; A flips 4 cards in each of 12 defences, 48 cards,
    more than its 40-card deck holds, and every flip is taken."""
    state = table(a=[character(f"C{n}", stars=1, health=30) for n in range(1, 9)])
    state = act(act(state, "A", "draw"), "A", "end_turn")
    for _ in range(12):  # B attacks 12 times, A flips 4 cards each time as the defender
        state = act(state, "B", "draw")
        target = next(c.id for c in state.of("A") if not c.tapped)
        state = act(state, "B", "attack", attacker="B1", defender=target)
        state = act(state, "A", "icons", side="defender", white=1)
        state = act(state, "A", "icons", side="defender", blue=1)
        state = act(state, "B", "icons", side="attacker")
        state = act(act(state, "B", "resolve"), "B", "tap", character="B1", tapped=False)
        state = act(act(state, "B", "end_turn"), "A", "draw")
        state = act(state, "A", "end_turn")
    assert char(state, "A1").damage == 12  # 3 attack vs 1 + 1 blue, 12 times


# ---------------------------------------------------------------------------------- TF-40


def test_tf40_the_last_ko_ends_the_game_for_the_other_seat() -> None:
    state = act(table(), "A", "counter", character="B2", delta=4)
    assert GAME.outcome(state) is None
    state = act(state, "A", "counter", character="B1", delta=6)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.to_json() == {
        "winner": "A",
        "reason": "all_ko",
        "rule": "TF-40",
        "score": {"A": 2, "B": 0},
    }
    assert GAME.to_act(state) is None and GAME.legal_actions(state, "A") == []
    refused(state, "A", "counter", "TF-40", character="A1", delta=1)


# ----------------------------------------------------------------------------- JSON, errors


def test_actions_and_states_round_trip_through_json() -> None:
    state = attack(table(a_cards=deck_list()), "A1", "B1")
    state = act(state, "A", "bonus", side="defender", value=3, source="Hold")
    data = json.loads(json.dumps(GAME.state_to_json(state)))
    assert GAME.state_from_json(data) == state
    for action in GAME.legal_actions(state, "A"):
        assert GAME.parse_action(json.loads(json.dumps(GAME.action_to_json(action)))) == action


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ({"type": "flip"}, "character"),
        ({"type": "flip", "character": "A1", "extra": 1}, "extra"),
        ({"type": "counter", "character": "A1", "delta": 0}, "delta"),
        ({"type": "counter", "character": "A1", "delta": True}, "delta"),
        ({"type": "tap", "character": "X1", "tapped": True}, "character"),
        ({"type": "icons", "side": "middle"}, "side"),
        ({"type": "play_upgrade", "character": "A1"}, "slot"),
        ({"type": "play_upgrade", "character": "A1", "slot": "hat"}, "slot"),
        ({"type": "team", "seat": "A", "characters": []}, "characters"),
        ({"type": "draw", "now": True}, "now"),
    ],
)
def test_malformed_actions_name_the_field(action: dict[str, Any], field: str) -> None:
    with pytest.raises(MalformedAction, match=field):
        GAME.parse_action(action)


def test_a_damaged_state_is_refused() -> None:
    from games.protocol import StateError

    data = GAME.state_to_json(act(table(), "A", "counter", character="A1", delta=1))
    data["characters"][0]["damage"] = 6  # Health 6: should be KO'd
    with pytest.raises(StateError, match="TF-30"):
        GAME.state_from_json(data)
    data["characters"][0]["damage"] = 1
    data["characters"][0]["zone"] = "ko"
    with pytest.raises(StateError, match="KO'd"):
        GAME.state_from_json(data)
    with pytest.raises(MalformedAction, match="variant"):
        GAME.parse_setup({"type": "setup", "variant": {"untap": True}})


def test_pieces_of_card_are_the_characters_in_play_from_that_deck() -> None:
    a = GAME.setup_from_deck(demo_deck(), "A")
    state = GAME.apply(empty_table(), "A", GAME.parse_action(a))
    state = GAME.apply(state, "B", GAME.parse_action(team("B", TEAM_B)), ((1,),))
    assert GAME.pieces_of_card(state, "demo-team", "quickstep") == ["A2"]
    assert GAME.pieces_of_card(state, "other-deck", "quickstep") == []
    state = act(state, "B", "counter", character="A2", delta=9)
    assert GAME.pieces_of_card(state, "demo-team", "quickstep") == []  # KO'd


def test_a_scan_opens_the_scanners_own_copy_when_both_bring_the_same_deck() -> None:
    state = GAME.apply(
        empty_table(), "A", GAME.parse_action(GAME.setup_from_deck(demo_deck(), "A"))
    )
    b = GAME.parse_action(GAME.setup_from_deck(demo_deck(), "B"))
    state = GAME.apply(state, "B", b, ((2,),))
    assert GAME.pieces_of_card(state, "demo-team", "quickstep") == ["A2", "B2"]
    assert GAME.pieces_of_card(state, "demo-team", "quickstep", "A") == ["A2", "B2"]
    assert GAME.pieces_of_card(state, "demo-team", "quickstep", "B") == ["B2", "A2"]


def test_refusals_cite_the_rule_the_action_breaks_not_the_attack_step() -> None:
    """During an attack: the draw breaks TF-10, a flip or a play TF-11 (the plays come before
    the attack, D5), a tap by hand TF-20 (D7), a second attack TF-24, ending the turn TF-23;
    without an attack the flips break TF-21, a bonus TF-22, the result TF-23."""
    running = attack(turn_to(table(), 3), "A1", "B1")
    refused(running, "A", "draw", "TF-10")
    refused(running, "A", "flip", "TF-11", character="A1")
    refused(running, "A", "play_action", "TF-11")
    refused(running, "A", "tap", "TF-20", character="A2", tapped=True)
    refused(running, "A", "attack", "TF-24", attacker="A2", defender="B1")
    refused(running, "A", "end_turn", "TF-23")
    idle = act(turn_to(table(), 3), "A", "draw")
    refused(idle, "A", "icons", "TF-21", side="attacker", orange=1)
    refused(idle, "A", "bonus", "TF-22", side="attacker", value=1)
    refused(idle, "A", "resolve", "TF-23")
