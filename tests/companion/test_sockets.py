"""The WebSocket channel (:mod:`companion.sockets`) is SSE + POST on one socket: the same
answers, refusals, duplicates and catch-up, byte for byte, and its own limits at and past them.

The byte-for-byte test plays one script twice on fresh apps with the same seeded dice and a
frozen clock (``time.time`` stepped by the test): once with both phones on SSE + POST, once
with both on sockets. Every answer and both phones' streams must be the same text, except for
the table's id (random per table).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from companion import sockets
from companion.evented import serve_in_thread
from companion.tables.budgets import SEAT_STREAMS, WATCH_STREAMS
from tests.companion.conftest import make_app, serve_with_waitress
from tests.companion.wsclient import SocketPhone, SsePhone, WebSocket, ws_url

T0 = 1_800_000_000.0
Phone = SocketPhone | SsePhone


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """``time.time`` frozen at :data:`T0`; the test steps it (``now[0] += 1``)."""
    now = [T0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    return now


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    app = make_app(tmp_path)
    base, stop = serve_in_thread(app)
    yield base
    stop()


def table(base: str, game: str, **more: Any) -> tuple[str, str, str, str]:
    """(table id, A's token, B's token, watch token) of a new table with both seats taken."""
    created = requests.post(f"{base}/api/tables", json={"game": game, **more}, timeout=10).json()
    join = created["join_url"].rsplit("/", 1)[1]
    joined = requests.post(f"{base}/api/join/{join}", json={}, timeout=10).json()
    watch = created["watch_url"].rsplit("/", 1)[1]
    return created["table_id"], created["token"], joined["token"], watch


def revision(text: str) -> int:
    """The newest event id in a stream's text."""
    ids = [int(line[4:]) for line in text.split("\n") if line.startswith("id: ")]
    return max(ids, default=0)


def play(
    base: str, game: str, open_phone: Callable[[str, str, str], Phone], now: list[float]
) -> tuple[list[tuple[int, str, int | None]], str, str]:
    """Both phones at a new table play :func:`script`. Returns the answers (status, body with
    the table id replaced, retry_after) and both streams."""
    table_id, token_a, token_b, _ = table(
        base, game, clock={"mode": "chess", "seconds": 600, "increment": 5}
    )
    a = open_phone(base, table_id, token_a)
    a.wait(lambda: '"connected":true' in a.stream)
    b = open_phone(base, table_id, token_b)
    a.wait(lambda: a.stream.count('"connected":true') >= 3)  # A's view: A, then A and B
    b.wait(lambda: b.stream.count('"connected":true') >= 2)
    answers: list[tuple[int, str, int | None]] = []
    view: dict[str, Any] = {}

    def send(phone: Phone, kind: str, body: Any) -> dict[str, Any]:
        now[0] += 1
        status, content, retry = phone.post(kind, body)
        answers.append((status, content.decode().replace(table_id, "TABLE"), retry))
        parsed = json.loads(content)
        if status == 200:
            view.clear()
            view.update(parsed["view"])
            for p in (a, b):
                p.wait(lambda p=p: revision(p.stream) >= view["revision"])  # type: ignore[misc]
        return dict(parsed)

    def action(phone: Phone, cid: str, act: Any, expected: int | None = None) -> dict[str, Any]:
        rev = view.get("revision", 0) if expected is None else expected
        body = {"expected_revision": rev, "client_action_id": cid, "action": act}
        return send(phone, "actions", body)

    try:
        script(game, a, b, view, send, action)
        return answers, a.stream.replace(table_id, "TABLE"), b.stream.replace(table_id, "TABLE")
    finally:
        a.close()
        b.close()


def script(
    game: str,
    a: Phone,
    b: Phone,
    view: dict[str, Any],
    send: Callable[[Phone, str, Any], dict[str, Any]],
    action: Callable[..., dict[str, Any]],
) -> None:
    """Every write kind: applied, duplicated, refused (``view`` is the newest view seen)."""
    seat = {"A": a, "B": b}
    if game == "asteroids":
        first = revision(a.stream)
        action(a, "setup", {"type": "setup", "mode": "random"}, first)
        action(a, "setup", {"type": "setup", "mode": "random"}, first)  # duplicate
        action(a, "setup", {"type": "undo"}, first)  # the id again, another request: 409
        mover = seat[view["to_act"]]
        other = b if mover is a else a
        legal = view["legal"][0]
        action(other, "stale", legal, first)  # 409 stale
        action(other, "not-yours", legal)  # 422 not your turn
        action(mover, "move-1", legal)
        action(mover, "fly", {"type": "fly"})  # 400
        send(mover, "actions", [1])  # 400: not an object
        action(mover, "undo-1", {"type": "undo"})
        send(a, "dice", {"client_action_id": "d1", "count": 2, "sides": 6, "purpose": "damage"})
        send(a, "dice", {"client_action_id": "d1", "count": 2, "sides": 6, "purpose": "damage"})
        send(a, "dice", {"client_action_id": "d2", "count": 0, "sides": 6, "purpose": "x"})
        for cid, op in (
            ("k1", {"op": "add", "name": "VP"}),
            ("k2", {"op": "change", "name": "VP", "by": 2}),
        ):
            send(
                b,
                "counters",
                {"expected_revision": view["revision"], "client_action_id": cid, **op},
            )
        send(
            b,
            "counters",
            {
                "expected_revision": view["revision"],
                "client_action_id": "k3",
                "op": "remove",
                "name": "nope",
            },
        )
        send(a, "clock", {"client_action_id": "c1", "op": "pause"})
        send(a, "clock", {"client_action_id": "c2", "op": "resume"})
        send(a, "clock", {"client_action_id": "c3", "op": "sand"})
        send(
            a,
            "deck",
            {
                "client_action_id": "x1",
                "expected_revision": view["revision"],
                "demo": "pocketmodel",
            },
        )
    else:  # a deck game: set up, bring decks
        variant = {"destroy_above_shields": False, "icon_gates_bonus": True}
        action(a, "setup", {"type": "setup", "variant": variant}, revision(a.stream))

        def deck(phone: Phone, cid: str, demo: str) -> None:
            body = {"client_action_id": cid, "expected_revision": view["revision"], "demo": demo}
            send(phone, "deck", body)

        deck(a, "x1", "pocketmodel")
        deck(b, "x2", "transformers")  # 422: another game's deck
        deck(b, "x3", "pocketmodel-corsairs")
        deck(b, "x3", "pocketmodel-corsairs")  # duplicate


def sse_phone(base: str, table_id: str, token: str) -> Phone:
    return SsePhone(base, table_id, token)


def socket_phone(base: str, table_id: str, token: str) -> Phone:
    return SocketPhone(base, table_id, token)


@pytest.mark.parametrize("game", ["asteroids", "pocketmodel"])
def test_every_write_kind_both_ways_gives_the_same_bytes(
    tmp_path: Path, frozen: list[float], game: str
) -> None:
    runs = []
    for name, opener in (("sse", sse_phone), ("socket", socket_phone)):
        frozen[0] = T0
        app = make_app(tmp_path / name)
        base, stop = serve_in_thread(app)
        try:
            runs.append(play(base, game, opener, frozen))
        finally:
            stop()
    (answers_sse, a_sse, b_sse), (answers_ws, a_ws, b_ws) = runs
    statuses = [status for status, _, _ in answers_sse]
    if game == "asteroids":
        assert statuses == [
            200,
            200,
            409,
            409,
            422,
            200,
            400,
            400,
            200,
            200,
            200,
            400,
            200,
            200,
            422,
            200,
            200,
            400,
            422,
        ]
        assert '"duplicate":true' in answers_sse[1][1]
        assert '"client_action_id_reused"' in answers_sse[2][1]
        assert '"not_your_turn"' in answers_sse[4][1]
    else:
        assert statuses == [200, 200, 422, 200, 200]
        assert '"duplicate":true' in answers_sse[4][1]
    assert answers_ws == answers_sse
    assert a_ws == a_sse
    assert b_ws == b_sse
    assert revision(b_ws) >= 4 and b_ws.startswith("retry: 1500\n\n")


def refusal_over_http(base: str, table_id: str, token: str | None, since: str) -> tuple[int, bytes]:
    headers = {} if token is None else {"X-Seat-Token": token}
    answer = requests.get(
        f"{base}/api/t/{table_id}/events", params={"since": since}, headers=headers, timeout=10
    )
    return answer.status_code, answer.content


@pytest.mark.parametrize(
    ("token", "since", "status"),
    [(None, "0", 403), ("guess", "0", 403), ("A", "x1", 400), ("A", "1" * 16, 400)],
)
def test_a_refused_hello_says_why_as_the_stream_route_does_and_closes(
    server: str, token: str | None, since: str, status: int
) -> None:
    table_id, token_a, _, _ = table(server, "asteroids")
    real = token_a if token == "A" else token
    ws = WebSocket(ws_url(server, table_id))
    ws.send(json.dumps({"since": since} | ({} if real is None else {"token": real})))
    text = ws.messages.get(timeout=10)
    assert text is not None
    answer = json.loads(text)
    assert (answer["re"], answer["status"]) == (0, status)
    expected_status, expected_body = refusal_over_http(server, table_id, real, since)
    assert expected_status == status
    assert text == f'{{"re":0,"status":{status},"body":{expected_body.decode()}}}'
    assert ws.messages.get(timeout=10) is None
    assert ws.close_code == 4000 + status
    ws.close()


@pytest.mark.parametrize("hello", ["[" * 30000 + "]" * 30000, "{not json", b"\x00"])
def test_a_hello_that_is_no_json_object_is_answered_400_and_closes(
    server: str, hello: str | bytes
) -> None:
    """Nested past Python's recursion limit too (it raised RecursionError out of the
    handler: no answer, an ASGI traceback in the log)."""
    table_id, _, _, _ = table(server, "asteroids")
    ws = WebSocket(ws_url(server, table_id))
    if isinstance(hello, bytes):
        ws.send_bytes(hello)
    else:
        ws.send(hello)
    text = ws.messages.get(timeout=10)
    assert text is not None
    answer = json.loads(text)
    assert (answer["re"], answer["status"], answer["body"]["error"]) == (0, 400, "malformed")
    assert ws.messages.get(timeout=10) is None
    assert ws.close_code == 4400
    ws.close()


@pytest.mark.parametrize(
    "headers",
    [
        [("Origin", "http://evil.test")],
        [("Origin", "null")],
        [("Sec-Fetch-Site", "cross-site")],
        [("Origin", "http://a.test"), ("Origin", "http://b.test")],
    ],
)
def test_a_cross_site_handshake_is_refused(server: str, headers: list[tuple[str, str]]) -> None:
    table_id, _, _, _ = table(server, "asteroids")
    ws = WebSocket(ws_url(server, table_id), headers)
    assert ws.status == 403
    ws.close()
    same_site = WebSocket(ws_url(server, table_id), [("Origin", server)])
    assert same_site.status == 101
    same_site.close()


def test_only_the_socket_route_upgrades(server: str) -> None:
    table_id, _, _, _ = table(server, "asteroids")
    for path in (f"/api/t/{table_id}/events", f"/api/t/{table_id}/sockets", "/socket"):
        ws = WebSocket(server.replace("http://", "ws://") + path)
        assert ws.status == 403, path
        ws.close()


def test_the_hello_must_come_in_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sockets, "HELLO_SECONDS", 1.5)
    base, stop = serve_in_thread(make_app(tmp_path))
    try:
        table_id, token_a, _, _ = table(base, "asteroids")
        late = WebSocket(ws_url(base, table_id))
        assert late.messages.get(timeout=10) is None  # nothing sent: closed at 1.5 s
        assert late.close_code == 1008
        late.close()
        in_time = WebSocket(ws_url(base, table_id))
        time.sleep(0.3)
        in_time.send(json.dumps({"token": token_a, "since": 0}))
        assert in_time.messages.get(timeout=10) == "retry: 1500\n\n"
        in_time.close()
    finally:
        stop()


def padded(size: int) -> str:
    """A dice write of exactly ``size`` bytes (its purpose padded)."""
    empty = json.dumps({"re": 1, "post": "dice", "body": {"client_action_id": "p", "purpose": ""}})
    message = json.dumps(
        {
            "re": 1,
            "post": "dice",
            "body": {"client_action_id": "p", "purpose": "x" * (size - len(empty))},
        }
    )
    assert len(message.encode()) == size
    return message


def test_a_message_is_taken_up_to_its_limit_and_closes_the_socket_past_it(server: str) -> None:
    table_id, token_a, _, _ = table(server, "asteroids")
    limit = sockets.max_message(64 * 1024, 0)
    assert limit == 64 * 1024 + 1024
    phone = SocketPhone(server, table_id, token_a)
    try:
        phone.wait(lambda: "data: " in phone.stream)
        phone.ws.send(padded(limit))
        status, body, _ = phone.answer(1)
        assert status == 413  # answered as POST /dice with that body: over MAX_CONTENT_LENGTH
        assert json.loads(body)["error"] == "request_entity_too_large"
        phone.ws.send(padded(limit + 1))
        phone.wait(lambda: phone.ended)
        assert phone.ws.close_code == 1009
    finally:
        phone.close()


def test_past_the_rate_a_message_is_answered_429_and_not_carried_out(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a window of 3 s: the RATE messages are surely in it, however busy the machine
    monkeypatch.setattr(sockets, "RATE_SECONDS", 3.0)
    table_id, token_a, _, _ = table(server, "asteroids")
    phone = SocketPhone(server, table_id, token_a)
    try:
        phone.wait(lambda: "data: " in phone.stream)
        roll = {"client_action_id": "r1", "count": 1, "sides": 6, "purpose": "rate"}
        other = {**roll, "client_action_id": "r2"}
        for number in range(1, sockets.RATE + 2):  # all sent at once, answered in turn
            body = roll if number <= sockets.RATE else other  # the last one a new roll
            phone.ws.send(json.dumps({"re": number, "post": "dice", "body": body}))
        phone.ws.send("not json")  # past the rate too: refused as such, not answered 400
        answers = [phone.answer(number) for number in range(1, sockets.RATE + 2)]
        assert [status for status, _, _ in answers] == [200] * sockets.RATE + [429]
        assert phone.answer(None)[0] == 429
        assert json.loads(answers[-1][1])["error"] == "rate_limited"
        assert answers[-1][2] in (1, 2, 3)  # until the first leaves the window
        rolls = requests.get(
            f"{server}/api/t/{table_id}/dice", headers={"X-Seat-Token": token_a}, timeout=10
        ).json()["rolls"]
        assert len(rolls) == 1  # the first roll (the next 19 its duplicates); not r2
        time.sleep(answers[-1][2] + 0.1)
        assert phone.post("dice", other)[0] == 200  # the window passed: r2 is rolled
        rolls = requests.get(
            f"{server}/api/t/{table_id}/dice", headers={"X-Seat-Token": token_a}, timeout=10
        ).json()["rolls"]
        assert len(rolls) == 2
    finally:
        phone.close()


@pytest.mark.parametrize(
    ("message", "number", "words"),
    [
        ("not json", None, "not JSON"),
        ("[1]", None, "a write is"),
        ('{"re": 0, "post": "dice", "body": {}}', None, "re must be"),
        ('{"re": true, "post": "dice", "body": {}}', None, "re must be"),
        ('{"re": 7, "post": "state", "body": {}}', 7, "post must be one of"),
        ('{"re": 8, "post": "dice"}', 8, "the body must be a JSON object"),
    ],
)
def test_a_message_out_of_the_protocol_is_answered_400(
    server: str, message: str, number: int | None, words: str
) -> None:
    table_id, token_a, _, _ = table(server, "asteroids")
    phone = SocketPhone(server, table_id, token_a)
    try:
        phone.wait(lambda: "data: " in phone.stream)
        phone.ws.send(message)
        status, body, _ = phone.answer(number)
        assert status == 400
        assert json.loads(body)["error"] == "malformed"
        assert words in json.loads(body)["message"]
        phone.ws.send_bytes(b"{}")
        status, body, _ = phone.answer(None)
        assert (status, json.loads(body)["message"]) == (400, "messages are JSON text frames")
    finally:
        phone.close()


def test_a_seat_holds_its_stream_budget_of_sockets_and_watchers_theirs(server: str) -> None:
    table_id, token_a, _, watch = table(server, "asteroids")
    seated = [SocketPhone(server, table_id, token_a) for _ in range(SEAT_STREAMS)]
    watchers = [SocketPhone(server, table_id, watch) for _ in range(WATCH_STREAMS)]
    try:
        for phone in seated + watchers:
            phone.wait(lambda phone=phone: "data: " in phone.stream)
        assert not any(phone.ended for phone in seated + watchers)  # at the limit: all open
        one_more = SocketPhone(server, table_id, token_a)  # past it: the oldest ends
        seated[0].wait(lambda: seated[0].ended)
        assert seated[0].ws.close_code == 1000
        one_more.wait(lambda: "data: " in one_more.stream)
        seated.append(one_more)
        refused = SocketPhone(server, table_id, watch)
        refused.wait(lambda: refused.ended)
        status, body, retry = refused.answer(0)
        assert (status, json.loads(body)["error"], retry) == (429, "watchers_full", 5)
        assert refused.ws.close_code == 4429
        refused.close()
    finally:
        for phone in seated + watchers:
            phone.close()


def test_a_reconnected_socket_catches_up_as_the_stream_does(server: str) -> None:
    table_id, token_a, token_b, _ = table(server, "asteroids")
    phone_a = SocketPhone(server, table_id, token_a)
    phone_b = SocketPhone(server, table_id, token_b)
    try:
        phone_b.wait(lambda: "data: " in phone_b.stream)
        seen = revision(phone_b.stream)
        phone_b.close()
        body = {
            "expected_revision": seen,
            "client_action_id": "s",
            "action": {"type": "setup", "mode": "random"},
        }
        assert phone_a.post("actions", body)[0] == 200
        again = SocketPhone(server, table_id, token_b, since=seen)
        sse = SsePhone(server, table_id, token_b, since=seen)
        try:
            again.wait(lambda: revision(again.stream) > seen)
            sse.wait(lambda: revision(sse.stream) > seen)
            assert again.stream == sse.stream
            assert f"id: {seen + 1}\n" in again.stream and f"id: {seen}\n" not in again.stream
        finally:
            again.close()
            sse.close()
    finally:
        phone_a.close()


def test_the_socket_closes_with_1012_when_the_server_stops(tmp_path: Path) -> None:
    base, stop = serve_in_thread(make_app(tmp_path))
    table_id, token_a, _, _ = table(base, "asteroids")
    phone = SocketPhone(base, table_id, token_a)
    phone.wait(lambda: "data: " in phone.stream)
    stop()
    phone.wait(lambda: phone.ended)
    assert phone.ws.close_code == 1012
    phone.close()


def test_the_page_sends_over_its_socket_the_writes_the_socket_carries() -> None:
    script = (Path(sockets.__file__).parent / "static" / "socket.js").read_text()
    listed = script.split("const WRITES = [", 1)[1].split("]", 1)[0]
    assert tuple(json.loads(f"[{listed}]")) == sockets.WRITES


def test_the_table_page_offers_its_socket_only_where_the_server_serves_it(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    base, stop = serve_in_thread(app)
    table_id, token_a, _, _ = table(base, "asteroids")
    cookies = {f"ts_seat_{table_id}": token_a}
    pages = {}
    for name, serve in (("uvicorn", None), ("waitress", serve_with_waitress)):
        if serve is not None:
            base, stop = serve(app, threads=4)
        try:
            pages[name] = requests.get(f"{base}/t/{table_id}", cookies=cookies, timeout=10).text
        finally:
            stop()
    assert 'data-socket="1"' in pages["uvicorn"]  # the page tries a socket first
    assert 'data-socket="0"' in pages["waitress"]  # SSE + POST only
    assert all("socket.js" in page for page in pages.values())
