"""Both players at once, against a live server (uvicorn, the default) with real concurrent
requests: two phones tap + at the same revision. On different units the taps are independent
(the game declares counters on different units commute), so every tap applies, once, whichever
arrived first; on the same unit one of them is refused as stale (409 with the current view) or
both apply, never one lost or doubled. A stale action that does not commute is still refused."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from companion.evented import serve_in_thread
from tests.companion.conftest import make_app

ROUNDS = 40


class Phones:
    """Two seated phones at one table of ``game`` on a live server, each with its own
    HTTP session (connection)."""

    def __init__(self, base: str, game: str) -> None:
        self.base = base
        self.sessions = {"A": requests.Session(), "B": requests.Session()}
        created = self.sessions["A"].post(base + "/api/tables", json={"game": game}).json()
        join = created["join_url"].rsplit("/", 1)[1]
        joined = self.sessions["B"].post(base + "/api/join/" + join, json={}).json()
        self.api = base + "/api/t/" + created["table_id"]
        self.tokens = {"A": created["token"], "B": joined["token"]}
        self.sent = 0

    def headers(self, seat: str) -> dict[str, str]:
        return {"X-Seat-Token": self.tokens[seat]}

    def view(self, seat: str = "A") -> dict[str, Any]:
        found: dict[str, Any] = (
            self.sessions[seat].get(self.api + "/state", headers=self.headers(seat)).json()
        )
        return found

    def post(self, seat: str, path: str, body: dict[str, Any]) -> requests.Response:
        self.sent += 1
        body = {"client_action_id": f"c{self.sent}-{seat}", **body}
        return self.sessions[seat].post(
            self.api + "/" + path, json=body, headers=self.headers(seat), timeout=10
        )

    def act(self, seat: str, action: dict[str, Any], revision: int | None = None) -> Any:
        if revision is None:
            revision = self.view(seat)["revision"]
        return self.post(seat, "actions", {"expected_revision": revision, "action": action})

    def bring_demo(self, seat: str, demo: str) -> None:
        revision = self.view(seat)["revision"]
        answer = self.post(seat, "deck", {"expected_revision": revision, "demo": demo})
        assert answer.status_code == 200, answer.text

    def at_once(
        self, taps: dict[str, dict[str, Any]], revision: int
    ) -> dict[str, requests.Response]:
        """Both seats POST their action based on ``revision`` at the same moment (two
        threads released together)."""
        start = threading.Barrier(len(taps))
        answers: dict[str, requests.Response] = {}

        def tap(seat: str) -> None:
            start.wait()
            answers[seat] = self.act(seat, taps[seat], revision)

        threads = [threading.Thread(target=tap, args=(seat,)) for seat in taps]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=15)
        return answers


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    app = make_app(tmp_path)
    url, stop = serve_in_thread(app)
    yield url
    stop()


GAMES = {
    # game: (setup, demo deck, the pieces' list in the state, its id field, counter field)
    "pocketmodel": ({"type": "setup"}, "pocketmodel", "units", "unit", "counters"),
    "transformers": ({"type": "setup"}, "transformers", "characters", "character", "damage"),
}


def seated_table(base: str, game: str) -> tuple[Phones, list[str], list[str]]:
    """A table of ``game`` with both decks in; the ids of A's and B's pieces in play."""
    setup, demo, pieces, _, _ = GAMES[game]
    phones = Phones(base, game)
    assert phones.act("A", setup).status_code == 200
    phones.bring_demo("A", demo)
    phones.bring_demo("B", demo)
    state = phones.view()["state"]
    in_play = [p for p in state[pieces] if p.get("place", p.get("zone")) not in ("reserve", "ko")]
    mine = [p["id"] for p in in_play if p["seat"] == "A"]
    theirs = [p["id"] for p in in_play if p["seat"] == "B"]
    assert mine and theirs
    return phones, mine, theirs


def counters_of(phones: Phones, game: str) -> dict[str, int]:
    _, _, pieces, _, field = GAMES[game]
    return {p["id"]: p[field] for p in phones.view()["state"][pieces]}


def counter(game: str, piece: str, delta: int) -> dict[str, Any]:
    return {"type": "counter", GAMES[game][3]: piece, "delta": delta}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_taps_on_different_units_at_the_same_revision_all_apply_once(base: str, game: str) -> None:
    phones, mine, theirs = seated_table(base, game)
    applied = 0
    statuses: list[tuple[int, int]] = []
    for n in range(ROUNDS):
        # + then - on the same pair, so no unit is ever destroyed: each unit carries 0 or 1
        delta = 1 if n % 2 == 0 else -1
        a, b = mine[0], theirs[0]
        before = counters_of(phones, game)
        revision = phones.view()["revision"]
        answers = phones.at_once(
            {"A": counter(game, a, delta), "B": counter(game, b, delta)}, revision
        )
        statuses.append((answers["A"].status_code, answers["B"].status_code))
        after = counters_of(phones, game)
        for seat, piece in (("A", a), ("B", b)):
            if answers[seat].status_code == 200:
                assert not answers[seat].json()["duplicate"]
                assert after[piece] == before[piece] + delta, (n, seat, piece)  # applied once
                applied += 1
            else:
                assert after[piece] == before[piece]
        assert {k: v for k, v in after.items() if k not in (a, b)} == {
            k: v for k, v in before.items() if k not in (a, b)
        }
    print(f"\n{game}: {applied} of {2 * ROUNDS} taps applied; statuses {set(statuses)}")
    assert applied == 2 * ROUNDS, statuses
    assert phones.view()["revision"] == revision + 2  # the last round's two events, no more


@pytest.mark.parametrize("game", sorted(GAMES))
def test_taps_on_the_same_unit_are_never_lost_or_doubled(base: str, game: str) -> None:
    phones, mine, _ = seated_table(base, game)
    outcomes = {"both": 0, "one refused": 0}
    for n in range(ROUNDS // 2):
        delta = 1 if n % 2 == 0 else -1
        piece = mine[0]
        before = counters_of(phones, game)[piece]
        revision = phones.view()["revision"]
        answers = phones.at_once(
            {"A": counter(game, piece, delta), "B": counter(game, piece, delta)}, revision
        )
        codes = sorted(r.status_code for r in answers.values())
        after = counters_of(phones, game)[piece]
        if codes == [200, 409]:
            refused = next(r for r in answers.values() if r.status_code == 409).json()
            assert refused["error"] == "stale"
            assert refused["view"]["revision"] == revision + 1  # the current view comes along
            assert after == before + delta  # exactly the one applied
            outcomes["one refused"] += 1
        else:
            assert codes == [200, 200], (n, codes, [r.text for r in answers.values()])
            assert after == before + 2 * delta
            outcomes["both"] += 1
        if after not in (0, 1):  # both applied: bring the unit back to 0 or 1
            assert phones.act("A", counter(game, piece, -delta)).status_code == 200
    print(f"\n{game}, same unit: {outcomes}")
    assert outcomes["one refused"] == ROUNDS // 2  # the server cannot tell two hits from one


def test_a_stale_action_that_does_not_commute_is_refused_with_the_current_view(
    base: str,
) -> None:
    phones, mine, theirs = seated_table(base, "pocketmodel")
    revision = phones.view()["revision"]
    assert phones.act("B", counter("pocketmodel", theirs[0], 1), revision).status_code == 200
    # the player to act ends the turn based on the revision before the counter: a turn action
    # does not commute with a counter (the game says no), so it is refused
    to_act = phones.view()["to_act"]
    stale = phones.act(to_act, {"type": "end_turn"}, revision)
    assert stale.status_code == 409 and stale.json()["error"] == "stale"
    assert stale.json()["view"]["revision"] == revision + 1
    assert phones.view()["revision"] == revision + 1
    # a counter based on the revision before an undo is refused too (an undo is not an action)
    revision = phones.view()["revision"]
    assert phones.act("B", {"type": "undo"}, revision).status_code == 200
    late = phones.act("A", counter("pocketmodel", mine[0], 1), revision)
    assert late.status_code == 409 and late.json()["error"] == "stale"
