"""The boxes of what is drawn on a card face, and the check that none overlaps another or
leaves the safe area.

Every text run and every symbol (icon, QR code) drawn by :class:`printables.faces.Painter` is
recorded as a :class:`Box` in face mm (origin at the card's trim bottom-left corner, x right,
y up). A text box spans the run's advance width and its glyphs' height: from the baseline
(or the descender, when the run has letters that go below it) to the cap or ascender height
of the letters it holds, the same extent a PDF reader reports as the glyphs' tight boxes
(DejaVu Sans metrics). :func:`box_problems` lists every pair that overlaps by more than
``TOLERANCE`` and every box that crosses the safe margin; the renderer reports them as
warnings naming the card (tests/printables/test_face_boxes.py reads the same boxes back from
the PDF).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from printables.layout import Rect
from printables.units import MM

TOLERANCE = 0.05
"""Overlap or margin crossing below this is not reported, mm (rounding of the drawing)."""
CAP = 0.73
"""Cap height of DejaVu Sans (and Bold), em (capitals, figures)."""
ASCENDER = 0.76
"""Height of DejaVu Sans's tall lower-case letters (b, d, f, h, k, l), em."""
DESCENDER = 0.24
"""Depth of DejaVu Sans's descenders (g, j, p, q, y, comma), em."""
_TALL = frozenset("bdfhkltiÄÖÜäöüß'\"()[]{}|/\\!?")
_DEEP = frozenset("gjpqyJQ,;()[]{}|/\\@")


@dataclass(frozen=True, kw_only=True)
class Box:
    """One drawn text run or symbol.

    Attributes:
        what: a name for messages (the field and its text, ``symbol 'star'``, ``QR code``).
        rect: its extent, face mm.
        container: a shape that holds other boxes (a badge disc): a box wholly inside it is
            its content, not an overlap.
    """

    what: str
    rect: Rect
    container: bool = False


def text_extent(text: str, size_pt: float) -> tuple[float, float]:
    """(below, above) the baseline that the glyphs of ``text`` at ``size_pt`` reach, mm."""
    mm = size_pt / MM
    above = ASCENDER if any(ch in _TALL for ch in text) else CAP
    below = DESCENDER if any(ch in _DEEP for ch in text) else 0.0
    return below * mm, above * mm


def text_box(what: str, text: str, size_pt: float, x: float, baseline: float, width: float) -> Box:
    """The :class:`Box` of a run of ``width`` mm starting at ``x`` on ``baseline`` (mm)."""
    below, above = text_extent(text, size_pt)
    return Box(
        what=f"{what} {text!r}",
        rect=Rect(x=x, y=baseline - below, width=width, height=below + above),
    )


def _holds(outer: Box, inner: Box) -> bool:
    o, i = outer.rect, inner.rect
    return outer.container and (
        o.x - TOLERANCE <= i.x
        and i.right <= o.right + TOLERANCE
        and o.y - TOLERANCE <= i.y
        and i.top <= o.top + TOLERANCE
    )


def box_problems(boxes: list[Box], width: float, height: float, safe: float) -> list[str]:
    """What overlaps or leaves the safe area on a ``width`` x ``height`` mm card.

    Args:
        boxes: the drawn boxes, face mm.
        width: trim width, mm.
        height: trim height, mm.
        safe: the safe margin inside the trim, mm.

    Returns:
        One line per pair of boxes overlapping by more than ``TOLERANCE`` in both directions
        (but for a container and its content) and per box reaching more than ``TOLERANCE``
        past the safe margin.
    """
    problems = []
    for box in boxes:
        r = box.rect
        out = max(safe - r.x, safe - r.y, r.right - (width - safe), r.top - (height - safe))
        if out > TOLERANCE:
            problems.append(f"{box.what} reaches {out:.1f} mm into the {safe:g} mm safe margin")
    for a, b in itertools.combinations(boxes, 2):
        found = overlap(a, b)
        if found:
            problems.append(found)
    return problems


def overlap(a: Box, b: Box) -> str | None:
    """The line :func:`box_problems` gives for boxes ``a`` and ``b`` overlapping by more than
    ``TOLERANCE`` in both directions (``"<a> overlaps <b> (dx x dy mm)"``), or None: they do
    not, or one is a container holding the other."""
    if _holds(a, b) or _holds(b, a):
        return None
    dx = min(a.rect.right, b.rect.right) - max(a.rect.x, b.rect.x)
    dy = min(a.rect.top, b.rect.top) - max(a.rect.y, b.rect.y)
    if dx > TOLERANCE and dy > TOLERANCE:
        return f"{a.what} overlaps {b.what} ({dx:.1f} x {dy:.1f} mm)"
    return None
