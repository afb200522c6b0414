"""Tessellation, STL export and mesh checks.

Units: mm. Meshes keep the part frame (bed face on Z = 0).

Tessellation uses an absolute linear deflection (``TESSELLATION_TOLERANCE``) and an angular
deflection of at most 0.1 rad: CadQuery's default exporter uses a relative deflection that
makes arcs about 6x coarser, and a coarser angle collapses round clearances (ARCHITECTURE.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cadquery as cq
import numpy as np
import trimesh

TESSELLATION_TOLERANCE = 0.01
"""Linear deflection in mm: the largest distance between the surface and its triangles."""

ANGULAR_TOLERANCE_RAD = 0.1
"""Angular deflection in rad between neighbouring facets of a curved surface."""


class MeshError(RuntimeError):
    """A tessellated part is not a closed, single-body mesh (a builder or mesher bug)."""


@dataclass(frozen=True, kw_only=True)
class MeshReport:
    """What a slicer will see of a mesh.

    Attributes:
        triangles: triangle count.
        watertight: every edge shared by exactly two triangles.
        winding_consistent: normals point consistently outwards.
        bodies: connected components.
        volume: enclosed volume in mm^3.
    """

    triangles: int
    watertight: bool
    winding_consistent: bool
    bodies: int
    volume: float


def tessellate(solid: cq.Shape) -> trimesh.Trimesh:
    """Welded triangle mesh of ``solid`` (vertices on shared edges merged).

    Returns:
        A trimesh with (n, 3) vertices in mm and (m, 3) faces.
    """
    vertices, triangles = solid.tessellate(TESSELLATION_TOLERANCE, ANGULAR_TOLERANCE_RAD)
    points = np.array([v.toTuple() for v in vertices], dtype=np.float64)
    mesh = trimesh.Trimesh(points, np.array(triangles, dtype=np.int64), process=False)
    mesh.merge_vertices(digits_vertex=6)
    mesh.remove_unreferenced_vertices()
    return mesh


def report(mesh: trimesh.Trimesh) -> MeshReport:
    """Check ``mesh`` as a slicer would (no repair)."""
    return MeshReport(
        triangles=len(mesh.faces),
        watertight=bool(mesh.is_watertight),
        winding_consistent=bool(mesh.is_winding_consistent),
        bodies=int(mesh.body_count),
        volume=float(mesh.volume),
    )


def checked_mesh(solid: cq.Shape, name: str) -> trimesh.Trimesh:
    """Tessellate ``solid`` and refuse anything a slicer would not take as one closed body.

    Raises:
        MeshError: not watertight, inconsistent winding, or more than one body.
    """
    mesh = tessellate(solid)
    r = report(mesh)
    if not (r.watertight and r.winding_consistent and r.bodies == 1):
        raise MeshError(
            f"{name}: mesh watertight={r.watertight}, winding consistent={r.winding_consistent}, "
            f"bodies={r.bodies}"
        )
    return mesh


def write_stl(solid: cq.Shape, path: Path) -> None:
    """Write ``solid`` as a binary STL with the absolute tolerances of this module.

    Raises:
        OSError: the file could not be written.
    """
    ok = solid.exportStl(
        str(path), TESSELLATION_TOLERANCE, ANGULAR_TOLERANCE_RAD, ascii=False, relative=False
    )
    if not ok or not path.exists():
        raise OSError(f"could not write STL {path}")
