"""Benchmark: 1,000 mixed cards with QR codes to PDF, against plain ReportLab in the same run.

The anchor is ``benchmarks/anchors/reportlab_floor.py`` (the floor of plain ReportLab for the same
sheets: frame, wrapped text in an embedded TTF, a shared image per card, a back page per
front page). Both run as fresh processes, alternately, ``--rounds`` times each; each reports
its own time from after its imports to the saved PDF. The best time of each side and their
ratio are printed (goal: within 1.2x the anchor).

Tablesmith's side renders 1,000 cards drawn round-robin from the demo decks (``--demos`` to choose) (every
kind except Transformers characters, which print on their own larger sheets), each with the
same art image and its own QR code, duplex long-edge (a back page per front page). It also
reports the PDF size and how many image and form XObjects the file holds: the shared art
and each back design must be embedded once.

``--whole``: the same comparison as whole processes, timed from the start of the process to its
exit (imports, reading the deck file and writing the PDF included): ``tablesmith cards`` on a
1,000-card deck file (the PocketModel demo deck's cards round-robin, each with its own name,
the same art image, one copy) against ``python`` running the anchor. As on a user's machine,
where pip compiled the bytecode, both run with their modules' bytecode cached: the children
run without ``PYTHONDONTWRITEBYTECODE``, after one untimed run of each side.

Run: ``python benchmarks/cards_bench.py`` (after ``pip install -e .``); ``--rounds 3``;
``--whole``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from games.registry import CARD_GAMES

TARGET = 1000
ANCHOR = Path(__file__).resolve().parent / "anchors" / "reportlab_floor.py"
ROOT = Path(__file__).resolve().parents[1]
"""The checkout this script belongs to: its child imports this code, not an installed copy."""


def mixed_deck(image: str, demos: list[str] | None = None) -> object:
    """1,000 cards drawn round-robin from the demo decks (``demos``: these by name; None:
    all), each with the same image."""
    from games.cards.deck import BackSpec, Deck
    from printables.deckfile import demo_names, read_deck

    pool = [
        card
        for name in demos or demo_names()
        for card in read_deck(f"demo:{name}").deck.cards
        if type(card).__name__ != "TransformersCharacter"
    ]
    cards = []
    for i in range(TARGET):
        base = pool[i % len(pool)]
        cards.append(replace(base, id=f"c{i:04d}", name=f"{base.name} {i}", copies=1, image=image))
    return Deck(
        card_game=CARD_GAMES["pocketmodel"],
        slug="bench",
        title="Benchmark",
        cards=tuple(cards),
        back=BackSpec(text="Tablesmith"),
    )


def run_tablesmith(demos: list[str] | None = None) -> None:
    """One measured render in this process (called in a child process).

    The clock starts after the imports, as the anchor's does: the anchor imports ReportLab's
    canvas, TrueType fonts and Platypus (``Paragraph``) before its clock starts, so they are
    imported here too (Tablesmith imports them lazily, on first use, which would otherwise
    put 40-90 ms of module loading into its time). Registering the fonts stays timed on both
    sides."""
    import reportlab.pdfbase.ttfonts
    import reportlab.pdfgen.canvas
    import reportlab.platypus  # noqa: F401 - imported before the clock, as in the anchor
    from PIL import Image

    from printables.render import RenderOptions, render_deck

    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        Image.new("RGB", (600, 400), (40, 90, 160)).save(base / "art.png")
        deck = mixed_deck("art.png", demos)
        out = base / "bench.pdf"
        start = time.perf_counter()
        result = render_deck(deck, RenderOptions(), out, base_dir=base)  # type: ignore[arg-type]
        seconds = time.perf_counter() - start
        raw = out.read_bytes()
        print(f"{TARGET} cards in {seconds:.2f} s, {len(raw) / 1e6:.2f} MB")
        print(f"pages: {result.pages[0]}")
        print(f"image XObjects: {raw.count(b'/Subtype /Image')}")
        print(f"form XObjects: {raw.count(b'/Subtype /Form')}")


def _child(command: list[str]) -> tuple[float, str]:
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    match = re.search(r"in ([0-9.]+) s", done.stdout)
    if not match:
        raise SystemExit(f"no time in the output of {command}:\n{done.stdout}{done.stderr}")
    return float(match.group(1)), done.stdout


def write_deck_file(folder: Path) -> Path:
    """A 1,000-card PocketModel deck file in ``folder`` (with ``art.png`` beside it): the demo
    deck's header and its cards round-robin, each named apart, one copy, the same image."""
    import yaml
    from PIL import Image

    from printables.deckfile import read_limited

    demo = ROOT / "games" / "pocketmodel" / "demo" / "pocketmodel.yaml"
    header = yaml.safe_load(read_limited(demo, 1 << 20))
    pool = header.pop("cards")
    header["cards"] = [
        {**pool[i % len(pool)], "name": f"{pool[i % len(pool)]['name']} {i}", "copies": 1}
        | {"image": "art.png"}
        for i in range(TARGET)
    ]
    Image.new("RGB", (600, 400), (40, 90, 160)).save(folder / "art.png")
    path = folder / "bench.yaml"
    path.write_text(yaml.safe_dump(header, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _whole(command: list[str], cwd: Path) -> float:
    """Seconds from starting ``command`` (in ``cwd``) to its exit.

    Raises:
        SystemExit: the command failed (with its output).
    """
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{command} failed:\n{done.stdout}{done.stderr}")
    return seconds


def run_whole(rounds: int) -> None:
    """``--whole``: both sides as whole processes, alternately, ``rounds`` times each."""
    ours: list[float] = []
    floor: list[float] = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        deck = write_deck_file(folder)
        cards = [sys.executable, "-c", "import tablesmith; tablesmith.main()", "cards"]
        _whole([sys.executable, str(ANCHOR)], folder)  # untimed: bytecode written, files cached
        _whole([*cards, str(deck), "-o", "bench.pdf"], folder)
        for round_number in range(1, rounds + 1):
            floor.append(_whole([sys.executable, str(ANCHOR)], folder))
            ours.append(_whole([*cards, str(deck), "-o", "bench.pdf"], folder))
            print(
                f"round {round_number}: reportlab floor {floor[-1]:.2f} s, "
                f"tablesmith cards {ours[-1]:.2f} s (whole processes)"
            )
        size = (folder / "bench.pdf").stat().st_size
    best_ours, best_floor = min(ours), min(floor)
    print(f"tablesmith cards: {TARGET} cards from a deck file, {size / 1e6:.2f} MB")
    print(
        f"best: reportlab floor {best_floor:.2f} s, tablesmith cards {best_ours:.2f} s, "
        f"ratio {best_ours / best_floor:.2f} (goal <= 1.2)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="runs of each side (best counts)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--demos",
        default="",
        help="comma-separated demo decks to draw from (default: all; 'pocketmodel,toy-battle,"
        "transformers' is the pool of earlier versions, for a before/after comparison)",
    )
    parser.add_argument(
        "--whole",
        action="store_true",
        help="time whole processes: `tablesmith cards` on a 1,000-card deck file against the "
        "anchor script",
    )
    args = parser.parse_args()
    if args.child:
        run_tablesmith([d for d in args.demos.split(",") if d] or None)
        return
    if not ANCHOR.is_file():
        raise SystemExit(f"anchor not found: {ANCHOR}")
    if args.whole:
        run_whole(args.rounds)
        return
    ours: list[float] = []
    floor: list[float] = []
    report = ""
    for round_number in range(1, args.rounds + 1):
        seconds, _ = _child([sys.executable, str(ANCHOR)])
        floor.append(seconds)
        seconds, report = _child([sys.executable, __file__, "--child", "--demos", args.demos])
        ours.append(seconds)
        print(
            f"round {round_number}: reportlab floor {floor[-1]:.2f} s, tablesmith {ours[-1]:.2f} s"
        )
    print("tablesmith:", report.strip().replace("\n", "; "))
    best_ours, best_floor = min(ours), min(floor)
    print(
        f"best: reportlab floor {best_floor:.2f} s, tablesmith {best_ours:.2f} s, "
        f"ratio {best_ours / best_floor:.2f} (goal <= 1.2)"
    )


if __name__ == "__main__":
    main()
