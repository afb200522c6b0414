"""The 3MF plates as PrusaSlicer and OrcaSlicer read them: project settings and instances."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import numpy as np
import pytest

from cad import slicers, threemf

SETTINGS = threemf.SlicerSettings(bed=(250.0, 210.0, 220.0), layer_height=0.16, skirt_distance=2.0)


def _prusaslicer_reads(config: bytes) -> dict[str, str]:
    """PrusaSlicer 2.5's ``ConfigBase::load_from_gcode_string_legacy``, line by line: from the
    end backwards; stop at a line shorter than 10 characters, not ``; key = value``, a key
    shorter than 3 or not [A-Za-z0-9_]; the first line of the buffer is never read."""
    lines = config.decode().rstrip("\n").split("\n")
    found: dict[str, str] = {}
    for line in reversed(lines[1:]):
        match = re.fullmatch(r"; ([A-Za-z][A-Za-z0-9_]{2,}) = (.*)", line)
        if len(line) < 10 or match is None:
            break
        found[match.group(1)] = match.group(2)
    return found


def test_prusaslicer_reads_every_setting_of_the_plate() -> None:
    read = _prusaslicer_reads(threemf.prusaslicer_config(SETTINGS))
    assert read == SETTINGS.values()
    assert read["layer_height"] == read["first_layer_height"] == "0.16"
    assert read["bed_shape"] == "0x0,250x0,250x210,0x210" and read["max_print_height"] == "220"
    assert read["support_material"] == "0" and read["complete_objects"] == "0"
    assert read["skirts"] == "1" and read["skirt_distance"] == "2"


def test_no_skirt_where_the_border_has_no_room() -> None:
    tight = threemf.SlicerSettings(bed=(180.0, 180.0, 180.0), layer_height=0.2, skirt_distance=None)
    assert _prusaslicer_reads(threemf.prusaslicer_config(tight))["skirts"] == "0"
    assert json.loads(threemf.orcaslicer_config(tight))["skirt_loops"] == "0"


def test_orcaslicer_gets_a_flat_json_object_of_strings_under_its_own_names() -> None:
    data = json.loads(threemf.orcaslicer_config(SETTINGS))
    for key, value in data.items():
        assert isinstance(value, str) or all(isinstance(v, str) for v in value), key
    assert data["layer_height"] == data["initial_layer_print_height"] == "0.16"
    assert data["printable_area"] == ["0x0", "250x0", "250x210", "0x210"]
    assert data["enable_support"] == "0" and data["print_sequence"] == "by layer"


def _tetrahedron() -> threemf.PlateObject:
    return threemf.PlateObject(
        name="tet",
        vertices=np.array([[0, 0, 0], [10, 0, 0], [0, 10, 0], [0, 0, 10]], float),
        faces=np.array([[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]]),
        colour="#2E64C8",
        placements=((20.0, 20.0, False), (50.0, 20.0, True)),
    )


def test_a_plate_is_a_prusaslicer_project_with_instances(
    tmp_path: Path,
) -> None:
    change = threemf.ColourChange(print_z=4.0, colour="#F2F2F2")
    a = tmp_path / "a.3mf"
    threemf.write_plate(a, [_tetrahedron()], change, SETTINGS)
    with zipfile.ZipFile(a) as archive:
        names = set(archive.namelist())
        model = archive.read("3D/3dmodel.model").decode()
        config = archive.read(threemf.PRUSA_PRINT_CONFIG)
    assert {threemf.PRUSA_PRINT_CONFIG, threemf.ORCA_PROJECT_CONFIG} <= names
    assert {threemf.PRUSA_COLOUR_CHANGE, threemf.BAMBU_COLOUR_CHANGE} <= names
    # PrusaSlicer keeps the copies as instances of one object only in files marked as its own
    assert 'xmlns:slic3rpe="http://schemas.slic3r.org/3mf/2017/06"' in model
    assert re.search(r'<metadata name="slic3rpe:Version3mf"[^>]*>1</metadata>', model)
    assert model.count("<object ") == 1 and model.count("<item ") == 2
    assert _prusaslicer_reads(config)["layer_height"] == "0.16"


def test_same_plate_twice_gives_the_same_bytes(tmp_path: Path) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir()
    second.mkdir()
    for folder in (first, second):
        threemf.write_plate(folder / "plate.3mf", [_tetrahedron()], None, SETTINGS)
    assert (first / "plate.3mf").read_bytes() == (second / "plate.3mf").read_bytes()
    with zipfile.ZipFile(first / "plate.3mf") as archive:
        assert threemf.PRUSA_COLOUR_CHANGE not in archive.namelist()


@pytest.mark.parametrize("value", [0.2, 0.16, 256.0])
def test_numbers_are_written_short(value: float) -> None:
    assert slicers._num(value) == f"{value:g}"


def _plate(tmp_path: Path, slicer: str, extra: bool) -> tuple[str, dict[str, bytes]]:
    obj = _tetrahedron()
    if extra:
        top = threemf.PlatePart(
            name="tet symbols", vertices=obj.vertices + [0, 0, 10], faces=obj.faces, filament=2
        )
        obj = threemf.PlateObject(
            name=obj.name,
            vertices=obj.vertices,
            faces=obj.faces,
            colour=obj.colour,
            placements=obj.placements,
            extra_parts=(top,),
        )
    settings = slicers.SlicerSettings(
        bed=(256.0, 256.0, 256.0),
        layer_height=0.2,
        skirt_distance=2.0,
        filaments=("#2E64C8", "#F2F2F2") if extra else ("#2E64C8",),
        output_name="tet.gcode",
        slicer=slicer,  # type: ignore[arg-type]
    )
    path = tmp_path / f"{slicer}-{extra}.3mf"
    threemf.write_plate(path, [obj], None, settings)
    with zipfile.ZipFile(path) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    return files["3D/3dmodel.model"].decode(), files


@pytest.mark.parametrize("slicer", ["prusa", "orca", "bambu"])
def test_each_slicer_gets_its_claim_and_model_config(tmp_path: Path, slicer: str) -> None:
    model, files = _plate(tmp_path, slicer, extra=False)
    claim = re.search(r'<metadata name="Application"[^>]*>([^<]*)<', model)
    if slicer == "prusa":
        assert claim is None and slicers.PRUSA_MODEL_CONFIG in files
        assert slicers.BAMBU_MODEL_CONFIG not in files
    else:
        assert claim is not None
        assert claim.group(1).startswith("BambuStudio-" if slicer == "bambu" else "OrcaSlicer-")
        assert slicers.BAMBU_MODEL_CONFIG in files
    assert '<m:colorgroup id="1">' in model and 'pid="1" pindex="0"' in model
    assert "basematerials" not in model
    assert json.loads(files[slicers.ORCA_PROJECT_CONFIG])["filename_format"] == "tet.gcode"
    prusa = _prusaslicer_reads(files[slicers.PRUSA_PRINT_CONFIG])
    assert prusa["output_filename_format"] == "tet.gcode" and "nozzle_diameter" not in prusa


def test_multi_material_parts_are_volumes_for_prusa_and_components_for_bambu(
    tmp_path: Path,
) -> None:
    model, files = _plate(tmp_path, "prusa", extra=True)
    assert model.count("<object ") == 1 and model.count("<triangle ") == 8
    config = files[slicers.PRUSA_MODEL_CONFIG].decode()
    assert (
        '<volume firstid="0" lastid="3">' in config and '<volume firstid="4" lastid="7">' in config
    )
    assert config.count('key="extruder" value="2"') == 1
    prusa = _prusaslicer_reads(files[slicers.PRUSA_PRINT_CONFIG])
    assert prusa["nozzle_diameter"] == "0.4,0.4" and prusa["extruder_colour"] == "#2E64C8;#F2F2F2"
    model, files = _plate(tmp_path, "bambu", extra=True)
    assert model.count("<component ") == 2 and model.count("<item ") == 2
    assert json.loads(files[slicers.ORCA_PROJECT_CONFIG])["filament_colour"] == [
        "#2E64C8",
        "#F2F2F2",
    ]


def test_purge_volumes_are_each_slicers_own_for_the_colours() -> None:
    grey, white, blue, black = "#8C8C8C", "#F2F2F2", "#2E64C8", "#1A1A1A"
    # grey to white: no hue, luminance up by (0xF2 - 0x8C) / 255 = 0.4: 0.4^0.7 * 560 = 294.2,
    # plus the A1's nozzle volume 92, cut to whole mm³ (FlushVolCalc.cpp)
    assert slicers.bambu_flush_volume(grey, white, 92, 900) == 386
    assert slicers.bambu_flush_volume(white, grey, 92, 900) == 92 + 60  # darker: the floor of 60
    assert slicers.bambu_flush_volume(blue, white, 92, 900) == 558  # hue adds to the rise
    assert slicers.bambu_flush_volume(black, white, 500, 900) == 900  # the cap
    plate = slicers.SlicerSettings(
        bed=(256.0, 256.0, 256.0),
        layer_height=0.2,
        skirt_distance=2.0,
        filaments=(grey, white),
        slicer="bambu",
        printer=slicers.BAMBU_PRINTERS["a1"],
    )
    assert plate.purge_volumes() == ((0, 386), (152, 0))
    assert plate.purge_volumes("prusa") == ((0, 140), (140, 0))
    orca = slicers.SlicerSettings(
        bed=(220.0, 220.0, 250.0),
        layer_height=0.2,
        skirt_distance=2.0,
        filaments=(grey, white),
        slicer="orca",
    )
    assert orca.purge_volumes() == ((0, 294), (60, 0))  # no printer named: no nozzle volume


def _tower_plate(slicer: str, printer: slicers.BambuPrinter | None) -> slicers.SlicerSettings:
    return slicers.SlicerSettings(
        bed=(256.0, 256.0, 256.0),
        layer_height=0.2,
        skirt_distance=2.0,
        filaments=("#8C8C8C", "#F2F2F2"),
        output_name="tower.gcode",
        slicer=slicer,  # type: ignore[arg-type]
        tower=slicers.WipeTower(x=78.0, y=216.4, width=100.0, depth=29.1),
        printer=printer,
    )


def test_a_multi_material_plate_carries_its_wipe_tower_for_prusaslicer() -> None:
    read = _prusaslicer_reads(threemf.prusaslicer_config(_tower_plate("prusa", None)))
    assert read["wipe_tower"] == "1" and read["use_relative_e_distances"] == "1"
    assert (read["wipe_tower_x"], read["wipe_tower_y"], read["wipe_tower_width"]) == (
        "78",
        "216.4",
        "100",
    )
    assert read["wiping_volumes_matrix"] == "0,140,140,0"
    assert read["wiping_volumes_extruders"] == "70,70,70,70"
    assert read["wiping_volumes_use_custom_matrix"] == "1"
    one = threemf.SlicerSettings(bed=(256.0, 256.0, 256.0), layer_height=0.2, skirt_distance=2.0)
    assert "wipe_tower" not in _prusaslicer_reads(threemf.prusaslicer_config(one))


@pytest.mark.parametrize("slicer", ["orca", "bambu"])
def test_a_multi_material_plate_carries_its_prime_tower_and_flush_volumes(slicer: str) -> None:
    data = json.loads(threemf.orcaslicer_config(_tower_plate(slicer, None)))
    assert data["enable_prime_tower"] == "1" and data["prime_tower_width"] == "100"
    assert data["prime_tower_rib_wall"] == "0" and data["prime_tower_brim_width"] == "3"
    assert (data["wipe_tower_x"], data["wipe_tower_y"]) == (["78"], ["216.4"])
    # no printer named: no nozzle volume; Bambu Studio caps at 900, OrcaSlicer at 800
    assert data["flush_volumes_matrix"] == ["0", "294", "60", "0"]
    assert data["flush_volumes_vector"] == ["140"] * 4 and data["flush_multiplier"] == "1"
    assert "printer_settings_id" not in data


def test_a_bambu_plate_names_the_system_profiles_and_what_differs_from_them() -> None:
    plate = _tower_plate("bambu", slicers.BAMBU_PRINTERS["a1"])
    data = json.loads(threemf.orcaslicer_config(plate))
    assert data["printer_model"] == "Bambu Lab A1"
    assert data["printer_settings_id"] == "Bambu Lab A1 0.4 nozzle"
    assert data["print_settings_id"] == "0.20mm Standard @BBL A1"
    assert data["filament_settings_id"] == ["Bambu PLA Basic @BBL A1"] * 2
    assert data["nozzle_diameter"] == ["0.4"] and data["version"] == "02.00.00.95"
    process, *filaments, machine = data["different_settings_to_system"]
    assert filaments == ["", ""]
    assert machine.split(";") == ["printable_area", "printable_height"]
    assert set(process.split(";")) == {
        key for key in data if key in slicers.BAMBU_PRINT_KEYS
    } and "layer_height" in process.split(";")
    assert data["flush_volumes_matrix"] == ["0", "386", "152", "0"]  # the A1's nozzle volume
