"""3MF print plates written with lib3mf: named, coloured objects, parts and slicer projects.

Units: mm (the 3MF unit is set to millimetre). Frame: the bed's front-left corner is the
origin, as the slicers load a 3MF without re-arranging it.

Why not CadQuery's own 3MF writer: it yields a non-manifold part per face for PrusaSlicer
(ARCHITECTURE.md). We write welded meshes instead: one mesh object per distinct part, one build
item per printed copy, one ``m:colorgroup`` colour (the filament) per object.

What each slicer reads, and so what ``--slicer`` changes in the file, is in ``cad.slicers``
(with the loader function behind each file and key). The colour change's ``print_z`` is the
top of the first layer printed in the new colour.
"""

from __future__ import annotations

import os
import re
import uuid
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import lib3mf
import numpy as np

from cad.slicers import (
    BAMBU_3MF_VERSION,
    BAMBU_APPLICATION,
    BAMBU_COLOUR_CHANGE,
    BAMBU_MODEL_CONFIG,
    ORCA_APPLICATION,
    ORCA_PROJECT_CONFIG,
    PRUSA_COLOUR_CHANGE,
    PRUSA_MODEL_CONFIG,
    PRUSA_PRINT_CONFIG,
    ColourChange,
    ObjectEntry,
    SlicerSettings,
    VolumeEntry,
    bambu_model_config,
    colour_change_xml_bambu,
    colour_change_xml_prusa,
    orcaslicer_config,
    prusa_model_config,
    prusaslicer_config,
)
from cad.thumbnails import with_thumbnails

_METADATA_RELATIONSHIP = "http://schemas.openxmlformats.org/package/2006/relationships/metadata"
_SLIC3RPE_NAMESPACE = "http://schemas.slic3r.org/3mf/2017/06"
_BAMBU_NAMESPACE = "http://schemas.bambulab.com/package/2021"
_PREFIXES = {_SLIC3RPE_NAMESPACE: b"slic3rpe", _BAMBU_NAMESPACE: b"BambuStudio"}
"""The prefix each slicer matches literally in a metadata name (its expat runs without
namespace processing), by namespace."""
_MODEL = "3D/3dmodel.model"


@dataclass(frozen=True, kw_only=True)
class PlatePart:
    """A second part of a plate object printed on another filament (multi-material).

    Attributes:
        name: part name shown in the slicer (e.g. ``fragment-HH symbols``).
        vertices: (n, 3) float array in mm, the object's frame.
        faces: (m, 3) int array, counter-clockwise seen from outside.
        filament: 1-based filament number.
    """

    name: str
    vertices: np.ndarray
    faces: np.ndarray
    filament: int


@dataclass(frozen=True, kw_only=True)
class PlateObject:
    """One distinct part on a plate and where its copies go.

    Attributes:
        name: object name shown in the slicer (e.g. ``fragment-HH``).
        vertices: (n, 3) float array in mm, part frame (bed face on Z = 0).
        faces: (m, 3) int array of vertex indices, counter-clockwise seen from outside.
        colour: filament colour ``#RRGGBB`` of the object (its filament 1 part).
        placements: per copy ``(x, y, rotated)``: footprint centre on the bed (mm) and whether
            the part is turned 90 degrees about Z.
        filament: 1-based filament number of the object.
        extra_parts: further parts of the same object on other filaments, in its frame.
    """

    name: str
    vertices: np.ndarray
    faces: np.ndarray
    colour: str
    placements: tuple[tuple[float, float, bool], ...]
    filament: int = 1
    extra_parts: tuple[PlatePart, ...] = field(default_factory=tuple)


def write_plate(
    path: Path,
    objects: Sequence[PlateObject],
    change: ColourChange | None,
    settings: SlicerSettings,
    thumbnails: Mapping[str, bytes] | None = None,
) -> None:
    """Write one plate as a 3MF project file for ``settings.slicer`` (see ``cad.slicers``).

    Args:
        path: destination file (overwritten).
        objects: the distinct parts with their copies.
        change: the colour change of this plate, or None (a multi-material plate has none).
        settings: the print settings the plate carries, and the slicer it is written for.
        thumbnails: the plate's pictures (``cad.thumbnails.pictures``), or None.

    Raises:
        lib3mf.ELib3MFException: lib3mf refused the model (a bug: meshes come from checked
            solids).
    """
    bambu_layout = settings.slicer in ("bambu", "orca")
    model = _new_model(path, settings)
    # one colour group per filament: Bambu Studio maps (group, index) and OrcaSlicer a group
    # to a filament, one per distinct colour in file order (bbs_3mf.cpp, "process group colors")
    groups = []
    for colour in settings.filaments:
        group = model.AddColorGroup()
        groups.append((group.GetResourceID(), group.AddColor(_colour(colour))))
    entries = [_add_object(model, path.name, obj, groups, bambu_layout) for obj in objects]
    attachments = [
        (PRUSA_PRINT_CONFIG, prusaslicer_config(settings)),
        (ORCA_PROJECT_CONFIG, orcaslicer_config(settings)),
        (PRUSA_MODEL_CONFIG, prusa_model_config(entries))
        if not bambu_layout
        else (BAMBU_MODEL_CONFIG, bambu_model_config(entries)),
    ]
    if change is not None:
        attachments += [
            (PRUSA_COLOUR_CHANGE, colour_change_xml_prusa(change)),
            (BAMBU_COLOUR_CHANGE, colour_change_xml_bambu(change)),
        ]
    model.AddCustomContentType("xml", "application/xml")
    model.AddCustomContentType("config", "text/plain")
    for uri, data in attachments:
        attachment = model.AddAttachment(uri, _METADATA_RELATIONSHIP)
        attachment.ReadFromBuffer(bytearray(data))
    model.QueryWriter("3mf").WriteToFile(str(path))
    _valid_zip_dates(path, thumbnails)


def _new_model(path: Path, settings: SlicerSettings) -> lib3mf.Model:
    """An empty millimetre model with the plate's fixed build UUID and its metadata (title,
    designer, and the marks the slicer of ``settings`` reads)."""
    model = lib3mf.get_wrapper().CreateModel()
    model.SetUnit(lib3mf.ModelUnit.MilliMeter)
    # fixed UUIDs (production extension), so the same plate always gives the same bytes
    model.SetBuildUUID(_uuid(path.name, "build"))
    metadata = model.GetMetaDataGroup()
    metadata.AddMetaData("", "Title", path.stem, "string", True)
    metadata.AddMetaData("", "Designer", "Tablesmith (Asteroids print kit)", "string", True)
    if settings.slicer in ("bambu", "orca"):
        application = BAMBU_APPLICATION if settings.slicer == "bambu" else ORCA_APPLICATION
        metadata.AddMetaData("", "Application", application, "string", True)
        if settings.slicer == "bambu":
            metadata.AddMetaData(_BAMBU_NAMESPACE, "3mfVersion", BAMBU_3MF_VERSION, "string", False)
    # PrusaSlicer splits every copy of a part in a file without this mark into an object of
    # its own (3mf.cpp, ``m_version == 0``): 28 objects to slice instead of 2
    metadata.AddMetaData(_SLIC3RPE_NAMESPACE, "Version3mf", "1", "string", False)
    return model


def _add_object(
    model: lib3mf.Model,
    plate: str,
    obj: PlateObject,
    groups: list[tuple[int, int]],
    bambu_layout: bool,
) -> ObjectEntry:
    """Add one distinct part with its extra parts and a build item per copy to ``model``;
    return its entry for the slicer's model config. ``groups``: (colour group, index) per
    filament; ``bambu_layout``: parts as component objects (Bambu, Orca), else as triangle
    ranges of one mesh (PrusaSlicer)."""
    volumes = [
        VolumeEntry(
            name=obj.name,
            filament=obj.filament,
            first_triangle=0,
            last_triangle=len(obj.faces) - 1,
        )
    ]
    vertices, faces = obj.vertices, obj.faces
    if obj.extra_parts and not bambu_layout:
        # PrusaSlicer: one mesh, parts as triangle ranges (3mf.cpp, ``_generate_volumes``)
        vertices_list, faces_list = [obj.vertices], [obj.faces]
        offset, first = len(obj.vertices), len(obj.faces)
        for part in obj.extra_parts:
            vertices_list.append(part.vertices)
            faces_list.append(part.faces + offset)
            volumes.append(
                VolumeEntry(
                    name=part.name,
                    filament=part.filament,
                    first_triangle=first,
                    last_triangle=first + len(part.faces) - 1,
                )
            )
            offset += len(part.vertices)
            first += len(part.faces)
        vertices, faces = np.concatenate(vertices_list), np.concatenate(faces_list)
    body = _mesh_object(model, plate, obj.name, vertices, faces)
    body.SetObjectLevelProperty(*groups[obj.filament - 1])
    built: lib3mf.MeshObject | lib3mf.ComponentsObject = body
    if obj.extra_parts and bambu_layout:
        built, volumes = _component_object(model, plate, obj, body, volumes[0], groups)
    for copy, (x, y, rotated) in enumerate(obj.placements):
        item = model.AddBuildItem(built, _transform(x, y, rotated))
        item.SetUUID(_uuid(plate, f"{obj.name}/{copy}"))
    return ObjectEntry(
        object_id=built.GetModelResourceID(),
        name=obj.name,
        filament=obj.filament,
        copies=len(obj.placements),
        volumes=tuple(volumes) if obj.extra_parts or not bambu_layout else (),
    )


def _component_object(
    model: lib3mf.Model,
    plate: str,
    obj: PlateObject,
    body: lib3mf.MeshObject,
    body_volume: VolumeEntry,
    groups: list[tuple[int, int]],
) -> tuple[lib3mf.ComponentsObject, list[VolumeEntry]]:
    """Bambu and Orca: the object's parts are the mesh objects of a component object
    (bbs_3mf.cpp, ``_generate_volumes_new``), named in model_settings.config by their object
    id. Returns the component object and its volumes, the body's first."""
    parent = model.AddComponentsObject()
    parent.SetName(obj.name)
    parent.SetUUID(_uuid(plate, obj.name, "object"))
    parent.AddComponent(body, _transform(0.0, 0.0, False)).SetUUID(
        _uuid(plate, obj.name, "component")
    )
    volumes = [replace(body_volume, object_id=body.GetModelResourceID())]
    for part in obj.extra_parts:
        mesh = _mesh_object(model, plate, part.name, part.vertices, part.faces)
        mesh.SetObjectLevelProperty(*groups[part.filament - 1])
        parent.AddComponent(mesh, _transform(0.0, 0.0, False)).SetUUID(
            _uuid(plate, part.name, "component")
        )
        volumes.append(
            VolumeEntry(
                name=part.name,
                filament=part.filament,
                first_triangle=0,
                last_triangle=len(part.faces) - 1,
                object_id=mesh.GetModelResourceID(),
            )
        )
    return parent, volumes


def _mesh_object(
    model: lib3mf.Model, plate: str, name: str, vertices: np.ndarray, faces: np.ndarray
) -> lib3mf.MeshObject:
    mesh = model.AddMeshObject()
    mesh.SetName(name)
    mesh.SetUUID(_uuid(plate, name))
    mesh.SetGeometry(*_geometry(vertices, faces))
    return mesh


def _geometry(vertices: np.ndarray, faces: np.ndarray) -> tuple[object, object]:
    positions = (lib3mf.Position * len(vertices)).from_buffer_copy(
        np.ascontiguousarray(vertices, dtype=np.float32).tobytes()
    )
    triangles = (lib3mf.Triangle * len(faces)).from_buffer_copy(
        np.ascontiguousarray(faces, dtype=np.uint32).tobytes()
    )
    return positions, triangles


def _colour(code: str) -> lib3mf.Color:
    red, green, blue = (int(code[i : i + 2], 16) for i in (1, 3, 5))
    return lib3mf.Color(red, green, blue, 255)


def _valid_zip_dates(path: Path, thumbnails: Mapping[str, bytes] | None = None) -> None:
    """Rewrite the archive with a valid fixed date on every entry, and PrusaSlicer's prefix;
    add the thumbnails where each slicer reads them (``cad.thumbnails``).

    lib3mf 2.x stamps entries with month 0 and day 0 (1980-00-00), which some zip tools reject;
    1980-01-01 keeps the file byte-reproducible. lib3mf names the prefix of a custom namespace
    itself (``customXMLNS0``); PrusaSlicer matches the metadata name ``slic3rpe:Version3mf``
    and Bambu Studio ``BambuStudio:3mfVersion`` as written, so the prefixes are renamed.
    """
    with zipfile.ZipFile(path) as source:
        entries = [(info.filename, source.read(info)) for info in source.infolist()]
    entries = [(name, _slicer_prefixes(data) if name == _MODEL else data) for name, data in entries]
    if thumbnails:
        entries = with_thumbnails(entries, thumbnails)
    partial = path.with_name(path.name + ".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as target:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            target.writestr(info, data)
    os.replace(partial, path)


def _slicer_prefixes(model: bytes) -> bytes:
    """Rename lib3mf's prefixes of the slicers' namespaces to theirs (``_PREFIXES``) in a model
    document."""
    for namespace, wanted in _PREFIXES.items():
        found = re.search(rb'xmlns:(\w+)="' + re.escape(namespace.encode()) + rb'"', model)
        if found is None or found.group(1) == wanted:
            continue
        prefix = found.group(1)
        model = model.replace(b"xmlns:" + prefix + b"=", b"xmlns:" + wanted + b"=", 1)
        model = model.replace(b'name="' + prefix + b":", b'name="' + wanted + b":")
    return model


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
