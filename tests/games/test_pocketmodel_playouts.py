"""Random legal PocketModel playouts (Hypothesis) keep the table's invariants."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.pocketmodel import legal as moves
from games.pocketmodel import rules
from games.pocketmodel.actions import Counter, Roll
from games.pocketmodel.fleet import STANDARD_FLEET
from games.pocketmodel.state import State, Variant, check_state
from games.protocol import GameError


def invariants(before: State, after: State) -> None:
    check_state(after)  # places, counters >= 0, no counters in the reserve, budget
    assert len(after.units) == len(before.units)
    for unit in after.units:
        assert unit.counters >= 0
        if unit.destroyed:
            assert unit.place == "reserve" and unit.counters == 0
        places = [unit.in_play, unit.place == "reserve" and not unit.destroyed, unit.destroyed]
        assert sum(places) == 1
    if after.action is not None:
        assert after.action.stars <= after.action.budget <= 5
    if after.battle is not None:
        attackers = {a for a, _ in after.battle.pairs}
        assert sum(after.unit(a).stars for a in attackers) <= 5  # type: ignore[union-attr]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    above=st.booleans(),
    gate=st.booleans(),
)
def test_random_legal_playouts_keep_the_invariants(seed: int, above: bool, gate: bool) -> None:
    rng = random.Random(seed)
    variant = Variant(destroy_above_shields=above, icon_gates_bonus=gate)
    state = rules.new_game(variant, (STANDARD_FLEET, STANDARD_FLEET), rng.choice("AB"))
    assert rules.to_act(state) in ("A", "B") and rules.outcome(state) is None
    for _ in range(300):
        actor = rules.to_act(state)
        if actor is None:
            assert rules.outcome(state) is not None
            break
        seat = actor if rng.random() < 0.9 else ("B" if actor == "A" else "A")
        legal = moves.legal_actions(state, seat)
        if not legal:
            continue
        # favour the turn's actions over counter taps so that games move on
        turn = [a for a in legal if type(a).__name__ != "Counter"]
        action = rng.choice(turn if turn and rng.random() < 0.85 else legal)
        requests = rules.check(state, seat, action)
        faces = tuple(tuple(rng.randint(1, r.sides) for _ in range(r.count)) for r in requests)
        after = rules.apply(state, seat, action, faces)
        invariants(state, after)
        state = after


def _refusal(call: Callable[..., object], *args: Any) -> tuple[str, str, Any, Any] | None:
    """The error ``call(*args)`` raises as (class, message, rule, message id), or None."""
    try:
        call(*args)
    except GameError as exc:
        return (type(exc).__name__, str(exc), exc.rule, exc.message_id)
    return None


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_dice_check_refuses_exactly_what_apply_refuses(seed: int) -> None:
    """``rules.check`` no longer applies an action with dice before it is rolled: for every
    state of a playout, both seats, both fleets and a roll, it refuses an action with dice
    exactly when ``apply`` with dice refuses it, with the same error (PM-9, PM-21, PM-31)."""
    rng = random.Random(seed)
    state = rules.new_game(Variant(), (STANDARD_FLEET, None), None)
    checked = set()
    for _ in range(200):
        for seat in ("A", "B"):
            for action in (Roll(), STANDARD_FLEET):
                requests = rules.dice_requests(state, action)
                if not requests:
                    continue
                faces = tuple(tuple(1 for _ in range(r.count)) for r in requests)
                refused = _refusal(rules.check, state, seat, action)
                assert refused == _refusal(rules.apply, state, seat, action, faces)
                checked.add(refused is None)
        actor = rules.to_act(state)
        if actor is None:
            break
        legal = moves.legal_actions(state, actor)
        turn = [a for a in legal if not isinstance(a, Counter)]
        action = rng.choice(turn if turn and rng.random() < 0.9 else legal)
        faces = tuple(
            tuple(rng.randint(1, r.sides) for _ in range(r.count))
            for r in rules.check(state, actor, action)
        )
        state = rules.apply(state, actor, action, faces)
    assert True in checked  # a roll or the second fleet was allowed at least once
