"""What each slicer reads from a 3MF plate, and the documents written for it (pure, no I/O).

Units: mm. A plate is a *project*: it carries the settings the kit was designed for, so that
opening it and slicing without touching anything gives the right heights, colours and colour
change. The three slicers read different files, and one rule makes a single file impossible:

- PrusaSlicer (prusa3d/PrusaSlicer ``src/libslic3r/Format/3mf.cpp``, ``_3MF_Importer``) reads
  ``Metadata/Slic3r_PE.config`` from any 3MF (``_load_model_from_file``, ``PRINT_CONFIG_FILE``),
  the colour change from ``Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml`` and object and
  volume settings (``extruder``) from ``Metadata/Slic3r_PE_model.config``, where the parts of
  one object are triangle ranges of one mesh (``_generate_volumes``: ``firstid``/``lastid``).
  It reads no colour of an object; a 3MF object made of components becomes one object per
  component (``_create_object_instance``), each dropped onto the bed.
- Bambu Studio (bambulab/BambuStudio ``src/libslic3r/Format/bbs_3mf.cpp``,
  ``_BBS_3MF_Importer``) loads ``Metadata/project_settings.config``, the colour change
  ``Metadata/custom_gcode_per_layer.xml``, ``Metadata/slice_info.config`` and the embedded
  presets only when the model's ``Application`` metadata starts with ``BambuStudio-``
  (``_handle_end_metadata`` sets the generator version; without it ``_load_model_from_file``
  sets ``dont_load_config``). The parts of one object are the mesh objects of a component
  object (``_generate_volumes_new``), each one's settings in ``Metadata/model_settings.config``
  (``<part id="sub-object id">`` with ``<metadata key="extruder">``,
  ``_handle_start_config_volume`` / ``_handle_start_config_metadata``). An object without
  settings there takes the filament of its ``pid`` colour group (``m:colorgroup``/``m:color``;
  one filament per distinct colour in file order, ``_load_model_from_file``, "process group
  colors"); ``basematerials`` is not read. A file not claimed by Bambu Studio has every object
  with several copies split into one object per copy, and the copies lose the filament.
- OrcaSlicer (SoftFever/OrcaSlicer, same file and importer) skips that version check ("Orca:
  skip version check" in ``_load_model_from_file``): it loads the project settings and the
  colour change from any 3MF. It treats a file whose ``Application`` starts with
  ``BambuStudio-`` or ``OrcaSlicer-`` as its own (``_handle_end_metadata``), else it splits
  copies as Bambu Studio does. One colour per colour group (``_handle_start_color`` keeps the
  last).

So ``--slicer`` chooses (``SLICERS``), with a default per bed preset (``DEFAULT_SLICER``):

- ``prusa``: a PrusaSlicer project with no ``Application`` claim; OrcaSlicer also reads its
  settings, colours and colour change. Multi-material parts are volumes of one mesh.
- ``bambu``: a Bambu Studio project (``Application`` ``BambuStudio-...``); OrcaSlicer reads it
  as its own, PrusaSlicer still reads its settings and colour change (single colour plates).
  Multi-material parts are components with their filament in ``model_settings.config``.
- ``orca``: the same layout as ``bambu`` claimed by ``OrcaSlicer-...`` (Bambu Studio then
  loads no settings from it).

Decision (not in any loader): claiming the generator is the only way the Bambu loader reads a
project's settings at all; the claim names a released version (``BAMBU_APPLICATION``) and the
file carries nothing else of Bambu Studio's own (no thumbnails, no sliced G-code), which its
loader treats as optional.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Literal

Slicer = Literal["prusa", "orca", "bambu"]

SLICERS: tuple[Slicer, ...] = ("prusa", "orca", "bambu")
"""The slicers a plate can be written for (``--slicer``)."""

DEFAULT_SLICER: dict[str, Slicer] = {
    "a1": "bambu",
    "mk4": "prusa",
    "mini": "prusa",
    "ender3": "orca",
    "custom": "orca",
}
"""The slicer each bed preset's plates are written for unless ``--slicer`` says otherwise.

``mini`` stands for the Prusa MINI and the Bambu A1 mini: its plates are PrusaSlicer projects
(which OrcaSlicer also reads whole); an A1 mini owner passes ``--slicer bambu``. Creality beds
and custom beds get OrcaSlicer projects (the free slicer with profiles for most printers).
"""

PRUSA_COLOUR_CHANGE = "Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml"
"""3mf.cpp ``_extract_custom_gcode_per_print_z_from_archive``."""
BAMBU_COLOUR_CHANGE = "Metadata/custom_gcode_per_layer.xml"
"""bbs_3mf.cpp ``CUSTOM_GCODE_PER_PRINT_Z_FILE``, ``_extract_custom_gcode_per_print_z_from_archive``."""
PRUSA_PRINT_CONFIG = "Metadata/Slic3r_PE.config"
"""3mf.cpp ``PRINT_CONFIG_FILE``, read by ``_extract_print_config_from_archive``."""
PRUSA_MODEL_CONFIG = "Metadata/Slic3r_PE_model.config"
"""3mf.cpp ``MODEL_CONFIG_FILE``, read by ``_extract_model_config_from_archive``."""
ORCA_PROJECT_CONFIG = "Metadata/project_settings.config"
"""bbs_3mf.cpp ``BBS_PROJECT_CONFIG_FILE``, read by ``_extract_project_config_from_archive``."""
BAMBU_MODEL_CONFIG = "Metadata/model_settings.config"
"""bbs_3mf.cpp ``BBS_MODEL_CONFIG_FILE``, read with ``_handle_start_config_xml_element``."""

BAMBU_APPLICATION = "BambuStudio-01.09.00.70"
"""``Application`` metadata of a ``bambu`` plate: bbs_3mf.cpp ``_handle_end_metadata`` checks
the prefix ``BambuStudio-`` and parses the rest as the generator's version."""
ORCA_APPLICATION = "OrcaSlicer-2.2.0"
"""``Application`` metadata of an ``orca`` plate (OrcaSlicer's ``_handle_end_metadata``)."""


@dataclass(frozen=True, kw_only=True)
class SlicerSettings:
    """The print settings a plate was designed for (mm).

    Attributes:
        bed: (x, y, z) of the print volume the plate was arranged for.
        layer_height: every layer, the first one included (P3: heights are whole layers).
        skirt_distance: gap between the parts and a one-line skirt, or None for no skirt
            (the plate's bed border has no room for one).
        filaments: filament colours ``#RRGGBB``, filament 1 first.
        output_name: the G-code file name a slicer proposes (one per plate).
        slicer: the slicer the plate is written for.
    """

    bed: tuple[float, float, float]
    layer_height: float
    skirt_distance: float | None
    filaments: tuple[str, ...] = ("#8C8C8C",)
    output_name: str = "plate.gcode"
    slicer: Slicer = "prusa"

    def values(self) -> dict[str, str]:
        """The settings under PrusaSlicer's names (``src/libslic3r/PrintConfig.cpp``)."""
        x, y, z = self.bed
        values = {
            "bed_shape": f"0x0,{_num(x)}x0,{_num(x)}x{_num(y)},0x{_num(y)}",
            "complete_objects": "0",
            "elefant_foot_compensation": "0",
            "first_layer_height": _num(self.layer_height),
            "layer_height": _num(self.layer_height),
            "max_print_height": _num(z),
            "printer_technology": "FFF",
            "raft_layers": "0",
            "skirt_distance": _num(self.skirt_distance or 0),
            "skirts": "1" if self.skirt_distance is not None else "0",
            "brim_width": "0",
            "support_material": "0",
            "support_material_auto": "0",
            "xy_size_compensation": "0",
            "output_filename_format": self.output_name,
            "extruder_colour": ";".join(self.filaments),
            "filament_colour": ";".join(self.filaments),
        }
        if len(self.filaments) > 1:
            # the extruder count is the length of nozzle_diameter (PrintConfig.cpp,
            # ``normalize_fdm``): a part on filament 2 needs two; the wipe tower stays off,
            # a tool changer needs none and an MMU owner turns it on with the printer profile
            values["nozzle_diameter"] = ",".join(["0.4"] * len(self.filaments))
            values["wipe_tower"] = "0"
        return values

    def orca_values(self) -> dict[str, str | list[str]]:
        """The same settings under Bambu Studio / OrcaSlicer's names (their ``PrintConfig.cpp``).

        ``load_from_json`` drops the whole file at an unknown key, so only keys both slicers
        have had for years are written.
        """
        x, y, z = self.bed
        values: dict[str, str | list[str]] = {
            "name": "project_settings",
            "from": "project",
            "printable_area": ["0x0", f"{_num(x)}x0", f"{_num(x)}x{_num(y)}", f"0x{_num(y)}"],
            "printable_height": _num(z),
            "layer_height": _num(self.layer_height),
            "initial_layer_print_height": _num(self.layer_height),
            "enable_support": "0",
            "raft_layers": "0",
            "print_sequence": "by layer",
            "skirt_loops": "1" if self.skirt_distance is not None else "0",
            "skirt_distance": _num(self.skirt_distance or 0),
            "brim_type": "no_brim",
            "brim_width": "0",
            "xy_contour_compensation": "0",
            "xy_hole_compensation": "0",
            "elefant_foot_compensation": "0",
            "filament_colour": list(self.filaments),
            "filename_format": self.output_name,
        }
        return values


@dataclass(frozen=True, kw_only=True)
class ColourChange:
    """A filament change (M600) on a plate.

    Attributes:
        print_z: top of the first layer in the new colour (mm): the height the slicer's layer
            slider shows for that layer, where a user adds a colour change by hand.
        colour: the new filament ``#RRGGBB``.
    """

    print_z: float
    colour: str


@dataclass(frozen=True, kw_only=True)
class VolumeEntry:
    """One part of a plate object as the model config documents name it.

    Attributes:
        name: part name.
        filament: 1-based filament (extruder) number.
        first_triangle: first triangle of the part in the object's mesh (PrusaSlicer layout).
        last_triangle: last triangle, inclusive.
        object_id: the 3MF id of the part's own mesh object (Bambu layout).
    """

    name: str
    filament: int
    first_triangle: int
    last_triangle: int
    object_id: int = 0


@dataclass(frozen=True, kw_only=True)
class ObjectEntry:
    """One plate object with its parts and copies, for the model config documents.

    Attributes:
        object_id: the object's id in ``3D/3dmodel.model``.
        name: object name.
        filament: 1-based filament of the object.
        copies: number of build items (instances) of the object.
        volumes: the object's parts, in mesh order.
    """

    object_id: int
    name: str
    filament: int
    copies: int
    volumes: tuple[VolumeEntry, ...] = field(default_factory=tuple)


def prusaslicer_config(settings: SlicerSettings) -> bytes:
    """``Metadata/Slic3r_PE.config``: a comment line, then ``; key = value`` lines.

    PrusaSlicer reads it with ``ConfigBase::load_from_gcode_string_legacy``: lines read from the
    end backwards until the first that is not ``; key = value`` (so the first line, a comment,
    is never read); a line must be at least 10 characters and a key at least 3; unknown keys
    are skipped.
    """
    lines = ["; generated by Tablesmith (Asteroids print kit): the settings this plate needs"]
    lines += [f"; {key} = {value}" for key, value in sorted(settings.values().items())]
    return ("\n".join(lines) + "\n").encode()


def orcaslicer_config(settings: SlicerSettings) -> bytes:
    """``Metadata/project_settings.config``: a flat JSON object of strings (``load_from_json``)."""
    return (json.dumps(settings.orca_values(), indent=4) + "\n").encode()


def prusa_model_config(objects: list[ObjectEntry]) -> bytes:
    """``Metadata/Slic3r_PE_model.config``: names and filaments of objects and their volumes.

    3mf.cpp ``_handle_start_config_object`` (``id``, ``instances_count``),
    ``_handle_start_config_volume`` (``firstid``, ``lastid``: every triangle of the object in
    some volume, or the object is empty) and ``_handle_start_config_metadata`` (``type``,
    ``key``, ``value``; keys other than ``name`` and the source keys go to the config).
    """
    root = ET.Element("config")
    for obj in objects:
        node = ET.SubElement(
            root, "object", {"id": str(obj.object_id), "instances_count": str(obj.copies)}
        )
        _meta(node, "object", "name", obj.name)
        _meta(node, "object", "extruder", str(obj.filament))
        for volume in obj.volumes:
            part = ET.SubElement(
                node,
                "volume",
                {"firstid": str(volume.first_triangle), "lastid": str(volume.last_triangle)},
            )
            _meta(part, "volume", "name", volume.name)
            _meta(part, "volume", "volume_type", "ModelPart")
            _meta(part, "volume", "extruder", str(volume.filament))
    return _xml_bytes(root)


def bambu_model_config(objects: list[ObjectEntry]) -> bytes:
    """``Metadata/model_settings.config``: objects, their parts' filaments, and plate 1.

    bbs_3mf.cpp: ``<object id>`` (``_handle_start_config_object``), ``<part id subtype>`` whose
    id is the part's mesh object (``_handle_start_config_volume``; ``normal_part`` is
    ``ModelVolume::type_from_string``'s model part), ``<metadata key value>`` (name and
    ``extruder``: ``_handle_start_config_metadata``, applied in ``_load_model_from_file`` and
    ``_generate_volumes_new``), and ``<plate>`` with ``plater_id`` and one ``model_instance``
    (``object_id``, ``instance_id``, ``identify_id``) per copy
    (``_handle_start_config_plater_instance``).
    """
    root = ET.Element("config")
    identify = 1000
    for obj in objects:
        node = ET.SubElement(root, "object", {"id": str(obj.object_id)})
        ET.SubElement(node, "metadata", {"key": "name", "value": obj.name})
        ET.SubElement(node, "metadata", {"key": "extruder", "value": str(obj.filament)})
        for volume in obj.volumes:
            part = ET.SubElement(
                node, "part", {"id": str(volume.object_id), "subtype": "normal_part"}
            )
            ET.SubElement(part, "metadata", {"key": "name", "value": volume.name})
            ET.SubElement(part, "metadata", {"key": "extruder", "value": str(volume.filament)})
    plate = ET.SubElement(root, "plate")
    ET.SubElement(plate, "metadata", {"key": "plater_id", "value": "1"})
    ET.SubElement(plate, "metadata", {"key": "plater_name", "value": ""})
    ET.SubElement(plate, "metadata", {"key": "locked", "value": "false"})
    for obj in objects:
        for copy in range(obj.copies):
            identify += 1
            instance = ET.SubElement(plate, "model_instance")
            ET.SubElement(instance, "metadata", {"key": "object_id", "value": str(obj.object_id)})
            ET.SubElement(instance, "metadata", {"key": "instance_id", "value": str(copy)})
            ET.SubElement(instance, "metadata", {"key": "identify_id", "value": str(identify)})
    return _xml_bytes(root)


def _meta(node: ET.Element, kind: str, key: str, value: str) -> None:
    ET.SubElement(node, "metadata", {"type": kind, "key": key, "value": value})


def colour_change_xml_prusa(change: ColourChange) -> bytes:
    """PrusaSlicer's ``custom_gcodes_per_print_z`` document for one colour change.

    3mf.cpp ``_extract_custom_gcode_per_print_z_from_archive`` throws on a missing attribute:
    ``print_z``, ``type`` (0 = colour change), ``extruder``, ``color``, ``extra``, ``gcode``.
    """
    root = ET.Element("custom_gcodes_per_print_z")
    ET.SubElement(root, "code", _change_attributes(change, "print_z"))
    ET.SubElement(root, "mode", {"value": "SingleExtruder"})
    return _xml_bytes(root)


def colour_change_xml_bambu(change: ColourChange) -> bytes:
    """Bambu Studio / OrcaSlicer's ``custom_gcodes_per_layer`` document for one colour change.

    bbs_3mf.cpp ``_extract_custom_gcode_per_print_z_from_archive``: root
    ``custom_gcodes_per_layer`` > ``plate`` > ``plate_info id`` (1-based plate), ``layer``
    (``top_z``, ``type``, ``extruder``, ``color``, ``extra``), ``mode``.
    """
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


def _num(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")
