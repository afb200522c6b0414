"""Hidden information: a player's deck list reaches only that player's phone.

Two seats bring the opposing demo decks over the real server (uvicorn, the phones' route);
for every card of a deck that is not in play, neither the other seat nor a watcher receives
its name, id or text: not in the state JSON (``/state``), not in the action answers, not in
the log (``/log``), not in the live stream's events (``/events``). The owner's phone keeps
the list. A card played from the list lies on the table: then everybody sees it (its name in
the log line too), and the cards still in the box stay hidden.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from flask import Flask

from companion import decks
from games import registry
from tests.companion.conftest import LiveClient, Seats, make_app

SIDES = {
    "pocketmodel": ("pocketmodel", "pocketmodel-corsairs"),
    "transformers": ("transformers", "transformers-decepticons"),
}
BOXED_KINDS = {"combat", "objective", "action", "upgrade"}
"""Card kinds that go into the deck box (units and characters lie on the table)."""


@pytest.fixture
def live(tmp_path: Any) -> Iterator[LiveClient]:
    client = LiveClient(make_app(tmp_path))
    yield client
    client.stop()


def seat(client: LiveClient, game: str) -> tuple[Seats, str]:
    """A table of ``game`` with both seats taken; also the watch token."""
    created = client.post("/api/tables", json={"game": game}).get_json()
    joined = client.post("/api/join/" + created["join_url"].rsplit("/", 1)[1], json={}).get_json()
    seats = Seats(
        table_id=created["table_id"],
        a=created["token"],
        b=joined["token"],
        watch_url=created["watch_url"],
        join_url=created["join_url"],
    )
    return seats, created["watch_url"].rsplit("/", 1)[1]


def revision(client: LiveClient, seats: Seats) -> int:
    found: int = client.get(seats.api + "/state", headers=seats.headers("A")).get_json()["revision"]
    return found


def write(client: LiveClient, seats: Seats, who: str, path: str, **body: Any) -> str:
    """POST ``path`` for seat ``who``; returns the answer's text (it carries a view)."""
    body |= {
        "client_action_id": f"c{random.getrandbits(40):x}",
        "expected_revision": revision(client, seats),
    }
    answer = client.post(f"{seats.api}/{path}", json=body, headers=seats.headers(who))
    assert answer.status_code == 200, answer.get_json()
    return answer.data.decode()


def stream_text(base: str, seats: Seats, token: str) -> str:
    """Every Server-Sent Event of the table from the start, as the phone's stream sends them."""
    last = revision_of_log(base, seats)
    url = f"{base}{seats.api}/events?since=0&token={token}"
    lines = []
    with requests.get(url, stream=True, timeout=10) as response:
        assert response.status_code == 200
        done = False
        for line in response.iter_lines(decode_unicode=True):
            lines.append(line)
            if done and line.startswith("data: "):
                break
            done = done or line == f"id: {last}"
    return "\n".join(lines)


def revision_of_log(base: str, seats: Seats) -> int:
    log = requests.get(f"{base}{seats.api}/log", headers=seats.headers("A"), timeout=10).json()
    total: int = log["total"]
    return total


def seen_by(client: LiveClient, seats: Seats, token: str) -> str:
    """All that a token holder receives: its state view, the log and the stream."""
    headers = {"X-Seat-Token": token}
    state = client.get(seats.api + "/state", headers=headers).data.decode()
    log = client.get(seats.api + "/log", headers=headers).data.decode()
    return "\n".join((state, log, stream_text(client.base, seats, token)))


def boxed(demo: str) -> list[Any]:
    return [c for c in decks.demo_decks()[demo].cards if getattr(c, "type", None) in BOXED_KINDS]


def marks(card: Any, other_side: str) -> list[str]:
    """What gives a card away: its name, its id, and its text where the other deck does not
    print the same words."""
    other_texts = " | ".join(
        getattr(c, "text", "") or "" for c in decks.demo_decks()[other_side].cards
    )
    found = [card.name, f'"{card.id}"']
    if card.text and card.text not in other_texts:
        found.append(json.dumps(card.text)[1:-1])
    return found


def leaks(text: str, cards: list[Any], other_side: str) -> list[str]:
    return [m for card in cards for m in marks(card, other_side) if m in text]


def play_one_card(
    client: LiveClient, seats: Seats, game: str, active: str, side: dict[str, str]
) -> tuple[str, str]:
    """A player puts one card of their deck list on the table: in PocketModel the player to
    act an objective (PM-10), in Transformers the second player an Action (the starting
    player plays none in the first turn, TF-12). Returns the card's name and the player."""
    if game == "pocketmodel":
        card = next(c for c in boxed(side[active]) if c.type == "objective")
        action = {"type": "objective", "slot": 1, "card": card.id}
        write(client, seats, active, "actions", action=action)
        return str(card.name), active
    write(client, seats, active, "actions", action={"type": "draw"})
    write(client, seats, active, "actions", action={"type": "end_turn"})
    second = "B" if active == "A" else "A"
    card = next(c for c in boxed(side[second]) if c.type == "action")
    write(client, seats, second, "actions", action={"type": "draw"})
    write(client, seats, second, "actions", action={"type": "play_action", "card": card.id})
    return str(card.name), second


@pytest.mark.parametrize("game", sorted(SIDES))
def test_the_other_seat_and_a_watcher_never_receive_a_deck_list_only_the_table(
    live: LiveClient, game: str
) -> None:
    seats, watch = seat(live, game)
    side = dict(zip("AB", SIDES[game]))
    setup: dict[str, object] = {"type": "setup"}
    if game == "transformers":  # turn 1 ends without an attack (play_one_card): flag off, D9
        setup["variant"] = {"must_attack": False}
    write(live, seats, "A", "actions", action=setup)
    answers = {who: write(live, seats, who, "deck", demo=side[who]) for who in "AB"}
    tokens = {"A": seats.a, "B": seats.b, "watch": watch}
    received = {who: seen_by(live, seats, token) for who, token in tokens.items()}
    received["B"] += answers["B"]  # B's answer came after A's deck was on the table

    # every boxed card of each deck: only its owner's phone receives it
    for owner in "AB":
        other = "B" if owner == "A" else "A"
        cards = boxed(side[owner])
        assert len(cards) >= 10
        assert leaks(received[other], cards, side[other]) == [], f"{other} sees {owner}'s deck"
        assert leaks(received["watch"], cards, side[other]) == [], f"a watcher sees {owner}'s"
        own = live.get(seats.api + "/state", headers=seats.headers(owner)).get_json()
        lists = own["state"]["players" if game == "pocketmodel" else "teams"][owner]
        listed = lists["deck" if game == "pocketmodel" else "battle_cards"]
        names = {c["name"] for c in (listed["cards"] if game == "pocketmodel" else listed)}
        assert names == {c.name for c in cards}  # the fight screen's list
    seen = live.get(seats.api + "/state", headers=seats.headers("B")).get_json()
    hidden = seen["state"]["players" if game == "pocketmodel" else "teams"]["A"]
    size = sum(c.copies for c in boxed(side["A"]))
    assert (hidden["deck"] if game == "pocketmodel" else hidden)["hidden"] == size
    assert seen["legal"] == [] or seen["to_act"] == "B"  # legal moves only for the seat to act

    # a card played from the list is on the table: its name reaches everybody, the rest not
    played, active = play_one_card(live, seats, game, seen["to_act"], side)
    waiting = "B" if active == "A" else "A"
    for viewer, token in ((waiting, tokens[waiting]), ("watch", watch)):
        text = seen_by(live, seats, token)
        assert played in text
        log = live.get(seats.api + "/log", headers={"X-Seat-Token": token}).get_json()
        last = log["events"][-1]["payload"]["action"]
        assert last["name"] == played, viewer
        rest = [c for c in boxed(side[active]) if c.name != played]
        assert leaks(text, rest, side[waiting]) == [], viewer


def test_a_setup_that_brings_fleets_shows_each_deck_list_to_its_owner_only(
    tmp_path: Any,
) -> None:
    app: Flask = make_app(tmp_path)
    client = app.test_client()
    seats, watch = seat(client, "pocketmodel")  # type: ignore[arg-type]
    game = registry.get("pocketmodel")
    fleets = {
        who: {
            k: v
            for k, v in game.setup_from_deck(decks.demo_decks()[demo], who).items()
            if k != "type"
        }
        for who, demo in zip("AB", SIDES["pocketmodel"])
    }
    body = {"client_action_id": "s1", "expected_revision": 1}
    body["action"] = {"type": "setup", "fleets": fleets}
    answer = client.post(seats.api + "/actions", json=body, headers=seats.headers("A"))
    assert answer.status_code == 200, answer.get_json()
    for who, token in (("A", seats.a), ("B", seats.b), ("watch", watch)):
        log = client.get(seats.api + "/log", headers={"X-Seat-Token": token}).get_data(as_text=True)
        for owner, demo in zip("AB", SIDES["pocketmodel"]):
            names = [c.name for c in boxed(demo) if c.name in log]
            assert (names != []) == (who == owner), (who, owner, names)
