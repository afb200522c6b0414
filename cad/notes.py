"""PRINT-NOTES.md: the kit's manifest told in plain words (pure; mm, g).

Source: the designer's print notes P1-P5 (shared/rules/asteroids.md) and PRINT-FORMATS.md
(colour change heights, Bambu Studio needing the height in words).
"""

from __future__ import annotations

from typing import Any

from cad.settings import colour_name


def print_notes(manifest: dict[str, Any]) -> str:
    """Render the print notes for a kit manifest (as written by ``cad.kit``).

    Args:
        manifest: the kit manifest (settings, parts, plates, fits, storage_box).

    Returns:
        Markdown text, one section per topic, ending with a newline.
    """
    s = manifest["settings"]
    bed = s["bed"]
    lines = [
        "# Asteroids print kit: how to print it",
        "",
        f"Scale {s['scale']:g} ({_scale_words(manifest)}), "
        f"layer height {s['layer_height']:g} mm, printer bed {bed['name']} "
        f"({bed['x']:g} x {bed['y']:g} mm). Total filament about "
        f"{manifest['filament_total_g']:g} g of PLA (0.8 mm shells and 15 % infill; printed "
        "solid it would be about twice that).",
        "",
        "## Slicer settings",
        f"- Layer height **{s['layer_height']:g} mm**, first layer {s['layer_height']:g} mm too: "
        "every piece height and the colour changes are whole layers of exactly this height.",
        *_compensation_lines(s),
        "- **No supports.** The ships' undersides are 45-degree cones with a short bridge "
        "(under 11 mm) on top; everything else is flat on the bed.",
        "- The board needs good bed adhesion: clean the plate, slow first layer, brim only if "
        "its corners lift.",
        "- Open the 3MF files in `plates/`: parts are arranged for your bed, named, and the "
        "colour change is already set (PrusaSlicer, OrcaSlicer). Bambu Studio ignores the "
        "colour change in our files: add it by hand at the height given below.",
        "",
        "## Plates",
    ]
    for plate in manifest["plates"]:
        parts = ", ".join(f"{n} x {name}" for name, n in plate["parts"].items())
        lines.append(
            f"- `{plate['file']}`: {parts}, filament {_colour(plate['colour'])}, "
            f"about {plate['filament_g']:g} g."
        )
        change = plate["colour_change"]
        if change:
            lines.append(
                f"  - **Change filament to {_colour(change['colour'])} at {change['height_mm']:g} mm** "
                f"(layer {change['layer']}, the last {_layers(plate, change, s)}): the top "
                "turns that colour and the engraved symbols show in the first colour."
            )
        else:
            lines.append("  - One colour, no filament change.")
    if manifest.get("board_split"):
        lines += [
            "",
            "The board is printed in two halves for this bed: push the dovetails "
            "together on a flat table and glue them; the joint has the same play as every "
            "other fit.",
        ]
    lines += [
        "",
        "## What the pieces are",
        "- `board`: two home bases (pockets hold the ships) and six rifts open at both ends.",
        "- `fragment-HH`: two holes. `fragment-HA`: a hole and an engraved asteroid.",
        "- `ship`: stacks three high; print the ship plates once per fleet colour.",
        "",
        "## Fits (measured on the generated parts)",
    ]
    for fit in manifest["fits"]:
        lines.append(f"- {fit['pair']}: {fit['play_mm']:.2f} mm play per side.")
    box = manifest["storage_box"]
    bx, by, bz = box["box_mm"]
    lines += [
        "",
        "## Storage box",
        f"- Box {bx:g} x {by:g} x {bz:g} mm (inside): "
        + (
            f"the whole set fits, stacked {box['height_mm']:g} mm high."
            if box["fits"]
            else f"does not fit: {box['reason']}. Try `--scale 0.8`."
        ),
    ]
    return "\n".join(lines) + "\n"


def _colour(hex_colour: str) -> str:
    name = colour_name(hex_colour)
    return f"{name} ({hex_colour})" if name != hex_colour else hex_colour


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
