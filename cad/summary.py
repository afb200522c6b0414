"""The few lines ``tablesmith build`` prints when a kit is written: parts with their filament,
each plate's print time and colour change (in the words a slicer user types), the storage box and what the
user still has to set in the slicer. Pure text from the kit's manifest (cad/kit.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cad.estimate import duration_words
from cad.settings import PrintSettings


def kit_summary(
    manifest: dict[str, Any], target: Path, elapsed: float, settings: PrintSettings
) -> list[str]:
    """The summary of a written kit, one string per line.

    Args:
        manifest: the kit's manifest (``manifest.json``'s content: parts, plates,
            storage_box).
        target: the folder the kit was written to.
        elapsed: seconds the build took.
        settings: the settings it was built with.
    """
    lines: list[str] = []
    lines.append(f"Asteroids kit written to {target} in {elapsed:.1f} s:")
    for part in manifest["parts"]:
        lines.append(
            f"  {part['file']:28s} x{part['count']:<3d} {part['filament_g_all_copies']:7.1f} g"
        )
    for plate in manifest["plates"]:
        change, symbols = plate["colour_change"], plate["symbol_part"]
        note = (
            f"colour change {change['words']}"
            if change
            else f"symbol layer on filament 2 from layer {symbols['layer']}"
            if symbols
            else "one colour"
        )
        lines.append(f"  {plate['file']:28s} {duration_words(plate['print_time_s']):>12s}  {note}")
    lines.append(
        f"  the whole set: {manifest['filament_total_g']:g} g, "
        f"{duration_words(manifest['print_time_total_s'])} in PrusaSlicer's default profile "
        "(your slicer's own figures are the ones to trust)"
    )
    box_report = manifest["storage_box"]
    box_size = "x".join(f"{v:g}" for v in box_report["box_mm"])
    if box_report["fits"]:
        lines.append(f"  the set fits the {box_size} mm storage box")
    else:
        lines.append(
            f"  the set does not fit the {box_size} mm storage box at this scale "
            "(--scale 0.8 is the box version)"
        )
    if settings.xy_compensation == 0:
        lines.append("  no X-Y compensation in the geometry: set -0.1 mm in your slicer")
    lines.append(f"  plates are {manifest['plates'][0]['slicer']} projects (--slicer)")
    lines.append(f"Read {target / 'PRINT-NOTES.md'} before printing.")
    return lines
