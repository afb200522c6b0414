"""Speed of the Transformers rules engine: ``legal_actions`` + ``apply`` per second.

Plays seeded random playouts through the game protocol (:mod:`games.transformers.game`), as
the companion folds a log: at each step the seat to act lists its legal actions, one is
chosen at random and applied (the starting player's die rolled with the same seeded
generator). Half of the games use the seed's reading, half every official variant flag; a game
ends at TF-40 or after ``--plies`` steps. Reports steps (one ``legal_actions`` plus one
``apply``) per second, and separately the time of each half.

Usage: ``python benchmarks/transformers_engine.py [--games 200] [--plies 300] [--seed 7]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    """Run the playouts and print the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from games.transformers.game import GAME

    rng = random.Random(args.seed)
    setups = GAME.example_setups()
    steps = finished = 0
    legal_seconds = apply_seconds = 0.0
    clock = time.perf_counter
    started = clock()
    for game in range(args.games):
        setup = GAME.parse_setup(setups[game % len(setups)])
        state = GAME.start(GAME.setup_event(setup, ()))
        for _ in range(args.plies):
            actor = GAME.to_act(state)
            if actor is None:
                finished += 1
                break
            t0 = clock()
            legal = GAME.legal_actions(state, actor)
            t1 = clock()
            action = rng.choice(legal)
            faces = tuple(
                tuple(rng.randint(1, r.sides) for _ in range(r.count))
                for r in GAME.dice_for(state, actor, action)
            )
            t2 = clock()
            state = GAME.apply(state, actor, action, faces)
            t3 = clock()
            legal_seconds += t1 - t0
            apply_seconds += t3 - t2
            steps += 1
    total = clock() - started
    print(f"python {sys.version.split()[0]}, seed {args.seed}")
    print(f"{args.games} games, {steps} steps, {finished} ended by TF-40 within {args.plies}")
    print(f"legal_actions+apply: {steps / (legal_seconds + apply_seconds):,.0f} steps/s")
    print(f"  legal_actions: {steps / legal_seconds:,.0f}/s, apply: {steps / apply_seconds:,.0f}/s")
    print(f"  wall clock with the choice and dice: {steps / total:,.0f} steps/s ({total:.2f} s)")


if __name__ == "__main__":
    main()
