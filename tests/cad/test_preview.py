"""Previews a person would share (issue 11, point 3), checked pixel by pixel."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from cad import preview

GREY, WHITE, BLACK = "#8C8C8C", "#F2F2F2", "#1A1A1A"


def _box(size: float, height: float, slivers: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A closed box; with ``slivers``, its top is a fan of that many long thin triangles (the
    kind a CAD tessellation gives a face with holes), which must not show."""
    v = [[x, y, z] for z in (0, height) for y in (0, size) for x in (0, size)]
    faces = [[0, 2, 3], [0, 3, 1], [0, 1, 5], [0, 5, 4], [1, 3, 7], [1, 7, 5],
             [3, 2, 6], [3, 6, 7], [2, 0, 4], [2, 4, 6]]  # fmt: skip
    if not slivers:
        faces += [[4, 5, 7], [4, 7, 6]]
    else:  # fan from corner 4 to points along the edges 5-7 and 7-6
        rim = [[size, size * k / slivers, height] for k in range(1, slivers)]
        rim += [[size * (1 - k / slivers), size, height] for k in range(1, slivers)]
        first = len(v)
        v += rim
        chain = [5, *range(first, first + slivers - 1), 7, *range(first + slivers - 1, len(v)), 6]
        faces += [[4, a, b] for a, b in zip(chain, chain[1:])]
    return np.array(v, float), np.array(faces)


def _render(tmp_path: Path, items, **options) -> np.ndarray:
    path = tmp_path / "p.png"
    preview.render_png(items, path, size_px=300, **options)
    return np.asarray(Image.open(path).convert("RGB")).astype(int)[64:]  # below the caption


def _object_pixels(picture: np.ndarray) -> np.ndarray:
    background = np.array([int(v * 255 + 0.5) for v in preview._BACKGROUND])
    return picture[np.abs(picture - background).sum(axis=2) > 6]


def test_a_flat_face_of_sliver_triangles_is_one_even_colour(tmp_path: Path) -> None:
    vertices, faces = _box(40, 0.01 * 40, slivers=120)
    picture = _render(
        tmp_path, [preview.Shaded(vertices=vertices, faces=faces, colour=GREY)], view="top"
    )
    pixels = _object_pixels(picture)
    colours, counts = np.unique(pixels, axis=0, return_counts=True)
    # the top face is one colour: no seams along the 120 triangle edges; the rest is the
    # drawn outline and its anti-aliasing
    assert counts.max() / len(pixels) > 0.9


def test_edges_are_drawn_where_faces_fold(tmp_path: Path) -> None:
    vertices, faces = _box(20, 20)
    picture = _render(tmp_path, [preview.Shaded(vertices=vertices, faces=faces, colour=WHITE)])
    pixels = _object_pixels(picture)
    luminance = pixels @ [0.299, 0.587, 0.114]
    faces_seen = np.unique(np.round(luminance[luminance > 120]), return_counts=True)
    assert (faces_seen[1] > 500).sum() >= 3  # three lit faces of a cube
    assert (luminance < 100).sum() > 300  # and dark edge lines between them


def test_everything_above_the_colour_change_is_in_the_symbol_colour(tmp_path: Path) -> None:
    vertices, faces = _box(20, 20)
    one = _render(tmp_path, [preview.Shaded(vertices=vertices, faces=faces, colour="#2E64C8")])
    two = _render(
        tmp_path,
        [
            preview.Shaded(
                vertices=vertices, faces=faces, colour="#2E64C8", top_colour=WHITE, change_z=10
            )
        ],
    )

    def whitish(picture: np.ndarray) -> int:
        pixels = _object_pixels(picture)
        return int(((pixels.max(axis=1) > 60) & (np.ptp(pixels, axis=1) < 30)).sum())

    assert whitish(one) < 0.02 * len(_object_pixels(one))  # anti-aliased outline only
    # the top and the upper half of the sides: well over a third of the cube
    assert whitish(two) > 0.35 * len(_object_pixels(two))


def test_dark_filament_stays_readable(tmp_path: Path) -> None:
    vertices, faces = _box(20, 20)
    picture = _render(tmp_path, [preview.Shaded(vertices=vertices, faces=faces, colour=BLACK)])
    luminance = _object_pixels(picture) @ [0.299, 0.587, 0.114]
    levels, counts = np.unique(np.round(luminance), return_counts=True)
    faces_seen = sorted(levels[counts > 500])
    assert len(faces_seen) >= 3 and faces_seen[-1] - faces_seen[0] >= 15  # the faces differ
    assert luminance.max() > faces_seen[-1] + 40  # light edge lines on black


def test_a_plate_shows_the_bed_with_its_grid_in_the_chosen_colour(tmp_path: Path) -> None:
    vertices, faces = _box(20, 5)
    items = [
        preview.Shaded(vertices=vertices + [x, 40, 0], faces=faces, colour="#C0392B")
        for x in (20, 60)
    ]
    picture = _render(tmp_path, items, view="top", bed=(100, 100))
    flat = picture.reshape(-1, 3)
    bed = np.array([int(v * 255 + 0.5) for v in preview._BED])
    grid = np.array([int(v * 255 + 0.5) for v in preview._BED_GRID])
    assert (np.abs(flat - bed).sum(axis=1) <= 3).sum() > 20_000
    assert (np.abs(flat - grid).sum(axis=1) <= 12).sum() > 500
    red = (flat[:, 0] > flat[:, 1] + 60) & (flat[:, 0] > flat[:, 2] + 60)
    assert red.sum() > 2_000  # both parts, in the plate's colour


def test_an_unknown_view_is_refused(tmp_path: Path) -> None:
    vertices, faces = _box(1, 1)
    with pytest.raises(ValueError, match="view must be one of"):
        preview.render_png(
            [preview.Shaded(vertices=vertices, faces=faces, colour=GREY)],
            tmp_path / "x.png",
            view="side",
        )


def test_a_long_title_is_drawn_whole_inside_the_picture(tmp_path: Path) -> None:
    """Issue 30: the MINI fragment plate's title ran off both edges of its 900 px preview."""
    vertices, faces = _box(10, 2)
    title = (
        "plate-3-fragments: 14 x fragment-HH, 14 x fragment-HA on Prusa MINI, Bambu A1 mini "
        "(180 x 180 mm)"
    )
    path = tmp_path / "title.png"
    preview.render_png(
        [preview.Shaded(vertices=vertices, faces=faces, colour=GREY)],
        path,
        view="top",
        title=title,
        legend=[(GREY, "grey below"), (WHITE, "white: change filament at 3.2 mm (layer 16)")],
        size_px=900,
    )
    for rows in (slice(0, 34), slice(34, 60)):  # the title's line, the legend's
        ink = np.asarray(Image.open(path).convert("L")).astype(int)[rows] < 128
        assert ink.sum() > 300  # drawn
        columns = np.flatnonzero(ink.any(axis=0))
        assert columns[0] >= 12 and columns[-1] < 900 - 12, (columns[0], columns[-1])
