"""Scenario tests of the Asteroids rules engine, one per AST rule id, and random legal playouts."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.asteroids import actions as AC
from games.asteroids import rules as R
from games.asteroids import state as ST
from games.asteroids.messages import MESSAGES
from games.asteroids.spec import ASTEROIDS, FragmentKind, Variant


def refused(rule: str, error: type[ST.RulesError] = ST.IllegalAction) -> Any:
    """``pytest.raises`` of an engine refusal that must cite exactly ``rule``."""

    class Check:
        def __enter__(self) -> None:
            self.raises = pytest.raises(error)
            self.info = self.raises.__enter__()

        def __exit__(self, *exc: Any) -> bool:
            handled = self.raises.__exit__(*exc)
            assert self.info.value.rule == rule, str(self.info.value)
            assert self.info.value.message_id in MESSAGES.texts, str(self.info.value)
            return bool(handled)

    return Check()


def S(rift: int, place: int = 0) -> ST.Spot:
    return ST.Spot(rift=rift, place=place)


def board(
    *,
    rows: dict[int, str] | None = None,
    stacks: dict[tuple[int, int], str] | None = None,
    home: dict[str, int] | None = None,
    scored: dict[str, int] | None = None,
    player: str = "A",
    phase: str = "step1",
    variant: Variant | None = None,
    supply: tuple[str, ...] = ("HH", "HA", "HA", "HH"),
    **extra: object,
) -> ST.State:
    """A hand-made state: every rift all holes unless ``rows`` says (8 chars, H or A)."""
    variant = variant or Variant()
    rows = rows or {}
    stacks = stacks or {}
    fragments: list[FragmentKind] = []
    rifts = []
    for rift in range(1, 7):
        cells = rows.get(rift, "H" * 8)
        tiles = []
        for i in range(0, 8, 2):
            layout = cells[i : i + 2]
            tiles.append(ST.Tile(fragment=len(fragments), layout=layout))
            fragments.append(FragmentKind.HH if layout == "HH" else FragmentKind.HA)
        rifts.append(tuple(tiles))
    ids = tuple(range(len(fragments), len(fragments) + len(supply)))
    fragments += [FragmentKind(k) for k in supply]
    on_board = {c: sum(s.count(c) for s in stacks.values()) for c in "AB"}
    scored = scored or {"A": 0, "B": 0}
    home = home or {c: variant.ships_in_play - on_board[c] - scored[c] for c in "AB"}
    return ST.State(
        variant=variant,
        fragments=tuple(fragments),
        rifts=tuple(rifts),
        supply=ids,
        stacks=MappingProxyType({S(*k): tuple(v) for k, v in stacks.items()}),
        home=MappingProxyType(home),
        scored=MappingProxyType(scored),
        player=player,
        phase=phase,
        **extra,  # type: ignore[arg-type]
    )


def targets(state: ST.State, origin: ST.Spot) -> set[tuple[int, int] | None]:
    return {
        None if m.target is None else (m.target.rift, m.target.place)
        for m in R.legal_moves(state)
        if m.origin == origin
    }


def move(state: ST.State, origin: tuple[int, int], target: tuple[int, int] | None) -> ST.State:
    return R.apply(state, AC.Move(origin=S(*origin), target=None if target is None else S(*target)))


DEFAULT_FACES = list(range(1, 29))


# ------------------------------------------------------------------------------------- setup


def test_AST_1_each_player_starts_with_ships_in_play_in_home_base() -> None:
    state = ST.new_game(layout=ST.random_layout(DEFAULT_FACES), first_player="A")
    assert dict(state.home) == {"A": 8, "B": 8}
    assert not state.stacks and dict(state.scored) == {"A": 0, "B": 0}
    seven = ST.new_game(
        layout=ST.random_layout(DEFAULT_FACES), first_player="B", variant=Variant(ships_in_play=7)
    )
    assert dict(seven.home) == {"A": 7, "B": 7} and seven.spares == 2
    assert seven.ships_total() == state.ships_total() == ASTEROIDS.ships_total == 18


def test_AST_2_twenty_four_fragments_in_rifts_four_in_supply() -> None:
    state = ST.new_game(layout=ST.random_layout(DEFAULT_FACES), first_player="A")
    assert [len(r) for r in state.rifts] == [4] * 6
    assert len(state.supply) == 4
    good = ST.random_layout(DEFAULT_FACES)
    with refused("AST-2", ST.LayoutError):
        ST.Layout(rifts=good.rifts, supply=good.supply[:3])
    with refused("AST-2", ST.LayoutError):
        ST.Layout(rifts=(good.rifts[0][:3],) + good.rifts[1:], supply=good.supply)


def test_AST_3_every_rift_needs_an_hh_fragment_at_setup_only() -> None:
    rifts = [["HH", "HH", "HA", "AH"]] * 4 + [["HH"] * 3 + ["HA"], ["HA", "HA", "AH", "HA"]]
    with refused("AST-3", ST.LayoutError):
        ST.Layout.from_rifts(rifts)
    # Faces that sort every HA fragment (ids 14..27) first: the repair still satisfies AST-3.
    faces = [2 * (100 + i) for i in range(14)] + [2 * i + 1 for i in range(14)]
    layout = ST.random_layout(faces)
    assert all("HH" in rift for rift in layout.rifts)
    # Only at setup: a push may leave a rift without HH.
    state = board(rows={1: "HHHAHAHA"}, phase="push", push_rift=1, supply=("HA", "HA", "HA", "HH"))
    after = R.apply(state, AC.Push(fragment=24, layout="HA", side="right", rift=1))
    assert [t.layout for t in after.rifts[0]] == ["HA", "HA", "HA", "HA"]


def test_AST_4_players_layout_accepted_and_random_layout_depends_on_faces() -> None:
    built = ST.Layout.from_rifts([["HH", "HA", "AH", "HH"]] * 6)
    assert sorted(k.value for k in built.supply) == ["HA", "HA", "HH", "HH"]
    assert ST.Layout.from_json(built.to_json()) == built
    first = ST.random_layout(DEFAULT_FACES)
    assert ST.random_layout(DEFAULT_FACES) == first
    assert ST.random_layout(DEFAULT_FACES[::-1]) != first
    with refused("AST-2", ST.LayoutError):
        ST.Layout.from_rifts([["HH", "HH", "HH", "HA"]] * 6)
    with pytest.raises(ST.LayoutError, match="needs 28 faces"):
        ST.random_layout([1, 2])


def test_AST_5_starting_player_from_a_two_sided_die() -> None:
    assert ST.first_player_from_face(1) == "A"
    assert ST.first_player_from_face(2) == "B"
    with pytest.raises(ST.StateError, match=r"face must be one of \[1, 2\], got 3"):
        ST.first_player_from_face(3)


# ------------------------------------------------------------------------------------ steps


def test_AST_10_a_step_is_one_place_orthogonally() -> None:
    state = board(stacks={(3, 4): "A"})
    assert targets(state, S(3, 4)) == {(4, 4), (2, 4), (3, 5), (3, 3)}
    with refused("AST-10"):
        move(state, (3, 4), (4, 5))
    with refused("AST-10"):
        move(state, (3, 4), (3, 6))  # a single ship does not jump


def test_AST_11_never_end_on_an_asteroid() -> None:
    state = board(rows={4: "HHHAHHHH"}, stacks={(3, 4): "A"})
    assert (4, 4) not in targets(state, S(3, 4))
    with refused("AST-11"):
        move(state, (3, 4), (4, 4))


def test_AST_12_stacks_of_either_colour_up_to_three_only_top_moves() -> None:
    state = board(stacks={(3, 4): "A", (3, 5): "BA", (4, 4): "ABA"})
    after = move(state, (3, 4), (3, 5))
    assert after.stacks[S(3, 5)] == ("B", "A", "A")
    assert (4, 4) not in targets(state, S(3, 4))  # already three high
    blocked = board(stacks={(3, 4): "AB"})
    with refused("AST-12"):
        move(blocked, (3, 4), (3, 3))
    with refused("AST-12"):
        move(state, (3, 4), (4, 4))  # three high
    own_only = board(
        stacks={(3, 4): "A", (3, 5): "B", (2, 4): "A"}, variant=Variant(stack_on_enemy=False)
    )
    assert targets(own_only, S(3, 4)) == {(4, 4), (2, 4), (3, 3)}
    with refused("AST-12"):
        move(own_only, (3, 4), (3, 5))  # D1: own ships only


def test_AST_13_leaving_sideways_returns_home() -> None:
    state = board(stacks={(2, 1): "A"})
    assert None in targets(state, S(2, 1))
    with refused("AST-13"):
        move(board(stacks={(2, 4): "A"}), (2, 4), None)
    after = move(state, (2, 1), None)
    assert not after.stacks and after.home["A"] == 8 and after.returned == ("A",)


def test_AST_14_base_is_one_big_place() -> None:
    state = board(rows={1: "HHHAHHAH"})
    assert targets(state, ST.BASE["A"]) == {(1, p) for p in (1, 2, 3, 5, 6, 8)}
    with refused("AST-11"):
        move(state, (0, 0), (1, 4))
    with refused("AST-14"):
        move(state, (0, 0), (2, 4))
    after = move(state, (0, 0), (1, 8))
    assert after.home["A"] == 7 and after.stacks[S(1, 8)] == ("A",)
    into = board(stacks={(1, 3): "A", (6, 2): "A"})
    assert (0, 0) in targets(into, S(1, 3))  # D2: retreat into the own base
    scored = move(into, (6, 2), (7, 0))
    assert scored.scored["A"] == 1


def test_AST_15_jump_uses_the_boost_of_the_ships_below() -> None:
    state = board(rows={3: "HHAHHHHH"}, stacks={(3, 2): "BA", (4, 2): "B"})
    steps = {(4, 2), (2, 2), (3, 1)}  # the jump is optional; (3, 3) is an asteroid
    jumps = {(5, 2), (1, 2), (3, 4), None}  # exactly 2, over the stack and the asteroid
    assert targets(state, S(3, 2)) == steps | jumps
    triple = board(rows={3: "HHHHHAHH"}, stacks={(3, 3): "ABA", (3, 4): "B"})
    ends = targets(triple, S(3, 3))
    assert (6, 3) in ends and (3, 6) not in ends  # 3 places; (3, 6) is an asteroid
    forced = board(stacks={(3, 4): "BA"}, variant=Variant(jump_mandatory=True))
    assert targets(forced, S(3, 4)) == {(5, 4), (1, 4), (3, 6), (3, 2)}
    with refused("AST-15"):
        move(forced, (3, 4), (3, 5))  # a step where the jump is mandatory
    with refused("AST-15"):
        move(state, (3, 2), (3, 5))  # 3 places for the 2nd of a stack


def test_AST_16_jump_into_a_base_ends_there_and_off_board_returns_home() -> None:
    state = board(stacks={(2, 7): "BBA"})
    ends = targets(state, S(2, 7))
    assert (0, 0) in ends and None in ends
    after = move(state, (2, 7), (0, 0))
    assert after.home["A"] == 8 and after.stacks[S(2, 7)] == ("B", "B")
    off = move(state, (2, 7), None)
    assert off.home["A"] == 8 and off.returned == ("A",)


def test_AST_17_two_steps_with_the_same_ship_or_two_ships() -> None:
    state = board(stacks={(3, 4): "A", (5, 5): "A"})
    same = move(move(state, (3, 4), (3, 5)), (3, 5), (3, 6))
    assert same.phase == "push" and same.stacks[S(3, 6)] == ("A",)
    two = move(move(state, (3, 4), (3, 5)), (5, 5), (5, 6))
    assert two.phase == "push" and two.push_rift == 5


def test_AST_18_scored_ships_stay_unless_the_variant_frees_them() -> None:
    state = board(scored={"A": 2, "B": 0}, home={"A": 6, "B": 8})
    assert ST.BASE["B"] not in {m.origin for m in R.legal_moves(state)}
    with refused("AST-18"):
        move(state, (7, 0), (6, 1))
    free = board(
        scored={"A": 2, "B": 0}, home={"A": 6, "B": 8}, variant=Variant(scored_ships_mobile=True)
    )
    after = move(free, (7, 0), (6, 1))
    assert after.scored["A"] == 1 and after.stacks[S(6, 1)] == ("A",)


# ------------------------------------------------------------------------------------- push


def test_AST_20_push_the_rift_of_the_second_step_shifting_ships_along() -> None:
    state = board(rows={4: "HAHHHHHH"}, stacks={(4, 3): "B", (3, 2): "A"})
    state = move(move(state, (3, 2), (3, 1)), (3, 1), (4, 1))
    assert state.phase == "push" and state.push_rift == 4
    with refused("AST-20"):
        R.apply(state, R.Push(fragment=24, layout="HH", side="left", rift=3))
    pushed = R.apply(state, R.Push(fragment=25, layout="AH", side="left", rift=4))
    assert [t.layout for t in pushed.rifts[3]] == ["AH", "HA", "HH", "HH"]
    assert pushed.stacks[S(4, 3)] == ("A",) and pushed.stacks[S(4, 5)] == ("B",)
    assert pushed.supply == (15, 24, 26, 27)  # fragment 15 fell out at the right end
    assert pushed.player == "B" and pushed.phase == "step1" and pushed.turn == 2
    assert pushed.last_out == ST.LastOut(fragment=15, rift=4, side="right")


def test_AST_21_ships_on_the_pushed_out_fragment_go_home() -> None:
    state = board(
        stacks={(2, 1): "BA", (2, 2): "A", (2, 3): "B"},
        phase="push",
        push_rift=2,
        home={"A": 6, "B": 6},
    )
    after = R.apply(state, AC.Push(fragment=24, layout="HH", side="right", rift=2))
    assert dict(after.home) == {"A": 8, "B": 7}
    assert sorted(after.returned) == ["A", "A", "B"]
    assert after.stacks == {S(2, 1): ("B",)}


def test_AST_22_second_step_into_a_base_lets_the_player_choose_the_rift() -> None:
    state = board(stacks={(1, 2): "A", (5, 5): "A"})
    state = move(move(state, (5, 5), (5, 6)), (1, 2), (0, 0))
    assert state.phase == "push" and state.push_rift is None
    rifts = {a.rift for a in R.legal_actions(state) if isinstance(a, AC.Push)}
    assert rifts == {1, 2, 3, 4, 5, 6}
    off = move(move(board(stacks={(3, 1): "A"}), (3, 1), (3, 2)), (3, 2), (3, 1))
    assert off.push_rift == 3  # a second step ending in a rift fixes the rift


def test_AST_23_fragment_that_fell_out_may_be_pushed_back_unless_forbidden() -> None:
    last = ST.LastOut(fragment=24, rift=2, side="left")
    allowed = board(phase="push", push_rift=2, last_out=last)
    back = AC.Push(fragment=24, layout="HH", side="left", rift=2)
    assert back in R.legal_actions(allowed)
    R.apply(allowed, back)
    forbidden = board(
        phase="push", push_rift=2, last_out=last, variant=Variant(immediate_repush=False)
    )
    assert back not in R.legal_actions(forbidden)
    assert R.Push(fragment=24, layout="HH", side="right", rift=2) in R.legal_actions(forbidden)
    with refused("AST-23"):
        R.apply(forbidden, back)


def test_AST_24_a_player_who_cannot_step_skips_and_still_pushes() -> None:
    state = board(
        rows={1: "HAHAHAHA"},
        stacks={(1, 1): "B", (1, 3): "B", (1, 5): "B", (1, 7): "B"},
        variant=Variant(stack_on_enemy=False),
    )
    assert R.legal_actions(state) == [AC.Skip()]
    skipped = R.apply(R.apply(state, AC.Skip()), AC.Skip())
    assert skipped.phase == "push" and skipped.push_rift is None  # D3
    assert R.apply(skipped, R.legal_actions(skipped)[0]).player == "B"
    with refused("AST-24"):
        R.apply(board(), R.Skip())


def test_AST_30_five_in_the_opposing_base_wins_at_once() -> None:
    state = board(stacks={(6, 3): "A"}, scored={"A": 4, "B": 0}, home={"A": 3, "B": 8})
    after = move(state, (6, 3), (7, 0))
    assert after.phase == "over" and after.winner == "A"
    assert R.outcome(after) == R.Outcome(winner="A", score=after.scored, turn=1)
    assert R.legal_actions(after) == []
    with refused("AST-30"):
        R.apply(after, R.Push(fragment=24, layout="HH", side="left", rift=6))
    assert R.outcome(state) is None


# ------------------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "must be a JSON object"),
        ({"type": "fly"}, "type must be one of"),
        ({"type": "move", "origin": [3, 4]}, "fields of a move action"),
        ({"type": "move", "origin": [3, 9], "target": None}, "place must be an integer in 1..8"),
        ({"type": "move", "origin": [0, 2], "target": None}, "place of a base must be 0"),
        ({"type": "push", "fragment": 3, "layout": "HX", "side": "left", "rift": 1}, "layout"),
        ({"type": "push", "fragment": 3, "layout": "HH", "side": "up", "rift": 1}, "side"),
        ({"type": "push", "fragment": 30, "layout": "HH", "side": "left", "rift": 1}, "fragment"),
    ],
)
def test_malformed_actions_are_distinct_from_illegal_ones(data: object, message: str) -> None:
    with pytest.raises(ST.MalformedAction, match=message):
        AC.action_from_json(data)


def test_illegal_is_not_malformed() -> None:
    state = board(stacks={(3, 4): "B"})
    with pytest.raises(ST.IllegalAction) as info:
        move(state, (3, 4), (3, 5))
    assert not isinstance(info.value, ST.MalformedAction)
    with refused("AST-17"):  # a third step (here a skip): the turn has two, then the push
        R.apply(board(phase="push", push_rift=1), R.Skip())
    with refused("AST-20"):
        R.apply(
            board(phase="push", push_rift=1), AC.Push(fragment=0, layout="HH", side="left", rift=1)
        )


def test_state_rejects_an_inconsistent_board() -> None:
    with pytest.raises(ST.StateError, match="ships of A must be conserved"):
        board(stacks={(3, 4): "A"}, home={"A": 8, "B": 8})
    with pytest.raises(ST.StateError, match="asteroid"):
        board(rows={3: "HHHAHHHH"}, stacks={(3, 4): "A"})
    with pytest.raises(ST.StateError, match="1..3 ships"):
        board(stacks={(3, 4): "AAAA"})


def test_state_json_round_trip() -> None:
    state = board(
        stacks={(3, 4): "AB", (6, 8): "B"},
        phase="push",
        push_rift=3,
        last_out=ST.LastOut(fragment=24, rift=1, side="right"),
        variant=Variant(jump_mandatory=True),
    )
    text = ST.dumps(state)
    assert ST.loads(text) == state
    assert json.loads(text)["stacks"] == [[3, 4, ["A", "B"]], [6, 8, ["B"]]]
    with pytest.raises(ST.StateError):
        ST.loads('{"format": 2}')
    for action in (
        AC.Skip(),
        AC.Move(origin=S(0), target=None),
        AC.Push(fragment=1, layout="AH", side="right", rift=6),
    ):
        assert AC.action_from_json(json.loads(json.dumps(AC.action_to_json(action)))) == action


def test_games_package_stays_pure() -> None:
    code = "import sys, games.asteroids.rules; print(sorted(m for m in ('flask','reportlab','cadquery','sqlite3') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------------------------- playouts


def random_spot(rng: random.Random) -> ST.Spot:
    rift = rng.randint(0, 7)
    return S(rift, 0 if rift in (0, 7) else rng.randint(1, 8))


def random_move(rng: random.Random) -> AC.Move:
    return AC.Move(origin=random_spot(rng), target=rng.choice([None, random_spot(rng)]))


def random_push(rng: random.Random) -> AC.Push:
    return AC.Push(
        fragment=rng.randint(0, 27),
        layout=rng.choice(["HH", "HA", "AH"]),
        side=rng.choice(["left", "right"]),
        rift=rng.randint(1, 6),
    )


VARIANTS = st.builds(
    Variant,
    jump_mandatory=st.booleans(),
    stack_on_enemy=st.booleans(),
    immediate_repush=st.booleans(),
    ships_in_play=st.sampled_from([7, 8]),
    scored_ships_mobile=st.booleans(),
)


@settings(max_examples=40, deadline=None)
@given(
    faces=st.lists(st.integers(1, ST.LAYOUT_DIE_SIDES), min_size=28, max_size=28),
    first=st.sampled_from(["A", "B"]),
    variant=VARIANTS,
    choices=st.lists(st.integers(0, 10_000), min_size=60, max_size=200),
)
def test_random_legal_playouts_keep_the_invariants(
    faces: list[int], first: str, variant: Variant, choices: list[int]
) -> None:
    state = ST.new_game(layout=ST.random_layout(faces), first_player=first, variant=variant)
    assert R.legal_actions(state), "a new game has a move"
    for choice in choices:
        legal = R.legal_actions(state)
        if not legal:
            assert state.phase == "over" and R.outcome(state) is not None
            break
        probe = random.Random(choice)
        for candidate in (random_move(probe), random_push(probe)):
            if candidate in legal:
                R.apply(state, candidate)
            else:
                with pytest.raises(ST.IllegalAction) as info:
                    R.apply(state, candidate)  # legal_actions lists all that apply accepts
                assert info.value.rule and info.value.message_id in MESSAGES.texts
        before = state
        state = R.apply(state, legal[choice % len(legal)])
        assert state.ply == before.ply + 1  # the revision only grows
        assert state.ships_total() == 18
        assert sum(len(r) for r in state.rifts) == 24 and len(state.supply) == 4
        assert max((len(s) for s in state.stacks.values()), default=0) <= 3
        assert all(state.cell(spot) == "H" for spot in state.stacks)
        assert state.turn == before.turn + (before.phase == "push")
        assert ST.loads(ST.dumps(state)) == state
        assert replace(state) == state  # the checks the rules' steps skip (ST.evolve) pass


@pytest.mark.parametrize(
    "data",
    [
        {"ships_in_play": 7.0},
        {"ships_in_play": True},
        {"ships_in_play": 9},
        {"jump_mandatory": "no"},
        {"stack_on_enemy": []},
        {"immediate_repush": 0},
        {"scored_ships_mobile": None},
        {"unknown_flag": True},
        [],
        None,
    ],
)
def test_AST_1_variant_flags_are_parsed_strictly(data: Any) -> None:
    with pytest.raises(ST.MalformedAction):
        ST.variant_from_json(data)


def test_AST_1_variant_json_round_trips_and_defaults_the_rest() -> None:
    variant = ST.variant_from_json({"ships_in_play": 7, "jump_mandatory": True})
    assert variant == Variant(ships_in_play=7, jump_mandatory=True)
    assert ST.variant_from_json(ST.variant_to_json(variant)) == variant
    assert ST.variant_from_json({}) == Variant()


def test_evolve_changes_the_named_fields_only_and_names_a_wrong_one() -> None:
    state = ST.new_game(layout=ST.random_layout([1] * 28), first_player="A")
    R.legal_actions(state)  # leaves its memo of legal targets on the state
    moved = ST.evolve(state, player="B", ply=5)
    assert (moved.player, moved.ply, moved.rifts, moved.home) == ("B", 5, state.rifts, state.home)
    assert "_legal_targets" in vars(state) and "_legal_targets" not in vars(moved)
    with pytest.raises(TypeError, match=r"State has no field \['colour'\]"):
        ST.evolve(state, colour="B")
