"""Fixtures for the card-sheet tests: read back what a produced PDF really contains."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

MM = 72 / 25.4


@dataclass(frozen=True)
class PageContent:
    """Texts (with their origin, mm), line segments (mm) and form placements (mm) of a page."""

    texts: list[tuple[str, float, float]]
    lines: list[tuple[float, float, float, float]]
    forms: list[tuple[str, float, float]]

    def text_at(self, text: str) -> list[tuple[float, float]]:
        """Origins (mm) of every text run equal to ``text``."""
        return [(x, y) for t, x, y in self.texts if t == text]


def _apply(cm: list[float], x: float, y: float) -> tuple[float, float]:
    return cm[0] * x + cm[2] * y + cm[4], cm[1] * x + cm[3] * y + cm[5]


def read_page(page) -> PageContent:
    """Walk a pypdf page's content stream, tracking the CTM."""
    texts: list[tuple[str, float, float]] = []
    lines: list[tuple[float, float, float, float]] = []
    forms: list[tuple[str, float, float]] = []
    start: list[tuple[float, float]] = []

    def before(op, args, cm, tm):
        if op == b"m":
            start[:] = [_apply(cm, float(args[0]), float(args[1]))]
        elif op == b"l" and start:
            x1, y1 = _apply(cm, float(args[0]), float(args[1]))
            x0, y0 = start[0]
            lines.append((x0 / MM, y0 / MM, x1 / MM, y1 / MM))
            start[:] = [(x1, y1)]
        elif op == b"Do":
            x, y = _apply(cm, 0, 0)
            forms.append((str(args[0]), x / MM, y / MM))

    def on_text(text, cm, tm, font, size):
        if text.strip():
            x, y = _apply(cm, tm[4], tm[5])
            texts.append((text.strip(), x / MM, y / MM))

    page.extract_text(visitor_operand_before=before, visitor_text=on_text)
    return PageContent(texts=texts, lines=lines, forms=forms)


@pytest.fixture
def page_content():
    """``page_content(page)`` -> :class:`PageContent`."""
    return read_page


@pytest.fixture
def write_deck(tmp_path: Path):
    """``write_deck(text, name="deck.yaml")`` writes a deck file under ``tmp_path``."""

    def write(text: str, name: str = "deck.yaml", encoding: str = "utf-8") -> Path:
        path = tmp_path / name
        path.write_bytes(text.encode(encoding))
        return path

    return write
