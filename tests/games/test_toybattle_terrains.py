"""Toy Battle on every terrain: connection from each H.Q. to the enemy H.Q. (TB-12, TB-40),
region capture with medals (TB-14), the drawing data, and random legal playouts with the
conservation laws (Hypothesis)."""

from __future__ import annotations

import json
import math
import random
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.toybattle import actions as tbactions
from games.toybattle import effects, placement, rules
from games.toybattle import state as tbstate
from games.toybattle.game import GAME
from games.toybattle.rules import Variant
from games.toybattle.terrains import TERRAINS, Terrain, adjacency
from tests.games.toybattle_helpers import decline, place, table

SLUGS = list(TERRAINS)


def shortest_path(terrain: Terrain, start: int, goals: set[int]) -> list[int]:
    adjacent = adjacency(terrain)
    came: dict[int, int | None] = {start: None}
    todo = deque([start])
    while todo:
        n = todo.popleft()
        if n in goals:
            path = [n]
            while came[path[-1]] is not None:
                path.append(came[path[-1]])  # type: ignore[arg-type]
            return path[::-1]
        for m in sorted(adjacent[n]):
            if m not in came and (m in goals or terrain.hq_colour(m) is None):
                came[m] = n
                todo.append(m)
    raise AssertionError("no path")


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("seat", ["A", "B"])
def test_connection_from_each_hq_to_the_enemy_hq(slug: str, seat: str) -> None:
    terrain = TERRAINS[slug]
    adjacent = adjacency(terrain)
    own = terrain.hqs[rules.SEAT_COLOUR[seat]]
    enemy = set(terrain.hqs[rules.SEAT_COLOUR[rules.OTHER[seat]]])
    empty = table(slug, player=seat)
    near_own = {m for h in own for m in adjacent[h]}
    assert placement.reachable(empty, seat) == near_own  # TB-12 on an empty board
    path = shortest_path(terrain, own[0], enemy)
    bases, hq = path[1:-1], path[-1]
    names = ["Skully", "Cap'n", "Jumbo", "Hook", "XB-42", "Star", "Kwak"]
    stacks = {n: [f"{seat}:{names[i % len(names)]}"] for i, n in enumerate(bases[:-1])}
    before = table(slug, stacks, player=seat)
    assert hq not in placement.reachable(before, seat)  # one base short
    stacks[bases[-1]] = [f"{seat}:Skully"]
    ready = table(slug, stacks, player=seat)
    assert hq in placement.reachable(ready, seat)
    won = place(ready, "Roxy", hq)  # Roxy (7) is allowed on every H.Q., the Pool's too
    assert won.ended == tbstate.Ended(winner=seat, reason="hq_taken", rule="TB-40")


@pytest.mark.parametrize("slug", SLUGS)
def test_every_region_is_captured_with_its_medals(slug: str) -> None:
    terrain = TERRAINS[slug]
    variant = Variant(hook_ignores_metal_x=True)
    assert len(terrain.regions) >= 6, slug  # 6 (jungle, caribbean) .. 14 (station) regions
    for region in terrain.regions:
        missing = next(b for b in region.bases if 4 in terrain.allowed.get(b, {4}))
        names = ["Skully", "Cap'n", "Jumbo", "Star", "Roxy", "Kwak"]
        stacks = {
            b: [f"A:{names[i]}"] for i, b in enumerate(x for x in region.bases if x != missing)
        }
        state = table(slug, stacks, variant=variant)
        assert state.captured == ()
        after = place(state, "Hook", missing)  # Hook: no connection needed (TB-20)
        while after.pending:  # TB-14: the capture comes once the effects are done
            after = decline(after)
        taken = dict(after.captured)
        assert taken[region.index] == "A", (slug, region)
        by_index = {r.index: r.medals for r in terrain.regions}
        assert after.seat("A").medals == sum(by_index[i] for i in taken)
        # an enemy troop on one of the bases prevents the capture
        blocked = table(
            slug,
            {
                **stacks,
                region.bases[0] if region.bases[0] != missing else region.bases[1]: ["B:Roxy"],
            },
            variant=variant,
        )
        refused = place(blocked, "Hook", missing)
        while refused.pending:
            refused = decline(refused)
        assert region.index not in dict(refused.captured)


@pytest.mark.parametrize("slug", SLUGS)
def test_drawing_data_is_in_the_frame_and_regions_are_rings(slug: str) -> None:
    data = TERRAINS[slug].to_json()
    ids = {n["id"] for n in data["nodes"]}
    edges = {frozenset(e) for e in data["edges"]}
    assert all(0 <= n["x"] <= 1 and 0 <= n["y"] <= 1 for n in data["nodes"])
    blue = [n for n in data["nodes"] if n.get("colour") == "blue"]
    red = [n for n in data["nodes"] if n.get("colour") == "red"]
    assert min(n["y"] for n in blue) > 0.6 and max(n["y"] for n in red) < 0.1  # blue at the bottom
    for r in data["regions"]:
        ring = r["cycle"]
        assert set(r["bases"]) <= set(ring) <= ids
        assert all(frozenset((ring[i], ring[i - 1])) in edges for i in range(len(ring)))


def invariants(state: tbstate.State) -> None:
    terrain = TERRAINS[state.terrain]
    tbstate.check_state(state)  # 24 per colour across removed, reserve, rack, board, discard
    total = 0
    for seat in ("A", "B"):
        s = state.seat(seat)
        assert 0 <= s.rack <= rules.RACK_MAX and s.removed == 4
        total += s.removed + s.reserve + s.rack + sum(state.on_board(seat)) + sum(s.discard)
    assert total == 48
    data = tbstate.state_to_json(state)
    medals = state.seat("A").medals + state.seat("B").medals
    assert medals + data["derived"]["medals_left"] == terrain.medal_total
    assert tbstate.state_from_json(json.loads(json.dumps(data))) == state


@settings(max_examples=60, deadline=None)
@given(
    slug=st.sampled_from(SLUGS),
    seed=st.integers(0, 2**32),
    flags=st.fixed_dictionaries({f: st.booleans() for f in rules.VARIANT_FLAGS}),
    declines=st.floats(0, 0.5),
)
def test_random_legal_playouts_keep_the_laws(
    slug: str, seed: int, flags: dict[str, bool], declines: float
) -> None:
    rng = random.Random(seed)
    setup = GAME.parse_setup({"type": "setup", "terrain": slug, "variant": flags})
    state = GAME.start(GAME.setup_event(setup, ((rng.randint(1, 2),),)))
    medals_before = 0
    for _ in range(600):
        invariants(state)
        if state.ended is not None:
            assert effects.legal_actions(state) == []
            break
        legal = effects.legal_actions(state)
        assert legal
        moves = [a for a in legal if not isinstance(a, (tbactions.Decline, tbactions.Stuck))]
        action = rng.choice(legal if not moves or rng.random() < declines else moves)
        state = effects.apply(state, state.player, action)
        medals = state.seat("A").medals + state.seat("B").medals
        assert medals >= medals_before  # medals are kept for good
        medals_before = medals


@settings(max_examples=25, deadline=None)
@given(slug=st.sampled_from(SLUGS), seed=st.integers(0, 2**32), kwak=st.booleans())
def test_fast_targets_agree_with_the_rules_one_by_one(slug: str, seed: int, kwak: bool) -> None:
    rng = random.Random(seed)
    flags = {"kwak_on_restricted": kwak, "hook_ignores_metal_x": not kwak}
    setup = GAME.parse_setup({"type": "setup", "terrain": slug, "variant": flags})
    state = GAME.start(GAME.setup_event(setup, ((rng.randint(1, 2),),)))
    for _ in range(120):
        if state.ended is not None:
            break
        for seat in ("A", "B"):
            slow = [
                (t, n)
                for t in range(8)
                for n in TERRAINS[slug].nodes
                if placement.rack_refusal(state, seat, t) is None
                and placement.refusal(state, seat, t, n) is None
            ]
            assert placement.targets(state, seat) == slow
        state = effects.apply(state, state.player, rng.choice(effects.legal_actions(state)))


@pytest.mark.parametrize("slug", SLUGS)
def test_medals_and_nodes_do_not_overlap_on_the_phone(slug: str) -> None:
    """In view.js units (the drawing is 84 x 102 inside its margins; bases r 4.6, H.Q. squares
    half 5.6, medals r 3.2), every medal clears every node and nodes clear each other."""
    data = TERRAINS[slug].to_json()
    nodes = [(n["x"] * 84, n["y"] * 102, 5.6 if n["kind"] == "hq" else 4.6) for n in data["nodes"]]
    assert len(data["regions"]) >= 6 and len(nodes) > len(data["regions"]), slug
    for r in data["regions"]:
        medal = (r["x"] * 84, r["y"] * 102)
        gap = min(math.dist(medal, (x, y)) - size - 3.2 for x, y, size in nodes)
        assert gap > 0.3, (slug, r["cycle"])
    for i, (x0, y0, s0) in enumerate(nodes):
        for x1, y1, s1 in nodes[i + 1 :]:
            assert math.dist((x0, y0), (x1, y1)) > s0 + s1 + 1
