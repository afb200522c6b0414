"""Real browser (Debian chromium via Playwright, 390x844 phone viewport): two phones play
Toy Battle on the City of Clouds, place troops, see each other's placements and one closes a
region (TB-11, TB-12, TB-14, TB-32); screenshots of the board on every terrain."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from games.toybattle.terrains import TERRAINS
from tests.companion.phones import SHOTS, two_phones

# the three bases around a one-medal region next to each colour's H.Q. on the City of Clouds
# (blue 11/12/13 via H.Q. 1; red 22/23/24 via H.Q. 41), in an order that keeps the connection
CLOSE = {"A": [11, 12, 13], "B": [23, 24, 22]}
OTHER_SIDE = {"A": 12, "B": 24}


def seat_two_phones(browser: Any, base: str, terrain: str) -> tuple[Any, Any]:
    phone_a, phone_b = two_phones(browser, base, "toy-battle")
    phone_a.wait_for_selector("#tb-start")
    phone_a.select_option("#tb-terrain", terrain)
    phone_a.click("#tb-start")
    for phone in (phone_a, phone_b):
        phone.wait_for_selector("#tb-svg")
    return phone_a, phone_b


def revision(phone: Any) -> int:
    return int(phone.evaluate("document.getElementById('app').dataset.revision"))


def wait_newer(phones: tuple[Any, ...], before: int) -> None:
    for phone in phones:
        phone.wait_for_function(
            f"Number(document.getElementById('app').dataset.revision) > {before}", timeout=4000
        )


def put(phone: Any, other: Any, troop: str, node: int) -> None:
    """Choose ``troop`` (its short label) and tap ``node``; both phones get the new state."""
    before = revision(phone)
    phone.click(f"#troop-{troop}")
    phone.wait_for_selector(f"#node-{node}.target")
    phone.click(f"#node-{node}")
    wait_newer((phone, other), before)


@pytest.mark.slow
def test_two_phones_place_troops_and_capture_a_region(
    browser: Any, live_server: tuple[str, Flask], tmp_path: Path
) -> None:
    base, app = live_server
    phone_a, phone_b = seat_two_phones(browser, base, "clouds")
    table = app.extensions["tablesmith.tables"].table(phone_a.url.rsplit("/", 1)[1])
    first = table.view()["to_act"]
    phones = {"A": phone_a, "B": phone_b}
    mover, other = phones[first], phones["B" if first == "A" else "A"]
    second = "B" if first == "A" else "A"
    nodes = CLOSE[first]

    put(mover, other, "7", nodes[0])  # Roxy next to the own H.Q.
    # the other phone sees the mover's troop on that base (a red or blue stack)
    other.wait_for_selector(f"#node-{nodes[0]} .troop", timeout=4000)
    put(other, mover, "6", OTHER_SIDE[second])  # the other seat places a Star ...
    mover.wait_for_selector(f"#node-{OTHER_SIDE[second]} .troop", timeout=4000)
    assert other.locator("#tb-decline").count() == 1  # ... its draw is optional (TB-20)
    before = revision(other)
    other.click("#tb-decline")
    wait_newer((other, mover), before)
    put(mover, other, "J", nodes[1])  # Kwak, the joker
    before = revision(other)
    other.click("#tb-draw")  # TB-10
    wait_newer((other, mover), before)
    put(mover, other, "1", nodes[2])  # Skully closes the region on a special base ...
    view = table.view()
    assert view["state"]["seats"][first]["medals"] == 0  # ... taken once the effects are done
    # effects in order: Skully's draw (TB-20), then the City of Clouds (TB-32); decline both
    assert "Skully" in mover.inner_text("#tb-effect")
    # the waiting phone is told who acts, not "draw ... from your reserve"
    waiting = other.inner_text("#tb-effect")
    assert "opponent resolves Skully" in waiting and "your" not in waiting
    assert other.locator("#tb-decline").count() == 0
    before = revision(mover)
    mover.click("#tb-decline")
    wait_newer((mover,), before)
    mover.wait_for_function(
        "document.getElementById('tb-effect').innerText.includes('City of Clouds')", timeout=4000
    )
    mover.screenshot(path=str(tmp_path / "clouds-effect.png"), full_page=True)
    # the shell ignores the same request within 400 ms of its answer as a double tap
    mover.wait_for_timeout(700)
    before = revision(mover)
    mover.click("#tb-decline")
    wait_newer((mover, other), before)
    assert table.view()["to_act"] == second
    assert table.view()["state"]["seats"][first]["medals"] == 1  # TB-14, after the effects
    for phone in (mover, other):
        phone.wait_for_function(
            f"document.getElementById('medals-{first}').innerText.startsWith('1 of 8')",
            timeout=4000,
        )
        assert phone.locator(".region.captured-" + ("blue" if first == "A" else "red")).count() == 1
    assert other.locator(f"#node-{nodes[2]} .troop").count() == 1
    for phone, name in ((mover, "mover"), (other, "other")):
        phone.screenshot(path=str(Path(SHOTS or tmp_path) / f"clouds-{name}.png"), full_page=True)


@pytest.mark.slow
@pytest.mark.parametrize("terrain", list(TERRAINS))
def test_board_screenshot_on_every_terrain(
    browser: Any, live_server: tuple[str, Flask], tmp_path: Path, terrain: str
) -> None:
    base, app = live_server
    phone_a, phone_b = seat_two_phones(browser, base, terrain)
    table = app.extensions["tablesmith.tables"].table(phone_a.url.rsplit("/", 1)[1])
    mover = phone_a if table.view()["to_act"] == "A" else phone_b
    mover.click("#troop-7")  # Roxy: the legal bases light up
    targets = mover.locator(".node.target").count()
    legal = {a["node"] for a in table.view()["legal"] if a.get("troop") == "Roxy"}
    assert targets == len(legal) > 0
    box = mover.locator("#tb-svg").bounding_box()
    assert box is not None and box["width"] <= 390
    out = Path(SHOTS or tmp_path)
    mover.screenshot(path=str(out / f"board-{terrain}.png"), full_page=True)


@pytest.mark.slow
def test_volcanic_jungle_moves_an_enemy_in_two_taps(
    browser: Any, live_server: tuple[str, Flask], tmp_path: Path
) -> None:
    """TB-33 on the phone: the enemy troop next to the special base, then its new base."""
    base, app = live_server
    phone_a, phone_b = seat_two_phones(browser, base, "jungle")
    table = app.extensions["tablesmith.tables"].table(phone_a.url.rsplit("/", 1)[1])
    phones = {"A": phone_a, "B": phone_b}
    plan = [("A", "7", 11), ("B", "7", 21), ("A", "J", 12), ("B", "J", 18), ("A", "7", 15)]
    for seat, troop, node in plan:
        if table.view()["to_act"] != seat:
            idle = phones["B" if seat == "A" else "A"]
            before = revision(idle)
            idle.click("#tb-draw")
            wait_newer((idle, phones[seat]), before)
        put(phones[seat], phones["B" if seat == "A" else "A"], troop, node)
    mover = phone_a
    mover.wait_for_function(
        "document.getElementById('tb-effect').innerText.includes('Volcanic Jungle')", timeout=4000
    )
    assert mover.locator(".node.target").count() == 1  # only B's troop on 18 is next to 15
    mover.click("#node-18")
    mover.wait_for_selector("#node-17.target")
    assert sorted(
        int(i.split("-")[1])
        for i in mover.eval_on_selector_all(".node.target", "els => els.map(e => e.id)")
    ) == [15, 17, 21]
    before = revision(mover)
    mover.click("#node-17")
    wait_newer((mover, phone_b), before)
    stacks = {s["node"]: s["troops"] for s in table.view()["state"]["stacks"]}
    assert 18 not in stacks and stacks[17] == [{"seat": "B", "troop": "Kwak"}]
    phone_b.wait_for_selector("#node-17 .troop", timeout=4000)
    mover.screenshot(path=str(Path(SHOTS or tmp_path) / "jungle-moved.png"), full_page=True)


@pytest.mark.slow
def test_german_phone_terrain_names_roomy_troop_buttons_and_the_capn_prompt(
    browser: Any, live_server: tuple[str, Flask], tmp_path: Path
) -> None:
    """New-user findings: English terrain names on a German page, eight troop buttons of 46 px
    that broke "XB-42" over two lines, and a Cap'n prompt (TB-20) that said what, not how."""
    base, app = live_server
    phone_a, phone_b = two_phones(browser, base, "toy-battle", locale="de-DE")
    phone_a.wait_for_selector("#tb-start")
    names = phone_a.eval_on_selector_all("#tb-terrain option", "os => os.map(o => o.textContent)")
    assert names[:3] == ["Burgfeld", "Tropischer Pool", "Wolkenstadt"]
    phone_a.select_option("#tb-terrain", "clouds")
    phone_a.click("#tb-start")
    for phone in (phone_a, phone_b):
        phone.wait_for_selector("#tb-svg")
    table = app.extensions["tablesmith.tables"].table(phone_a.url.rsplit("/", 1)[1])
    first = table.view()["to_act"]
    mover = phone_a if first == "A" else phone_b
    assert mover.locator("text=Wolkenstadt · noch 16 Medaillen").count() == 1
    # troop buttons: two rows of four, each at least 44 px both ways, the name on one line
    for key in ["J", "1", "2", "3", "4", "5", "6", "7"]:
        box = mover.locator(f"#troop-{key}").bounding_box()
        assert box is not None and box["width"] >= 80 and box["height"] >= 44
        name = mover.locator(f"#troop-{key} .troop-name")
        assert name.evaluate("n => n.scrollWidth <= n.clientWidth && n.getClientRects().length")
    assert mover.inner_text("#troop-5 .troop-name") == "XB-42"
    assert mover.evaluate("document.documentElement.scrollWidth") <= 390
    # Cap'n: the prompt says how to place the extra troop
    put(mover, phone_b if mover is phone_a else phone_a, "2", CLOSE[first][0])
    prompt = mover.inner_text("#tb-effect")
    assert "Cap'n" in prompt and "Tippe die Truppe an, die du einsetzt" in prompt
    mover.screenshot(path=str(Path(SHOTS or tmp_path) / "capn-german.png"), full_page=True)
