"""Solids for the Asteroids pieces (OpenCASCADE via OCP), X-Y compensation baked in.

Units: mm. Frame: every part lies with its bed face on Z = 0 and its plan centred on the origin;
+X runs along the rifts, +Y from player A's base to player B's (see ``cad.design``).

Each builder makes the compensated part directly from ``PrintDimensions``: outer contours are
offset by ``xy_compensation`` and holes by its negative, which is exactly what a slicer's
"XY size compensation" does layer by layer (P1); heights are untouched. All holes of a part are
cut in one boolean call (ARCHITECTURE.md, *CAD*). Builders return ``TopoDS_Shape`` solids;
``cad.occ`` holds the kernel operations.
"""

from __future__ import annotations

import math

from OCP.TopoDS import TopoDS_Shape

from cad import occ
from cad.design import Polygon, PrintDimensions, asteroid_symbol, ship_symbol
from games.asteroids import FragmentKind

PartError = occ.GeometryError
"""A generated part is not one valid solid with one shell (a bug in a builder)."""


def checked(shape: TopoDS_Shape, name: str) -> TopoDS_Shape:
    """Return ``shape`` as its single solid, or raise.

    Raises:
        PartError: the shape is invalid, or has other than one solid or one shell.
    """
    return occ.single_solid(shape, name)


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


def _engraving(face: TopoDS_Shape, x: float, y: float, top: float, depth: float) -> TopoDS_Shape:
    """A tool that engraves ``face`` (grown already) ``depth`` mm into a top face at ``top``."""
    return occ.moved(occ.prism(face, top - depth, top + 1.0), x, y)


def board(dims: PrintDimensions) -> TopoDS_Shape:
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
    body = occ.chamfer_bottom_and_top(
        occ.prism(occ.polygon_face(plan), 0, thick), dims.elephant_foot_chamfer, dims.top_chamfer
    )
    tools: list[TopoDS_Shape] = []
    floor = thick - dims.rift_depth
    for rift in range(1, dims.rifts + 1):
        slot = _rectangle(length + 20, dims.hole(dims.fragment_width))
        tools.append(
            occ.moved(
                occ.prism(occ.polygon_face(slot), floor, thick + 1), y=dims.rift_centre_y(rift)
            )
        )
    places = dims.fragments_per_rift * 2
    for player in (0, 1):
        yc = dims.base_centre_y(player)
        for row in (-0.5, 0.5):
            for place in range(1, places + 1):
                tools.append(
                    occ.cylinder(
                        dims.hole(dims.pocket_diameter),
                        dims.place_centre_x(place),
                        yc + row * dims.base_row_pitch,
                        thick - dims.pocket_depth,
                        thick + 1,
                    )
                )
    return checked(occ.cut(body, *tools), "board")


def board_halves(
    dims: PrintDimensions, whole: TopoDS_Shape | None = None
) -> tuple[TopoDS_Shape, TopoDS_Shape]:
    """The board cut beside its middle rib into two halves joined by jigsaw tabs.

    For beds too small for the whole board (rules digest: "split the board (joined halves)").
    The cut runs along ``dims.split_cut_y``, the B-side face of the rib between rift 3 and
    rift 4, so the rib stays whole in half A. Half A (-Y) carries ``split_joint_tabs`` round-
    headed tabs (a head of ``split_tab_head_diameter`` on a narrower neck) reaching
    ``split_tab_length`` into the floor of rift 4 in half B. Laid flat, half A's tabs are
    pressed down into half B's sockets; the heads then lock the halves in both directions.
    A head's underside is two straight lock faces (``split_tab_shoulder``, at
    ``split_lock_angle``), so half B's socket tip between the cut and the head is
    ``dims.socket_tip()`` wide, never under ``min_wall``. The joint contour is compensated
    like every other contour: 0.2 mm of play per side at the default -0.1 mm
    (``cad.fits.joint_travel`` measures how far the halves can move).

    Every bottom edge along the joint (the cut, the tabs and their sockets) carries a 45-degree
    first-layer relief of ``dims.joint_relief`` (issue 30): the plates print with the slicer's
    elephant-foot compensation off, so without it the squashed first layer of both halves
    meets inside the 0.2 mm of play and binds. Each half is the board in common with its own
    region, and the region's bottom edges are chamfered before the common.

    Args:
        dims: print dimensions.
        whole: the board already built from ``dims``, to cut instead of building it again.

    Returns:
        ``(half_a, half_b)`` in the board frame (not moved apart).

    Raises:
        PartError: a half is not one solid.
    """
    whole = board(dims) if whole is None else whole
    relief = dims.joint_relief
    keep_a = _half_a_region(dims, dims.xy_compensation, z0=0.0)
    big = dims.board_length + dims.board_depth
    above = dims.board_thickness + 0.5
    keep_b = occ.cut(
        occ.box(-big, -big, 0.0, big, big, above), _half_a_region(dims, -dims.xy_compensation)
    )
    return (
        checked(occ.common(whole, occ.chamfer_bottom(keep_a, relief)), "board half A"),
        checked(occ.common(whole, occ.chamfer_bottom(keep_b, relief)), "board half B"),
    )


def _half_a_region(dims: PrintDimensions, offset: float, z0: float = -1.0) -> TopoDS_Shape:
    """The region of half A (everything on A's side of the cut, plus the tabs) grown by
    ``offset`` mm per side, as a solid from ``z0`` to above the board (faces that lie in one
    plane merged, so that its bottom edges are the contour alone).

    A tab is its neck and its head: the head circle above two straight lock faces that rise
    outward from ``split_tab_shoulder`` above the cut at the neck, at ``split_lock_angle``
    (``AsteroidsDesign.split_tab_shoulder``). Each primitive is grown by ``offset``: the
    circle's radius, the box sides, the lock faces along their normal.
    """
    big = dims.board_length + dims.board_depth
    z1 = dims.board_thickness + 1.0
    cut_y = dims.split_cut_y
    head = dims.split_tab_head_diameter
    head_y = cut_y + dims.split_tab_length - head / 2
    neck = dims.split_tab_neck_width
    slope = math.tan(dims.split_lock_angle)
    # the lock faces' line at the neck, moved along its normal by offset
    shoulder_y = cut_y + dims.split_tab_shoulder - offset / math.cos(dims.split_lock_angle)
    reach = head / 2 + abs(offset) + 1.0  # beyond the head circle on either side
    rise = (reach - neck / 2) * slope
    parts = [occ.box(-big, -big, z0, big, cut_y + offset, z1)]
    for k in range(dims.split_joint_tabs):
        x = dims.board_length * ((k + 0.5) / dims.split_joint_tabs - 0.5)
        parts.append(
            occ.box(x - neck / 2 - offset, cut_y - 1.0, z0, x + neck / 2 + offset, head_y, z1)
        )
        above_lock = occ.prism(
            occ.polygon_face(
                [
                    (x - neck / 2 - offset, shoulder_y + offset * slope),
                    (x + neck / 2 + offset, shoulder_y + offset * slope),
                    (x + reach, shoulder_y + rise),
                    (x + reach, head_y + reach),
                    (x - reach, head_y + reach),
                    (x - reach, shoulder_y + rise),
                ]
            ),
            z0,
            z1,
        )
        parts.append(occ.common(occ.cylinder(head + 2 * offset, x, head_y, z0, z1), above_lock))
    return checked(occ.unify_faces(occ.fuse(parts[0], *parts[1:])), "half A region")


def fragment(dims: PrintDimensions, kind: FragmentKind) -> TopoDS_Shape:
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
    body = occ.chamfer_bottom_and_top(
        occ.prism(occ.polygon_face(plan, dims.xy_compensation), 0, dims.fragment_height),
        dims.elephant_foot_chamfer,
        dims.top_chamfer,
    )
    top = dims.fragment_height
    tools: list[TopoDS_Shape] = []
    for place, what in zip((-0.5, 0.5), kind.places):
        x = place * dims.place_pitch
        if what == "H":
            tools.append(
                occ.cylinder(
                    dims.hole(dims.pocket_diameter), x, 0, top - dims.pocket_depth, top + 1
                )
            )
        else:
            tools += _asteroid_tools(dims, x, top)
    return checked(occ.cut(body, *tools), f"fragment {kind.value}")


def _asteroid_tools(dims: PrintDimensions, x: float, top: float) -> list[TopoDS_Shape]:
    """Engraving tools for one asteroid symbol centred at (x, 0) on a top face at ``top``."""
    grow = -dims.xy_compensation
    outer, inner, craters = asteroid_symbol(dims.asteroid_symbol_size, dims.asteroid_stroke)
    ring = occ.polygon_face(outer, grow, holes=[inner])
    tools = [_engraving(ring, x, 0, top, dims.engraving_depth)]
    for cx, cy, diameter in craters:
        tools.append(
            occ.cylinder(dims.hole(diameter), x + cx, cy, top - dims.engraving_depth, top + 1)
        )
    return tools


def ship(dims: PrintDimensions) -> TopoDS_Shape:
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
    body = checked(occ.revolve(profile), "ship body")
    symbol = occ.polygon_face(ship_symbol(dims.ship_symbol_size), -dims.xy_compensation)
    engraving = _engraving(symbol, 0, 0, top, dims.engraving_depth)
    return checked(occ.cut(body, engraving), "ship")


def symbol_layer_split(solid: TopoDS_Shape, z: float) -> tuple[TopoDS_Shape, TopoDS_Shape]:
    """A piece cut at ``z`` into the part below and the symbol layer above (P3).

    For multi-material printing: the symbol layer (the top, whose engraved symbols show the
    colour below) becomes a part of its own on the symbol filament.

    Args:
        solid: a fragment or ship (part frame, bed face on Z = 0).
        z: bottom of the symbol layer in mm (the engraving floor: a whole layer).

    Returns:
        (below, symbol layer); together they are ``solid``, touching at ``z``.
    """
    (x0, y0, _), (x1, y1, z1) = occ.bounds(solid)
    above = occ.box(x0 - 1, y0 - 1, z, x1 + 1, y1 + 1, z1 + 1)
    return occ.cut(solid, above), occ.common(solid, above)
