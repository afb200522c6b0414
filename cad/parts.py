"""CadQuery solids for the Asteroids pieces, X-Y compensation baked in.

Units: mm. Frame: every part lies with its bed face on Z = 0 and its plan centred on the origin;
+X runs along the rifts, +Y from player A's base to player B's (see ``cad.design``).

Each builder makes the compensated part directly from ``PrintDimensions``: outer contours are
offset by ``xy_compensation`` and holes by its negative, which is exactly what a slicer's
"XY size compensation" does layer by layer (P1); heights are untouched. All holes of a part are
cut in one ``Shape.cut(*tools)`` call (ARCHITECTURE.md, *CAD*).
"""

from __future__ import annotations

from collections.abc import Sequence

import cadquery as cq

from cad.design import Polygon, PrintDimensions, asteroid_symbol, ship_symbol
from games.asteroids import FragmentKind


class PartError(RuntimeError):
    """A generated part is not one valid solid with one shell (a bug in a builder)."""


def checked(shape: cq.Shape, name: str) -> cq.Solid:
    """Return ``shape`` as its single solid, or raise.

    Raises:
        PartError: the shape is invalid, or has other than one solid or one shell.
    """
    solids = shape.Solids()
    if len(solids) != 1 or len(solids[0].Shells()) != 1 or not solids[0].isValid():
        raise PartError(
            f"{name}: expected one valid solid with one shell, got {len(solids)} solid(s), "
            f"{sum(len(s.Shells()) for s in solids)} shell(s), valid={shape.isValid()}"
        )
    return solids[0]


def _polygon_face(points: Polygon, offset: float = 0.0, holes: Sequence[Polygon] = ()) -> cq.Face:
    """A planar face on Z = 0 from a CCW polygon offset by ``offset`` mm (+ grows).

    ``holes`` (CCW) are offset by ``-offset`` so that the face as a whole grows or shrinks
    uniformly.
    """
    outer = _offset_wire(points, offset)
    inner = [_offset_wire(h, -offset) for h in holes]
    return cq.Face.makeFromWires(outer, inner)


def _offset_wire(points: Polygon, offset: float) -> cq.Wire:
    wire = cq.Wire.makePolygon([cq.Vector(x, y, 0) for x, y in points], close=True)
    if abs(offset) < 1e-12:
        return wire
    (result,) = wire.offset2D(offset, "intersection")
    return result


def _prism(face: cq.Face, z0: float, z1: float) -> cq.Solid:
    """Extrude ``face`` (on Z = 0) into a solid from ``z0`` to ``z1`` (mm)."""
    solid = cq.Solid.extrudeLinear(face, cq.Vector(0, 0, z1 - z0))
    return solid.moved(cq.Location(cq.Vector(0, 0, z0)))


def _cylinder(diameter: float, x: float, y: float, z0: float, z1: float) -> cq.Solid:
    return cq.Solid.makeCylinder(diameter / 2, z1 - z0, cq.Vector(x, y, z0))


def _rectangle(length: float, width: float) -> Polygon:
    """A CCW rectangle centred on the origin (mm)."""
    a, b = length / 2, width / 2
    return ((-a, -b), (a, -b), (a, b), (-a, b))


def _chamfered_rectangle(length: float, width: float, corner: float) -> Polygon:
    """A CCW rectangle centred on the origin with 45-degree corner chamfers (mm)."""
    a, b, k = length / 2, width / 2, corner
    return (
        (-a + k, -b),
        (a - k, -b),
        (a, -b + k),
        (a, b - k),
        (a - k, b),
        (-a + k, b),
        (-a, b - k),
        (-a, -b + k),
    )


def _chamfer_edges(solid: cq.Solid, bottom: float, top: float) -> cq.Solid:
    """Chamfer the outer bottom edges by ``bottom`` and top edges by ``top`` (mm, 45 deg)."""
    work = cq.Workplane().add(solid)
    if bottom > 0:
        work = work.edges("<Z").chamfer(bottom)
    if top > 0:
        work = work.edges(">Z").chamfer(top)
    return checked(work.findSolid(), "chamfered body")


def _engraving(face: cq.Face, x: float, y: float, top: float, depth: float) -> cq.Solid:
    """A tool that engraves ``face`` (grown already) ``depth`` mm into a top face at ``top``."""
    return _prism(face, top - depth, top + 1.0).moved(cq.Location(cq.Vector(x, y, 0)))


def board(dims: PrintDimensions) -> cq.Solid:
    """The board: two home bases with ship pockets and six rifts open at both ends.

    Frame: bed face on Z = 0, centred; rifts run along X; player A's base at -Y.
    Size (before compensation): ``board_length`` x ``board_depth`` x ``board_thickness``.
    Source: rules digest *Components* and *A starting geometry*; AST-2 (6 rifts of 4
    fragments), AST-14 (a base is one big place; pockets are for tidy storage of ships).

    Raises:
        PartError: the result is not one solid (a builder bug).
    """
    length, depth, thick = dims.board_length, dims.board_depth, dims.board_thickness
    plan = _rectangle(dims.outer(length), dims.outer(depth))
    body = _chamfer_edges(
        _prism(_polygon_face(plan), 0, thick), dims.elephant_foot_chamfer, dims.top_chamfer
    )
    tools: list[cq.Solid] = []
    floor = thick - dims.rift_depth
    for rift in range(1, dims.rifts + 1):
        y = dims.rift_centre_y(rift)
        slot = _rectangle(length + 20, dims.hole(dims.fragment_width))
        tools.append(
            _prism(_polygon_face(slot), floor, thick + 1).moved(cq.Location(cq.Vector(0, y, 0)))
        )
    places = dims.fragments_per_rift * 2
    for player in (0, 1):
        yc = dims.base_centre_y(player)
        for row in (-0.5, 0.5):
            for place in range(1, places + 1):
                tools.append(
                    _cylinder(
                        dims.hole(dims.pocket_diameter),
                        dims.place_centre_x(place),
                        yc + row * dims.base_row_pitch,
                        thick - dims.pocket_depth,
                        thick + 1,
                    )
                )
    return checked(body.cut(*tools), "board")


def board_halves(dims: PrintDimensions, whole: cq.Solid | None = None) -> tuple[cq.Solid, cq.Solid]:
    """The board cut through its middle rib into two halves joined by dovetail tabs.

    For beds too small for the whole board (rules digest: "split the board (joined halves)").
    The cut runs along Y = 0 (the middle of the rib between rift 3 and rift 4); half A (-Y)
    carries ``split_joint_tabs`` dovetails reaching ``split_tab_length`` into half B. The joint
    contour is compensated like every other contour, so the tabs have the same play as every
    other fit; glue the halves (PRINT-NOTES.md says so).

    Args:
        dims: print dimensions.
        whole: the board already built from ``dims``, to cut instead of building it again.

    Returns:
        ``(half_a, half_b)`` in the board frame (not moved apart).

    Raises:
        PartError: a half is not one solid.
    """
    whole = board(dims) if whole is None else whole
    big = dims.board_length + dims.board_depth
    root, tip, reach = 0.75 * dims.split_tab_width, dims.split_tab_width, dims.split_tab_length
    points: list[tuple[float, float]] = [(-big, -big), (big, -big), (big, 0.0)]
    count = dims.split_joint_tabs
    for k in reversed(range(count)):
        x = dims.board_length * ((k + 0.5) / count - 0.5)
        points += [
            (x + root / 2, 0.0),
            (x + tip / 2, reach),
            (x - tip / 2, reach),
            (x - root / 2, 0.0),
        ]
    points.append((-big, 0.0))
    region = tuple(points)
    z0, z1 = -1.0, dims.board_thickness + 1.0
    keep_a = _prism(_polygon_face(region, dims.xy_compensation), z0, z1)
    remove_b = _prism(_polygon_face(region, -dims.xy_compensation), z0, z1)
    return checked(whole.intersect(keep_a), "board half A"), checked(
        whole.cut(remove_b), "board half B"
    )


def fragment(dims: PrintDimensions, kind: FragmentKind) -> cq.Solid:
    """A subspace fragment: a 1 x 2 tile with a ship pocket per hole place and an engraved
    asteroid per asteroid place.

    Frame: bed face on Z = 0, centred; place 1 at -X, place 2 at +X; ``kind.places`` gives
    what each place is (HA: hole at -X, asteroid at +X). Size before compensation:
    ``fragment_length`` x ``fragment_width`` x ``fragment_height``.
    Source: rules digest *Components* (HH, HA), P3 (engraving one layer, colour change).

    Raises:
        PartError: the result is not one solid.
    """
    plan = _chamfered_rectangle(
        dims.fragment_length, dims.fragment_width, dims.fragment_corner_chamfer
    )
    body = _chamfer_edges(
        _prism(_polygon_face(plan, dims.xy_compensation), 0, dims.fragment_height),
        dims.elephant_foot_chamfer,
        dims.top_chamfer,
    )
    top = dims.fragment_height
    tools: list[cq.Solid] = []
    for place, what in zip((-0.5, 0.5), kind.places):
        x = place * dims.place_pitch
        if what == "H":
            tools.append(
                _cylinder(dims.hole(dims.pocket_diameter), x, 0, top - dims.pocket_depth, top + 1)
            )
        else:
            tools += _asteroid_tools(dims, x, top)
    return checked(body.cut(*tools), f"fragment {kind.value}")


def _asteroid_tools(dims: PrintDimensions, x: float, top: float) -> list[cq.Solid]:
    """Engraving tools for one asteroid symbol centred at (x, 0) on a top face at ``top``."""
    grow = -dims.xy_compensation
    outer, inner, craters = asteroid_symbol(dims.asteroid_symbol_size, dims.asteroid_stroke)
    tools = [_engraving(_polygon_face(outer, grow, holes=[inner]), x, 0, top, dims.engraving_depth)]
    for cx, cy, diameter in craters:
        tools.append(
            _cylinder(dims.hole(diameter), x + cx, cy, top - dims.engraving_depth, top + 1)
        )
    return tools


def ship(dims: PrintDimensions) -> cq.Solid:
    """A ship: a round body with a 45-degree stacking boss on top and the matching recess
    underneath, the ship symbol engraved into the boss top.

    The recess is one layer (``stack_clearance``) deeper than the boss, so a stacked ship rests
    on the flat rim of the ship below (AST-12: stacks of up to 3). Its 45-degree walls need no
    support; its flat roof is a short bridge (P5). Frame: bed face on Z = 0, axis on Z; symbol
    points to +Y. Height: ``ship_height``.

    Raises:
        PartError: the result is not one solid.
    """
    radius = dims.outer(dims.ship_diameter) / 2
    body_h, top = dims.ship_body_height, dims.ship_height
    foot, rim = dims.elephant_foot_chamfer, dims.top_chamfer
    recess_base = dims.hole(dims.boss_base_diameter) / 2
    recess_top = recess_base - dims.recess_depth
    boss_base = dims.outer(dims.boss_base_diameter) / 2
    boss_top = boss_base - dims.boss_height
    profile = [
        (0.0, dims.recess_depth),
        (recess_top, dims.recess_depth),
        (recess_base, 0.0),
        (radius - foot, 0.0),
        (radius, foot),
        (radius, body_h - rim),
        (radius - rim, body_h),
        (boss_base, body_h),
        (boss_top, top),
        (0.0, top),
    ]
    revolved = cq.Workplane("XZ").polyline(profile).close().revolve(360, (0, 0, 0), (0, 1, 0))
    body = checked(revolved.findSolid(), "ship body")
    symbol = _polygon_face(ship_symbol(dims.ship_symbol_size), -dims.xy_compensation)
    engraving = _engraving(symbol, 0, 0, top, dims.engraving_depth)
    return checked(body.cut(engraving), "ship")
