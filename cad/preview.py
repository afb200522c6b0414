"""PNG previews of parts and plates: a small z-buffer renderer on numpy, text and PNG by Pillow.

Units in the input: mm. The projection is orthographic, so proportions are true. What a
picture shows:

- smooth shading: corner normals are averaged over the faces around a vertex that meet at less
  than ``CREASE_DEG``, so tessellated round surfaces look round and flat faces stay flat;
- edges: drawn where the surface folds by more than ``CREASE_DEG``, at silhouettes and between
  parts, found in the picture itself (depth and normal buffers), so hidden edges never show;
- colours as printed: every pixel knows its height, so everything above the colour change
  (``Shaded.change_z``) is drawn in the symbol colour, pocket walls included, and the engraved
  symbols show in the body colour beneath, exactly as the last layer prints;
- dark filament stays readable: dark colours are lifted a little and get light edge lines.

The picture is rendered at ``SUPERSAMPLE`` times its size and scaled down (anti-aliasing).
Rasterising is vectorised: each triangle is cut into pixel rows, each row into a pixel span,
and a pixel keeps the nearest triangle (``np.minimum.at``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

CREASE_DEG = 30.0
"""Faces meeting at a larger angle get a drawn edge and are not smoothed into each other."""

SUPERSAMPLE = 1.25
"""Render at this multiple of the picture size, then scale down (box filter: anti-aliasing).
Side by side, 1.25 looks like 2 for these pictures at a fraction of the work."""

VIEWS = {
    # view direction (from the eye into the scene) for each named view
    "iso": np.array([-0.55, 0.75, -0.65]),
    "top": np.array([0.0, 0.35, -1.0]),
}
_KEY_LIGHT = np.array([-0.45, -0.35, 1.0]) / np.linalg.norm([-0.45, -0.35, 1.0])
_FILL_LIGHT = np.array([0.6, 0.2, 0.5]) / np.linalg.norm([0.6, 0.2, 0.5])
_BACKGROUND = np.array([0.97, 0.97, 0.96])
_BED = np.array([0.80, 0.81, 0.82])
_BED_GRID = np.array([0.72, 0.73, 0.75])
_TITLE_PX = 64
"""Height of the caption band above the picture (final pixels)."""
_CAPTION_MARGIN_PX = 12
"""Pixels kept free at either side of the caption's text."""


@dataclass(frozen=True, kw_only=True)
class Shaded:
    """Triangles to draw.

    Attributes:
        vertices: (n, 3) in mm, already placed in the common frame.
        faces: (m, 3) vertex indices, counter-clockwise seen from outside.
        colour: ``#RRGGBB`` of the filament.
        top_colour: the filament after a colour change, or None.
        change_z: bottom of the first layer in ``top_colour`` (mm): every surface above it is
            drawn in that colour (P3).
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
    legend: Sequence[tuple[str, str]] = (),
    size_px: int = 900,
    bed: tuple[float, float] | None = None,
) -> None:
    """Render ``items`` into a square PNG.

    Args:
        items: meshes with their colours, in one common frame (mm).
        path: the PNG file to write.
        view: ``"iso"`` (parts) or ``"top"`` (plates, tilted so that heights show).
        title: caption drawn above the picture.
        legend: ``(colour, words)`` pairs drawn as swatches under the title.
        size_px: width and height of the picture in pixels.
        bed: (x, y) size in mm of a print bed to draw under the items, its front-left corner
            at the origin, with a 10 mm grid; None draws no bed.

    Raises:
        ValueError: unknown ``view`` or nothing to draw.
    """
    picture = render_image(items, view=view, size=(size_px, size_px - _TITLE_PX), bed=bed)
    image = Image.new("RGB", (size_px, size_px), tuple(int(v * 255) for v in _BACKGROUND))
    image.paste(picture, (0, _TITLE_PX))
    _caption(image, title, legend)
    image.save(path, format="PNG", compress_level=1)


def render_image(
    items: Sequence[Shaded],
    *,
    view: str = "iso",
    size: tuple[int, int] = (512, 512),
    bed: tuple[float, float] | None = None,
    transparent: bool = False,
) -> Image.Image:
    """Render ``items`` into a picture without a caption (see ``render_png``).

    Args:
        items: meshes with their colours, in one common frame (mm).
        view: ``"iso"`` or ``"top"``.
        size: (width, height) in pixels.
        bed: as in ``render_png``.
        transparent: an RGBA picture whose background is transparent (the items' edges
            anti-aliased); else RGB on the preview's background.

    Raises:
        ValueError: unknown ``view`` or nothing to draw.
    """
    if view not in VIEWS:
        raise ValueError(f"view must be one of {sorted(VIEWS)}, got {view!r}")
    if not items:
        raise ValueError("nothing to draw")
    camera = _Camera(VIEWS[view])
    scene = _Scene.collect(items)
    width, height = round(size[0] * SUPERSAMPLE), round(size[1] * SUPERSAMPLE)
    points = scene.corners.reshape(-1, 3)
    if bed is not None:
        points = np.concatenate([points, [[0, 0, 0], [bed[0], 0, 0], [0, bed[1], 0], [*bed, 0]]])
    view_port = camera.fit(points, width, height)
    buffers = _rasterise(scene, camera, view_port, width, height)
    picture = Image.fromarray(_shade(scene, camera, view_port, buffers, bed))
    if transparent:
        covered = ((buffers.triangle >= 0) * 255).astype(np.uint8)
        picture.putalpha(Image.fromarray(covered))
    return picture.resize(size, Image.Resampling.BOX)


@dataclass(frozen=True)
class _ViewPort:
    """Picture pixels per mm and the offset: pixel = (x, -y) * scale + offset."""

    scale: float
    offset: np.ndarray


class _Camera:
    """An orthographic camera looking along ``forward``; Z is up in the picture."""

    def __init__(self, direction: np.ndarray) -> None:
        self.forward = direction / np.linalg.norm(direction)
        right = np.cross(self.forward, [0.0, 0.0, 1.0])
        self.right = right / np.linalg.norm(right)
        self.up = np.cross(self.right, self.forward)

    def project(self, points: np.ndarray) -> np.ndarray:
        """(n, 3) mm -> (n, 3): picture x, picture y (up), depth (away from the eye)."""
        return np.stack([points @ self.right, points @ self.up, points @ self.forward], axis=1)

    def fit(self, points: np.ndarray, width: int, height: int) -> _ViewPort:
        """The view port that centres ``points`` in a ``width`` x ``height`` picture (4 % margin)."""
        flat = self.project(points)[:, :2]
        low, high = flat.min(axis=0), flat.max(axis=0)
        extent = np.maximum(high - low, 1e-6)
        scale = 0.92 * min(width / extent[0], height / extent[1])
        centre = (low + high) / 2
        return _ViewPort(float(scale), np.array([width / 2, height / 2]) - centre * [scale, -scale])


@dataclass(frozen=True)
class _Scene:
    """All triangles of a picture, flattened, with what each one needs for shading."""

    corners: np.ndarray  # (t, 3, 3) mm
    corner_normals: np.ndarray  # (t, 3, 3) unit, smoothed
    face_normals: np.ndarray  # (t, 3) unit
    palette: np.ndarray  # (k, 3) rgb
    body: np.ndarray  # (t,) palette index of the body colour
    top: np.ndarray  # (t,) palette index above the colour change
    change_z: np.ndarray  # (t,)
    owner: np.ndarray  # (t,) item index

    @classmethod
    def collect(cls, items: Sequence[Shaded]) -> _Scene:
        corners, normals, flat, body, top, change, owner = [], [], [], [], [], [], []
        colours: dict[str, int] = {}
        smoothed: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for index, item in enumerate(items):
            tri = item.vertices[item.faces]
            face_n, corner_n = _normals(tri, item.faces, smoothed.get(id(item.faces)))
            smoothed.setdefault(id(item.faces), (face_n, corner_n))
            count = len(tri)
            corners.append(tri)
            normals.append(corner_n)
            flat.append(face_n)
            body.append(np.full(count, colours.setdefault(item.colour, len(colours))))
            upper = item.top_colour or item.colour
            top.append(np.full(count, colours.setdefault(upper, len(colours))))
            change.append(np.full(count, item.change_z if item.top_colour else np.inf))
            owner.append(np.full(count, index))
        return cls(
            np.concatenate(corners),
            np.concatenate(normals).astype(np.float32),
            np.concatenate(flat),
            np.array([_rgb(c) for c in colours], dtype=np.float32),
            np.concatenate(body),
            np.concatenate(top),
            np.concatenate(change).astype(np.float32),
            np.concatenate(owner),
        )


def _normals(
    tri: np.ndarray, faces: np.ndarray, cached: tuple[np.ndarray, np.ndarray] | None
) -> tuple[np.ndarray, np.ndarray]:
    """Unit face normals (t, 3) and crease-aware smoothed corner normals (t, 3, 3).

    A corner's normal is the area-weighted mean of the normals of the faces around its vertex
    that differ from its own face's normal by less than ``CREASE_DEG``.
    """
    cross = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    area2 = np.linalg.norm(cross, axis=1)
    face_n = cross / np.maximum(area2, 1e-12)[:, None]
    if cached is not None:  # the same mesh again (a plate): reuse its normals, turned
        for quarter in range(4):
            angle = quarter * math.pi / 2
            cos, sin = round(math.cos(angle)), round(math.sin(angle))
            turn = np.array([[cos, -sin, 0], [sin, cos, 0], [0, 0, 1]], dtype=float)
            if np.allclose(cached[0] @ turn.T, face_n, atol=1e-6):
                return face_n, cached[1] if quarter == 0 else cached[1] @ turn.T
    corner_vertex = faces.ravel()
    corner_face = np.repeat(np.arange(len(faces)), 3)
    order = np.argsort(corner_vertex, kind="stable")
    sorted_vertex = corner_vertex[order]
    starts = np.flatnonzero(np.r_[True, sorted_vertex[1:] != sorted_vertex[:-1]])
    sizes = np.diff(np.r_[starts, len(order)])
    group_size = np.repeat(sizes, sizes)
    # every pair (corner i, corner j) around the same vertex
    first = np.repeat(np.arange(len(order)), group_size)
    second = np.repeat(np.repeat(starts, sizes), group_size) + _ramps(group_size)
    fi, fj = corner_face[order[first]], corner_face[order[second]]
    agree = np.einsum("ij,ij->i", face_n[fi], face_n[fj]) > math.cos(math.radians(CREASE_DEG))
    weight = area2[fj] * agree
    summed = np.stack(
        [
            np.bincount(first, weights=weight * face_n[fj, k], minlength=len(order))
            for k in range(3)
        ],
        axis=1,
    )
    corner_n = np.empty(summed.shape, dtype=np.float64)
    corner_n[order] = summed
    corner_n /= np.maximum(np.linalg.norm(corner_n, axis=1), 1e-12)[:, None]
    return face_n, corner_n.reshape(-1, 3, 3)


@dataclass(frozen=True)
class _Buffers:
    """What the rasteriser leaves: per pixel the nearest triangle and its depth, and per
    triangle the planes over the picture of its depth, normal and height."""

    triangle: np.ndarray  # (h, w) int, -1 where empty
    depth: np.ndarray  # (h, w) float32, inf where empty
    planes: np.ndarray  # (t, 2, 3) float32: (a, b, c) of world z and depth
    x: np.ndarray  # (t, 3) picture coordinates of the corners (pixels)
    y: np.ndarray
    area: np.ndarray  # (t,) twice the signed picture area


def _rasterise(
    scene: _Scene, camera: _Camera, view_port: _ViewPort, width: int, height: int
) -> _Buffers:
    """Scan-convert every front-facing triangle; each pixel keeps the nearest one."""
    projected = camera.project(scene.corners.reshape(-1, 3)).reshape(-1, 3, 3)
    x = projected[:, :, 0] * view_port.scale + view_port.offset[0]
    y = -projected[:, :, 1] * view_port.scale + view_port.offset[1]
    area = (x[:, 1] - x[:, 0]) * (y[:, 2] - y[:, 0]) - (x[:, 2] - x[:, 0]) * (y[:, 1] - y[:, 0])
    facing = scene.face_normals @ camera.forward < 0
    keep = np.flatnonzero(facing & (np.abs(area) > 1e-9))
    values = np.stack([scene.corners[:, :, 2], projected[:, :, 2]], axis=1)  # (t, 2, 3)
    planes = np.zeros((len(scene.corners), 2, 3), dtype=np.float32)
    planes[keep] = _planes(x[keep], y[keep], area[keep], values[keep])
    all_x, all_y = x, y
    x, y = x[keep], y[keep]
    # rows: pixel centres at row + 0.5
    row0 = np.clip(np.ceil(y.min(axis=1) - 0.5), 0, height).astype(np.int64)
    row1 = np.clip(np.floor(y.max(axis=1) - 0.5), -1, height - 1).astype(np.int64)
    rows = np.maximum(row1 - row0 + 1, 0)
    tri_of_row = np.repeat(np.arange(len(keep)), rows)
    row = np.repeat(row0, rows) + _ramps(rows)
    yc = row + 0.5
    left = np.full(len(row), np.inf)
    right = np.full(len(row), -np.inf)
    for i, j in ((0, 1), (1, 2), (2, 0)):
        ya, yb = y[tri_of_row, i], y[tri_of_row, j]
        xa, xb = x[tri_of_row, i], x[tri_of_row, j]
        crosses = (np.minimum(ya, yb) <= yc) & (yc <= np.maximum(ya, yb)) & (ya != yb)
        xe = xa + (yc - ya) * (xb - xa) / np.where(ya != yb, yb - ya, 1.0)
        left = np.where(crosses, np.minimum(left, xe), left)
        right = np.where(crosses, np.maximum(right, xe), right)
    col0 = np.clip(np.ceil(left - 0.5), 0, width).astype(np.int64)
    col1 = np.clip(np.floor(right - 0.5), -1, width - 1).astype(np.int64)
    cols = np.maximum(col1 - col0 + 1, 0)
    # depth is linear along a span: its start and slope, then one multiply-add per pixel
    span_tri = keep[tri_of_row]
    depth_plane = planes[span_tri, 1]
    slope = depth_plane[:, 0]
    start = (slope * (col0 + 0.5) + depth_plane[:, 1] * (row + 0.5) + depth_plane[:, 2]).astype(
        np.float32
    )
    step = _ramps(cols)
    tri = np.repeat(span_tri.astype(np.int32), cols)
    flat = np.repeat(row * width + col0, cols) + step
    z = np.repeat(start, cols) + np.repeat(slope, cols) * step.astype(np.float32)
    nearest = np.full(width * height, np.inf, dtype=np.float32)
    np.minimum.at(nearest, flat, z)
    won = z <= nearest[flat]
    owner = np.full(width * height, -1, dtype=np.int32)
    owner[flat[won]] = tri[won]
    return _Buffers(
        owner.reshape(height, width), nearest.reshape(height, width), planes, all_x, all_y, area
    )


def _planes(x: np.ndarray, y: np.ndarray, area: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Coefficients (a, b, c) with value = a px + b py + c over each triangle's picture.

    Args:
        x, y: (t, 3) picture coordinates of the corners.
        area: (t,) twice the signed picture area.
        values: (t, k, 3) attributes at the corners.

    Returns:
        (t, k, 3) float32.
    """
    dx1, dx2 = (x[:, 1] - x[:, 0])[:, None], (x[:, 2] - x[:, 0])[:, None]
    dy1, dy2 = (y[:, 1] - y[:, 0])[:, None], (y[:, 2] - y[:, 0])[:, None]
    v0 = values[:, :, 0]
    dv1, dv2 = values[:, :, 1] - v0, values[:, :, 2] - v0
    a = (dv1 * dy2 - dv2 * dy1) / area[:, None]
    b = (dx1 * dv2 - dx2 * dv1) / area[:, None]
    c = v0 - a * x[:, :1] - b * y[:, :1]
    return np.stack([a, b, c], axis=2).astype(np.float32)


def _at(planes: np.ndarray, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """Evaluate planes (n, 3) or (n, k, 3) at picture points (n,)."""
    px, py = px.astype(np.float32), py.astype(np.float32)
    if planes.ndim == 2:
        return planes[:, 0] * px + planes[:, 1] * py + planes[:, 2]
    return planes[:, :, 0] * px[:, None] + planes[:, :, 1] * py[:, None] + planes[:, :, 2]


def _ramps(lengths: np.ndarray) -> np.ndarray:
    """``0, 1, .., n-1`` for every n in ``lengths``, concatenated."""
    return np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)


def _shade(
    scene: _Scene,
    camera: _Camera,
    view_port: _ViewPort,
    buffers: _Buffers,
    bed: tuple[float, float] | None,
) -> np.ndarray:
    """Colour every pixel: smooth lighting, colours as printed, edges, bed, background."""
    height, width = buffers.triangle.shape
    flat_tri = buffers.triangle.ravel()
    rgb = np.asarray(_background(camera, view_port, width, height, bed)).reshape(-1, 3).copy()
    hit_row, hit_col = np.nonzero(buffers.triangle >= 0)
    hit = hit_row * width + hit_col
    tri = flat_tri[hit]
    # Gouraud shading: light the corners (smoothed normals), interpolate the colour. Most
    # pixels lie on flat triangles wholly above or below the colour change: they take the
    # triangle's colour; only curved triangles and those the colour change crosses are
    # interpolated pixel by pixel.
    count = len(scene.corners)
    normals = scene.corner_normals.reshape(-1, 3)
    body_rgb, body_dark = _light(normals, scene.palette[np.repeat(scene.body, 3)], camera)
    top_rgb, top_dark = _light(normals, scene.palette[np.repeat(scene.top, 3)], camera)
    body_rgb, top_rgb = body_rgb.reshape(count, 3, 3), top_rgb.reshape(count, 3, 3)
    body_dark, top_dark = body_dark[::3], top_dark[::3]
    low, high = scene.corners[:, :, 2].min(axis=1), scene.corners[:, :, 2].max(axis=1)
    straddles = (low < scene.change_z - 1e-4) & (high > scene.change_z + 1e-4)
    above = low > scene.change_z + 1e-4
    corner_rgb = np.where(above[:, None, None], top_rgb, body_rgb)
    curved = np.abs(corner_rgb - corner_rgb[:, :1]).max(axis=(1, 2)) > 0.5 / 255
    colour = corner_rgb[tri, 0]
    dark = np.where(above, top_dark, body_dark)[tri]
    each = np.flatnonzero((straddles | curved)[tri])
    if len(each):
        which = tri[each]
        px, py = hit_col[each] + 0.5, hit_row[each] + 0.5
        need = np.zeros(count, dtype=bool)
        need[which] = True
        planes = np.zeros((count, 2, 3, 3), dtype=np.float32)
        for layer, corner_values in enumerate((body_rgb, top_rgb)):
            planes[need, layer] = _planes(
                buffers.x[need],
                buffers.y[need],
                buffers.area[need],
                corner_values[need].transpose(0, 2, 1),
            )
        up = _at(buffers.planes[which, 0], px, py) > scene.change_z[which] + 1e-4
        colour[each] = np.clip(_at(planes[which, up.astype(np.int64)], px, py), 0, 1)
        dark[each] = np.where(up, top_dark[which], body_dark[which])
    rgb[hit] = (colour * 255 + 0.5).astype(np.uint8)
    # edges: creases, silhouettes and part boundaries, found where neighbouring pixels
    # belong to different triangles (hidden edges can never show)
    owner = np.append(scene.owner, -1)  # owner[-1]: background
    light_part = np.zeros(height * width, dtype=bool)
    light_part[hit] = ~dark
    depth = buffers.depth.ravel()
    tolerance = 0.02 + 0.5 / view_port.scale  # mm: depth off the neighbour's plane = a step
    cos_crease = math.cos(math.radians(CREASE_DEG))
    edge = np.zeros(height * width, dtype=bool)
    grid2 = buffers.triangle
    for changed, step in (
        (grid2[:, :-1] != grid2[:, 1:], 1),
        (grid2[:-1, :] != grid2[1:, :], width),
    ):
        rows, cols = np.nonzero(changed)
        p = rows * width + cols
        q = p + step
        tp, tq = flat_tri[p], flat_tri[q]
        both = (tp >= 0) & (tq >= 0)
        differ = owner[tp] != owner[tq]
        # a step in depth: q is not where p's triangle, continued, would put it (and the
        # other way round), so creases of smooth surfaces seen edge-on stay unmarked
        qx, qy = (q % width + 0.5).astype(np.float32), (q // width + 0.5).astype(np.float32)
        px_, py_ = (p % width + 0.5).astype(np.float32), (p // width + 0.5).astype(np.float32)
        off_p = np.abs(_at(buffers.planes[tp, 1], qx, qy) - depth[q])
        off_q = np.abs(_at(buffers.planes[tq, 1], px_, py_) - depth[p])
        near = np.where(both, np.minimum(off_p, off_q), 0) > tolerance
        fold = np.einsum("ij,ij->i", scene.face_normals[tp], scene.face_normals[tq]) < cos_crease
        differ |= both & (near | fold)
        edge[p[differ & (tp >= 0)]] = True
        edge[q[differ & (tq >= 0)]] = True
    edge_at = np.flatnonzero(edge)
    under = rgb[edge_at].astype(np.float32)
    ink = np.where(light_part[edge_at, None], under * 0.35, 140 + 0.3 * under)
    rgb[edge_at] = (ink + 0.5).astype(np.uint8)
    return rgb.reshape(height, width, 3)


def _background(
    camera: _Camera, view_port: _ViewPort, width: int, height: int, bed: tuple[float, float] | None
) -> Image.Image:
    """The empty picture: background colour, and the bed with a 10 mm grid (Pillow)."""
    image = Image.new("RGB", (width, height), _rgb8(_BACKGROUND))
    if bed is None:
        return image
    draw = ImageDraw.Draw(image)

    def pixel(x: float, y: float) -> tuple[float, float]:
        u, v, _ = camera.project(np.array([[x, y, 0.0]]))[0]
        return (
            u * view_port.scale + view_port.offset[0],
            -v * view_port.scale + view_port.offset[1],
        )

    x_size, y_size = bed
    draw.polygon(
        [pixel(0, 0), pixel(x_size, 0), pixel(x_size, y_size), pixel(0, y_size)], fill=_rgb8(_BED)
    )
    line = max(1, round(SUPERSAMPLE * 0.7))
    for x in np.arange(10.0, x_size, 10.0):
        draw.line([pixel(x, 0), pixel(x, y_size)], fill=_rgb8(_BED_GRID), width=line)
    for y in np.arange(10.0, y_size, 10.0):
        draw.line([pixel(0, y), pixel(x_size, y)], fill=_rgb8(_BED_GRID), width=line)
    return image


def _rgb8(colour: np.ndarray) -> tuple[int, int, int]:
    red, green, blue = (int(v * 255 + 0.5) for v in colour)
    return (red, green, blue)


def _light(normal: np.ndarray, base: np.ndarray, camera: _Camera) -> tuple[np.ndarray, np.ndarray]:
    """Lit colours (n, 3) for surface normals (n, 3) and filament colours (n, 3), and which of
    them are dark filament (drawn lifted, with light edges)."""
    normal = normal / np.maximum(np.linalg.norm(normal, axis=1), 1e-6)[:, None]
    dark = base @ np.array([0.299, 0.587, 0.114], np.float32) < 0.3
    base = np.where(dark[:, None], base * 0.75 + 0.16, base)  # lift dark filament a little
    key = np.clip(normal @ _KEY_LIGHT.astype(np.float32), 0, 1)
    fill = np.clip(normal @ _FILL_LIGHT.astype(np.float32), 0, 1)
    half = _KEY_LIGHT - camera.forward
    half = (half / np.linalg.norm(half)).astype(np.float32)
    specular = np.clip(normal @ half, 0, 1) ** 40 * 0.25
    lit = base * (0.38 + 0.55 * key + 0.17 * fill)[:, None] + specular[:, None]
    return np.clip(lit, 0, 1).astype(np.float32), dark


def _caption(image: Image.Image, title: str, legend: Sequence[tuple[str, str]]) -> None:
    """Draw the title and the colour swatches in the band above the picture."""
    draw = ImageDraw.Draw(image)
    room = image.width - 2 * _CAPTION_MARGIN_PX
    title_font = _fitting_font(draw, [title], room, 20, 0)
    draw.text((image.width / 2, 8), title, fill=(30, 30, 30), font=title_font, anchor="mt")
    if not legend:
        return
    pieces = [(colour, f" {words}") for colour, words in legend]
    small = _fitting_font(draw, [words for _, words in pieces], room, 15, 36)
    widths = [18 + draw.textlength(words, font=small) + 18 for _, words in pieces]
    x = (image.width - sum(widths)) / 2
    for (colour, words), width in zip(pieces, widths):
        draw.rectangle((x, 37, x + 14, 51), fill=colour, outline=(60, 60, 60))
        draw.text((x + 16, 44), words, fill=(50, 50, 50), font=small, anchor="lm")
        x += width


def _fitting_font(
    draw: ImageDraw.ImageDraw, texts: Sequence[str], room: float, size: int, extra: float
) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's default font at ``size`` pixels, or smaller (down to 8) until ``texts`` side by
    side, each with ``extra`` pixels of its own (a swatch), fit ``room`` pixels: a long plate
    title (the MINI's fragment plate) is drawn smaller rather than cut at the picture's edges."""
    for pixels in range(size, 7, -1):
        font = ImageFont.load_default(size=pixels)
        if sum(draw.textlength(text, font=font) + extra for text in texts) <= room:
            break
    return font


def _rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
