"""Benchmark: Toy Battle engine speed, legal_actions + apply per second over random playouts
on every terrain.

What it runs: for each of the eight terrains, ``--games`` random legal playouts from the
protocol's setup (seeded starting player, default variant), each step being one
``GAME.legal_actions`` call on the seat to move followed by one ``GAME.apply`` of a random
legal action (placements and resolutions preferred over decline/stuck 9 times in 10, so the
games reach captures and H.Q.s instead of ending at once). It prints, per terrain, the steps,
the steps per second (one step = legal_actions + apply), the mean game length and how the
games ended, then the total. Single process, pure Python; on a shared machine absolute numbers
drift, compare runs made at the same time.

Usage: python benchmarks/toybattle_engine.py [--games 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import collections
import random
import time

from games.toybattle.actions import Decline, Stuck
from games.toybattle.game import GAME
from games.toybattle.terrains import TERRAINS


def playout(slug: str, rng: random.Random) -> tuple[int, str]:
    """One random game on ``slug``: (steps, end reason)."""
    setup = GAME.parse_setup({"type": "setup", "terrain": slug})
    state = GAME.start(GAME.setup_event(setup, ((rng.randint(1, 2),),)))
    steps = 0
    while state.ended is None:
        legal = GAME.legal_actions(state, state.player)
        moves = [a for a in legal if not isinstance(a, (Decline, Stuck))]
        action = rng.choice(moves if moves and rng.random() < 0.9 else legal)
        state = GAME.apply(state, state.player, action)
        steps += 1
    return steps, state.ended.reason


def main() -> None:
    """Run the playouts and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="playouts per terrain")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    total_steps, total_time = 0, 0.0
    print(f"{'terrain':<12} {'steps':>7} {'steps/s':>9} {'plies/game':>10}  ends")
    for slug in TERRAINS:
        ends: collections.Counter[str] = collections.Counter()
        steps = 0
        start = time.perf_counter()
        for _ in range(args.games):
            n, reason = playout(slug, rng)
            steps += n
            ends[reason] += 1
        elapsed = time.perf_counter() - start
        total_steps += steps
        total_time += elapsed
        shown = ", ".join(f"{k} {v}" for k, v in ends.most_common())
        print(f"{slug:<12} {steps:>7} {steps / elapsed:>9.0f} {steps / args.games:>10.1f}  {shown}")
    print(f"{'all':<12} {total_steps:>7} {total_steps / total_time:>9.0f}")


if __name__ == "__main__":
    main()
