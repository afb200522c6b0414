"""What a new player meets first, on real phones (Debian chromium via Playwright, 390 x 844):
the join QR code in sight without scrolling, a Toy Battle card page like the printed tile
(translated), Kwak's one mark (``J``) on paper and on the phone, and a dice purpose shown as
typed even when it is the name of a JavaScript Object property."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from companion import decks
from games import registry
from games.toybattle.rules import JOKER_MARK
from printables.faces import face_content
from printables.toybattle_aids import SHORT
from tests.companion.phones import PHONE


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_phone_1_sees_the_join_qr_code_without_scrolling(
    browser: Any, live_server: tuple[str, Flask], game: str
) -> None:
    base, _ = live_server
    page = browser.new_context(**PHONE).new_page()
    page.goto(base + "/")
    page.click(f"#new-table-{game}")
    page.wait_for_selector("#invite .qr svg")
    assert page.evaluate("window.scrollY") == 0
    box = page.locator("#invite .qr svg").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["viewport"]["height"], box
    assert box["width"] >= 150  # big enough for a phone camera at arm's length
    page.context.close()


@pytest.mark.slow
def test_the_toy_battle_card_page_shows_the_troop_like_its_tile_in_both_languages(
    browser: Any, live_server: tuple[str, Flask]
) -> None:
    base, _ = live_server
    for locale, kwak, jumbo, effect in (
        ("en-GB", "Joker", "Strength 3", "Discard 1 visible enemy troop next to Jumbo."),
        ("de-DE", "Joker", "Stärke 3", "Lege 1 sichtbare gegnerische Truppe neben Jumbo ab."),
    ):
        page = browser.new_context(**{**PHONE, "locale": locale}).new_page()
        page.goto(base + "/card/toy-battle/troops/jumbo-red")
        assert page.inner_text("#tb-card-mark") == "3"
        assert page.inner_text("#tb-card-strength") == jumbo
        assert page.inner_text("#tb-card-effect") == effect
        colour = page.evaluate(
            "getComputedStyle(document.getElementById('tb-card')).backgroundColor"
        )
        assert colour == "rgb(185, 28, 28)"  # the red troop's colour
        page.goto(base + "/card/toy-battle/troops/kwak")
        assert page.inner_text("#tb-card-mark") == JOKER_MARK
        assert page.inner_text("#tb-card-strength") == kwak
        assert page.locator("dl.facts").count() == 0  # no raw list of fields
        page.context.close()


def test_kwak_has_one_mark_on_the_card_the_aid_tiles_and_the_phone() -> None:
    kwak = next(c for c in decks.demo_decks()["toy-battle"].cards if c.name == "Kwak")
    assert JOKER_MARK == "J"  # "Joker - Kwak" in the published rules (the seed)
    assert face_content(kwak).badge.value == JOKER_MARK
    assert SHORT[0] == JOKER_MARK and SHORT[1:] == tuple("1234567")
    game = registry.get("toy-battle")
    setup = game.parse_setup(game.example_setups()[0])
    state = game.start(
        game.setup_event(setup, tuple((1,) * r.count for r in game.setup_dice(setup)))
    )
    assert game.view(state, "A")["marks"]["Kwak"] == JOKER_MARK


@pytest.mark.slow
def test_a_dice_purpose_named_like_an_object_property_is_shown_as_typed(
    browser: Any, live_server: tuple[str, Flask]
) -> None:
    base, _ = live_server
    page = browser.new_context(**PHONE).new_page()
    page.goto(base + "/")
    page.click("#new-table-asteroids")
    page.click("#dice summary")
    for purpose in ("constructor", "toString"):
        page.fill("#roll-form input[name=purpose]", purpose)
        page.click("#roll-form button")
        page.wait_for_function(
            f"document.getElementById('dice-history').textContent.includes('{purpose} · 1d6')"
        )
    page.click("#log summary")
    page.wait_for_function(
        "document.getElementById('log-list').textContent.includes('toString: 1d6')", timeout=5000
    )
    log = page.inner_text("#log-list")
    assert "constructor: 1d6" in log and "toString: 1d6" in log
    assert "function" not in log and "function" not in page.inner_text("#dice-history")
    page.context.close()
