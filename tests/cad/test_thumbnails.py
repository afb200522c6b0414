"""Every plate carries a thumbnail where each slicer looks (``cad/thumbnails.py``), found the way
each slicer's loader finds it (``tests/cad/thumbnail_reader.py``), and it shows the plate."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import numpy as np
import pytest
import trimesh
from PIL import Image

from cad import preview, slicers, threemf, thumbnails
from tests.cad import thumbnail_reader as reader
from tests.cad.kitcheck import assert_whole_kit


def _shows(png: bytes | None, size: int, colour: str) -> None:
    """Assert ``png`` is a square picture of ``size`` pixels showing a part in ``colour``: a
    transparent background around it, shading (many colours), much of it near the filament."""
    assert png is not None and png.startswith(b"\x89PNG")
    image = Image.open(io.BytesIO(png))
    assert image.size == (size, size) and image.mode == "RGBA"
    pixels = np.asarray(image).astype(float)
    opaque = pixels[..., 3] > 200
    assert 0.05 < opaque.mean() < 0.9, opaque.mean()  # neither blank nor a filled square
    rgb = pixels[opaque][:, :3]
    assert len(np.unique(rgb.astype(int), axis=0)) >= 20  # shaded, not a flat fill
    filament = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])
    assert (np.linalg.norm(rgb - filament, axis=1) < 60).mean() > 0.2


def _plate(tmp_path: Path, slicer: str, pictures: dict[str, bytes] | None) -> Path:
    cylinder = trimesh.creation.cylinder(radius=8.0, height=5.0, sections=48)
    cylinder.apply_translation([0, 0, 2.5])
    obj = threemf.PlateObject(
        name="puck",
        vertices=np.asarray(cylinder.vertices),
        faces=np.asarray(cylinder.faces),
        colour="#2E64C8",
        placements=((30.0, 30.0, False), (60.0, 30.0, False)),
    )
    settings = slicers.SlicerSettings(
        bed=(256.0, 256.0, 256.0),
        layer_height=0.2,
        skirt_distance=2.0,
        filaments=("#2E64C8",),
        slicer=slicer,  # type: ignore[arg-type]
    )
    path = tmp_path / f"{slicer}.3mf"
    threemf.write_plate(path, [obj], None, settings, pictures)
    return path


def _pictures() -> dict[str, bytes]:
    cylinder = trimesh.creation.cylinder(radius=8.0, height=5.0, sections=48)
    shaded = [
        preview.Shaded(
            vertices=np.asarray(cylinder.vertices) + [x, 0, 2.5],
            faces=cylinder.faces,
            colour="#2E64C8",
        )
        for x in (0.0, 30.0)
    ]
    size = (thumbnails.RENDER_SIZE, thumbnails.RENDER_SIZE)
    return thumbnails.pictures(preview.render_image(shaded, size=size, transparent=True))


@pytest.mark.parametrize("slicer", ["prusa", "bambu", "orca"])
def test_every_slicer_finds_the_plates_thumbnail(tmp_path: Path, slicer: str) -> None:
    path = _plate(tmp_path, slicer, _pictures())
    _shows(reader.package_thumbnail(path), 256, "#2E64C8")  # PrusaSlicer, the 3MF spec
    _shows(reader.bambu_file_thumbnail(path), 512, "#2E64C8")  # Bambu/Orca file lists
    _shows(reader.bambu_printer_thumbnail(path), 128, "#2E64C8")  # the printer's list
    plates = reader.bambu_plate_thumbnails(path)
    if slicer == "prusa":  # no model_settings.config: Bambu Studio reads no plates from it
        assert plates == {}
    else:
        assert list(plates) == [1]
        _shows(plates[1], 512, "#2E64C8")


def test_a_plate_without_pictures_has_no_thumbnail_anywhere(tmp_path: Path) -> None:
    path = _plate(tmp_path, "bambu", None)
    assert reader.package_thumbnail(path) is None
    assert reader.bambu_file_thumbnail(path) is None
    assert reader.bambu_plate_thumbnails(path) == {1: None}


def test_the_references_are_bambu_studios_own() -> None:
    """The XML as Bambu Studio writes it (``_add_relationships_file_to_archive``,
    ``_add_model_config_file_to_archive``): one relationship per picture, the plate's
    ``thumbnail_file`` after ``locked``."""
    rels = (
        b'<?xml version="1.0" encoding="utf-8"?><Relationships xmlns="http://schemas.'
        b'openxmlformats.org/package/2006/relationships"><Relationship Type="http://schemas.'
        b'microsoft.com/3dmanufacturing/2013/01/3dmodel" Target="/3D/3dmodel.model" Id="rel0"/>'
        b"</Relationships>"
    )
    config = (
        b'<config><plate><metadata key="plater_id" value="1"/><metadata key="locked" '
        b'value="false"/><model_instance/></plate></config>'
    )
    pngs = {name: name.encode() for name in thumbnails.SIZES}
    entries = dict(
        thumbnails.with_thumbnails(
            [("_rels/.rels", rels), ("Metadata/model_settings.config", config)], pngs
        )
    )
    found = [(n.get("Type"), n.get("Target")) for n in ET.fromstring(entries["_rels/.rels"])]
    assert found == [
        ("http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel", "/3D/3dmodel.model"),
        (
            "http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail",
            "/Metadata/thumbnail.png",
        ),
        (
            "http://schemas.bambulab.com/package/2021/cover-thumbnail-middle",
            "/Metadata/plate_1.png",
        ),
        (
            "http://schemas.bambulab.com/package/2021/cover-thumbnail-small",
            "/Metadata/plate_1_small.png",
        ),
    ]
    plate = ET.fromstring(entries["Metadata/model_settings.config"]).find("plate")
    assert plate is not None
    assert [(m.tag, m.get("key"), m.get("value")) for m in plate] == [
        ("metadata", "plater_id", "1"),
        ("metadata", "locked", "false"),
        ("metadata", "thumbnail_file", "Metadata/plate_1.png"),
        ("model_instance", None, None),
    ]
    assert {name: entries[name] for name in thumbnails.SIZES} == pngs


@pytest.mark.slow
@pytest.mark.parametrize(
    "config", [dict(scale=1.0, printer="a1"), dict(scale=0.8, printer="mini")], ids=["1.0", "0.8"]
)
def test_every_plate_of_the_kit_shows_itself_in_every_slicer(build_kit_once, config) -> None:
    out, manifest = build_kit_once(**config)
    assert_whole_kit(manifest)
    for plate in manifest["plates"]:
        path = out / plate["file"]
        colour = plate["colour"]
        _shows(reader.package_thumbnail(path), 256, colour)
        _shows(reader.bambu_file_thumbnail(path), 512, colour)
        _shows(reader.bambu_printer_thumbnail(path), 128, colour)
        plates = reader.bambu_plate_thumbnails(path)
        if plate["slicer"] == "prusa":
            assert plates == {}
        else:
            _shows(plates[1], 512, colour)
        with zipfile.ZipFile(path) as archive:  # the same picture at three sizes
            names = set(archive.namelist())
        assert set(thumbnails.SIZES) <= names
