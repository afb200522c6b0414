"""The eight Toy Battle terrains as data, checked on load (TB-2, TB-35, the digest's terrain
facts).

Source: shared/rules/toy-battle.md, section *Terrains*. Node ids: 1, 2 are the blue H.Q.s, 41,
42 the red H.Q.s, 11..25 bases. Edges are undirected path sections. A region lists the bases
around it and its medals; its ``cycle`` is the closed ring of nodes around it in drawing order
(through an H.Q. where the digest's bases alone do not close the ring, e.g. castle's first
region 1-11-13-18-14-12).

Drawing frame (for the phone's SVG and the printed player aid): ``x`` and ``y`` in 0..1, origin
top left, ``y`` downwards; blue's H.Q.s at the bottom (``y`` near 1), red's at the top. The
positions were computed as a Tutte (barycentric) embedding with the outer ring on an ellipse
and then adjusted by hand where the ring squeezed bases or medals (castle, pool, clouds,
jungle, cemetery, caribbean); they
are not the publisher's art.

Checks on load (:func:`check_terrain`, raising :class:`TerrainError`): every edge joins known
nodes, the graph is connected, every node has a position in 0..1, every region's bases exist
and are bases (not H.Q.s) and close a ring, specials and value restrictions name existing
nodes, and the medal objective is half the medals on the board, rounded down (true of all
eight published terrains: 14/7, 12/6, 16/8, 14/7, 14/7, 11/5, 14/7, 16/8).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

BLUE_HQS_ALL = (1, 2)
RED_HQS_ALL = (41, 42)


class TerrainError(ValueError):
    """A terrain's data is inconsistent (names the terrain and the field)."""


@dataclass(frozen=True, kw_only=True)
class Region:
    """A region of a terrain (TB-14).

    Attributes:
        index: position in the terrain's region list (0-based; the id used in states).
        bases: the bases to occupy, ascending.
        medals: medals on the region (1..3).
        cycle: the ring of nodes around it in drawing order (may pass through an H.Q.).
    """

    index: int
    bases: tuple[int, ...]
    medals: int
    cycle: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class Terrain:
    """One terrain (TB-2): graph, regions, H.Q.s, special bases and the objective.

    Attributes:
        slug: key (``"castle"``), also the phone's terrain id.
        name: the publisher's name, for reference only (``"Castle Field"``).
        rule: the rule id of its special bases (``"TB-30"``).
        effect: the special bases' effect code (``"return_to_rack"``, ``"draw"``,
            ``"move_enemy"``, ``"take_from_discard"``, ``"no_troop_effect"``, ``"block"``),
            ``"restricted"`` for the Tropical Pool, or None (Caribbean Sea).
        objective: medals needed to win at once (TB-40).
        hqs: seat colour -> its H.Q. node ids.
        positions: node -> (x, y) in 0..1 (module docstring: drawing frame).
        edges: path sections, each (low id, high id), in data order.
        regions: the regions in data order.
        specials: the special bases.
        allowed: node -> the strengths that may be placed there (TB-31), 1..7.
    """

    slug: str
    name: str
    rule: str
    effect: str | None
    objective: int
    hqs: Mapping[str, tuple[int, ...]]
    positions: Mapping[int, tuple[float, float]]
    edges: tuple[tuple[int, int], ...]
    regions: tuple[Region, ...]
    specials: frozenset[int]
    allowed: Mapping[int, frozenset[int]]

    @property
    def nodes(self) -> tuple[int, ...]:
        """Every node id, ascending."""
        return tuple(sorted(self.positions))

    @property
    def bases(self) -> tuple[int, ...]:
        """Nodes that are bases (not H.Q.s), ascending."""
        hqs = self.hq_nodes
        return tuple(n for n in self.nodes if n not in hqs)

    @property
    def hq_nodes(self) -> frozenset[int]:
        """Every H.Q. of both colours."""
        return frozenset(n for ids in self.hqs.values() for n in ids)

    @property
    def medal_total(self) -> int:
        """All medals on the terrain at setup (TB-3)."""
        return sum(r.medals for r in self.regions)

    @functools.cached_property
    def hq_colours(self) -> Mapping[int, str]:
        """H.Q. node -> ``"blue"``/``"red"`` (computed once)."""
        return MappingProxyType({n: c for c, ids in self.hqs.items() for n in ids})

    def hq_colour(self, node: int) -> str | None:
        """``"blue"``/``"red"`` for an H.Q., None for a base."""
        return self.hq_colours.get(node)

    def medal_position(self, region: Region) -> tuple[float, float]:
        """Where a region's medals are drawn (drawing frame, 0..1): the area centroid of its
        ring (the mean of the corners sat too close to a corner in rhombus-shaped regions)."""
        points = [self.positions[n] for n in region.cycle]
        twice_area = cx = cy = 0.0
        for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]):
            cross = x0 * y1 - x1 * y0
            twice_area += cross
            cx += (x0 + x1) * cross
            cy += (y0 + y1) * cross
        if abs(twice_area) < 1e-9:
            return (
                sum(p[0] for p in points) / len(points),
                sum(p[1] for p in points) / len(points),
            )
        return cx / (3 * twice_area), cy / (3 * twice_area)

    def to_json(self) -> dict[str, Any]:
        """The drawing data the phone reads (companion/views/toy-battle/view.js):
        ``{slug, name, rule, objective, medal_total, nodes: [{id, x, y, kind: "hq"|"base",
        colour (H.Q. only), special, allowed}], edges: [[a, b]], regions: [{index, bases,
        medals, cycle, x, y}]}``; a region's ``x, y`` is :meth:`medal_position`."""
        nodes = []
        for n in self.nodes:
            x, y = self.positions[n]
            colour = self.hq_colour(n)
            node: dict[str, Any] = {
                "id": n,
                "x": x,
                "y": y,
                "kind": "base" if colour is None else "hq",
                "special": n in self.specials,
                "allowed": sorted(self.allowed[n]) if n in self.allowed else None,
            }
            if colour is not None:
                node["colour"] = colour
            nodes.append(node)
        regions = []
        for r in self.regions:
            x, y = self.medal_position(r)
            regions.append(
                {
                    "index": r.index,
                    "bases": list(r.bases),
                    "medals": r.medals,
                    "cycle": list(r.cycle),
                    "x": round(x, 3),
                    "y": round(y, 3),
                }
            )
        return {
            "slug": self.slug,
            "name": self.name,
            "rule": self.rule,
            "objective": self.objective,
            "medal_total": self.medal_total,
            "nodes": nodes,
            "edges": [list(e) for e in self.edges],
            "regions": regions,
        }


# --------------------------------------------------------------------------------- raw data

_RAW: dict[str, dict[str, Any]] = {
    "castle": {
        "name": "Castle Field",
        "rule": "TB-30",
        "effect": "return_to_rack",
        "objective": 7,
        "specials": "15 16 20 21",
        "edges": "1-11 1-12 11-13 12-14 13-15 13-17 13-18 14-16 14-18 14-19 15-17 16-19 17-20 "
        "17-22 18-22 18-23 19-21 19-23 20-22 21-23 22-24 23-25 24-41 25-41",
        "regions": "11/12/13/14/18:3 13/15/17:1 14/16/19:1 13/17/18/22:2 14/18/19/23:2 "
        "17/20/22:1 19/21/23:1 18/22/23/24/25:3",
        "positions": {
            1: (0.5, 1.0),
            11: (0.3, 0.9),
            12: (0.7, 0.9),
            13: (0.25, 0.7),
            14: (0.75, 0.7),
            15: (0.0, 0.62),
            16: (1.0, 0.62),
            17: (0.15, 0.46),
            18: (0.5, 0.5),
            19: (0.85, 0.46),
            20: (0.0, 0.3),
            21: (1.0, 0.3),
            22: (0.25, 0.25),
            23: (0.75, 0.25),
            24: (0.3, 0.08),
            25: (0.7, 0.08),
            41: (0.5, 0.0),
        },
    },
    "pool": {
        "name": "Tropical Pool",
        "rule": "TB-31",
        "effect": "restricted",
        "objective": 6,
        "hqs": {"blue": (1, 2), "red": (41, 42)},
        "specials": "",
        "allowed": {
            12: (1, 2),
            22: (1, 2),
            16: (3, 4, 5),
            18: (3, 4, 5),
            17: (6, 7),
            2: (6, 7),
            41: (6, 7),
        },
        "edges": "1-11 2-13 11-12 11-13 12-13 12-15 13-14 13-17 14-16 14-17 15-17 15-18 16-19 "
        "17-19 17-20 17-21 18-20 19-22 20-21 21-22 21-23 21-41 22-23 23-42",
        "regions": "11/12/13:1 12/13/15/17:2 13/14/17:1 14/16/17/19:2 15/17/18/20:2 17/20/21:1 "
        "17/19/21/22:2 21/22/23:1",
        "positions": {
            1: (0.3, 1.0),
            2: (0.7, 1.0),
            11: (0.28, 0.88),
            12: (0.08, 0.67),
            13: (0.7, 0.8),
            14: (0.92, 0.72),
            15: (0.0, 0.58),
            16: (1.0, 0.58),
            17: (0.5, 0.5),
            18: (0.0, 0.42),
            19: (1.0, 0.42),
            20: (0.08, 0.28),
            21: (0.3, 0.2),
            22: (0.92, 0.33),
            23: (0.72, 0.12),
            41: (0.3, 0.0),
            42: (0.7, 0.0),
        },
    },
    "clouds": {
        "name": "City of Clouds",
        "rule": "TB-32",
        "effect": "draw",
        "objective": 8,
        "specials": "13 16 19 22",
        "edges": "1-11 1-12 11-13 11-14 12-13 12-15 13-14 13-15 14-16 14-17 15-16 15-18 16-17 "
        "16-18 17-19 17-20 18-19 18-21 19-20 19-21 20-22 20-23 21-22 21-24 22-23 22-24 23-41 "
        "24-41",
        "regions": "11/12/13:1 11/13/14:1 12/13/15:1 13/14/15/16:2 14/16/17:1 15/16/18:1 "
        "16/17/18/19:2 17/19/20:1 18/19/21:1 19/20/21/22:2 20/22/23:1 21/22/24:1 22/23/24:1",
        "positions": {
            1: (0.5, 1.0),
            11: (0.2, 0.9),
            12: (0.8, 0.9),
            13: (0.5, 0.8),
            14: (0.04, 0.7),
            15: (0.96, 0.7),
            16: (0.5, 0.6),
            17: (0.0, 0.5),
            18: (1.0, 0.5),
            19: (0.5, 0.4),
            20: (0.04, 0.3),
            21: (0.96, 0.3),
            22: (0.5, 0.2),
            23: (0.2, 0.1),
            24: (0.8, 0.1),
            41: (0.5, 0.0),
        },
    },
    "jungle": {
        "name": "Volcanic Jungle",
        "rule": "TB-33",
        "effect": "move_enemy",
        "objective": 7,
        "specials": "15 19",
        "edges": "1-11 1-13 11-12 11-13 11-14 12-15 13-16 14-15 14-17 15-18 16-17 16-19 17-18 "
        "17-20 18-21 19-20 19-22 20-23 21-23 21-41 22-23 23-41",
        "regions": "11/13/14/16/17:3 11/12/14/15:2 14/15/17/18:2 16/17/19/20:2 "
        "17/18/20/21/23:3 19/20/22/23:2",
        "positions": {
            1: (0.5, 1.0),
            11: (0.3, 0.88),
            12: (0.03, 0.75),
            13: (0.72, 0.88),
            14: (0.27, 0.64),
            15: (0.0, 0.5),
            16: (0.93, 0.72),
            17: (0.5, 0.5),
            18: (0.1, 0.28),
            19: (1.0, 0.48),
            20: (0.73, 0.34),
            21: (0.28, 0.12),
            22: (0.97, 0.25),
            23: (0.72, 0.12),
            41: (0.5, 0.0),
        },
    },
    "cemetery": {
        "name": "Cursed Cemetery",
        "rule": "TB-34",
        "effect": "take_from_discard",
        "objective": 7,
        "specials": "12 14 22 24",
        "edges": "1-11 1-13 11-13 11-14 11-16 12-13 12-15 13-15 14-16 15-16 15-17 15-18 16-18 "
        "16-19 17-20 18-20 18-21 19-21 20-21 20-22 20-25 21-23 21-24 22-25 23-24 23-25 23-41 "
        "25-41",
        "regions": "11/14/16:1 11/13/15/16:2 12/13/15:1 15/16/18:1 15/17/18/20:2 16/18/19/21:2 "
        "18/20/21:1 20/22/25:1 20/21/23/25:2 21/23/24:1",
        "positions": {
            1: (0.5, 1.0),
            11: (0.3, 0.88),
            13: (0.7, 0.88),
            14: (0.05, 0.78),
            12: (0.95, 0.78),
            16: (0.25, 0.65),
            15: (0.75, 0.65),
            19: (0.0, 0.5),
            18: (0.5, 0.5),
            17: (1.0, 0.5),
            21: (0.25, 0.35),
            20: (0.75, 0.35),
            24: (0.05, 0.22),
            22: (0.95, 0.22),
            23: (0.3, 0.12),
            25: (0.7, 0.12),
            41: (0.5, 0.0),
        },
    },
    "caribbean": {
        "name": "Caribbean Sea",
        "rule": "TB-35",
        "effect": None,
        "objective": 5,
        "hqs": {"blue": (1, 2), "red": (41,)},
        "specials": "",
        "edges": "1-11 1-13 2-15 11-12 11-14 12-15 12-17 12-21 13-14 14-16 15-18 16-17 16-19 "
        "17-20 18-21 19-20 19-22 20-21 20-41 22-41",
        "regions": "11/13/14:1 11/12/14/16/17:3 12/15/18/21:2 12/17/20/21:2 16/17/19/20:2 "
        "19/20/22:1",
        "positions": {
            1: (0.65, 1.0),
            2: (0.1, 1.0),
            11: (0.55, 0.85),
            12: (0.35, 0.7),
            13: (0.92, 0.9),
            14: (0.85, 0.7),
            15: (0.1, 0.8),
            16: (0.8, 0.5),
            17: (0.55, 0.5),
            18: (0.03, 0.55),
            19: (0.88, 0.28),
            20: (0.5, 0.25),
            21: (0.25, 0.35),
            22: (0.8, 0.08),
            41: (0.5, 0.0),
        },
    },
    "station": {
        "name": "Station Metal-X",
        "rule": "TB-36",
        "effect": "no_troop_effect",
        "objective": 7,
        "specials": "16 17 18",
        "edges": "1-11 1-12 11-14 11-15 12-13 12-15 13-15 13-16 14-15 14-18 15-16 15-17 15-18 "
        "16-17 16-19 16-20 17-18 17-19 18-19 18-21 19-20 19-21 19-22 19-23 20-23 21-22 22-41 "
        "23-41",
        "regions": "11/12/15:1 11/14/15:1 12/13/15:1 13/15/16:1 14/15/18:1 15/16/17:1 "
        "15/17/18:1 16/17/19:1 17/18/19:1 16/19/20:1 18/19/21:1 19/20/23:1 19/21/22:1 "
        "19/22/23:1",
        "positions": {
            1: (0.5, 1.0),
            11: (0.25, 0.93),
            12: (0.75, 0.93),
            13: (0.93, 0.75),
            14: (0.07, 0.75),
            15: (0.5, 0.7),
            16: (1.0, 0.5),
            17: (0.5, 0.5),
            18: (0.0, 0.5),
            19: (0.5, 0.3),
            20: (0.93, 0.25),
            21: (0.07, 0.25),
            22: (0.25, 0.07),
            23: (0.75, 0.07),
            41: (0.5, 0.0),
        },
    },
    "battlefield": {
        "name": "Battlefield",
        "rule": "TB-37",
        "effect": "block",
        "objective": 8,
        "specials": "14 16 19 21",
        "edges": "1-11 1-12 11-13 12-15 13-14 13-16 13-17 14-15 14-17 14-18 15-18 15-19 16-20 "
        "17-20 17-21 18-21 18-22 19-22 20-21 20-23 21-22 22-24 23-41 24-41",
        "regions": "11/12/13/14/15:3 13/14/17:1 14/15/18:1 13/16/17/20:2 14/17/18/21:2 "
        "15/18/19/22:2 17/20/21:1 18/21/22:1 20/21/22/23/24:3",
        "positions": {
            1: (0.5, 1.0),
            11: (0.25, 0.93),
            12: (0.75, 0.93),
            13: (0.07, 0.75),
            14: (0.5, 0.62),
            15: (0.93, 0.75),
            16: (0.0, 0.5),
            17: (0.28, 0.5),
            18: (0.72, 0.5),
            19: (1.0, 0.5),
            20: (0.07, 0.25),
            21: (0.5, 0.38),
            22: (0.93, 0.25),
            23: (0.25, 0.07),
            24: (0.75, 0.07),
            41: (0.5, 0.0),
        },
    },
}
"""The digest's terrain facts (edges, regions, specials, H.Q.s, restrictions, objectives) and
the drawing positions, in the digest's compact notation."""


def _ring(
    slug: str, adjacent: Mapping[int, set[int]], bases: tuple[int, ...], hqs: frozenset[int]
) -> tuple[int, ...]:
    """The closed ring around a region: its bases alone, else with the H.Q.s next to two of
    them (castle's 1-11-13-18-14-12). Raises TerrainError when neither closes a ring."""
    for with_hqs in (False, True):
        ring = set(bases)
        if with_hqs:
            ring |= {h for h in hqs if len(adjacent[h] & set(bases)) >= 2}
        sub = {n: adjacent[n] & ring for n in ring}
        if not all(len(v) == 2 for v in sub.values()):
            continue
        start = min(ring)
        order = [start]
        previous, current = start, min(sub[start])
        while current != start:
            order.append(current)
            previous, current = current, next(x for x in sub[current] if x != previous)
        if len(order) == len(ring):
            return tuple(order)
    raise TerrainError(f"{slug}: region {'/'.join(map(str, bases))} is not closed by path sections")


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(t) for t in text.split())


def build_terrain(slug: str, raw: Mapping[str, Any]) -> Terrain:
    """Build and check one terrain from its compact data (see :data:`_RAW`).

    Raises:
        TerrainError: any check of :func:`check_terrain` fails, or the data cannot be parsed.
    """
    try:
        hqs = {c: tuple(ids) for c, ids in raw.get("hqs", {"blue": (1,), "red": (41,)}).items()}
        hq_nodes = frozenset(n for ids in hqs.values() for n in ids)
        edges = tuple(
            (min(a, b), max(a, b))
            for a, b in (tuple(int(x) for x in e.split("-")) for e in raw["edges"].split())
        )
        positions = {int(n): (float(x), float(y)) for n, (x, y) in raw["positions"].items()}
        adjacent: dict[int, set[int]] = {n: set() for n in positions}
        for a, b in edges:
            if a not in adjacent or b not in adjacent:
                raise TerrainError(f"{slug}: edge {a}-{b} joins a node without a position")
            adjacent[a].add(b)
            adjacent[b].add(a)
        regions = []
        for index, item in enumerate(raw["regions"].split()):
            bases_text, medals = item.split(":")
            bases = tuple(sorted(int(b) for b in bases_text.split("/")))
            for b in bases:
                if b not in positions or b in hq_nodes:
                    raise TerrainError(f"{slug}: region {bases_text} names {b}, not a base")
            cycle = _ring(slug, adjacent, bases, hq_nodes)
            regions.append(Region(index=index, bases=bases, medals=int(medals), cycle=cycle))
        allowed = {int(n): frozenset(v) for n, v in raw.get("allowed", {}).items()}
        terrain = Terrain(
            slug=slug,
            name=raw["name"],
            rule=raw["rule"],
            effect=raw["effect"],
            objective=int(raw["objective"]),
            hqs=MappingProxyType(hqs),
            positions=MappingProxyType(positions),
            edges=edges,
            regions=tuple(regions),
            specials=frozenset(_numbers(raw["specials"])),
            allowed=MappingProxyType(allowed),
        )
    except (KeyError, ValueError, TypeError) as exc:
        if isinstance(exc, TerrainError):
            raise
        raise TerrainError(f"{slug}: cannot read the terrain data: {exc}") from exc
    check_terrain(terrain)
    return terrain


def check_terrain(terrain: Terrain) -> None:
    """Check a terrain's consistency (module docstring, *Checks on load*).

    Raises:
        TerrainError: names the terrain and what is wrong.
    """
    slug = terrain.slug
    nodes = set(terrain.nodes)
    for colour in ("blue", "red"):
        ids = terrain.hqs.get(colour, ())
        if not ids:
            raise TerrainError(f"{slug}: {colour} has no H.Q. (TB-2)")
        allowed_ids = BLUE_HQS_ALL if colour == "blue" else RED_HQS_ALL
        if any(i not in allowed_ids or i not in nodes for i in ids):
            raise TerrainError(f"{slug}: {colour} H.Q. ids must be among {allowed_ids}, got {ids}")
    for n, (x, y) in terrain.positions.items():
        if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
            raise TerrainError(f"{slug}: node {n} position {(x, y)} is outside 0..1")
    adjacent: dict[int, set[int]] = {n: set() for n in nodes}
    for a, b in terrain.edges:
        if a == b or a not in nodes or b not in nodes:
            raise TerrainError(f"{slug}: edge {a}-{b} must join two different known nodes")
        adjacent[a].add(b)
        adjacent[b].add(a)
    if len(set(terrain.edges)) != len(terrain.edges):
        raise TerrainError(f"{slug}: an edge is listed twice")
    seen = {terrain.nodes[0]}
    todo = [terrain.nodes[0]]
    while todo:
        for m in adjacent[todo.pop()] - seen:
            seen.add(m)
            todo.append(m)
    if seen != nodes:
        raise TerrainError(f"{slug}: the graph is not connected: {sorted(nodes - seen)} cut off")
    for r in terrain.regions:
        if not 1 <= r.medals <= 3:
            raise TerrainError(f"{slug}: region {r.bases} has {r.medals} medals, allowed 1..3")
    for n in terrain.specials:
        if n not in nodes or terrain.hq_colour(n) is not None:
            raise TerrainError(f"{slug}: special base {n} is not a base")
    for n, values in terrain.allowed.items():
        if n not in nodes or not values or not values <= set(range(1, 8)):
            raise TerrainError(f"{slug}: restriction on {n} must name strengths 1..7")
    if terrain.objective != terrain.medal_total // 2:
        raise TerrainError(
            f"{slug}: objective {terrain.objective} is not half of the {terrain.medal_total} "
            "medals on the board"
        )


TERRAINS: Mapping[str, Terrain] = MappingProxyType(
    {slug: build_terrain(slug, raw) for slug, raw in _RAW.items()}
)
"""slug -> terrain, in the digest's (and the phone menu's) order."""


def adjacency(terrain: Terrain) -> Mapping[int, frozenset[int]]:
    """node -> its neighbours (one path section away, TB-20 *adjacent*)."""
    return _ADJACENT[terrain.slug]


_ADJACENT: dict[str, Mapping[int, frozenset[int]]] = {}
for _t in TERRAINS.values():
    _adj: dict[int, set[int]] = {n: set() for n in _t.nodes}
    for _a, _b in _t.edges:
        _adj[_a].add(_b)
        _adj[_b].add(_a)
    _ADJACENT[_t.slug] = MappingProxyType({n: frozenset(v) for n, v in _adj.items()})
