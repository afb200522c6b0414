"""Sheet layout in millimetres: card grid, crop marks and sheet furniture (the backs of a duplex
sheet: :mod:`printables.duplex`).

Pure maths: no ReportLab, no I/O (ARCHITECTURE.md, *Paper*). Frame: origin at the page's
bottom-left corner, x right, y up, all lengths in mm. Card slots are numbered row-major from
the top-left (slot 0), which is also the order cards are dealt onto a page.

Vocabulary (squib): *trim* is the cut line (the card's nominal size); *bleed* extends the
artwork beyond the trim on every side; *gutter* is the blank gap between neighbouring bleed
boxes; *page margin* is the border the printer cannot print; crop marks are short lines in the
space around the grid that continue each trim line.

Decisions (the shared docs leave them open):

* Crop marks are drawn in the free space around the whole grid: every column's and row's
  trim lines get marks at both ends, so each cut runs edge to edge of the sheet. They grow up
  to ``crop_mark_length`` where there is space.
* Crop marks never cost a column or row that fits inside the page margins (an exact fit keeps
  its column). Where the free space beside the grid is less than ``crop_mark_offset +
  MIN_CROP_MARK_LENGTH``, the marks on that side, in this order of preference: *shorten* (a
  smaller offset, down to ``MIN_CROP_MARK_GAP``, and a length down to
  ``SHORTEST_CROP_MARK``); move onto the grid's outer *bleed* (waste that is cut away, never
  within ``MIN_CROP_MARK_GAP`` of a trim line); move into the *gutters* between the cards
  (centred between the neighbouring trim lines); reach into the page margin, up to
  ``MIN_SAFE_PAGE_MARGIN`` from the paper edge (a 12.7 mm margin is wider than any printer's
  unprintable border; the marks of an exact fit without bleed or gutter go there, so Letter
  with poker cards keeps its third column). Only when none of these holds a mark of
  ``SHORTEST_CROP_MARK`` is the column or row given up for the marks, and the layout records
  it (:attr:`SheetLayout.lost_to_crop_marks`, :func:`crop_mark_notes`).
* The "print at 100 %" note and the 50 mm ruler sit in a band of ``FURNITURE_HEIGHT`` above
  the bottom page margin; the same band is reserved at the top (page heading) so the grid
  stays centred, which duplex pairing relies on.
* Duplex is defined on the paper, not the page: *long-edge* turns the sheet about its long
  edge, which is the vertical axis of a portrait page (backs mirrored left-right) and the
  horizontal axis of a landscape page (mirrored top-bottom); *short-edge* is the other way
  round. Backs in a separate file are laid out as for long-edge (turning a printed stack over
  like a book page).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from printables.geometry import EPSILON
from printables.geometry import Rect as Rect  # re-exported: the sheet modules take it from here

CARD_SIZES = MappingProxyType(
    {
        "poker": (63.5, 88.9),
        "tcg": (63.0, 88.0),
        "mini": (44.0, 63.0),
        "tarot": (70.0, 120.0),
        "tf-character": (88.0, 126.0),
    }
)
"""Card size presets, (width, height) in mm (PRINT-FORMATS.md *Numbers*; TF-1 for the
Transformers character card)."""

PAPER_SIZES = MappingProxyType(
    {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0)}
)
"""Paper sizes in portrait, (width, height) in mm (ISO 216; US Letter 8.5 x 11 in)."""

MIN_CROP_MARK_LENGTH = 2.0
"""Shortest crop mark at its normal place (``crop_mark_offset`` beyond the bleed), mm."""
SHORTEST_CROP_MARK = 1.0
"""Shortest crop mark where room is short (shortened, on the bleed or in a gutter), mm: still
a clearly visible dash at 0.3 pt."""
MIN_CROP_MARK_GAP = 0.5
"""Least distance between a shortened or moved crop mark and a trim line or bleed box, mm."""
FURNITURE_HEIGHT = 4.0
"""Height of the band for the 100 % note and the ruler (and the top heading), mm."""
RULER_LENGTH = 50.0
"""Length of the calibration ruler printed on every sheet, mm."""
MIN_CARD_SIDE = 20.0
"""Smallest side of a card, mm."""
MAX_CARD_SIDE = 300.0
"""Largest side of a card or tile, mm."""
CUTTERS = ("none", "silhouette", "silhouette-4", "cricut")
"""The cutting machines a sheet can be laid out for (:mod:`printables.cutter`)."""


class LayoutError(ValueError):
    """A sheet or card size is out of range or the card does not fit the paper."""


def _shown(value: object, unit: str) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:g} {unit}".rstrip() if math.isfinite(value) else f"{value}"
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


class SettingError(LayoutError):
    """One setting is out of range.

    The message is ``<setting> must be <allowed>, got <found>``; a command line re-words it
    with its option name (``--page-margin`` for ``page_margin``).

    Attributes:
        setting: the attribute name (``paper``, ``bleed``, ``page_margin``, ``dx``, ...).
        allowed: the allowed values, with units.
        found: the value found.
    """

    def __init__(self, *, setting: str, allowed: str, found: object, unit: str = "") -> None:
        self.setting = setting
        self.allowed = allowed
        self.found = found
        self.found_text = _shown(found, unit)
        super().__init__(f"{setting} must be {allowed}, got {self.found_text}")


class DoesNotFitError(LayoutError):
    """Not even one card fits the sheet.

    Attributes:
        problem: the message without the "it fits on" hint.
        paper: the paper it does not fit.
        landscape: the orientation it does not fit.
        fits_on: ``(paper, landscape)`` combinations on which the card would fit, best first
            (same paper turned, then larger papers); empty if none.
    """

    def __init__(
        self, problem: str, *, paper: str, landscape: bool, fits_on: tuple[tuple[str, bool], ...]
    ) -> None:
        self.problem = problem
        self.paper = paper
        self.landscape = landscape
        self.fits_on = fits_on
        hint = " or ".join(f"{p} {'landscape' if land else 'portrait'}" for p, land in fits_on)
        super().__init__(problem + (f"; it fits on {hint}" if hint else ""))

    def options_hint(self) -> str:
        """The message ending ``; try --landscape or --paper a3``: the ``cards`` options that
        make the card fit (the problem alone where nothing does)."""
        tries = []
        for paper, landscape in self.fits_on:
            words = [f"--paper {paper}"] if paper != self.paper else []
            if landscape != self.landscape:
                words.append("--landscape" if landscape else "portrait (no --landscape)")
            tries.append(" ".join(words))
        return f"{self.problem}; try {' or '.join(tries)}" if tries else str(self)


@dataclass(frozen=True, kw_only=True)
class CardSize:
    """A card's trim size in mm.

    Attributes:
        width: mm.
        height: mm.
        name: the preset's name, or ``custom``.
        min_side: the smallest side allowed, mm: :data:`MIN_CARD_SIDE` for cards; troop
            tiles (:mod:`printables.toybattle_aids`) pass their own, smaller range.

    Raises:
        SettingError: a side is not within ``min_side``..300 mm.
    """

    width: float
    height: float
    name: str = "custom"
    min_side: float = field(default=MIN_CARD_SIDE, compare=False, repr=False)

    def __post_init__(self) -> None:
        for side in ("width", "height"):
            value = getattr(self, side)
            if not (isinstance(value, (int, float)) and self.min_side <= value <= MAX_CARD_SIDE):
                raise SettingError(
                    setting=f"card {side}",
                    allowed=f"{self.min_side:g}..{MAX_CARD_SIDE:g} mm",
                    found=value,
                    unit="mm",
                )


def parse_card_size(text: str) -> CardSize:
    """A preset name (``poker``, ``tcg``, ``mini``, ``tarot``, ``tf-character``) or ``WxH`` in mm.

    Raises:
        SettingError: neither a preset nor ``WxH`` with numbers, or a side out of range.
    """
    key = text.strip().lower()
    if key in CARD_SIZES:
        width, height = CARD_SIZES[key]
        return CardSize(width=width, height=height, name=key)
    parts = key.replace("mm", "").split("x")
    try:
        width, height = (float(part) for part in parts)
    except ValueError:
        raise SettingError(
            setting="card size",
            allowed=f"one of {', '.join(CARD_SIZES)} or WIDTHxHEIGHT in mm",
            found=text,
        ) from None
    return CardSize(width=width, height=height)


@dataclass(frozen=True, kw_only=True)
class SheetSpec:
    """Everything that decides where cards land on a sheet (lengths in mm).

    Attributes:
        card: trim size of the cards.
        paper: ``a4``, ``letter`` or ``a3`` (any case; stored in lower case).
        landscape: turn the paper to landscape.
        bleed: artwork beyond the trim on each side, 0..10 mm.
        gutter: gap between neighbouring bleed boxes, 0..30 mm.
        page_margin: border the printer cannot print, 0..40 mm.
        crop_marks: draw crop marks around the grid.
        crop_mark_offset: gap between the grid's outer bleed edge and a crop mark, 0..10 mm.
        crop_mark_length: longest crop mark, 2..20 mm.
        cutter: one of :data:`CUTTERS`: keep the cards inside the cutting
            machine's print-then-cut area and clear of its registration marks
            (:mod:`printables.cutter`).

    Raises:
        SettingError: a value is out of range (the message names field, range and value).
    """

    card: CardSize
    paper: str = "a4"
    landscape: bool = False
    bleed: float = 0.0
    gutter: float = 0.0
    page_margin: float = 5.0
    crop_marks: bool = True
    crop_mark_offset: float = 1.0
    crop_mark_length: float = 5.0
    cutter: str = "none"

    def __post_init__(self) -> None:
        if self.cutter not in CUTTERS:
            raise SettingError(
                setting="cutter", allowed="one of " + ", ".join(CUTTERS), found=self.cutter
            )
        paper = self.paper.strip().lower() if isinstance(self.paper, str) else self.paper
        if paper not in PAPER_SIZES:
            raise SettingError(
                setting="paper", allowed="one of " + ", ".join(PAPER_SIZES), found=self.paper
            )
        object.__setattr__(self, "paper", paper)
        for name, low, high in (
            ("bleed", 0, 10),
            ("gutter", 0, 30),
            ("page_margin", 0, 40),
            ("crop_mark_offset", 0, 10),
            ("crop_mark_length", MIN_CROP_MARK_LENGTH, 20),
        ):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and low <= value <= high):
                raise SettingError(
                    setting=name, allowed=f"{low}..{high} mm", found=value, unit="mm"
                )

    @property
    def page_size(self) -> tuple[float, float]:
        """(width, height) of the page as printed, mm."""
        width, height = PAPER_SIZES[self.paper]
        return (height, width) if self.landscape else (width, height)


@dataclass(frozen=True, kw_only=True)
class Slot:
    """One card position on a sheet.

    Attributes:
        index: row-major slot number from the top-left, 0-based.
        row: row from the top, 0-based.
        column: column from the left, 0-based.
        trim: the card's trim box, mm.
        bleed: the trim box grown by the bleed, mm.
    """

    index: int
    row: int
    column: int
    trim: Rect
    bleed: Rect


@dataclass(frozen=True, kw_only=True)
class Segment:
    """A straight line from (x0, y0) to (x1, y1), mm."""

    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True, kw_only=True)
class SheetLayout:
    """Where everything goes on one sheet.

    Attributes:
        spec: the sheet spec it was computed from.
        page_width: mm.
        page_height: mm.
        columns: cards across.
        rows: cards down.
        slots: ``columns * rows`` slots, row-major from the top-left.
        crop_marks: line segments, all outside every bleed box.
        ruler: the 50 mm ruler's box (bottom band), mm.
        note_origin: baseline start of the "print at 100 %" note, mm.
        heading_origin: baseline start of the page heading (top band), mm.
        registration: the filled rectangles of the cutter's registration marks, mm.
        heading_box: where the heading's lines may go (top band, clear of ``keep_out``), mm;
            its first baseline is ``heading_origin``, further lines go down.
        note_box: where the "print at 100 %" note's lines may go (bottom band, right of the
            ruler, clear of ``keep_out``), mm; its last baseline is ``note_origin``, earlier
            lines go up.
        keep_out: the cutter's zones around its registration marks that no furniture
            enters (:func:`printables.regmarks.furniture_zones`), mm.
        lost_to_cutter: (columns, rows) the cutter's area and marks cost.
        crop_mark_places: where the (left/right, top/bottom) crop marks went: ``outside``
            (the normal place), ``shortened``, ``bleed``, ``gutter``, ``margin``, or ``none`` without
            crop marks (see the module docstring).
        crop_mark_room: free space beside the grid (left/right, top/bottom) inside the page
            margin and furniture band, mm, with every card that fits there (before any card
            is given up for crop marks).
        lost_to_crop_marks: (columns, rows) given up because no mark would fit otherwise.
    """

    spec: SheetSpec
    page_width: float
    page_height: float
    columns: int
    rows: int
    slots: tuple[Slot, ...]
    crop_marks: tuple[Segment, ...]
    ruler: Rect
    note_origin: tuple[float, float]
    heading_origin: tuple[float, float]
    registration: tuple[Rect, ...] = ()
    heading_box: Rect = Rect(x=0.0, y=0.0, width=0.0, height=0.0)
    note_box: Rect = Rect(x=0.0, y=0.0, width=0.0, height=0.0)
    keep_out: tuple[Rect, ...] = ()
    lost_to_cutter: tuple[int, int] = (0, 0)
    crop_mark_places: tuple[str, str] = ("none", "none")
    crop_mark_room: tuple[float, float] = (0.0, 0.0)
    lost_to_crop_marks: tuple[int, int] = (0, 0)

    @property
    def per_page(self) -> int:
        """Cards per sheet."""
        return self.columns * self.rows

    @property
    def grid(self) -> Rect:
        """The union of all bleed boxes, mm."""
        first, last = self.slots[0].bleed, self.slots[-1].bleed
        return Rect(x=first.x, y=last.y, width=last.right - first.x, height=first.top - last.y)


def _count(available: float, cell: float, gutter: float) -> int:
    """How many cells of ``cell`` mm with ``gutter`` mm between them fit in ``available`` mm."""
    return max(0, math.floor((available + gutter) / (cell + gutter) + EPSILON))


@dataclass(frozen=True, kw_only=True)
class _MarkPlan:
    """Where the crop marks of one axis go: ``start`` and ``length`` are measured outward
    from the grid's outer trim line (``gutter``: ``start`` from the trim line into the gap),
    mm."""

    place: str
    start: float
    length: float


def _mark_plan(spec: SheetSpec, room: float, count: int) -> _MarkPlan | None:
    """The crop-mark placement for one axis with ``room`` mm free beside the grid (inside the
    margins) and ``count`` cards along it; None if no mark fits anywhere."""
    off, bleed, longest = spec.crop_mark_offset, spec.bleed, spec.crop_mark_length
    if room >= off + MIN_CROP_MARK_LENGTH - EPSILON:
        return _MarkPlan(place="outside", start=bleed + off, length=min(longest, room - off))
    reach = bleed + room  # from the trim line to the page margin
    start = min(bleed + off, max(MIN_CROP_MARK_GAP, reach - MIN_CROP_MARK_LENGTH))
    if reach - start >= SHORTEST_CROP_MARK - EPSILON:
        place = "bleed" if start < bleed - EPSILON else "shortened"
        return _MarkPlan(place=place, start=start, length=min(longest, reach - start))
    between = spec.gutter + 2 * bleed  # from one card's trim line to the next
    length = min(longest, between - 2 * MIN_CROP_MARK_GAP)
    if count > 1 and length >= SHORTEST_CROP_MARK - EPSILON:
        return _MarkPlan(place="gutter", start=(between - length) / 2, length=length)
    # The page margin the user gave is wider than most printers need: marks may reach into
    # it, ending MIN_SAFE_PAGE_MARGIN from the paper edge.
    outer = reach + max(0.0, spec.page_margin - MIN_SAFE_PAGE_MARGIN)
    start = min(bleed + off, max(MIN_CROP_MARK_GAP, outer - MIN_CROP_MARK_LENGTH))
    if outer - start >= SHORTEST_CROP_MARK - EPSILON:
        return _MarkPlan(place="margin", start=start, length=min(longest, outer - start))
    return None


@dataclass(frozen=True, kw_only=True)
class _Axis:
    """One direction of the grid: the card count, the crop-mark plan, the free space beside
    the grid of every card that fits inside the margins (mm, before any is given up for crop
    marks) and the cards given up for crop marks."""

    count: int
    plan: _MarkPlan | None
    room: float
    lost: int


def _axis(spec: SheetSpec, available: float, cell: float) -> _Axis:
    """Cards of ``cell`` mm along ``available`` mm (inside margins), with their crop marks."""
    count = _count(available, cell, spec.gutter)
    room = (available - (count * cell + (count - 1) * spec.gutter)) / 2
    if not spec.crop_marks or count < 1:
        return _Axis(count=count, plan=None, room=room, lost=0)
    plan = _mark_plan(spec, room, count)
    if plan is not None:
        return _Axis(count=count, plan=plan, room=room, lost=0)
    reserve = spec.crop_mark_offset + MIN_CROP_MARK_LENGTH
    fewer = _count(available - 2 * reserve, cell, spec.gutter)
    left = (available - (fewer * cell + (fewer - 1) * spec.gutter)) / 2
    plan = _mark_plan(spec, left, fewer) if fewer >= 1 else None
    return _Axis(count=fewer, plan=plan, room=room, lost=count - fewer)


def _grid(spec: SheetSpec) -> tuple[_Axis, _Axis, float, float]:
    """(across, down, free width, free height) of a sheet: free inside the page margins and
    the furniture bands, mm."""
    page_w, page_h = spec.page_size
    avail_w = page_w - 2 * spec.page_margin
    avail_h = page_h - 2 * (spec.page_margin + FURNITURE_HEIGHT)
    across = _axis(spec, avail_w, spec.card.width + 2 * spec.bleed)
    down = _axis(spec, avail_h, spec.card.height + 2 * spec.bleed)
    return across, down, avail_w, avail_h


def fits_on(spec: SheetSpec) -> tuple[tuple[str, bool], ...]:
    """The ``(paper, landscape)`` sheets other than ``spec``'s on which at least one card fits:
    the same paper turned first, then papers of larger area (each orientation)."""
    area = PAPER_SIZES[spec.paper][0] * PAPER_SIZES[spec.paper][1]
    candidates = [(spec.paper, not spec.landscape)] + [
        (paper, landscape)
        for paper, (w, h) in sorted(PAPER_SIZES.items(), key=lambda item: item[1][0] * item[1][1])
        if w * h > area
        for landscape in (spec.landscape, not spec.landscape)
    ]
    return tuple(
        (paper, landscape)
        for paper, landscape in candidates
        if min(axis.count for axis in _grid(replace(spec, paper=paper, landscape=landscape))[:2])
        >= 1
    )


def layout_sheet(spec: SheetSpec) -> SheetLayout:
    """Compute the card grid, crop marks and furniture of a sheet.

    The grid is centred on the page in both directions. A dimension that fits exactly keeps
    its last column or row (``EPSILON`` tolerance), crop marks or not: the marks shorten or
    move (module docstring).

    Raises:
        DoesNotFitError: not even one card (with bleed and room for crop marks) fits; it
            lists the sheets where it would.
    """
    page_w, page_h = spec.page_size
    cell_w = spec.card.width + 2 * spec.bleed
    cell_h = spec.card.height + 2 * spec.bleed
    across, down, avail_w, avail_h = _grid(spec)
    columns, rows = across.count, down.count
    if columns < 1 or rows < 1:
        raise DoesNotFitError(
            f"a {spec.card.width:g} x {spec.card.height:g} mm card with {spec.bleed:g} mm bleed "
            f"does not fit on {spec.paper} {'landscape' if spec.landscape else 'portrait'}: "
            f"{avail_w:.1f} x {avail_h:.1f} mm free inside the margins",
            paper=spec.paper,
            landscape=spec.landscape,
            fits_on=fits_on(spec),
        )
    registration: tuple[Rect, ...] = ()
    lost = (0, 0)
    if spec.cutter != "none":
        full = (columns, rows)
        columns, rows, registration = _cutter_grid(spec, columns, rows)
        lost = (full[0] - columns, full[1] - rows)
        if columns < 1 or rows < 1:
            raise DoesNotFitError(
                f"a {spec.card.width:g} x {spec.card.height:g} mm card does not fit the "
                f"{spec.cutter} print-then-cut area on {spec.paper}",
                paper=spec.paper,
                landscape=spec.landscape,
                fits_on=(),
            )
    grid_w = columns * cell_w + (columns - 1) * spec.gutter
    grid_h = rows * cell_h + (rows - 1) * spec.gutter
    left = (page_w - grid_w) / 2
    top = (page_h + grid_h) / 2
    slots: list[Slot] = []
    for row in range(rows):
        for column in range(columns):
            bleed = Rect(
                x=left + column * (cell_w + spec.gutter),
                y=top - (row + 1) * cell_h - row * spec.gutter,
                width=cell_w,
                height=cell_h,
            )
            slots.append(
                Slot(
                    index=len(slots),
                    row=row,
                    column=column,
                    trim=bleed.inset(spec.bleed),
                    bleed=bleed,
                )
            )
    marks = _crop_marks(spec, slots, columns, across.plan, down.plan) if spec.crop_marks else []
    band = spec.page_margin
    heading_box, note_box, keep_out = _furniture_boxes(spec, left, top, top - grid_h)
    ruler = Rect(x=note_box.x, y=band + 0.6, width=RULER_LENGTH, height=2.4)
    note_box = Rect(
        x=ruler.right + 4.0,
        y=note_box.y,
        width=note_box.right - ruler.right - 4.0,
        height=note_box.height,
    )
    return SheetLayout(
        spec=spec,
        page_width=page_w,
        page_height=page_h,
        columns=columns,
        rows=rows,
        slots=tuple(slots),
        crop_marks=tuple(marks),
        ruler=ruler,
        note_origin=(note_box.x, band + 1.0),
        heading_origin=(heading_box.x, page_h - band - FURNITURE_HEIGHT + 1.0),
        heading_box=heading_box,
        note_box=note_box,
        keep_out=keep_out,
        registration=registration,
        lost_to_cutter=lost,
        crop_mark_places=(
            across.plan.place if across.plan and spec.crop_marks else "none",
            down.plan.place if down.plan and spec.crop_marks else "none",
        ),
        crop_mark_room=(across.room, down.room),
        lost_to_crop_marks=(across.lost, down.lost),
    )


ZONE_GAP = 0.5
"""Furniture keeps this much more than a keep-out zone's edge, mm (a zone is a least
distance; text metrics and rounding must not reach into it)."""


def _furniture_boxes(
    spec: SheetSpec, left: float, grid_top: float, grid_bottom: float
) -> tuple[Rect, Rect, tuple[Rect, ...]]:
    """(heading box, ruler-and-note box, keep-out zones) of a sheet whose grid starts at x
    ``left`` and spans ``grid_bottom``..``grid_top``, mm.

    Both boxes start in the furniture bands (``FURNITURE_HEIGHT`` inside the page margin;
    with a cutter, which prints no crop marks, they reach to 1 mm from the grid) from
    ``max(left, page margin)`` to the right page margin, and give way to the cutter's
    keep-out zones (:func:`printables.regmarks.furniture_zones`): a zone at a side of the
    paper narrows a box from that side, any other zone (Cricut's area) from the grid's side.
    """
    from printables.regmarks import furniture_zones

    page_w, page_h = spec.page_size
    margin = spec.page_margin
    zones = furniture_zones(spec.cutter, page_w, page_h)
    reach = spec.cutter != "none"
    heading_bottom = min(page_h - margin - FURNITURE_HEIGHT, grid_top + 1.0) if reach else None
    note_top = max(margin + FURNITURE_HEIGHT, grid_bottom - 1.0) if reach else None
    boxes = []
    for y0, y1 in (
        (heading_bottom or page_h - margin - FURNITURE_HEIGHT, page_h - margin),
        (margin, note_top or margin + FURNITURE_HEIGHT),
    ):
        x0, x1 = max(left, margin), page_w - margin
        for zone in zones:
            if zone.y >= y1 or zone.top <= y0:
                continue
            if zone.x <= EPSILON:
                x0 = max(x0, zone.right + ZONE_GAP)
            elif zone.right >= page_w - EPSILON:
                x1 = min(x1, zone.x - ZONE_GAP)
            elif zone.top < y1:
                y0 = max(y0, zone.top + ZONE_GAP)
            else:
                y1 = min(y1, zone.y - ZONE_GAP)
        boxes.append(Rect(x=x0, y=y0, width=max(0.0, x1 - x0), height=max(0.0, y1 - y0)))
    return boxes[0], boxes[1], zones


def _crop_marks(
    spec: SheetSpec,
    slots: list[Slot],
    columns: int,
    across: _MarkPlan | None,
    down: _MarkPlan | None,
) -> list[Segment]:
    """The crop marks of a grid: vertical marks continue the columns' trim lines above and
    below the grid (``down`` plan), horizontal marks the rows' trim lines left and right of it
    (``across`` plan); in the ``gutter`` plan they sit in every gap between cards instead."""
    first_row, first_column = slots[:columns], slots[::columns]
    xs = sorted({round(x, 6) for s in first_row for x in (s.trim.x, s.trim.right)})
    ys = sorted({round(y, 6) for s in first_column for y in (s.trim.y, s.trim.top)})
    marks: list[Segment] = []
    if down is not None:
        top_trim, bottom_trim = slots[0].trim.top, slots[-1].trim.y
        if down.place == "gutter":
            for _upper, lower in itertools.pairwise(first_column):
                y = lower.trim.top + down.start
                marks += [Segment(x0=x, y0=y, x1=x, y1=y + down.length) for x in xs]
        else:
            for x in xs:
                y0, y1 = top_trim + down.start, bottom_trim - down.start
                marks.append(Segment(x0=x, y0=y0, x1=x, y1=y0 + down.length))
                marks.append(Segment(x0=x, y0=y1, x1=x, y1=y1 - down.length))
    if across is not None:
        left_trim, right_trim = slots[0].trim.x, slots[columns - 1].trim.right
        if across.place == "gutter":
            for left, _right in itertools.pairwise(first_row):
                x = left.trim.right + across.start
                marks += [Segment(x0=x, y0=y, x1=x + across.length, y1=y) for y in ys]
        else:
            for y in ys:
                x0, x1 = left_trim - across.start, right_trim + across.start
                marks.append(Segment(x0=x0, y0=y, x1=x0 - across.length, y1=y))
                marks.append(Segment(x0=x1, y0=y, x1=x1 + across.length, y1=y))
    return marks


def crop_mark_notes(layout: SheetLayout) -> list[str]:
    """One line per crop-mark compromise of ``layout``: marks shortened or moved (onto the
    bleed, into the gutters) because the cards fill the printable width or height, and any
    column or row given up because no mark fitted at all. Empty when the marks sit at their
    normal place."""
    spec = layout.spec
    size = f"{spec.card.width:g} x {spec.card.height:g} mm cards"
    notes = []
    axes = (
        ("left and right of", "row", "column", "columns", layout.columns),
        ("above and below", "column", "row", "rows", layout.rows),
    )
    for index, (sides, lines, one, kind, count) in enumerate(axes):
        place, room = layout.crop_mark_places[index], layout.crop_mark_room[index]
        lost = layout.lost_to_crop_marks[index]
        marks = [m for m in layout.crop_marks if (m.y0 == m.y1 if index == 0 else m.x0 == m.x1)]
        length = min((abs(m.x1 - m.x0) + abs(m.y1 - m.y0) for m in marks), default=0.0)
        where = f"{room:.1f} mm free {sides} the grid inside the margins"
        cost = f"marks at full length would cost a {one} of {size}"
        if lost:
            notes.append(
                f"crop marks cost {lost} of {count + lost} {kind} of {size}: no room for a "
                f"{SHORTEST_CROP_MARK:g} mm mark ({where}) and no bleed or gutter to hold one; "
                "--no-crop-marks keeps it"
            )
        elif place == "shortened":
            notes.append(
                f"crop marks {sides} the grid shortened to {length:.1f} mm ({where}; {cost})"
            )
        elif place == "bleed":
            notes.append(
                f"crop marks {sides} the grid moved onto the {spec.bleed:g} mm bleed, "
                f"{length:.1f} mm long, cut away with it ({where}; {cost})"
            )
        elif place == "margin":
            notes.append(
                f"crop marks {sides} the grid reach {length:.1f} mm into the "
                f"{spec.page_margin:g} mm page margin, up to {MIN_SAFE_PAGE_MARGIN:g} mm from "
                f"the paper edge; a printer that cannot print there leaves them out ({where}; "
                f"{cost})"
            )
        elif place == "gutter":
            notes.append(
                f"crop marks of the {lines} cut lines moved into the gaps between the cards, "
                f"{length:.1f} mm long ({where}; {cost})"
            )
    return notes


def _cutter_grid(spec: SheetSpec, columns: int, rows: int) -> tuple[int, int, tuple[Rect, ...]]:
    """The largest centred grid (at most ``columns`` x ``rows``) inside the cutter's area and
    clear of its registration marks; (columns, rows, the marks' rectangles)."""
    from printables.regmarks import cricut_area, marks_for

    page_w, page_h = spec.page_size
    cell_w = spec.card.width + 2 * spec.bleed
    cell_h = spec.card.height + 2 * spec.bleed
    marks = marks_for(spec.cutter)
    if marks is not None:
        area = marks.cut_area(page_w, page_h).inset(marks.padding)
        keep_out = marks.keep_out(page_w, page_h)
        shapes = marks.shapes(page_w, page_h)
    else:
        area, keep_out, shapes = cricut_area(page_w, page_h), (), ()

    def grid(c: int, r: int) -> Rect:
        w = c * cell_w + (c - 1) * spec.gutter
        h = r * cell_h + (r - 1) * spec.gutter
        return Rect(x=(page_w - w) / 2, y=(page_h - h) / 2, width=w, height=h)

    def fits(c: int, r: int) -> bool:
        box = grid(c, r)
        inside = (
            box.x >= area.x - EPSILON
            and box.right <= area.right + EPSILON
            and box.y >= area.y - EPSILON
            and box.top <= area.top + EPSILON
        )
        return inside and not any(box.overlaps(k) for k in keep_out)

    best = (0, 0)
    for c in range(columns, 0, -1):
        for r in range(rows, 0, -1):
            if c * r > best[0] * best[1] and fits(c, r):
                best = (c, r)
                break
    return best[0], best[1], shapes


MIN_SAFE_PAGE_MARGIN = 4.0
"""Page margins below this (mm) are warned about: many office printers cannot print within
about 4.2 mm (1/6 in, laser) or 3-5 mm (inkjet) of the paper edge."""
