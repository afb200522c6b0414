"""The kit's plates as Bambu Studio and OrcaSlicer load them (``tests/cad/bbs_reader.py``, a
model of their loader written from its source, since neither runs here): settings found,
every object and part on its filament, the colour change at the height, the plate."""

from __future__ import annotations

import re
import zipfile

import pytest

from cad import slicers
from tests.cad import bbs_reader
from tests.cad.kitcheck import assert_whole_kit

pytestmark = pytest.mark.slow

_MODEL = "3D/3dmodel.model"


def _check_settings(loaded: bbs_reader.Loaded, manifest: dict) -> None:
    config = loaded.config
    assert config is not None
    layer = manifest["settings"]["layer_height"]
    bed = manifest["settings"]["bed"]
    assert float(config["layer_height"]) == float(config["initial_layer_print_height"]) == layer
    assert config["enable_support"] == "0" and config["print_sequence"] == "by layer"
    assert config["printable_area"] == [
        "0x0",
        f"{bed['x']:g}x0",
        f"{bed['x']:g}x{bed['y']:g}",
        f"0x{bed['y']:g}",
    ]
    assert config["skirt_loops"] == "1" and config["skirt_distance"] == "2"
    assert config["brim_type"] == "no_brim"


def _check_plate(loaded: bbs_reader.Loaded, plate: dict, manifest: dict) -> None:
    """Every part of the plate on the right filament, the colour change at the height."""
    copies = {obj.name: 0 for obj in loaded.objects}
    for obj in loaded.objects:
        copies[obj.name] += obj.copies
    assert copies == plate["parts"], plate["file"]
    assert loaded.filament_colour(1) == plate["colour"]
    assert config_name(loaded) == plate["gcode_name"]
    symbols = plate["symbol_part"]
    for obj in loaded.objects:
        assert obj.filament == 1, (plate["file"], obj.name)
        filaments = sorted(obj.filament_of(v) for v in obj.volumes)
        assert filaments == ([1, 2] if symbols else [1]), (plate["file"], obj.name)
    if symbols:
        assert (
            loaded.filament_colour(2) == symbols["colour"] == manifest["settings"]["symbol_colour"]
        )
        assert loaded.colour_changes == {}
        for obj in loaded.objects:
            (symbol_volume,) = [v for v in obj.volumes if obj.filament_of(v) == 2]
            assert symbol_volume.name == f"{obj.name} symbols"
    change = plate["colour_change"]
    if change is None:
        assert loaded.colour_changes == {}
    else:
        (code,) = loaded.colour_changes[1]
        assert code["top_z"] == pytest.approx(change["height_mm"], abs=1e-9)
        assert code["type"] == 0 and code["extruder"] == 1
        assert code["color"] == change["colour"]


def config_name(loaded: bbs_reader.Loaded) -> object:
    return (loaded.config or {}).get("filename_format")


@pytest.mark.parametrize("reader", ["bambu", "orca"])
def test_bambu_plates_load_whole_in_bambu_studio_and_orcaslicer(build_kit_once, reader) -> None:
    out, manifest = build_kit_once(scale=1.0, printer="a1")  # a1 plates default to bambu
    assert_whole_kit(manifest)
    assert manifest["settings"]["slicer"] == "bambu"
    for plate in manifest["plates"]:
        loaded = bbs_reader.load(out / plate["file"], reader)
        assert loaded.own_project  # copies stay instances of one object
        _check_settings(loaded, manifest)
        _check_plate(loaded, plate, manifest)
        assert len(loaded.plates[1]) == sum(plate["parts"].values())


def test_multi_material_plates_put_the_symbol_parts_on_filament_2(build_kit_once) -> None:
    out, manifest = build_kit_once(scale=1.0, printer="a1", multi_material=True)
    assert_whole_kit(manifest)
    with_symbols = [p for p in manifest["plates"] if p["symbol_part"]]
    assert len(with_symbols) == 3  # fragments and both fleets; the board has none
    for plate in manifest["plates"]:
        for reader in ("bambu", "orca"):
            loaded = bbs_reader.load(out / plate["file"], reader)
            _check_settings(loaded, manifest)
            _check_plate(loaded, plate, manifest)


def test_prusa_plates_load_whole_in_orcaslicer_but_not_in_bambu_studio(build_kit_once) -> None:
    out, manifest = build_kit_once(scale=0.8, printer="mini")  # mini plates default to prusa
    assert_whole_kit(manifest)
    assert manifest["settings"]["slicer"] == "prusa"
    for plate in manifest["plates"]:
        orca = bbs_reader.load(out / plate["file"], "orca")
        _check_settings(orca, manifest)
        assert not orca.own_project  # copies become objects; one colour per plate keeps them right
        _check_plate(orca, plate, manifest)
        bambu = bbs_reader.load(out / plate["file"], "bambu")
        # why a1 plates are written for Bambu Studio: it loads neither settings nor change
        assert bambu.config is None and bambu.colour_changes == {}


KIT_KEYS = (
    "layer_height",
    "initial_layer_print_height",
    "enable_support",
    "raft_layers",
    "print_sequence",
    "skirt_loops",
    "skirt_distance",
    "brim_type",
    "brim_width",
    "xy_contour_compensation",
    "xy_hole_compensation",
    "elefant_foot_compensation",
    "filename_format",
    "printable_area",
    "printable_height",
    "filament_colour",
)
"""Every setting a plate carries for Bambu Studio: each must survive its profile loading."""


@pytest.mark.parametrize(
    ("options", "model", "suffix"),
    [
        (dict(scale=1.0, printer="a1"), "Bambu Lab A1", "A1"),
        (dict(scale=0.8, printer="mini", slicer="bambu"), "Bambu Lab A1 mini", "A1M"),
        (dict(scale=1.0, printer="x1"), "Bambu Lab X1 Carbon", "X1C"),
        (dict(scale=0.8, printer="p1s", multi_material=True), "Bambu Lab P1S", "X1C"),
    ],
    ids=["a1-default", "mini-bambu", "x1-default", "p1s-multi-material"],
)
def test_bambu_plates_open_in_bambu_studio_2_as_projects_on_the_bambu_printer(
    build_kit_once, options, model, suffix
) -> None:
    out, manifest = build_kit_once(**options)
    assert_whole_kit(manifest)
    assert manifest["settings"]["slicer"] == "bambu"
    for plate in manifest["plates"]:
        with zipfile.ZipFile(out / plate["file"]) as archive:
            claim = re.search(
                rb'<metadata name="Application"[^>]*>BambuStudio-(\d+)\.', archive.read(_MODEL)
            )
            assert b'<metadata name="BambuStudio:3mfVersion"' in archive.read(_MODEL)
        assert claim is not None and int(claim.group(1)) == 2  # a 2.x release, no newer major
        loaded = bbs_reader.load(out / plate["file"], "bambu")
        assert (loaded.load_type, loaded.message) == ("project", None), plate["file"]
        config = loaded.config or {}
        assert config["printer_model"] == model
        assert config["printer_settings_id"] == f"{model} 0.4 nozzle"
        assert config["print_settings_id"] == f"0.20mm Standard @BBL {suffix}"
        assert config["filament_settings_id"] == [f"Bambu PLA Basic @BBL {suffix}"] * len(
            plate["filaments"]
        )
        assert config["nozzle_diameter"] == ["0.4"] and config["printer_variant"] == "0.4"
        assert config["from"] == "project" and config["version"].startswith("02.")
        for key in KIT_KEYS:
            assert loaded.kept(key), (plate["file"], key)


def test_multi_material_bambu_plates_carry_the_prime_tower_and_flush_volumes(
    build_kit_once,
) -> None:
    out, manifest = build_kit_once(scale=1.0, printer="a1", multi_material=True)
    assert_whole_kit(manifest)
    for plate in manifest["plates"]:
        loaded = bbs_reader.load(out / plate["file"], "bambu")
        assert loaded.load_type == "project"
        config = loaded.config or {}
        tower = plate["wipe_tower"]
        if not plate["symbol_part"]:
            assert tower is None and "enable_prime_tower" not in config
            continue
        for key in ("enable_prime_tower", "prime_tower_width", "prime_tower_rib_wall"):
            assert loaded.kept(key), key
        assert config["enable_prime_tower"] == "1" and config["prime_tower_rib_wall"] == "0"
        assert float(config["prime_tower_width"]) == pytest.approx(tower["width_mm"], abs=0.1)
        assert float(config["wipe_tower_x"][0]) == pytest.approx(tower["x_mm"], abs=0.1)
        assert float(config["wipe_tower_y"][0]) == pytest.approx(tower["y_mm"], abs=0.1)
        assert loaded.kept("flush_volumes_matrix") and loaded.kept("wipe_tower_x")
        # body to symbol colour, by Bambu Studio's colour rule plus the A1's nozzle volume 92
        body, symbol = plate["filaments"]
        expected = slicers.bambu_flush_volume(body, symbol, 92, 900)
        assert config["flush_volumes_matrix"][1] == f"{expected:g}" == f"{tower['purge_mm3']:g}"
        assert expected > 300  # grey (386), blue (558) or red (553) to white: over 2x Prusa's 140
