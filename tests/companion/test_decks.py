"""Decks at the table: the home page's games, card pages for printed QR codes, deck uploads."""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient

from companion import decks
from games import registry
from games.cards.deck import card_path
from tests.companion.conftest import Seats


def test_home_offers_a_new_table_of_every_registered_game(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    for game in registry.GAMES.values():
        assert f'id="new-table-{game.name}"' in page and f"New {game.title} table" in page
    created = client.post("/tables", data={"game": "asteroids"})
    assert created.status_code == 303 and "/t/" in created.headers["Location"]


@pytest.mark.parametrize("demo", sorted(decks.demo_decks()))
def test_a_demo_card_qr_code_opens_its_face_with_a_way_to_play(
    client: FlaskClient, demo: str
) -> None:
    deck = decks.demo_decks()[demo]
    card = deck.cards[-1]
    page = client.get(card_path(deck.game, deck.slug, card.id), headers={"Accept-Language": "en"})
    if deck.game not in registry.GAMES:  # a game the companion does not keep yet
        assert page.status_code == 404
        return
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and card.name in text and deck.title in text
    assert f'name="demo" value="{demo}"' in text
    started = client.post("/tables", data={"game": deck.game, "demo": demo})
    assert started.headers["Location"].endswith("?demo=" + demo)


def test_an_unknown_card_says_so_and_an_unknown_game_is_404(client: FlaskClient) -> None:
    assert client.get("/card/chess/some-deck/queen").status_code == 404
    page = client.get("/card/asteroids/some-deck/no-card", headers={"Accept-Language": "en"})
    assert page.status_code == 404 and "no-card" in page.get_data(as_text=True)


def test_demo_decks_are_those_the_card_sheets_print() -> None:
    found = decks.demo_decks()
    assert {d.game for d in found.values()} == {"pocketmodel", "transformers", "toy-battle"}
    pm = found["pocketmodel"]
    assert decks.find_card("pocketmodel", pm.slug, pm.cards[1].id) == (pm, pm.cards[1])
    assert decks.find_card("pocketmodel", "other-deck", pm.cards[1].id) is None


def test_a_deck_for_another_game_or_a_broken_file_is_refused_with_the_reason(
    client: FlaskClient, seats: Seats
) -> None:
    url = seats.api + "/deck"
    body = {"client_action_id": "d1", "expected_revision": 1, "demo": "pocketmodel"}
    wrong_game = client.post(url, json=body, headers=seats.headers("A"))
    assert wrong_game.status_code == 422 and wrong_game.get_json()["error"] == "deck"
    assert "this table plays Asteroids" in wrong_game.get_json()["message"]
    broken = {
        "client_action_id": "d2",
        "expected_revision": 1,
        "filename": "fleet.yaml",
        "text": "game: pocketmodel\ncards:\n  - {kind: unit, name: X, stars: 9}\n",
    }
    refused = client.post(url, json=broken, headers=seats.headers("A"))
    message = refused.get_json()["message"]
    assert refused.status_code == 422 and "fleet.yaml: line 3" in message and "stars" in message
    assert client.post(url, json={"demo": "nope"}, headers=seats.headers("A")).status_code == 400
    at_limit = {
        **broken,
        "text": broken["text"] + "#" * (decks.MAX_DECK_CHARS - len(broken["text"])),
    }
    parsed = client.post(url, json=at_limit, headers=seats.headers("A")).get_json()
    assert parsed["error"] == "deck" and "fleet.yaml: line 3" in parsed["message"]  # read
    too_long = {**broken, "text": "x" * (decks.MAX_DECK_CHARS + 1)}
    german = {**seats.headers("A"), "Accept-Language": "de"}
    big = client.post(url, json=too_long, headers=german)
    assert big.status_code == 422 and big.get_json()["lines"] == [
        f"fleet.yaml hat {decks.MAX_DECK_CHARS + 1} Zeichen; ein Handy bringt eine Deckdatei mit "
        f"höchstens {decks.MAX_DECK_CHARS} (ein so großes Deck druckt man am Computer, im "
        "Druckbereich oder mit dem Befehl)"
    ]
    state = client.get(seats.api + "/state", headers=seats.headers("A")).get_json()
    assert state["revision"] == 1  # nothing was applied


@pytest.mark.parametrize(
    ("deck_game", "sides"),
    [
        ("pocketmodel", {"A": "pocketmodel", "B": "pocketmodel-corsairs"}),
        ("transformers", {"A": "transformers", "B": "transformers-decepticons"}),
    ],
)
def test_each_card_game_ships_two_opposing_demo_decks_legal_for_play(
    deck_game: str, sides: dict[str, str]
) -> None:
    assert {seat: decks.default_demo(deck_game, seat) for seat in "AB"} == sides
    assert decks.default_demo(deck_game, "watch") is None
    game = registry.GAMES[deck_game]
    assert game.deck_game == deck_game
    first, second = (decks.demo_decks()[sides[seat]] for seat in "AB")
    assert first.slug != second.slug and first.title != second.title
    names = [{c.name for c in deck.cards} for deck in (first, second)]
    assert not names[0] & names[1]  # no card of one side in the other's deck
    for seat, deck in zip("AB", (first, second)):
        assert deck.legality_problems() == []
        assert game.setup_from_deck(deck, seat)["type"] in ("fleet", "team")
    if deck_game == "transformers":
        factions = [{c.faction for c in d.cards if hasattr(c, "faction")} for d in (first, second)]
        assert factions == [{"Autobot"}, {"Decepticon"}]


def test_seat_b_s_picker_starts_on_the_opposing_deck(client: FlaskClient) -> None:
    created = client.post("/api/tables", json={"game": "pocketmodel"}).get_json()
    joined = client.post("/api/join/" + created["join_url"].rsplit("/", 1)[1], json={}).get_json()
    for token, default in (
        (created["token"], "pocketmodel"),
        (joined["token"], "pocketmodel-corsairs"),
    ):
        client.set_cookie("ts_seat_" + created["table_id"], token)
        page = client.get("/t/" + created["table_id"]).get_data(as_text=True)
        listed = json.loads(
            page.split('<script id="demo-decks" type="application/json">')[1].split("</script>")[0]
        )
        assert [d["name"] for d in listed if d["default"]] == [default]


def test_a_german_phone_reads_the_deck_file_s_problems_in_german(
    client: FlaskClient, seats: Seats
) -> None:
    """Issue 31.5: the file's problems (line, field, allowed values) in the phone's language,
    the English phone's exactly as the command prints them; over a socket the handshake's
    Accept-Language decides alike (the socket drives the same route)."""
    url = seats.api + "/deck"
    broken = {
        "client_action_id": "d3",
        "expected_revision": 1,
        "filename": "fleet.yaml",
        "text": "game: pocketmodel\ncards:\n  - {kind: unit, name: X, cost: 2, stars: 9, attack: 1, damage: 1, defense: 6, shields: 1, icons: Laser}\n",
    }
    german = {**seats.headers("A"), "Accept-Language": "de-DE,de;q=0.9"}
    refused = client.post(url, json=broken, headers=german).get_json()
    lines = refused["lines"]
    assert refused["error"] == "deck" and len(lines) == 2, lines
    assert all(line.startswith("fleet.yaml: Zeile 3 (Karte 1): Feld '") for line in lines), lines
    assert lines[1].endswith("Feld 'stars': erlaubt ist eine ganze Zahl 1..5; gefunden 9")
    assert refused["message"] == "\n".join(lines)
    english = {**seats.headers("A"), "Accept-Language": "en"}
    said = client.post(url, json=broken, headers=english).get_json()["lines"]
    from games.cards.deck import DeckError, parse_deck_text
    from games.registry import CARD_GAMES

    with pytest.raises(DeckError) as printed:
        parse_deck_text(broken["text"], games=CARD_GAMES, source="fleet.yaml")
    assert said == str(printed.value).splitlines()
    demo = {"client_action_id": "d4", "expected_revision": 1, "demo": "pocketmodel"}
    wrong = client.post(url, json=demo, headers=german).get_json()["message"]
    assert wrong == "das ist ein Deck für PocketModel TCG; an diesem Tisch wird Asteroids gespielt"


@pytest.mark.parametrize("cards", [decks.MAX_PROBLEM_LINES, decks.MAX_PROBLEM_LINES + 7])
def test_a_deck_with_many_problems_sends_fifty_lines_then_how_many_more(
    client: FlaskClient, seats: Seats, cards: int
) -> None:
    text = "game: pocketmodel\ncards:\n" + "".join(
        f"  - {{kind: unit, name: U{n}, stars: 9, attack: 1, damage: 1, defense: 6, shields: 1, icons: Laser}}\n"
        for n in range(cards)
    )
    body = {"client_action_id": "d5", "expected_revision": 1, "filename": "f.yaml", "text": text}
    german = {**seats.headers("A"), "Accept-Language": "de"}
    lines = client.post(seats.api + "/deck", json=body, headers=german).get_json()["lines"]
    problems = [line for line in lines if line.startswith("f.yaml: Zeile ")]
    assert len(problems) == decks.MAX_PROBLEM_LINES
    assert all("gefunden 9" in line for line in problems)
    if cards > decks.MAX_PROBLEM_LINES:  # one problem a card, and the rest counted
        assert lines[-1] == "… und 7 weitere Probleme" and len(lines) == decks.MAX_PROBLEM_LINES + 1
    else:
        assert len(lines) == decks.MAX_PROBLEM_LINES
