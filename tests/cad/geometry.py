"""Geometry helpers for the cad tests: parts built once per (scale, compensation).

The kit's builders return OpenCASCADE shapes (``cad.occ``); the tests measure them with
CadQuery's wrappers (``cq.Shape.cast``), an independent reading of the same B-rep.
"""

from __future__ import annotations

import cadquery as cq

from cad import fits, parts
from cad.design import PrintDimensions, print_dimensions
from cad.settings import PrintSettings
from games.asteroids import FragmentKind


def make_parts(dims: PrintDimensions) -> fits.PartSet:
    board = parts.board(dims)
    return fits.PartSet(
        board=board,
        board_halves=parts.board_halves(dims, board),
        fragment_hh=parts.fragment(dims, FragmentKind.HH),
        fragment_ha=parts.fragment(dims, FragmentKind.HA),
        ship=parts.ship(dims),
    )


_CACHE: dict[tuple[float, float], tuple[PrintDimensions, fits.PartSet]] = {}


def kit_parts(scale: float, compensation: float = -0.1) -> tuple[PrintDimensions, fits.PartSet]:
    key = (scale, compensation)
    if key not in _CACHE:
        dims = print_dimensions(PrintSettings(scale=scale, xy_compensation=compensation))
        _CACHE[key] = (dims, make_parts(dims))
    return _CACHE[key]


def cq_shape(shape) -> cq.Shape:
    """CadQuery's view of an OCP shape (a CadQuery shape as it is)."""
    return shape if isinstance(shape, cq.Shape) else cq.Shape.cast(shape)


def section(solid, z: float) -> list[cq.Face]:
    """Faces of the horizontal section of ``solid`` at height ``z`` (mm)."""
    plane = cq.Face.makePlane(10_000, 10_000, basePnt=cq.Vector(0, 0, z))
    return cq_shape(solid).intersect(plane).Faces()


def socket_tips(dims: PrintDimensions, half_b) -> list[float]:
    """Width (mm) of half B's socket tip beside each tab, measured on the solid.

    In the section through the rift-4 floor, the distance between half B's edges on the cut
    (its straight edges at the compensated cut line) and the edges of each socket's lock
    faces and head (the edges within the head's reach above the cut): the tip is the material
    between the two, and its narrowest is where they come closest, beside the neck.
    """
    z = (dims.board_thickness - dims.rift_depth) / 2
    cut = dims.split_cut_y - dims.xy_compensation
    edges = [edge for face in section(half_b, z) for edge in face.Edges()]

    def on_cut(edge: cq.Edge) -> bool:
        box = edge.BoundingBox()
        return box.ylen < 1e-3 and abs(box.ymin - cut) < 1e-3

    cut_edges = [edge for edge in edges if on_cut(edge)]
    reach = dims.split_tab_head_diameter / 2 - dims.xy_compensation + 0.01
    tips = []
    for k in range(dims.split_joint_tabs):
        x = dims.board_length * ((k + 0.5) / dims.split_joint_tabs - 0.5)
        socket = [
            edge
            for edge in edges
            if not on_cut(edge)
            and edge.BoundingBox().xlen > 1e-3  # not a side of the neck
            and x - reach < edge.BoundingBox().xmin
            and edge.BoundingBox().xmax < x + reach
            and edge.BoundingBox().ymin > cut - 1e-3
        ]
        assert socket and cut_edges, f"no socket found beside tab {k}"
        tips.append(min(a.distance(b) for a in socket for b in cut_edges))
    return tips
