"""PNG previews of parts and plates, for looking before printing (matplotlib, headless).

A small painter's-algorithm projection on top of matplotlib's 2D ``PolyCollection``: back faces
are culled, the rest sorted far to near and shaded with one directional light. Units in the
input: mm; the picture is square with equal axis scales, so proportions are true.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402

VIEWS = {
    # view direction (from the eye into the scene) for each named view
    "iso": np.array([-0.55, 0.75, -0.65]),
    "top": np.array([0.0, 0.12, -1.0]),
}
_LIGHT = np.array([-0.4, -0.3, 1.0]) / np.linalg.norm([-0.4, -0.3, 1.0])


@dataclass(frozen=True, kw_only=True)
class Shaded:
    """Triangles to draw.

    Attributes:
        vertices: (n, 3) in mm, already placed in the common frame.
        faces: (m, 3) vertex indices.
        colour: ``#RRGGBB`` of the filament.
        top_colour: the filament after a colour change, or None.
        change_z: bottom of the first layer in ``top_colour`` (mm); triangles wholly above it
            are drawn in that colour, so the preview shows the engraved symbols as printed (P3).
    """

    vertices: np.ndarray
    faces: np.ndarray
    colour: str
    top_colour: str | None = None
    change_z: float = float("inf")


def render_png(
    items: Sequence[Shaded],
    path: Path,
    *,
    view: str = "iso",
    title: str = "",
    size_px: int = 900,
    bed: tuple[float, float] | None = None,
) -> None:
    """Render ``items`` into a square PNG.

    Args:
        items: meshes with their colours, in one common frame (mm).
        path: the PNG file to write.
        view: ``"iso"`` (parts) or ``"top"`` (plates, slightly tilted).
        title: caption drawn above the picture.
        size_px: width and height of the picture in pixels.
        bed: (x, y) size in mm of a print bed to draw under the items, its front-left corner
            at the origin; None draws no bed.

    Raises:
        ValueError: unknown ``view``.
    """
    if view not in VIEWS:
        raise ValueError(f"view must be one of {sorted(VIEWS)}, got {view!r}")
    forward = VIEWS[view] / np.linalg.norm(VIEWS[view])
    right = np.cross(forward, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    polygons, colours, depths = [], [], []
    for item in items:
        tri = item.vertices[item.faces]
        normals = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
        lengths = np.linalg.norm(normals, axis=1)
        keep = lengths > 1e-12
        normals[keep] /= lengths[keep, None]
        visible = keep & (normals @ forward < 0)
        tri, normals = tri[visible], normals[visible]
        base = np.tile(_rgb(item.colour), (len(tri), 1))
        if item.top_colour is not None:
            base[tri[:, :, 2].min(axis=1) > item.change_z + 1e-6] = _rgb(item.top_colour)
        light = 0.35 + 0.65 * np.clip(normals @ _LIGHT, 0, 1)
        polygons.append(np.stack([tri @ right, tri @ up], axis=2))
        colours.append(np.clip(light[:, None] * base, 0, 1))
        depths.append((tri @ forward).mean(axis=1))
    if bed is not None:
        corners = np.array(
            [[0.0, 0.0, 0.0], [bed[0], 0.0, 0.0], [bed[0], bed[1], 0.0], [0.0, bed[1], 0.0]]
        )
        plate = np.stack([corners @ right, corners @ up], axis=1)
        split = [plate[[0, 1, 2]], plate[[0, 2, 3]]]
        polygons.append(np.array(split))
        colours.append(np.array([[0.93, 0.93, 0.9]] * 2))
        depths.append(np.array([np.inf, np.inf]))  # farthest: drawn first
    all_polys = np.concatenate(polygons)
    order = np.argsort(-np.concatenate(depths))
    face_colours = np.concatenate(colours)[order]
    fig = plt.figure(figsize=(size_px / 100, size_px / 100), dpi=100)
    ax = fig.add_axes((0.02, 0.02, 0.96, 0.9))
    ax.add_collection(
        PolyCollection(
            all_polys[order],  # type: ignore[arg-type]  # an (n, 3, 2) array is a sequence of polygons
            facecolors=face_colours,
            edgecolors=face_colours,
            linewidths=0.15,
        )
    )
    lo, hi = all_polys.reshape(-1, 2).min(axis=0), all_polys.reshape(-1, 2).max(axis=0)
    centre, half = (lo + hi) / 2, (hi - lo).max() / 2 * 1.05
    ax.set_xlim(centre[0] - half, centre[0] + half)
    ax.set_ylim(centre[1] - half, centre[1] + half)
    ax.set_aspect("equal")
    ax.axis("off")
    fig.suptitle(title, fontsize=11)
    fig.savefig(path)
    plt.close(fig)


def _rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
