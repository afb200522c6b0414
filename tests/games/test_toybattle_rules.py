"""Toy Battle scenarios, one or more per rule id (shared/rules/toy-battle.md) and decision
(games/toybattle/rules.py, D1..D16)."""

from __future__ import annotations

import pytest

from games.protocol import IllegalAction, NotYourTurn
from games.toybattle import effects, rules
from games.toybattle import state as tbstate
from games.toybattle.actions import Decline, Draw, Place, Resolve, Stuck
from games.toybattle.game import GAME
from games.toybattle.rules import Variant
from games.toybattle.terrains import TERRAINS, TerrainError, build_terrain
from tests.games.toybattle_helpers import decline, legal_nodes, place, resolve, table, top

# castle: 1-11 1-12 11-13 12-14 13-15 13-17 13-18 15-17 17-20 17-22 20-22 18-22 22-24 24-41
# specials 15 16 20 21 (Castle Field); region 1 = 13/15/17 (1 medal)


def effect_names(state: tbstate.State) -> list[str]:
    return [p.effect for p in state.pending]


# ----------------------------------------------------------------------------- components


def test_tb1_a_fourth_troop_of_a_type_is_refused() -> None:
    state = table("castle", {11: ["A:Roxy"], 13: ["A:Roxy"]}, discards={"A": {"Roxy": 1}})
    assert legal_nodes(state, "Roxy") == []
    with pytest.raises(IllegalAction, match=r"all 3 of your Roxy.*\(TB-1\)"):
        place(state, "Roxy", 12)
    assert legal_nodes(state, "Star") == [11, 12, 13, 15, 17, 18]


def test_tb2_every_terrain_loads_with_its_facts() -> None:
    assert list(TERRAINS) == [
        "castle",
        "pool",
        "clouds",
        "jungle",
        "cemetery",
        "caribbean",
        "station",
        "battlefield",
    ]
    totals = {t.slug: (t.medal_total, t.objective) for t in TERRAINS.values()}
    assert totals == {
        "castle": (14, 7),
        "pool": (12, 6),
        "clouds": (16, 8),
        "jungle": (14, 7),
        "cemetery": (14, 7),
        "caribbean": (11, 5),
        "station": (14, 7),
        "battlefield": (16, 8),
    }
    assert TERRAINS["caribbean"].hqs == {"blue": (1, 2), "red": (41,)}
    assert TERRAINS["pool"].allowed[41] == {6, 7}
    assert TERRAINS["castle"].regions[0].cycle == (1, 11, 13, 18, 14, 12)
    assert TERRAINS["jungle"].regions[0].cycle == (11, 13, 16, 17, 14)


BASE = {
    "name": "Test",
    "rule": "TB-2",
    "effect": None,
    "objective": 1,
    "specials": "",
    "edges": "1-11 11-12 12-13 11-13 13-41",
    "regions": "11/12/13:3",
    "positions": {1: (0, 1), 11: (0, 0.5), 12: (0.5, 0.5), 13: (1, 0.5), 41: (1, 0)},
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({}, None),
        ({"edges": "1-11 11-12 12-13 11-13"}, "not connected"),
        ({"regions": "11/12/41:3"}, "not a base"),
        ({"regions": "11/12/99:3"}, "not a base"),
        ({"regions": "11/12:3"}, "not closed"),
        ({"objective": 2}, "not half"),
        ({"specials": "41"}, "not a base"),
        ({"edges": "1-11 11-12 12-13 11-13 13-41 13-77"}, "without a position"),
    ],
)
def test_tb2_terrains_are_checked_on_load(change: dict[str, object], message: str | None) -> None:
    if message is None:
        assert build_terrain("t", BASE).medal_total == 3
        return
    with pytest.raises(TerrainError, match=message):
        build_terrain("t", {**BASE, **change})


# ---------------------------------------------------------------------------------- setup


@pytest.mark.parametrize(("face", "first"), [(1, "A"), (2, "B")])
def test_tb3_setup_racks_reserves_and_the_starting_player(face: int, first: str) -> None:
    setup = GAME.parse_setup({"type": "setup", "terrain": "clouds"})
    state = GAME.start(GAME.setup_event(setup, ((face,),)))
    second = rules.OTHER[first]
    assert state.player == first
    assert (state.seat(first).rack, state.seat(first).reserve) == (3, 17)
    assert (state.seat(second).rack, state.seat(second).reserve) == (4, 16)
    assert state.seat("A").removed == state.seat("B").removed == 4
    assert state.stacks == () and state.captured == ()


# ----------------------------------------------------------------------------------- draw


@pytest.mark.parametrize(("rack", "reserve_left", "drawn"), [(3, None, 2), (7, None, 1), (4, 1, 1)])
def test_tb10_draw_two_or_one(rack: int, reserve_left: int | None, drawn: int) -> None:
    gone = {"Kwak": 3, "Skully": 3, "Cap'n": 3, "Jumbo": 3, "Hook": 3} if reserve_left else {}
    state = table("castle", racks={"A": rack}, discards={"A": gone})
    assert state.seat("A").reserve == (reserve_left or 20 - rack)
    before = state.seat("A")
    after = effects.apply(state, "A", Draw())
    assert after.seat("A").rack == before.rack + drawn
    assert after.seat("A").reserve == before.reserve - drawn
    assert after.player == "B" and after.turn == 2


def test_tb10_no_draw_with_eight_on_the_rack() -> None:
    state = table("castle", racks={"A": 8})
    legal = effects.legal_actions(state)
    assert Draw() not in legal and Stuck() in legal
    with pytest.raises(IllegalAction, match=r"\(TB-10\)"):
        effects.apply(state, "A", Draw())


# ------------------------------------------------------------------------------ placement


def test_tb11_empty_own_and_weaker_enemy_bases() -> None:
    state = table("castle", {11: ["A:Skully"], 13: ["B:Jumbo"]})
    assert top(place(state, "Roxy", 11), 11) == "A:Roxy"  # own troop
    assert top(place(state, "Hook", 13), 13) == "A:Hook"  # weaker enemy (3 < 4)
    with pytest.raises(IllegalAction, match=r"not stronger.*\(TB-11\)"):
        place(state, "Jumbo", 13)  # equal strength
    with pytest.raises(IllegalAction, match=r"not stronger"):
        place(state, "Cap'n", 13)
    assert 12 in legal_nodes(state, "Skully")  # empty, next to the H.Q.


def test_tb11_kwak_both_ways() -> None:
    state = table("castle", {11: ["A:Skully"], 13: ["B:Roxy"]})
    assert top(place(state, "Kwak", 13), 13) == "A:Kwak"  # Kwak on the strongest enemy
    state = table("castle", {11: ["A:Skully"], 13: ["B:Kwak"]})
    assert top(place(state, "Skully", 13), 13) == "A:Skully"  # any troop covers Kwak
    assert top(place(state, "Kwak", 13), 13) == "A:Kwak"


def test_tb11_never_the_own_hq_but_the_enemy_hq() -> None:
    state = table("castle")
    with pytest.raises(IllegalAction, match=r"own H.Q. \(TB-11\)"):
        place(state, "Roxy", 1)
    line = {11: ["A:Star"], 13: ["A:Star"], 17: ["A:Roxy"], 22: ["A:Roxy"], 24: ["A:Jumbo"]}
    assert 41 in legal_nodes(table("castle", line), "Skully")


def test_tb12_connection_through_own_visible_troops() -> None:
    state = table("castle", {11: ["A:Star"], 13: ["A:Roxy", "B:Kwak"], 17: ["A:Roxy"]})
    # 13 is topped by the enemy: 17 is cut off, so 20 and 22 are out of reach
    assert legal_nodes(state, "Roxy") == [11, 12, 13]
    with pytest.raises(IllegalAction, match=r"not connected.*\(TB-12\)"):
        place(state, "Roxy", 22)
    state = table("castle", {11: ["A:Star"], 13: ["A:Roxy"], 17: ["A:Roxy"]})
    assert legal_nodes(state, "Skully") == [11, 12, 13, 15, 17, 18, 20, 22]


def test_tb12_stacks_keep_their_order_only_the_top_counts() -> None:
    state = table("castle", {11: ["A:Star"], 13: ["B:Skully"]})
    state = place(state, "Roxy", 13)
    assert state.stack(13) == (("B", rules.SKULLY), ("A", rules.ROXY))
    b_turn = state  # B to move now: 13 is A's, so B cannot use it
    assert b_turn.player == "B"
    assert 13 not in legal_nodes(b_turn, "Skully")


# -------------------------------------------------------------------------------- effects


def test_tb13_troop_effect_then_base_effect_and_caps_extra_first() -> None:
    state = table("castle", {11: ["A:Star"], 13: ["A:Roxy"]}, racks={"A": 5})
    state = place(state, "Cap'n", 15)  # Cap'n on a Castle Field special base
    assert effect_names(state) == ["place", "return_to_rack"]
    state = place(state, "Skully", 17)  # the extra troop: its effect comes before the base's
    assert effect_names(state) == ["draw", "return_to_rack"]
    state = resolve(state)
    assert effect_names(state) == ["return_to_rack"]
    state = resolve(state, node=11)
    assert top(state, 11) is None and state.player == "B"
    assert state.seat("A").rack == 5 - 2 + 2 + 1


def test_tb14_region_capture_medals_kept_for_good() -> None:
    state = table("castle", {11: ["A:Star"], 13: ["A:Roxy"], 15: ["A:Roxy"]})
    state = place(state, "Kwak", 17)
    assert state.captured == ((1, "A"),) and state.seat("A").medals == 1
    # B's Hook covers the Kwak on 17: A keeps the medal, the emptied region gives B nothing
    state = place(state, "Hook", 17)
    assert top(state, 17) == "B:Hook"
    assert state.captured == ((1, "A"),) and state.seat("A").medals == 1
    assert state.seat("B").medals == 0


def test_tb14_several_regions_at_once() -> None:
    # castle regions 13/15/17 (1) and 17/20/22 (1) close with one troop on 17
    state = table(
        "castle", {11: ["A:Star"], 13: ["A:Roxy"], 15: ["A:Roxy"], 20: ["A:Star"], 22: ["A:Star"]}
    )
    state = place(state, "Kwak", 17)
    assert sorted(r for r, _ in state.captured) == [1, 5]
    assert state.seat("A").medals == 2


def test_tb14_recheck_when_a_troop_leaves_the_board() -> None:
    # A's Jumbo discards B's Kwak from 15, uncovering A's Roxy: region 13/15/17 is A's
    state = table("castle", {11: ["A:Star"], 13: ["A:Roxy"], 15: ["A:Roxy", "B:Kwak"]})
    state = place(state, "Jumbo", 17)
    assert effect_names(state) == ["discard_adjacent"]
    state = resolve(state, node=15)
    assert state.captured == ((1, "A"),)
    assert state.seat("B").discard[rules.KWAK] == 1


def test_tb20_skully_draws_two_or_one() -> None:
    state = place(table("castle", racks={"A": 4}), "Skully", 11)
    assert state.pending[0].count == 2
    assert resolve(state).seat("A").rack == 3 + 2
    state = place(table("castle", racks={"A": 8}), "Skully", 11)  # 7 left on the rack
    assert state.pending[0].count == 1
    assert resolve(state).seat("A").rack == 8


def test_tb20_star_draws_one_and_effects_can_be_declined() -> None:
    state = place(table("castle"), "Star", 11)
    assert effect_names(state) == ["draw"] and state.pending[0].count == 1
    declined = decline(state)
    assert declined.seat("A").rack == 3 and declined.player == "B"
    assert resolve(state).seat("A").rack == 4


def test_tb20_kwak_and_roxy_have_no_effect() -> None:
    for troop in ("Kwak", "Roxy"):
        state = place(table("castle"), troop, 11)
        assert state.pending == () and state.player == "B"


def test_tb20_jumbo_discards_an_adjacent_visible_enemy_only() -> None:
    state = table(
        "castle", {11: ["A:Star"], 15: ["B:Roxy"], 18: ["A:Roxy", "B:Kwak"], 22: ["B:Star"]}
    )
    state = place(state, "Jumbo", 13)
    legal = effects.legal_actions(state)
    assert legal == [Resolve(node=15), Resolve(node=18), Decline()]  # 22 is not adjacent to 13
    state = resolve(state, node=18)
    assert top(state, 18) == "A:Roxy" and state.seat("B").discard[rules.KWAK] == 1


def test_tb20_hook_ignores_the_connection_but_not_for_the_enemy_hq() -> None:
    state = table("castle", {11: ["A:Star"]})
    assert 24 in legal_nodes(state, "Hook") and 24 not in legal_nodes(state, "Roxy")
    state = table("castle", {22: ["A:Hook"], 24: ["A:Hook"]})  # not linked to H.Q. 1
    assert 41 not in legal_nodes(state, "Hook")
    with pytest.raises(IllegalAction, match=r"enemy H.Q. 41 is not connected.*\(TB-12\)"):
        place(state, "Hook", 41)


def test_tb20_capn_places_one_more_troop() -> None:
    state = place(table("castle", racks={"A": 4}), "Cap'n", 11)
    assert effect_names(state) == ["place"]
    assert Place(troop="Roxy", node=13) in effects.legal_actions(state)
    state = place(state, "Roxy", 13)
    assert top(state, 13) == "A:Roxy" and state.player == "B" and state.seat("A").rack == 2


def test_tb20_xb42_discards_from_the_opponents_rack() -> None:
    state = place(table("castle", racks={"B": 5}), "XB-42", 11)
    assert effect_names(state) == ["discard_from_rack"]
    state = resolve(state, troop="Roxy")
    assert state.seat("B").rack == 4 and state.seat("B").discard[rules.ROXY] == 1


def test_tb30_castle_field_returns_another_visible_troop() -> None:
    state = table("castle", {11: ["A:Star"], 13: ["A:Roxy"], 12: ["B:Skully", "A:Hook"]})
    state = place(state, "Roxy", 15)
    legal = effects.legal_actions(state)
    assert legal == [Resolve(node=11), Resolve(node=12), Resolve(node=13), Decline()]
    state = resolve(state, node=12)
    assert top(state, 12) == "B:Skully" and state.seat("A").rack == 4


def test_tb31_tropical_pool_values() -> None:
    # pool: blue H.Q.s 1 (-11) and 2 (-13); 12 and 22 take 1/2, 16 and 18 take 3/4/5,
    # 17 and the H.Q.s 2, 41 take 6/7
    state = table("pool", {11: ["A:Star"], 13: ["A:Star"], 14: ["A:Star"]})
    assert 12 in legal_nodes(state, "Skully") and 12 not in legal_nodes(state, "Roxy")
    assert 16 in legal_nodes(state, "Jumbo") and 16 not in legal_nodes(state, "Star")
    assert 17 in legal_nodes(state, "Roxy") and 17 not in legal_nodes(state, "Jumbo")
    with pytest.raises(IllegalAction, match=r"only strengths 6/7 may go on node 17 \(TB-31\)"):
        place(state, "Hook", 17)
    line = {11: ["A:Star"], 13: ["A:Star"], 17: ["A:Roxy"], 21: ["A:Jumbo"]}
    assert 41 in legal_nodes(table("pool", line), "Roxy")
    assert 41 not in legal_nodes(table("pool", line), "XB-42")


def test_tb31_d2_kwak_on_restricted_bases_is_a_flag() -> None:
    state = table("pool", {11: ["A:Star"]})
    assert 12 not in legal_nodes(state, "Kwak")
    flagged = table("pool", {11: ["A:Star"]}, variant=Variant(kwak_on_restricted=True))
    assert 12 in legal_nodes(flagged, "Kwak")


def test_tb32_city_of_clouds_draws_one() -> None:
    state = place(table("clouds", {11: ["A:Star"]}), "Roxy", 13)  # 13 is a special base
    assert effect_names(state) == ["draw"] and state.pending[0].source == "City of Clouds"
    assert resolve(state).seat("A").rack == 4


def test_tb32_skully_then_clouds_in_order() -> None:
    state = place(table("clouds", {11: ["A:Star"]}, racks={"A": 5}), "Skully", 13)
    assert [(p.effect, p.rule) for p in state.pending] == [("draw", "TB-20"), ("draw", "TB-32")]
    state = resolve(state)
    assert state.pending[0].rule == "TB-32" and resolve(state).seat("A").rack == 7


def test_tb33_volcanic_jungle_moves_an_adjacent_enemy() -> None:
    # jungle: special 15 (12-15 14-15 15-18); B on 18 moves to 17 or 21 or 15
    state = table("jungle", {11: ["A:Star"], 12: ["A:Star"], 18: ["B:Roxy"]})
    state = place(state, "Roxy", 15)
    assert effect_names(state) == ["move_enemy"]
    legal = effects.legal_actions(state)
    assert legal == [
        Resolve(node=18, to=15),
        Resolve(node=18, to=17),
        Resolve(node=18, to=21),
        Decline(),
    ]
    state = resolve(state, node=18, to=21)
    assert top(state, 18) is None and top(state, 21) == "B:Roxy"


def test_tb33_d1_no_move_onto_an_hq_and_the_published_jungle_never_offers_one() -> None:
    terrain = TERRAINS["jungle"]
    adjacent: dict[int, set[int]] = {n: set() for n in terrain.nodes}
    for a, b in terrain.edges:
        adjacent[a].add(b)
        adjacent[b].add(a)
    # no troop next to a special base stands next to an H.Q.: D1's flag changes nothing here
    assert all(not adjacent[n] & terrain.hq_nodes for s in terrain.specials for n in adjacent[s])
    for variant in (Variant(), Variant(jungle_onto_hq=True)):
        state = table("jungle", {13: ["A:Star"], 16: ["A:Roxy"], 22: ["B:Roxy"]}, variant=variant)
        state = place(state, "Roxy", 19)
        assert effects.legal_actions(state) == [
            Resolve(node=22, to=19),
            Resolve(node=22, to=23),
            Decline(),
        ]


def test_tb34_cursed_cemetery_takes_a_discarded_troop_back() -> None:
    state = table("cemetery", {11: ["A:Star"]}, discards={"A": {"Hook": 1, "Roxy": 2}})
    state = place(state, "Roxy", 14)
    assert effects.legal_actions(state) == [Resolve(troop="Hook"), Resolve(troop="Roxy"), Decline()]
    state = resolve(state, troop="Hook")
    assert state.seat("A").discard[rules.HOOK] == 0 and state.seat("A").rack == 4


def test_tb35_caribbean_blue_has_two_hqs() -> None:
    state = table("caribbean")
    assert legal_nodes(state, "Roxy") == [11, 13, 15]  # next to H.Q. 1 and H.Q. 2
    red = table("caribbean", player="B")
    assert legal_nodes(red, "Roxy") == [20, 22]


def test_tb36_metal_x_suppresses_troop_effects_and_d3_hook() -> None:
    # station: specials 16 17 18; 14-18 with 11-14 from H.Q. 1
    state = table("station", {11: ["A:Star"], 14: ["A:Star"]})
    assert place(state, "Skully", 18).pending == ()
    assert place(state, "Skully", 14).pending != ()  # an ordinary base: Skully draws
    lone = table("station", {11: ["A:Star"]})
    assert 16 not in legal_nodes(lone, "Hook") and 19 in legal_nodes(lone, "Hook")
    with pytest.raises(IllegalAction, match=r"\(TB-36\)"):
        place(lone, "Hook", 16)
    flagged = table("station", {11: ["A:Star"]}, variant=Variant(hook_ignores_metal_x=True))
    assert 16 in legal_nodes(flagged, "Hook")


def test_tb37_battlefield_blocks_a_troop_until_the_end_of_the_next_turn() -> None:
    # battlefield specials 14 16 19 21; 13-14 with 11-13 from H.Q. 1
    state = table("battlefield", {11: ["A:Star"], 13: ["A:Star"]}, racks={"B": 1})
    state = place(state, "Roxy", 14)
    assert effect_names(state) == ["block"]
    state = resolve(state)
    assert state.player == "B" and state.seat("B").blocked == 1
    assert [a for a in effects.legal_actions(state) if isinstance(a, Place)] == []
    with pytest.raises(IllegalAction, match=r"blocked this turn \(TB-37\)"):
        place(state, "Roxy", 23)
    state = effects.apply(state, "B", Draw())
    assert state.seat("B").blocked == 0 and state.seat("B").rack == 3


# ------------------------------------------------------------------------------------ end


def test_tb40_a_troop_on_the_enemy_hq_wins_at_once() -> None:
    line = {11: ["A:Star"], 13: ["A:Star"], 17: ["A:Roxy"], 22: ["A:Roxy"], 24: ["A:Jumbo"]}
    state = place(table("castle", line), "Skully", 41)
    assert state.ended == tbstate.Ended(winner="A", reason="hq_taken", rule="TB-40")
    assert state.pending == () and effects.legal_actions(state) == []
    with pytest.raises(IllegalAction, match=r"over"):
        effects.apply(state, "B", Draw())


def test_tb40_the_medal_objective_wins_at_once() -> None:
    # caribbean objective 5: region 11/12/14/16/17 (3) + 12/15/18/21 (2) with one troop on 12
    stacks = {
        11: ["A:Star"],
        14: ["A:Star"],
        16: ["A:Star"],
        17: ["A:Roxy"],
        15: ["A:Hook"],
        18: ["A:Roxy"],
        21: ["A:Roxy"],
    }
    state = place(table("caribbean", stacks), "Skully", 12)
    assert state.seat("A").medals == 0 and effect_names(state) == ["draw"]  # TB-14: effects first
    state = resolve(state)
    assert state.seat("A").medals == 5
    assert state.ended == tbstate.Ended(winner="A", reason="medal_objective", rule="TB-40")
    early = table("caribbean", stacks, variant=Variant(captures_after_effects=False))
    early = place(early, "Skully", 12)
    assert early.seat("A").medals == 5
    assert early.ended == tbstate.Ended(winner="A", reason="medal_objective", rule="TB-40")
    assert early.pending == ()  # the former reading: Skully's draw never comes


@pytest.mark.parametrize(
    ("variant", "medals"), [(None, 0), (Variant(captures_after_effects=False), 1)]
)
def test_tb14_castle_a_region_left_open_by_the_base_effect_is_not_taken(
    variant: Variant | None, medals: int
) -> None:
    """TB-13, TB-14 on Castle Field: Roxy on special base 15 closes region 13/15/17; the base's
    effect then returns the troop on 13 to the rack. "Finally, trigger the base's effect ... If
    you now control region(s)": the region is open again, so by the original rules no medal is
    taken; the former reading (flag off) took the medal at the placement and kept it."""
    stacks = {11: ["A:Star"], 13: ["A:Roxy"], 17: ["A:Roxy"]}
    state = place(table("castle", stacks, variant=variant), "Roxy", 15)
    assert effect_names(state) == ["return_to_rack"]
    rack = state.seat("A").rack
    state = resolve(state, node=13)
    assert top(state, 13) is None and state.seat("A").rack == rack + 1
    assert state.seat("A").medals == medals
    assert dict(state.captured).get(1) == ("A" if medals else None)
    assert state.player == "B"  # the turn is over


@pytest.mark.parametrize(
    ("medals", "winner", "reason"),
    [
        ((2, 1), "A", "most_medals"),
        ((1, 2), "B", "most_medals"),
        ((1, 1), "B", "tie_stuck_loses"),
    ],
)
def test_tb41_stuck_most_medals_win_a_tie_loses(
    medals: tuple[int, int], winner: str, reason: str
) -> None:
    state = table("station", racks={"A": 8})
    seats = (
        tbstate.SeatState(**{**state.seats[0].__dict__, "medals": medals[0]}),
        tbstate.SeatState(**{**state.seats[1].__dict__, "medals": medals[1]}),
    )
    captured = tuple((i, "A") for i in range(medals[0])) + tuple(
        (i + 5, "B") for i in range(medals[1])
    )
    state = tbstate.State(**{**state.__dict__, "seats": seats, "captured": captured})
    ended = effects.apply(state, "A", Stuck())
    assert ended.ended == tbstate.Ended(winner=winner, reason=reason, rule="TB-41")


def test_tb41_stuck_is_refused_while_a_draw_is_possible() -> None:
    with pytest.raises(IllegalAction, match=r"\(TB-41\)"):
        effects.apply(table("castle"), "A", Stuck())


def test_tb41_d11_the_engine_ends_a_provable_stalemate() -> None:
    # B: empty rack and empty reserve; after A's draw B can neither draw nor place
    state = table("castle", racks={"B": 0})
    b = state.seat("B")
    state = effects._with_seat(state, "B", reserve=0, removed=b.removed + b.reserve)
    state = effects.apply(state, "A", Draw())
    assert state.ended == tbstate.Ended(winner="A", reason="tie_stuck_loses", rule="TB-41")
    assert GAME.to_act(state) is None


def test_not_your_turn() -> None:
    with pytest.raises(NotYourTurn):
        effects.apply(table("castle"), "B", Draw())


# --------------------------------------------------------------------------- decisions


def test_d4_a_covered_troop_does_not_trigger_its_base() -> None:
    # Cap'n on Castle special 15, the extra Roxy on top of it: only the Roxy's base effect
    stacks = {11: ["A:Star"], 13: ["A:Star"]}
    state = place(place(table("castle", stacks, racks={"A": 5}), "Cap'n", 15), "Roxy", 15)
    assert [(p.effect, p.troop) for p in state.pending] == [("return_to_rack", rules.ROXY)]
    flagged = table(
        "castle", stacks, racks={"A": 5}, variant=Variant(covered_troop_triggers_base=True)
    )
    state = place(place(flagged, "Cap'n", 15), "Roxy", 15)
    assert [(p.effect, p.troop) for p in state.pending] == [
        ("return_to_rack", rules.CAPN),
        ("return_to_rack", rules.ROXY),
    ]


def test_d5_the_opponent_captures_at_their_next_placement_or_with_the_flag_at_once() -> None:
    """Default: only the placing player claims ("If you now control region(s) ..., claim the
    medal(s)"); the flag ``opponent_captures_at_once`` (the former default) gives B the region
    in A's turn."""
    assert Variant().opponent_captures_at_once is False
    # castle region 2 = 14/16/19; A returns its Hook from 16 (Castle Field on 20), uncovering B
    stacks = {
        11: ["A:Star"],
        13: ["A:Star"],
        17: ["A:Roxy"],
        14: ["B:Star"],
        19: ["B:Roxy"],
        16: ["B:Star", "A:Hook"],
    }
    for at_once in (True, False):
        state = table("castle", stacks, variant=Variant(opponent_captures_at_once=at_once))
        state = resolve(place(state, "Roxy", 20), node=16)
        assert top(state, 16) == "B:Star" and state.player == "B"
        assert state.captured == (((2, "B"),) if at_once else ())
        state = place(state, "Roxy", 25)
        assert state.captured == ((2, "B"),) and state.seat("B").medals == 1


def test_d6_captures_at_once_after_each_step_is_a_flag() -> None:
    # A closes 13/15/17 with a Jumbo on 17: by default (TB-14) the region is taken once the
    # effects are done; the former reading (flag off) takes it before Jumbo's effect
    stacks = {11: ["A:Star"], 13: ["A:Roxy"], 15: ["A:Roxy"], 20: ["B:Skully"]}
    early = Variant(captures_after_effects=False)
    state = place(table("castle", stacks, variant=early), "Jumbo", 17)
    assert state.captured == ((1, "A"),) and effect_names(state) == ["discard_adjacent"]
    late = place(table("castle", stacks), "Jumbo", 17)
    assert late.captured == () and effect_names(late) == ["discard_adjacent"]
    assert decline(late).captured == ((1, "A"),)


def test_an_action_before_the_pending_effect_breaks_tb13_not_the_effects_rule() -> None:
    """A draw or a second troop while Star's draw (TB-20) waits breaks the order of TB-13
    (after placing: the troop's effect, then the base's), not TB-20."""
    state = place(table("castle"), "Star", 11)
    assert effect_names(state) == ["draw"]
    for action in (Draw(), Place(troop="Roxy", node=13), Stuck()):
        with pytest.raises(IllegalAction) as error:
            effects.apply(state, "A", action)
        assert (error.value.rule, error.value.message_id) == ("TB-13", "effect_first")
