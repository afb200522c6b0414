"""Benchmark: the Asteroids print kit, measured as a user runs it (process start to finish).

Measures, each as the median of ``--runs`` runs of ``python -m tablesmith build``:
- a cold full kit at scale 1.0 and at 0.8 (cache disabled: every part generated);
- a rebuild with unchanged settings (cache warm).
Goal (issue 2) on a 2-core machine: full kit under 20 s, rebuild under 3 s.

Usage: python benchmarks/asteroids_build.py [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(args: list[str], env_cache: Path) -> float:
    import os

    env = dict(os.environ, TABLESMITH_CACHE=str(env_cache))
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "tablesmith", "build", *args],
        check=True,
        capture_output=True,
        env=env,
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        rows = []
        for scale, printer in (("1.0", "a1"), ("0.8", "mini")):
            out = root / f"kit-{scale}"
            cold = [
                timed(
                    ["--scale", scale, "--printer", printer, "--out", str(out), "--no-cache"],
                    root / "c",
                )
                for _ in range(runs)
            ]
            timed(["--scale", scale, "--printer", printer, "--out", str(out)], root / "cache")
            warm = [
                timed(["--scale", scale, "--printer", printer, "--out", str(out)], root / "cache")
                for _ in range(runs)
            ]
            rows.append((scale, printer, statistics.median(cold), statistics.median(warm)))
    print(f"{'scale':>5} {'printer':>7} {'cold full kit (s)':>18} {'rebuild (s)':>12}")
    for scale, printer, cold_s, warm_s in rows:
        print(f"{scale:>5} {printer:>7} {cold_s:18.2f} {warm_s:12.2f}")
    print("goal: full kit < 20 s, rebuild < 3 s")


if __name__ == "__main__":
    main()
