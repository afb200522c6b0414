"""The Asteroids pieces as numbers: nominal design (scale 1.0) and print dimensions.

Units: mm. Pure (no CadQuery). Source: shared/rules/asteroids.md, *A starting geometry* and the
print notes P1-P5; every number is ours and can be changed with a reason.

How a nominal number becomes a printed number (P1, P2, ARCHITECTURE.md *CAD*):
1. horizontal sizes and positions are multiplied by ``scale``;
2. heights are multiplied by ``scale`` and then snapped to whole layers;
3. engraving depth is ``engraving_layers`` whole layers, never scaled;
4. ``xy_compensation`` is applied last, in absolute mm, by the part builders: outer contours
   move by it, holes by its negative (``PrintDimensions.outer`` / ``.hole``).

Fits: mating faces are modelled line to line; the compensation on both parts then gives
``-2 * xy_compensation`` of play per side (0.2 mm by default). Designed clearance is added only
in Z, where compensation does nothing: the ship's underside recess is one layer deeper than
the boss it sits over, so stacked ships rest on their flat rims, not on the boss.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from cad.settings import PrintSettings, SettingsError
from games.asteroids import ASTEROIDS, AsteroidsSpec

Polygon = tuple[tuple[float, float], ...]
"""A closed polygon in mm, counter-clockwise, last point not repeated."""


@dataclass(frozen=True, kw_only=True)
class AsteroidsDesign:
    """Nominal Asteroids geometry at scale 1.0, in mm (line-to-line fits).

    Attributes:
        place_pitch: centre distance of two places along a rift; a fragment is two places long.
        fragment_width: fragment size across the rift, equal to the rift width.
        fragment_height: fragment thickness.
        fragment_corner_chamfer: plan chamfer of the fragment's four vertical edges; guides a
            fragment into a rift.
        top_chamfer: 45-degree chamfer of top outer edges (finger comfort). Scaled, but never
            so large that it thins a wall under the top edge below ``min_wall`` in the top
            layer (``print_dimensions`` caps it at small scales).
        rib_width: wall between two rifts.
        board_thickness: board height; the board's top is the base and rib top.
        rift_depth: depth of a rift; ``fragment_height - rift_depth`` stands proud for a finger.
        base_depth: depth of each home base (two rows of ship pockets).
        base_row_pitch: distance of the two pocket rows of a base.
        pocket_diameter: ship pocket (hole place, base place), equal to ``ship_diameter``.
        pocket_depth: depth of a ship pocket.
        ship_diameter: the round ship body.
        ship_body_height: ship height without the boss.
        boss_base_diameter: the stacking boss on a ship's top, a 45-degree frustum; the
            ship's underside has the matching recess (no support needed, P5).
        boss_height: boss height (its top carries the engraved ship symbol).
        stack_clearance_layers: how many layers the underside recess is deeper than the boss.
        asteroid_symbol_size: outer diameter of the engraved asteroid symbol.
        asteroid_stroke: line width of the asteroid outline.
        ship_symbol_rim: absolute (unscaled) width of the boss top left around the engraved
            ship symbol after compensation; the symbol is sized to the boss top, which is
            not proportional to the scale because the boss height is snapped to layers.
        elephant_foot_chamfer: absolute (unscaled) 45-degree chamfer of bottom outer edges of
            small pieces, against first-layer squish that would make them bind.
        min_wall: absolute thinnest wall or feature allowed after compensation (2 lines of a
            0.4 mm nozzle).
        split_joint_tabs: jigsaw tabs along the joint when the board is printed in halves.
        split_tab_head_diameter: the round head of a jigsaw tab.
        split_tab_neck_width: the neck that joins the head to its half; narrower than the head,
            so the head locks in its socket in both directions (the play of the joint is
            ``-2 * xy_compensation`` across and at most about 1.2 times that along the pull).
        split_tab_length: how far a tab reaches into the other half (cut line to head end).
        split_tab_shoulder: height above the cut line, at the neck, of the head's lock face.
            The round head alone would leave half B a socket tip between the cut and the
            head that tapers to 0.1-0.7 mm beside the neck; so the head's underside is two
            straight lock faces instead, rising outward from this height parallel to the
            circle's tangent at the neck (30 degrees for a neck of half the head: the pull
            play stays ``play / cos 30``), and half B keeps a socket tip of this height less
            the compensation. Scaled, and raised where needed so the tip is never under
            ``min_wall`` (``print_dimensions``).

    Raises:
        ValueError: a dimension is not positive or the pieces cannot fit by construction.
    """

    place_pitch: float = 23.8
    fragment_width: float = 23.6
    fragment_height: float = 4.0
    fragment_corner_chamfer: float = 1.2
    top_chamfer: float = 0.6
    rib_width: float = 2.4
    board_thickness: float = 5.0
    rift_depth: float = 3.0
    base_depth: float = 45.0
    base_row_pitch: float = 22.0
    pocket_diameter: float = 19.0
    pocket_depth: float = 1.0
    ship_diameter: float = 19.0
    ship_body_height: float = 5.0
    boss_base_diameter: float = 13.2
    boss_height: float = 1.6
    stack_clearance_layers: int = 1
    asteroid_symbol_size: float = 15.0
    asteroid_stroke: float = 1.4
    ship_symbol_rim: float = 1.0
    elephant_foot_chamfer: float = 0.4
    min_wall: float = 0.8
    split_joint_tabs: int = 3
    split_tab_head_diameter: float = 8.0
    split_tab_neck_width: float = 4.0
    split_tab_length: float = 8.0
    split_tab_shoulder: float = 1.6
    spec: AsteroidsSpec = field(default=ASTEROIDS)

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value <= 0:
                raise ValueError(f"AsteroidsDesign.{name} must be positive, got {value!r}")
        if self.rift_depth >= self.board_thickness:
            raise ValueError("AsteroidsDesign.rift_depth must be less than board_thickness")
        if self.pocket_depth >= self.fragment_height - self.boss_height:
            raise ValueError("AsteroidsDesign.pocket_depth leaves no fragment floor")
        if not self.split_tab_neck_width < self.split_tab_head_diameter <= self.split_tab_length:
            raise ValueError(
                "AsteroidsDesign: a split tab needs neck < head diameter <= tab length, got "
                f"{self.split_tab_neck_width:g}, {self.split_tab_head_diameter:g}, "
                f"{self.split_tab_length:g}"
            )
        if self.split_tab_shoulder >= self.split_tab_length - self.split_tab_head_diameter / 2:
            raise ValueError(
                "AsteroidsDesign.split_tab_shoulder must be below the head's centre "
                f"(under {self.split_tab_length - self.split_tab_head_diameter / 2:g}), got "
                f"{self.split_tab_shoulder:g}"
            )


@dataclass(frozen=True, kw_only=True)
class PrintDimensions:
    """The design at a given scale and layer height, before X-Y compensation (mm).

    Horizontal numbers are ``nominal * scale``; heights are whole layers. ``outer`` and ``hole``
    apply the X-Y compensation to a horizontal size (P1).

    Attributes mirror ``AsteroidsDesign``; additionally:
        xy_compensation: per-side contour offset (mm, <= 0).
        layer_height: mm.
        engraving_depth: whole layers (mm).
        stack_clearance: designed Z gap above a boss (mm, whole layers).
        joint_relief: 45-degree chamfer (mm) of the board halves' bottom edges along the
            joint (cut, tabs, sockets; issue 30): the elephant-foot chamfer, capped so the
            socket tip and the tab neck keep ``min_wall`` in the middle of the first layer.
        split_tab_shoulder: the design's, scaled, or higher where the socket tip of half B
            would be under ``min_wall`` after compensation (see ``socket_tip``).
        min_wall: the design's minimum wall (mm, absolute).
        fragment_length: ``2 * place_pitch``.
        board_length: board size along X (4 fragment lengths).
        board_depth: board size along Y (two bases, six rifts, five ribs).
    """

    scale: float
    layer_height: float
    xy_compensation: float
    place_pitch: float
    fragment_length: float
    fragment_width: float
    fragment_height: float
    fragment_corner_chamfer: float
    top_chamfer: float
    rib_width: float
    board_thickness: float
    rift_depth: float
    base_depth: float
    base_row_pitch: float
    pocket_diameter: float
    pocket_depth: float
    ship_diameter: float
    ship_body_height: float
    boss_base_diameter: float
    boss_height: float
    stack_clearance: float
    asteroid_symbol_size: float
    asteroid_stroke: float
    ship_symbol_size: float
    elephant_foot_chamfer: float
    joint_relief: float
    engraving_depth: float
    split_tab_head_diameter: float
    split_tab_neck_width: float
    split_tab_length: float
    split_tab_shoulder: float
    split_joint_tabs: int
    min_wall: float
    rifts: int
    fragments_per_rift: int

    def outer(self, size: float) -> float:
        """A compensated outer size: ``size + 2 * xy_compensation`` (mm)."""
        return size + 2 * self.xy_compensation

    def hole(self, size: float) -> float:
        """A compensated hole size: ``size - 2 * xy_compensation`` (mm)."""
        return size - 2 * self.xy_compensation

    @property
    def board_length(self) -> float:
        """Board size along X before compensation: a rift holds ``fragments_per_rift`` fragments."""
        return self.fragments_per_rift * self.fragment_length

    @property
    def board_depth(self) -> float:
        """Board size along Y before compensation."""
        return (
            2 * self.base_depth
            + self.rifts * self.fragment_width
            + (self.rifts - 1) * self.rib_width
        )

    @property
    def ship_height(self) -> float:
        """Ship height including the boss (mm); the colour-change height of ship plates."""
        return self.ship_body_height + self.boss_height

    @property
    def recess_depth(self) -> float:
        """Depth of the underside recess: boss height plus the designed stack clearance."""
        return self.boss_height + self.stack_clearance

    def rift_centre_y(self, rift: int) -> float:
        """Y of rift ``rift`` (1-based, from A's base) in the board frame (board centred)."""
        first = -self.board_depth / 2 + self.base_depth + self.fragment_width / 2
        return first + (rift - 1) * (self.fragment_width + self.rib_width)

    def place_centre_x(self, place: int) -> float:
        """X of place ``place`` (1-based, left to right) along a rift, board centred."""
        return -self.board_length / 2 + (place - 0.5) * self.place_pitch

    def base_centre_y(self, player: int) -> float:
        """Y of the centre of player ``player``'s base (0 = A at -Y, 1 = B at +Y)."""
        sign = -1 if player == 0 else 1
        return sign * (self.board_depth / 2 - self.base_depth / 2)

    @property
    def split_cut_y(self) -> float:
        """Y of the cut between the board halves (board frame, before compensation, mm).

        The cut runs along the B-side face of the middle rib (between rift 3 and rift 4), so
        the rib stays whole in half A: cutting through the rib would leave two half ribs
        thinner than ``min_wall`` below scale 0.83.
        """
        return self.rib_width / 2

    def board_footprint(self, *, half: bool) -> tuple[float, float]:
        """Compensated plan size (x, y) in mm of the whole board or of its larger half.

        The larger half (A) holds the middle rib and carries the jigsaw tabs: from A's outer
        edge to the cut (``split_cut_y``) plus the tab length, every contour compensated
        (``cad.parts.board_halves``).
        """
        c = self.xy_compensation
        if not half:
            return (self.outer(self.board_length), self.outer(self.board_depth))
        depth = self.board_depth / 2 + self.split_cut_y + self.split_tab_length + 2 * c
        return (self.outer(self.board_length), depth)

    @property
    def split_lock_angle(self) -> float:
        """Slope of the tab head's lock faces (rad): that of the head circle's tangent where
        the neck meets it, ``asin(neck / head diameter)``."""
        return math.asin(self.split_tab_neck_width / self.split_tab_head_diameter)

    def socket_tip(self, shoulder: float | None = None) -> float:
        """Width (mm) of half B's socket tip beside a tab neck, between the cut and the lock
        face, after compensation (``cad.parts.board_halves``).

        Half B is the board less half A's region grown by ``-xy_compensation``: the cut rises
        by that, the neck widens by it, and the lock face moves down along its normal, so the
        tip is ``shoulder - o (1 / cos a - tan a + 1)`` with ``o = -xy_compensation`` and
        ``a`` the lock angle.

        Args:
            shoulder: the lock face's height above the cut at the neck; this one's when None.
        """
        h = self.split_tab_shoulder if shoulder is None else shoulder
        a = self.split_lock_angle
        return h + self.xy_compensation * (1 / math.cos(a) - math.tan(a) + 1)

    def core_walls(self) -> dict[str, float]:
        """Walls whose width is (a nominal width x scale) + 2 x xy_compensation, by name (mm).

        Used to refuse a scale or compensation that would make one thinner than the minimum.
        """
        c = self.xy_compensation
        return {
            "rib between rifts": self.rib_width + 2 * c,
            "fragment wall beside a pocket": (self.fragment_width - self.pocket_diameter) / 2
            + 2 * c,
            "board wall beside a base pocket": (
                self.base_depth - self.base_row_pitch - self.pocket_diameter
            )
            / 2
            + 2 * c,
            "ship wall beside its recess": (self.ship_diameter - self.boss_base_diameter) / 2
            + 2 * c,
            "fragment edge beside the asteroid symbol": (
                self.fragment_width - self.asteroid_symbol_size
            )
            / 2
            + 2 * c,
            "neck of a board-half tab": self.split_tab_neck_width + 2 * c,
        }

    def walls(self, *, split: bool = True) -> dict[str, float]:
        """Every thin wall of the printed parts, by name (mm), as the slicer sees it.

        The core walls (``core_walls``), and where a 45-degree edge chamfer eats into a wall,
        that wall in the middle of the top layer (top chamfer) or of the first layer (the
        elephant-foot chamfer of the ship's underside). The tab neck only counts when the
        board is split (``split``).
        """
        core = self.core_walls()
        if split:
            core["socket tip of a board-half tab"] = self.socket_tip()
        else:
            del core["neck of a board-half tab"]
        top_cut = max(0.0, self.top_chamfer - self.layer_height / 2)
        foot_cut = max(0.0, self.elephant_foot_chamfer - self.layer_height / 2)
        joint_cut = max(0.0, self.joint_relief - self.layer_height / 2)
        walls = dict(core)
        for name in _TOP_WALLS:
            walls[f"{name}, in the top layer"] = core[name] - top_cut
        for name in _BOTTOM_WALLS:
            walls[f"{name}, in the first layer"] = core[name] - foot_cut
        if split:  # relieved on both sides along the joint
            for name in _JOINT_WALLS:
                walls[f"{name}, in the first layer"] = core[name] - 2 * joint_cut
        return walls


def symbol_lands(dims: PrintDimensions) -> dict[str, float]:
    """The narrowest raised strips inside the engraved asteroid, in the symbol layer (mm).

    They are not walls of the part (the symbol layer is one layer of the top), so a narrow one
    is reported, not refused: between each crater and the outline's inner edge, and between
    the two craters. Each engraved edge grows by ``-xy_compensation`` (``cad.parts``), so a
    land loses twice that. Distances are to the inner polygon's edges (``asteroid_symbol``).
    """
    grow = -dims.xy_compensation
    _, inner, craters = asteroid_symbol(dims.asteroid_symbol_size, dims.asteroid_stroke)
    edges = list(zip(inner, inner[1:] + inner[:1]))
    lands = {}
    for number, (cx, cy, diameter) in enumerate(craters, start=1):
        radius = diameter / 2
        reach = min(_segment_distance((cx, cy), a, b) for a, b in edges)
        lands[f"asteroid symbol: crater {number} to the outline"] = reach - radius - 2 * grow
    (x1, y1, d1), (x2, y2, d2) = craters
    lands["asteroid symbol: between the craters"] = (
        math.hypot(x2 - x1, y2 - y1) - d1 / 2 - d2 / 2 - 2 * grow
    )
    return lands


def _segment_distance(
    point: tuple[float, float], a: tuple[float, float], b: tuple[float, float]
) -> float:
    (px, py), (ax, ay), (bx, by) = point, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


_TOP_WALLS = (
    "fragment wall beside a pocket",
    "board wall beside a base pocket",
    "fragment edge beside the asteroid symbol",
)
"""Core walls that end at a top edge with the top chamfer."""

_BOTTOM_WALLS = ("ship wall beside its recess",)
"""Core walls that start at a bottom edge with the elephant-foot chamfer."""

_JOINT_WALLS = ("neck of a board-half tab", "socket tip of a board-half tab")
"""Walls of the split board with the joint's first-layer relief on both sides."""


def _ship_symbol_size(
    design: AsteroidsDesign, scale: float, boss_height: float, compensation: float
) -> float:
    """Length (mm) of the ship symbol that leaves ``ship_symbol_rim`` of boss top around it."""
    boss_top = (design.boss_base_diameter * scale) / 2 + compensation - boss_height
    reach_per_length = max(math.hypot(x, y) for x, y in ship_symbol(1.0))
    return max(0.0, (boss_top - design.ship_symbol_rim + compensation) / reach_per_length)


def snap_to_layers(height: float, layer_height: float) -> float:
    """Round ``height`` (mm) to a whole number (at least 1) of ``layer_height`` layers."""
    layers = max(1, math.floor(height / layer_height + 0.5 + 1e-9))
    return round(layers * layer_height, 6)


def print_dimensions(
    settings: PrintSettings, design: AsteroidsDesign | None = None
) -> PrintDimensions:
    """Derive the printed dimensions of ``design`` for ``settings`` (P1-P3).

    Args:
        settings: scale, layer height, compensation, engraving layers.
        design: nominal geometry; the default design when None.

    Returns:
        Dimensions in mm, heights whole layers, compensation not yet applied.

    Raises:
        SettingsError: the compensation (option ``--xy-compensation``) or the scale (``--scale``)
            would make a wall thinner than ``design.min_wall``; the message names the wall.
    """
    d = design or AsteroidsDesign()
    s = settings.scale
    layer = settings.layer_height

    def z(h: float) -> float:
        return snap_to_layers(h * s, layer)

    fragment_height = z(d.fragment_height)
    board_thickness = z(d.board_thickness)
    rift_depth = min(z(d.rift_depth), board_thickness - layer)
    dims = PrintDimensions(
        scale=s,
        layer_height=layer,
        xy_compensation=settings.xy_compensation,
        place_pitch=d.place_pitch * s,
        fragment_length=2 * d.place_pitch * s,
        fragment_width=d.fragment_width * s,
        fragment_height=fragment_height,
        fragment_corner_chamfer=d.fragment_corner_chamfer * s,
        top_chamfer=d.top_chamfer * s,
        rib_width=d.rib_width * s,
        board_thickness=board_thickness,
        rift_depth=rift_depth,
        base_depth=d.base_depth * s,
        base_row_pitch=d.base_row_pitch * s,
        pocket_diameter=d.pocket_diameter * s,
        pocket_depth=z(d.pocket_depth),
        ship_diameter=d.ship_diameter * s,
        ship_body_height=z(d.ship_body_height),
        boss_base_diameter=d.boss_base_diameter * s,
        boss_height=z(d.boss_height),
        stack_clearance=d.stack_clearance_layers * layer,
        asteroid_symbol_size=d.asteroid_symbol_size * s,
        asteroid_stroke=d.asteroid_stroke * s,
        ship_symbol_size=_ship_symbol_size(d, s, z(d.boss_height), settings.xy_compensation),
        elephant_foot_chamfer=d.elephant_foot_chamfer,
        joint_relief=d.elephant_foot_chamfer,
        engraving_depth=settings.engraving_depth,
        split_tab_head_diameter=d.split_tab_head_diameter * s,
        split_tab_neck_width=d.split_tab_neck_width * s,
        split_tab_length=d.split_tab_length * s,
        split_tab_shoulder=d.split_tab_shoulder * s,
        split_joint_tabs=d.split_joint_tabs,
        min_wall=d.min_wall,
        rifts=d.spec.rifts,
        fragments_per_rift=d.spec.fragments_per_rift,
    )
    # the lock face rises so half B's socket tip keeps min_wall (it is not refused: raising it
    # costs only head, the head's centre lies higher still)
    shortfall = d.min_wall - dims.socket_tip()
    if shortfall > 0:
        dims = replace(dims, split_tab_shoulder=dims.split_tab_shoulder + shortfall)
    walls = dims.core_walls()
    c = settings.xy_compensation
    # every core wall is (its uncompensated width, proportional to the scale) + 2 c
    lowest_c = max((d.min_wall - (wall - 2 * c)) / 2 for wall in walls.values())
    lowest_scale = max((d.min_wall - 2 * c) * s / (wall - 2 * c) for wall in walls.values())
    for name, wall in walls.items():
        if wall >= d.min_wall - 1e-9:
            continue
        if lowest_c > 0:
            raise SettingsError(
                "--scale",
                f"{s:g} would thin the {name} to {wall:.2f} mm (minimum {d.min_wall:g} mm); "
                f"allowed with xy_compensation {c:g} mm: {math.ceil(round(lowest_scale * 100, 6)) / 100:g}"
                f"..1.5, got {s:g}",
            )
        raise SettingsError(
            "--xy-compensation",
            f"{c:g} mm would thin the {name} to {wall:.2f} mm (minimum {d.min_wall:g} mm); "
            f"allowed at scale {s:g}: {math.ceil(round(lowest_c * 100, 6)) / 100:g}..0 mm, got {c:g} mm",
        )
    # chamfers never take a wall under the minimum: cap them where the walls are thin
    spare_top = min(walls[name] for name in _TOP_WALLS) - d.min_wall
    spare_bottom = min(walls[name] for name in _BOTTOM_WALLS) - d.min_wall
    # the joint's relief takes from both sides of the socket tip and of the tab neck
    spare_joint = (min(dims.socket_tip(), walls["neck of a board-half tab"]) - d.min_wall) / 2
    dims = replace(
        dims,
        top_chamfer=round(min(dims.top_chamfer, spare_top + layer / 2), 6),
        elephant_foot_chamfer=round(min(dims.elephant_foot_chamfer, spare_bottom + layer / 2), 6),
        joint_relief=round(max(0.0, min(dims.joint_relief, spare_joint + layer / 2)), 6),
    )
    if dims.ship_symbol_size < 2.0:
        raise SettingsError(
            "--layer-height",
            f"{layer:g} mm at scale {s:g} makes the ship's boss too steep to carry its symbol; "
            f"use a layer height finer than {layer:g} mm (e.g. 0.2) or a larger --scale, "
            f"got {layer:g} mm",
        )
    deepest = min(dims.boss_height, dims.fragment_height - dims.pocket_depth)
    if dims.engraving_depth >= deepest - 1e-9:
        most = max(0, math.ceil(round(deepest / layer, 6)) - 1)
        raise SettingsError(
            "--engraving-layers",
            f"{settings.engraving_layers} layers ({dims.engraving_depth:g} mm) would cut through "
            f"the ship's boss ({dims.boss_height:g} mm high); allowed at these settings: "
            f"1..{most}, got {settings.engraving_layers}",
        )
    return dims


def asteroid_symbol(
    size: float, stroke: float
) -> tuple[Polygon, Polygon, tuple[tuple[float, float, float], ...]]:
    """The engraved asteroid: a lumpy outline of width ``stroke`` and two craters.

    Frame: centred on the origin, mm.

    Args:
        size: outer diameter of the outline (mm).
        stroke: outline width (mm).

    Returns:
        ``(outer, inner, craters)``: the outline is the region between the ``outer`` and
        ``inner`` polygons (both counter-clockwise); ``craters`` are ``(x, y, diameter)``
        circles engraved inside it.
    """
    radius = size / 2

    def lump(angle: float) -> float:
        return 1 + 0.07 * math.sin(3 * angle + 0.6) + 0.04 * math.sin(5 * angle + 1.9)

    norm = max(lump(2 * math.pi * k / 720) for k in range(720))
    count = 40
    outer: list[tuple[float, float]] = []
    inner: list[tuple[float, float]] = []
    for k in range(count):
        angle = 2 * math.pi * k / count
        r = radius * lump(angle) / norm
        outer.append((r * math.cos(angle), r * math.sin(angle)))
        inner.append(((r - stroke) * math.cos(angle), (r - stroke) * math.sin(angle)))
    craters = (
        (-0.12 * size, 0.07 * size, 0.17 * size),
        (0.13 * size, -0.10 * size, 0.12 * size),
    )
    return tuple(outer), tuple(inner), craters


def ship_symbol(length: float) -> Polygon:
    """The engraved ship: an arrowhead pointing +Y, ``length`` mm long, centred on the origin."""
    half = length / 2
    return _ccw(((0.0, half), (-0.72 * half, -half), (0.0, -0.45 * half), (0.72 * half, -half)))


def _ccw(points: Polygon) -> Polygon:
    """Return ``points`` in counter-clockwise order (shoelace sign)."""
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]))
    return points if area > 0 else points[::-1]
