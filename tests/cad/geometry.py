"""Geometry helpers for the cad tests: parts built once per (scale, compensation)."""

from __future__ import annotations

import cadquery as cq

from cad import fits, parts
from cad.design import PrintDimensions, print_dimensions
from cad.settings import PrintSettings
from games.asteroids import FragmentKind


def make_parts(dims: PrintDimensions) -> fits.PartSet:
    return fits.PartSet(
        board=parts.board(dims),
        board_halves=parts.board_halves(dims),
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


def section(solid: cq.Shape, z: float) -> list[cq.Face]:
    """Faces of the horizontal section of ``solid`` at height ``z`` (mm)."""
    plane = cq.Face.makePlane(10_000, 10_000, basePnt=cq.Vector(0, 0, z))
    return solid.intersect(plane).Faces()
