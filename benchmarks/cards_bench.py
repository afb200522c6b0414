"""Benchmark: render 1,000 mixed cards (PocketModel, Transformers, Toy Battle) to one PDF.

Reports the wall time, the PDF size and how many image / form XObjects the file holds: every
card uses the same art image and its deck's back, which must be embedded once each.

Run: ``python benchmarks/cards_bench.py`` after ``pip install .`` (or with ``PYTHONPATH=.``) (goal: under 5 s on the 2-core dev machine).
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import replace
from pathlib import Path

from PIL import Image

from games.cards import BackSpec, Deck
from printables.deckfile import demo_names, read_deck
from printables.render import RenderOptions, render_deck

TARGET = 1000


def mixed_deck(image: str) -> Deck:
    """1,000 cards drawn round-robin from the three demo decks, each with the same image."""
    pool = [
        card
        for name in demo_names()
        for card in read_deck(f"demo:{name}").deck.cards
        if type(card).__name__ != "TransformersCharacter"
    ]
    cards = []
    for i in range(TARGET):
        base = pool[i % len(pool)]
        cards.append(replace(base, id=f"c{i:04d}", name=f"{base.name} {i}", copies=1, image=image))
    return Deck(
        game="pocketmodel",
        slug="bench",
        title="Benchmark",
        cards=tuple(cards),
        back=BackSpec(text="Tablesmith"),
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        Image.new("RGB", (300, 200), "#557799").save(base / "art.png")
        deck = mixed_deck("art.png")
        out = base / "bench.pdf"
        start = time.perf_counter()
        result = render_deck(deck, RenderOptions(), out, base_dir=base)
        seconds = time.perf_counter() - start
        raw = out.read_bytes()
        print(f"cards: {deck.card_count}, pages: {result.pages[0]}")
        print(f"time: {seconds:.2f} s ({seconds / deck.card_count * 1000:.2f} ms/card)")
        print(f"pdf size: {len(raw) / 1e6:.2f} MB")
        print(f"image XObjects: {raw.count(b'/Subtype /Image')} (shared art, expected 1)")
        print(
            f"form XObjects: {raw.count(b'/Subtype /Form')} (one per back design: deck "
            "back + blue and red troop backs, expected 3)"
        )


if __name__ == "__main__":
    main()
