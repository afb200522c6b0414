"""A 3MF read the way Bambu Studio's and OrcaSlicer's loader reads it (test helper).

Neither slicer runs on this machine, so the tests read our plates with this model of their
importer, written from its source: ``src/libslic3r/Format/bbs_3mf.cpp``,
``_BBS_3MF_Importer::_load_model_from_file`` and the handlers it calls, in
bambulab/BambuStudio and SoftFever/OrcaSlicer. It follows the loader step by step and keeps
only what decides the print: the settings loaded or not, the objects with their copies and
the filament of every part, the colour change, the plate.

- ``_rels/.rels`` names the model part (``_handle_start_relationship``).
- The model is parsed without namespace processing (expat), so tags match by their written
  prefix: ``m:colorgroup`` / ``m:color``, ``object`` (``id``, ``name``, ``pid``, ``pindex``),
  ``components`` / ``component`` (``objectid``), ``item`` (``objectid``, ``transform``) and
  ``metadata``; ``Application`` starting with ``BambuStudio-`` (both) or ``OrcaSlicer-``
  (OrcaSlicer) makes the file the slicer's own (``_handle_end_metadata``).
- Bambu Studio loads ``project_settings.config`` and ``custom_gcode_per_layer.xml`` only from
  its own files (``dont_load_config``); OrcaSlicer from any ("Orca: skip version check").
- Every other ``3D/*.model`` part is a sub-model: objects are keyed by (part, id), and a
  ``component``'s ``p:path`` names the sub-model of its object, as Bambu Studio saves every
  mesh (``3D/Objects/object_N.model``).
- ``model_settings.config`` (always read): ``object`` > ``metadata`` / ``part`` > ``metadata``
  and ``plate`` > ``model_instance``.
- Objects not claimed by the slicer with several copies are split into one object per copy
  before the colours are applied, so only the first keeps its filament.
- An object without ``model_settings`` metadata takes the filament of its colour group: one
  filament per distinct colour, groups in id order (Bambu Studio keys ``(group, index)``,
  OrcaSlicer a group's last colour).
- At the end, an object filament of 0 or above the count of ``filament_settings_id`` (when the
  project has one) becomes 1; a single-volume object's volume filament is dropped, a volume
  filament 0 means the object's.

The reader is checked on a project Bambu Studio saved (``tests/data/slicers/``, from
depoll/LANbu-Handy; ``tests/cad/test_bbs_reader.py``), which found that it ignored the
``p:path`` sub-models. What was searched for more: bambulab/BambuStudio and
SoftFever/OrcaSlicer are over the fetch size limit; the code index's hits for
``<custom_gcodes_per_layer>``, ``BambuStudio-0``, ``OrcaSlicer-`` and
``model_settings.config`` were files written by other tools (exporters' templates and their
tests), not by a slicer. Parallel-7/slicer-meta (``__tests__/fixtures/``, commit
``2c6f115cae710ce5f43b43882c91a3522219da45``) keeps OrcaSlicer 2.3.1-beta and 2.4.0-alpha
*sliced* exports (``orcaslicer_v2.3.1-beta_twocolors.3mf``, ``orcaslicer_v2.4.0-alpha.3mf``):
they state no licence, so they are not committed; read here by hand, their ``Application``
is ``BambuStudio-2.3.1-beta`` / ``BambuStudio-02.06.00.51`` (OrcaSlicer names itself
Bambu Studio in a sliced export), they hold no objects (``<build/>``, plate 1 empty) and no
``custom_gcode_per_layer.xml``; this reader loads them as own projects with their whole
``project_settings.config`` (layer height 0.16 / 0.2 mm). No file saved by either slicer with
a colour change, and no OrcaSlicer project with objects, was found.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from xml.parsers import expat

Reader = Literal["bambu", "orca"]

_MODEL_RELATIONSHIP = "http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"


class LoaderError(Exception):
    """The loader would refuse the file (the message says where)."""


@dataclass
class Volume:
    """One part of a loaded object: its mesh object's id, name, triangle count, filament."""

    object_id: int
    name: str
    triangles: int
    filament: int | None


@dataclass
class LoadedObject:
    """One object as the slicer holds it after loading."""

    object_id: int
    name: str
    copies: int
    filament: int
    volumes: list[Volume]
    transforms: list[list[float]] = field(default_factory=list)

    def filament_of(self, volume: Volume) -> int:
        """The filament a volume prints with (its own, else the object's)."""
        return volume.filament or self.filament


@dataclass
class Loaded:
    """What the loader made of a 3MF."""

    own_project: bool
    config: dict[str, object] | None
    colour_changes: dict[int, list[dict[str, object]]]
    objects: list[LoadedObject]
    plates: dict[int, list[tuple[int, int]]]

    def filament_colour(self, filament: int) -> str | None:
        """The project's colour of a 1-based filament (``filament_colour``), if loaded."""
        colours = (self.config or {}).get("filament_colour")
        if isinstance(colours, list) and 0 < filament <= len(colours):
            return str(colours[filament - 1])
        return None


@dataclass
class _Object:
    id: int
    name: str
    pid: int
    pindex: int
    triangles: int = 0
    components: list[tuple[str, int]] = field(default_factory=list)


def load(path: Path, reader: Reader) -> Loaded:
    """Load ``path`` as ``reader``'s loader does (see the module docstring).

    Raises:
        LoaderError: a file the loader requires is missing or malformed.
    """
    with zipfile.ZipFile(path) as archive:
        names = {name.replace("\\", "/"): name for name in archive.namelist()}
        start = _start_part(archive.read(names["_rels/.rels"]))
        if start not in names:
            raise LoaderError(f"{path}: model part {start} missing")
        model = _parse_model(archive.read(names[start]), start)
        for name, stored in names.items():  # the sub-models a production-extension file keeps
            if name != start and name.startswith("3D/") and name.lower().endswith(".model"):
                sub = _parse_model(archive.read(stored), name)
                model["objects"].update(sub["objects"])
        application = model["application"]
        own = application.startswith("BambuStudio-") or (
            reader == "orca" and application.startswith("OrcaSlicer-")
        )
        dont_load_config = reader == "bambu" and not application.startswith("BambuStudio-")
        config = None
        changes: dict[int, list[dict[str, object]]] = {}
        settings: tuple[dict[int, dict], dict[int, list[tuple[int, int]]]] = ({}, {})
        for name, stored in names.items():
            data = archive.read(stored)
            if name.lower() == "metadata/project_settings.config" and not dont_load_config:
                config = _project_config(data, path)
            elif name.lower() == "metadata/custom_gcode_per_layer.xml" and not dont_load_config:
                changes = _custom_gcodes(data, path)
            elif name.lower() == "metadata/model_settings.config":
                settings = _model_settings(data, path, own)
    return _assemble(model, config, changes, settings, own, reader)


def _start_part(rels: bytes) -> str:
    for node in ET.fromstring(rels):
        if node.get("Type") == _MODEL_RELATIONSHIP:
            return (node.get("Target") or "").lstrip("/")
    raise LoaderError("_rels/.rels names no 3D model")


def _parse_model(data: bytes, part: str) -> dict:
    """The model document ``part`` with expat and literal tag names, as the importer's handlers.

    Objects are keyed by ``(part, id)``: the importer keys them by ``Id{sub_model_path, id}``
    (``_handle_start_object``), and a ``component`` with a ``p:path`` names an object of that
    sub-model (``_handle_start_component``), which is how Bambu Studio saves every mesh
    (``3D/Objects/object_N.model``).
    """
    state: dict = {
        "application": "",
        "groups": {},
        "objects": {},
        "items": [],
        "metadata": None,
        "text": "",
        "object": None,
        "group": -1,
    }

    def start(tag: str, attributes: dict[str, str]) -> None:
        if tag == "m:colorgroup":
            state["group"] = int(attributes.get("id", "0"))
        elif tag == "m:color":
            state["groups"].setdefault(state["group"], []).append(attributes.get("color", ""))
        elif tag == "object":
            state["object"] = _Object(
                id=int(attributes.get("id", "-1")),
                name=attributes.get("name", ""),
                pid=int(attributes["pid"]) if "pid" in attributes else -1,
                pindex=int(attributes["pindex"]) if "pindex" in attributes else -1,
            )
        elif tag == "triangle" and state["object"] is not None:
            state["object"].triangles += 1
        elif tag == "component" and state["object"] is not None:
            path = attributes.get("p:path", "").lstrip("/") or part
            state["object"].components.append((path, int(attributes.get("objectid", "0"))))
        elif tag == "item":
            transform = [float(v) for v in attributes.get("transform", "").split()]
            state["items"].append(((part, int(attributes.get("objectid", "0"))), transform))
        elif tag == "metadata":
            state["text"] = ""
            state["metadata"] = attributes.get("name") or state["metadata"]

    def end(tag: str) -> None:
        if tag == "object":
            current = state["object"]
            if current is None or current.id == -1:
                raise LoaderError("Found invalid object")
            if (part, current.id) in state["objects"]:
                raise LoaderError("Found object with duplicate id")
            state["objects"][(part, current.id)] = current
            state["object"] = None
        elif tag == "metadata" and state["metadata"] == "Application":
            state["application"] = state["text"]

    def characters(text: str) -> None:
        state["text"] += text

    parser = expat.ParserCreate()
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = characters
    parser.Parse(data, True)
    return state


def _project_config(data: bytes, path: Path) -> dict[str, object]:
    """``ConfigBase::load_from_json``: one JSON object of strings and arrays of strings."""
    try:
        config = json.loads(data)
    except ValueError as exc:
        raise LoaderError(f"{path}: project_settings.config is not JSON: {exc}") from None
    for key, value in config.items():
        if not (
            isinstance(value, str)
            or (isinstance(value, list) and all(isinstance(v, str) for v in value))
        ):
            raise LoaderError(f"{path}: project setting {key} is not a string: {value!r}")
    return config


def _custom_gcodes(data: bytes, path: Path) -> dict[int, list[dict[str, object]]]:
    """``_extract_custom_gcode_per_print_z_from_archive``: the ptree ``get`` calls throw on a
    missing attribute (``top_z``, ``extruder``, ``color``; ``type`` and ``extra``)."""
    root = ET.fromstring(data)
    if root.tag != "custom_gcodes_per_layer":
        return {}
    found: dict[int, list[dict[str, object]]] = {}
    plates = [node for node in root if node.tag == "plate"]
    for plate in plates or [root]:
        ids = [int(node.attrib["id"]) for node in plate if node.tag == "plate_info"]
        plate_id = ids[-1] if plates else 1
        if not ids and plates:
            continue
        for layer in plate:
            if layer.tag != "layer":
                continue
            try:
                found.setdefault(plate_id, []).append(
                    {
                        "top_z": float(layer.attrib["top_z"]),
                        "extruder": int(layer.attrib["extruder"]),
                        "color": layer.attrib["color"],
                        "type": int(layer.attrib["type"]),
                        "extra": layer.attrib["extra"],
                    }
                )
            except KeyError as exc:
                raise LoaderError(f"{path}: colour change without {exc}") from None
    return found


def _model_settings(
    data: bytes, path: Path, own: bool
) -> tuple[dict[int, dict], dict[int, list[tuple[int, int]]]]:
    """``model_settings.config`` through ``_handle_start_config_xml_element``."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        if own:  # the loader fails the whole file only for its own projects
            raise LoaderError(f"{path}: model_settings.config: {exc}") from None
        return {}, {}
    objects: dict[int, dict] = {}
    plates: dict[int, list[tuple[int, int]]] = {}
    for node in root:
        if node.tag == "object":
            object_id = int(node.attrib.get("id", "0"))
            if object_id in objects:
                raise LoaderError(f"{path}: Duplicated object id {object_id}")
            entry = {"metadata": {}, "parts": {}}
            for child in node:
                if child.tag == "metadata":
                    entry["metadata"][child.attrib.get("key", "")] = child.attrib.get("value", "")
                elif child.tag in ("part", "volume"):
                    entry["parts"][int(child.attrib.get("id", "0"))] = {
                        m.attrib.get("key", ""): m.attrib.get("value", "")
                        for m in child
                        if m.tag == "metadata"
                    } | {"subtype": child.attrib.get("subtype", "")}
            objects[object_id] = entry
        elif node.tag == "plate":
            meta = {m.attrib.get("key"): m.attrib.get("value") for m in node if m.tag == "metadata"}
            plate_id = int(meta.get("plater_id") or 0)
            instances = []
            for instance in node:
                if instance.tag == "model_instance":
                    values = {m.attrib.get("key"): m.attrib.get("value") for m in instance}
                    instances.append((int(values["object_id"]), int(values["instance_id"])))
            plates[plate_id] = instances
    return objects, plates


def _assemble(
    model: dict,
    config: dict[str, object] | None,
    changes: dict[int, list[dict[str, object]]],
    settings: tuple[dict[int, dict], dict[int, list[tuple[int, int]]]],
    own: bool,
    reader: Reader,
) -> Loaded:
    objects_settings, plates = settings
    shapes: dict[tuple[str, int], _Object] = model["objects"]
    built: dict[tuple[str, int], list[list[float]]] = {}
    for key, transform in model["items"]:
        if key not in shapes:
            raise LoaderError(f"can not find object id {key[1]} to builditem")
        built.setdefault(key, []).append(transform)
    # one filament per distinct colour, colour groups in id order ("process group colors")
    by_colour: dict[str, int] = {}
    group_filament: dict[tuple[int, int], int] = {}
    for group_id in sorted(model["groups"]):
        colours = model["groups"][group_id]
        if reader == "orca":  # std::map<int, std::string>: a group keeps its last colour
            colours = colours[-1:]
        for index, colour in enumerate(colours):
            filament = by_colour.setdefault(colour, len(by_colour) + 1)
            group_filament[(group_id, index if reader == "bambu" else 0)] = filament
    loaded: list[LoadedObject] = []
    for key, transforms in built.items():
        object_id = key[1]
        shape = shapes[key]
        meshes = _mesh_objects(key, shapes)
        entry = objects_settings.get(object_id)
        copies = [transforms] if own else [[t] for t in transforms]
        for number, own_transforms in enumerate(copies):
            filament = 0
            if entry is not None:
                name = entry["metadata"].get("name", shape.name)
                filament = int(entry["metadata"].get("extruder", "0") or 0)
                parts = entry["parts"]
            else:
                name = shape.name or f"Object_{len(loaded) + 1}"
                parts = {}
                if shape.pid >= 0 and number == 0:
                    colours = model["groups"].get(shape.pid, [])
                    index = shape.pindex if 0 <= shape.pindex < len(colours) else 0
                    filament = group_filament.get((shape.pid, index if reader == "bambu" else 0), 0)
            if number > 0:
                filament = 0  # the split copies were made before the colours were applied
            volumes = [
                Volume(
                    object_id=mesh.id,
                    name=parts.get(mesh.id, {}).get("name", "") or name,
                    triangles=mesh.triangles,
                    filament=int(parts.get(mesh.id, {}).get("extruder", "0") or 0) or None,
                )
                for mesh in meshes
            ]
            loaded.append(
                LoadedObject(
                    object_id=object_id,
                    name=name,
                    copies=len(own_transforms),
                    filament=filament,
                    volumes=volumes,
                    transforms=own_transforms,
                )
            )
    ids = (config or {}).get("filament_settings_id")
    most = len(ids) if isinstance(ids, list) else None
    for obj in loaded:
        if obj.filament == 0 or (most is not None and obj.filament > most):
            obj.filament = 1
        if len(obj.volumes) == 1:
            obj.volumes[0].filament = None
        for volume in obj.volumes:
            if volume.filament is not None and most is not None and volume.filament > most:
                volume.filament = 1
    return Loaded(
        own_project=own, config=config, colour_changes=changes, objects=loaded, plates=plates
    )


def _mesh_objects(key: tuple[str, int], shapes: dict[tuple[str, int], _Object]) -> list[_Object]:
    """``_generate_current_object_list``: components breadth first down to meshes."""
    found, queue = [], [key]
    while queue:
        current = shapes.get(queue.pop(0))
        if current is None:
            continue
        if current.components:
            queue += current.components
        elif current.triangles:
            found.append(current)
    return found
