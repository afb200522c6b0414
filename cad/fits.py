"""Mating pairs placed as in play, measured on the compensated B-rep.

Units: mm, mm^3. Frame: the board frame of ``cad.parts`` (board centred, bed face on Z = 0).

For every pair we measure, on exact solids (PRINT-FORMATS.md, *Checking what we emit*):
- ``interference``: the volume both parts occupy in the resting pose (must be 0);
- ``play``: the horizontal gap between the parts, measured between horizontal plane sections of
  both at ``section_z`` (the middle of their engagement), so that parts resting on each other
  in Z do not hide it. With line-to-line nominal fits this is ``-2 * xy_compensation``.
Resting contact in Z (a fragment on the rift floor, a ship on the ship below) is by design:
separately printed parts touch under gravity, they are never fused.
"""

from __future__ import annotations

from dataclasses import dataclass

from OCP.TopoDS import TopoDS_Shape

from cad import occ
from cad.design import PrintDimensions


@dataclass(frozen=True, kw_only=True)
class Fit:
    """One measured mating pair.

    Attributes:
        pair: what meets what, e.g. ``"fragment in rift 1, slot 1 (left end)"``.
        play: horizontal gap per side in mm at ``section_z``.
        interference: overlapping volume in mm^3.
        section_z: height of the measuring sections (mm, board frame).
    """

    pair: str
    play: float
    interference: float
    section_z: float


@dataclass(frozen=True, kw_only=True)
class PartSet:
    """The compensated solids of one kit (part frame each), as built by ``cad.parts``."""

    board: TopoDS_Shape
    board_halves: tuple[TopoDS_Shape, TopoDS_Shape] | None
    fragment_hh: TopoDS_Shape
    fragment_ha: TopoDS_Shape
    ship: TopoDS_Shape


@dataclass(frozen=True, kw_only=True)
class JointTravel:
    """How far half B of a split board moves against half A before the joint stops it (mm).

    Measured on horizontal sections of both halves at ``section_z`` (the middle of the rift
    floor that carries the tabs), moving B from its designed position.

    Attributes:
        along_minus, along_plus: travel along the joint (-X, +X).
        pull: travel away from half A (+Y): how far the halves pull apart before the tab
            heads lock.
        push: travel towards half A (-Y).
        section_z: height of the sections (mm, board frame).
    """

    along_minus: float
    along_plus: float
    pull: float
    push: float
    section_z: float


def measure(
    pair: str,
    fixed: TopoDS_Shape,
    moving: TopoDS_Shape,
    section_z: float,
    sections: dict[tuple[int, float], TopoDS_Shape] | None = None,
) -> Fit:
    """Measure interference and horizontal play of two placed solids.

    Args:
        pair: a human description for the report.
        fixed, moving: the two solids in a common frame.
        section_z: height (mm) at which both are sectioned to measure the horizontal play.
        sections: sections already made, by ``(id(shape), z)``, for a shape measured against
            several others at one height (the board against three fragments); the shapes
            must outlive the dict. None: none kept.
    """
    overlap = occ.common(fixed, moving)
    interference = sum(occ.volume(s) for s in occ.solids(overlap))

    def section(shape: TopoDS_Shape) -> TopoDS_Shape:
        if sections is None:
            return occ.section(shape, section_z)
        key = (id(shape), section_z)
        if key not in sections:
            sections[key] = occ.section(shape, section_z)
        return sections[key]

    play = occ.distance(section(fixed), section(moving))
    return Fit(pair=pair, play=play, interference=interference, section_z=section_z)


def _at(solid: TopoDS_Shape, x: float = 0.0, y: float = 0.0, z: float = 0.0) -> TopoDS_Shape:
    return occ.moved(solid, x, y, z)


def joint_travel(dims: PrintDimensions, halves: tuple[TopoDS_Shape, TopoDS_Shape]) -> JointTravel:
    """Measure the free travel of the board-half joint in four directions (bisection, 1 um).

    Args:
        dims: print dimensions of the board.
        halves: ``(half_a, half_b)`` in the board frame (``cad.parts.board_halves``).

    Returns:
        The travel along (both ways) and across (pull apart, push together) the joint.
    """
    z = (dims.board_thickness - dims.rift_depth) / 2
    # only the strip around the cut matters: small sections keep the distances fast
    reach = dims.split_tab_length + 2.0
    strip = occ.box(-1e4, dims.split_cut_y - reach, z - 0.5, 1e4, dims.split_cut_y + reach, z + 0.5)
    fixed, free = (occ.section(occ.common(h, strip), z) for h in halves)
    step, limit = 0.05, 3.0  # mm: steps finer than any feature; no joint should move 3 mm

    def touching(dx: float, dy: float, t: float) -> bool:
        return occ.distance(fixed, _at(free, dx * t, dy * t)) <= 1e-7

    def travel(dx: float, dy: float) -> float:
        low = 0.0
        while not touching(dx, dy, low + step):
            low += step
            if low >= limit:
                return limit
        high = low + step
        while high - low > 1e-4:
            middle = (low + high) / 2
            low, high = (low, middle) if touching(dx, dy, middle) else (middle, high)
        return round(low, 3)

    return JointTravel(
        along_minus=travel(-1, 0),
        along_plus=travel(1, 0),
        pull=travel(0, 1),
        push=travel(0, -1),
        section_z=z,
    )


def kit_fits(dims: PrintDimensions, parts: PartSet, *, joint: bool = True) -> list[Fit]:
    """Every mating pair of the Asteroids kit, measured.

    Pairs: a fragment in a rift at the left end, in the middle and at the right end, sitting
    on the rift floor (AST-20: pushed through the open ends); two fragments end to end in a
    rift; a ship in a fragment's hole pocket; ships stacked three high (AST-12); a ship in a
    base pocket (AST-14); with ``joint``, the jigsaw tab joint of the board halves.

    Returns:
        The fits, in that order.
    """
    floor = dims.board_thickness - dims.rift_depth
    length = dims.fragment_length
    y1 = dims.rift_centre_y(1)
    slots = dims.fragments_per_rift
    fits: list[Fit] = []
    board_sections: dict[tuple[int, float], TopoDS_Shape] = {}  # the board is cut once per z
    engaged = floor + min(dims.rift_depth, dims.fragment_height) / 2
    for slot, where in ((1, "left end"), ((slots + 1) // 2, "middle"), (slots, "right end")):
        x = (slot - (slots + 1) / 2) * length
        fits.append(
            measure(
                f"fragment in rift 1, slot {slot} ({where})",
                parts.board,
                _at(parts.fragment_hh, x, y1, floor),
                engaged,
                board_sections,
            )
        )
    left = _at(parts.fragment_hh, -length / 2, y1, floor)
    right = _at(parts.fragment_ha, length / 2, y1, floor)
    fits.append(measure("fragment beside fragment (end to end in a rift)", left, right, engaged))

    pocket_floor = dims.fragment_height - dims.pocket_depth
    ship_x = -dims.place_pitch / 2  # the hole place of an HA fragment
    fits.append(
        measure(
            "ship in a fragment's hole",
            parts.fragment_ha,
            _at(parts.ship, ship_x, 0, pocket_floor),
            pocket_floor + dims.pocket_depth / 2,
        )
    )
    for level in (2, 3):
        below = _at(parts.ship, ship_x, 0, pocket_floor + (level - 2) * dims.ship_body_height)
        above = _at(parts.ship, ship_x, 0, pocket_floor + (level - 1) * dims.ship_body_height)
        fits.append(
            measure(
                f"ship on ship (stack level {level} of 3)",
                below,
                above,
                pocket_floor + (level - 1) * dims.ship_body_height + dims.boss_height / 2,
            )
        )

    yb = dims.base_centre_y(0) - dims.base_row_pitch / 2
    pocket_z = dims.board_thickness - dims.pocket_depth
    fits.append(
        measure(
            "ship in a base pocket",
            parts.board,
            _at(parts.ship, dims.place_centre_x(1), yb, pocket_z),
            pocket_z + dims.pocket_depth / 2,
        )
    )
    if joint:
        assert parts.board_halves is not None, "the joint needs the board halves"
        half_a, half_b = parts.board_halves
        fits.append(measure("board halves at the jigsaw tab joint", half_a, half_b, floor / 2))
    return fits
