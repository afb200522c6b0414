"""Triangle meshes of the parts: read back from the STL the kernel wrote, welded and checked.

Units: mm, mm^2, mm^3. Meshes keep the part frame (bed face on Z = 0).

The STL is written by OpenCASCADE (``cad.occ.write_stl``) with an absolute linear deflection
(``TESSELLATION_TOLERANCE``) and an angular deflection of at most 0.1 rad: CadQuery's default
exporter uses a relative deflection that makes arcs about 6x coarser, and a coarser angle
collapses round clearances (ARCHITECTURE.md). This module reads that file back with numpy
and checks it the way a slicer will see it. It imports nothing but numpy, so it runs in the
kit's second process while the first one still builds solids; the tests
cross-check it against trimesh.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

TESSELLATION_TOLERANCE = 0.01
"""Linear deflection in mm: the largest distance between the surface and its triangles."""

ANGULAR_TOLERANCE_RAD = 0.1
"""Angular deflection in rad between neighbouring facets of a curved surface."""

_STL_RECORD = np.dtype([("normal", "<f4", 3), ("corners", "<f4", (3, 3)), ("attribute", "<u2")])


class MeshError(RuntimeError):
    """A tessellated part is not a closed, single-body mesh (a builder or mesher bug)."""


@dataclass(frozen=True, kw_only=True)
class Mesh:
    """A welded triangle mesh.

    Attributes:
        vertices: (n, 3) float64 array in mm.
        faces: (m, 3) int64 array of vertex indices, counter-clockwise seen from outside.
    """

    vertices: np.ndarray
    faces: np.ndarray

    @property
    def bounds(self) -> np.ndarray:
        """``[[xmin, ymin, zmin], [xmax, ymax, zmax]]`` in mm."""
        return np.array([self.vertices.min(axis=0), self.vertices.max(axis=0)])

    @property
    def size(self) -> tuple[float, float, float]:
        """Bounding-box size (x, y, z) in mm: what the slicer will see."""
        low, high = self.bounds
        return (float(high[0] - low[0]), float(high[1] - low[1]), float(high[2] - low[2]))

    @property
    def area(self) -> float:
        """Surface area in mm^2."""
        tri = self.vertices[self.faces]
        return float(
            np.linalg.norm(np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]), axis=1).sum() / 2
        )

    @property
    def volume(self) -> float:
        """Enclosed volume in mm^3 (divergence theorem; positive for outward normals)."""
        tri = self.vertices[self.faces]
        return float(np.einsum("ij,ij->i", tri[:, 0], np.cross(tri[:, 1], tri[:, 2])).sum() / 6)


@dataclass(frozen=True, kw_only=True)
class MeshReport:
    """What a slicer will see of a mesh.

    Attributes:
        triangles: triangle count.
        watertight: every edge shared by exactly two triangles.
        winding_consistent: every edge is used once in each direction (normals agree).
        bodies: connected components.
        volume: enclosed volume in mm^3.
    """

    triangles: int
    watertight: bool
    winding_consistent: bool
    bodies: int
    volume: float


def read_stl(path: Path) -> Mesh:
    """Read a binary STL and weld corners that are the same point.

    Raises:
        MeshError: the file is not a binary STL of the size its header announces.
    """
    data = path.read_bytes()
    count = int(np.frombuffer(data, "<u4", 1, 80)[0]) if len(data) >= 84 else -1
    if count < 0 or len(data) != 84 + count * _STL_RECORD.itemsize:
        raise MeshError(f"{path.name}: not a binary STL ({len(data)} bytes)")
    corners = np.frombuffer(data, _STL_RECORD, count, 84)["corners"].reshape(-1, 3) + np.float32(0)
    # equal points have equal bytes (+ 0 turned -0.0 into 0.0): weld on the raw bytes
    keys = np.ascontiguousarray(corners).view(np.dtype((np.void, 12))).ravel()
    _, first, index = np.unique(keys, return_index=True, return_inverse=True)
    vertices = corners[first]
    faces = index.reshape(-1, 3).astype(np.int64)
    keep = (
        (faces[:, 0] != faces[:, 1]) & (faces[:, 1] != faces[:, 2]) & (faces[:, 0] != faces[:, 2])
    )
    return Mesh(vertices=vertices.astype(np.float64), faces=faces[keep])


def stl_size(path: Path) -> tuple[float, float, float]:
    """Bounding-box size (x, y, z) in mm of a binary STL, read without welding (fast)."""
    data = path.read_bytes()
    count = int(np.frombuffer(data, "<u4", 1, 80)[0])
    corners = np.frombuffer(data, _STL_RECORD, count, 84)["corners"].reshape(-1, 3)
    low, high = corners.min(axis=0).astype(float), corners.max(axis=0).astype(float)
    return (float(high[0] - low[0]), float(high[1] - low[1]), float(high[2] - low[2]))


def report(mesh: Mesh) -> MeshReport:
    """Check ``mesh`` as a slicer would (no repair)."""
    faces = mesh.faces
    directed = np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]])
    undirected = np.sort(directed, axis=1)
    n = len(mesh.vertices)
    _, edge_uses = np.unique(undirected[:, 0] * n + undirected[:, 1], return_counts=True)
    _, direction_uses = np.unique(directed[:, 0] * n + directed[:, 1], return_counts=True)
    return MeshReport(
        triangles=len(faces),
        watertight=bool(np.all(edge_uses == 2)),
        winding_consistent=bool(np.all(direction_uses == 1)),
        bodies=_components(len(mesh.vertices), undirected),
        volume=mesh.volume,
    )


def checked(mesh: Mesh, name: str) -> Mesh:
    """Return ``mesh`` if a slicer would take it as one closed body.

    Raises:
        MeshError: not watertight, inconsistent winding, or more than one body.
    """
    r = report(mesh)
    if not (r.watertight and r.winding_consistent and r.bodies == 1):
        raise MeshError(
            f"{name}: mesh watertight={r.watertight}, winding consistent={r.winding_consistent}, "
            f"bodies={r.bodies}"
        )
    return mesh


def _components(vertex_count: int, edges: np.ndarray) -> int:
    """Connected components of the vertices used by ``edges`` (hook and pointer jumping)."""
    labels = np.arange(vertex_count)
    a, b = edges[:, 0], edges[:, 1]
    while True:
        low = np.minimum(labels[a], labels[b])
        high = np.maximum(labels[a], labels[b])
        if np.array_equal(low, high):
            break
        np.minimum.at(labels, high, low)
        while True:  # pointer jumping: every label points at its root
            jumped = labels[labels]
            if np.array_equal(jumped, labels):
                break
            labels = jumped
    used = np.unique(edges)
    return int(len(np.unique(labels[used])))
