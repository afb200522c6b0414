"""The real-world acceptance check: PrusaSlicer's CLI slices every plate with only the settings
the 3MF carries (no layer height, no bed, nothing on the command line but the file), and the
G-code has the colour change and the top at the heights the kit promises.

Skips where prusa-slicer is missing; CI installs Debian's package so it runs there.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from cad import slicers
from cad.settings import BED_PRESETS
from tests.cad.kitcheck import assert_whole_kit
from tests.conftest import needs_program

pytestmark = [needs_program("prusa-slicer", "prusa-slicer"), pytest.mark.slow]

CONFIGS = [dict(scale=1.0, printer="a1"), dict(scale=0.8, printer="mini")]
IDS = ["1.0-a1", "0.8-mini"]


def _run(*args: str) -> str:
    result = subprocess.run(
        [shutil.which("prusa-slicer") or "prusa-slicer", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def _slice(plate: Path, gcode: Path, *extra: str) -> str:
    """Slice ``plate`` as a user who opens it and presses "Slice" (``--dont-arrange`` keeps
    the 3MF's arrangement); ``extra`` options only where a test asks what goes wrong."""
    _run("--export-gcode", "--dont-arrange", *extra, "-o", str(gcode), str(plate))
    return gcode.read_text(encoding="utf-8")


def _heights(gcode: str) -> tuple[list[float], float | None, str]:
    """Layer heights (``;Z:``), the height (top) of the layer the M600 starts, the config.

    PrusaSlicer writes ``;Z:<top of the layer>`` at a layer change and the colour change right
    after it, before the first move of that layer.
    """
    body, _, config = gcode.partition("; prusaslicer_config = begin")
    zs = [float(z) for z in re.findall(r"^;Z:([\d.]+)", body, flags=re.M)]
    if "\nM600" not in body:
        return zs, None, config
    assert body.count("\nM600") == 1
    before = body[: body.index("\nM600")]
    return zs, float(re.findall(r"^;Z:([\d.]+)", before, flags=re.M)[-1]), config


def _extrusion_segments(gcode: str) -> Iterator[tuple[float, float, float, float]]:
    """Every extruding move of the G-code as (x0, y0, x1, y1) in mm (skirt and priming too)."""
    x = y = 0.0
    for line in gcode.split("; prusaslicer_config = begin")[0].splitlines():
        if not line.startswith("G1 "):
            continue
        fields = dict(re.findall(r"([XYE])(-?[\d.]+)", line.split(";")[0]))
        start = (x, y)
        x, y = float(fields.get("X", x)), float(fields.get("Y", y))
        if float(fields.get("E", 0)) > 0 and ("X" in fields or "Y" in fields):
            yield (*start, x, y)


def _extrusions(gcode: str) -> Iterator[tuple[float, float]]:
    """Where every extruding move of the G-code ends, (x, y) in mm (skirt included)."""
    for _, _, x, y in _extrusion_segments(gcode):
        yield x, y


def _extrusion_extent(gcode: str) -> tuple[float, float, float, float]:
    """min x, min y, max x, max y of every extruding move (skirt included)."""
    xs, ys = zip(*_extrusions(gcode), strict=True)
    return min(xs), min(ys), max(xs), max(ys)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_every_stl_and_3mf_is_manifold_for_prusaslicer(build_kit_once, config) -> None:
    out, manifest = build_kit_once(**config)
    assert_whole_kit(manifest)
    files = [p["file"] for p in manifest["parts"]] + [p["file"] for p in manifest["plates"]]
    for name in files:
        info = _run("--info", str(out / name))
        verdicts = re.findall(r"manifold = (\w+)", info)
        assert verdicts and set(verdicts) == {"yes"}, (name, info)
    for part in manifest["parts"]:
        info = _run("--info", str(out / part["file"]))
        volume = float(re.search(r"volume = ([\d.]+)", info).group(1))
        assert volume == pytest.approx(part["volume_mm3"], rel=0.002)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_every_plate_slices_right_with_only_its_own_settings(
    build_kit_once, config, tmp_path
) -> None:
    out, manifest = build_kit_once(**config)
    assert_whole_kit(manifest)
    layer = manifest["settings"]["layer_height"]
    bed = manifest["settings"]["bed"]
    plates = manifest["plates"]
    with ThreadPoolExecutor(2) as pool:  # the G-code export is single-threaded
        gcodes = list(
            pool.map(
                lambda p: _slice(
                    out / p["file"], tmp_path / Path(p["file"]).with_suffix(".gcode").name
                ),
                plates,
            )
        )
    for plate, gcode in zip(plates, gcodes):
        zs, change_at, config_block = _heights(gcode)
        # the settings came from the 3MF: layer height, first layer, no supports, by layer
        assert f"; layer_height = {layer:g}\n" in config_block
        assert f"; first_layer_height = {layer:g}\n" in config_block
        assert "; support_material = 0\n" in config_block
        assert "; complete_objects = 0\n" in config_block
        assert (
            f"; bed_shape = 0x0,{bed['x']:g}x0,{bed['x']:g}x{bed['y']:g},0x{bed['y']:g}\n"
            in config_block
        )
        assert zs[0] == pytest.approx(layer, abs=1e-6), plate["file"]
        assert all(b - a == pytest.approx(layer, abs=1e-6) for a, b in zip(zs, zs[1:])), plate[
            "file"
        ]
        assert zs[-1] == pytest.approx(plate["height_mm"], abs=1e-6), plate["file"]  # the top
        change = plate["colour_change"]
        if change is None:
            assert change_at is None, plate["file"]
        else:
            # M600 comes right before the layer whose top is the change height: the last one
            assert change_at == pytest.approx(change["height_mm"], abs=1e-6), plate["file"]
            assert change_at == pytest.approx(zs[-1], abs=1e-6)
        # the skirt (2 mm around the parts) and everything else stays on the bed
        x0, y0, x1, y1 = _extrusion_extent(gcode)
        assert x0 > 0.5 and y0 > 0.5 and x1 < bed["x"] - 0.5 and y1 < bed["y"] - 0.5, plate["file"]
        used_cm3 = float(re.search(r"filament used \[cm3\] = ([\d.]+)", gcode).group(1))
        # our estimate (0.8 mm shells, 15 % infill) agrees with the slicer's defaults
        assert plate["filament_g"] / 1.24 == pytest.approx(used_cm3, rel=0.2)


def test_a_thicker_first_layer_loses_the_colour_change_as_the_notes_say(
    build_kit_once, tmp_path
) -> None:
    """PRINT-NOTES.md warns against a first layer other than the layer height: measured here."""
    out, manifest = build_kit_once(scale=0.8, printer="mini")
    assert_whole_kit(manifest)
    plate = next(p for p in manifest["plates"] if p["group"] == "ships-A")
    gcode = _slice(out / plate["file"], tmp_path / "thick.gcode", "--first-layer-height", "0.3")
    zs, change_at, _ = _heights(gcode)
    assert zs[-1] == pytest.approx(plate["height_mm"] - 0.1, abs=1e-6)  # the top is 0.1 mm low
    assert change_at != pytest.approx(plate["colour_change"]["height_mm"], abs=1e-6)


def test_a_multi_material_plate_changes_tool_at_the_symbol_layer_without_a_pause(
    build_kit_once, tmp_path
) -> None:
    out, manifest = build_kit_once(scale=1.0, printer="a1", multi_material=True, slicer="prusa")
    assert_whole_kit(manifest)
    layer = manifest["settings"]["layer_height"]
    for plate in manifest["plates"]:
        gcode = _slice(out / plate["file"], tmp_path / plate["gcode_name"])
        body = gcode.partition("; prusaslicer_config = begin")[0]
        zs, change_at, _ = _heights(gcode)
        assert change_at is None, plate["file"]  # no M600: nobody has to stand by
        tool_changes = []
        z = None
        for line in body.splitlines():
            if line.startswith(";Z:"):
                z = float(line[3:])
            elif line in ("T0", "T1") and z is not None:
                tool_changes.append((line, z))
        symbols = plate["symbol_part"]
        if symbols is None:
            assert tool_changes == [], plate["file"]
            continue
        # T1 once, right at the first layer of the symbol part, which prints to the top
        assert tool_changes == [("T1", pytest.approx(symbols["height_mm"], abs=1e-6))]
        assert zs[-1] == pytest.approx(plate["height_mm"], abs=1e-6)
        assert symbols["height_mm"] == pytest.approx(zs[-1] - (symbols["layer"] - len(zs)) * layer)


def test_every_plate_proposes_its_own_gcode_name(build_kit_once, tmp_path) -> None:
    out, manifest = build_kit_once(scale=0.8, printer="mini")
    assert_whole_kit(manifest)
    names = [plate["gcode_name"] for plate in manifest["plates"]]
    assert len(set(names)) == len(names)
    for plate in manifest["plates"]:
        copy = tmp_path / Path(plate["file"]).name
        shutil.copyfile(out / plate["file"], copy)
        # no -o: PrusaSlicer names the G-code itself (output_filename_format from the 3MF)
        subprocess.run(
            [
                shutil.which("prusa-slicer") or "prusa-slicer",
                "--export-gcode",
                "--dont-arrange",
                str(copy),
            ],
            capture_output=True,
            check=True,
            timeout=600,
        )
    produced = sorted(p.name for p in tmp_path.glob("*.gcode"))
    assert produced == sorted(names)


def test_prusaslicer_drops_the_parts_of_a_bambu_multi_material_plate_as_the_notes_say(
    build_kit_once,
) -> None:
    """Why multi-material plates for PrusaSlicer are written with ``--slicer prusa``: it makes
    an object of each component of a Bambu-layout plate and drops it onto the bed."""
    out, manifest = build_kit_once(scale=1.0, printer="a1", multi_material=True)
    assert_whole_kit(manifest)
    plate = next(p for p in manifest["plates"] if p["group"] == "fragments")
    assert plate["slicer"] == "bambu"
    heights = [
        float(z) for z in re.findall(r"size_z = ([\d.]+)", _run("--info", str(out / plate["file"])))
    ]
    layer = manifest["settings"]["layer_height"]
    assert min(heights) == pytest.approx(layer, abs=1e-3)  # a symbol layer, lying on the bed
    assert max(heights) == pytest.approx(plate["height_mm"] - layer, abs=1e-3)


def _tower_purges(body: str) -> tuple[list[tuple[str, float, bool]], list[tuple[float, float]]]:
    """Per tool change line (``T0``/``T1``): the tool, the new filament extruded on the wipe
    tower from PrusaSlicer's ``; CP TOOLCHANGE WIPE`` to the end of that tower section (mm of
    filament: the purge, ``WipeTower::toolchange_Wipe`` and the tower's layer after it) and
    whether a ``; CP TOOLCHANGE START`` of the tower came before it; and every extruding
    move of the wipe tower (x, y)."""
    changes: list[tuple[str, float, bool]] = []
    moves: list[tuple[float, float]] = []
    kind, x, y, started, wiping = "", 0.0, 0.0, False, False
    for line in body.splitlines():
        if line.startswith(";TYPE:"):
            kind = line[6:]
            wiping = wiping and kind == "Wipe tower"
        elif line == "; CP TOOLCHANGE START":
            started = True
        elif line == "; CP TOOLCHANGE WIPE":
            wiping = True
        elif line in ("T0", "T1"):
            changes.append((line, 0.0, started and kind == "Wipe tower"))
            started = False
        elif line.startswith("G1 "):
            fields = dict(re.findall(r"([XYE])(-?[\d.]+)", line.split(";")[0]))
            x, y = float(fields.get("X", x)), float(fields.get("Y", y))
            extruded = float(fields.get("E", 0))
            if kind == "Wipe tower" and extruded > 0 and ("X" in fields or "Y" in fields):
                moves.append((x, y))
                if wiping and changes:
                    tool, purged, after_start = changes[-1]
                    changes[-1] = (tool, purged + extruded, after_start)
    return changes, moves


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_multi_material_plate_purges_on_its_wipe_tower_on_a_single_nozzle_mmu(
    build_kit_once, config, tmp_path
) -> None:
    """An MMU (one nozzle, two filaments: the printer profile's single_extruder_multi_material)
    purges at least the plate's purge volume of the symbol filament on the wipe tower before
    printing with it, and the tower stands where the plate kept room for it."""
    out, manifest = build_kit_once(**config, multi_material=True, slicer="prusa")
    assert_whole_kit(manifest)
    towered = [p for p in manifest["plates"] if p["symbol_part"]]
    assert len(towered) >= 3
    for plate in towered:
        gcode = _slice(
            out / plate["file"],
            tmp_path / plate["gcode_name"],
            "--single-extruder-multi-material",
        )
        body, _, config_block = gcode.partition("; prusaslicer_config = begin")
        assert "; wipe_tower = 1\n" in config_block
        matrix = re.search(r"^; wiping_volumes_matrix = (.*)$", config_block, flags=re.M)
        assert matrix is not None and matrix.group(1) == "0,140,140,0"
        diameter = float(re.search(r"^; filament_diameter = ([\d.]+)", config_block, re.M)[1])
        changes, moves = _tower_purges(body)
        to_symbols = [c for c in changes if c[0] == "T1"]
        assert len(to_symbols) == 1, plate["file"]  # one change, at the symbol layer
        for _, purged, on_tower in to_symbols:
            assert on_tower, plate["file"]  # the change happens on the wipe tower
            volume = purged * math.pi * diameter**2 / 4
            assert volume >= plate["wipe_tower"]["purge_prusaslicer_mm3"] == 140, plate["file"]
        tower, brim = plate["wipe_tower"], slicers.TOWER_BRIM["prusa"]
        x0, y0 = tower["x_mm"] - brim - 0.5, tower["y_mm"] - brim - 0.5
        x1 = tower["x_mm"] + tower["width_mm"] + brim + 0.5
        y1 = tower["y_mm"] + tower["depth_mm"] + brim + 0.5
        assert moves and all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in moves), plate["file"]


def _extrusions_in(gcode: str, area: tuple[float, float, float, float]) -> int:
    """How many extruding moves pass through ``area`` (x0, y0, x1, y1 in mm), all layers
    (each move looked at every 0.5 mm along it, so one crossing the area counts too)."""
    x0, y0, x1, y1 = area
    count = 0
    for ax, ay, bx, by in _extrusion_segments(gcode):
        steps = max(1, math.ceil(math.hypot(bx - ax, by - ay) / 0.5))
        count += any(
            x0 <= ax + (bx - ax) * i / steps <= x1 and y0 <= ay + (by - ay) * i / steps <= y1
            for i in range(steps + 1)
        )
    return count


def test_x1_plates_print_nothing_in_the_excluded_corner(build_kit_once, tmp_path) -> None:
    """At scale 1.2 the fragments fill a 256 mm plate to its front-left corner: on the A1 the
    slicer prints there, on the X1 (whose profile excludes that 18 x 28 mm corner) not a
    single extruding move, skirt included, on the board and fragment plates; nor on a
    multi-material plate on an MMU (the plates ask for no priming lines, which PrusaSlicer
    draws along the front edge through the corner)."""
    corner = BED_PRESETS["x1"].keep_out[0]
    counts: dict[str, list[int]] = {}
    for printer in ("a1", "x1"):
        out, manifest = build_kit_once(scale=1.2, printer=printer, slicer="prusa")
        assert_whole_kit(manifest)
        plates = [p for p in manifest["plates"] if p["group"] in ("board", "fragments")]
        assert len(plates) == (3 if printer == "a1" else 4)  # a fragments plate more beside it
        counts[printer] = [
            _extrusions_in(_slice(out / p["file"], tmp_path / f"{printer}-{i}.gcode"), corner)
            for i, p in enumerate(plates)
        ]
    assert counts["x1"] == [0, 0, 0, 0]
    assert max(counts["a1"]) > 0, counts
    out, manifest = build_kit_once(scale=1.2, printer="x1", slicer="prusa", multi_material=True)
    assert_whole_kit(manifest)
    plate = next(p for p in manifest["plates"] if p["symbol_part"])
    gcode = _slice(out / plate["file"], tmp_path / "mmu.gcode", "--single-extruder-multi-material")
    assert "; single_extruder_multi_material_priming = 0" in gcode
    assert "CP PRIMING" not in gcode.split("; prusaslicer_config = begin")[0]
    assert _extrusions_in(gcode, corner) == 0
