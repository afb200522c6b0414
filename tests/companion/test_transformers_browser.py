"""Real browser (Debian chromium via Playwright, phone viewport 390x844): two phones open a
Transformers table, bring a team each (demo deck, quick entry), fight one attack with flipped
icons entered on both phones, and each sees the other's damage counters change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.companion.phones import count_is, shot, shots_folder, two_phones


@pytest.mark.slow
def test_two_phones_fight_one_attack_and_see_each_others_counters(
    browser: Any,
    live_server: tuple[str, Flask],
    tmp_path: Path,
) -> None:
    folder = shots_folder(tmp_path)
    base, app = live_server
    phone_a, phone_b = two_phones(browser, base, "transformers")
    phone_a.wait_for_selector("#tf-open")
    shot(phone_a, folder, "01-open")
    phone_a.click("#tf-open")

    # A brings the demo deck, B enters two characters by hand
    for phone in (phone_a, phone_b):
        phone.wait_for_selector("#tf-teams:not([hidden])")
    phone_a.click("#deck-bring")
    phone_a.wait_for_selector("#tf-team-wait:not([hidden])")
    phone_b.click("#tf-quick summary")
    shot(phone_b, folder, "02-quick-entry")
    phone_b.fill("#tf-quick-rows .quick-row input.field >> nth=0", "Ironjaw")
    phone_b.click("#tf-quick-bring")
    for phone in (phone_a, phone_b):
        phone.wait_for_selector("#char-A1")
        phone.wait_for_selector("#char-B1")
    table = app.extensions["tablesmith.tables"].table(phone_a.url.rsplit("/", 1)[1])
    state = table.view()["state"]
    names = [c["name"] for c in state["characters"]]
    assert names == ["Bulwark", "Quickstep", "Lanternfish", "Ironjaw"]
    me = state["player"]
    mover, other = (phone_a, phone_b) if me == "A" else (phone_b, phone_a)
    assert "Your turn" in mover.inner_text("#who") and "Waiting" not in mover.inner_text("#who")
    shot(mover, folder, "03-board-mover")

    # one attack: draw, pick attacker and defender, both phones enter their flips
    attacker, defender = ("A1", "B1") if me == "A" else ("B1", "A3")
    mover.click("#tf-draw")
    mover.wait_for_selector("#tf-attack-start")
    mover.click("#tf-attack-start")
    mover.click(f"#char-{attacker}")
    mover.click(f"#char-{defender}")
    mover.wait_for_selector("#tf-attacker-flip")
    other.wait_for_selector("#tf-defender-flip")  # the defending phone enters its side
    assert other.locator("#tf-attacker-flip").count() == 0
    # icons by tapping, card by card (D23): two orange on the first card, none on the second
    mover.click("#tf-attacker-tap-orange")
    mover.click("#tf-attacker-tap-orange")
    mover.wait_for_selector("#tf-attacker-flip >> text=card 2 of 2")
    mover.click("#tf-attacker-tap-none")
    other.click("#tf-defender-tap-blue")
    other.click("#tf-defender-tap-none")  # "no more icons" on a card with one blue
    other.wait_for_selector("#tf-defender-flip >> text=card 2 of 2")
    other.click("#tf-defender-tap-none")
    mover.wait_for_selector("#tf-resolve")
    view = table.view()["state"]["attack"]
    damage = view["damage"]
    assert damage == view["attacker"]["total"] - view["defender"]["total"] > 0
    assert mover.inner_text("#tf-damage") == f"Damage: {damage}"
    assert other.inner_text("#tf-total-attacker") == f"Total {view['attacker']['total']}"
    shot(mover, folder, "04-attack-mover")
    shot(other, folder, "05-attack-defender")
    mover.click("#tf-resolve")
    health = next(c["health"] for c in table.view()["state"]["characters"] if c["id"] == defender)
    for phone in (mover, other):
        count_is(phone, defender, f"{damage}/{health}")
    shot(other, folder, "06-after-attack-defender")

    # the defending phone takes a counter off, the attacking phone sees it
    other.click(f"#minus-{defender}")
    count_is(mover, defender, f"{damage - 1}/{health}")
    mover.click(f"#plus-{defender}")
    count_is(other, defender, f"{damage}/{health}")
    shot(mover, folder, "07-counters-mover")
    assert "Last attack" in other.inner_text("#tf-turn")
    assert "No more attacks this turn" in mover.inner_text("#tf-turn")  # TF-24
    assert mover.locator("#tf-turn .check.off").count() == 3  # the plays come before (D5)

    # the same table in German, and a scanned card opening the character on it
    path = mover.url.split(base, 1)[1]
    mover.goto(f"{base}/lang/de?next={path}")
    mover.wait_for_selector(f"#char-{defender}")
    assert "Zug 1" in mover.inner_text("#tf-turn")
    shot(mover, folder, "08-german")
    mover.goto(f"{base}/card/transformers/demo-team/bulwark")
    mover.wait_for_selector("#char-A1.focus")
    shot(mover, folder, "09-card-opens-character")
    other.goto(f"{base}/card/transformers/demo-team/tide-turns")
    assert "Tide Turns" in other.inner_text("#card-face")
    shot(other, folder, "10-card-face")


@pytest.mark.slow
def test_german_phone_fits_390_px_labels_the_stats_and_guides_every_tap(
    browser: Any,
    live_server: tuple[str, Flask],
    tmp_path: Path,
) -> None:
    """New-user findings: the German Flip/Tap buttons widened the page past 390 px, the three
    stat boxes had no labels, an Upgrade tap without a card did nothing visible, and the hint
    still asked for the attacker once it was chosen."""
    folder = shots_folder(tmp_path)
    base, app = live_server
    phone_a, phone_b = two_phones(browser, base, "transformers", locale="de-DE")
    phone_a.wait_for_selector("#tf-open")
    phone_a.uncheck("#tf-setup input[name=must_attack]")  # turn 1 ends without an attack (D9)
    phone_a.click("#tf-open")
    for phone in (phone_a, phone_b):
        phone.wait_for_selector("#tf-teams:not([hidden])")
        phone.click("#deck-bring")
    for phone in (phone_a, phone_b):
        phone.wait_for_selector("#char-A1")
        phone.wait_for_selector("#char-B1")
    table = app.extensions["tablesmith.tables"].table(phone_a.url.rsplit("/", 1)[1])
    first = table.view()["state"]["player"]
    phones = {"A": phone_a, "B": phone_b}
    second = "B" if first == "A" else "A"
    phones[first].click("#tf-draw")
    phones[first].click("#tf-end-turn")
    mover = phones[second]
    mover.wait_for_selector("#tf-draw")
    mover.click("#tf-draw")
    mover.wait_for_selector("#tf-play-upgrade")
    mover.wait_for_selector(f"#flip-{second}1")
    shot(mover, folder, "11-german-second-turn")
    # Umdrehen / Tappen stay inside their tiles and the page stays 390 px wide
    assert mover.evaluate("document.documentElement.scrollWidth") <= 390
    tile = mover.locator(f"#char-{second}1").bounding_box()
    for button in (f"#flip-{second}1", f"#tap-{second}1"):
        box = mover.locator(button).bounding_box()
        assert tile["x"] <= box["x"] and box["x"] + box["width"] <= tile["x"] + tile["width"]
    # the stat boxes are labelled
    assert mover.inner_text("#tf-legend").split() == ["Angriff", "Verteidigung", "Lebenspunkte"]
    # an Upgrade tap without a card says what is missing
    mover.click("#tf-play-upgrade")
    mover.wait_for_selector("#toast:not([hidden])")
    assert mover.inner_text("#toast") == "Wähle zuerst die Upgrade-Karte."
    # the attack hint follows the taps: attacker first, then the defender
    mover.click("#tf-attack-start")
    assert mover.inner_text("#tf-actions .hint").startswith("Tippe deinen ungetappten Angreifer")
    mover.click(f"#char-{second}1")
    mover.wait_for_function(
        "document.querySelector('#tf-actions .hint').textContent.startsWith('Tippe jetzt')"
    )
    assert "gegnerischen Charakter" in mover.inner_text("#tf-actions .hint")
    shot(mover, folder, "12-german-pick-defender")
