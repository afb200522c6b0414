"""PRINT-NOTES.md: the kit's manifest told in plain words (pure; mm, g).

Source: the designer's print notes P1-P5 (shared/rules/asteroids.md) and PRINT-FORMATS.md
(colour change heights, Bambu Studio needing the height in words). What goes wrong with other
slicer settings was measured with PrusaSlicer 2.5 on the generated plates (the
first-layer case is re-measured by ``tests/cad/test_slicer.py``).
"""

from __future__ import annotations

from typing import Any

from cad.estimate import duration_words
from cad.settings import colour_name


def print_notes(manifest: dict[str, Any]) -> str:
    """Render the print notes for a kit manifest (as written by ``cad.kit``).

    Args:
        manifest: the kit manifest (settings, parts, plates, fits, storage_box).

    Returns:
        Markdown text, one section per topic, ending with a newline.
    """
    return (
        "\n".join(
            [
                *_slicer_section(manifest),
                *_plates_section(manifest),
                *_board_split_lines(manifest),
                *_symbols_section(manifest["settings"]),
                *_fits_section(manifest),
                *_storage_section(manifest["storage_box"]),
            ]
        )
        + "\n"
    )


def _slicer_section(manifest: dict[str, Any]) -> list[str]:
    """The title, the scale and estimate, and the slicer settings with what goes wrong."""
    s = manifest["settings"]
    bed = s["bed"]
    return [
        "# Asteroids print kit: how to print it",
        "",
        f"Scale {s['scale']:g} ({_scale_words(manifest)}), "
        f"layer height {s['layer_height']:g} mm, printer bed {bed['name']} "
        f"({bed['x']:g} x {bed['y']:g} mm). {_estimate_words(manifest)}",
        "",
        "## Slicer settings",
        "The plates are projects: every 3MF in `plates/` carries the settings it was made for. "
        f"{_slicer_words(manifest)} Open a plate as a project (File > Open project, not "
        "Import), keep the arrangement, then choose your printer and filament profiles as "
        "usual: the print settings below stay as the plate set them. Slicing without touching "
        "them gives the colour change and the heights listed under Plates; each plate's G-code "
        "is named after the plate.",
        "",
        f"- Layer height **{s['layer_height']:g} mm**, first layer {s['layer_height']:g} mm too: "
        "every piece height and the colour changes are whole layers of exactly this height.",
        *_compensation_lines(s),
        "- Elephant-foot compensation is **in the geometry** too: every bottom edge that meets "
        "another part (fragments, ships, the joint of the board halves) has a 45-degree relief "
        'of its own, so the plates set the slicer\'s "Elephant foot compensation" to 0.',
        "- **No supports.** The ships' undersides are 45-degree cones with a short bridge "
        "(under 11 mm) on top; everything else is flat on the bed.",
        '- Print by layer (not "complete individual objects"), on the bed '
        f"{bed['x']:g} x {bed['y']:g} mm the plates were arranged for, "
        f"{_skirt_words(manifest)}{_keep_out_words(manifest)}",
        "- The board needs good bed adhesion: clean the plate, slow first layer, brim only if "
        f"its corners lift{_brim_words(s)}.",
        "- A colour change placed by hand goes on the layer the notes name: in the slicer's "
        "preview move the layer slider to that height (the slider shows the top of each "
        "layer, e.g. 6.60) and add the colour change there; that layer is the first one in the "
        "new colour.",
        "",
        "### What goes wrong with other settings",
        f"- A first layer thicker than {s['layer_height']:g} mm (say 0.3 mm) shifts every layer: "
        "the colour change no longer falls on a layer top, so it lands a layer off or is "
        "dropped, and the pieces top out 0.1 mm low, without a warning.",
        f"- Another layer height (say 0.3 mm instead of {s['layer_height']:g}): the colour "
        "change height is not a whole number of layers, the slicer drops it, the pieces end "
        "0.1 mm low. Rebuild the kit with `--layer-height` set to the height you print with.",
        '- "Complete individual objects" (sequential printing): PrusaSlicer refuses the plates '
        "(the parts stand too close for the print head); spread apart, each piece would get "
        "its own colour change, or none.",
        "- Supports would fill the ships' underside recesses, and the ships would not stack.",
        "- The slicer's \"XY size compensation\" on top of the geometry's doubles the play.",
    ]


def _plates_section(manifest: dict[str, Any]) -> list[str]:
    """One item per plate: its parts, filament, time and colour change or symbol part."""
    s = manifest["settings"]
    lines = ["", "## Plates"]
    for plate in manifest["plates"]:
        parts = ", ".join(f"{n} x {name}" for name, n in plate["parts"].items())
        lines.append(
            f"- `{plate['file']}`: {parts}, filament {_colour(plate['colour'])}, "
            f"about {plate['filament_g']:g} g and {duration_words(plate['print_time_s'])}."
        )
        change, symbols = plate["colour_change"], plate.get("symbol_part")
        if change:
            lines.append(
                f"  - **Change filament to {_colour(change['colour'])} {change['words']}**, "
                f"the last {_layers(plate, change, s)}: the top turns that colour and the "
                "engraved symbols show in the first colour."
            )
        elif symbols:
            lines.append(
                f"  - Multi-material: the symbol layer (from layer {symbols['layer']}, "
                f"{symbols['height_mm']:g} mm, up) is a part of its own on **filament 2, "
                f"{_colour(symbols['colour'])}**; the printer changes filament itself (AMS, "
                "MMU or tool changer), no pause."
            )
            if plate.get("wipe_tower"):
                lines.append(_tower_words(plate["wipe_tower"], s["slicer"]))
        else:
            lines.append("  - One colour, no filament change.")
    return lines


def _board_split_lines(manifest: dict[str, Any]) -> list[str]:
    """How the two board halves join (none for a whole board)."""
    lines: list[str] = []
    if manifest.get("board_split"):
        travel = manifest.get("joint_travel_mm") or {}
        lines += [
            "",
            "The board is printed in two halves for this bed, cut beside the middle rib (the "
            "rib stays whole in half A). Lay half B flat and press half A's three round-headed "
            "tabs down into its sockets: the heads lock the halves in both directions. Glue "
            "them if you like.",
        ]
        border = manifest.get("whole_board_bed_border_mm")
        if border:
            lines.append(
                f"With `--bed-border {border:g}` the whole board fits this bed (a "
                f"{border:g} mm border leaves no room for a brim"
                + (" and the plates ask for no skirt)." if border < 3.5 else ").")
            )
        if travel:
            lines.append(
                f"Measured play of the joint: {travel['along_minus']:.2f} / "
                f"{travel['along_plus']:.2f} mm along it, {travel['pull']:.2f} mm pulling the "
                f"halves apart, {travel['push']:.2f} mm pushing them together."
            )
    return lines


def _symbols_section(s: dict[str, Any]) -> list[str]:
    """The two ways to print the symbols, remixing, and what the pieces are."""
    return [
        "",
        "## Two ways to print the symbols",
        "- **One nozzle, one spool at a time** (the default kit): the plate pauses once at the "
        "layer named above (M600); load the symbol filament and resume. Every part on the "
        "plate has the same height, so one change serves them all.",
        "- **AMS, MMU or tool changer** (`tablesmith build --multi-material`): the symbol layer "
        "of every fragment and ship is a part of its own on filament 2. Load the body colour "
        "as filament 1 and the symbol colour as filament 2; the printer switches by itself "
        "at that layer (PrusaSlicer writes a tool change T1 there, no M600). The STLs of both "
        "parts are in `stl/` beside the whole piece, their exact solids in `step/`.",
        *_purge_lines(s["slicer"]),
        "",
        "## Remixing",
        "`step/` has every part as an exact solid (STEP, mm, named after the part) for "
        "CadQuery, FreeCAD, Fusion or any CAD program; in CadQuery, `from cad.cq import part` "
        'and `show_object(part("ship", scale=...))` builds the same solid from the same '
        "parameters.",
        "",
        "## What the pieces are",
        "- `board`: two home bases (pockets hold the ships) and six rifts open at both ends.",
        "- `fragment-HH`: two holes. `fragment-HA`: a hole and an engraved asteroid.",
        "- `ship`: stacks three high; print the ship plates once per fleet colour.",
    ]


def _fits_section(manifest: dict[str, Any]) -> list[str]:
    """The measured fits, narrow symbol lands and the thinnest wall."""
    lines = ["", "## Fits (measured on the generated parts)"]
    for fit in manifest["fits"]:
        lines.append(f"- {fit['pair']}: {fit['play_mm']:.2f} mm play per side.")
    narrow = {k: v for k, v in (manifest.get("symbol_lands_mm") or {}).items() if v < 0.8}
    for name, width in narrow.items():
        lines.append(
            f"- Narrow in the symbol layer: {name}, {width:.2f} mm (under two 0.4 mm lines): the "
            "slicer may leave that strip out of the top layer; the symbol still reads."
        )
    walls = manifest.get("walls_mm") or {}
    if walls:
        name, width = min(walls.items(), key=lambda item: item[1])
        lines.append(
            f"- Thinnest wall: {width:.2f} mm ({name}); none is under 0.8 mm (two lines of a "
            "0.4 mm nozzle)."
        )
    return lines


def _storage_section(box: dict[str, Any]) -> list[str]:
    """Whether the whole set fits the storage box, and how."""
    bx, by, bz = box["box_mm"]
    lines = ["", "## Storage box"]
    if box["fits"]:
        mx, my, mz = box["margins_mm"]
        lines.append(
            f"- Box {bx:g} x {by:g} x {bz:g} mm (inside): the whole set fits in "
            f"{len(box['layers'])} layers stacked {box['height_mm']:g} mm high, with "
            f"{mz:g} mm to spare above and {mx:g} x {my:g} mm beside the largest layer."
        )
    else:
        lines.append(
            f"- Box {bx:g} x {by:g} x {bz:g} mm (inside): does not fit: {box['reason']}. "
            "Try `--scale 0.8`."
        )
    return lines


def _estimate_words(manifest: dict[str, Any]) -> str:
    """The whole set's filament and print time, what they assume and which figure to trust."""
    solid = sum(p["filament_g_solid"] * p["count"] for p in manifest["parts"])
    basis = manifest["estimate"]
    top, bottom = basis["top_bottom_layers"]
    return (
        f"The whole set takes about {manifest['filament_total_g']:g} g of PLA and "
        f"{duration_words(manifest['print_time_total_s'])} of printing, as PrusaSlicer's "
        f"default profile prints the plates ({basis['perimeters']} perimeters, {top} top and "
        f"{bottom} bottom layers, {basis['infill_percent']} % infill; printed solid the pieces "
        f"would take {solid / manifest['filament_total_g']:.2f} times the filament). Each "
        "plate's figures are below. They are estimates: the time and grams your slicer shows "
        "for your printer and filament profiles are the ones to trust (a printer's own "
        "profile usually prints faster)."
    )


def _skirt_words(manifest: dict[str, Any]) -> str:
    border = manifest["settings"]["bed_border"]
    plates = manifest["plates"]
    skirts = plates[0]["slicer_settings"]["skirts"] if plates else "0"
    if skirts != "0":
        distance = plates[0]["slicer_settings"]["skirt_distance"]
        return (
            f"with a one-line skirt {distance} mm around the parts; the plates keep "
            f"{border:g} mm free along every bed edge (`--bed-border`)."
        )
    return (
        f"without a skirt: the plates keep only {border:g} mm free along the bed edges "
        "(`--bed-border`), too little for one."
    )


def _keep_out_words(manifest: dict[str, Any]) -> str:
    """The bed's excluded areas the plates keep clear, in words ("" for a bed without)."""
    settings = manifest["settings"]
    areas = settings["bed"].get("keep_out") or []
    if not areas:
        return ""
    spacing = settings.get("plate_spacing", 6.0)
    where = " and ".join(
        f"the {x1 - x0:g} x {y1 - y0:g} mm area "
        + (
            "at the bed's front-left corner"
            if x0 == y0 == 0
            else f"{x0:g} mm right and {y0:g} mm back of the bed's front-left corner"
        )
        for x0, y0, x1, y1 in areas
    )
    return f" Every part stays {spacing:g} mm off {where}, which the printer excludes: keep the arrangement."


def _brim_words(settings: dict[str, Any]) -> str:
    border = settings["bed_border"]
    if border < 2:
        return " (the bed border has no room for a brim: rebuild with `--bed-border 5`)"
    return f" (a brim up to {border - 1:g} mm wide stays on the bed)"


def _colour(hex_colour: str) -> str:
    name = colour_name(hex_colour)
    return f"{name} ({hex_colour})" if name != hex_colour else hex_colour


_TOWER = {
    "prusa": ("Wipe tower", "Purging volumes", "Print Settings > Multiple Extruders"),
    "bambu": ("Prime tower", "Flushing volumes", "the process settings, Others"),
    "orca": ("Prime tower", "Flushing volumes", "the process settings, Multimaterial"),
}
"""Per slicer, the names its window shows: the tower's settings group, the purge table's
button beside the filaments (PrusaSlicer's ``Tab.cpp``/``Plater.cpp``, Bambu Studio's and
OrcaSlicer's ``Plater.cpp`` and ``Tab.cpp``: see ``cad.slicers``), and where the tower is."""


def _tower_words(tower: dict[str, Any], slicer: str) -> str:
    """A multi-material plate's tower: where it stands and what it purges (``cad.kit``)."""
    name, volumes, _ = _TOWER[slicer]
    return (
        f"  - {name} {tower['width_mm']:g} x about {tower['depth_mm']:g} mm at X "
        f"{tower['x_mm']:g}, Y {tower['y_mm']:g} (front-left corner): it takes "
        f"{tower['purge_mm3']:g} mm³ of the symbol filament at the change ({volumes}"
        + ("" if slicer == "prusa" else f"; PrusaSlicer's is {tower['purge_prusaslicer_mm3']:g}")
        + ")."
    )


def _purge_lines(slicer: str) -> list[str]:
    """Why a multi-material plate has a tower, in the words of the plate's slicer."""
    name, volumes, where = _TOWER[slicer]
    return [
        f"- **Purge on one nozzle** (Prusa MMU, Bambu AMS): the old filament has to be "
        f"pushed out of the nozzle before the symbols print, or they come out blended with the "
        f"body colour (a ship's symbol layer holds less filament than one purge). The "
        f"plates turn on the **{name}** ({where}) and fill **{volumes}** (the button beside "
        f"the filament list) with the slicer's own amounts: PrusaSlicer 140 mm³ for any pair, "
        f"Bambu Studio and OrcaSlicer by the two colours. The tower stands beside the parts "
        f"where the plate kept room for it. Keep both as they are.",
        f"- **Tool changers** (Prusa XL, Bambu H2D's two nozzles, and the like) give each "
        f"filament its own nozzle and need no purge: set the pair in **{volumes}** to 0 (the "
        f"slicer may still keep a small {name.lower()} to prime the nozzle it changes to).",
    ]


def _slicer_words(manifest: dict[str, Any]) -> str:
    """Which slicer the plates were written for and which others read them whole
    (``cad.slicers``)."""
    slicer = manifest["settings"]["slicer"]
    multi = manifest["settings"].get("multi_material")
    if slicer == "prusa":
        return (
            "They are PrusaSlicer projects; OrcaSlicer reads them whole too"
            + (" except the symbol parts (rebuild with `--slicer orca`)." if multi else ".")
            + " Bambu Studio reads only the parts and colours: rebuild with `--slicer bambu`."
        )
    own = "Bambu Studio" if slicer == "bambu" else "OrcaSlicer"
    other = "OrcaSlicer reads them whole too. " if slicer == "bambu" else ""
    prusa = (
        "PrusaSlicer would drop the symbol parts to the bed: rebuild with `--slicer prusa`."
        if multi
        else "PrusaSlicer reads their settings and colour change too."
    )
    return f"They are {own} projects; {other}{prusa}"


def _layers(plate: dict[str, Any], change: dict[str, Any], settings: dict[str, Any]) -> str:
    count = round((plate["height_mm"] - change["height_mm"]) / settings["layer_height"]) + 1
    return "layer" if count == 1 else f"{count} layers"


def _scale_words(manifest: dict[str, Any]) -> str:
    if manifest["settings"]["scale"] == 1:
        return "full size"
    return "fits the storage box" if manifest["storage_box"]["fits"] else "scaled"


def _compensation_lines(settings: dict[str, Any]) -> list[str]:
    compensation = settings["xy_compensation"]
    if compensation == 0:
        return [
            "- **No X-Y compensation is in the geometry**: every fit is line to line (0 mm "
            'play). Set the slicer\'s "XY size compensation" to -0.1 mm for every part, or '
            "the pieces will not fit their openings."
        ]
    return [
        f"- X-Y compensation is **already in the geometry** ({compensation:g} mm per side, "
        f"{-2 * compensation:.2f} mm of play in every fit): leave the slicer's \"XY size "
        'compensation" at 0, or the pieces get it twice.'
    ]
