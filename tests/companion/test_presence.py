"""Presence, fleet colours, seat reclaim and the mDNS name (issue 9, point 5; server side)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient

from companion.evented import serve_in_thread
from companion.tables import seats as seats_module
from tests.companion.conftest import Seats, act, make_app
from tests.companion.test_fairness import LIMITS, Phone, seat, stream_url


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Flask]]:
    app = make_app(tmp_path, **LIMITS)
    base, stop = serve_in_thread(app)
    yield base, app
    stop()


def parse(stamp: str) -> float:
    assert stamp.endswith("Z") and len(stamp) == 20, stamp
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp()


def test_each_seat_sees_whether_the_other_is_connected_and_since_when(
    served: tuple[str, Flask],
) -> None:
    base, _ = served
    seats = seat(base)
    state = requests.get(f"{base}{seats.api}/state", headers=seats.headers("A"), timeout=5).json()
    assert set(state["presence"]) == {"A", "B"}
    assert state["presence"]["B"]["connected"] is False
    phone_a = Phone(stream_url(base, seats, seats.a))
    first = phone_a.view_where(lambda v: v["presence"]["A"]["connected"])
    assert first["presence"]["B"]["connected"] is False
    before = time.time()
    phone_b = Phone(stream_url(base, seats, seats.b))
    seen = phone_a.view_where(lambda v: v["presence"]["B"]["connected"])
    assert before - 1 <= parse(seen["presence"]["B"]["since"]) <= time.time() + 1
    assert seen["revision"] == 1  # a presence change is not a log event
    state = requests.get(f"{base}{seats.api}/state", headers=seats.headers("A"), timeout=5).json()
    assert state["presence"]["B"]["connected"] is True
    time.sleep(1.1)  # "since" has whole seconds
    left = time.time()
    phone_b.close()
    gone = phone_a.view_where(lambda v: not v["presence"]["B"]["connected"])
    assert parse(gone["presence"]["B"]["since"]) >= int(left)
    assert gone["presence"]["A"]["connected"] is True
    phone_a.close()


def test_presence_rides_on_action_answers_and_watchers_do_not_count(
    served: tuple[str, Flask],
) -> None:
    base, _ = served
    seats = seat(base)
    watcher = Phone(stream_url(base, seats, seats.watch_url.rsplit("/", 1)[1]))
    view = watcher.view_where(lambda v: True)
    assert view["presence"]["A"]["connected"] is False  # the watcher is nobody's seat
    phone_b = Phone(stream_url(base, seats, seats.b))
    watcher.view_where(lambda v: v["presence"]["B"]["connected"])
    body = {
        "expected_revision": 1,
        "client_action_id": "s1",
        "action": {"type": "setup", "mode": "random"},
    }
    answer = requests.post(
        f"{base}{seats.api}/actions", json=body, headers=seats.headers("A"), timeout=5
    ).json()
    assert answer["view"]["presence"]["B"]["connected"] is True
    assert answer["view"]["presence"]["A"]["connected"] is False
    phone_b.close()
    watcher.close()


def test_fleet_colours_default_to_the_printed_blue_and_red(client: FlaskClient) -> None:
    created = client.post("/api/tables", json={"game": "asteroids"}).get_json()
    state = client.get(
        f"/api/t/{created['table_id']}/state", headers={"X-Seat-Token": created["token"]}
    ).get_json()
    assert state["colours"] == {"A": "#2E64C8", "B": "#C0392B"}


def test_fleet_colours_are_chosen_per_table_and_survive_a_restart(tmp_path: Path) -> None:
    client = make_app(tmp_path).test_client()
    created = client.post(
        "/api/tables", json={"game": "asteroids", "colours": {"A": "#2e9b4e"}}
    ).get_json()
    url = f"/api/t/{created['table_id']}/state"
    headers = {"X-Seat-Token": created["token"]}
    assert client.get(url, headers=headers).get_json()["colours"] == {
        "A": "#2E9B4E",
        "B": "#C0392B",
    }
    restarted = make_app(tmp_path).test_client()
    assert restarted.get(url, headers=headers).get_json()["colours"]["A"] == "#2E9B4E"


@pytest.mark.parametrize(
    ("colours", "field"),
    [({"A": "blue"}, "colours.A"), ({"C": "#000000"}, "keys A and/or B"), ("red", "object")],
)
def test_bad_colours_are_refused_naming_the_field(
    client: FlaskClient, colours: object, field: str
) -> None:
    response = client.post("/api/tables", json={"game": "asteroids", "colours": colours})
    assert response.status_code == 400 and field in response.get_json()["message"]


def test_the_home_form_takes_colours(client: FlaskClient) -> None:
    response = client.post("/tables", data={"game": "asteroids", "colour_b": "#7D3C98"})
    assert response.status_code == 303
    table_id = response.headers["Location"].split("/t/")[1].split("?")[0]
    token = response.headers["Set-Cookie"].split("=", 1)[1].split(";")[0]
    state = client.get(f"/api/t/{table_id}/state", headers={"X-Seat-Token": token}).get_json()
    assert state["colours"]["B"] == "#7D3C98"


# ------------------------------------------------------------------------------------ reclaim


def test_a_lost_seat_is_reclaimed_with_a_code_from_the_other_phone(
    client: FlaskClient, seats: Seats
) -> None:
    # A's phone is gone (a seat code waits for that: SEAT_GONE_SECONDS; here no wait, the
    # wait itself is in test_seat_codes)
    client.application.extensions["tablesmith.tables"].seats.gone_seconds = 0.0
    made = client.post(seats.api + "/reclaim-code", json={}, headers=seats.headers("B"))
    assert made.status_code == 200
    code = made.get_json()
    assert code["seat"] == "A" and len(code["code"]) == 6 and code["kind"] == "seat"
    assert set(code["code"]) <= set(seats_module.RECLAIM_ALPHABET)
    assert 590 <= parse(code["expires_at"]) - time.time() <= 601
    fresh = client.application.test_client()  # a new browser: no cookie, no token
    spaced = code["code"][:3].lower() + "-" + code["code"][3:]  # as typed on a phone
    taken = fresh.post(seats.api + "/reclaim", json={"code": spaced})
    assert taken.status_code == 200
    body = taken.get_json()
    assert body["seat"] == "A" and body["table_id"] == seats.table_id
    assert f"ts_seat_{seats.table_id}={body['token']}" in taken.headers["Set-Cookie"]
    assert fresh.get(f"/t/{seats.table_id}").status_code == 200  # the cookie seats the browser
    new = {"X-Seat-Token": body["token"]}
    state = client.get(seats.api + "/state", headers=new).get_json()
    assert state["you"] == "A" and state["revision"] == 2
    log = client.get(seats.api + "/log", headers=new).get_json()["events"]
    assert log[-1]["kind"] == "reclaim" and log[-1]["seat"] == "A"
    # the old token no longer works, the code works once
    assert client.get(seats.api + "/state", headers=seats.headers("A")).status_code == 403
    again = fresh.post(seats.api + "/reclaim", json={"code": code["code"]})
    assert again.status_code == 403 and again.get_json()["error"] == "reclaim_code_invalid"
    # the reclaimed seat plays on
    response = act(
        client,
        Seats(seats.table_id, body["token"], seats.b, "", ""),
        "A",
        {"type": "setup", "mode": "random"},
    )
    assert response.status_code == 200


def test_a_phone_whose_seat_was_taken_is_told_so_with_its_way_back(app: Flask) -> None:
    """Issue 32.5: the old phone reopening the table link got "No seat at this table", and
    its token a bare 403; now both say that another phone took the seat, when, and how to
    get it back (the seat key, filled in), in the phone's language."""
    old, other, new = app.test_client(), app.test_client(), app.test_client()
    made = old.post("/tables", data={"game": "asteroids"})
    table_id = made.headers["Location"].split("/t/")[1]
    service = app.extensions["tablesmith.tables"]
    service.seats.gone_seconds = 0.0  # A's phone counts as gone at once (see test_seat_codes)
    joined = other.post("/api/join/" + service.table(table_id).join_token, json={}).get_json()
    api = f"/api/t/{table_id}"
    code = other.post(api + "/reclaim-code", json={}, headers={"X-Seat-Token": joined["token"]})
    assert new.post(api + "/reclaim", json={"code": code.get_json()["code"]}).status_code == 200
    taken_at = time.time()

    page = old.get(f"/t/{table_id}")
    text = page.get_data(as_text=True)
    assert page.status_code == 403 and "Another phone took your seat" in text
    assert "No seat at this table" not in text
    clock = time.strftime("%H:%M UTC", time.gmtime(taken_at))
    assert f"Seat A at this table was taken over by another phone at {clock}" in text
    key = old.get_cookie(f"ts_key_{table_id}_A")
    assert key is not None and f'value="{key.value}"' in text  # one tap
    german = old.get(f"/t/{table_id}", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Ein anderes Handy hat deinen Platz übernommen" in german
    assert "Platz A an diesem Tisch wurde um" in german

    token = old.get_cookie(f"ts_seat_{table_id}")
    assert token is not None
    refused = old.get(api + "/state", headers={"X-Seat-Token": token.value})
    body = refused.get_json()
    assert refused.status_code == 403 and body["error"] == "forbidden"  # the page's handling
    assert (body["reason"], body["seat"]) == ("seat_taken", "A")
    assert abs(parse(body["taken_at"]) - taken_at) < 2
    assert "taken over by another phone" in body["message"] and "seat key" in body["message"]
    never = old.get(api + "/state", headers={"X-Seat-Token": "never-a-token"}).get_json()
    assert "reason" not in never  # a token that never sat here is told nothing more

    back = old.post(api + "/reclaim", json={"code": key.value})  # the way back: the key
    assert back.status_code == 200 and back.get_json()["seat"] == "A"
    assert old.get(f"/t/{table_id}").status_code == 200
    assert "Another phone took your seat" in new.get(f"/t/{table_id}").get_data(as_text=True)


def test_reclaim_codes_expire_and_are_checked(
    client: FlaskClient, seats: Seats, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(seats_module, "RECLAIM_SECONDS", -1.0)
    code = client.post(seats.api + "/reclaim-code", json={"seat": "B"}, headers=seats.headers("A"))
    assert code.get_json()["seat"] == "B"
    expired = client.post(seats.api + "/reclaim", json={"code": code.get_json()["code"]})
    assert expired.status_code == 403
    malformed = client.post(seats.api + "/reclaim", json={"code": "O0I1"})
    assert malformed.status_code == 400 and "code must be 6" in malformed.get_json()["message"]
    watch = {"X-Seat-Token": seats.watch_url.rsplit("/", 1)[1]}
    assert client.post(seats.api + "/reclaim-code", json={}, headers=watch).status_code == 403
    bad_seat = client.post(
        seats.api + "/reclaim-code", json={"seat": "C"}, headers=seats.headers("A")
    )
    assert bad_seat.status_code == 400


def test_no_code_for_a_seat_nobody_took(client: FlaskClient) -> None:
    created = client.post("/api/tables", json={}).get_json()
    response = client.post(
        f"/api/t/{created['table_id']}/reclaim-code",
        json={},
        headers={"X-Seat-Token": created["token"]},
    )
    assert response.status_code == 409 and response.get_json()["error"] == "seat_free"


# --------------------------------------------------------------------------------------- mDNS


@pytest.mark.slow
def test_the_server_answers_to_tablesmith_local() -> None:
    from companion import mdns
    from companion.serve import lan_address

    address = lan_address()
    if address.startswith("127."):
        pytest.skip("this machine has no LAN address for mDNS")
    try:
        announcement = mdns.announce(address, 8765)
    except mdns.MdnsUnavailable as exc:
        pytest.skip(f"mDNS cannot run here: {exc}")
    try:
        assert announcement.url == "http://tablesmith.local:8765"
        assert mdns.resolve(interface=address) == [address]
    finally:
        announcement.close()


def test_mdns_says_why_it_cannot_work_on_loopback() -> None:
    from companion import mdns

    with pytest.raises(mdns.MdnsUnavailable, match="127.0.0.1 only"):
        mdns.announce("192.0.2.10", 8765, "127.0.0.1")
    with pytest.raises(mdns.MdnsUnavailable, match="no LAN address"):
        mdns.announce("127.0.0.1", 8765)
