"""How fast broken or oversized deck files are refused (errors within a
second, limits checked before parsing).

Writes three files to a temporary folder and times ``printables.deckfile.read_deck`` on each
(the work ``tablesmith cards`` does before it draws anything), best of ``--rounds``:

* an 11 MB YAML deck (over the 1 MiB size limit: refused before parsing);
* a deck with one card entry over the card-count limit (YAML and CSV);
* a CSV at the card-count limit whose every row is wrong (thousands of problems, one line).

Usage: ``python benchmarks/deck_errors.py [--rounds 3]``. Goal: each under 1 s.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.cards.deck import (
    MAX_CARD_ENTRIES,  # noqa: E402
    DeckError,  # noqa: E402
)
from printables.deckfile import read_deck  # noqa: E402


def cases(folder: Path) -> dict[str, Path]:
    """The three inputs, written to ``folder``."""
    big = folder / "big.yaml"
    with big.open("wb") as handle:
        handle.write(b"game: toy-battle\ncards:\n")
        handle.write(b"  - {troop: Star, name: a, colour: red}\n" * 280_000)
    many = folder / "many.csv"
    many.write_text(
        "game,kind,name,troop,colour\n" + "toy-battle,troop,a,Star,red\n" * (MAX_CARD_ENTRIES + 1)
    )
    wrong = folder / "wrong.csv"
    wrong.write_text(
        "game,kind,name,troop,colour,copies,text\n"
        + "toy-battle,troop,N,Zap,green,0,\n" * (MAX_CARD_ENTRIES - 1)
    )
    return {
        "11 MB YAML (size limit)": big,
        "card-count limit + 1 (CSV)": many,
        "CSV, every row wrong": wrong,
    }


def main() -> None:
    """Time each case and print the best time and the first 80 characters of the error."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for label, path in cases(Path(tmp)).items():
            best = float("inf")
            message = "no error"
            for _ in range(args.rounds):
                start = time.perf_counter()
                try:
                    read_deck(str(path))
                except (DeckError, ValueError, OSError) as exc:
                    message = str(exc).splitlines()[0][:80]
                best = min(best, time.perf_counter() - start)
            verdict = "ok" if best < 1.0 else "OVER 1 s"
            print(f"{label:30s} {best * 1000:8.1f} ms  {verdict}  {message}")


if __name__ == "__main__":
    main()
