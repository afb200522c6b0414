"""Random legal playouts of the Transformers engine (Hypothesis) checking the invariants:
damage never negative and below Health in play, KO'd characters carry no counters and no
upgrades, every character in exactly one place (in play or KO'd), the stars budget of TF-3,
the attack phase consistent, the JSON round trip, and every listed action applies."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.protocol import SEATS, IllegalAction
from games.transformers.game import GAME
from games.transformers.state import TEAM_MAX_STARS, State


def check_invariants(state: State, sizes: dict[str, int]) -> None:
    """The invariants every reachable state keeps."""
    ids = [c.id for c in state.characters]
    assert len(ids) == len(set(ids))
    for seat in SEATS:
        mine = [c for c in state.characters if c.seat == seat]
        if sizes.get(seat):
            assert len(mine) == sizes[seat]  # nobody vanishes or doubles
        placed = [c for c in mine if c.zone == "play"] + [c for c in mine if c.zone == "ko"]
        assert sorted(c.id for c in placed) == sorted(c.id for c in mine)  # exactly one place
        team = state.team(seat)
        if team is not None:
            stars = sum(c.recruit.stars for c in mine)
            if state.variant.count_battle_stars:
                stars += sum(b.stars * b.copies for b in team.battle_cards)
            assert stars <= TEAM_MAX_STARS
    for c in state.characters:
        assert c.damage >= 0
        if c.zone == "ko":
            assert c.damage == 0 and c.upgrades == () and not c.tapped
        else:
            assert c.damage < c.health
        assert len({u.slot for u in c.upgrades}) == len(c.upgrades)  # one per slot (TF-13)
    assert (state.phase == "attack") == (state.attack is not None)
    if state.attack is not None:
        attacker = state.character(state.attack.attacker.character)
        defender = state.character(state.attack.defender.character)
        assert attacker is not None and defender is not None
        assert attacker.tapped and attacker.seat == state.player != defender.seat
        assert len(state.attack.attacker.flips) <= 2 and len(state.attack.defender.flips) <= 2
    if state.phase == "over":
        loser = "B" if state.winner == "A" else "A"
        assert all(c.zone == "ko" for c in state.characters if c.seat == loser)
    else:
        assert all(any(c.zone == "play" for c in state.characters if c.seat == s) for s in sizes)
    turn = state.this_turn
    if state.turn == 1 and state.phase != "team":
        assert turn.action is None and turn.upgrade is None  # TF-12
    if state.turn == 2:
        assert turn.action is None or turn.upgrade is None  # TF-12


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    variant=st.fixed_dictionaries(
        {
            "count_battle_stars": st.booleans(),
            "must_attack": st.booleans(),
            "untap_all": st.booleans(),
        }
    ),
    data=st.data(),
)
def test_random_legal_playouts_keep_the_invariants(variant: dict[str, bool], data: Any) -> None:
    state = GAME.start(
        GAME.setup_event(GAME.parse_setup({"type": "setup", "variant": variant}), ())
    )
    sizes: dict[str, int] = {}
    assert [a for s in SEATS for a in GAME.legal_actions(state, s)], "a new game has actions"
    for _ in range(data.draw(st.integers(min_value=10, max_value=160), label="plies")):
        choices = [(s, a) for s in SEATS for a in GAME.legal_actions(state, s)]
        if not choices:
            assert GAME.outcome(state) is not None
            break
        seat, action = data.draw(st.sampled_from(choices), label="action")
        faces = tuple(
            (data.draw(st.integers(1, r.sides), label="die"),)
            for r in GAME.dice_for(state, seat, action)
        )
        before = state
        state = GAME.apply(state, seat, action, faces)
        assert GAME.turn(state) >= GAME.turn(before)
        for s in SEATS:
            sizes.setdefault(s, 0)
            if before.team(s) is None and state.team(s) is not None:
                sizes[s] = sum(1 for c in state.characters if c.seat == s)
        check_invariants(state, {s: n for s, n in sizes.items() if n})
        assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(state)))) == state


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**6), data=st.data())
def test_every_listed_action_applies_and_others_refuse_with_a_rule(seed: int, data: Any) -> None:
    """Each legal action of either seat applies; the actor's other seat's turn actions do not."""
    state = GAME.start(GAME.setup_event(GAME.parse_setup({"type": "setup"}), ()))
    assert GAME.to_act(state) in SEATS, "a new game has a player to act"
    for _ in range(data.draw(st.integers(min_value=2, max_value=60), label="plies")):
        actor = GAME.to_act(state)
        if actor is None:
            break
        for seat in SEATS:
            for action in GAME.legal_actions(state, seat):
                faces = tuple((1,) for _ in GAME.dice_for(state, seat, action))
                GAME.apply(state, seat, action, faces)  # never raises
        legal = GAME.legal_actions(state, actor)
        other = "B" if actor == "A" else "A"
        for action in legal:
            if action not in GAME.legal_actions(state, other) and state.phase != "team":
                try:
                    GAME.apply(state, other, action)
                except IllegalAction as error:
                    assert error.rule is not None and error.rule.startswith("TF-")
                else:
                    raise AssertionError(f"{other} applied {action} out of turn")
        action = data.draw(st.sampled_from(legal), label="action")
        faces = tuple((1 + seed % 2,) for _ in GAME.dice_for(state, actor, action))
        state = GAME.apply(state, actor, action, faces)
