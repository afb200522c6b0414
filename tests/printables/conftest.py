"""Fixtures for the card-sheet tests: read back what a produced PDF really contains."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

MM = 72 / 25.4


@dataclass(frozen=True)
class PageContent:
    """Texts (with their origin, mm), line segments (mm) and form placements (mm) of a page,
    and each placed form's full matrix (form space -> page pt)."""

    texts: list[tuple[str, float, float]]
    lines: list[tuple[float, float, float, float]]
    forms: list[tuple[str, float, float]]
    form_matrices: list[tuple[str, list[float]]]

    def text_at(self, text: str) -> list[tuple[float, float]]:
        """Origins (mm) of every text run equal to ``text``."""
        return [(x, y) for t, x, y in self.texts if t == text]


def _apply(cm: list[float], x: float, y: float) -> tuple[float, float]:
    return cm[0] * x + cm[2] * y + cm[4], cm[1] * x + cm[3] * y + cm[5]


def then(inner: list[float], outer: list[float]) -> list[float]:
    """The matrix that applies ``inner`` first, then ``outer`` (PDF row-vector order)."""
    a, b, c, d, e, f = inner
    return [
        a * outer[0] + b * outer[2],
        a * outer[1] + b * outer[3],
        c * outer[0] + d * outer[2],
        c * outer[1] + d * outer[3],
        e * outer[0] + f * outer[2] + outer[4],
        e * outer[1] + f * outer[3] + outer[5],
    ]


def read_page(page) -> PageContent:
    """Walk a pypdf page's content stream, tracking the CTM, into form XObjects as a viewer
    does (pypdf reports a form's content in the form's own coordinates; the placement of
    every ``Do`` is kept on a stack, so all positions are on the page)."""
    texts: list[tuple[str, float, float]] = []
    lines: list[tuple[float, float, float, float]] = []
    forms: list[tuple[str, float, float]] = []
    matrices: list[tuple[str, list[float]]] = []
    start: list[tuple[float, float]] = []
    outer: list[list[float]] = [[1.0, 0.0, 0.0, 1.0, 0.0, 0.0]]

    def before(op, args, cm, tm):
        full = then([float(v) for v in cm], outer[-1])
        if op == b"m":
            start[:] = [_apply(full, float(args[0]), float(args[1]))]
        elif op == b"l" and start:
            x1, y1 = _apply(full, float(args[0]), float(args[1]))
            x0, y0 = start[0]
            lines.append((x0 / MM, y0 / MM, x1 / MM, y1 / MM))
            start[:] = [(x1, y1)]
        elif op == b"Do":
            x, y = _apply(full, 0, 0)
            forms.append((str(args[0]), x / MM, y / MM))
            matrices.append((str(args[0]), full))
            outer.append(full)

    def after(op, args, cm, tm):
        if op == b"Do":
            outer.pop()

    def on_text(text, cm, tm, font, size):
        if text.strip():
            x, y = _apply(then([float(v) for v in cm], outer[-1]), tm[4], tm[5])
            texts.append((text.strip(), x / MM, y / MM))

    page.extract_text(
        visitor_operand_before=before, visitor_operand_after=after, visitor_text=on_text
    )
    return PageContent(texts=texts, lines=lines, forms=forms, form_matrices=matrices)


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


def image_xobjects(pdf: Path) -> list[Any]:
    """Every image XObject of the PDF, on the pages and inside their forms (a card design is a
    form that holds its art), each image once."""
    import pypdf

    found: list[Any] = []
    seen: set[int] = set()

    def walk(resources: Any) -> None:
        for ref in (resources.get("/XObject") or {}).values():
            obj = ref.get_object()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if obj["/Subtype"] == "/Image":
                found.append(obj)
            elif obj["/Subtype"] == "/Form" and "/Resources" in obj:
                walk(obj["/Resources"].get_object())

    for page in pypdf.PdfReader(pdf).pages:
        walk(page["/Resources"])
    return found
