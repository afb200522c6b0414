"""The print-time and filament model (``cad.estimate``) on meshes measured by hand; its check
against PrusaSlicer on the kit's own plates is ``test_slicer_estimate.py``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cad import estimate


def _box(x: float, y: float, z: float, hole: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A closed box x * y * z on Z = 0 (mm), with a square through-hole of side ``hole`` in the
    middle; faces counter-clockwise seen from outside."""
    a, b = (x - hole) / 2, (y - hole) / 2
    rings = [[(0, 0), (x, 0), (x, y), (0, y)]]
    rings += [[(a, b), (a + hole, b), (a + hole, b + hole), (a, b + hole)]] if hole else []
    vertices = [(px, py, pz) for ring in rings for pz in (0.0, z) for px, py in ring]
    faces = []
    for r in range(len(rings)):  # walls: bottom i, j and top i, j of every edge
        for i in range(4):
            bi, bj, ti, tj = 8 * r + i, 8 * r + (i + 1) % 4, 8 * r + 4 + i, 8 * r + 4 + (i + 1) % 4
            faces += [(bi, bj, tj), (bi, tj, ti)] if r == 0 else [(bi, tj, bj), (bi, ti, tj)]
    if not hole:
        return np.array(vertices), np.array(faces + [(0, 2, 1), (0, 3, 2), (4, 5, 6), (4, 6, 7)])
    for i in range(4):  # the floor and the roof between the two rings
        j = (i + 1) % 4
        faces += [(i, 8 + i, 8 + j), (i, 8 + j, j), (4 + i, 4 + j, 12 + j), (4 + i, 12 + j, 12 + i)]
    return np.array(vertices), np.array(faces)


def test_sections_measure_every_contour_of_every_layer() -> None:
    vertices, faces = _box(20.0, 10.0, 2.0)
    sections = estimate.layer_sections(vertices, faces, 0.2)
    assert len(sections) == 10
    for section in sections:
        assert section.lengths.tolist() == pytest.approx([60.0])
        assert section.areas.tolist() == pytest.approx([200.0])
    vertices, faces = _box(20.0, 20.0, 1.0, hole=8.0)
    section = estimate.layer_sections(vertices, faces, 0.25)[2]
    assert sorted(section.lengths.tolist()) == pytest.approx([32.0, 80.0])
    assert sorted(section.areas.tolist()) == pytest.approx([-64.0, 400.0])
    assert section.area == pytest.approx(336.0)


def test_a_plain_box_gets_shells_bridge_and_sparse_infill_as_the_slicer_lays_them() -> None:
    """20 x 20 x 2 mm at 0.2 mm: 10 layers of three perimeters; layers 1-3 bottom and 9-10
    top solid, layer 8 a bridge over the sparse 20 % infill of layers 4-7 (worked by hand)."""
    vertices, faces = _box(20.0, 20.0, 2.0)
    part = estimate.estimate_part(estimate.layer_sections(vertices, faces, 0.2), 0.2)
    spacing = 0.45 - 0.2 * (1 - math.pi / 4)  # 0.407 mm
    loops = sum(80 - 2 * math.pi * (spacing / 2 + k * spacing) for k in range(3))  # 228.5 mm
    band = loops * spacing  # 93.0 mm^2 of perimeters a layer
    inner = 400 - band
    bridge = math.pi * 0.4**2 / 4 / 0.45  # mm^3 per mm^2: round 0.4 mm threads 0.45 apart
    sparse = 0.2 * inner + 0.25 * 80 * spacing  # 20 % and the anchors along the contour
    expected = 10 * band * 0.2 + 5 * inner * 0.2 + inner * bridge + 4 * sparse * 0.2
    assert expected == pytest.approx(634.4, abs=0.1)
    assert part.volume_mm3 == pytest.approx(expected, rel=1e-6)
    assert part.grams == pytest.approx(expected * 1.24e-3)
    assert len(part.layer_times_s) == 10
    # the solid layers print at 15-20 mm/s, the sparse ones at 80: much faster
    times = part.layer_times_s
    assert min(times[:3] + times[7:]) > 2 * max(times[3:7])


def test_a_plate_layer_takes_at_least_the_slicers_cooling_time() -> None:
    vertices, faces = _box(3.0, 3.0, 1.0)
    part = estimate.estimate_part(estimate.layer_sections(vertices, faces, 0.2), 0.2)
    assert max(part.layer_times_s) < 5.0
    assert estimate.plate_time([(part, 1)]) == pytest.approx(5 * 5.0)
    big = estimate.estimate_part(estimate.layer_sections(*_box(30.0, 30.0, 1.0), 0.2), 0.2)
    assert estimate.plate_time([(big, 2)]) == pytest.approx(2 * big.time_s)


@pytest.mark.parametrize(
    ("seconds", "words"), [(3900, "1 h 05 min"), (2700, "45 min"), (79_170, "22 h 00 min")]
)
def test_durations_are_hours_and_minutes(seconds: float, words: str) -> None:
    assert estimate.duration_words(seconds) == words
