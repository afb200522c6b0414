"""Issue 28: a fifth game is added by its own folder and its view only.

Countdown (``tests/toygame/``: its rules, cards, demo deck, test data and phone view) is
registered with :func:`games.registry.register` and, with no other change anywhere, keeps the
game protocol, loads its own state and log fixtures, prints a card sheet from its demo deck,
is offered on the phone's start page and is played to its end over the API. The places it
needed are exactly the ones docs/contributing.md's "Adding a game" lists.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner

from games import registry
from games.entry import GameEntry
from tests.toygame import ENTRY

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "toygame"


@pytest.fixture
def countdown() -> Iterator[GameEntry]:
    """Countdown registered for one test (tests of other modules may run in between)."""
    with registry.registered(ENTRY) as entry:
        yield entry
    assert "countdown" not in registry.GAMES


def test_the_registry_adds_and_removes_a_game_and_refuses_a_second_of_the_same_name(
    countdown: GameEntry,
) -> None:
    assert list(registry.GAMES)[-1] == "countdown" and len(registry.GAMES) == 5
    assert registry.get("countdown").title == "Countdown"
    assert registry.CARD_GAMES["countdown"] is countdown.cards
    assert registry.DEMO_DECKS["countdown"] == ("tests.toygame", "demo/countdown.yaml")
    with pytest.raises(ValueError, match="registered already"):
        registry.register(ENTRY)
    with pytest.raises(ValueError, match="not a game added by register"):
        registry.unregister("asteroids")


def test_it_keeps_the_protocol_and_loads_its_own_fixtures(countdown: GameEntry) -> None:
    """The protocol tests and the fixture tests, run for the fifth game as they are."""
    from tests.games import test_logged_events, test_protocol, test_state_fixtures

    test_protocol.test_random_playouts_keep_the_protocol("countdown")
    test_protocol.test_errors_are_distinct("countdown")
    test_state_fixtures.test_logged_states_load_to_equal_states("countdown")
    test_logged_events.test_logged_tables_still_fold("countdown")


def test_it_prints_a_card_sheet_from_its_demo_deck(countdown: GameEntry, tmp_path: Path) -> None:
    from pypdf import PdfReader

    from tablesmith import cli

    listed = CliRunner().invoke(cli, ["cards", "--list-demos"])
    assert "demo:countdown" in listed.output.split()
    out = tmp_path / "countdown.pdf"
    result = CliRunner().invoke(cli, ["cards", "demo:countdown", "--out", str(out), "--no-qr"])
    assert result.exit_code == 0, result.output
    pages = PdfReader(out).pages
    assert len(pages) == 2  # 6 cards on one A4 sheet: fronts and backs
    text = pages[0].extract_text()
    assert "Countdown takes (Countdown)" in text  # the sheet's title: deck and game
    assert all(name in text for name in ("One", "Two", "Three", "TAKE"))
    data = out.read_bytes()  # its own icon and art pattern (tests/toygame/art.py), by name
    assert b"/FormXob.icon-counter-ffffff" in data and b"/FormXob.pat-countdown-0-2e7d32-" in data


def test_it_is_on_the_start_page_and_plays_to_its_end_over_the_api(
    countdown: GameEntry, tmp_path: Path
) -> None:
    from tests.companion.conftest import act, flask_post, make_app, seat_both

    client = make_app(tmp_path).test_client()
    home = client.get("/").get_data(as_text=True)
    assert 'id="new-table-countdown"' in home and "New Countdown table" in home
    seats = seat_both(flask_post(client), game="countdown")
    watched = client.get(urlsplit(seats.watch_url).path)
    assert watched.status_code == 200 and 'id="take-3"' in watched.get_data(as_text=True)
    watched.close()
    with client.get("/views/countdown/view.js") as script:
        assert script.status_code == 200 and b"Tablesmith.register" in script.data
    view = act(client, seats, "A", {"type": "setup", "first": "A"}).get_json()["view"]
    assert view["state"] == {"pile": 21, "player": "A", "turn": 1, "winner": None}
    takes = 0
    while view["outcome"] is None and takes < 30:
        mover, pile = view["to_act"], view["state"]["pile"]
        answer = act(client, seats, mover, {"type": "take", "count": min(3, pile)})
        assert answer.status_code == 200, answer.get_json()
        view = answer.get_json()["view"]
        takes += 1
    assert takes == 7  # 21 counters, three at a time
    assert view["outcome"]["winner"] == "A" and view["outcome"]["rule"] == "CD-4"
    assert view["state"]["pile"] == 0 and view["to_act"] is None
    late = act(client, seats, "B", {"type": "take", "count": 1})
    assert late.status_code == 422


def documented_places() -> set[str]:
    """The places docs/contributing.md's "Adding a game" lists (its ``places`` block)."""
    text = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
    section = text.split("## Adding a game", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```text\n(.*?)```", section, re.S)
    assert block is not None, "Adding a game has no ```text block of places"
    return {line.split()[0] for line in block.group(1).splitlines() if line.strip()}


def test_the_places_it_needed_are_the_ones_adding_a_game_lists() -> None:
    """Every file of the toy game, as a place of a game (its package is ``games/<game>/``,
    its own view folder the view's), plus the one registry line, is listed, and every listed
    place is one the toy game needed."""
    needed = {"games/registry.py"}  # ENTRIES; a game kept elsewhere calls register()
    for path in TOY.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            relative = path.relative_to(TOY).as_posix()
            if relative.startswith("view/"):
                needed.add("companion/views/<game>/" + relative.removeprefix("view/"))
            else:
                needed.add(
                    "games/<game>/" + re.sub(r"demo/[^/]+\.yaml$", "demo/<deck>.yaml", relative)
                )
    assert needed == documented_places()
