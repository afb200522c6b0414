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
