"""Real browser (Debian chromium via Playwright, phone viewport 390x844): two phones open a
PocketModel table, bring the same demo fleet (B picks it over the opposing one), move a unit
each into the contested zone, fight one battle with 2d6 rolled on the server, confirm it, and
each sees the other's damage counters change; one tap adds a counter, one removes one, and a
unit knocked out is shown destroyed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.companion.phones import count_is, shot, shots_folder, two_phones


def unit_of(state: dict[str, Any], unit: str) -> dict[str, Any]:
    found: dict[str, Any] = next(u for u in state["units"] if u["id"] == unit)
    return found


def move_to_contested(phone: Any, unit: str) -> None:
    """Move one unit from its home zone to the contested zone (PM-11) and end the turn."""
    phone.click("#pm-move")
    phone.click(f"#unit-{unit}")
    phone.click("#move-contested")
    phone.wait_for_selector(f"#zone-contested #unit-{unit}")
    phone.click("#pm-end-turn")


@pytest.mark.slow
def test_two_phones_fight_one_battle_and_see_each_others_counters(
    browser: Any,
    live_server: tuple[str, Flask],
    tmp_path: Path,
) -> None:
    folder = shots_folder(tmp_path)
    base, app = live_server
    phone_a, phone_b = two_phones(browser, base, "pocketmodel")
    phone_a.wait_for_selector("#pm-open")
    shot(phone_a, folder, "pm-01-open")
    phone_a.click("#pm-open")

    # both phones bring the shipped demo deck: 29 stars, the first 20 deployed (PM-5, PM-8)
    for phone in (phone_a, phone_b):
        phone.wait_for_selector("#pm-fleets:not([hidden]) #deck-bring")
    shot(phone_b, folder, "pm-02-fleets")
    phone_a.click("#deck-bring")
    phone_a.wait_for_selector("#pm-fleet-wait:not([hidden])")
    phone_b.select_option("#deck-demo", "pocketmodel")  # B's default is the opposing fleet
    phone_b.click("#deck-bring")
    for phone in (phone_a, phone_b):
        phone.wait_for_selector("#zone-home_A #unit-A1")
        phone.wait_for_selector("#zone-home_B #unit-B1")
    table = app.extensions["tablesmith.tables"].table(phone_a.url.rsplit("/", 1)[1])
    state = table.view()["state"]
    deployed = [u["name"] for u in state["units"] if u["seat"] == "A" and u["place"] == "home_A"]
    assert deployed == [
        "Halo Frigate",
        "Sentinel Cruiser",
        "Ironclad Walker",
        "Comet Lancer",
        "Rook Shuttle",
    ]
    me = state["active"]
    foe = "B" if me == "A" else "A"
    mover, other = (phone_a, phone_b) if me == "A" else (phone_b, phone_a)
    assert "Your turn" in mover.inner_text("#who")
    assert "Waiting" in other.inner_text("#who")
    assert "Turn 1" in mover.inner_text("#pm-turn")
    assert "Play an objective (PM-10)" in mover.inner_text("#pm-turn")
    shot(mover, folder, "pm-03-board-mover")

    # the Rook Shuttles (2 stars, Shields 2) meet in the contested zone: two turns of moves
    rook, enemy_rook = f"{me}7", f"{foe}7"
    assert unit_of(state, rook)["name"] == "Rook Shuttle"
    # the stars picked show in the pick line and on the move button, never in a toast over
    # the board; once moved, the turn line says only ending the turn is left (PM-11)
    mover.click("#pm-move")
    mover.click(f"#unit-{rook}")
    assert mover.inner_text("#pm-pick-stars") == "2 of 5 stars"
    assert mover.inner_text("#move-contested") == "Move to Contested zone · 2 of 5 stars"
    assert mover.locator("#toast").is_hidden()
    mover.click("#move-contested")
    mover.wait_for_selector(f"#zone-contested #unit-{rook}")
    assert mover.inner_text("#pm-still") == (
        "Still allowed this turn: only ending the turn (the action is taken, PM-11)"
    )
    mover.click("#pm-end-turn")
    other.wait_for_selector(f"#zone-contested #unit-{rook}")
    other.wait_for_selector("#pm-move")
    move_to_contested(other, enemy_rook)
    mover.wait_for_selector(f"#zone-contested #unit-{enemy_rook}")

    # the battle: the attacker picks a combat card from its deck list, the defender passes
    # (PM-20), the attacker's phone rolls 2d6 for each unit on the server (PM-21)
    mover.click("#pm-combat")
    mover.click(f"#unit-{rook}")
    mover.click(f"#unit-{enemy_rook}")
    mover.click("#pm-start-battles")
    mover.wait_for_selector("#pm-pass")
    assert "Battle 1 of 1" in other.inner_text("#pm-fight")
    # the card list and the labelled bonus boxes stay inside the fight card at 390 px
    fight = mover.locator("#pm-fight").bounding_box()
    card_list = mover.locator("#pm-card").bounding_box()
    assert card_list["x"] + card_list["width"] <= fight["x"] + fight["width"]
    assert mover.evaluate("document.documentElement.scrollWidth") <= 390
    labels = mover.locator("#pm-fight .bonus-entry label").all_inner_texts()
    assert [t.strip() for t in labels] == ["Attack", "Damage", "Defense"]
    mover.select_option("#pm-card", label="Steady Aim (+1 Attack)")
    mover.click("#pm-play")
    other.wait_for_selector("#pm-pass")
    assert "Steady Aim +1 Attack" in other.inner_text("#pm-fight")
    other.click("#pm-pass")
    mover.wait_for_selector("#pm-roll")
    mover.click("#pm-roll")
    # the dice large on both phones for a few seconds: each side's faces and their sum
    for phone in (mover, other):
        phone.wait_for_selector("#dice-show:not([hidden]) .dice-sum")
        assert phone.locator("#dice-show .dice-line").count() == 2
    mover.wait_for_selector("#pm-confirm")
    other.wait_for_selector("#pm-result")
    result = table.view()["state"]["battle"]["result"]
    attacker, defender = result["attacker"], result["defender"]
    for phone in (mover, other):
        text = phone.inner_text("#pm-result")
        assert f"2d6 {'+'.join(map(str, attacker['faces']))} = {attacker['dice']}" in text
        assert f"⇒ {attacker['attack_total']}" in text and f"⇒ {defender['attack_total']}" in text
        assert attacker["attack_total"] == attacker["dice"] + 2 + 1  # Attack 2, Steady Aim
        assert defender["attack_total"] == defender["dice"] + 2
        verdict = f"HIT: {attacker['damage']} damage" if attacker["hits"] else "no hit"
        assert verdict in text
    shot(mover, folder, "pm-04-result-mover")
    shot(other, folder, "pm-05-result-other")
    mover.click("#pm-confirm")
    mover.wait_for_selector("#pm-end-turn")

    # both phones show the new counters (or the destroyed Rook)
    after = table.view()["state"]
    assert after["battle"] is None and after["phase"] == "end"
    for unit_id, hit in ((enemy_rook, attacker), (rook, defender)):
        unit = unit_of(after, unit_id)
        expected = hit["damage"] if hit["hits"] else 0
        if expected >= 2:  # PM-24 (seed): counters reach Shields 2
            assert unit["destroyed"] and unit["place"] == "reserve"
            for phone in (mover, other):
                phone.wait_for_selector(f"#pm-destroyed #unit-{unit_id}.destroyed")
        else:
            assert (unit["counters"], unit["destroyed"]) == (expected, False)
            for phone in (mover, other):
                count_is(phone, unit_id, f"{expected}/2")
    shot(other, folder, "pm-06-after-battle-other")

    # one tap adds a counter, one removes it: each phone sees the other's tap
    frigate = f"{me}1"
    other.click(f"#plus-{frigate}")
    count_is(mover, frigate, "1/6")
    assert unit_of(table.view()["state"], frigate)["counters"] == 1
    mover.click(f"#minus-{frigate}")
    count_is(other, frigate, "0/6")
    assert mover.locator(f"#minus-{frigate}").is_disabled()  # no counter below zero (PM-23)

    # knocked out by taps: the enemy Comet Lancer (Shields 3) takes three counters (PM-24);
    # a person taps "+" again after seeing the count change, slower than the shell's double-tap
    # guard (REPEAT_MS, 400 ms), which would drop a second tap of the same request sooner
    lancer = f"{foe}4"
    for n in (1, 2):
        mover.click(f"#plus-{lancer}")
        count_is(other, lancer, f"{n}/3")
        count_is(mover, lancer, f"{n}/3")
        mover.wait_for_timeout(500)
    mover.click(f"#plus-{lancer}")
    for phone in (mover, other):
        phone.wait_for_selector(f"#pm-destroyed #unit-{lancer}.destroyed")
    unit = unit_of(table.view()["state"], lancer)
    assert (unit["destroyed"], unit["place"], unit["counters"]) == (True, "reserve", 0)
    assert "destroyed" in other.inner_text(f"#unit-{lancer}")
    shot(mover, folder, "pm-07-end-mover")
    shot(other, folder, "pm-08-end-other")

    # the action log names every event in words, with who did it
    other.click("#log summary")
    other.wait_for_selector("#log-list li")
    log = other.inner_text("#log-list")
    # both fleets have a Rook Shuttle: every unit is named with its owner (the seat)
    mine, theirs = f"Rook Shuttle (Player {me})", f"Rook Shuttle (Player {foe})"
    assert f"Move: {mine} → Contested zone" in log and f"Move: {theirs} → Contested zone" in log
    assert f"Combat: {mine} → {theirs}" in log and "Pass" in log
    assert "combat card: Steady Aim" in log
    # the battle's roll is one line: the action and both sides' dice with their sums (issue 31)
    a, d = attacker["faces"], defender["faces"]
    assert (
        f"rolled · attacker's 2d6 (PM-21): {a[0]} + {a[1]} = {sum(a)}"
        f" · defender's 2d6 (PM-21): {d[0]} + {d[1]} = {sum(d)}"
    ) in log
    assert log.count("attacker's 2d6") == 1 and log.count("defender's 2d6") == 1
    assert log.count(f"damage counter +1 on Comet Lancer (Player {foe})") == 3
    assert f"damage counter −1 on Halo Frigate (Player {me})" in log
    shot(other, folder, "pm-09-log-other")

    # the same table in German
    path = mover.url.split(base, 1)[1]
    mover.goto(f"{base}/lang/de?next={path}")
    mover.wait_for_selector(f"#pm-destroyed #unit-{lancer}.destroyed")
    assert "Zug 3" in mover.inner_text("#pm-turn")
    assert "Zerstört (PM-24)" in mover.inner_text("#pm-destroyed")
    assert "zerstört" in mover.inner_text(f"#unit-{lancer}")
    mover.click("#log summary")
    mover.wait_for_selector("#log-list li")
    assert f"Schadensmarker +1 auf Comet Lancer (Spieler {foe})" in mover.inner_text("#log-list")
    shot(mover, folder, "pm-10-german")
