"""Benchmark: one counter tap as the companion handles it, per card game, in microseconds.

A tap is what a write runs for one ``counter`` action: ``parse_action`` of the phone's JSON,
``dice_for`` (the check before anything is rolled), ``apply``, ``outcome`` and
``action_to_json`` (the logged payload), then the views published to seat A, seat B and a
watcher (``Game.view``, ``json.dumps``). Also timed: ``state_from_json`` and ``state_to_json`` of
every state in ``tests/data/states/`` (the state codecs). Taps alternate +1 and -1 on one unit
(character) of a table of the first example setup, so the state stays the
same size. Each number is the best of 7 rounds of ``--taps`` taps.

``--against DIR`` runs the same measurement again with the games of ``DIR`` (another checkout,
for example main in a temporary worktree) and prints the ratio of the two (before / after:
above 1 means this tree is faster); the trees run alternately, 3 runs each, best run kept.

Usage: ``python benchmarks/counter_tap.py [--taps 1000] [--against DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
STATES = ROOT / "tests" / "data" / "states"
ROUNDS = 7
PAIRS = 3
"""With ``--against``: runs of each tree, alternating."""
"""Each number is the best of this many rounds (the machine is shared: the best round is the
least disturbed)."""


def _table(game: Any) -> tuple[Any, str, dict[str, Any]]:
    """A table of the first example setup after the first legal actions (fleets or teams
    brought, dice all 1), the seat to act and a counter action (JSON, delta +1) it may take.

    Raises:
        SystemExit: no counter action within 10 actions.
    """
    setup = game.parse_setup(game.example_setups()[0])
    faces = tuple((1,) * r.count for r in game.setup_dice(setup))
    state = game.start(json.loads(json.dumps(game.setup_event(setup, faces))))
    for _ in range(10):
        seat = game.to_act(state)
        legal = game.legal_actions(state, seat)
        for action in legal:
            found = game.action_to_json(action)
            if found.get("type") == "counter" and found.get("delta") == 1:
                return state, seat, found
        rolled = tuple((1,) * r.count for r in game.dice_for(state, seat, legal[0]))
        state = game.apply(state, seat, legal[0], rolled)
    raise SystemExit(f"{game.name}: no counter action within 10 actions")


def measure(taps: int, root: Path) -> dict[str, float]:
    """Microseconds per tap and per stored state, by name, with the games of the tree at
    ``root``."""
    sys.path.insert(0, str(root))
    from games import registry

    out: dict[str, float] = {}
    clock = time.perf_counter
    for name in ("pocketmodel", "transformers"):
        game = registry.get(name)
        state, seat, up = _table(game)
        down = {**up, "delta": -1}
        best = {"rules": float("inf"), "3 views": float("inf"), "total": float("inf")}
        for _ in range(ROUNDS):
            engine = views = 0.0
            for i in range(taps):
                t0 = clock()
                action = game.parse_action(down if i % 2 else up)
                faces = tuple((1,) * r.count for r in game.dice_for(state, seat, action))
                state = game.apply(state, seat, action, faces)
                game.outcome(state)
                game.action_to_json(action)
                t1 = clock()
                for viewer in ("A", "B", None):
                    json.dumps(game.view(state, viewer))
                views += clock() - t1
                engine += t1 - t0
            round_ = {"rules": engine, "3 views": views, "total": engine + views}
            best = {k: min(v, round_[k] * 1e6 / taps) for k, v in best.items()}
        out.update({f"{name} tap: {k}": v for k, v in best.items()})
    for name in registry.GAMES:
        game = registry.get(name)
        items = json.loads((STATES / f"{name}.json").read_text(encoding="utf-8"))
        states = [game.state_from_json(item["state"]) for item in items]
        best_load = best_write = float("inf")
        for _ in range(ROUNDS):
            t0 = clock()
            for item in items:
                game.state_from_json(item["state"])
            t1 = clock()
            for state in states:
                game.state_to_json(state)
            t2 = clock()
            best_load = min(best_load, (t1 - t0) * 1e6 / len(items))
            best_write = min(best_write, (t2 - t1) * 1e6 / len(items))
        out[f"{name} state_from_json"] = best_load
        out[f"{name} state_to_json"] = best_write
    return out


def main() -> None:
    """Measure, and with ``--against`` measure the other tree too and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=1000)
    parser.add_argument("--against", type=Path, default=None)
    parser.add_argument("--root", type=Path, default=ROOT, help="the tree whose games to time")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args()
    if args.json or args.against is None:
        mine = measure(args.taps, args.root.resolve())
        if args.json:
            print(json.dumps(mine))
            return
        for key, value in mine.items():
            print(f"{key:36} {value:9.1f} us")
        return
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for _ in range(PAIRS):  # alternating, so a busy spell of the machine hits both trees
        for label, root in (("before", args.against.resolve()), ("after", ROOT)):
            env = {**os.environ, "PYTHONPATH": str(root)}
            script = [sys.executable, __file__, "--json", "--taps", str(args.taps)]
            done = subprocess.run(
                [*script, "--root", str(root)], env=env, capture_output=True, text=True, check=True
            )
            runs[label].append(json.loads(done.stdout))
    best = {label: {k: min(r[k] for r in found) for k in found[0]} for label, found in runs.items()}
    print(
        f"{'us per item (best of ' + str(PAIRS) + ' runs each)':44} before     after  before/after"
    )
    for key, after in best["after"].items():
        before = best["before"][key]
        print(f"{key:44} {before:9.1f} {after:9.1f} {before / after:12.2f}")


if __name__ == "__main__":
    main()
