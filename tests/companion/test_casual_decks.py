"""Casual decks: a deck that breaks the building rules is refused with the rule and the
numbers (422 ``deck_rules``) and can then be brought anyway (``"casual": true``); the table
records on both sides which rules it breaks. The cards guide's own example deck plays this way."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from tests.companion.conftest import act
from tests.companion.test_pocketmodel_api import pm  # noqa: F401 - the PocketModel table fixture
from tests.companion.test_transformers_api import bring_demo, ok, seat_transformers
from tests.games.transformers_helpers import DEMO_YAML

ROOT = Path(__file__).resolve().parents[2]
DECK_SIZE = {
    "text": "deck has 3 cards, at least 30 (PM-5)",
    "message_id": "deck_size",
    "rule": "PM-5",
    "values": {"size": 3, "least": 30},
}
"""The example deck's one broken building rule, as the table keeps it (issue 31.5)."""
TEAM_STARS = "team has 27 stars, at most 25 (TF-3)"


def example_deck() -> str:
    """The example deck of the cards guide's *Writing your own deck* (docs/print-cards.md, its
    first YAML block)."""
    text = (ROOT / "docs" / "print-cards.md").read_text(encoding="utf-8")
    found = re.search(r"```yaml\n(game: pocketmodel\n.*?)```", text, re.S)
    assert found, "docs/print-cards.md has no PocketModel example deck"
    return found.group(1)


def bring(client: FlaskClient, seats: Any, seat: str, text: str, **extra: Any) -> Any:
    revision = client.get(seats.api + "/state", headers=seats.headers(seat)).get_json()["revision"]
    body = {
        "client_action_id": f"deck-{seat}-{len(extra)}",
        "expected_revision": revision,
        "filename": "my-deck.yaml",
        "text": text,
        **extra,
    }
    return client.post(seats.api + "/deck", json=body, headers=seats.headers(seat))


def test_the_guide_example_deck_plays_as_a_casual_fleet(
    client: FlaskClient,
    pm: Any,  # noqa: F811
) -> None:
    refused = bring(client, pm, "A", example_deck())
    assert refused.status_code == 422
    assert refused.get_json() | {"view": None} == {
        "error": "deck_rules",
        "message": "deck has 3 cards, at least 30 (PM-5)",
        "rule": "PM-5",
        "message_id": "deck_size",
        "values": {"least": 30, "size": 3},
        "problems": [DECK_SIZE],
        "view": None,
    }
    view = bring(client, pm, "A", example_deck(), casual=True).get_json()["view"]
    mine = view["state"]["players"]["A"]
    assert mine["casual"] == [DECK_SIZE]  # with its message id: each phone translates it
    assert [u["name"] for u in view["state"]["units"]] == ["Comet Lancer"]
    # the other side sees that A plays a casual deck, and the rule and the numbers
    seen = client.get(pm.api + "/state", headers=pm.headers("B")).get_json()
    assert seen["state"]["players"]["A"]["casual"] == [DECK_SIZE]
    # B brings a legal deck: not casual, and the game starts (PM-9) and plays
    ok(act(client, pm, "B", {"type": "fleet", "deck": None, "units": [lancer()]}))
    state = client.get(pm.api + "/state", headers=pm.headers("A")).get_json()
    assert state["state"]["phase"] == "main" and state["state"]["players"]["B"]["casual"] == []
    first = state["to_act"]
    unit = f"{first}1"
    moved = act(client, pm, first, {"type": "move", "units": [unit], "to": "contested"})
    assert moved.status_code == 200, moved.get_json()


def lancer() -> dict[str, Any]:
    return {
        "name": "Comet Lancer",
        "stars": 4,
        "attack": 4,
        "damage": 2,
        "defense": 9,
        "shields": 3,
        "icons": ["Torpedo", "Leader"],
        "ground": False,
        "text": None,
        "card": None,
        "deploy": True,
    }


def test_a_legal_deck_is_never_recorded_as_casual_and_casual_needs_a_boolean(
    client: FlaskClient,
    pm: Any,  # noqa: F811
) -> None:
    bad = bring(client, pm, "A", example_deck(), casual="yes")
    assert bad.status_code == 400 and "casual" in bad.get_json()["message"]
    revision = client.get(pm.api + "/state", headers=pm.headers("A")).get_json()["revision"]
    body = {"client_action_id": "demo", "expected_revision": revision, "demo": "pocketmodel"}
    view = client.post(
        pm.api + "/deck", json={**body, "casual": True}, headers=pm.headers("A")
    ).get_json()["view"]
    assert view["state"]["players"]["A"]["casual"] == []


def test_a_transformers_team_over_25_stars_is_played_anyway_with_the_numbers(
    client: FlaskClient,
) -> None:
    seats = seat_transformers(client)
    ok(act(client, seats, "A", {"type": "setup"}))
    text = DEMO_YAML.read_text(encoding="utf-8").replace("stars: 7\n", "stars: 10\n", 1)
    refused = bring_demo(client, seats, "A", filename="big.yaml", text=text)
    assert refused.status_code == 422 and refused.get_json()["error"] == "deck_rules"
    view = ok(bring_demo(client, seats, "A", filename="big.yaml", text=text, casual=True))
    assert [r["text"] for r in view["state"]["teams"]["A"]["casual"]] == [TEAM_STARS]
    assert view["state"]["teams"]["A"]["casual"][0]["message_id"] is not None
    assert [c["name"] for c in view["state"]["characters"]][:3] == [
        "Bulwark",
        "Quickstep",
        "Lanternfish",
    ]
    theirs = client.get(seats.api + "/state", headers=seats.headers("B")).get_json()
    assert [r["text"] for r in theirs["state"]["teams"]["A"]["casual"]] == [TEAM_STARS]
