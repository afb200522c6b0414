"""One build of the Asteroids print kit: parts -> files -> manifest, cached, written atomically.

Units: mm, mm^3, g. Output folder layout (all names fixed, see docs/print-kit.md):

    manifest.json          parts, plates, fits, storage box, settings (machine-readable)
    PRINT-NOTES.md         the same in plain words: colours, filament changes, supports
    stl/<part>.stl         one binary STL per distinct part
    step/<part>.step       the same part as an exact solid (mm, named) to remix in CAD; with
                           --multi-material also step/<part>-body.step and -symbols.step
    plates/<plate>.3mf     print plates for the chosen bed, with colour-change metadata
    preview/<name>.png     a picture of every part and plate

The same settings give the same bytes in every file (STEP headers carry a fixed time stamp,
3MF zips fixed dates; a test builds twice and compares). Nothing is written into the output
folder until the whole kit is complete: the kit is built in a hidden sibling folder and then
moved into place, so an interrupted run never leaves a kit that looks complete. Rebuilds with unchanged settings come from a cache keyed by the settings,
the design and a hash of the generator's source code.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from cad.design import AsteroidsDesign, PrintDimensions, print_dimensions, symbol_lands
from cad.estimate import PLA_DENSITY_G_PER_MM3, estimate_basis, plate_time
from cad.jobs import (
    Helpers,
    PartJob,
    PartResult,
    PlateItem,
    PlateJob,
    interrupts_held,
    run_part,
    run_plate,
)
from cad.notes import print_notes
from cad.outdir import check_target, replacing
from cad.plates import Footprint, PlateError, TowerRoom, arrange, fits_bed, pack_box
from cad.settings import OptionError, PrintSettings, colour_name
from games.asteroids import FragmentKind

SKIRT_DISTANCE = 2.0
"""mm between the parts and the one-line skirt the plates ask the slicer for."""

SKIRT_BORDER = 3.5
"""Smallest bed border (mm) with room for that skirt (2 mm, a 0.45 mm line, 1 mm to spare)."""

Progress = Callable[[str], None]


class KitError(OptionError):
    """The kit cannot be built with these settings (e.g. ``--printer``: a part is too big)."""


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


def source_hash() -> str:
    """SHA-256 over the source of the kit generator and the Asteroids spec (cache key part)."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    files = sorted(here.glob("*.py")) + [here.parent / "games" / "asteroids" / "spec.py"]
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_key(settings: PrintSettings, design: AsteroidsDesign) -> str:
    """The cache key of a kit: settings, design and generator source, hashed."""
    data = {"settings": settings.to_json(), "design": repr(design), "source": source_hash()}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:24]


def default_cache_dir() -> Path:
    """``$TABLESMITH_CACHE``, else ``$XDG_CACHE_HOME/tablesmith``, else ``~/.cache/tablesmith``."""
    if os.environ.get("TABLESMITH_CACHE"):
        return Path(os.environ["TABLESMITH_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tablesmith"


def build_kit(
    settings: PrintSettings,
    out: Path,
    *,
    design: AsteroidsDesign | None = None,
    previews: bool = True,
    cache_dir: Path | None = None,
    progress: Progress = lambda _message: None,
) -> dict[str, Any]:
    """Build the whole Asteroids kit into ``out`` and return its manifest.

    Args:
        settings: how to print.
        out: the output folder; replaced as a whole when the new kit is complete.
        design: the nominal design (default ``AsteroidsDesign()``).
        previews: also render PNG previews.
        cache_dir: where finished kits are kept for rebuilds; None disables the cache.
        progress: called with one line per step.

    Returns:
        The manifest (also written to ``out/manifest.json``).

    Raises:
        SettingsError: the settings make a wall too thin (option named).
        KitError: a part does not fit the printer (``--printer``).
        OutputError: ``out`` cannot or must not be replaced (``--out``, see ``cad.outdir``).
    """
    design = design or AsteroidsDesign()
    dims = print_dimensions(settings, design)
    split = board_split(settings, design, dims)
    target = check_target(Path(out), "asteroids")
    key = cache_key(settings, design) + ("" if previews else "-nopreview")
    cached = cache_dir / "asteroids" / key if cache_dir else None
    hit = cached is not None and (cached / "manifest.json").is_file()
    if hit:
        assert cached is not None
        with replacing(target) as staging:
            progress(f"unchanged settings: copying the cached kit {key}")
            shutil.copytree(cached, staging, dirs_exist_ok=True)
            return json.loads((staging / "manifest.json").read_text(encoding="utf-8"))
    started = time.perf_counter()

    def step(message: str) -> None:
        progress(f"[{time.perf_counter() - started:5.1f} s] {message}")

    # the staging folder first: an --out that cannot be written is refused before any progress
    with replacing(target) as staging:
        # the helper process starts next: it loads its libraries while this one loads the kernel
        step("starting the helper process and loading the CAD kernel")
        helpers = Helpers(step)
        try:
            _import_geometry()
            manifest = _generate(settings, design, dims, split, staging, previews, helpers, step)
            if cached is not None:
                _store_in_cache(staging, cached)
        finally:
            helpers.stop(wait=False)  # before the staging folder is swapped in or removed
    return manifest


def board_split(settings: PrintSettings, design: AsteroidsDesign, dims: PrintDimensions) -> bool:
    """Whether the board is printed in two halves on ``settings.bed`` (pure, before any CAD).

    Returns:
        False when the whole board fits the bed, True when its halves do.

    Raises:
        KitError: not even a half fits (option ``--printer``); the message gives the largest
            scale that fits this bed and the bed size this scale needs.
    """
    bed, border = settings.bed, settings.bed_border
    if fits_bed(dims.board_footprint(half=False), bed, border):
        return False
    half = dims.board_footprint(half=True)
    if fits_bed(half, bed, border):
        return True
    best = None
    for hundredths in range(round(settings.scale * 100) - 1, 49, -1):
        try:
            smaller = print_dimensions(replace(settings, scale=hundredths / 100), design)
        except OptionError:
            break
        if fits_bed(smaller.board_footprint(half=True), bed, border):
            best = hundredths / 100
            break
    scale_hint = f"--scale {best:g} or less" if best else "no scale"
    raise KitError(
        "--printer",
        f"the board, even in halves ({half[0]:.1f} x {half[1]:.1f} mm), does not fit the bed "
        f"{bed.x:g} x {bed.y:g} mm ({border:g} mm border, --bed-border); at scale "
        f"{settings.scale:g} it needs a bed of at least {half[0] + 2 * border:.0f} x "
        f"{half[1] + 2 * border:.0f} mm; on this bed {scale_hint} fits; "
        f"got {bed.name if bed.name != 'custom' else f'{bed.x:g}x{bed.y:g}'}",
    )


def _import_geometry() -> None:
    """Import the CAD kernel with Ctrl-C and SIGTERM held back until it is loaded.

    An interrupt in the middle of OCP's initialisation can crash the interpreter, and trimesh
    catches ``BaseException`` around its optional imports, which swallows a Ctrl-C; held back,
    the interrupt is delivered right after the imports, where Python raises it normally.
    """
    with interrupts_held():
        from cad import fits, occ, parts  # noqa: F401  (OpenCASCADE: about a second)


def _store_in_cache(staging: Path, cached: Path) -> None:
    """Copy a finished kit into the cache atomically; a failing cache never fails the build."""
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".partial-", dir=cached.parent))
        shutil.copytree(staging, tmp, dirs_exist_ok=True)
        try:
            tmp.rename(cached)
        except OSError:  # another run stored it first
            shutil.rmtree(tmp, ignore_errors=True)
    except OSError:
        pass


def _generate(
    settings: PrintSettings,
    design: AsteroidsDesign,
    dims: PrintDimensions,
    split: bool,
    root: Path,
    previews: bool,
    helpers: Helpers,
    progress: Progress,
) -> dict[str, Any]:
    """Build every part and write every file of the kit into ``root``.

    This process builds the solids, writes their STLs and measures the fits; part checks,
    previews and plates are queued on ``helpers`` as soon as their STLs exist.
    """
    from cad import fits, mesh, occ, parts
    from cad.slicers import BAMBU_PRINTERS, ColourChange, SlicerSettings, WipeTower

    step = progress  # already time-stamped by build_kit
    for sub in ("stl", "step", "plates", "preview") if previews else ("stl", "step", "plates"):
        (root / sub).mkdir(exist_ok=True)
    layer = dims.layer_height
    change_layers = settings.engraving_layers - 1
    fragment_change = round(dims.fragment_height - change_layers * layer, 6)
    ship_change = round(dims.ship_height - change_layers * layer, 6)
    spec = design.spec
    per_colour = spec.ships_per_colour
    table: list[KitPart] = []
    if split:
        for suffix in "ab":
            table.append(
                KitPart(
                    name=f"board-half-{suffix}",
                    count=1,
                    group="board",
                    colours=((settings.board_colour, 1),),
                )
            )
    else:
        table.append(
            KitPart(name="board", count=1, group="board", colours=((settings.board_colour, 1),))
        )
    for kind in FragmentKind:
        count = spec.fragment_counts[kind]
        table.append(
            KitPart(
                name=f"fragment-{kind.value}",
                count=count,
                group="fragments",
                colours=((settings.board_colour, count),),
                change_z=fragment_change,
            )
        )
    table.append(
        KitPart(
            name="ship",
            count=per_colour * 2,
            group="ships",
            colours=((settings.colour_a, per_colour), (settings.colour_b, per_colour)),
            change_z=ship_change,
        )
    )
    by_name = {p.name: p for p in table}

    solids: dict[str, Any] = {}
    sizes: dict[str, tuple[float, float, float]] = {}

    def publish(name: str, solid: Any) -> None:
        """Write a part's STL (and its two multi-material parts) and queue its check and
        preview."""
        part = by_name[name]
        step(f"meshing and writing stl/{name}.stl")
        stl = root / "stl" / f"{name}.stl"
        occ.write_stl(solid, stl, mesh.TESSELLATION_TOLERANCE, mesh.ANGULAR_TOLERANCE_RAD)
        solids[name] = solid
        sizes[name] = mesh.stl_size(stl)
        occ.write_step(solid, root / "step" / f"{name}.step", name)
        if settings.multi_material and part.change_z:
            body, symbols = parts.symbol_layer_split(solid, part.change_z - layer)
            for suffix, piece in (("body", body), ("symbols", symbols)):
                occ.write_stl(
                    piece,
                    root / "stl" / f"{name}-{suffix}.stl",
                    mesh.TESSELLATION_TOLERANCE,
                    mesh.ANGULAR_TOLERANCE_RAD,
                )
                occ.write_step(piece, root / "step" / f"{name}-{suffix}.step", f"{name}-{suffix}")
        colour = part.colours[0][0]
        top = settings.symbol_colour if part.change_z else None
        helpers.add(
            f"part:{name}",
            f"checking stl/{name}.stl" + (f", drawing preview/{name}.png" if previews else ""),
            run_part,
            PartJob(
                name=name,
                stl=stl,
                preview=root / "preview" / f"{name}.png" if previews else None,
                colour=colour,
                top_colour=top,
                change_z=(part.change_z or 0) - layer,
                title=f"{name}  ({_size_words(sizes[name])})",
                legend=_legend(colour, top, part.change_z, layer, multi=settings.multi_material),
                layer_height=layer,
            ),
        )

    step("building the board")
    board = parts.board(dims)
    halves = parts.board_halves(dims, board) if split else None
    if halves is not None:
        publish("board-half-a", halves[0])
        publish("board-half-b", halves[1])
    else:
        publish("board", board)
    for kind in FragmentKind:
        step(f"building fragment {kind.value}")
        publish(f"fragment-{kind.value}", parts.fragment(dims, kind))
    step("building the ship")
    publish("ship", parts.ship(dims))

    footprints = []
    for part in table:
        x, y, z = sizes[part.name]
        if part.group == "ships":  # one plate group per fleet colour
            for letter, (_, count) in zip("AB", part.colours):
                footprints.append(
                    Footprint(part=part.name, x=x, y=y, z=z, count=count, group=f"ships-{letter}")
                )
        else:
            footprints.append(
                Footprint(part=part.name, x=x, y=y, z=z, count=part.count, group=part.group)
            )
    slicer_name = settings.slicer_name
    printer = BAMBU_PRINTERS.get(settings.bed.name) if slicer_name == "bambu" else None
    towers = {
        fp.group: _tower_room(settings, fp.group, layer, printer)
        for fp in footprints
        if settings.multi_material and by_name[fp.part].change_z
    }
    try:
        plates = arrange(
            footprints, settings.bed, settings.plate_spacing, settings.bed_border, towers
        )
    except PlateError as exc:
        raise KitError("--printer", str(exc)) from None
    plate_changes: dict[str, Any] = {}
    plate_slicers: dict[str, Any] = {}
    for plate in plates:
        colour_of = _plate_colour(plate.group, settings)
        change_z = by_name[plate.placements[0].part].change_z
        multi = settings.multi_material and change_z is not None
        change = (
            ColourChange(print_z=change_z, colour=settings.symbol_colour)
            if change_z and not multi
            else None
        )
        plate_changes[plate.name] = change
        slicer = plate_slicers[plate.name] = SlicerSettings(
            bed=(settings.bed.x, settings.bed.y, settings.bed.z),
            layer_height=layer,
            skirt_distance=SKIRT_DISTANCE if settings.bed_border >= SKIRT_BORDER else None,
            filaments=(colour_of, settings.symbol_colour) if multi else (colour_of,),
            output_name=f"{plate.name}.gcode",
            slicer=slicer_name,
            tower=None if plate.tower is None else WipeTower(**_tower_box(plate.tower)),
            printer=printer,
        )
        items = tuple(
            PlateItem(
                name=name,
                stl=root / "stl" / f"{name}.stl",
                colour=colour_of,
                placements=tuple((p.x, p.y, p.rotated) for p in plate.placements if p.part == name),
                parts=(root / "stl" / f"{name}-body.stl", root / "stl" / f"{name}-symbols.stl")
                if multi
                else None,
            )
            for name in dict.fromkeys(p.part for p in plate.placements)
        )
        bed = settings.bed
        helpers.add(
            f"plate:{plate.name}",
            f"writing plates/{plate.name}.3mf"
            + (f", drawing preview/{plate.name}.png" if previews else ""),
            run_plate,
            PlateJob(
                file=root / "plates" / f"{plate.name}.3mf",
                preview=root / "preview" / f"{plate.name}.png" if previews else None,
                items=items,
                change=change,
                settings=slicer,
                layer_height=layer,
                bed=(bed.x, bed.y),
                title=f"{plate.name}: {_plate_words(items)} on {bed.label or bed.name} "
                f"({bed.x:g} x {bed.y:g} mm)",
                legend=_legend(
                    colour_of,
                    settings.symbol_colour if change_z else None,
                    change_z,
                    layer,
                    multi=multi,
                ),
                symbol_colour=settings.symbol_colour if change_z else None,
                symbol_z=(change_z - layer) if change_z else None,
            ),
        )

    step("measuring the fits")
    measured = fits.kit_fits(
        dims,
        fits.PartSet(
            board=board,
            board_halves=halves,
            fragment_hh=solids["fragment-HH"],
            fragment_ha=solids["fragment-HA"],
            ship=solids["ship"],
        ),
        joint=split,
    )
    travel = fits.joint_travel(dims, halves) if halves is not None else None
    volumes = {name: occ.volume(solid) for name, solid in solids.items()}
    results = helpers.finish()

    part_entries: list[dict[str, Any]] = []
    checks: dict[str, PartResult] = {p.name: results[f"part:{p.name}"] for p in table}
    grams = {name: checked.estimate.grams for name, checked in checks.items()}
    for part in table:
        checked = checks[part.name]
        volume = volumes[part.name]
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
    plate_entries = []
    for plate in plates:
        change = plate_changes[plate.name]
        counts: dict[str, int] = {}
        for placement in plate.placements:
            counts[placement.part] = counts.get(placement.part, 0) + 1
        plate_entries.append(
            {
                "file": f"plates/{plate.name}.3mf",
                "group": plate.group,
                "colour": _plate_colour(plate.group, settings),
                "parts": counts,
                "height_mm": round(plate.height, 3),
                "used_area_mm": [round(plate.used[0], 1), round(plate.used[1], 1)],
                "filament_g": round(sum(grams[name] * n for name, n in counts.items()), 1),
                "print_time_s": round(
                    plate_time([(checks[name].estimate, n) for name, n in counts.items()])
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
                    by_name[plate.placements[0].part].change_z,
                    multi=len(plate_slicers[plate.name].filaments) > 1,
                    colour=settings.symbol_colour,
                    layer=layer,
                ),
                "slicer": plate_slicers[plate.name].slicer,
                "filaments": list(plate_slicers[plate.name].filaments),
                "gcode_name": plate_slicers[plate.name].output_name,
                "slicer_settings": plate_slicers[plate.name].values(),
                "wipe_tower": _tower_entry(plate_slicers[plate.name]),
                "preview": f"preview/{plate.name}.png" if previews else None,
            }
        )

    step("checking the storage box")
    box = _box_report(footprints, settings)
    manifest = {
        "kit": "asteroids",
        "generator": "tablesmith",
        "source_hash": source_hash()[:16],
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
            for f in measured
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
    (root / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    (root / "PRINT-NOTES.md").write_text(print_notes(manifest), encoding="utf-8")
    step("kit complete")
    return manifest


def _size_words(size: tuple[float, float, float]) -> str:
    return " x ".join(f"{v:.1f}" for v in size) + " mm"


def _plate_words(items: tuple[PlateItem, ...]) -> str:
    return ", ".join(f"{len(item.placements)} x {item.name}" for item in items)


def change_words(print_z: float, layer: float) -> str:
    """The colour change as a slicer user places it by hand: the height the layer slider
    shows for the first layer in the new colour (its top), and that layer's number.

    Every place that tells the height (previews, PRINT-NOTES.md, the summary, the 3MF's
    ``print_z`` / ``top_z``) uses this convention.
    """
    return f"at {print_z:g} mm (layer {round(print_z / layer)})"


def _legend(
    colour: str,
    top: str | None,
    change_z: float | None,
    layer: float,
    *,
    multi: bool = False,
) -> tuple[tuple[str, str], ...]:
    """Swatches for a preview: the body filament, and the filament after the change (or the
    symbol layer's filament on a multi-material plate)."""
    if top is None or change_z is None:
        return ((colour, f"{colour_name(colour)}, one colour"),)
    if multi:
        return (
            (colour, f"{colour_name(colour)}: filament 1"),
            (top, f"{colour_name(top)}: filament 2, the layer {change_words(change_z, layer)}"),
        )
    return (
        (colour, f"{colour_name(colour)} below"),
        (top, f"{colour_name(top)}: change filament {change_words(change_z, layer)}"),
    )


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


def _tower_room(settings: PrintSettings, group: str, layer: float, printer: Any) -> TowerRoom:
    """The room a multi-material plate of ``group`` keeps for its wipe tower: the purge of
    its one change, body to symbol colour, in the plate's slicer (``cad.slicers``)."""
    from cad.slicers import TOWER_BRIM, TOWER_WALLS, SlicerSettings, tower_area

    slicer = SlicerSettings(
        bed=(settings.bed.x, settings.bed.y, settings.bed.z),
        layer_height=layer,
        skirt_distance=None,
        filaments=(_plate_colour(group, settings), settings.symbol_colour),
        slicer=settings.slicer_name,
        printer=printer,
    )
    return TowerRoom(
        area=tower_area(slicer.purge_volumes()[0][1], layer),
        extra=TOWER_WALLS,
        brim=TOWER_BRIM[slicer.slicer],
    )


def _tower_box(box: tuple[float, float, float, float]) -> dict[str, float]:
    """``Plate.tower`` (x, y, width, depth in mm) as ``WipeTower`` fields."""
    return dict(zip(("x", "y", "width", "depth"), box))


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


def _plate_colour(group: str, settings: PrintSettings) -> str:
    return {"ships-A": settings.colour_a, "ships-B": settings.colour_b}.get(
        group, settings.board_colour
    )


def _box_report(footprints: list[Footprint], settings: PrintSettings) -> dict[str, Any]:
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
