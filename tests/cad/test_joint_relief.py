"""First-layer relief at every edge where the board halves meet (issue 30, point 2).

The plates print with the slicer's elephant-foot compensation off, so the squashed first layer
bulges outward by a few tenths of a millimetre. Fragments and ships carry a 45-degree bottom
chamfer against it; the joint of the split board (the cut, the tabs and their sockets) must
too, or the first layers of the two halves meet inside the 0.2 mm of play and bind.

Measured in the mesh, as a slicer sees it: each half is meshed with the kit's tolerances and
cut by two horizontal planes with trimesh (an independent reader), one in the middle of the
first layer and one above the relief. A mating edge is a stretch of a half's upper outline
that lies within 0.5 mm of the other half's upper outline; at every such point the first
layer's outline must lie ``joint_relief - layer/2`` further in.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import trimesh

from cad import mesh, occ
from cad.design import print_dimensions
from cad.parts import board_halves
from cad.settings import PrintSettings

pytestmark = pytest.mark.slow


def outline(stl: Path, z: float) -> np.ndarray:
    """The segments (n x 2 x 2, mm) where the plane at height ``z`` cuts the mesh."""
    part = trimesh.load_mesh(stl)
    segments = trimesh.intersections.mesh_plane(part, [0, 0, 1], [0, 0, z])
    return segments[:, :, :2]


def distances(points: np.ndarray, segments: np.ndarray) -> np.ndarray:
    """The distance (mm) from each point (m x 2) to the nearest of ``segments`` (n x 2 x 2)."""
    a, b = segments[:, 0], segments[:, 1]
    ab = b - a
    length2 = np.maximum((ab**2).sum(axis=1), 1e-12)
    nearest = np.full(len(points), np.inf)
    for start in range(0, len(points), 256):
        p = points[start : start + 256, None, :]
        t = np.clip(((p - a) * ab).sum(axis=2) / length2, 0.0, 1.0)
        gap = np.linalg.norm(p - (a + t[..., None] * ab), axis=2)
        nearest[start : start + 256] = gap.min(axis=1)
    return nearest


def samples(segments: np.ndarray, step: float = 0.25) -> np.ndarray:
    """Points every ``step`` mm or closer along each segment (ends included)."""
    points = []
    for a, b in segments:
        n = max(1, int(np.ceil(np.linalg.norm(b - a) / step)))
        points.append(a + np.linspace(0.0, 1.0, n + 1)[:, None] * (b - a))
    return np.concatenate(points)


@pytest.mark.parametrize("scale", [1.0, 0.8])
def test_every_mating_bottom_edge_of_the_board_halves_is_relieved(scale: float, tmp_path) -> None:
    dims = print_dimensions(PrintSettings(scale=scale))
    layer = dims.layer_height
    halves = dict(zip("ab", board_halves(dims)))
    files = {}
    for name, solid in halves.items():
        files[name] = tmp_path / f"half-{name}.stl"
        occ.write_stl(solid, files[name], mesh.TESSELLATION_TOLERANCE, mesh.ANGULAR_TOLERANCE_RAD)
    above = dims.joint_relief + 2 * layer  # clear of the chamfer
    upper = {name: outline(path, above) for name, path in files.items()}
    first = {name: outline(path, layer / 2) for name, path in files.items()}
    wanted = dims.joint_relief - layer / 2
    assert wanted >= 0.15, f"a relief of {wanted:.3f} mm would not take an elephant foot"
    for name, other in (("a", "b"), ("b", "a")):
        points = samples(upper[name])
        mating = points[distances(points, upper[other]) < 0.5]
        # the cut runs the whole board length, and every tab adds its outline
        extent = mating[:, 0].max() - mating[:, 0].min()
        assert extent > 0.98 * dims.board_length, f"half {name}: mating edges span {extent:.1f}"
        assert len(mating) > 4 * dims.board_length, f"half {name}: {len(mating)} mating points"
        relief = distances(mating, first[name])
        assert relief.min() >= wanted - 0.02, (
            f"half {name} at scale {scale:g}: first-layer relief {relief.min():.3f} mm at "
            f"{mating[relief.argmin()].round(2).tolist()}, wanted {wanted:.3f} mm"
        )
    # the joint walls keep the minimum in the first layer (the relief is capped for them)
    walls = dims.walls()
    for name in ("neck of a board-half tab", "socket tip of a board-half tab"):
        assert walls[f"{name}, in the first layer"] >= dims.min_wall - 1e-9
        assert walls[f"{name}, in the first layer"] < walls[name]
