"""The kit's manifest: what ``cad.kit`` built, as the data ``manifest.json`` holds (pure).

Units: mm, mm^3, g, s. The manifest is the one record of a kit: PRINT-NOTES.md
(``cad.notes``), the command's summary (``cad.summary``) and the print shop's pages read it;
its fields are listed in docs/print-kit.md.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from cad.design import PrintDimensions, symbol_lands
from cad.estimate import PLA_DENSITY_G_PER_MM3, estimate_basis, plate_time
from cad.jobs import PartResult
from cad.plates import Footprint, Plate, PlateError, fits_bed, pack_box
from cad.settings import PrintSettings


@dataclass(frozen=True, kw_only=True)
class KitPart:
    """A distinct printed part.

    Attributes:
        name: file stem and slicer object name.
        count: copies printed.
        group: plate group (``board``, ``fragments``, ``ships-A``, ``ships-B``).
        colours: ``(colour, copies)`` pairs: which filament how many copies are printed in.
        change_z: top of the first layer in the symbol colour (mm), or None (no colour change).
    """

    name: str
    count: int
    group: str
    colours: tuple[tuple[str, int], ...] = ()
    change_z: float | None = None


@dataclass(frozen=True, kw_only=True)
class ManifestInputs:
    """Everything a finished kit build knows that its manifest tells.

    Attributes:
        settings: how the kit was printed.
        dims: its print dimensions.
        split: the board is printed in halves.
        previews: PNG previews were drawn.
        table: the distinct parts, in file order.
        checks: part name -> its checked STL (size, triangles, estimate).
        volumes: part name -> the exact solid's volume (mm^3).
        plates: the arranged plates.
        slicers: plate name -> the slicer settings its 3MF carries.
        changes: plate name -> its colour change, or None.
        footprints: every part's footprint (for the storage box).
        fits: the measured fits (``cad.fits``).
        travel: the board joint's travel, or None.
        source: the generator's source hash (shortened).
    """

    settings: PrintSettings
    dims: PrintDimensions
    split: bool
    previews: bool
    table: list[KitPart]
    checks: dict[str, PartResult]
    volumes: dict[str, float]
    plates: list[Plate]
    slicers: dict[str, Any]
    changes: dict[str, Any]
    footprints: list[Footprint]
    fits: list[Any]
    travel: Any
    source: str


def kit_manifest(kit: ManifestInputs) -> dict[str, Any]:
    """The manifest of a kit (as written to ``manifest.json``): settings, dimensions, walls,
    parts, plates, fits, joint travel, storage box and the totals."""
    settings, dims, split, travel = kit.settings, kit.dims, kit.split, kit.travel
    part_entries = _part_entries(kit)
    plate_entries = _plate_entries(kit)
    box = box_report(kit.footprints, settings)
    return {
        "kit": "asteroids",
        "generator": "tablesmith",
        "source_hash": kit.source,
        "settings": settings.to_json(),
        "dimensions_mm": _dimension_summary(dims),
        "walls_mm": {name: round(width, 3) for name, width in dims.walls(split=split).items()},
        "symbol_lands_mm": {name: round(w, 3) for name, w in symbol_lands(dims).items()},
        "board_split": split,
        "whole_board_bed_border_mm": _whole_board_border(settings, dims) if split else None,
        "parts": part_entries,
        "plates": plate_entries,
        "fits": [
            {
                "pair": f.pair,
                "play_mm": round(f.play, 4),
                "interference_mm3": round(f.interference, 6),
                "section_z_mm": round(f.section_z, 3),
            }
            for f in kit.fits
        ],
        "joint_travel_mm": None
        if travel is None
        else {
            "along_minus": travel.along_minus,
            "along_plus": travel.along_plus,
            "pull": travel.pull,
            "push": travel.push,
        },
        "storage_box": box,
        "filament_total_g": round(sum(e["filament_g_all_copies"] for e in part_entries), 1),
        "print_time_total_s": sum(e["print_time_s"] for e in plate_entries),
        "estimate": estimate_basis(),
    }


def _part_entries(kit: ManifestInputs) -> list[dict[str, Any]]:
    """One manifest entry per distinct part: files, size, volume, filament, time, colours."""
    settings, previews = kit.settings, kit.previews
    part_entries: list[dict[str, Any]] = []
    grams = {name: checked.estimate.grams for name, checked in kit.checks.items()}
    for part in kit.table:
        checked = kit.checks[part.name]
        volume = kit.volumes[part.name]
        part_entries.append(
            {
                "name": part.name,
                "count": part.count,
                "file": f"stl/{part.name}.stl",
                "step": f"step/{part.name}.step",
                "bounding_box_mm": [round(v, 3) for v in checked.size],
                "volume_mm3": round(volume, 1),
                "filament_g": round(grams[part.name], 2),
                "filament_g_all_copies": round(grams[part.name] * part.count, 1),
                "filament_g_solid": round(volume * PLA_DENSITY_G_PER_MM3, 2),
                "print_time_s": round(checked.estimate.time_s),
                "colours": [{"colour": c, "count": n} for c, n in part.colours],
                "colour_change_mm": part.change_z,
                "multi_material_files": [
                    f"stl/{part.name}-body.stl",
                    f"stl/{part.name}-symbols.stl",
                ]
                if settings.multi_material and part.change_z
                else None,
                "multi_material_step": [
                    f"step/{part.name}-body.step",
                    f"step/{part.name}-symbols.step",
                ]
                if settings.multi_material and part.change_z
                else None,
                "triangles": checked.triangles,
                "preview": f"preview/{part.name}.png" if previews else None,
            }
        )
    return part_entries


def _plate_entries(kit: ManifestInputs) -> list[dict[str, Any]]:
    """One manifest entry per plate: parts, filament, time, colour change, slicer settings."""
    settings, layer = kit.settings, kit.dims.layer_height
    grams = {name: checked.estimate.grams for name, checked in kit.checks.items()}
    change_of = {p.name: p.change_z for p in kit.table}
    plate_entries = []
    for plate in kit.plates:
        change = kit.changes[plate.name]
        slicer = kit.slicers[plate.name]
        counts: dict[str, int] = {}
        for placement in plate.placements:
            counts[placement.part] = counts.get(placement.part, 0) + 1
        plate_entries.append(
            {
                "file": f"plates/{plate.name}.3mf",
                "group": plate.group,
                "colour": plate_colour(plate.group, settings),
                "parts": counts,
                "height_mm": round(plate.height, 3),
                "used_area_mm": [round(plate.used[0], 1), round(plate.used[1], 1)],
                "filament_g": round(sum(grams[name] * n for name, n in counts.items()), 1),
                "print_time_s": round(
                    plate_time([(kit.checks[name].estimate, n) for name, n in counts.items()])
                ),
                "colour_change": None
                if change is None
                else {
                    "height_mm": change.print_z,
                    "layer": round(change.print_z / layer),
                    "colour": settings.symbol_colour,
                    "words": change_words(change.print_z, layer),
                },
                "symbol_part": _symbol_part(
                    change_of[plate.placements[0].part],
                    multi=len(slicer.filaments) > 1,
                    colour=settings.symbol_colour,
                    layer=layer,
                ),
                "slicer": slicer.slicer,
                "filaments": list(slicer.filaments),
                "gcode_name": slicer.output_name,
                "slicer_settings": slicer.values(),
                "wipe_tower": _tower_entry(slicer),
                "preview": f"preview/{plate.name}.png" if kit.previews else None,
            }
        )
    return plate_entries


def change_words(print_z: float, layer: float) -> str:
    """The colour change as a slicer user places it by hand: the height the layer slider
    shows for the first layer in the new colour (its top), and that layer's number.

    Every place that tells the height (previews, PRINT-NOTES.md, the summary, the 3MF's
    ``print_z`` / ``top_z``) uses this convention.
    """
    return f"at {print_z:g} mm (layer {round(print_z / layer)})"


def _whole_board_border(settings: PrintSettings, dims: PrintDimensions) -> float | None:
    """The widest ``--bed-border`` (whole mm, at least 1) with which the whole board fits the
    bed, when the kit's border made it split; None when no border does."""
    for border in range(int(settings.bed_border) - 1, 0, -1):
        if fits_bed(dims.board_footprint(half=False), settings.bed, float(border)):
            return float(border)
    return None


def _symbol_part(
    height: float | None, *, multi: bool, colour: str, layer: float
) -> dict[str, Any] | None:
    """The manifest's entry for a plate's symbol part on filament 2 (multi-material), else None.

    ``height_mm`` follows the colour change's convention: the top of its first layer.
    """
    if not multi or height is None:
        return None
    return {"filament": 2, "colour": colour, "height_mm": height, "layer": round(height / layer)}


def _tower_entry(slicer: Any) -> dict[str, Any] | None:
    """The manifest's wipe tower of a plate: where it stands (mm) and the purge it is sized
    for (mm³, body to symbol filament, in the plate's slicer)."""
    tower = slicer.tower
    if tower is None:
        return None
    return {
        "x_mm": round(tower.x, 1),
        "y_mm": round(tower.y, 1),
        "width_mm": round(tower.width, 1),
        "depth_mm": round(tower.depth, 1),
        "purge_mm3": slicer.purge_volumes()[0][1],
        "purge_prusaslicer_mm3": slicer.purge_volumes("prusa")[0][1],
    }


def plate_colour(group: str, settings: PrintSettings) -> str:
    """The filament colour of a plate group: a fleet's colour, else the board colour."""
    return {"ships-A": settings.colour_a, "ships-B": settings.colour_b}.get(
        group, settings.board_colour
    )


def box_report(footprints: list[Footprint], settings: PrintSettings) -> dict[str, Any]:
    """Whether the whole set fits the storage box ``settings.box`` (mm), in which layers."""
    try:
        packing = pack_box(footprints, settings.box)
    except PlateError as exc:
        return {"box_mm": list(settings.box), "fits": False, "reason": str(exc)}
    return {
        "box_mm": list(settings.box),
        "fits": packing.fits,
        "height_mm": round(packing.height, 2),
        "margins_mm": [round(m, 1) for m in packing.margins],
        "layers": [
            {"group": g, "height_mm": round(h, 2), "area_mm": [round(a[0], 1), round(a[1], 1)]}
            for (g, h), a in zip(packing.layers, packing.areas)
        ],
        "reason": None if packing.fits else f"the layers stack {packing.height:.1f} mm high",
    }


def _dimension_summary(dims: PrintDimensions) -> dict[str, float]:
    """The print dimensions the manifest lists (mm, rounded)."""
    keep = (
        "scale",
        "layer_height",
        "xy_compensation",
        "place_pitch",
        "fragment_length",
        "fragment_width",
        "fragment_height",
        "rib_width",
        "board_thickness",
        "rift_depth",
        "base_depth",
        "pocket_diameter",
        "pocket_depth",
        "ship_diameter",
        "ship_body_height",
        "boss_height",
        "stack_clearance",
        "engraving_depth",
    )
    data = asdict(dims)
    summary = {k: round(data[k], 4) for k in keep}
    summary.update(
        board_length=round(dims.outer(dims.board_length), 3),
        board_depth=round(dims.outer(dims.board_depth), 3),
        ship_height=round(dims.ship_height, 3),
    )
    return summary
