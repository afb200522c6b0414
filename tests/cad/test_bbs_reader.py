"""The test reader of Bambu Studio / OrcaSlicer projects (``tests/cad/bbs_reader.py``) checked
on a project Bambu Studio saved itself (``tests/data/slicers/README.md``): what it reads must
be what the file holds, as read here from its XML parts directly."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import numpy as np
import pytest

from cad import slicers, threemf
from tests.cad import bbs_reader

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "slicers" / "bambu-studio-4-plates.3mf"


def _part(name: str) -> bytes:
    with zipfile.ZipFile(FIXTURE) as archive:
        return archive.read(name)


@pytest.mark.parametrize("reader", ["bambu", "orca"])
def test_reader_reads_a_bambu_studio_project_as_saved(reader: bbs_reader.Reader) -> None:
    loaded = bbs_reader.load(FIXTURE, reader)
    # generator detected: the file's own Application metadata
    assert b'<metadata name="Application">BambuStudio-02.01.00.59</metadata>' in _part(
        "3D/3dmodel.model"
    )
    assert loaded.own_project
    # settings found: the whole project_settings.config, as stored
    stored = json.loads(_part("Metadata/project_settings.config"))
    assert loaded.config == stored
    assert (loaded.config["layer_height"], loaded.config["initial_layer_print_height"]) == (
        "0.2",
        "0.2",
    )
    assert loaded.config["enable_support"] == "0"
    assert loaded.config["print_sequence"] == "by layer"
    assert len(loaded.config["filament_colour"]) == 13
    # object -> filament, colours as the source repository's README lists them per plate
    by_name = {obj.name: obj for obj in loaded.objects}
    assert {
        name: (o.filament, loaded.filament_colour(o.filament)) for name, o in by_name.items()
    } == {
        "Cube": (1, "#996633"),
        "Cylinder": (4, "#0000FF"),
        "Rounded Rectangle": (12, "#515151"),
        "Disc": (8, "#800080"),
        "Double Tear Romboid Cylinder": (5, "#21FF06"),
    }
    assert loaded.plates == {1: [(2, 0)], 2: [(4, 0)], 3: [(6, 0)], 4: [(8, 0), (10, 0)]}
    # every mesh is in a p:path sub-model; its triangles are what model_settings records
    settings = ET.fromstring(_part("Metadata/model_settings.config"))
    faces = {
        int(part.attrib["id"]): int(part.find("mesh_stat").attrib["face_count"])
        for part in settings.iter("part")
    }
    volumes = {v.object_id: v.triangles for o in loaded.objects for v in o.volumes}
    assert volumes == faces == {1: 12, 3: 1440, 5: 124, 7: 1440, 9: 380}
    assert all(len(o.volumes) == 1 and o.copies == 1 for o in loaded.objects)
    assert loaded.colour_changes == {}  # the file has no custom_gcode_per_layer.xml


def test_bambu_studio_2_opens_its_own_saved_file_as_a_project() -> None:
    loaded = bbs_reader.load(FIXTURE, "bambu")
    assert (loaded.load_type, loaded.message) == ("project", None)
    assert loaded.config is not None
    assert loaded.config["printer_settings_id"] == "Bambu Lab X1 Carbon 0.4 nozzle"
    assert not loaded.kept("layer_height")  # the file lists no difference to the profile


def _plate(tmp_path: Path, printer: slicers.BambuPrinter | None) -> Path:
    """A one-tetrahedron bambu plate written by the kit's writer."""
    obj = threemf.PlateObject(
        name="tet",
        vertices=np.array([[0, 0, 0], [10, 0, 0], [0, 10, 0], [0, 0, 10]], float),
        faces=np.array([[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]]),
        colour="#8C8C8C",
        placements=((50.0, 50.0, False),),
    )
    settings = slicers.SlicerSettings(
        bed=(256.0, 256.0, 256.0),
        layer_height=0.16,
        skirt_distance=2.0,
        slicer="bambu",
        printer=printer,
    )
    path = tmp_path / "tet.3mf"
    threemf.write_plate(path, [obj], None, settings)
    return path


def _rewritten(path: Path, replace: dict[str, bytes | None]) -> Path:
    """A copy of the 3MF ``path`` with parts replaced (None: dropped)."""
    copy = path.with_name("changed.3mf")
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(copy, "w") as target:
        for name in source.namelist():
            data = replace.get(name, source.read(name))
            if data is not None:
                target.writestr(name, data)
    return copy


def _claim(path: Path, application: str) -> bytes:
    model = _part_of(path, "3D/3dmodel.model")
    return re.sub(rb"BambuStudio-[\d.]+", application.encode(), model)


def _part_of(path: Path, name: str) -> bytes:
    with zipfile.ZipFile(path) as archive:
        return archive.read(name)


def test_a_bambu_plate_is_a_project_on_the_named_printer_with_the_kit_settings(tmp_path) -> None:
    loaded = bbs_reader.load(_plate(tmp_path, slicers.BAMBU_PRINTERS["a1"]), "bambu")
    assert (loaded.load_type, loaded.message) == ("project", None)
    assert loaded.config is not None and loaded.config["printer_model"] == "Bambu Lab A1"
    for key in ("layer_height", "initial_layer_print_height", "skirt_loops", "brim_type"):
        assert loaded.kept(key), key
    assert loaded.kept("printable_area") and loaded.kept("filament_colour")


def test_the_project_rules_of_bambu_studio_2(tmp_path) -> None:
    path = _plate(tmp_path, slicers.BAMBU_PRINTERS["a1"])
    settings = json.loads(_part_of(path, "Metadata/project_settings.config"))

    def loads(replace: dict[str, bytes | None]) -> bbs_reader.Loaded:
        return bbs_reader.load(_rewritten(path, replace), "bambu")

    newer = loads({"3D/3dmodel.model": _claim(path, "BambuStudio-03.00.00.10")})
    assert newer.load_type == "geometry" and "cannot be fully loaded" in (newer.message or "")
    orca = loads({"3D/3dmodel.model": _claim(path, "OrcaSlicer-2.2.0")})
    assert orca.load_type == "geometry" and orca.config is None
    assert orca.message == "The 3mf is not from Bambu Lab, load geometry data and color data only."
    prusa = loads(
        {
            "3D/3dmodel.model": _claim(path, "PrusaSlicer-2.5.0"),
            "3D/_rels/3dmodel.model.rels": None,
        }
    )
    assert prusa.message == "The 3mf is not from Bambu Lab, load geometry data only."
    lost = loads({"Metadata/project_settings.config": None})
    assert lost.load_type == "geometry" and "old Bambu Studio" in (lost.message or "")
    without = {key: value for key, value in settings.items() if key != "filament_colour"}
    with pytest.raises(bbs_reader.LoaderError, match="Invalid configuration file"):
        loads({"Metadata/project_settings.config": json.dumps(without).encode()})
    # a profile named without the list of differences: the system's values win
    unlisted = {key: v for key, v in settings.items() if key != "different_settings_to_system"}
    reset = loads({"Metadata/project_settings.config": json.dumps(unlisted).encode()})
    assert reset.load_type == "project" and not reset.kept("layer_height")
    # no profile named: a custom printer made of the file's values
    custom = bbs_reader.load(_plate(tmp_path, None), "bambu")
    assert custom.load_type == "project" and custom.kept("layer_height")
    assert custom.config is not None and "printer_settings_id" not in custom.config
