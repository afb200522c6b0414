"""The print shop's cards door (issue 27, points 1, 3, 4 and 5): a demo deck or an uploaded
deck printed by the command itself, a deck's problems by line and field fixed on the page,
the limits of what a browser sends (at and past), a failure's one line, one tap to a table,
and every text of the shop in German."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from flask.testing import FlaskClient
from pypdf import PdfReader

from games.cards.deck import DeckError, parse_deck_text
from games.registry import CARD_GAMES
from shop.cardpages import FORM_ROOM, MAX_NAME, MAX_UPLOAD
from shop.pages import MAX_FIELD
from tests.shop.conftest import wait_ended

ROOT = Path(__file__).resolve().parents[2]
GOOD = """game: pocketmodel
deck: tiny
cards:
  - kind: unit
    name: Tiny Scout
    stars: 1
    attack: 2
    damage: 1
    defense: 6
    shields: 2
    icons: Laser
"""
BROKEN = GOOD.replace("stars: 1", "stars: 9").replace("    icons: Laser\n", "")


def command_pdf(deck: str, out: Path, *options: str, cwd: Path | None = None) -> bytes:
    subprocess.run(
        [sys.executable, str(ROOT / "tablesmith.py"), "cards", deck, "--out", str(out), *options],
        check=True, capture_output=True, cwd=cwd,
    )  # fmt: skip
    return out.read_bytes()


def download(client: FlaskClient, url: str) -> bytes:
    with client.get(url) as answer:
        assert answer.status_code == 200
        return bytes(answer.data)


def test_the_start_page_has_the_cards_door(client: FlaskClient) -> None:
    english = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    german = client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert 'id="door-cards" href="/cards"' in english and "Print the cards" in english
    assert "Die Karten drucken" in german


@pytest.mark.slow
def test_a_demo_deck_prints_the_commands_pdf_with_a_preview_of_every_page(
    client: FlaskClient, tmp_path: Path
) -> None:
    form = {"source": "demo", "demo": "pocketmodel", "paper": "letter", "bleed": "2"}
    answer = client.post("/cards", data={**form, "crop_marks": "on", "qr": "on"})
    assert answer.status_code == 303
    job = answer.headers["Location"]
    state = wait_ended(client, job)
    assert state["state"] == "done", state
    made = download(client, state["files"]["pocketmodel.pdf"])
    expected = command_pdf(
        "demo:pocketmodel", tmp_path / "pocketmodel.pdf", "--paper", "letter", "--bleed", "2"
    )
    assert made == expected
    pages = len(PdfReader(tmp_path / "pocketmodel.pdf").pages)
    previews = [name for name in state["files"] if name.startswith("preview/")]
    assert len(previews) == pages >= 2
    page = client.get(job).get_data(as_text=True)
    assert 'name="demo" value="pocketmodel"' in page and 'id="play-deck"' in page
    table = client.post("/tables", data={"game": "pocketmodel", "demo": "pocketmodel"})
    assert table.status_code == 303 and table.headers["Location"].endswith("?demo=pocketmodel")


@pytest.mark.slow
def test_an_uploaded_deck_is_checked_fixed_on_the_page_and_printed_as_the_command_prints_it(
    client: FlaskClient, tmp_path: Path
) -> None:
    own = {"source": "own", "filename": "tiny.yaml", "crop_marks": "on", "qr": "on"}
    checked = client.post("/cards/check", data={**own, "text": BROKEN})
    assert checked.status_code == 400
    page = checked.get_data(as_text=True)
    with pytest.raises(DeckError) as problems:
        parse_deck_text(BROKEN, games=CARD_GAMES, source="tiny.yaml")
    lines = str(problems.value).splitlines()
    assert len(lines) >= 2
    for line in lines:  # each problem by line and field, in the command's words
        assert f"<li>{line.replace(chr(39), '&#39;')}</li>" in page
    assert BROKEN.replace("\n", "&#10;")[:20] in page or "stars: 9" in page  # kept to fix
    assert client.post("/cards", data={**own, "text": BROKEN}).status_code == 400
    fixed = client.post("/cards/check", data={**own, "text": GOOD})
    assert fixed.status_code == 200 and 'id="deck-problems"' in fixed.get_data(as_text=True)
    answer = client.post("/cards", data={**own, "text": GOOD})
    assert answer.status_code == 303
    state = wait_ended(client, answer.headers["Location"])
    assert state["state"] == "done", state
    (tmp_path / "tiny.yaml").write_text(GOOD, encoding="utf-8")
    expected = command_pdf("tiny.yaml", tmp_path / "out" / "tiny.pdf", cwd=tmp_path)
    assert download(client, state["files"]["tiny.pdf"]) == expected
    page = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert 'name="deck" value="carried"' in page and 'id="carried-deck"' in page
    table = client.post("/tables", data={"game": "pocketmodel", "deck": "carried"})
    assert table.status_code == 303 and table.headers["Location"].endswith("?deck=carried")


@pytest.mark.slow
def test_a_refused_option_ends_the_job_with_the_commands_one_line(client: FlaskClient) -> None:
    answer = client.post("/cards", data={"source": "demo", "demo": "toy-battle", "bleed": "11"})
    state = wait_ended(client, answer.headers["Location"])
    assert state["state"] == "failed"
    assert state["error"].startswith("--bleed") and "\n" not in state["error"]
    assert "files" not in state


def test_limits_of_a_deck_a_name_and_an_option_at_and_past(client: FlaskClient) -> None:
    own = {"source": "own", "filename": "big.yaml"}
    at = "#" * MAX_UPLOAD  # a comment as long as the limit: read, then refused as a deck
    multipart = "multipart/form-data"  # as the page sends it (no URL encoding of the text)
    answer = client.post("/cards/check", data={**own, "text": at}, content_type=multipart)
    assert answer.status_code == 400
    assert "at most" not in answer.get_data(as_text=True)
    past = client.post("/cards/check", data={**own, "text": at + "#"}, content_type=multipart)
    assert past.status_code == 400
    assert f"deck: at most {MAX_UPLOAD:,} bytes here" in past.get_data(as_text=True)
    too_big = {**own, "text": "#" * (MAX_UPLOAD + FORM_ROOM)}
    body = client.post("/cards/check", data=too_big, content_type=multipart)
    assert body.status_code == 413
    name = "n" * (MAX_NAME - 5) + ".yaml"
    ok = client.post("/cards/check", data={**own, "filename": name, "text": GOOD})
    assert ok.status_code == 200
    long = client.post("/cards/check", data={**own, "filename": "n" + name, "text": GOOD})
    assert f"file name: at most {MAX_NAME} characters" in long.get_data(as_text=True)
    field = {"source": "demo", "demo": "toy-battle", "qr_base": "h" * (MAX_FIELD + 1)}
    refused = client.post("/cards", data=field)
    assert refused.status_code == 400
    assert f"--qr-base: at most {MAX_FIELD} characters" in refused.get_data(as_text=True)
    odd = client.post("/cards", data={"source": "demo", "demo": "chess"})
    assert odd.status_code == 400 and "demo: allowed pocketmodel" in odd.get_data(as_text=True)


def test_every_text_of_the_shop_has_its_german_translation() -> None:
    found = {
        message[2] if isinstance(message[2], str) else message[2][0]
        for message in extract_from_dir(
            str(ROOT / "shop"),
            method_map=[("**.py", "python"), ("templates/**.html", "jinja2")],
            keywords={"_": None, "gettext": None, "lazy_gettext": None},
        )
    }
    path = ROOT / "shop/translations/de/LC_MESSAGES/messages.po"
    with path.open("rb") as handle:
        german = {m.id: m.string for m in read_po(handle) if m.id}
    assert len(found) > 60
    missing = sorted(text for text in found if not german.get(text))
    assert not missing, f"no German for {missing}"


def test_the_shop_keeps_the_companions_direct_action_route(shop_app: Any) -> None:
    """A hook of the shop's would make every action take the slow way through Flask."""
    from companion.asgi import unknown_hooks

    assert unknown_hooks(shop_app) == []


def test_an_uploaded_deck_may_name_no_art_file(client: FlaskClient) -> None:
    """A deck from the page naming a picture would print any image the server can read, or
    tell which paths exist: refused at the check, before any job."""
    for art in ("/etc/shadow", "../../secret.png", "photo.png"):
        text = GOOD.replace("    icons: Laser\n", f"    icons: Laser\n    image: {art}\n")
        own = {"source": "own", "filename": "art.yaml", "text": text}
        for url in ("/cards/check", "/cards"):
            answer = client.post(url, data=own)
            assert answer.status_code == 400
            page = answer.get_data(as_text=True)
            assert "field &#39;image&#39;: card art cannot be uploaded here" in page, art
    german = client.post("/cards/check", data=own, headers={"Accept-Language": "de"})
    assert (
        "art.yaml: Karte &#39;Tiny Scout&#39;: Feld &#39;image&#39;: Kartenbilder lassen sich "
        "hier nicht hochladen"
    ) in german.get_data(as_text=True)


def test_a_control_character_in_an_option_is_refused_and_a_gone_job_says_so(
    client: FlaskClient,
) -> None:
    answer = client.post("/cards", data={"source": "demo", "demo": "toy-battle", "bleed": "1\x00"})
    assert answer.status_code == 400
    assert "--bleed: a control character" in answer.get_data(as_text=True)
    for url in ("/cards/jobs/nothing.json", "/pieces/jobs/nothing.json"):
        gone = client.get(url)
        assert gone.status_code == 404 and gone.get_json() == {
            "state": "gone",
            "error": "not_found",
        }


def test_a_german_page_lists_the_deck_s_problems_and_warnings_in_german(
    client: FlaskClient,
) -> None:
    own = {"source": "own", "filename": "tiny.yaml", "crop_marks": "on", "qr": "on"}
    german = {"Accept-Language": "de"}
    page = client.post("/cards/check", data={**own, "text": BROKEN}, headers=german)
    text = page.get_data(as_text=True)
    assert page.status_code == 400
    assert (
        "<li>tiny.yaml: Zeile 4 (Karte 1): Feld &#39;stars&#39;: erlaubt ist eine ganze Zahl 1..5; gefunden 9</li>"
        in text
    )
    assert "Feld &#39;icons&#39;: fehlt; erlaubt ist 1..4 von" in text
    assert "field &#39;" not in text
    warned = client.post("/cards/check", data={**own, "text": GOOD}, headers=german)
    assert warned.status_code == 200
    assert "ein Deck mit mindestens 30 Kampf- und Zielkarten" in warned.get_data(as_text=True)
