"""Arranging parts on print beds and in the storage box (pure, mm).

Frame of a plate: origin at the bed's front-left corner, +X right, +Y to the back; a placement
gives the centre of the part's footprint and whether it is turned by 90 degrees about Z.

The packer is a shelf packer: parts of one group, largest first, fill rows from the front;
a part that does not fit a bed in either orientation is an error that says which part, its size
and the bed. Parts of one *group* share a plate only with each other, because a colour change
applies to the whole plate at one height (PRINT-FORMATS.md): fragments, ships of colour A,
ships of colour B and the board are separate groups.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

from cad.settings import Bed


class PlateError(ValueError):
    """A part cannot be placed on the bed or in the box (message names part, size and limit)."""


@dataclass(frozen=True, kw_only=True)
class Footprint:
    """A part to place: its compensated bounding box and how many are printed.

    Attributes:
        part: part name (e.g. ``fragment-HH``).
        x, y, z: bounding-box size in mm in the part frame.
        count: how many to place.
        group: parts of one group share plates (e.g. ``ships-A``).
    """

    part: str
    x: float
    y: float
    z: float
    count: int
    group: str

    def __post_init__(self) -> None:
        if min(self.x, self.y, self.z) <= 0 or self.count < 1:
            raise ValueError(f"Footprint {self.part}: sizes and count must be positive")


@dataclass(frozen=True, kw_only=True)
class Placement:
    """One part on a plate: footprint centre ``(x, y)`` in mm from the bed's front-left corner,
    ``rotated`` = turned 90 degrees about Z."""

    part: str
    x: float
    y: float
    rotated: bool


@dataclass(frozen=True, kw_only=True)
class Plate:
    """One print plate.

    Attributes:
        name: file stem, e.g. ``plate-2-fragments``.
        group: the group of every part on it.
        placements: where each part goes.
        height: tallest part on the plate (mm).
        used: (x, y) extent of the arranged parts from the bed corner (mm).
        tower: the rectangle kept free for the wipe tower, ``(x, y, width, depth)`` in mm from
            the bed corner (front-left corner first, brim outside it), or None.
    """

    name: str
    group: str
    placements: tuple[Placement, ...]
    height: float
    used: tuple[float, float]
    tower: tuple[float, float, float, float] | None = None


@dataclass(frozen=True, kw_only=True)
class TowerRoom:
    """The room a multi-material plate keeps for its wipe tower beside the parts (mm).

    A tower of width W (along X) is ``area / W + extra`` deep (``depth``): the purge of one
    filament change spread as one layer, its walls and ramming in ``extra``. The rectangle
    keeps ``brim`` free around it and ``spacing`` (the plate's) from the parts, inside the
    bed border.

    Attributes:
        area: mm² of the purge as one layer (volume over layer height, with the slicer's
            margin: ``cad.slicers`` makes it).
        extra: mm added to the depth.
        brim: mm of brim around the tower.
        widest: the widest tower in mm (X).
        narrowest: the narrowest tower in mm worth printing.
    """

    area: float
    extra: float
    brim: float
    widest: float = 100.0
    narrowest: float = 10.0

    def depth(self, width: float) -> float:
        """mm the tower is deep at ``width`` mm (brim not included)."""
        return self.area / width + self.extra


def fits_bed(size: tuple[float, float], bed: Bed, margin: float) -> bool:
    """True when a plan ``size`` (x, y) in mm fits ``bed`` inside ``margin``, either way round."""
    usable = (bed.x - 2 * margin, bed.y - 2 * margin)
    return (size[0] <= usable[0] and size[1] <= usable[1]) or (
        size[1] <= usable[0] and size[0] <= usable[1]
    )


def arrange(
    footprints: list[Footprint],
    bed: Bed,
    spacing: float,
    margin: float = 5.0,
    towers: Mapping[str, TowerRoom] | None = None,
) -> list[Plate]:
    """Arrange every footprint on as few plates per group as the shelf packer finds.

    Args:
        footprints: parts in the order their groups should be numbered.
        bed: the printer bed (x, y, z in mm).
        spacing: gap between parts (mm).
        margin: free border around the bed edge (mm).
        towers: per group, the room its plates keep for a wipe tower (``_with_tower``).

    Returns:
        Plates numbered from 1 in group order; plate names are ``plate-<n>-<group>``.

    Raises:
        PlateError: a part is taller than the bed or larger than the bed in both orientations,
            a plate has no room for its tower even with the parts on a smaller area, or a
            plate's parts cannot be moved off the bed's ``keep_out`` areas.
    """
    plates: list[Plate] = []
    groups: dict[str, list[Footprint]] = {}
    for fp in footprints:
        groups.setdefault(fp.group, []).append(fp)
    for group, members in groups.items():
        room = (towers or {}).get(group)
        for (placements, height, used), tower in _group_plates(members, bed, spacing, margin, room):
            plates.append(
                Plate(
                    name=f"plate-{len(plates) + 1}-{group}",
                    group=group,
                    placements=tuple(placements),
                    height=height,
                    used=used,
                    tower=tower,
                )
            )
    return plates


_Sheet = tuple[list[Placement], float, tuple[float, float]]
"""A plate in the making: its placements, its tallest part (mm), its used (x, y) extent (mm)."""
_Tower = tuple[float, float, float, float] | None
"""A plate's wipe tower rectangle (x, y, width, depth in mm), or None."""


def _group_plates(
    members: list[Footprint], bed: Bed, spacing: float, margin: float, room: TowerRoom | None
) -> list[tuple[_Sheet, _Tower]]:
    """One group's plates with their towers, off the bed's ``keep_out`` areas.

    Where a plate cannot move off an area (:func:`_kept_out`) and every area lies at the
    bed's left edge (the Bambu X1/P1 corner), the group is packed again on the bed less a
    strip on the left, moved right by that strip: the areas' width and the spacing past them,
    less the border the narrower bed keeps anyway. It may take one plate more, and never lies
    in the corner.

    Raises:
        PlateError: as :func:`arrange`.
    """

    def packed(on: Bed) -> list[tuple[_Sheet, _Tower]]:
        sheets = _squarest(members, on, spacing, margin)
        towered: list[_Tower] = (
            [None] * len(sheets)
            if room is None
            else list(_towered(sheets, members, on, spacing, margin, room))
        )
        return list(zip(sheets, towered, strict=True))

    plates = packed(bed)
    if not bed.keep_out:
        return plates
    try:
        return [_kept_out(s, t, members, bed, spacing, margin, room) for s, t in plates]
    except PlateError as stuck:
        if any(area[0] > 0 for area in bed.keep_out):
            raise
        strip = max(0.0, max(area[2] for area in bed.keep_out) + spacing - margin)
        try:
            narrow = packed(replace(bed, x=bed.x - strip, keep_out=()))
        except PlateError:
            raise stuck from None  # the part does not fit beside the strip either
    moved = [_moved(sheet, tower, strip, 0.0) for sheet, tower in narrow]
    return [_kept_out(s, t, members, bed, spacing, margin, room) for s, t in moved]


def _moved(sheet: _Sheet, tower: _Tower, dx: float, dy: float) -> tuple[_Sheet, _Tower]:
    """``sheet`` and ``tower`` moved by (dx, dy) mm."""
    placements, tallest, (used_x, used_y) = sheet
    shifted = [
        Placement(part=p.part, x=p.x + dx, y=p.y + dy, rotated=p.rotated) for p in placements
    ]
    return (shifted, tallest, (used_x + dx, used_y + dy)), (
        None if tower is None else (tower[0] + dx, tower[1] + dy, tower[2], tower[3])
    )


def _towered(
    sheets: list[tuple[list[Placement], float, tuple[float, float]]],
    members: list[Footprint],
    bed: Bed,
    spacing: float,
    margin: float,
    room: TowerRoom,
) -> list[tuple[float, float, float, float] | None]:
    """Give every sheet its tower, moving its parts aside (in place in ``sheets``).

    Where a sheet has no room, the whole group is packed again on the bed less a strip along
    the back as deep as the widest tower needs, and every sheet then finds its tower.
    """
    found = [_with_tower(sheet, members, bed, spacing, margin, room) for sheet in sheets]
    if any(f is None for f in found):
        widest = min(bed.x - 2 * margin - 2 * room.brim, room.widest)
        strip = room.depth(widest) + 2 * room.brim + spacing
        if bed.y - strip < 50:
            raise PlateError(
                f"no room for a {widest:.0f} x {room.depth(widest):.0f} mm wipe tower on the "
                f"bed {bed.x:g} x {bed.y:g} mm"
            )
        sheets[:] = _squarest(members, replace(bed, y=bed.y - strip), spacing, margin)
        found = [_with_tower(sheet, members, bed, spacing, margin, room) for sheet in sheets]
    towers: list[tuple[float, float, float, float] | None] = []
    for index, result in enumerate(found):
        if result is None:
            raise PlateError(f"no room for the wipe tower beside the parts on bed {bed.name}")
        sheets[index], tower = result
        towers.append(tower)
    return towers


def _with_tower(
    sheet: tuple[list[Placement], float, tuple[float, float]],
    members: list[Footprint],
    bed: Bed,
    spacing: float,
    margin: float,
    room: TowerRoom,
) -> (
    tuple[tuple[list[Placement], float, tuple[float, float]], tuple[float, float, float, float]]
    | None
):
    """The sheet with its parts and a tower side by side, centred on the bed, or None.

    The tower goes right of the block of parts (as wide as the free width allows, as deep as
    it needs) or behind it (as wide as the bed allows); of the two that fit, the squarer
    tower wins.
    """
    placements, tallest, _ = sheet
    x0, y0, x1, y1 = _bounds(placements, members)
    usable_x, usable_y = bed.x - 2 * margin, bed.y - 2 * margin
    options = []
    beside = min(usable_x - (x1 - x0) - spacing - 2 * room.brim, room.widest)
    if beside >= room.narrowest and room.depth(beside) + 2 * room.brim <= usable_y + 1e-9:
        options.append(("right", beside, room.depth(beside)))
    across = min(usable_x - 2 * room.brim, room.widest)
    if room.depth(across) + 2 * room.brim + spacing + (y1 - y0) <= usable_y + 1e-9:
        options.append(("back", across, room.depth(across)))
    if not options:
        return None
    side, width, depth = max(options, key=lambda o: min(o[1], o[2]))
    outer_w, outer_d = width + 2 * room.brim, depth + 2 * room.brim
    if side == "right":
        total = (x1 - x0) + spacing + outer_w
        left = margin + (usable_x - total) / 2
        dx, dy = left - x0, margin + (usable_y - (y1 - y0)) / 2 - y0
        tower = (left + total - outer_w + room.brim, margin + (usable_y - outer_d) / 2 + room.brim)
    else:
        total = (y1 - y0) + spacing + outer_d
        front = margin + (usable_y - total) / 2
        dx, dy = margin + (usable_x - (x1 - x0)) / 2 - x0, front - y0
        tower = (margin + (usable_x - outer_w) / 2 + room.brim, front + total - outer_d + room.brim)
    moved = [Placement(part=p.part, x=p.x + dx, y=p.y + dy, rotated=p.rotated) for p in placements]
    return (moved, tallest, (x1 + dx, y1 + dy)), (*tower, width, depth)


def _kept_out(
    sheet: _Sheet,
    tower: _Tower,
    members: list[Footprint],
    bed: Bed,
    spacing: float,
    margin: float,
    room: TowerRoom | None,
) -> tuple[_Sheet, _Tower]:
    """The sheet and its tower moved back or to the right, as little as clears every part
    (``spacing`` away) and the tower's brim off the bed's ``keep_out`` areas within the
    ``margin``; as they are where nothing lies in one.

    Decision: the plate moves as a whole (the parts keep the arrangement the packer chose),
    the smaller of the two moves that fits wins. The Bambu X1/P1 corner is 18 x 28 mm and a
    packed plate is centred on the bed, so the kit's plates mostly clear it as arranged.

    Raises:
        PlateError: neither move clears it inside the bed, naming the part and the area.
    """
    placements = sheet[0]
    sizes = {fp.part: (fp.x, fp.y) for fp in members}
    boxes: list[tuple[str, tuple[float, float, float, float]]] = []
    for p in placements:
        sx, sy = sizes[p.part][::-1] if p.rotated else sizes[p.part]
        boxes.append((p.part, (p.x - sx / 2, p.y - sy / 2, p.x + sx / 2, p.y + sy / 2)))
    if tower is not None:
        brim = room.brim if room is not None else 0.0
        tx, ty, tw, td = tower
        boxes.append(("the wipe tower", (tx - brim, ty - brim, tx + tw + brim, ty + td + brim)))

    def hits(dx: float, dy: float) -> list[tuple[int, tuple[float, float, float, float]]]:
        """(box index, area) of every box that, moved by (dx, dy), reaches into an area."""
        return [
            (index, area)
            for index, (_, (x0, y0, x1, y1)) in enumerate(boxes)
            for area in bed.keep_out
            if x0 + dx < area[2] + spacing
            and x1 + dx > area[0] - spacing
            and y0 + dy < area[3] + spacing
            and y1 + dy > area[1] - spacing
        ]

    first = hits(0.0, 0.0)
    if not first:
        return sheet, tower
    far_x = max(box[2] for _, box in boxes)
    far_y = max(box[3] for _, box in boxes)
    moves = set()
    for index, area in first:
        box = boxes[index][1]
        moves |= {(area[2] + spacing - box[0], 0.0), (0.0, area[3] + spacing - box[1])}
    for dx, dy in sorted(moves, key=lambda m: (m[0] + m[1], m)):
        inside = far_x + dx <= bed.x - margin + 1e-9 and far_y + dy <= bed.y - margin + 1e-9
        if inside and not hits(dx, dy):
            return _moved(sheet, tower, dx, dy)
    index, area = first[0]
    raise PlateError(
        f"{boxes[index][0]} lies in the excluded area {area[0]:g}..{area[2]:g} x "
        f"{area[1]:g}..{area[3]:g} mm of the bed {bed.name}, and the plate has no room to move "
        f"off it; take a smaller --scale, or a custom bed without that strip (such as "
        f"--printer {bed.x - area[2]:g}x{bed.y:g}x{bed.z:g}) and move the plate "
        f"{area[2]:g} mm to the right in the slicer"
    )


def _bounds(
    placements: list[Placement], members: list[Footprint]
) -> tuple[float, float, float, float]:
    """min x, min y, max x, max y in mm of the footprints of ``placements``."""
    sizes = {fp.part: (fp.x, fp.y) for fp in members}
    boxes = []
    for p in placements:
        sx, sy = sizes[p.part][::-1] if p.rotated else sizes[p.part]
        boxes.append((p.x - sx / 2, p.y - sy / 2, p.x + sx / 2, p.y + sy / 2))
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _squarest(
    members: list[Footprint], bed: Bed, spacing: float, margin: float
) -> list[tuple[list[Placement], float, tuple[float, float]]]:
    """Shelf-pack, then try shorter rows: a squarer block on one plate is easier to print
    and to take off the bed than one long row along the front edge."""
    best = _shelf_pack(members, bed.x, bed.y, bed.z, spacing, margin)
    if len(best) != 1:
        return best
    count = sum(fp.count for fp in members)
    widest = max(max(fp.x, fp.y) for fp in members)
    for columns in range(max(1, math.ceil(math.sqrt(count))), count):
        row = columns * (widest + spacing) - spacing + 2 * margin
        if row >= bed.x:
            break
        trial = _shelf_pack(members, bed.x, bed.y, bed.z, spacing, margin, row_width=row)
        if len(trial) == 1:
            return trial
    return best


def _shelf_pack(
    members: list[Footprint],
    width: float,
    depth: float,
    height: float,
    spacing: float,
    margin: float,
    what: str = "bed",
    row_width: float | None = None,
) -> list[tuple[list[Placement], float, tuple[float, float]]]:
    """Shelf-pack ``members`` onto as many ``width`` x ``depth`` areas as needed."""
    usable_x, usable_y = width - 2 * margin, depth - 2 * margin
    rows_end = (row_width - 2 * margin) if row_width is not None else usable_x
    items: list[tuple[Footprint, float, float, bool]] = []
    for fp in members:
        if fp.z > height:
            raise PlateError(f"{fp.part} is {fp.z:.1f} mm tall; the printer allows {height:g} mm")
        # prefer the orientation with the long side along X (rows of long parts)
        options = [(fp.x, fp.y, False), (fp.y, fp.x, True)]
        options.sort(key=lambda o: (o[0] < o[1], o[1]))
        fitting = [o for o in options if o[0] <= usable_x + 1e-9 and o[1] <= usable_y + 1e-9]
        if not fitting:
            raise PlateError(
                f"{fp.part} ({fp.x:.1f} x {fp.y:.1f} mm) does not fit the {what} "
                f"{width:g} x {depth:g} mm with a {margin:g} mm border"
            )
        sx, sy, rot = fitting[0]
        items += [(fp, sx, sy, rot)] * fp.count
    items.sort(key=lambda it: (-it[2], -it[1]))
    sheets: list[tuple[list[Placement], float, tuple[float, float]]] = []
    placements: list[Placement] = []
    x = y = row_depth = tallest = used_x = 0.0
    for fp, sx, sy, rot in items:
        if x > 0 and x + sx > rows_end + 1e-9:
            x, y, row_depth = 0.0, y + row_depth + spacing, 0.0
        if y + sy > usable_y + 1e-9:
            sheets.append((placements, tallest, (used_x + margin, y - spacing + margin)))
            placements, x, y, row_depth, tallest, used_x = [], 0.0, 0.0, 0.0, 0.0, 0.0
        placements.append(
            Placement(part=fp.part, x=margin + x + sx / 2, y=margin + y + sy / 2, rotated=rot)
        )
        used_x = max(used_x, x + sx)
        x += sx + spacing
        row_depth = max(row_depth, sy)
        tallest = max(tallest, fp.z)
    if placements:
        sheets.append((placements, tallest, (used_x + margin, y + row_depth + margin)))
    return [_centred(sheet, width, depth, margin) for sheet in sheets]


def _centred(
    sheet: tuple[list[Placement], float, tuple[float, float]],
    width: float,
    depth: float,
    margin: float,
) -> tuple[list[Placement], float, tuple[float, float]]:
    """Move a sheet's placements so that their extent is centred on the area."""
    placements, tallest, (used_x, used_y) = sheet
    dx = max(0.0, (width - 2 * margin - (used_x - margin)) / 2)
    dy = max(0.0, (depth - 2 * margin - (used_y - margin)) / 2)
    moved = [Placement(part=p.part, x=p.x + dx, y=p.y + dy, rotated=p.rotated) for p in placements]
    return moved, tallest, (used_x + dx, used_y + dy)


@dataclass(frozen=True, kw_only=True)
class BoxPacking:
    """How the printed set lies in its storage box.

    Attributes:
        layers: per layer, the groups in it and its height (mm).
        height: total height of all layers (mm).
        box: inner box size (x, y, z) in mm.
        areas: per layer, the (x, y) extent its parts cover from the box corner (mm).
    """

    layers: tuple[tuple[str, float], ...]
    height: float
    box: tuple[float, float, float]
    areas: tuple[tuple[float, float], ...] = ()

    @property
    def margins(self) -> tuple[float, float, float]:
        """Free mm in the box: beside the widest layer (x), the deepest layer (y), and above
        the stack (z); negative where the set does not fit."""
        used_x = max((a[0] for a in self.areas), default=0.0)
        used_y = max((a[1] for a in self.areas), default=0.0)
        return (self.box[0] - used_x, self.box[1] - used_y, self.box[2] - self.height)

    @property
    def fits(self) -> bool:
        """True when every layer lies inside the box."""
        return self.height <= self.box[2] + 1e-9


def pack_box(
    footprints: list[Footprint], box: tuple[float, float, float], gap: float = 1.0
) -> BoxPacking:
    """Lay the set flat in a box, group by group, each group in as few layers as needed.

    A layer is one shelf-packed area of the box floor; its height is its tallest part. Groups
    are packed in the order given (put the board first: it is the flattest, largest layer).

    Args:
        footprints: every printed part with its count.
        box: inner size (x, y, z) in mm.
        gap: spacing between parts in a layer (mm).

    Raises:
        PlateError: a part is larger than the box floor in both orientations.
    """
    layers: list[tuple[str, float]] = []
    areas: list[tuple[float, float]] = []
    groups: dict[str, list[Footprint]] = {}
    for fp in footprints:
        groups.setdefault(fp.group, []).append(fp)
    for group, members in groups.items():
        sheets = _shelf_pack(members, box[0], box[1], float("inf"), gap, 0.0, what="box floor")
        for placements, tallest, _ in sheets:
            layers.append((group, tallest))
            areas.append(_extent(placements, members))
    return BoxPacking(
        layers=tuple(layers), height=sum(h for _, h in layers), box=box, areas=tuple(areas)
    )


def _extent(placements: list[Placement], members: list[Footprint]) -> tuple[float, float]:
    """The (x, y) size in mm of the area that ``placements`` cover."""
    x0, y0, x1, y1 = _bounds(placements, members)
    return (x1 - x0, y1 - y0)
