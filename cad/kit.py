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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cad.design import AsteroidsDesign, PrintDimensions, print_dimensions
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
from cad.manifest import (
    KitPart,
    ManifestInputs,
    change_words,
    kit_manifest,
    plate_colour,
)
from cad.notes import print_notes
from cad.outdir import check_target, replacing
from cad.plates import Footprint, PlateError, TowerRoom, arrange, fits_bed
from cad.settings import OptionError, PrintSettings, colour_name
from games.asteroids import FragmentKind

SKIRT_DISTANCE = 2.0
"""mm between the parts and the one-line skirt the plates ask the slicer for."""

SKIRT_BORDER = 3.5
"""Smallest bed border (mm) with room for that skirt (2 mm, a 0.45 mm line, 1 mm to spare)."""

Progress = Callable[[str], None]


class KitError(OptionError):
    """The kit cannot be built with these settings (e.g. ``--printer``: a part is too big)."""


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
    previews and plates are queued on ``helpers`` as soon as their STLs exist. The steps are
    the ones the progress lines (and the print shop's job page) name: building the parts,
    arranging and writing the plates, measuring the fits, the storage box and the manifest.
    """
    for sub in ("stl", "step", "plates", "preview") if previews else ("stl", "step", "plates"):
        (root / sub).mkdir(exist_ok=True)
    kit = _KitBuild(
        settings=settings,
        dims=dims,
        split=split,
        root=root,
        previews=previews,
        helpers=helpers,
        step=progress,  # already time-stamped by build_kit
        table=part_table(settings, design, dims, split),
    )
    board, halves = kit.build_parts()
    footprints = kit.footprints()
    plates = kit.queue_plates(footprints)
    kit.step("measuring the fits")
    measured, travel = kit.measure_fits(board, halves)
    volumes = kit.volumes()
    results = helpers.finish()
    checks: dict[str, PartResult] = {p.name: results[f"part:{p.name}"] for p in kit.table}
    kit.step("checking the storage box")
    manifest = kit_manifest(
        ManifestInputs(
            settings=settings,
            dims=dims,
            split=split,
            previews=previews,
            table=kit.table,
            checks=checks,
            volumes=volumes,
            plates=plates,
            slicers=kit.plate_slicers,
            changes=kit.plate_changes,
            footprints=footprints,
            fits=measured,
            travel=travel,
            source=source_hash()[:16],
        )
    )
    (root / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    (root / "PRINT-NOTES.md").write_text(print_notes(manifest), encoding="utf-8")
    kit.step("kit complete")
    return manifest


def part_table(
    settings: PrintSettings, design: AsteroidsDesign, dims: PrintDimensions, split: bool
) -> list[KitPart]:
    """The kit's distinct parts in file order: the board (or its halves), one fragment per
    kind, the ship; with their counts, colours and colour-change heights (mm)."""
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
    return table


@dataclass(kw_only=True)
class _KitBuild:
    """One kit being generated: its inputs, and the solids, sizes and plate settings the
    steps hand on to each other (``_generate`` runs the steps in order)."""

    settings: PrintSettings
    dims: PrintDimensions
    split: bool
    root: Path
    previews: bool
    helpers: Helpers
    step: Progress
    table: list[KitPart]
    solids: dict[str, Any] = field(default_factory=dict)
    sizes: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    plate_changes: dict[str, Any] = field(default_factory=dict)
    plate_slicers: dict[str, Any] = field(default_factory=dict)

    @property
    def by_name(self) -> dict[str, KitPart]:
        """Part name -> its table row."""
        return {p.name: p for p in self.table}

    def build_parts(self) -> tuple[Any, Any]:
        """Steps "building the board", "building fragment X", "building the ship": build
        each solid and publish it. Returns the whole board and its halves (or None)."""
        from cad import parts

        self.step("building the board")
        board = parts.board(self.dims)
        halves = parts.board_halves(self.dims, board) if self.split else None
        if halves is not None:
            self.publish("board-half-a", halves[0])
            self.publish("board-half-b", halves[1])
        else:
            self.publish("board", board)
        for kind in FragmentKind:
            self.step(f"building fragment {kind.value}")
            self.publish(f"fragment-{kind.value}", parts.fragment(self.dims, kind))
        self.step("building the ship")
        self.publish("ship", parts.ship(self.dims))
        return board, halves

    def publish(self, name: str, solid: Any) -> None:
        """Step "meshing and writing stl/NAME.stl": write a part's STL and STEP (and its two
        multi-material parts) and queue its check and preview."""
        from cad import mesh, occ, parts

        settings, root, layer = self.settings, self.root, self.dims.layer_height
        part = self.by_name[name]
        self.step(f"meshing and writing stl/{name}.stl")
        stl = root / "stl" / f"{name}.stl"
        occ.write_stl(solid, stl, mesh.TESSELLATION_TOLERANCE, mesh.ANGULAR_TOLERANCE_RAD)
        self.solids[name] = solid
        self.sizes[name] = mesh.stl_size(stl)
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
        self.helpers.add(
            f"part:{name}",
            f"checking stl/{name}.stl" + (f", drawing preview/{name}.png" if self.previews else ""),
            run_part,
            PartJob(
                name=name,
                stl=stl,
                preview=root / "preview" / f"{name}.png" if self.previews else None,
                colour=colour,
                top_colour=top,
                change_z=(part.change_z or 0) - layer,
                title=f"{name}  ({_size_words(self.sizes[name])})",
                legend=_legend(colour, top, part.change_z, layer, multi=settings.multi_material),
                layer_height=layer,
            ),
        )

    def footprints(self) -> list[Footprint]:
        """Every part's footprint on the bed, in plate groups (one per fleet colour)."""
        footprints = []
        for part in self.table:
            x, y, z = self.sizes[part.name]
            if part.group == "ships":  # one plate group per fleet colour
                for letter, (_, count) in zip("AB", part.colours):
                    footprints.append(
                        Footprint(
                            part=part.name, x=x, y=y, z=z, count=count, group=f"ships-{letter}"
                        )
                    )
            else:
                footprints.append(
                    Footprint(part=part.name, x=x, y=y, z=z, count=part.count, group=part.group)
                )
        return footprints

    def queue_plates(self, footprints: list[Footprint]) -> list[Any]:
        """Arrange the plates and queue step "writing plates/NAME.3mf" for each; returns the
        plates and keeps each one's colour change and slicer settings.

        Raises:
            KitError: the parts cannot be arranged on the bed (``--printer``).
        """
        from cad.slicers import BAMBU_PRINTERS

        settings = self.settings
        printer = BAMBU_PRINTERS.get(settings.bed.name) if settings.slicer_name == "bambu" else None
        by_name = self.by_name
        towers = {
            fp.group: _tower_room(settings, fp.group, self.dims.layer_height, printer)
            for fp in footprints
            if settings.multi_material and by_name[fp.part].change_z
        }
        try:
            plates = arrange(
                footprints, settings.bed, settings.plate_spacing, settings.bed_border, towers
            )
        except PlateError as exc:
            raise KitError("--printer", str(exc)) from None
        for plate in plates:
            self.queue_plate(plate, printer)
        return plates

    def queue_plate(self, plate: Any, printer: Any) -> None:
        """Queue one plate's 3MF and preview, with its colour change or symbol part."""
        from cad.slicers import ColourChange, SlicerSettings, WipeTower

        settings, root, layer, previews = (
            self.settings,
            self.root,
            self.dims.layer_height,
            self.previews,
        )
        colour_of = plate_colour(plate.group, settings)
        change_z = self.by_name[plate.placements[0].part].change_z
        multi = settings.multi_material and change_z is not None
        change = (
            ColourChange(print_z=change_z, colour=settings.symbol_colour)
            if change_z and not multi
            else None
        )
        self.plate_changes[plate.name] = change
        slicer = self.plate_slicers[plate.name] = SlicerSettings(
            bed=(settings.bed.x, settings.bed.y, settings.bed.z),
            layer_height=layer,
            skirt_distance=SKIRT_DISTANCE if settings.bed_border >= SKIRT_BORDER else None,
            filaments=(colour_of, settings.symbol_colour) if multi else (colour_of,),
            output_name=f"{plate.name}.gcode",
            slicer=settings.slicer_name,
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
        self.helpers.add(
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

    def measure_fits(self, board: Any, halves: Any) -> tuple[list[Any], Any]:
        """Step "measuring the fits": the play between the parts that meet, and the board
        joint's travel (None for a whole board)."""
        from cad import fits

        measured = fits.kit_fits(
            self.dims,
            fits.PartSet(
                board=board,
                board_halves=halves,
                fragment_hh=self.solids["fragment-HH"],
                fragment_ha=self.solids["fragment-HA"],
                ship=self.solids["ship"],
            ),
            joint=self.split,
        )
        travel = fits.joint_travel(self.dims, halves) if halves is not None else None
        return measured, travel

    def volumes(self) -> dict[str, float]:
        """Part name -> the exact solid's volume (mm^3)."""
        from cad import occ

        return {name: occ.volume(solid) for name, solid in self.solids.items()}


def _size_words(size: tuple[float, float, float]) -> str:
    return " x ".join(f"{v:.1f}" for v in size) + " mm"


def _plate_words(items: tuple[PlateItem, ...]) -> str:
    return ", ".join(f"{len(item.placements)} x {item.name}" for item in items)


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


def _tower_room(settings: PrintSettings, group: str, layer: float, printer: Any) -> TowerRoom:
    """The room a multi-material plate of ``group`` keeps for its wipe tower: the purge of
    its one change, body to symbol colour, in the plate's slicer (``cad.slicers``)."""
    from cad.slicers import TOWER_BRIM, TOWER_WALLS, SlicerSettings, tower_area

    slicer = SlicerSettings(
        bed=(settings.bed.x, settings.bed.y, settings.bed.z),
        layer_height=layer,
        skirt_distance=None,
        filaments=(plate_colour(group, settings), settings.symbol_colour),
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
