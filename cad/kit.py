"""One build of the Asteroids print kit: parts -> files -> manifest, cached, written atomically.

Units: mm, mm^3, g. Output folder layout (all names fixed, see README):

    manifest.json          parts, plates, fits, storage box, settings (machine-readable)
    PRINT-NOTES.md         the same in plain words: colours, filament changes, supports
    stl/<part>.stl         one binary STL per distinct part
    plates/<plate>.3mf     print plates for the chosen bed, with colour-change metadata
    preview/<name>.png     a picture of every part and plate

Nothing is written into the output folder until the whole kit is complete: the kit is built in
a hidden sibling folder and then moved into place, so an interrupted run never leaves a kit
that looks complete. Rebuilds with unchanged settings come from a cache keyed by the settings,
the design and a hash of the generator's source code.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from cad.design import AsteroidsDesign, PrintDimensions, print_dimensions
from cad.notes import print_notes
from cad.outdir import check_target, replacing
from cad.plates import Footprint, PlateError, arrange, fits_bed, pack_box
from cad.settings import OptionError, PrintSettings
from games.asteroids import FragmentKind

PLA_DENSITY_G_PER_MM3 = 1.24e-3
"""PLA density (1.24 g/cm^3, PRINT-FORMATS.md) for filament estimates."""

SHELL_THICKNESS = 0.8
"""mm of solid shell assumed under every surface (2 perimeters, 4 top/bottom layers)."""

INFILL = 0.15
"""Infill fraction assumed inside the shell (a slicer's common default)."""


def filament_grams(volume: float, area: float) -> float:
    """Estimated PLA for one part as a slicer prints it by default (g).

    Solid shell of ``SHELL_THICKNESS`` under the whole surface, ``INFILL`` inside; never more
    than the solid volume. Checked against PrusaSlicer 2.5 defaults: +4 % for the board, -1 %
    for the fragments, -18 % for the small ships (their tops and bosses print more solid).

    Args:
        volume: solid volume in mm^3.
        area: surface area in mm^2.
    """
    shell = min(volume, area * SHELL_THICKNESS)
    return (shell + INFILL * (volume - shell)) * PLA_DENSITY_G_PER_MM3


PLATE_MARGIN = 3.0
"""Free border (mm) kept around every plate's bed edge (a 249 mm board fits a 250 mm bed)."""

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
    if not hit:
        _import_geometry()  # before anything is written: it takes seconds
    with replacing(target) as staging:
        if hit:
            assert cached is not None
            progress(f"unchanged settings: copying the cached kit {key}")
            shutil.copytree(cached, staging, dirs_exist_ok=True)
            manifest = json.loads((staging / "manifest.json").read_text(encoding="utf-8"))
        else:
            manifest = _generate(settings, design, dims, split, staging, previews, progress)
            if cached is not None:
                _store_in_cache(staging, cached)
    return manifest


def board_split(settings: PrintSettings, design: AsteroidsDesign, dims: PrintDimensions) -> bool:
    """Whether the board is printed in two halves on ``settings.bed`` (pure, before any CAD).

    Returns:
        False when the whole board fits the bed, True when its halves do.

    Raises:
        KitError: not even a half fits (option ``--printer``); the message gives the largest
            scale that fits this bed and the bed size this scale needs.
    """
    bed = settings.bed
    if fits_bed(dims.board_footprint(half=False), bed, PLATE_MARGIN):
        return False
    half = dims.board_footprint(half=True)
    if fits_bed(half, bed, PLATE_MARGIN):
        return True
    best = None
    for hundredths in range(round(settings.scale * 100) - 1, 49, -1):
        try:
            smaller = print_dimensions(replace(settings, scale=hundredths / 100), design)
        except OptionError:
            break
        if fits_bed(smaller.board_footprint(half=True), bed, PLATE_MARGIN):
            best = hundredths / 100
            break
    scale_hint = f"--scale {best:g} or less" if best else "no scale"
    raise KitError(
        "--printer",
        f"the board, even in halves ({half[0]:.1f} x {half[1]:.1f} mm), does not fit the bed "
        f"{bed.x:g} x {bed.y:g} mm ({PLATE_MARGIN:g} mm border); at scale {settings.scale:g} "
        f"it needs a bed of at least {half[0] + 2 * PLATE_MARGIN:.0f} x "
        f"{half[1] + 2 * PLATE_MARGIN:.0f} mm; on this bed {scale_hint} fits; "
        f"got {bed.name if bed.name != 'custom' else f'{bed.x:g}x{bed.y:g}'}",
    )


def _import_geometry() -> None:
    """Import CadQuery and the mesh, 3MF and preview libraries with Ctrl-C and SIGTERM held
    back until they are loaded (seconds).

    An interrupt in the middle of OCP's initialisation can crash the interpreter, and trimesh
    catches ``BaseException`` around its optional imports, which swallows a Ctrl-C; held back,
    the interrupt is delivered right after the imports, where Python raises it normally.
    """
    held = {signal.SIGINT, signal.SIGTERM}
    blocked = (
        signal.pthread_sigmask(signal.SIG_BLOCK, held)
        if hasattr(signal, "pthread_sigmask")
        else None
    )
    try:
        import cadquery  # noqa: F401

        from cad import fits, mesh, parts, preview, threemf  # noqa: F401
    finally:
        if blocked is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


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
    progress: Progress,
) -> dict[str, Any]:
    """Build every part and write every file of the kit into ``root``."""
    # heavy imports here: CadQuery costs seconds and is only needed to generate
    from cad import fits, mesh, parts, preview, threemf

    started = time.perf_counter()

    def step(message: str) -> None:
        progress(f"[{time.perf_counter() - started:5.1f} s] {message}")

    for sub in ("stl", "plates", "preview") if previews else ("stl", "plates"):
        (root / sub).mkdir(exist_ok=True)
    layer = dims.layer_height
    change_layers = settings.engraving_layers - 1
    fragment_change = round(dims.fragment_height - change_layers * layer, 6)
    ship_change = round(dims.ship_height - change_layers * layer, 6)

    step("building the board")
    board = parts.board(dims)
    halves = parts.board_halves(dims, board)
    solids: dict[str, Any] = {}
    table: list[KitPart] = []
    if split:
        for suffix, half in zip("ab", halves):
            solids[f"board-half-{suffix}"] = half
            table.append(
                KitPart(
                    name=f"board-half-{suffix}",
                    count=1,
                    group="board",
                    colours=((settings.board_colour, 1),),
                )
            )
    else:
        solids["board"] = board
        table.append(
            KitPart(name="board", count=1, group="board", colours=((settings.board_colour, 1),))
        )
    spec = design.spec
    for kind in FragmentKind:
        step(f"building fragment {kind.value}")
        count = spec.fragment_counts[kind]
        solids[f"fragment-{kind.value}"] = parts.fragment(dims, kind)
        table.append(
            KitPart(
                name=f"fragment-{kind.value}",
                count=count,
                group="fragments",
                colours=((settings.board_colour, count),),
                change_z=fragment_change,
            )
        )
    step("building the ship")
    solids["ship"] = parts.ship(dims)
    per_colour = spec.ships_per_colour
    table.append(
        KitPart(
            name="ship",
            count=per_colour * 2,
            group="ships",
            colours=((settings.colour_a, per_colour), (settings.colour_b, per_colour)),
            change_z=ship_change,
        )
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

    meshes, grams = {}, {}
    part_entries = []
    for part in table:
        step(f"meshing and writing stl/{part.name}.stl")
        solid = solids[part.name]
        meshes[part.name] = mesh.checked_mesh(solid, part.name)
        mesh.write_stl(solid, root / "stl" / f"{part.name}.stl")
        volume = solid.Volume()
        grams[part.name] = filament_grams(volume, float(meshes[part.name].area))
        size = _size(meshes[part.name])
        part_entries.append(
            {
                "name": part.name,
                "count": part.count,
                "file": f"stl/{part.name}.stl",
                "bounding_box_mm": [round(v, 3) for v in size],
                "volume_mm3": round(volume, 1),
                "filament_g": round(grams[part.name], 2),
                "filament_g_all_copies": round(grams[part.name] * part.count, 1),
                "filament_g_solid": round(volume * PLA_DENSITY_G_PER_MM3, 2),
                "colours": [{"colour": c, "count": n} for c, n in part.colours],
                "colour_change_mm": part.change_z,
                "triangles": len(meshes[part.name].faces),
                "preview": f"preview/{part.name}.png" if previews else None,
            }
        )
        if previews:
            step(f"rendering preview/{part.name}.png")
            m = meshes[part.name]
            colour = part.colours[0][0]
            preview.render_png(
                [
                    preview.Shaded(
                        vertices=m.vertices,
                        faces=m.faces,
                        colour=colour,
                        top_colour=settings.symbol_colour if part.change_z else None,
                        change_z=(part.change_z or 0) - layer,
                    )
                ],
                root / "preview" / f"{part.name}.png",
                title=f"{part.name}  ({size[0]:.1f} x {size[1]:.1f} x {size[2]:.1f} mm)",
            )

    footprints = []
    for part in table:
        x, y, z = _size(meshes[part.name])
        if part.group == "ships":  # one plate group per fleet colour
            for letter, (_, count) in zip("AB", part.colours):
                footprints.append(
                    Footprint(part=part.name, x=x, y=y, z=z, count=count, group=f"ships-{letter}")
                )
        else:
            footprints.append(
                Footprint(part=part.name, x=x, y=y, z=z, count=part.count, group=part.group)
            )
    try:
        plates = arrange(footprints, settings.bed, settings.plate_spacing, PLATE_MARGIN)
    except PlateError as exc:
        raise KitError("--printer", str(exc)) from None

    by_name = {p.name: p for p in table}
    plate_entries = []
    for plate in plates:
        step(f"writing plates/{plate.name}.3mf")
        colour_of = _plate_colour(plate.group, settings)
        change_z = by_name[plate.placements[0].part].change_z
        change = (
            threemf.ColourChange(print_z=change_z, colour=settings.symbol_colour)
            if change_z
            else None
        )
        objects, shaded, counts = [], [], {}
        for name in dict.fromkeys(p.part for p in plate.placements):
            m = meshes[name]
            centred = m.vertices - [*((m.bounds[0][:2] + m.bounds[1][:2]) / 2), 0.0]
            places = tuple((p.x, p.y, p.rotated) for p in plate.placements if p.part == name)
            counts[name] = len(places)
            objects.append(
                threemf.PlateObject(
                    name=name, vertices=centred, faces=m.faces, colour=colour_of, placements=places
                )
            )
            for x, y, rotated in places:
                placed = centred[:, [1, 0, 2]] * [-1, 1, 1] if rotated else centred.copy()
                shaded.append(
                    preview.Shaded(
                        vertices=placed + [x, y, 0],
                        faces=m.faces,
                        colour=colour_of,
                        top_colour=settings.symbol_colour if change else None,
                        change_z=(change_z or 0) - layer,
                    )
                )
        threemf.write_plate(root / "plates" / f"{plate.name}.3mf", objects, change)
        plate_entries.append(
            {
                "file": f"plates/{plate.name}.3mf",
                "group": plate.group,
                "colour": colour_of,
                "parts": counts,
                "height_mm": round(plate.height, 3),
                "used_area_mm": [round(plate.used[0], 1), round(plate.used[1], 1)],
                "filament_g": round(sum(grams[name] * n for name, n in counts.items()), 1),
                "colour_change": None
                if change is None
                else {
                    "height_mm": change.print_z,
                    "layer": round(change.print_z / layer),
                    "colour": settings.symbol_colour,
                },
                "preview": f"preview/{plate.name}.png" if previews else None,
            }
        )
        if previews:
            step(f"rendering preview/{plate.name}.png")
            preview.render_png(
                shaded,
                root / "preview" / f"{plate.name}.png",
                view="top",
                bed=(settings.bed.x, settings.bed.y),
                title=f"{plate.name} on {settings.bed.label or settings.bed.name} "
                f"({settings.bed.x:g} x {settings.bed.y:g} mm)",
            )

    step("checking the storage box")
    box = _box_report(footprints, settings)
    manifest = {
        "kit": "asteroids",
        "generator": "tablesmith",
        "source_hash": source_hash()[:16],
        "settings": settings.to_json(),
        "dimensions_mm": _dimension_summary(dims),
        "board_split": split,
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
        "storage_box": box,
        "filament_total_g": round(sum(e["filament_g_all_copies"] for e in part_entries), 1),
    }
    (root / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    (root / "PRINT-NOTES.md").write_text(print_notes(manifest), encoding="utf-8")
    step("kit complete")
    return manifest


def _size(mesh: Any) -> tuple[float, float, float]:
    """Bounding-box size (x, y, z) in mm of a mesh: what the slicer will see."""
    low, high = mesh.bounds
    return (float(high[0] - low[0]), float(high[1] - low[1]), float(high[2] - low[2]))


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
        "layers": [{"group": g, "height_mm": round(h, 2)} for g, h in packing.layers],
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
