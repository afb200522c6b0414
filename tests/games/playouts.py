"""Whole games played through the protocol under a stated policy, with a stall detector.

Policy: the seat to act picks uniformly at random among its legal actions, leaving out the
table corrections (damage counters in PocketModel and Transformers, taps by hand in
Transformers: the players' fixes of the table, not moves of the rules); in Asteroids, where
random play never scores, greedily: the action that brings the most own ships into the
opposing base and the fewest of the other side's, else one that moves a ship furthest
forward, ties at random. Dice are rolled by a seeded generator.

A *stall* is a position from which no legal action can change the table: the detector counts
consecutive plies in which no legal action of the seat to act (each tried with freshly rolled
dice) changes the table part of the state (:data:`BOOKKEEPING` fields left out: whose turn,
the turn number, the step within it; in Transformers the parts of :data:`DECIDING`);
:data:`STALL_PLIES` such plies in a row are a stall.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from games import registry
from games.protocol import DiceRequest, Faces, Game, IllegalAction, MalformedAction

BOOKKEEPING: dict[str, frozenset[str]] = {
    "asteroids": frozenset({"player", "phase", "turn", "ply", "push_rift", "last_out"}),
    "pocketmodel": frozenset({"phase", "turn", "active", "objective_played", "action"}),
    "transformers": frozenset({"phase", "player", "turn", "this_turn", "last_attack"}),
    "toy-battle": frozenset({"player", "turn", "derived"}),
}
"""Top-level state fields that are not the table: the turn's bookkeeping."""
DECIDING: dict[str, Callable[[dict[str, Any]], Any]] = {
    "transformers": lambda data: (
        [(c["id"], c["zone"], c["damage"], c["tapped"]) for c in data["characters"]],
        data["attack"],
    ),
}
"""Where the table holds parts that cannot decide the game by themselves, the parts that do:
in Transformers only damage, KOs, taps and the running attack lead to an end (TF-30, TF-40);
modes and upgrades change totals only through an attack, so a table where every character is
tapped for good stalls however often modes flip."""
CORRECTIONS: dict[str, frozenset[str]] = {
    "pocketmodel": frozenset({"counter"}),
    "transformers": frozenset({"counter", "tap"}),
}
"""Action types left out of the policy (table corrections by hand)."""
STALL_PLIES = 12
"""Plies in a row with no table-changing action that make a stall (a turn of bookkeeping
is at most 4 plies: draw, end turn, and the other seat's the same)."""


@dataclass(frozen=True)
class Played:
    """One playout: ``outcome`` reason (None when cut at the cap), plies, stall ply."""

    winner: str | None
    reason: str | None
    plies: int
    stalled_at: int | None


def roll(rng: random.Random, requests: Sequence[DiceRequest]) -> Faces:
    return tuple(tuple(rng.randint(1, r.sides) for _ in range(r.count)) for r in requests)


def table(game: Game[Any, Any, Any], state: Any) -> str:
    """The table part of ``state`` as canonical JSON (the stall detector compares these)."""
    data = game.state_to_json(state)
    if game.name in DECIDING:
        return json.dumps(DECIDING[game.name](data), sort_keys=True)
    kept = {k: v for k, v in data.items() if k not in BOOKKEEPING[game.name]}
    return json.dumps(kept, sort_keys=True)


def choices(game: Game[Any, Any, Any], state: Any, seat: str) -> list[Any]:
    left_out = CORRECTIONS.get(game.name, frozenset())
    return [
        a for a in game.legal_actions(state, seat) if game.action_to_json(a)["type"] not in left_out
    ]


def _asteroids_key(
    game: Game[Any, Any, Any], state: Any, seat: str, action: Any
) -> tuple[int, int]:
    after = game.apply(state, seat, action)
    data = game.state_to_json(after)
    other = "B" if seat == "A" else "A"
    scored = data["scored"][seat] - data["scored"][other]
    encoded = game.action_to_json(action)
    forward = 0
    if encoded["type"] == "move" and encoded.get("target"):
        step = encoded["target"][0] - encoded["origin"][0]
        forward = step if seat == "A" else -step
    return scored, forward


def pick(
    game: Game[Any, Any, Any], state: Any, seat: str, legal: list[Any], rng: random.Random
) -> Any:
    if game.name != "asteroids":
        return rng.choice(legal)
    keys = [_asteroids_key(game, state, seat, a) for a in legal]
    best = max(keys)
    return rng.choice([a for a, k in zip(legal, keys) if k == best])


def can_change(
    game: Game[Any, Any, Any], state: Any, seat: str, legal: list[Any], rng: random.Random
) -> bool:
    before = table(game, state)
    order = list(legal)
    rng.shuffle(order)
    for action in order:
        after = game.apply(state, seat, action, roll(rng, game.dice_for(state, seat, action)))
        if table(game, after) != before:
            return True
    return False


def playout(name: str, setup: dict[str, Any], seed: int, cap: int) -> Played:
    """Play one game of ``name`` from ``setup`` under the policy, at most ``cap`` plies."""
    game = registry.GAMES[name]
    rng = random.Random(seed)
    parsed = game.parse_setup(setup)
    event = json.loads(json.dumps(game.setup_event(parsed, roll(rng, game.setup_dice(parsed)))))
    state = game.start(event)
    quiet = 0
    for ply in range(cap):
        seat = game.to_act(state)
        if seat is None:
            ended = game.outcome(state)
            assert ended is not None
            return Played(ended.winner, ended.reason, ply, None)
        legal = choices(game, state, seat)
        if not legal:
            return Played(None, None, ply, ply)
        before = table(game, state)
        action = pick(game, state, seat, legal, rng)
        after = game.apply(state, seat, action, roll(rng, game.dice_for(state, seat, action)))
        if table(game, after) != before or can_change(game, state, seat, legal, rng):
            quiet = 0
        else:
            quiet += 1
            if quiet >= STALL_PLIES:
                return Played(None, None, ply, ply)
        state = after
    return Played(None, None, cap, None)


def default_setups(name: str) -> list[dict[str, Any]]:
    """The default setup of each game: Toy Battle's on every terrain (its setup names one);
    fleets and teams are brought as actions (the standard ones) where the game has them."""
    game = registry.GAMES[name]
    if name == "toy-battle":
        return [s for s in game.example_setups() if "variant" not in s]
    return [game.example_setups()[0]]


def tried_refusals(
    game: Game[Any, Any, Any], setups: Sequence[dict[str, Any]], plies: int = 150
) -> Iterator[tuple[Any, IllegalAction]]:
    """Refusals found by playing: one seeded random game per setup (the seed is its index),
    at most ``plies`` plies; at each position up to 5 actions that were legal at earlier
    positions are tried by both seats. Yields each refused action with its refusal (malformed
    ones, such as dice that do not fit, are skipped)."""
    for seed, setup in enumerate(setups):
        rng = random.Random(seed)
        parsed = game.parse_setup(setup)
        state = game.start(game.setup_event(parsed, roll(rng, game.setup_dice(parsed))))
        pool: list[object] = []
        for _ in range(plies):
            seat = game.to_act(state)
            if seat is None:
                break
            legal = list(game.legal_actions(state, seat))
            pool.extend(rng.sample(legal, min(3, len(legal))))
            for action in rng.sample(pool, min(5, len(pool))):
                for who in ("A", "B"):
                    try:
                        game.apply(state, who, action, roll(rng, game.dice_for(state, who, action)))
                    except MalformedAction:
                        continue
                    except IllegalAction as refusal:
                        yield action, refusal
            action = rng.choice(legal)
            state = game.apply(state, seat, action, roll(rng, game.dice_for(state, seat, action)))
