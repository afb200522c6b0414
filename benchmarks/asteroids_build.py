"""Benchmark: a cold Asteroids print kit against the OpenSCAD anchor, side by side in one run.

What it runs, as a user would (process start to finish, on this machine, now):
- the anchor: ``benchmarks/anchors/openscad-kit.sh`` renders the kit's four parts from
  ``asteroids.scad`` with Debian's ``openscad`` (STL only: no plates, no previews, no STEP);
- ``tablesmith build --no-cache``: the full kit (STLs, STEP files, 3MF plates with settings,
  previews, manifest, notes) at scale 1.0 on the default bed, and at 0.8 on a Prusa MINI
  (split board);
- a rebuild with unchanged settings (cache warm).

The runs are interleaved (kit, anchor, kit, ...) so that both see the same load, and the
script prints every time, the medians, the ratio kit / anchor, and the peak memory (sum of
the resident memory of the process and its children, sampled every 10 ms). Goal: a cold full
kit with previews in at most 1/10 of the anchor's time. On a shared machine absolute times
drift; the ratio from one run is what counts.

As on a user's machine, where pip compiled the bytecode, the kit runs with its modules'
bytecode cached: the children run without ``PYTHONDONTWRITEBYTECODE`` (which some machines
set), after one untimed cold kit that writes it. Without that, every timed run also compiled
Tablesmith's modules from source in both of its processes (about 0.05 s here).

Usage: python benchmarks/asteroids_build.py [--runs 3] [--anchor-runs 1]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ANCHORS = Path(os.environ.get("TABLESMITH_ANCHORS", ROOT / "benchmarks" / "anchors"))


def _children(pid: int) -> list[int]:
    """``pid`` and all its descendants (Linux /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        queue += parents.get(current, [])
    return found


def _rss_kib(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def measured(command: list[str], env: dict[str, str] | None = None) -> tuple[float, int]:
    """Run ``command`` (in ``env``, default this environment without
    ``PYTHONDONTWRITEBYTECODE``); return (seconds, peak resident memory of its process tree in
    MiB).

    Raises:
        SystemExit: the command failed (with the end of its error output).
    """
    if env is None:
        env = dict(os.environ)
    env = {name: value for name, value in env.items() if name != "PYTHONDONTWRITEBYTECODE"}
    started = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True
    )
    peak = 0

    def sample() -> None:
        nonlocal peak
        while process.poll() is None:
            peak = max(peak, _rss_kib(_children(process.pid)))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample)
    sampler.start()
    _, error = process.communicate()
    elapsed = time.perf_counter() - started
    sampler.join()
    if process.returncode != 0:
        sys.exit(f"benchmark: {' '.join(command)} failed:\n{error[-2000:]}")
    return elapsed, peak // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="cold kits per configuration")
    parser.add_argument("--anchor-runs", type=int, default=1, help="runs of the ~30 s anchor")
    args = parser.parse_args()
    anchor = ANCHORS / "openscad-kit.sh"
    have_anchor = anchor.is_file() and shutil.which("openscad") is not None
    if not have_anchor:
        print(f"anchor not run: needs {anchor} and Debian's openscad")
    kit = [sys.executable, "-m", "tablesmith", "build", "-q"]
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = dict(os.environ, TABLESMITH_CACHE=str(root / "cache"))
        cold: dict[str, list[tuple[float, int]]] = {"1.0 a1": [], "0.8 mini": []}
        anchor_runs: list[tuple[float, int]] = []
        measured([*kit, "--no-cache", "--out", str(root / "untimed")])  # writes the bytecode
        for run in range(max(args.runs, args.anchor_runs)):
            for name, options in (
                ("1.0 a1", []),
                ("0.8 mini", ["--scale", "0.8", "--printer", "mini"]),
            ):
                if run < args.runs:
                    out = root / f"kit-{name.replace(' ', '-')}"
                    cold[name].append(measured([*kit, *options, "--no-cache", "--out", str(out)]))
                    print(f"  cold kit {name}: {cold[name][-1][0]:.2f} s", flush=True)
            if have_anchor and run < args.anchor_runs:
                anchor_runs.append(measured(["sh", str(anchor)]))
                print(f"  anchor: {anchor_runs[-1][0]:.2f} s", flush=True)
        measured([*kit, "--out", str(root / "warm")], env)
        warm = [measured([*kit, "--out", str(root / "warm")], env) for _ in range(args.runs)]
    print(f"\nload average at the start: {load:.2f} (2 cores shared with other work: times drift)")
    print(f"{'what':<32} {'median (s)':>10} {'runs (s)':>28} {'peak MiB':>9}")

    def row(label: str, runs: list[tuple[float, int]]) -> float:
        median = statistics.median(t for t, _ in runs)
        times = " ".join(f"{t:.2f}" for t, _ in runs)
        print(f"{label:<32} {median:>10.2f} {times:>28} {max(m for _, m in runs):>9}")
        return median

    kit_time = row("cold full kit, 1.0, a1", cold["1.0 a1"])
    row("cold full kit, 0.8, mini (split)", cold["0.8 mini"])
    row("rebuild, unchanged settings", warm)
    if anchor_runs:
        anchor_time = row("anchor: OpenSCAD, 4 parts", anchor_runs)
        ratio = kit_time / anchor_time
        print(f"\nratio cold kit / anchor: {ratio:.3f} (1/{1 / ratio:.1f}); goal: at most 1/10")


if __name__ == "__main__":
    main()
