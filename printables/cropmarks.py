"""Cut marks drawn over the faces: crop marks on the cards' bleed, and the inner marks.

When the cards fill the printable width or height exactly, :func:`printables.layout.layout_sheet`
may move the crop marks of that side onto the grid's outer bleed (artwork that is cut away).
The sheet furniture is drawn before the faces, so these marks would vanish under the art;
:func:`draw_marks_on_art` draws them again after the faces, with the same white halo under a
black line as every crop mark (a light and a dark stroke: visible on white paper and on any
frame colour). Lengths in mm, page frame of :mod:`printables.layout`.

Inner marks (:func:`inner_marks`): the crop marks around the grid mark every cut line at its
two ends, but once the sheet is cut into strips a middle strip has no mark left for its
cross cuts, and between two cards that touch the cut runs inside a band of the same frame
colour. So every cut line gets a mark in every gap between neighbouring cards it crosses: a
row's trim lines in each gap between two columns, a column's trim lines in each gap between
two rows. Decisions:

* Where the gap (gutter plus both cards' bleed) holds a mark of ``SHORTEST_CROP_MARK`` with
  ``MIN_CROP_MARK_GAP`` to each card, the mark sits centred in the gap, off the cards, up to
  ``crop_mark_length`` long (on the bleed it is cut away with it). Cut a strip off together
  with its gap, cut the strip's cards apart along these marks, then trim the gap.
* Where the cards (nearly) touch (``--gutter 0`` with under 1 mm of bleed) there is no room
  off the cards: the mark is a tick of ``INNER_TICK`` centred on the crossing, reaching
  ``INNER_TICK / 2`` along the neighbouring cards' edges from their corners - inside the
  3 mm corner a rounded cut or a corner punch takes away. ``--bleed 1`` keeps every mark off
  the cards.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection
from dataclasses import replace
from typing import TYPE_CHECKING

from printables.icons import colour_of
from printables.layout import (
    MIN_CROP_MARK_GAP,
    SHORTEST_CROP_MARK,
    Rect,
    Segment,
    SheetLayout,
)
from printables.units import MM

INNER_TICK = 3.0
"""Length of an inner mark where neighbouring cards touch, mm (centred on the crossing)."""

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas


def marks_on_art(layout: SheetLayout) -> list[Segment]:
    """The crop marks of ``layout`` that overlap any card's bleed box."""
    found = []
    for mark in layout.crop_marks:
        box = Rect(
            x=min(mark.x0, mark.x1),
            y=min(mark.y0, mark.y1),
            width=abs(mark.x1 - mark.x0),
            height=abs(mark.y1 - mark.y0),
        ).inset(-0.01)
        if any(box.overlaps(slot.bleed) for slot in layout.slots):
            found.append(mark)
    return found


def _gap_marks(
    gaps: list[tuple[float, float]], lines: list[float], longest: float
) -> list[tuple[float, float, float]]:
    """Marks across each gap (``(low, high)`` between two cards' trim lines) at each of
    ``lines``, as ``(line, start, end)`` along the gap's axis, mm."""
    marks = []
    for low, high in gaps:
        room = high - low - 2 * MIN_CROP_MARK_GAP
        length = min(longest, room) if room >= SHORTEST_CROP_MARK - 1e-9 else INNER_TICK
        centre = (low + high) / 2
        marks += [(line, centre - length / 2, centre + length / 2) for line in lines]
    return marks


def inner_marks(layout: SheetLayout, filled: Collection[int] | None = None) -> list[Segment]:
    """The inner cut marks of ``layout`` (module docstring): each row trim line across each
    gap between columns, each column trim line across each gap between rows, except where a
    crop mark already sits (the ``gutter`` crop-mark place). None without crop marks.
    ``filled``: the slot indices that hold a card (None: all); only the marks beside one of
    them are kept (:func:`beside_cards`)."""
    if not layout.spec.crop_marks:
        return []
    first_row = layout.slots[: layout.columns]
    first_column = layout.slots[:: layout.columns]
    xs = sorted({round(x, 6) for s in first_row for x in (s.trim.x, s.trim.right)})
    ys = sorted({round(y, 6) for s in first_column for y in (s.trim.y, s.trim.top)})
    longest = layout.spec.crop_mark_length
    across = [(a.trim.right, b.trim.x) for a, b in itertools.pairwise(first_row)]
    down = [(b.trim.top, a.trim.y) for a, b in itertools.pairwise(first_column)]
    marks = [Segment(x0=x0, y0=y, x1=x1, y1=y) for y, x0, x1 in _gap_marks(across, ys, longest)]
    marks += [Segment(x0=x, y0=y0, x1=x, y1=y1) for x, y0, y1 in _gap_marks(down, xs, longest)]

    def key(m: Segment) -> tuple[float, ...]:
        ends = sorted([(m.x0, m.y0), (m.x1, m.y1)])
        return tuple(round(v, 6) for end in ends for v in end)

    known = {key(m) for m in layout.crop_marks}
    marks = [m for m in marks if key(m) not in known]
    return marks if filled is None else beside_cards(layout, marks, filled)


def draw_marks(c: Canvas, marks: list[Segment]) -> None:
    """Draw ``marks`` as every cut mark is drawn: 0.3 pt black on a 1.4 pt white halo."""
    if not marks:
        return
    c.saveState()
    for width, colour in ((1.4, "#ffffff"), (0.3, "#000000")):
        c.setLineWidth(width)
        c.setStrokeColor(colour_of(colour))
        for seg in marks:
            c.line(seg.x0 * MM, seg.y0 * MM, seg.x1 * MM, seg.y1 * MM)
    c.restoreState()


def beside_cards(
    layout: SheetLayout, marks: list[Segment], filled: Collection[int]
) -> list[Segment]:
    """The ``marks`` of ``layout`` that continue a trim line of a card in one of the ``filled``
    slots and sit next to that card: in the gap beside it (within the gutter and bleed), or
    just outside the grid beside it. An empty slot gets no marks, so nobody cuts it out."""
    used = [layout.slots[i] for i in filled]
    grid = layout.grid
    reach = layout.spec.gutter + layout.spec.bleed + 0.01

    def wanted(mark: Segment) -> bool:
        vertical = abs(mark.x0 - mark.x1) < 1e-9
        at = mark.x0 if vertical else mark.y0
        low, high = sorted((mark.y0, mark.y1) if vertical else (mark.x0, mark.x1))
        grid_low, grid_high = (grid.y, grid.top) if vertical else (grid.x, grid.right)
        beyond = max(grid_low - high, low - grid_high, 0.0)  # an outer mark's gap to the grid
        for slot in used:
            t = slot.trim
            edges = (t.x, t.right) if vertical else (t.y, t.top)
            start, end = (t.y, t.top) if vertical else (t.x, t.right)
            gap = max(low - end, start - high, 0.0)
            if any(abs(at - edge) < 1e-6 for edge in edges) and gap <= beyond + reach:
                return True
        return False

    return [m for m in marks if wanted(m)]


def marks_for_cards(layout: SheetLayout, filled: Collection[int]) -> SheetLayout:
    """``layout`` for a sheet whose ``filled`` slots (indices) hold cards: only the crop marks
    beside one of those cards (:func:`beside_cards`). A full sheet's layout is returned as it
    is. The inner marks take ``filled`` themselves (:func:`inner_marks`)."""
    if len(set(filled)) >= layout.per_page:
        return layout
    return replace(layout, crop_marks=tuple(beside_cards(layout, list(layout.crop_marks), filled)))


def draw_marks_on_art(
    c: Canvas, layout: SheetLayout, filled: Collection[int] | None = None
) -> None:
    """Draw the crop marks that lie on a bleed box again, and the inner marks, over the faces
    already drawn (:func:`draw_marks`); ``filled`` as in :func:`inner_marks` (pass the layout
    :func:`marks_for_cards` made for it). Does nothing when every mark is off the cards."""
    draw_marks(c, marks_on_art(layout) + inner_marks(layout, filled))
