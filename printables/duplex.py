"""Duplex backs and printer corrections, in millimetres: which way backs are mirrored, where
each back lands (offset, rotation), the per-axis print scale, and how far an adjusted back
reaches past its margin.

Pure maths in the page frame of :mod:`printables.layout` (origin bottom-left, x right, y up,
mm). Duplex is defined on the paper, not the page: *long-edge* turns the sheet about its long
edge, the vertical axis of a portrait page (backs mirrored left-right) and the horizontal axis
of a landscape page (mirrored top-bottom); *short-edge* is the other way round.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from printables.geometry import EPSILON, Rect
from printables.layout import LayoutError, SettingError, SheetLayout


class Duplex(enum.StrEnum):
    """How backs are printed.

    ``LONG_EDGE``/``SHORT_EDGE``: each front page is followed by its back page, for a printer
    that turns the sheet about that edge. ``SEPARATE``: backs go to a second file (laid out as
    long-edge). ``NONE``: no backs.
    """

    LONG_EDGE = "long-edge"
    SHORT_EDGE = "short-edge"
    SEPARATE = "separate"
    NONE = "none"


@dataclass(frozen=True, kw_only=True)
class BackAdjust:
    """A printer's correction of back pages: shift, then rotation about the page centre.

    Attributes:
        dx: shift to the right on the back page, -20..20 mm.
        dy: shift upwards on the back page, -20..20 mm.
        rotation_deg: counter-clockwise rotation, -5..5 degrees.

    Raises:
        SettingError: a value is out of range or not a finite number.
    """

    dx: float = 0.0
    dy: float = 0.0
    rotation_deg: float = 0.0

    def __post_init__(self) -> None:
        for name, limit in (("dx", 20.0), ("dy", 20.0), ("rotation_deg", 5.0)):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and -limit <= value <= limit):
                unit = "mm" if name != "rotation_deg" else "degrees"
                raise SettingError(
                    setting=name, allowed=f"-{limit:g}..{limit:g} {unit}", found=value, unit=unit
                )


SCALE_LIMITS = (0.95, 1.05)
"""Allowed print scale per axis: a printer 5 % short or long is broken, not miscalibrated."""


@dataclass(frozen=True, kw_only=True)
class PrintScale:
    """A printer's size correction: every page is scaled by ``x`` across and ``y`` down,
    about the page centre, so that a printer that prints a little short or long prints true
    size (Proxy-PDF-Maker#14). Measure the 100 mm rulers of the calibration sheet printed at
    scale 1: ``x = 100 / measured across``, ``y = 100 / measured down``.

    The centre stays put, so duplex pairing holds: turning the sheet mirrors about a centre
    line, which commutes with a scale about the centre (front and back are scaled alike).

    Attributes:
        x: scale across the page, :data:`SCALE_LIMITS`.
        y: scale down the page, :data:`SCALE_LIMITS`.

    Raises:
        SettingError: a value out of range or not a finite number (setting ``scale_x`` or
            ``scale_y``).
    """

    x: float = 1.0
    y: float = 1.0

    def __post_init__(self) -> None:
        low, high = SCALE_LIMITS
        for name in ("x", "y"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and low <= value <= high):
                raise SettingError(
                    setting=f"scale_{name}", allowed=f"{low:g}..{high:g}", found=value
                )

    @property
    def identity(self) -> bool:
        """True for a scale of 1 in both directions."""
        return self.x == 1.0 and self.y == 1.0


def scale_point(
    x: float, y: float, *, page_width: float, page_height: float, scale: PrintScale
) -> tuple[float, float]:
    """Where the page point (x, y) mm is drawn with ``scale`` applied about the page centre
    (the transform the renderer puts on every page)."""
    cx, cy = page_width / 2, page_height / 2
    return cx + (x - cx) * scale.x, cy + (y - cy) * scale.y


def mirrors_left_right(duplex: Duplex, landscape: bool) -> bool:
    """True if backs are mirrored left-right for this duplex mode and orientation.

    Long-edge on portrait (and short-edge on landscape) turns the sheet about a vertical
    axis; the other two combinations about a horizontal one. ``SEPARATE`` behaves as
    long-edge.

    Raises:
        LayoutError: ``duplex`` is ``NONE`` (there are no backs).
    """
    if duplex is Duplex.NONE:
        raise LayoutError("duplex 'none' has no back pages")
    long_edge = duplex in (Duplex.LONG_EDGE, Duplex.SEPARATE)
    return long_edge != landscape


def flip_point(
    x: float, y: float, *, page_width: float, page_height: float, left_right: bool
) -> tuple[float, float]:
    """Where the front-page point (x, y) lies on the back page after the sheet is turned."""
    return (page_width - x, y) if left_right else (x, page_height - y)


def flip_rect(rect: Rect, *, page_width: float, page_height: float, left_right: bool) -> Rect:
    """The front-page rectangle ``rect`` as seen on the back page after turning the sheet."""
    if left_right:
        return Rect(x=page_width - rect.right, y=rect.y, width=rect.width, height=rect.height)
    return Rect(x=rect.x, y=page_height - rect.top, width=rect.width, height=rect.height)


def back_slot_index(layout: SheetLayout, index: int, *, left_right: bool) -> int:
    """The slot on the back page that lies behind front slot ``index``.

    Because the grid is centred, the mirrored slot is a slot of the same grid: column
    ``columns - 1 - c`` (left-right) or row ``rows - 1 - r`` (top-bottom).
    """
    row, column = divmod(index, layout.columns)
    if left_right:
        column = layout.columns - 1 - column
    else:
        row = layout.rows - 1 - row
    return row * layout.columns + column


def adjust_point(
    x: float, y: float, *, page_width: float, page_height: float, adjust: BackAdjust
) -> tuple[float, float]:
    """Apply a :class:`BackAdjust` to a back-page point: rotate about the page centre, then
    shift by (dx, dy). This is the transform the renderer puts on every back page."""
    cx, cy = page_width / 2, page_height / 2
    angle = math.radians(adjust.rotation_deg)
    rx = cx + (x - cx) * math.cos(angle) - (y - cy) * math.sin(angle)
    ry = cy + (x - cx) * math.sin(angle) + (y - cy) * math.cos(angle)
    return rx + adjust.dx, ry + adjust.dy


@dataclass(frozen=True, kw_only=True)
class Overreach:
    """A back-page card box that a back adjustment moves off the paper or into the border.

    Attributes:
        slot: the back-page slot index.
        distance: how far the box reaches past the limit, mm.
        off_paper: past the paper edge (else into the unprintable page margin).
        side: ``left``, ``right``, ``top`` or ``bottom``.
    """

    slot: int
    distance: float
    off_paper: bool
    side: str


def back_overreach(layout: SheetLayout, adjust: BackAdjust) -> list[Overreach]:
    """Back-page card boxes (bleed boxes) that ``adjust`` moves past the page margin.

    Each box's four corners are moved as the renderer moves them (:func:`adjust_point`); the
    worst side of each box is reported, with the distance beyond the page edge when it leaves
    the paper, else beyond the page margin.
    """
    found = []
    w, h, m = layout.page_width, layout.page_height, layout.spec.page_margin
    for slot in layout.slots:
        box = slot.bleed
        corners = [
            adjust_point(x, y, page_width=w, page_height=h, adjust=adjust)
            for x in (box.x, box.right)
            for y in (box.y, box.top)
        ]
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        excess = {
            "left": m - min(xs),
            "right": max(xs) - (w - m),
            "bottom": m - min(ys),
            "top": max(ys) - (h - m),
        }
        side, distance = max(excess.items(), key=lambda item: item[1])
        if distance > EPSILON:
            off = distance - m > EPSILON
            found.append(
                Overreach(
                    slot=slot.index,
                    distance=distance - m if off else distance,
                    off_paper=off,
                    side=side,
                )
            )
    return found
