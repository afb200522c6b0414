"""Benchmark: PocketModel engine speed, legal_actions + apply per second over random playouts.

Seeded random legal playouts from both standard fleets (as the protocol tests play): at each
step the seat to act lists its legal actions, one is picked (the turn's actions are favoured
over counter taps, so games end), the dice it needs are rolled by a seeded generator, and the
action is applied. Timed: ``legal_actions`` + ``apply`` (the legality check ``dice_for`` the
server runs before rolling is timed separately). Prints steps, games finished, steps/second.

Usage: python benchmarks/pocketmodel_engine.py [--games 200] [--seed 1] [--plies 400]
"""

from __future__ import annotations

import argparse
import random
import time

from games.pocketmodel import legal as moves
from games.pocketmodel import rules
from games.pocketmodel.actions import Counter
from games.pocketmodel.fleet import STANDARD_FLEET
from games.pocketmodel.state import Variant


def main() -> None:
    """Run the playouts and print the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plies", type=int, default=400)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    steps = finished = 0
    timed = checked = 0.0
    for game in range(args.games):
        variant = Variant(destroy_above_shields=game % 2 == 1, icon_gates_bonus=game % 3 != 0)
        state = rules.new_game(variant, (STANDARD_FLEET, STANDARD_FLEET), rng.choice("AB"))
        for _ in range(args.plies):
            seat = rules.to_act(state)
            if seat is None:
                finished += 1
                break
            start = time.perf_counter()
            legal = moves.legal_actions(state, seat)
            timed += time.perf_counter() - start
            turn = [a for a in legal if not isinstance(a, Counter)]
            action = rng.choice(turn if turn and rng.random() < 0.9 else legal)
            start = time.perf_counter()
            requests = rules.check(state, seat, action)
            checked += time.perf_counter() - start
            faces = tuple(tuple(rng.randint(1, r.sides) for _ in range(r.count)) for r in requests)
            start = time.perf_counter()
            state = rules.apply(state, seat, action, faces)
            timed += time.perf_counter() - start
            steps += 1
    print(f"games {args.games} (finished {finished}), steps {steps}, seed {args.seed}")
    print(f"legal_actions+apply: {steps / timed:,.0f} steps/s ({timed * 1e6 / steps:.1f} us/step)")
    print(f"dice_for check (server, before rolling): {checked * 1e6 / steps:.1f} us/step")


if __name__ == "__main__":
    main()
