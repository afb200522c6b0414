"""The kit's plates as Bambu Studio and OrcaSlicer load them (``tests/cad/bbs_reader.py``, a
model of their loader written from its source, since neither runs here): settings found,
every object and part on its filament, the colour change at the height, the plate."""

from __future__ import annotations

import pytest

from tests.cad import bbs_reader

pytestmark = pytest.mark.slow


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
    assert manifest["settings"]["slicer"] == "bambu"
    for plate in manifest["plates"]:
        loaded = bbs_reader.load(out / plate["file"], reader)
        assert loaded.own_project  # copies stay instances of one object
        _check_settings(loaded, manifest)
        _check_plate(loaded, plate, manifest)
        assert len(loaded.plates[1]) == sum(plate["parts"].values())


def test_multi_material_plates_put_the_symbol_parts_on_filament_2(build_kit_once) -> None:
    out, manifest = build_kit_once(scale=1.0, printer="a1", multi_material=True)
    with_symbols = [p for p in manifest["plates"] if p["symbol_part"]]
    assert len(with_symbols) == 3  # fragments and both fleets; the board has none
    for plate in manifest["plates"]:
        for reader in ("bambu", "orca"):
            loaded = bbs_reader.load(out / plate["file"], reader)
            _check_settings(loaded, manifest)
            _check_plate(loaded, plate, manifest)


def test_prusa_plates_load_whole_in_orcaslicer_but_not_in_bambu_studio(build_kit_once) -> None:
    out, manifest = build_kit_once(scale=0.8, printer="mini")  # mini plates default to prusa
    assert manifest["settings"]["slicer"] == "prusa"
    for plate in manifest["plates"]:
        orca = bbs_reader.load(out / plate["file"], "orca")
        _check_settings(orca, manifest)
        assert not orca.own_project  # copies become objects; one colour per plate keeps them right
        _check_plate(orca, plate, manifest)
        bambu = bbs_reader.load(out / plate["file"], "bambu")
        # why a1 plates are written for Bambu Studio: it loads neither settings nor change
        assert bambu.config is None and bambu.colour_changes == {}
