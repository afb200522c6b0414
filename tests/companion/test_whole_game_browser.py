"""A whole game of each of the four games, tapped on two 390 x 844 phones (A in English, B in
German), by the shortest decisive path the rules allow (issue 31, points 3, 6 and 7): the
control asked for next is in sight without scrolling, every tap target is >= 44 x 44 CSS px,
no empty card, stale toast or stale refusal stays, a roll shows large on both phones, the
phone whose turn it is says so in its title, and the other player's last move is marked.

The paths: Asteroids, both players greedy (the move that brings the own fleet furthest, as in
test_full_game.py); Toy Battle, random legal taps with an immediate win taken when there is
one (TB-40); PocketModel and Transformers, one turn of the game's own controls, then the
damage counters on the phone (PM-23, D14) knock out the other side (PM-40, TF-40).
Screenshots: test-artefacts/phones/<game>/ (see tests/companion/whole_game.py).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest
from flask import Flask

from tests.companion.phones import launch
from tests.companion.test_full_game import greedy
from tests.companion.whole_game import Duel

pytestmark = pytest.mark.slow


@pytest.fixture
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture
def duel(browser: Any, live_server: tuple[str, Flask]) -> Iterator[Any]:
    made: list[Duel] = []

    def make(game: str) -> Duel:
        base, app = live_server
        table = Duel(browser, base, app, game)
        table.open()
        made.append(table)
        return table

    yield make
    for table in made:
        table.close()


def rolls(duel: Duel) -> list[dict[str, Any]]:
    assert duel.seats is not None
    client = duel.app.test_client()
    events = client.get(duel.seats.api + "/log", headers=duel.seats.headers("A")).get_json()
    return [e["payload"] for e in events["events"] if e["kind"] == "roll"]


def turn_told(duel: Duel, seat: str) -> None:
    """The phone whose turn it is says so in its title; the other does not."""
    words = {"A": "● Your turn", "B": "● Du bist am Zug"}
    for who, page in duel.phones.items():
        title = page.evaluate("document.title")
        assert title.startswith(words[who]) == (who == seat), (who, title)


def roll_by_hand(duel: Duel) -> None:
    """Phone B (German) rolls 2d6 from the Dice card: large on both phones, one log line
    with "2W6" and the sum, and no old toast comes back."""
    page = duel.phones["B"]
    for phone in duel.phones.values():  # the last move's toast ("Sent home ...") has gone
        phone.wait_for_selector("#toast", state="hidden", timeout=5000)
    page.click("#dice summary")
    page.fill("#roll-form input[name=count]", "2")
    before = len(rolls(duel))
    page.click("#roll-form button[type=submit]")
    page.wait_for_function(
        f"document.querySelectorAll('#dice-history .rolls li').length > {before}"
    )
    roll = rolls(duel)[-1]
    duel.dice_in_sight(roll["faces"])
    duel.shot("dice")
    # The form's default purpose is stored as the English words and shown in each phone's
    # language (English A once showed B's German "zum Spaß").
    assert roll["purpose"] == "for fun"
    assert "for fun" in duel.phones["A"].inner_text("#dice-show")
    assert "zum Spaß" in duel.phones["B"].inner_text("#dice-show")
    for phone in duel.phones.values():
        assert phone.locator("#toast").is_hidden(), phone.inner_text("#toast")
    page.click("#log summary")
    faces = " + ".join(map(str, roll["faces"]))
    line = f"2W6 {faces} = {sum(roll['faces'])}"
    page.wait_for_function(f"document.getElementById('log-list').innerText.includes({line!r})")
    assert "2d6" not in page.inner_text("#log-list")
    page.click("#log summary")
    page.click("#dice summary")


# ------------------------------------------------------------------------------- Asteroids


def asteroids_taps(duel: Duel, seat: str, action: dict[str, Any]) -> None:
    cell = lambda spot: f"#c-{spot[0]}-{spot[1]}"  # noqa: E731
    if action["type"] == "skip":
        duel.tap(seat, "#skip")
    elif action["type"] == "move":
        origin = action["origin"]
        duel.tap(seat, cell(origin))
        end = "left" if origin[1] == 1 else "right"
        duel.tap(seat, cell(action["target"]) if action["target"] else f"#e-{origin[0]}-{end}")
    else:
        page = duel.phones[seat]
        fragment = f"#f-{action['fragment']}"
        if not page.locator(fragment + ".chosen").count():
            duel.tap(seat, fragment)
        if page.get_attribute(fragment, "data-layout") != action["layout"]:
            duel.tap(seat, "#flip")
        duel.tap(seat, f"#e-{action['rift']}-{action['side']}")


def test_asteroids_whole_game_on_two_phones(duel: Any) -> None:
    table = duel("asteroids")
    table.phase("setup")
    view = table.act("A", lambda: table.tap("A", "#random-setup"))
    table.dice_in_sight(rolls(table)[-1]["faces"])  # the starting player's 1d2 (AST-5)
    rng = random.Random(2)
    marked = 0
    last = None
    while not view["outcome"]:
        seat = view["to_act"]
        turn_told(table, seat)
        table.phase(view["state"]["phase"])
        if view["state"]["ply"] == 12:
            roll_by_hand(table)
        action = greedy(view, rng)
        if action == last:  # the same move again sooner than 400 ms would be a double tap
            table.phones[seat].wait_for_timeout(450)
        view = table.act(seat, partial(asteroids_taps, table, seat, action))
        last = action
        if view["to_act"] not in (seat, None):  # the other's move stays marked on this phone
            marked += table.phones[view["to_act"]].locator(".last-move").count() > 0
    table.ended()
    assert marked > 10
    assert table.phones["A"].evaluate("Tablesmith.signals().turns") > 10


# ------------------------------------------------------------------------------ Toy Battle


def toybattle_choice(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """An immediate win where there is one (a troop on the enemy H.Q., TB-40), else random."""
    legal = view["legal"]
    me = view["to_act"]
    colour = view["state"]["seats"][me]["colour"]
    enemy_hq = {
        n["id"] for n in view["terrain"]["nodes"] if n["kind"] == "hq" and n["colour"] != colour
    }
    wins = [a for a in legal if a["type"] == "place" and a["node"] in enemy_hq]
    places = [a for a in legal if a["type"] == "place"]
    return (wins or places or legal)[0] if wins else rng.choice(places or legal)


def toybattle_taps(duel: Duel, seat: str, action: dict[str, Any], marks: dict[str, str]) -> None:
    node = lambda n: f'[id="node-{n}"]'  # noqa: E731
    kind = action["type"]
    if kind in ("draw", "decline", "stuck"):
        duel.tap(seat, f"#tb-{kind}")
    elif kind == "place":
        duel.tap(seat, f'[id="troop-{marks[action["troop"]]}"]')
        duel.tap(seat, node(action["node"]))
    elif "troop" in action:
        duel.tap(seat, f'[id="tb-resolve-{marks[action["troop"]]}"]')
    elif "node" in action:
        duel.tap(seat, node(action["node"]))
        if "to" in action:
            duel.tap(seat, node(action["to"]))
    else:
        duel.tap(seat, "#tb-resolve")


def test_toybattle_whole_game_on_two_phones(duel: Any) -> None:
    table = duel("toy-battle")
    table.phase("setup")
    view = table.act("A", lambda: table.tap("A", "#tb-start"))
    table.dice_in_sight(rolls(table)[-1]["faces"])  # the starting player (TB-3)
    rng = random.Random(5)
    while not view["outcome"]:
        seat = view["to_act"]
        turn_told(table, seat)
        pending = view["state"]["pending"]
        table.phase("effect" if pending else "turn")
        action = toybattle_choice(view, rng)
        view = table.act(seat, partial(toybattle_taps, table, seat, action, view["marks"]))
    table.ended()


# --------------------------------------------------------- PocketModel and Transformers


def bring_decks(table: Duel, opener: str) -> dict[str, Any]:
    """A opens the table, each phone brings its demo deck; the first player's roll shows."""
    table.phase("setup")
    table.act("A", lambda: table.tap("A", opener))
    table.phase("decks")
    table.act("A", lambda: table.tap("A", "#deck-bring"))
    view = table.act("B", lambda: table.tap("B", "#deck-bring"))
    table.dice_in_sight(rolls(table)[-1]["faces"])
    return view


def knock_out(table: Duel, seat: str, pieces: Any) -> dict[str, Any]:
    """``seat``'s phone puts damage counters on the other side's pieces in play, one tap per
    counter, taking turns between the pieces (the same tap again sooner than 400 ms would be a
    double tap), until the game is over."""
    view = table.view(seat)
    last = None
    while not view["outcome"]:
        targets = pieces(view)
        assert targets, "no piece left to knock out and no end"
        piece = next((p for p in targets if p != last), targets[0])
        if piece == last:
            table.phones[seat].wait_for_timeout(450)
        # a counter is the player's own choice, not a control the game asks for: the player
        # scrolls to the piece (the tap checks no sight)
        view = table.act(seat, partial(table.tap, seat, f"#plus-{piece}", sight=False))
        last = piece
    return view


def card_game(duel: Any, game: str, opener: str, turn: Any, pieces: Any) -> Duel:
    """The decks brought, the first player's ``turn`` tapped with the game's own controls
    (it returns the view after the turn), then the other phone knocks the first player's
    ``pieces(view, seat)`` out with damage counters and wins."""
    table: Duel = duel(game)
    view = bring_decks(table, opener)
    seat = view["to_act"]
    turn_told(table, seat)
    table.phase("turn")
    view = turn(table, seat, view)
    other = view["to_act"]
    assert other != seat
    turn_told(table, other)
    table.phase("counters")
    knock_out(table, other, lambda v: pieces(v, seat))
    assert table.ended()["outcome"]["winner"] == other
    return table


def pocketmodel_turn(table: Duel, seat: str, view: dict[str, Any]) -> dict[str, Any]:
    """A unit moves to the contested zone, the turn ends; the other phone marks the unit."""
    mine = next(
        u for u in view["state"]["units"] if u["seat"] == seat and u["place"] == f"home_{seat}"
    )
    table.tap(seat, "#pm-move")
    table.tap(seat, f"#unit-{mine['id']}")
    table.act(seat, lambda: table.tap(seat, "#move-contested"))
    table.phase("end of turn")
    view = table.act(seat, lambda: table.tap(seat, "#pm-end-turn"))
    assert table.phones[view["to_act"]].locator(f"#unit-{mine['id']}.last-move").count() == 1
    return view


def test_pocketmodel_whole_game_on_two_phones(duel: Any) -> None:
    def units(view: dict[str, Any], seat: str) -> list[str]:
        return [
            u["id"]
            for u in view["state"]["units"]
            if u["seat"] == seat and u["place"] != "reserve" and not u["destroyed"]
        ]

    card_game(duel, "pocketmodel", "#pm-open", pocketmodel_turn, units)


def transformers_turn(table: Duel, seat: str, view: dict[str, Any]) -> dict[str, Any]:
    """The turn's card is drawn (TF-10); the attack the turn must make (TF-20) by taps: the
    attacker, the defender, each side's two flipped cards (no icons, TF-21; the attacker's
    phone may enter both sides, D19), the damage applied; then the turn ends."""
    view = table.act(seat, lambda: table.tap(seat, "#tf-draw"))
    table.phase("drawn")
    while not any(a["type"] == "end_turn" for a in view["legal"]):
        chars = view["state"]["characters"]
        attacker = next(
            c for c in chars if c["seat"] == seat and c["zone"] == "play" and not c["tapped"]
        )
        defender = next(c for c in chars if c["seat"] != seat and c["zone"] == "play")
        table.tap(seat, "#tf-attack-start")
        table.tap(seat, f"#char-{attacker['id']}")
        view = table.act(seat, partial(table.tap, seat, f"#char-{defender['id']}"))
        table.phase("attack")
        for side in ("attacker", "defender"):
            for card in range(2):
                if card:  # the same card again sooner than 400 ms would be a double tap
                    table.phones[seat].wait_for_timeout(450)
                view = table.act(seat, partial(table.tap, seat, f"#tf-{side}-tap-none"))
        view = table.act(seat, lambda: table.tap(seat, "#tf-resolve"))
    return table.act(seat, lambda: table.tap(seat, "#tf-end-turn"))


def test_transformers_whole_game_on_two_phones(duel: Any) -> None:
    def characters(view: dict[str, Any], seat: str) -> list[str]:
        return [
            c["id"]
            for c in view["state"]["characters"]
            if c["seat"] == seat and c["zone"] == "play"
        ]

    card_game(duel, "transformers", "#tf-open", transformers_turn, characters)
