"""The test reader of Bambu Studio / OrcaSlicer projects (``tests/cad/bbs_reader.py``) checked
on a project Bambu Studio saved itself (``tests/data/slicers/README.md``): what it reads must
be what the file holds, as read here from its XML parts directly."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

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
