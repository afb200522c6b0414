"""PRINT-NOTES.md from a manifest (pure): what a maker is told to do."""

from __future__ import annotations

from cad.notes import print_notes


def _manifest(compensation: float, box_fits: bool = True) -> dict:
    return {
        "settings": {
            "scale": 0.8,
            "layer_height": 0.2,
            "xy_compensation": compensation,
            "bed": {"name": "mini", "x": 180, "y": 180},
        },
        "filament_total_g": 133.6,
        "plates": [
            {
                "file": "plates/plate-3-fragments.3mf",
                "parts": {"fragment-HH": 14},
                "colour": "#8C8C8C",
                "filament_g": 52.4,
                "height_mm": 3.2,
                "colour_change": {"height_mm": 3.2, "layer": 16, "colour": "#F2F2F2"},
            }
        ],
        "board_split": True,
        "fits": [{"pair": "ship in a base pocket", "play_mm": 0.2}],
        "storage_box": {
            "box_mm": [200, 200, 70],
            "fits": box_fits,
            "height_mm": 21.6,
            "reason": None if box_fits else "board too long",
        },
    }


def test_notes_give_the_colour_change_in_words_with_height_and_layer() -> None:
    notes = print_notes(_manifest(-0.1))
    assert "**Change filament to white (#F2F2F2) at 3.2 mm** (layer 16, the last layer)" in notes
    assert "glue them" in notes
    assert "fits the storage box" in notes and "stacked 21.6 mm high" in notes


def test_compensation_is_explained_once_and_zero_asks_for_the_slicer() -> None:
    baked = print_notes(_manifest(-0.1))
    assert baked.count("already in the geometry") == 1 and "0.20 mm of play" in baked
    zero = print_notes(_manifest(0.0))
    assert "already in the geometry" not in zero
    assert 'Set the slicer\'s "XY size compensation" to -0.1 mm' in zero


def test_a_set_that_misses_the_box_says_why_and_what_to_try() -> None:
    notes = print_notes(_manifest(-0.1, box_fits=False))
    assert "does not fit: board too long. Try `--scale 0.8`." in notes
    assert "(scaled)" in notes
