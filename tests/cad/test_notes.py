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
            "bed_border": 5.0,
            "slicer": "prusa",
            "multi_material": False,
        },
        "filament_total_g": 133.6,
        "print_time_total_s": 49_320,
        "estimate": {"perimeters": 3, "top_bottom_layers": [3, 3], "infill_percent": 20},
        "parts": [
            {"name": "fragment-HH", "count": 14, "filament_g_solid": 2.4},
            {"name": "board-half-a", "count": 1, "filament_g_solid": 170.4},
        ],
        "plates": [
            {
                "file": "plates/plate-3-fragments.3mf",
                "parts": {"fragment-HH": 14},
                "colour": "#8C8C8C",
                "filament_g": 52.4,
                "print_time_s": 18_840,
                "height_mm": 3.2,
                "colour_change": {
                    "height_mm": 3.2,
                    "layer": 16,
                    "colour": "#F2F2F2",
                    "words": "at 3.2 mm (layer 16)",
                },
                "symbol_part": None,
                "slicer_settings": {"skirts": "1", "skirt_distance": "2"},
            }
        ],
        "board_split": True,
        "joint_travel_mm": {"along_minus": 0.2, "along_plus": 0.2, "pull": 0.236, "push": 0.2},
        "walls_mm": {"rib between rifts": 1.72, "board wall beside a base pocket": 1.1},
        "fits": [{"pair": "ship in a base pocket", "play_mm": 0.2}],
        "storage_box": {
            "box_mm": [200, 200, 70],
            "fits": box_fits,
            "height_mm": 21.6,
            "margins_mm": [4.2, 30.5, 48.4],
            "layers": [{"group": "board", "height_mm": 4}] * 3,
            "reason": None if box_fits else "board too long",
        },
    }


def test_notes_give_the_colour_change_in_words_with_height_and_layer() -> None:
    notes = print_notes(_manifest(-0.1))
    assert "**Change filament to white (#F2F2F2) at 3.2 mm (layer 16)**, the last layer" in notes
    assert "the slider shows the top of each layer" in notes
    assert "press half A's three round-headed tabs" in notes
    assert "0.20 / 0.20 mm along it, 0.24 mm pulling the halves apart" in notes
    assert "fits the storage box" in notes
    assert "3 layers stacked 21.6 mm high, with 48.4 mm to spare above and 4.2 x 30.5 mm" in notes
    assert "Thinnest wall: 1.10 mm (board wall beside a base pocket)" in notes


def test_notes_say_what_the_plates_carry_and_what_goes_wrong_otherwise() -> None:
    notes = print_notes(_manifest(-0.1))
    assert "The plates are projects" in notes
    assert "one-line skirt 2 mm around the parts" in notes and "5 mm free" in notes
    assert "a brim up to 4 mm wide" in notes
    assert "top out 0.1 mm low" in notes  # measured in test_slicer.py
    tight = _manifest(-0.1)
    tight["settings"]["bed_border"] = 2.0
    tight["plates"][0]["slicer_settings"] = {"skirts": "0", "skirt_distance": "0"}
    assert "without a skirt" in print_notes(tight)


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


def test_notes_say_which_slicer_the_plates_are_for_and_explain_both_ways() -> None:
    prusa = print_notes(_manifest(-0.1))
    assert "They are PrusaSlicer projects; OrcaSlicer reads them whole too." in prusa
    assert "rebuild with `--slicer bambu`" in prusa
    assert "**One nozzle, one spool at a time**" in prusa and "build --multi-material`" in prusa
    multi = _manifest(-0.1)
    multi["settings"].update(slicer="bambu", multi_material=True)
    multi["plates"][0]["colour_change"] = None
    multi["plates"][0]["symbol_part"] = {
        "filament": 2,
        "colour": "#F2F2F2",
        "height_mm": 3.2,
        "layer": 16,
    }
    notes = print_notes(multi)
    assert "They are Bambu Studio projects; OrcaSlicer reads them whole too." in notes
    assert "PrusaSlicer would drop the symbol parts to the bed" in notes
    assert "on **filament 2, white (#F2F2F2)**" in notes and "Change filament to" not in notes


def test_a_split_board_says_which_bed_border_keeps_it_whole() -> None:
    manifest = _manifest(-0.1)
    assert (
        "--bed-border"
        not in print_notes(manifest).split("## What the pieces are")[0].split("two halves")[1]
    )
    manifest["whole_board_bed_border_mm"] = 3.0
    notes = print_notes(manifest)
    assert "With `--bed-border 3` the whole board fits this bed" in notes
    assert "the plates ask for no skirt" in notes


def test_notes_give_grams_and_hours_per_plate_and_for_the_set_and_whom_to_trust() -> None:
    notes = print_notes(_manifest(-0.1))
    assert "about 52.4 g and 5 h 14 min." in notes  # the plate
    assert "about 133.6 g of PLA and 13 h 42 min of printing" in notes  # the set
    # solid: 14 x 2.4 + 170.4 = 204 g against 133.6 g: the ratio the manifest gives
    assert "printed solid the pieces would take 1.53 times the filament" in notes
    assert "twice" not in notes.split("## Slicer settings")[0]
    assert "3 perimeters, 3 top and 3 bottom layers, 20 % infill" in notes
    assert "the time and grams your slicer shows for your printer" in notes


def _multi_material(slicer: str) -> dict:
    manifest = _manifest(-0.1)
    manifest["settings"].update(slicer=slicer, multi_material=True)
    plate = manifest["plates"][0]
    plate["colour_change"] = None
    plate["symbol_part"] = {"filament": 2, "colour": "#F2F2F2", "height_mm": 3.2, "layer": 16}
    plate["wipe_tower"] = {
        "x_mm": 40.0,
        "y_mm": 157.5,
        "width_mm": 100.0,
        "depth_mm": 13.1,
        "purge_mm3": 140.0 if slicer == "prusa" else 386.0,
        "purge_prusaslicer_mm3": 140.0,
    }
    return manifest


def test_multi_material_notes_explain_the_purge_in_each_slicers_words() -> None:
    prusa = print_notes(_multi_material("prusa"))
    assert "Wipe tower 100 x about 13.1 mm at X 40, Y 157.5" in prusa
    assert "it takes 140 mm³ of the symbol filament at the change (Purging volumes)." in prusa
    assert "**Wipe tower** (Print Settings > Multiple Extruders)" in prusa
    assert "**Purging volumes**" in prusa and "Prime tower" not in prusa
    bambu = print_notes(_multi_material("bambu"))
    assert "takes 386 mm³ of the symbol filament at the change (Flushing volumes; " in bambu
    assert "PrusaSlicer's is 140)" in bambu
    assert "**Prime tower** (the process settings, Others)" in bambu
    assert "**Flushing volumes**" in bambu and "Purging volumes" not in bambu
    for notes in (prusa, bambu):
        assert "**Tool changers** (Prusa XL, Bambu H2D's two nozzles" in notes
        assert "need no purge" in notes
    assert " mm at X " not in print_notes(_manifest(-0.1))  # one colour: no tower to place


def test_an_excluded_corner_is_named_where_the_bed_has_one() -> None:
    manifest = _manifest(-0.1)
    assert "excludes" not in print_notes(manifest)
    manifest["settings"]["bed"] = {
        "name": "x1",
        "x": 256,
        "y": 256,
        "keep_out": [[0.0, 0.0, 18.0, 28.0]],
    }
    manifest["settings"]["plate_spacing"] = 8.0
    assert (
        "Every part stays 8 mm off the 18 x 28 mm area at the bed's front-left corner, which "
        "the printer excludes: keep the arrangement."
    ) in print_notes(manifest)
    manifest["settings"]["bed"]["keep_out"] = [[30.0, 0.0, 50.0, 10.0]]
    assert "off the 20 x 10 mm area 30 mm right and 0 mm back of the bed's" in print_notes(manifest)
