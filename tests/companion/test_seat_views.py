"""Real browser (Debian chromium via Playwright, 390x844 phone viewport): each phone sees the
table from its own side. Seat B sits across the table from A, so B's screen shows the table
turned through 180 degrees, never mirrored: own side at the bottom, and a piece on A's left is
on B's right. Every game is checked from the positions of the pieces on both phones' screens;
in Asteroids a push arrow tapped on B's phone moves the fragments the way it points there."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.companion.phones import demo_decks_table, pocketmodel_table, two_phones

pytestmark = pytest.mark.slow

CENTRES = """ids => ids.map(id => {
  const box = document.getElementById(id).getBoundingClientRect();
  return [box.x + box.width / 2 + window.scrollX, box.y + box.height / 2 + window.scrollY];
})"""


def centres(page: Any, ids: list[str]) -> dict[str, tuple[float, float]]:
    """The centres (page px, x to the right, y down) of the elements ``ids`` on ``page``."""
    found = page.evaluate(CENTRES, ids)
    return {key: (x, y) for key, (x, y) in zip(ids, found, strict=True)}


def assert_turned(
    on_a: dict[str, tuple[float, float]], on_b: dict[str, tuple[float, float]], tol: float = 2.0
) -> None:
    """B's layout of these pieces is A's turned through 180 degrees about their common centre:
    each piece's left-right offset from the centre on B is minus its offset on A (within
    ``tol`` px), and a piece above the centre on A is below it on B (the heights may differ
    where a phone shows its own pieces' buttons). A mirror image (x kept, or y kept) fails."""
    assert len(on_a) >= 2 and on_a.keys() == on_b.keys()

    def middle(points: dict[str, tuple[float, float]]) -> tuple[float, float]:
        xs = [p[0] for p in points.values()]
        ys = [p[1] for p in points.values()]
        return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2

    ax, ay = middle(on_a)
    bx, by = middle(on_b)
    spread = max(abs(p[0] - ax) for p in on_a.values())
    assert spread > 20, f"the pieces do not spread left to right on A: {on_a}"
    for key in on_a:
        da = (on_a[key][0] - ax, on_a[key][1] - ay)
        db = (on_b[key][0] - bx, on_b[key][1] - by)
        flipped_y = abs(da[1]) <= tol and abs(db[1]) <= tol or da[1] * db[1] < 0
        assert abs(da[0] + db[0]) <= tol and flipped_y, (
            f"{key}: offset {da} on A, {db} on B (a 180-degree turn gives minus A's offset)"
        )


def table_of(app: Flask, phone: Any) -> Any:
    return app.extensions["tablesmith.tables"].table(phone.url.rsplit("/", 1)[1])


def wait_revision_above(phones: tuple[Any, ...], revision: int) -> None:
    for phone in phones:
        phone.wait_for_function(
            f"Number(document.getElementById('app').dataset.revision) > {revision}", timeout=4000
        )


# ---------------------------------------------------------------------------------- Asteroids


def cell_ids(rift: int) -> list[str]:
    return [f"c-{rift}-{place}" for place in range(1, 9)]


def fragment_centres(page: Any, state: dict[str, Any], rift: int) -> dict[int, float]:
    """Fragment id -> x of its centre (page px) on ``page``, for the fragments in ``rift``."""
    spots = centres(page, cell_ids(rift))
    out = {}
    for slot, (fragment, _layout) in enumerate(state["rifts"][rift - 1]):
        left, right = spots[f"c-{rift}-{2 * slot + 1}"], spots[f"c-{rift}-{2 * slot + 2}"]
        out[fragment] = (left[0] + right[0]) / 2
    return out


def step(phone: Any) -> None:
    """One step of the phone whose turn it is: a ship out of its base or on, to the first target."""
    origin = phone.locator(".base.origin, .cell.origin").first
    origin.click()
    phone.locator(".cell.target").first.click()


def test_asteroids_b_sees_the_board_turned_and_pushes_the_way_its_arrow_points(
    browser: Any, live_server: tuple[str, Flask]
) -> None:
    base, app = live_server
    phone_a, phone_b = two_phones(browser, base, "asteroids")
    phone_b.wait_for_selector("#random-setup")
    phone_a.click("#random-setup")
    for phone in (phone_a, phone_b):
        phone.wait_for_selector("#c-0-0")
    table = table_of(app, phone_a)
    phones = {"A": phone_a, "B": phone_b}

    # Every place of every rift and both bases: B's board is A's turned through 180 degrees.
    ids = ["c-0-0", "c-7-0"] + [c for rift in range(1, 7) for c in cell_ids(rift)]
    on_a, on_b = centres(phone_a, ids), centres(phone_b, ids)
    assert on_a["c-0-0"][1] > on_a["c-7-0"][1]  # A's base at the bottom of A's screen
    assert on_b["c-7-0"][1] > on_b["c-0-0"][1]  # B's base at the bottom of B's screen
    for rift in range(1, 7):
        xs_a = [on_a[c][0] for c in cell_ids(rift)]
        xs_b = [on_b[c][0] for c in cell_ids(rift)]
        assert xs_a == sorted(xs_a), f"rift {rift}: places 1..8 run left to right on A"
        assert xs_b == sorted(xs_b, reverse=True), (
            f"rift {rift}: places 1..8 run right to left on B"
        )
    cells = [c for rift in range(1, 7) for c in cell_ids(rift)]
    assert_turned({c: on_a[c] for c in cells}, {c: on_b[c] for c in cells})
    # The asteroids (the pieces printed on the fragments) show at the same turned spots.
    for rift in range(1, 7):
        kinds_a = phone_a.evaluate(
            "ids => ids.map(id => document.getElementById(id).classList.contains('asteroid'))",
            cell_ids(rift),
        )
        kinds_b = phone_b.evaluate(
            "ids => ids.map(id => document.getElementById(id).classList.contains('asteroid'))",
            cell_ids(rift),
        )
        assert kinds_a == kinds_b  # same places hold asteroids; their screen spots turn above

    # Play until B pushes; check the first ship in a rift on the way: on A's left, on B's right.
    ship_checked = False
    for _ in range(12):
        view = table.view()
        state = view["state"]
        mover = phones[state["player"]]
        if state["stacks"] and not ship_checked:
            rift, place, _ships = state["stacks"][0]
            ship = f"c-{rift}-{place}"
            mid = f"c-{rift}-4", f"c-{rift}-5"
            for phone, sign in ((phone_a, 1), (phone_b, -1)):
                spots = centres(phone, [ship, *mid])
                between = (spots[mid[0]][0] + spots[mid[1]][0]) / 2
                side = spots[ship][0] - between
                want = 1 if place >= 5 else -1  # A: places 5..8 right of the middle
                assert side * want * sign > 0, (phone is phone_b, ship, spots)
            ship_checked = True
        if state["phase"] == "push" and state["player"] == "B":
            break
        before = view["revision"]
        if state["phase"] == "push":
            mover.locator(".edge.push").first.click()
        else:
            mover.wait_for_selector(".base.origin, .cell.origin")
            step(mover)
        wait_revision_above((phone_a, phone_b), before)
    else:
        pytest.fail("B never reached a push")
    assert ship_checked

    # B's push: each arrow sits at the rift end it pushes in from and points into the rift.
    phone_b.wait_for_selector(".edge.push")
    arrows = phone_b.evaluate(
        """() => [...document.querySelectorAll('.edge.push')].map(e => {
            const box = e.getBoundingClientRect();
            return {id: e.id, text: e.textContent, x: box.x + box.width / 2 + window.scrollX};
        })"""
    )
    assert arrows
    for arrow in arrows:
        rift = int(arrow["id"].split("-")[1])
        xs = [x for x, _ in centres(phone_b, cell_ids(rift)).values()]
        assert arrow["text"] in ("◀", "▶")
        if arrow["text"] == "◀":
            assert arrow["x"] > max(xs), arrow  # pushes leftwards: in from the right end
        else:
            assert arrow["x"] < min(xs), arrow
        # the engine's left end (place 1) is on B's right
        assert (arrow["id"].endswith("-left")) == (arrow["text"] == "◀"), arrow
    arrow = arrows[0]
    rift = int(arrow["id"].split("-")[1])
    view = table.view()
    before = fragment_centres(phone_b, view["state"], rift)
    width = abs(
        centres(phone_b, [f"c-{rift}-1"])[f"c-{rift}-1"][0]
        - centres(phone_b, [f"c-{rift}-3"])[f"c-{rift}-3"][0]
    )
    phone_b.click("#" + arrow["id"])
    wait_revision_above((phone_b,), view["revision"])
    after_state = table.view()["state"]
    after = fragment_centres(phone_b, after_state, rift)
    kept = set(before) & set(after)
    assert len(kept) == 3  # one fragment fell out, one came in
    direction = -1 if arrow["text"] == "◀" else 1
    for fragment in kept:
        moved = after[fragment] - before[fragment]
        assert moved * direction > 0.8 * width, (fragment, moved, width, arrow)
    (entered,) = set(after) - kept
    assert abs(after[entered] - arrow["x"]) < 1.5 * width  # it came in at the arrow's end


# ------------------------------------------------------------------------------- PocketModel


def test_pocketmodel_b_sees_the_zones_turned(browser: Any, live_server: tuple[str, Flask]) -> None:
    base, app = live_server
    phone_a, phone_b = pocketmodel_table(browser, base)
    state = table_of(app, phone_a).view()["state"]
    for seat in ("A", "B"):
        home = [f"unit-{u['id']}" for u in state["units"] if u["place"] == f"home_{seat}"]
        assert len(home) == 5
        assert_turned(centres(phone_a, home), centres(phone_b, home))
    zones = ["zone-home_A", "zone-contested", "zone-home_B"]
    on_a, on_b = centres(phone_a, zones), centres(phone_b, zones)
    assert on_a["zone-home_A"][1] > on_a["zone-contested"][1] > on_a["zone-home_B"][1]
    assert on_b["zone-home_B"][1] > on_b["zone-contested"][1] > on_b["zone-home_A"][1]


# ------------------------------------------------------------------------------ Transformers


def test_transformers_b_sees_the_teams_turned(browser: Any, live_server: tuple[str, Flask]) -> None:
    base, app = live_server
    phone_a, phone_b = demo_decks_table(
        browser,
        base,
        "transformers",
        opener="#tf-open",
        decks="#tf-teams:not([hidden])",
        waiting="#tf-team-wait:not([hidden])",
        pieces=["#char-A1", "#char-B1"],
    )
    state = table_of(app, phone_a).view()["state"]
    for seat in ("A", "B"):
        team = [f"char-{c['id']}" for c in state["characters"] if c["seat"] == seat]
        assert len(team) == 3
        assert_turned(centres(phone_a, team), centres(phone_b, team))
    teams = ["team-A", "team-B"]
    on_a, on_b = centres(phone_a, teams), centres(phone_b, teams)
    assert on_a["team-A"][1] > on_a["team-B"][1]
    assert on_b["team-B"][1] > on_b["team-A"][1]


# -------------------------------------------------------------------------------- Toy Battle


def test_toybattle_b_sees_the_terrain_turned(browser: Any, live_server: tuple[str, Flask]) -> None:
    base, app = live_server
    phone_a, phone_b = two_phones(browser, base, "toy-battle")
    phone_a.wait_for_selector("#tb-start")
    phone_a.select_option("#tb-terrain", "caribbean")  # H.Q. 2 far on blue's left
    phone_a.click("#tb-start")
    for phone in (phone_a, phone_b):
        phone.wait_for_selector("#tb-svg")
    terrain = table_of(app, phone_a).view()["terrain"]
    # the node groups' boxes hold labels beside some nodes: use the shapes' centres
    ids = [f"node-{n['id']}" for n in terrain["nodes"]]
    shape = """ids => ids.map(id => {
      const box = document.getElementById(id).firstElementChild.getBoundingClientRect();
      return [box.x + box.width / 2 + window.scrollX, box.y + box.height / 2 + window.scrollY];
    })"""
    on_a = dict(zip(ids, map(tuple, phone_a.evaluate(shape, ids)), strict=True))
    on_b = dict(zip(ids, map(tuple, phone_b.evaluate(shape, ids)), strict=True))
    assert_turned(on_a, on_b)
    assert on_a["node-2"][0] < on_a["node-1"][0] and on_b["node-2"][0] > on_b["node-1"][0]
    assert on_a["node-1"][1] > on_a["node-41"][1]  # blue (A) H.Q. at the bottom on A
    assert on_b["node-41"][1] > on_b["node-1"][1]  # red (B) H.Q. at the bottom on B
