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

Bambu Studio 2.x (``BAMBU_SOURCE``, ``Plater::priv::load_files``) opens a claimed file as a
project when the claimed major version is not newer than its own and the project settings
load (else "load geometry data only"); it then selects the system profiles the file names
(``printer_settings_id``, ``print_settings_id``, ``filament_settings_id``) and sets back every
value the file does not list in ``different_settings_to_system``. So a ``bambu`` plate on a bed
of a Bambu printer (``BAMBU_PRINTERS``) names that printer's profiles and lists every setting
it carries; on another bed it names none and Bambu Studio makes a custom printer of its values.

Decision (not in any loader): claiming the generator is the only way the Bambu loader reads a
project's settings at all; the claim names a released version (``BAMBU_APPLICATION``) and the
file carries nothing else of Bambu Studio's own (no thumbnails, no sliced G-code), which its
loader treats as optional.

Multi-material plates carry a wipe tower (``WipeTower``; PrusaSlicer "Wipe tower", Bambu Studio
and OrcaSlicer "Prime tower") and each slicer's purge volumes for their colours
(``SlicerSettings.purge_volumes``): a single nozzle (MMU, AMS) must purge the body colour before
printing the symbols.
"""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Literal

Slicer = Literal["prusa", "orca", "bambu"]

SLICERS: tuple[Slicer, ...] = ("prusa", "orca", "bambu")
"""The slicers a plate can be written for (``--slicer``)."""

DEFAULT_SLICER: dict[str, Slicer] = {
    "a1": "bambu",
    "x1": "bambu",
    "p1s": "bambu",
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

BAMBU_APPLICATION = "BambuStudio-02.00.00.95"
"""``Application`` metadata of a ``bambu`` plate: bbs_3mf.cpp ``_handle_end_metadata`` checks
the prefix ``BambuStudio-`` and parses the rest as the generator's version (semver.c: the 4th
part is added to the patch, ``02.00.00.95`` is 2.0.95). Bambu Studio 2.x (``Plater::priv::
load_files``, bambulab/BambuStudio 7aee90111a9fc41521ba4edf598d92e37a3974f8, 02.07.00.55) warns
"this 3mf file cannot be fully loaded" for a newer major version and asks for an update for a
newer minor one, so the claim is the first 2.x release: every 2.x opens it without a question.
A file below 2.0.0 gets its prime tower settings rewritten on load (``old_version3``)."""
BAMBU_3MF_VERSION = "1"
"""``BambuStudio:3mfVersion`` metadata (bbs_3mf.cpp ``VERSION_BBS_3MF``), written as Bambu
Studio writes it; the 2.x importer reads it and decides nothing by it."""
ORCA_APPLICATION = "OrcaSlicer-2.2.0"
"""``Application`` metadata of an ``orca`` plate (OrcaSlicer's ``_handle_end_metadata``)."""

BAMBU_SOURCE = "bambulab/BambuStudio 7aee90111a9fc41521ba4edf598d92e37a3974f8 (02.07.00.55)"
"""The Bambu Studio 2.x source the ``bambu`` plates follow (read from a fork that merges it)."""
ORCA_SOURCE = "SoftFever/OrcaSlicer 00277ac4b0b33133b5190af4b05df33a58094d76 (2.3.1-dev)"
"""The OrcaSlicer source the purge settings follow (read from a fork at that commit)."""
PRUSA_SOURCE = "prusa3d/PrusaSlicer fb4aa42dc1db3a669c3908d2d6e7249f0789ebe8 (version_2.5.0)"
"""The PrusaSlicer source the wipe tower settings follow; checked against 2.9.4 too."""

PRUSA_PURGE_VOLUME = 140.0
"""mm³ PrusaSlicer purges on the wipe tower for any pair of filaments: the default of
``wiping_volumes_matrix`` (PrintConfig.cpp, 2.5.0) and of the printer's ``multimaterial_purging``
(2.9.4); PrusaSlicer does not size it by colour."""
TOWER_BRIM = {"prusa": 2.0, "orca": 3.0, "bambu": 3.0}
"""mm of brim around the tower: the defaults of ``wipe_tower_brim_width`` (PrusaSlicer) and
``prime_tower_brim_width`` (Bambu Studio, OrcaSlicer), which the plates leave as they are."""
TOWER_MARGIN = 1.3
"""How much deeper than the purge spread as one layer a tower is planned: PrusaSlicer 2.5 made
a 40 mm tower 21 mm deep for 140 mm³ at 0.2 mm (17.5 mm by volume alone; its ramming lines
and the unfilled end of the last line, ``WipeTower::plan_toolchange``)."""
TOWER_WALLS = 4.0
"""mm added to a tower's depth for its walls (a perimeter on each side and spacing)."""


def tower_area(volume: float, layer_height: float) -> float:
    """mm² a tower needs for a purge of ``volume`` mm³ in one layer of ``layer_height`` mm, with
    ``TOWER_MARGIN``: a tower W mm wide is this over W (plus ``TOWER_WALLS``) deep."""
    return TOWER_MARGIN * volume / layer_height


@dataclass(frozen=True, kw_only=True)
class BambuPrinter:
    """A Bambu Lab printer's system profiles, as a Bambu Studio project names them.

    The names are those of ``resources/profiles/BBL`` (machine, process and filament JSON) in
    ``BAMBU_SOURCE``. Bambu Studio selects a system profile found by these names and keeps of
    the plate's values only the keys listed in ``different_settings_to_system``
    (``PresetCollection::load_external_preset``); without them it makes a custom printer.

    Attributes:
        printer_model: ``printer_model`` of the machine profile (e.g. ``Bambu Lab A1``).
        printer: the machine profile (``printer_settings_id``), 0.4 mm nozzle.
        process: the 0.20 mm process profile of that printer (``print_settings_id``).
        filament: the PLA profile of that printer (``filament_settings_id``).
        nozzle_volume: ``nozzle_volume`` of the machine profile (mm³): the least flush volume
            (``get_min_flush_volumes``; a long retraction before the cut, off by default in
            the filament profile, would lower it).
    """

    printer_model: str
    printer: str
    process: str
    filament: str
    nozzle_volume: float = 92.0


def _bambu(model: str, profiles: str, nozzle_volume: float = 92.0) -> BambuPrinter:
    """A Bambu printer by its BambuStudio names: ``model`` 0.4 nozzle, and the 0.20 mm
    Standard process and the PLA Basic filament of the ``@BBL <profiles>`` family."""
    return BambuPrinter(
        printer_model=model,
        printer=f"{model} 0.4 nozzle",
        process=f"0.20mm Standard @BBL {profiles}",
        filament=f"Bambu PLA Basic @BBL {profiles}",
        nozzle_volume=nozzle_volume,
    )


BAMBU_PRINTERS: dict[str, BambuPrinter] = {
    "a1": _bambu("Bambu Lab A1", "A1"),
    "x1": _bambu("Bambu Lab X1 Carbon", "X1C", nozzle_volume=107.0),
    "p1s": _bambu("Bambu Lab P1S", "X1C", nozzle_volume=107.0),
    "mini": _bambu("Bambu Lab A1 mini", "A1M"),
}
"""The Bambu printer a bed preset's ``bambu`` plates name (``Bambu Lab A1 0.4 nozzle.json``:
256 x 256 x 256 mm, ``Bambu Lab A1 mini 0.4 nozzle.json``: 180 x 180 x 180 mm, both with
``nozzle_volume`` 92; ``Bambu Lab X1 Carbon 0.4 nozzle.json`` and ``Bambu Lab P1S 0.4
nozzle.json``: 256 x 256 x 250 mm, ``nozzle_volume`` 107 from ``fdm_bbl_machine_common``,
and the process and PLA profiles both name as their defaults, ``@BBL X1C``). An X1 or P1P owner
takes ``x1`` or ``p1s`` (the same bed) and picks the printer after opening, as for any
project. Other beds name no Bambu printer."""

BAMBU_PRINT_KEYS = frozenset(
    {
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
        "enable_prime_tower",
        "prime_tower_width",
        "prime_tower_brim_width",
        "prime_tower_rib_wall",
    }
)
"""Process (print profile) keys of the plates: ``s_Preset_print_options`` in Preset.cpp
(``BAMBU_SOURCE``); they go first in ``different_settings_to_system``."""
BAMBU_PRINTER_KEYS = frozenset({"printable_area", "printable_height"})
"""Machine (printer profile) keys of the plates that may differ from the printer's profile:
``s_Preset_printer_options``; they go last in ``different_settings_to_system``."""


def bambu_flush_volume(source: str, target: str, least: float, most: float) -> float:
    """mm³ Bambu Studio and OrcaSlicer flush to change from filament ``source`` to ``target``.

    The colour rule of ``FlushVolCalculator::calc_flush_vol`` (OrcaSlicer ``FlushVolCalc.cpp``
    at ``ORCA_SOURCE``; Bambu Studio's ``calc_flush_vol_rgb`` in ``BAMBU_SOURCE``, which 2.x
    uses where its measured data have no answer): the HSV hue/saturation distance and the
    luminance rise, joined as two sides at 120 degrees, at least 60, plus ``least``, at most
    ``most``, cut to whole mm³ as the slicer does.

    Args:
        source: ``#RRGGBB`` of the filament in the nozzle.
        target: ``#RRGGBB`` of the filament loaded next.
        least: the printer's least flush volume (mm³, its nozzle volume).
        most: the slicer's cap (mm³: 800 OrcaSlicer, 900 Bambu Studio).
    """
    (r1, g1, b1), (r2, g2, b2) = _rgb(source), _rgb(target)
    h1, s1, v1 = _hsv(r1, g1, b1)
    h2, s2, v2 = _hsv(r2, g2, b2)
    dx = math.cos(math.radians(h1)) * s1 * v1 - math.cos(math.radians(h2)) * s2 * v2
    dy = math.sin(math.radians(h1)) * s1 * v1 - math.sin(math.radians(h2)) * s2 * v2
    hs_distance = min(1.2, math.hypot(dx, dy))
    lumi_from, lumi_to = _luminance(r1, g1, b1), _luminance(r2, g2, b2)
    if lumi_to >= lumi_from:
        lumi_flush = (lumi_to - lumi_from) ** 0.7 * 560.0
    else:
        lumi_flush = (lumi_from - lumi_to) * 80.0
        hs_distance = min(0.67 * v2 + 0.33 * v1, hs_distance)
    hs_flush = 230.0 * hs_distance
    volume = math.sqrt(
        hs_flush**2 + lumi_flush**2 - 2 * hs_flush * lumi_flush * math.cos(math.radians(120))
    )
    return float(min(int(max(volume, 60.0) + least), int(most)))


def _rgb(code: str) -> tuple[float, float, float]:
    red, green, blue = (int(code[i : i + 2], 16) / 255.0 for i in (1, 3, 5))
    return red, green, blue


def _hsv(r: float, g: float, b: float) -> tuple[float, float, float]:
    """``RGB2HSV`` (ColorSpaceConvert.cpp): hue in degrees (C ``fmod``, may be negative)."""
    high, low = max(r, g, b), min(r, g, b)
    delta = high - low
    if abs(delta) < 0.001:
        hue = 0.0
    elif high == r:
        hue = 60.0 * math.fmod((g - b) / delta, 6.0)
    elif high == g:
        hue = 60.0 * ((b - r) / delta + 2)
    else:
        hue = 60.0 * ((r - g) / delta + 4)
    return hue, 0.0 if abs(high) < 0.001 else delta / high, high


def _luminance(r: float, g: float, b: float) -> float:
    return r * 0.3 + g * 0.59 + b * 0.11


@dataclass(frozen=True, kw_only=True)
class WipeTower:
    """Where a multi-material plate's wipe (prime) tower stands: the rectangle the plate keeps
    free for it beside the parts (``cad.plates``), brim outside it.

    Attributes:
        x, y: front-left corner of the tower in mm from the bed's front-left corner (the
            slicers' ``wipe_tower_x`` / ``wipe_tower_y``).
        width: along X in mm (``wipe_tower_width``, ``prime_tower_width``).
        depth: along Y in mm kept free; the slicer makes the tower as deep as the purge needs,
            which the plate's estimate (``cad.plates.TowerRoom``) does not undercut.
    """

    x: float
    y: float
    width: float
    depth: float


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
        tower: the wipe tower of a multi-material plate (None: no tower, one filament).
        printer: the Bambu printer a ``bambu`` plate names (None: no printer is named).
    """

    bed: tuple[float, float, float]
    layer_height: float
    skirt_distance: float | None
    filaments: tuple[str, ...] = ("#8C8C8C",)
    output_name: str = "plate.gcode"
    slicer: Slicer = "prusa"
    tower: WipeTower | None = None
    printer: BambuPrinter | None = None

    def purge_volumes(self, slicer: Slicer | None = None) -> tuple[tuple[float, ...], ...]:
        """mm³ purged changing from filament i (row) to j (column) in ``slicer`` (default: the
        plate's): ``PRUSA_PURGE_VOLUME`` for PrusaSlicer, ``bambu_flush_volume`` of the two
        colours for Bambu Studio (least flush: the named printer's nozzle volume, cap 900) and
        OrcaSlicer (least: the printer's ``nozzle_volume``, 0 by default, cap 800)."""
        slicer = slicer or self.slicer
        least = self.printer.nozzle_volume if self.printer else 0.0
        most = 900.0 if slicer == "bambu" else 800.0

        def volume(source: str, target: str) -> float:
            if source == target:
                return 0.0
            if slicer == "prusa":
                return PRUSA_PURGE_VOLUME
            return bambu_flush_volume(source, target, least, most)

        return tuple(tuple(volume(a, b) for b in self.filaments) for a in self.filaments)

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
            # ``normalize_fdm``): a part on filament 2 needs two
            values["nozzle_diameter"] = ",".join(["0.4"] * len(self.filaments))
            values["wipe_tower"] = "1" if self.tower else "0"
        if self.tower is not None:
            values.update(self._prusa_tower(self.tower))
        return values

    def _prusa_tower(self, tower: WipeTower) -> dict[str, str]:
        """PrusaSlicer's wipe tower (``PRUSA_SOURCE``): position and width, its purge matrix
        (``wiping_volumes_matrix``, row = from; ``wiping_volumes_extruders`` the unload/load
        halves its dialog starts from), ``wiping_volumes_use_custom_matrix`` so that 2.7.3+
        take the matrix instead of ``multimaterial_purging`` (2.5 skips the unknown key), and
        relative E, without which Print::validate refuses a wipe tower. 2.9 keeps the tower's
        place in Model, read from these config lines for a project without it."""
        matrix = [v for row in self.purge_volumes("prusa") for v in row]
        return {
            "wipe_tower_x": _num(tower.x),
            "wipe_tower_y": _num(tower.y),
            "wipe_tower_width": _num(tower.width),
            "wipe_tower_rotation_angle": "0",
            "wipe_tower_brim_width": _num(TOWER_BRIM["prusa"]),
            "wiping_volumes_matrix": ",".join(_num(v) for v in matrix),
            "wiping_volumes_extruders": ",".join(
                [_num(PRUSA_PURGE_VOLUME / 2)] * (2 * len(self.filaments))
            ),
            "wiping_volumes_use_custom_matrix": "1",
            "use_relative_e_distances": "1",
            # Decision: no priming lines. PrusaSlicer primes every filament along the bed's
            # front edge (y 0..13 mm, x 5..125 mm, whatever lies there), under the parts a plate
            # puts near its border and through the X1/P1's excluded corner; the tower purges
            # the one change these plates make, and the start G-code primes the first filament.
            "single_extruder_multi_material_priming": "0",
        }

    def orca_values(self) -> dict[str, str | list[str]]:
        """The same settings under Bambu Studio / OrcaSlicer's names (their ``PrintConfig.cpp``).

        Both slicers skip a key they do not know (``PrintConfigDef::handle_legacy`` clears a
        key ``print_config_def`` lacks, ``BAMBU_SOURCE`` and ``ORCA_SOURCE``), so a key only
        one of them has (``prime_tower_rib_wall``) is safe; older versions dropped the file.
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
        if self.tower is not None:
            values.update(self._prime_tower(self.tower))
        if self.printer is not None:
            values.update(self._bambu_printer(self.printer, values))
        return values

    def _prime_tower(self, tower: WipeTower) -> dict[str, str | list[str]]:
        """Bambu Studio / OrcaSlicer's prime tower ("Prime tower" in the process settings) and
        "Flushing volumes" (``flush_volumes_matrix``, row = from, times ``flush_multiplier``;
        ``wipe_tower_x``/``_y`` one value per plate). ``prime_tower_rib_wall`` off keeps the
        tower the rectangle the plate keeps free (Bambu Studio 2.x squares it otherwise,
        ``WipeTower::plan_tower_new``)."""
        matrix = [v for row in self.purge_volumes() for v in row]
        return {
            "enable_prime_tower": "1",
            "prime_tower_width": _num(tower.width),
            "prime_tower_brim_width": _num(TOWER_BRIM[self.slicer]),
            "prime_tower_rib_wall": "0",
            "wipe_tower_x": [_num(tower.x)],
            "wipe_tower_y": [_num(tower.y)],
            "flush_volumes_matrix": [_num(v) for v in matrix],
            "flush_volumes_vector": [_num(PRUSA_PURGE_VOLUME)] * (2 * len(self.filaments)),
            "flush_multiplier": "1",
        }

    def _bambu_printer(
        self, printer: BambuPrinter, written: dict[str, str | list[str]]
    ) -> dict[str, str | list[str]]:
        """The keys that make Bambu Studio 2.x select the printer's system profiles and keep
        the plate's values over them (``BAMBU_SOURCE``): ``PresetBundle::validate_presets``
        finds the profiles by ``printer_settings_id`` / ``filament_settings_id``;
        ``load_config_file_config`` loads ``print_settings_id`` and ``printer_settings_id``
        with ``different_settings_to_system`` (process keys, one entry per filament, machine
        keys); ``version`` is read like ``Application``."""
        filaments = len(self.filaments)
        process = ";".join(sorted(key for key in written if key in BAMBU_PRINT_KEYS))
        machine = ";".join(sorted(key for key in written if key in BAMBU_PRINTER_KEYS))
        return {
            "version": BAMBU_APPLICATION.removeprefix("BambuStudio-"),
            "printer_technology": "FFF",
            "printer_model": printer.printer_model,
            "printer_variant": "0.4",
            "nozzle_diameter": ["0.4"],
            "printer_settings_id": printer.printer,
            "print_settings_id": printer.process,
            "filament_settings_id": [printer.filament] * filaments,
            "different_settings_to_system": [process, *[""] * filaments, machine],
        }


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
