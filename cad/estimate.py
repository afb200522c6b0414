"""Print time and filament of the kit's parts and plates, as PrusaSlicer slices them (pure, numpy).

Units: mm, mm^2, mm^3, s, g. The slicer the figures stand for is PrusaSlicer 2.5 with its
built-in default print, filament and printer settings (``PROFILE``: ``src/libslic3r/
PrintConfig.cpp``'s defaults, the "- default -" profile the CLI slices a plate with) and the
settings the plates carry (layer height, first layer, no supports; ``cad.slicers``). A
printer's own profile (a Prusa MINI's, a Bambu A1's) prints faster; the slicer's figure for
the profile actually used is the one to trust (PRINT-NOTES.md says so).

The model, layer by layer, as the slicer works:

- ``layer_sections``: the part's mesh cut at the middle of every layer (where PrusaSlicer
  slices), giving every closed contour's length and signed area (holes negative).
- Perimeters (``perimeters`` loops a contour, the outer one the external perimeter): the
  loops of a contour are offset inward by whole line spacings, so a loop's length is the
  contour's less ``2 pi d`` at offset ``d`` (a hole's grows by as much); a region too narrow
  for all of them is filled by perimeters alone (Arachne's variable width). A loop shorter
  than ``2 pi small_perimeter_radius`` prints at ``small_perimeter_speed``.
- Solid infill: the ``top_layers`` / ``bottom_layers`` under every surface that is exposed
  above / below (the area one layer has and the next does not, less a strip too thin to leave
  the perimeters), grown by ``surface_margin`` into the sparse infill beside it (PrusaSlicer's
  ``EXTERNAL_INFILL_MARGIN``, ``LayerRegion::process_external_surfaces``), and every region
  whose infill would be smaller than ``solid_infill_below_area``. The top surface prints at
  ``top_solid_infill_speed``; the first solid layer over air or over sparse infill is a
  bridge, extruded as a round thread of the nozzle's diameter (``thick_bridges``).
- Sparse infill: ``infill`` of the rest, and ``ANCHORS`` for the lines that join it.
- Every extrusion's volume is its area times the layer height (a line's cross-section over
  its spacing, ``Flow``), a bridge's that of its round threads. Times are lengths over
  speeds (the first layer at ``first_layer_speed``), plus ``ACCELERATION`` for acceleration
  and ``CONTOUR_TIME`` for the travel and retraction to every contour of every layer; a
  plate's layer takes at least ``slowdown_below_layer_time`` (cooling).

``ACCELERATION``, ``CONTOUR_TIME`` and ``ANCHORS`` were fitted to PrusaSlicer 2.5's estimate
on the kit's plates at scale 1.0 (Bambu A1 bed) and 0.8 (MINI bed), 0.2 mm layers;
``tests/cad/test_slicer_estimate.py`` slices every plate again and holds the model to 15 % of
the slicer's time and 5 % of its grams. Measured (model against slicer, per plate): on those
plates time -7 % to +5 %, grams -2 % to +4 %; on plates it was not fitted to (scale 0.9 on the
MK4 bed at 0.16 mm layers, scale 1.2 on the A1 bed at 0.28 mm) time -8 % to +4 %, grams -3 %
to +3 %.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

PLA_DENSITY_G_PER_MM3 = 1.24e-3
"""PLA density (1.24 g/cm^3, PRINT-FORMATS.md): grams from the extruded volume."""

ACCELERATION = 1.05
"""Factor on every extrusion's length / speed time for acceleration and cornering (fitted)."""

ANCHORS = 0.25
"""Sparse infill's lines are joined along the perimeters (``infill_anchor``): per layer with
sparse infill, this fraction of the contours' length in extra infill line (fitted)."""

CONTOUR_TIME = 1.0
"""Seconds per contour of every layer: the travel to it, the retraction and its restart
(fitted; PrusaSlicer's default retracts 2 mm at 40 mm/s before a travel over 2 mm)."""


@dataclass(frozen=True)
class Profile:
    """The slicer settings the model assumes: PrusaSlicer 2.5's defaults (``PrintConfig.cpp``).

    Lengths in mm, speeds in mm/s, areas in mm^2, times in s; ``infill`` is a fraction.
    Widths are PrusaSlicer's automatic ones (``Flow::auto_extrusion_width``): 1.125 x the
    nozzle for perimeters and infill, the nozzle for the top surface; the first layer's
    ``first_layer_extrusion_width`` is 200 % of its height.
    """

    nozzle: float = 0.4
    perimeters: int = 3
    top_layers: int = 3
    bottom_layers: int = 3
    infill: float = 0.20
    perimeter_speed: float = 60.0
    external_perimeter_speed: float = 30.0
    small_perimeter_speed: float = 15.0
    small_perimeter_radius: float = 6.5
    infill_speed: float = 80.0
    solid_infill_speed: float = 20.0
    top_solid_infill_speed: float = 15.0
    bridge_speed: float = 60.0
    first_layer_speed: float = 30.0
    solid_infill_below_area: float = 70.0
    surface_margin: float = 3.0
    slowdown_below_layer_time: float = 5.0


PROFILE = Profile()
"""PrusaSlicer 2.5's default profile (what ``prusa-slicer --export-gcode plate.3mf`` uses)."""


@dataclass(frozen=True)
class Section:
    """One layer's cut through a part: every closed contour's length (mm) and signed area
    (mm^2; outer contours positive, holes negative)."""

    lengths: np.ndarray
    areas: np.ndarray

    @property
    def area(self) -> float:
        """The material's area in this layer (mm^2)."""
        return float(self.areas.sum())


@dataclass(frozen=True)
class PartEstimate:
    """One copy of a part as the slicer prints it.

    Attributes:
        volume_mm3: filament extruded (mm^3).
        layer_times_s: seconds spent on the part in every layer, first layer first.
    """

    volume_mm3: float
    layer_times_s: tuple[float, ...]

    @property
    def time_s(self) -> float:
        """Seconds to print one copy alone (no slow-down for short layers)."""
        return float(sum(self.layer_times_s))

    @property
    def grams(self) -> float:
        """Grams of PLA (``PLA_DENSITY_G_PER_MM3``)."""
        return self.volume_mm3 * PLA_DENSITY_G_PER_MM3


def layer_sections(
    vertices: np.ndarray, faces: np.ndarray, layer_height: float
) -> tuple[Section, ...]:
    """Cut a closed mesh at the middle of every layer from Z = 0 to its top.

    Args:
        vertices: (n, 3) mm, the part standing on Z = 0.
        faces: (m, 3) vertex indices, counter-clockwise seen from outside, welded (every edge
            shared by two faces).
        layer_height: mm.

    Returns:
        One section per layer, bottom first.
    """
    tri = np.asarray(vertices, dtype=float)[faces]
    normals = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])[:, :2]
    count = round(float(tri[:, :, 2].max()) / layer_height)
    edge_key = len(vertices)
    sections = []
    for layer in range(count):
        z = (layer + 0.5) * layer_height
        above = tri[:, :, 2] > z
        crossing = np.flatnonzero((above.sum(axis=1) % 3) != 0)
        start, end, start_key, end_key = _segments(
            tri[crossing], faces[crossing], above[crossing], normals[crossing], z, edge_key
        )
        sections.append(_loops(start, end, start_key, end_key))
    return tuple(sections)


def _segments(
    tri: np.ndarray,
    faces: np.ndarray,
    above: np.ndarray,
    normals: np.ndarray,
    z: float,
    edge_key: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every crossing triangle's segment at height ``z``, run with the material on its left
    (counter-clockwise around outer contours), and the mesh edges its ends lie on."""
    points, keys = [], []
    for a, b in ((0, 1), (1, 2), (2, 0)):
        cut = above[:, a] != above[:, b]
        low, high = tri[:, a], tri[:, b]
        t = (z - low[:, 2]) / np.where(cut, high[:, 2] - low[:, 2], 1.0)
        points.append((low + t[:, None] * (high - low))[:, :2])
        va, vb = faces[:, a], faces[:, b]
        keys.append(np.where(cut, np.minimum(va, vb) * edge_key + np.maximum(va, vb), -1))
    point_array, key_array = np.stack(points, axis=1), np.stack(keys, axis=1)
    pick = np.argsort(key_array < 0, axis=1, kind="stable")[:, :2]  # the two cut edges
    rows = np.arange(len(tri))[:, None]
    ends, end_keys = point_array[rows, pick], key_array[rows, pick]
    run = ends[:, 1] - ends[:, 0]
    flip = run[:, 0] * -normals[:, 1] + run[:, 1] * normals[:, 0] < 0
    order = np.where(flip[:, None], [1, 0], [0, 1])
    ends, end_keys = ends[rows, order], end_keys[rows, order]
    return ends[:, 0], ends[:, 1], end_keys[:, 0], end_keys[:, 1]


def _loops(
    start: np.ndarray, end: np.ndarray, start_key: np.ndarray, end_key: np.ndarray
) -> Section:
    """Chain segments into closed contours (each segment's end is the next one's start) and
    measure them; the contours are labelled by pointer doubling, without a Python loop."""
    if len(start) == 0:
        return Section(lengths=np.zeros(0), areas=np.zeros(0))
    order = np.argsort(start_key)
    following = order[np.clip(np.searchsorted(start_key[order], end_key), 0, len(order) - 1)]
    label = np.arange(len(start))
    for _ in range(int(math.log2(len(start))) + 2):
        label = np.minimum(label, label[following])
        following = following[following]
    _, contour = np.unique(label, return_inverse=True)
    lengths = np.bincount(contour, np.linalg.norm(end - start, axis=1))
    areas = np.bincount(contour, (start[:, 0] * end[:, 1] - end[:, 0] * start[:, 1]) / 2)
    return Section(lengths=lengths, areas=areas)


def estimate_part(
    sections: Sequence[Section], layer_height: float, profile: Profile = PROFILE
) -> PartEstimate:
    """Filament and time of one copy of a part sliced with ``profile`` (see the module doc).

    Args:
        sections: ``layer_sections`` of the part.
        layer_height: mm, the first layer included.
        profile: the slicer settings.
    """
    flow = _Flow(profile, layer_height)
    inner, volume, times = [], 0.0, []
    for index, section in enumerate(sections):
        band, band_volume, band_time = _perimeters(section, flow, first=index == 0)
        inner.append(max(section.area - band, 0.0))
        volume += band_volume
        times.append(band_time)
    solid, sparse = _solid_and_sparse(sections, np.array(inner), flow)
    edges = np.array([float(s.lengths.sum()) for s in sections])
    for index, (layer_volume, layer_time) in enumerate(_infill(solid, sparse, edges, flow)):
        volume += layer_volume
        contours = CONTOUR_TIME * len(sections[index].lengths)
        times[index] = (times[index] + layer_time) * ACCELERATION + contours
    return PartEstimate(volume_mm3=volume, layer_times_s=tuple(times))


def plate_time(parts: Sequence[tuple[PartEstimate, int]], profile: Profile = PROFILE) -> float:
    """Seconds to print a plate: ``(part, copies)`` pairs, every layer at least
    ``profile.slowdown_below_layer_time`` long (the slicer slows a short layer down to cool).
    """
    layers = max((len(part.layer_times_s) for part, _ in parts), default=0)
    total = np.zeros(layers)
    for part, copies in parts:
        total[: len(part.layer_times_s)] += copies * np.array(part.layer_times_s)
    return float(np.maximum(total, profile.slowdown_below_layer_time).sum())


def estimate_basis(profile: Profile = PROFILE) -> dict[str, object]:
    """What the manifest's ``print_time_s`` and ``filament_g`` assume, as plain JSON data:
    the slicer and profile, the settings of ``profile`` that matter most, the density."""
    return {
        "slicer": "PrusaSlicer 2.5, default profile, with the settings the plates carry",
        "perimeters": profile.perimeters,
        "top_bottom_layers": [profile.top_layers, profile.bottom_layers],
        "infill_percent": round(profile.infill * 100),
        "speeds_mm_s": {
            "perimeter": profile.perimeter_speed,
            "external_perimeter": profile.external_perimeter_speed,
            "infill": profile.infill_speed,
            "solid_infill": profile.solid_infill_speed,
            "top_solid_infill": profile.top_solid_infill_speed,
            "first_layer": profile.first_layer_speed,
        },
        "density_g_cm3": PLA_DENSITY_G_PER_MM3 * 1000,
        "trust": "the slicer's own estimate for your printer and filament profiles",
    }


def duration_words(seconds: float) -> str:
    """``3 h 05 min`` (whole minutes, rounded), ``45 min`` under an hour."""
    minutes = round(seconds / 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


@dataclass(frozen=True)
class _Flow:
    """Line spacings (mm) and the volume a bridge lays per mm^2 (mm), for one layer height."""

    profile: Profile
    height: float

    def spacing(self, width: float) -> float:
        """Distance between neighbouring lines of ``width`` (``Flow::spacing``: a rectangle
        with semicircular ends)."""
        return width - self.height * (1 - math.pi / 4)

    @property
    def line(self) -> float:
        """Spacing of perimeters and infill (1.125 x the nozzle wide)."""
        return self.spacing(1.125 * self.profile.nozzle)

    @property
    def bridge_depth(self) -> float:
        """Bridge volume per area: round threads of the nozzle's diameter, 0.05 mm apart."""
        nozzle = self.profile.nozzle
        return math.pi * nozzle**2 / 4 / (nozzle + 0.05)


def _perimeters(section: Section, flow: _Flow, *, first: bool) -> tuple[float, float, float]:
    """Area the perimeters cover (mm^2), their volume (mm^3) and time (s) in one layer."""
    profile, spacing = flow.profile, flow.line
    if not len(section.lengths):
        return 0.0, 0.0, 0.0
    sign = np.sign(section.areas)
    loops = np.stack(
        [
            np.maximum(section.lengths - sign * 2 * math.pi * (spacing / 2 + k * spacing), 0)
            for k in range(profile.perimeters)
        ]
    )
    band = float(loops.sum()) * spacing
    loops *= min(1.0, section.area / band) if band > 0 else 1.0  # narrow: perimeters only
    small = loops < 2 * math.pi * profile.small_perimeter_radius
    speed = np.where(small, profile.small_perimeter_speed, profile.perimeter_speed)
    speed[0] = np.where(small[0], profile.small_perimeter_speed, profile.external_perimeter_speed)
    if first:
        speed[:] = profile.first_layer_speed
    covered = float(loops.sum()) * spacing
    return covered, covered * flow.height, float((loops / speed).sum())


def _exposed(lower: Section, upper: Section, flow: _Flow) -> tuple[float, float]:
    """The area of ``lower`` that ``upper`` leaves exposed (mm^2) and how far that surface
    grows into the infill beside it (mm^2, before clipping). Works both ways: pass the layer
    below as ``upper`` for a bottom surface.

    Contours the two layers share are skipped. A changed contour is paired with the nearest
    in length of the same kind in the other layer; if the strip between them is narrower than
    the perimeter band (a chamfer, a 45-degree wall), the perimeters print it and nothing is
    exposed. An unpaired contour (a hole that opens or closes, an island that ends) exposes a
    surface whose edge grows by the margin (an island's growth at most its area).
    """
    exposed = lower.area - upper.area
    if exposed <= 1e-6:
        return 0.0, 0.0
    margin = flow.profile.surface_margin
    band = flow.line * flow.profile.perimeters
    mine, theirs = _contours(lower), _contours(upper)
    changed, others = [c for c in mine if c not in theirs], [c for c in theirs if c not in mine]
    lost = grow = 0.0
    for length, area in changed:
        kind = [c for c in others if (c[1] > 0) == (area > 0)]
        if not kind:
            grow += margin * length
            continue
        pair = min(kind, key=lambda c: abs(c[0] - length))
        others.remove(pair)
        strip = abs(abs(area) - abs(pair[1]))
        lost += min(strip, band * length)
        grow += _growth(*pair, margin) if strip >= band * length else 0.0
    grow += sum(_growth(length, area, margin) for length, area in others)
    return max(exposed - lost, 0.0), grow


def _contours(section: Section) -> list[tuple[float, float]]:
    return list(zip(np.round(section.lengths, 2).tolist(), np.round(section.areas, 1).tolist()))


def _growth(length: float, area: float, margin: float) -> float:
    return min(margin * length, area) if area > 0 else margin * length


def _solid_and_sparse(
    sections: Sequence[Section], inner: np.ndarray, flow: _Flow
) -> tuple[np.ndarray, np.ndarray]:
    """Per layer: (n, 4) solid areas (mm^2: first layer, top, bridge, other solid) and the
    sparse infill area (n,)."""
    profile, count = flow.profile, len(sections)
    empty = Section(lengths=np.zeros(0), areas=np.zeros(0))
    above = [
        _exposed(s, sections[i + 1] if i + 1 < count else empty, flow)
        for i, s in enumerate(sections)
    ]
    below = [_exposed(s, sections[i - 1] if i else empty, flow) for i, s in enumerate(sections)]
    top, bottom = np.array([a for a, _ in above]), np.array([b for b, _ in below])
    spare = inner - np.minimum(inner, _shells(top, bottom, profile))
    top_grow = np.minimum(spare, [g for _, g in above]) * (top > 0)
    bottom_grow = np.minimum(spare - top_grow, [g for _, g in below]) * (bottom > 0)
    bottom_grow[0] = 0.0
    islands = np.array([max(1, int((s.areas > 0).sum())) for s in sections])
    solid = np.minimum(inner, _shells(top + top_grow, bottom + bottom_grow, profile))
    solid = np.where(inner / islands < profile.solid_infill_below_area, inner, solid)
    sparse = inner - solid
    kinds = np.zeros((count, 4))
    kinds[0, 0] = solid[0]
    for i in range(1, count):
        over_sparse = max(0.0, min(solid[i] - solid[i - 1], sparse[i - 1]))
        bridge = min(solid[i], bottom[i] + bottom_grow[i] + over_sparse)
        surface = min(solid[i] - bridge, top[i] + top_grow[i])
        kinds[i, 1:] = surface, bridge, solid[i] - bridge - surface
    return kinds, sparse


def _shells(top: np.ndarray, bottom: np.ndarray, profile: Profile) -> np.ndarray:
    """Area that must be solid in every layer: the ``top_layers`` under each exposed top and
    the ``bottom_layers`` over each exposed bottom (the first layer is all bottom)."""
    count = len(top)
    shells = np.zeros(count)
    for k in range(profile.top_layers):
        shells[: count - k] += top[k:]
    for k in range(profile.bottom_layers):
        shells[k:] += bottom[: count - k]
    return shells


def _infill(
    solid: np.ndarray, sparse: np.ndarray, edges: np.ndarray, flow: _Flow
) -> list[tuple[float, float]]:
    """Per layer the infill's volume (mm^3) and time (s) from its areas."""
    profile, height = flow.profile, flow.height
    first_line = flow.spacing(2 * height)
    top_line = flow.spacing(profile.nozzle)
    bridge_line = profile.nozzle + 0.05
    out = []
    for (first, top, bridge, other), rest, edge in zip(solid, sparse, edges):
        anchors = ANCHORS * edge * flow.line if rest > 0 else 0.0
        rest_area = profile.infill * rest + anchors
        volume = (first + top + other + rest_area) * height
        volume += bridge * flow.bridge_depth
        time = (
            first / first_line / profile.first_layer_speed
            + top / top_line / profile.top_solid_infill_speed
            + bridge / bridge_line / profile.bridge_speed
            + other / flow.line / profile.solid_infill_speed
            + rest_area / flow.line / profile.infill_speed
        )
        out.append((volume, time))
    return out
