"""3MF print plates written with lib3mf: named, coloured objects and colour-change metadata.

Units: mm (the 3MF unit is set to millimetre). Frame: the bed's front-left corner is the
origin, as PrusaSlicer loads a 3MF with ``--dont-arrange``.

Why not CadQuery's own 3MF writer: it yields a non-manifold part per face for PrusaSlicer
(ARCHITECTURE.md). We write welded meshes instead: one mesh object per distinct part, one build
item per printed copy, a base material (the filament colour) per object.

Colour change (P3, PRINT-FORMATS.md): PrusaSlicer reads
``Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml``; Bambu Studio / OrcaSlicer read
``Metadata/custom_gcode_per_layer.xml``. Both are written with every attribute the readers
require. ``print_z`` is the top of the first layer printed in the new colour.
"""

from __future__ import annotations

import os
import uuid
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import lib3mf
import numpy as np

PRUSA_COLOUR_CHANGE = "Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml"
BAMBU_COLOUR_CHANGE = "Metadata/custom_gcode_per_layer.xml"
_METADATA_RELATIONSHIP = "http://schemas.openxmlformats.org/package/2006/relationships/metadata"


@dataclass(frozen=True, kw_only=True)
class PlateObject:
    """One distinct part on a plate and where its copies go.

    Attributes:
        name: object name shown in the slicer (e.g. ``fragment-HH``).
        vertices: (n, 3) float array in mm, part frame (bed face on Z = 0).
        faces: (m, 3) int array of vertex indices, counter-clockwise seen from outside.
        colour: filament colour ``#RRGGBB``.
        placements: per copy ``(x, y, rotated)``: footprint centre on the bed (mm) and whether
            the part is turned 90 degrees about Z.
    """

    name: str
    vertices: np.ndarray
    faces: np.ndarray
    colour: str
    placements: tuple[tuple[float, float, bool], ...]


@dataclass(frozen=True, kw_only=True)
class ColourChange:
    """A filament change (M600) on a plate.

    Attributes:
        print_z: top of the first layer in the new colour (mm).
        colour: the new filament ``#RRGGBB``.
    """

    print_z: float
    colour: str


def colour_change_xml_prusa(change: ColourChange) -> bytes:
    """PrusaSlicer's ``custom_gcodes_per_print_z`` document for one colour change."""
    root = ET.Element("custom_gcodes_per_print_z")
    ET.SubElement(root, "code", _change_attributes(change, "print_z"))
    ET.SubElement(root, "mode", {"value": "SingleExtruder"})
    return _xml_bytes(root)


def colour_change_xml_bambu(change: ColourChange) -> bytes:
    """Bambu Studio / OrcaSlicer's ``custom_gcodes_per_layer`` document for one colour change."""
    root = ET.Element("custom_gcodes_per_layer")
    plate = ET.SubElement(root, "plate")
    ET.SubElement(plate, "plate_info", {"id": "1"})
    ET.SubElement(plate, "layer", _change_attributes(change, "top_z"))
    ET.SubElement(plate, "mode", {"value": "SingleExtruder"})
    return _xml_bytes(root)


def _change_attributes(change: ColourChange, height_key: str) -> dict[str, str]:
    return {
        height_key: f"{change.print_z:.3f}".rstrip("0").rstrip("."),
        "type": "0",
        "extruder": "1",
        "color": change.colour,
        "extra": "",
        "gcode": "M600",
    }


def _xml_bytes(root: ET.Element) -> bytes:
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="utf-8") + b"\n"


def write_plate(path: Path, objects: Sequence[PlateObject], change: ColourChange | None) -> None:
    """Write one plate as a 3MF file.

    Args:
        path: destination file (overwritten).
        objects: the distinct parts with their copies.
        change: the colour change of this plate, or None.

    Raises:
        lib3mf.ELib3MFException: lib3mf refused the model (a bug: meshes come from checked
            solids).
    """
    wrapper = lib3mf.get_wrapper()
    model = wrapper.CreateModel()
    model.SetUnit(lib3mf.ModelUnit.MilliMeter)
    # fixed UUIDs (production extension), so the same plate always gives the same bytes
    model.SetBuildUUID(_uuid(path.name, "build"))
    materials = model.AddBaseMaterialGroup()
    for obj in objects:
        red, green, blue = (int(obj.colour[i : i + 2], 16) for i in (1, 3, 5))
        material = materials.AddMaterial(obj.colour, lib3mf.Color(red, green, blue, 255))
        mesh = model.AddMeshObject()
        mesh.SetName(obj.name)
        mesh.SetUUID(_uuid(path.name, obj.name))
        vertices = [
            lib3mf.Position((lib3mf.ctypes.c_float * 3)(*map(float, v))) for v in obj.vertices
        ]
        triangles = [lib3mf.Triangle((lib3mf.ctypes.c_uint * 3)(*map(int, f))) for f in obj.faces]
        mesh.SetGeometry(vertices, triangles)
        mesh.SetObjectLevelProperty(materials.GetResourceID(), material)
        for copy, (x, y, rotated) in enumerate(obj.placements):
            item = model.AddBuildItem(mesh, _transform(x, y, rotated))
            item.SetUUID(_uuid(path.name, f"{obj.name}/{copy}"))
    if change is not None:
        for uri, data in (
            (PRUSA_COLOUR_CHANGE, colour_change_xml_prusa(change)),
            (BAMBU_COLOUR_CHANGE, colour_change_xml_bambu(change)),
        ):
            attachment = model.AddAttachment(uri, _METADATA_RELATIONSHIP)
            attachment.ReadFromBuffer(bytearray(data))
    model.QueryWriter("3mf").WriteToFile(str(path))
    _valid_zip_dates(path)


def _valid_zip_dates(path: Path) -> None:
    """Rewrite the archive with a valid fixed date on every entry.

    lib3mf 2.x stamps entries with month 0 and day 0 (1980-00-00), which some zip tools reject;
    1980-01-01 keeps the file byte-reproducible.
    """
    with zipfile.ZipFile(path) as source:
        entries = [(info.filename, source.read(info)) for info in source.infolist()]
    partial = path.with_name(path.name + ".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as target:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            target.writestr(info, data)
    os.replace(partial, path)


def _uuid(*names: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "tablesmith:" + "/".join(names)))


def _transform(x: float, y: float, rotated: bool) -> lib3mf.Transform:
    """A 3MF affine transform (row-vector convention): optional +90 deg about Z, then (x, y)."""
    rows = (
        ((0.0, 1.0, 0.0), (-1.0, 0.0, 0.0), (0.0, 0.0, 1.0))
        if rotated
        else ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    )
    transform = lib3mf.Transform()
    for i, row in enumerate((*rows, (x, y, 0.0))):
        for j, value in enumerate(row):
            transform.Fields[i][j] = value
    return transform
