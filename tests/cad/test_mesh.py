"""The numpy mesh checks of the helper process, cross-checked with trimesh."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest
import trimesh

from cad import mesh, occ, parts
from cad.design import print_dimensions
from cad.settings import PrintSettings


def _write_stl(path: Path, vertices: np.ndarray, faces: np.ndarray) -> None:
    tri = vertices[faces].astype(np.float32)
    with path.open("wb") as handle:
        handle.write(b"\0" * 80 + struct.pack("<I", len(tri)))
        for corners in tri:
            handle.write(struct.pack("<3f", 0, 0, 0) + corners.tobytes() + b"\0\0")


CUBE_V = np.array([[x, y, z] for x in (0, 10) for y in (0, 10) for z in (0, 10)], float)
CUBE_F = np.array(
    [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
     [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]]
)  # fmt: skip


def test_the_kernels_stl_reads_back_as_trimesh_reads_it(tmp_path: Path) -> None:
    dims = print_dimensions(PrintSettings(scale=0.8))
    solid = parts.ship(dims)
    path = tmp_path / "ship.stl"
    occ.write_stl(solid, path, mesh.TESSELLATION_TOLERANCE, mesh.ANGULAR_TOLERANCE_RAD)
    ours = mesh.read_stl(path)
    theirs = trimesh.load(path, process=False)
    theirs.merge_vertices()
    report = mesh.report(ours)
    assert (report.watertight, report.winding_consistent, report.bodies) == (True, True, 1)
    assert len(ours.vertices) == len(theirs.vertices) and len(ours.faces) == len(theirs.faces)
    assert ours.volume == pytest.approx(theirs.volume, rel=1e-9)
    assert ours.area == pytest.approx(theirs.area, rel=1e-9)
    assert ours.volume == pytest.approx(occ.volume(solid), rel=0.002)
    assert mesh.stl_size(path) == pytest.approx(ours.size)


def test_a_cube_is_one_closed_body_of_1000_mm3(tmp_path: Path) -> None:
    _write_stl(tmp_path / "cube.stl", CUBE_V, CUBE_F)
    cube = mesh.read_stl(tmp_path / "cube.stl")
    assert mesh.checked(cube, "cube") is cube
    assert cube.volume == pytest.approx(1000) and cube.area == pytest.approx(600)


@pytest.mark.parametrize(
    ("faces", "vertices", "problem"),
    [
        (CUBE_F[:-1], CUBE_V, "watertight=False"),
        (np.vstack([CUBE_F[:-1], CUBE_F[-1:, ::-1]]), CUBE_V, "winding consistent=False"),
        (np.vstack([CUBE_F, CUBE_F + 8]), np.vstack([CUBE_V, CUBE_V + 20]), "bodies=2"),
    ],
    ids=["hole", "flipped", "two bodies"],
)
def test_what_a_slicer_would_refuse_is_refused(tmp_path: Path, faces, vertices, problem) -> None:
    _write_stl(tmp_path / "bad.stl", vertices, faces)
    with pytest.raises(mesh.MeshError, match=problem):
        mesh.checked(mesh.read_stl(tmp_path / "bad.stl"), "bad")


def test_a_truncated_file_is_not_an_stl(tmp_path: Path) -> None:
    _write_stl(tmp_path / "cut.stl", CUBE_V, CUBE_F)
    data = (tmp_path / "cut.stl").read_bytes()
    (tmp_path / "cut.stl").write_bytes(data[:-10])
    with pytest.raises(mesh.MeshError, match="not a binary STL"):
        mesh.read_stl(tmp_path / "cut.stl")
