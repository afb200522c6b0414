"""The engines' refusals read well in both languages: every message id of every engine has its
English text (the engine's own) and a German one in the game view's catalog, and a German
phone shows a refusal in German with its rule id, never the engine's English words."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from flask import Flask

from games import registry
from games.protocol import Messages
from tests.companion.phones import two_phones

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = {"asteroids": "asteroids", "pocketmodel": "pocketmodel", "toy-battle": "toybattle"}
PACKAGE["transformers"] = "transformers"
ENTRY = re.compile(r'^  "([a-z0-9_]+)": _\("([^"]*)"', re.M)


def view_catalog(game: str) -> dict[str, str]:
    """The ``refusal-strings`` block of the game's view: message id -> English."""
    html = (ROOT / "companion/views" / game / "view.html").read_text(encoding="utf-8")
    block = html.split('id="refusal-strings"', 1)[1].split("</script>", 1)[0]
    return dict(ENTRY.findall(block))


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_every_message_id_has_its_english_and_a_german_text(game: str) -> None:
    module = importlib.import_module(f"games.{PACKAGE[game]}.messages")
    messages: Messages = module.MESSAGES
    assert view_catalog(game) == dict(messages.texts)
    po = ROOT / "companion/views" / game / "translations/de/LC_MESSAGES/messages.po"
    with po.open("rb") as handle:
        german = {m.id: m.string for m in read_po(handle) if m.id and not m.fuzzy}
    for message_id, english in messages.texts.items():
        text = german.get(english)
        assert text and text != english, (message_id, english)
        fields = set(re.findall(r"%\((\w+)\)s", english))
        assert set(re.findall(r"%\((\w+)\)s", text)) == fields, (message_id, text)


def test_a_german_page_carries_the_refusal_texts_in_german(live_server: tuple[str, Flask]) -> None:
    base, app = live_server
    client = app.test_client()
    url = client.post("/tables", data={"game": "pocketmodel"}).headers["Location"]
    page = client.get(url, headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '"over_budget": "Einheiten im Wert von %(stars)s Sternen, h\\u00f6chstens' in page
    assert "units worth %(stars)s stars" not in page


@pytest.mark.slow
def test_a_german_phone_sees_a_refusal_in_german_with_its_rule(
    browser: Any, live_server: tuple[str, Flask]
) -> None:
    """Asteroids' manual layout with no HH fragment in rift 1 is refused by AST-3; the phone
    shows the engine's message translated, with the rule id, and keeps the server's English
    out of the page (no detail behind the outbox pill)."""
    base, app = live_server
    phone_a, phone_b = two_phones(browser, base, "asteroids", locale="de-DE")
    phone_a.wait_for_selector("#manual")
    phone_a.click("#manual summary")
    for slot in (0, 2):  # HH -> HA: rift 1 becomes HA HA HA AH
        phone_a.click(f"#m-1-{slot}")
    phone_a.click("#manual-setup")
    phone_a.wait_for_selector("#outbox[data-state=refused]", timeout=8000)
    toast = phone_a.inner_text("#toast")
    assert "Spalte 1 braucht ein HH-Fragment" in toast and "(AST-3)" in toast, toast
    assert "must contain" not in toast and "HH fragment" not in toast, toast
    assert not phone_a.get_attribute("#outbox", "title")  # no raw engine text to tap open
    phone_a.click("#outbox")
    again = phone_a.inner_text("#toast")
    assert "braucht ein HH-Fragment" in again and "must contain" not in again, again
    table = app.extensions["tablesmith.tables"].table(phone_a.url.rsplit("/", 1)[1])
    assert table.view()["state"] is None  # nothing was set up
