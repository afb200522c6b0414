"""The whole kit as a maker gets it: files, meshes, plates, manifest, box, cache, atomicity."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest
import trimesh

from cad import kit as kit_module
from cad.estimate import duration_words
from cad.kit import KitError, build_kit
from cad.outdir import OutputError
from cad.settings import PrintSettings, parse_bed
from tests.cad.kitcheck import assert_whole_kit

pytestmark = pytest.mark.slow  # every test here builds kits (seconds each)

CONFIGS = [dict(scale=1.0, printer="a1"), dict(scale=0.8, printer="mini")]
IDS = ["1.0-a1", "0.8-mini"]


@pytest.fixture(params=CONFIGS, ids=IDS)
def kit(request, build_kit_once):
    return build_kit_once(**request.param)


def test_counts_follow_the_component_spec(kit) -> None:
    _, manifest = kit
    assert_whole_kit(manifest)
    counts = {p["name"]: p["count"] for p in manifest["parts"]}
    assert counts["fragment-HH"] == 14 and counts["fragment-HA"] == 14 and counts["ship"] == 18
    boards = [n for n in counts if n.startswith("board")]
    assert boards == (["board-half-a", "board-half-b"] if manifest["board_split"] else ["board"])
    on_plates: dict[str, int] = {}
    for plate in manifest["plates"]:
        for name, n in plate["parts"].items():
            on_plates[name] = on_plates.get(name, 0) + n
    assert on_plates == counts


def test_every_stl_is_watertight_one_body_and_matches_the_cad_volume(kit) -> None:
    out, manifest = kit
    assert_whole_kit(manifest)
    for part in manifest["parts"]:
        mesh = trimesh.load(out / part["file"], process=False)
        assert isinstance(mesh, trimesh.Trimesh)
        mesh.merge_vertices()
        assert mesh.is_watertight and mesh.is_winding_consistent, part["name"]
        assert mesh.body_count == 1, part["name"]
        assert mesh.volume == pytest.approx(part["volume_mm3"], rel=0.002), part["name"]
        size = mesh.bounds[1] - mesh.bounds[0]
        assert list(size) == pytest.approx(part["bounding_box_mm"], abs=0.01)


def _plate_meshes(path: Path) -> list[tuple[str, trimesh.Trimesh]]:
    """(object name, placed mesh) of every build item of a 3MF plate, read by trimesh."""
    scene = trimesh.load(path, process=False)
    placed = []
    for node in scene.graph.nodes_geometry:
        transform, name = scene.graph[node]
        placed.append((name, scene.geometry[name].copy().apply_transform(transform)))
    return placed


def test_every_plate_fits_its_bed_and_every_object_is_closed(kit) -> None:
    out, manifest = kit
    assert_whole_kit(manifest)
    bed = manifest["settings"]["bed"]
    cad_volume = {p["name"]: p["volume_mm3"] for p in manifest["parts"]}
    for plate in manifest["plates"]:
        named = _plate_meshes(out / plate["file"])
        assert sorted(name for name, _ in named) == sorted(
            name for name, n in plate["parts"].items() for _ in range(n)
        )
        meshes = [mesh for _, mesh in named]
        for name, mesh in named:
            mesh.merge_vertices()
            assert mesh.body_count == 1
            assert mesh.volume == pytest.approx(cad_volume[name], rel=0.002)
            low, high = mesh.bounds
            assert low[0] >= 0 and low[1] >= 0 and low[2] == pytest.approx(0, abs=1e-6)
            assert high[0] <= bed["x"] and high[1] <= bed["y"] and high[2] <= bed["z"]
            assert mesh.is_watertight
        # no two copies overlap on the plate
        boxes = [m.bounds for m in meshes]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert (a[1][:2] <= b[0][:2]).any() or (b[1][:2] <= a[0][:2]).any()


def test_colour_change_is_the_top_of_the_engraved_pieces(kit) -> None:
    out, manifest = kit
    assert_whole_kit(manifest)
    layer = manifest["settings"]["layer_height"]
    heights = {p["name"]: p["bounding_box_mm"][2] for p in manifest["parts"]}
    for plate in manifest["plates"]:
        change = plate["colour_change"]
        if plate["group"] == "board":
            assert change is None
            continue
        top = max(heights[name] for name in plate["parts"])
        assert change["height_mm"] == pytest.approx(top, abs=1e-3)
        assert change["layer"] == round(top / layer)
        with zipfile.ZipFile(out / plate["file"]) as archive:
            prusa = archive.read("Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml").decode()
            bambu = archive.read("Metadata/custom_gcode_per_layer.xml").decode()
        assert f'print_z="{change["height_mm"]:g}"' in prusa and 'gcode="M600"' in prusa
        assert 'mode value="SingleExtruder"' in prusa
        assert f'top_z="{change["height_mm"]:g}"' in bambu and '<plate_info id="1"' in bambu


def test_objects_are_named_and_coloured(kit) -> None:
    out, manifest = kit
    assert_whole_kit(manifest)
    for plate in manifest["plates"]:
        with zipfile.ZipFile(out / plate["file"]) as archive:
            model = archive.read("3D/3dmodel.model").decode()
        groups = dict(re.findall(r'<m:colorgroup id="(\d+)">\s*<m:color color="([^"]+)"', model))
        for name in plate["parts"]:
            # the colour as Bambu Studio and OrcaSlicer read it: the object's colour group
            pid = re.search(rf'<object id="\d+" name="{name}"[^>]* pid="(\d+)" pindex="0"', model)
            assert pid is not None, (plate["file"], name)
            assert groups[pid.group(1)] == f"{plate['colour']}FF"


def test_manifest_and_notes_say_what_to_do(kit) -> None:
    out, manifest = kit
    assert_whole_kit(manifest)
    for part in manifest["parts"]:
        assert part["filament_g_solid"] == pytest.approx(part["volume_mm3"] * 1.24e-3, abs=0.01)
        assert 0.3 * part["filament_g_solid"] < part["filament_g"] < part["filament_g_solid"]
        assert (out / part["preview"]).stat().st_size > 5_000
    for plate in manifest["plates"]:
        assert (out / plate["preview"]).stat().st_size > 5_000
    notes = (out / "PRINT-NOTES.md").read_text(encoding="utf-8")
    assert "No supports" in notes
    solid = sum(p["filament_g_solid"] * p["count"] for p in manifest["parts"])
    assert f"would take {solid / manifest['filament_total_g']:.2f} times the filament" in notes
    assert manifest["print_time_total_s"] == sum(p["print_time_s"] for p in manifest["plates"])
    assert duration_words(manifest["print_time_total_s"]) + " of printing" in notes
    for plate in manifest["plates"]:
        assert f"g and {duration_words(plate['print_time_s'])}." in notes
    assert notes.count('leave the slicer\'s "XY size compensation" at 0') == 1
    for plate in manifest["plates"]:
        if plate["colour_change"]:
            assert f"at {plate['colour_change']['height_mm']:g} mm" in notes


def test_at_80_percent_the_set_fits_the_filament_box(build_kit_once) -> None:
    _, small = build_kit_once(scale=0.8, printer="mini")
    box = small["storage_box"]
    assert box["fits"] and box["height_mm"] <= 70
    assert [layer["group"] for layer in box["layers"]][:2] == ["board", "board"]
    _, full = build_kit_once(scale=1.0, printer="a1")
    assert not full["storage_box"]["fits"]  # 243 mm board is longer than the 200 mm box


def test_a_smaller_box_is_reported_as_not_fitting(tmp_path: Path) -> None:
    from cad.manifest import box_report as _box_report
    from cad.plates import Footprint

    fps = [Footprint(part="ship", x=15, y=15, z=5.2, count=18, group="ships")]
    assert _box_report(fps, PrintSettings(box=(40, 40, 70)))["fits"]
    assert not _box_report(fps, PrintSettings(box=(40, 40, 20)))["fits"]


def test_rebuild_with_unchanged_settings_comes_from_the_cache(tmp_path: Path) -> None:
    settings = PrintSettings(scale=0.8, bed=parse_bed("a1"))
    lines: list[str] = []
    first = build_kit(settings, tmp_path / "a", cache_dir=tmp_path / "cache", previews=False)
    second = build_kit(
        settings,
        tmp_path / "b",
        cache_dir=tmp_path / "cache",
        previews=False,
        progress=lines.append,
    )
    assert first == second
    assert any("cached" in line for line in lines)
    for name in ("manifest.json", "plates/plate-2-fragments.3mf", "stl/ship.stl"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    third = build_kit(
        PrintSettings(scale=0.9), tmp_path / "c", cache_dir=tmp_path / "cache", previews=False
    )
    assert third["settings"]["scale"] == 0.9


def test_interrupted_build_leaves_the_old_kit_and_nothing_half_written(
    tmp_path: Path, monkeypatch
) -> None:
    out = tmp_path / "kit"
    out.mkdir()
    old = {"generator": "tablesmith", "kit": "asteroids", "old": True}
    (out / "manifest.json").write_text(json.dumps(old))

    def broken(*_args, **_kwargs):
        raise RuntimeError("disk full")

    from cad import fits

    # fails after the STLs are written and the helper process is at work on them
    monkeypatch.setattr(fits, "kit_fits", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        build_kit(PrintSettings(), out, cache_dir=None, previews=True)
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8")) == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit"]


def test_unwritable_output_and_too_small_bed_are_kit_errors(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(OutputError, match="is a file, not a folder") as out_info:
        build_kit(PrintSettings(), blocker / "kit", cache_dir=None)
    assert out_info.value.option == "--out"
    with pytest.raises(KitError) as info:
        build_kit(
            PrintSettings(bed=parse_bed("mini")), tmp_path / "kit", cache_dir=None, previews=False
        )
    assert info.value.option == "--printer"
    # half A: 243.4 / 2 + the 1.2 mm rib half + 8 mm tabs - 0.2 mm; 5 mm of bed border
    assert "--scale 0.89 or less fits" in str(info.value)
    assert "needs a bed of at least 200 x 141 mm" in str(info.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_zip_entries_carry_a_valid_date(kit) -> None:
    out, manifest = kit
    assert_whole_kit(manifest)
    with zipfile.ZipFile(out / manifest["plates"][0]["file"]) as archive:
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        assert archive.testzip() is None


def test_cache_key_changes_with_settings_and_source(monkeypatch) -> None:
    from cad.design import AsteroidsDesign

    a = kit_module.cache_key(PrintSettings(), AsteroidsDesign())
    assert a == kit_module.cache_key(PrintSettings(), AsteroidsDesign())
    assert a != kit_module.cache_key(PrintSettings(scale=0.8), AsteroidsDesign())
    assert a != kit_module.cache_key(PrintSettings(), AsteroidsDesign(rib_width=2.6))
    monkeypatch.setattr(kit_module, "source_hash", lambda: "changed")
    assert a != kit_module.cache_key(PrintSettings(), AsteroidsDesign())


def test_every_plate_carries_its_print_settings_and_the_manifest_the_walls(kit) -> None:
    out, manifest = kit
    assert_whole_kit(manifest)
    settings = manifest["settings"]
    bed = settings["bed"]
    for plate in manifest["plates"]:
        carried = plate["slicer_settings"]
        assert (
            carried["layer_height"]
            == carried["first_layer_height"]
            == f"{settings['layer_height']:g}"
        )
        assert (
            carried["bed_shape"] == f"0x0,{bed['x']:g}x0,{bed['x']:g}x{bed['y']:g},0x{bed['y']:g}"
        )
        assert carried["support_material"] == "0" and carried["complete_objects"] == "0"
        with zipfile.ZipFile(out / plate["file"]) as archive:
            config = archive.read("Metadata/Slic3r_PE.config").decode()
            assert "; layer_height = " + carried["layer_height"] + "\n" in config
            assert (
                json.loads(archive.read("Metadata/project_settings.config"))[
                    "initial_layer_print_height"
                ]
                == carried["layer_height"]
            )
    assert min(manifest["walls_mm"].values()) >= 0.8
    assert (manifest["joint_travel_mm"] is not None) == manifest["board_split"]
    if manifest["board_split"]:
        assert manifest["joint_travel_mm"]["pull"] < 0.3
    box = manifest["storage_box"]
    if box["fits"]:
        assert box["margins_mm"][2] == pytest.approx(box["box_mm"][2] - box["height_mm"], abs=0.1)
        assert all(m >= 0 for m in box["margins_mm"])


def test_the_same_settings_give_the_same_bytes_in_every_file(tmp_path: Path) -> None:
    """Issue 30: two uncached builds a second apart write identical files, STEP included (its
    header once carried the time of writing), with the multi-material parts' STEP files."""
    settings = PrintSettings(scale=0.8, bed=parse_bed("mini"), multi_material=True)
    for name in ("a", "b"):
        build_kit(settings, tmp_path / name, cache_dir=None, previews=True)
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*"))
    files = [f for f in files if (tmp_path / "a" / f).is_file()]
    assert files == sorted(
        p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file()
    )
    suffixes = {f.suffix for f in files}
    assert {".step", ".stl", ".3mf", ".png", ".json", ".md"} <= suffixes
    different = [
        f for f in files if (tmp_path / "a" / f).read_bytes() != (tmp_path / "b" / f).read_bytes()
    ]
    assert not different, f"differ between two builds: {different}"
    steps = {f.name for f in files if f.suffix == ".step"}
    for part in ("ship", "fragment-HA", "fragment-HH"):
        assert {f"{part}-body.step", f"{part}-symbols.step"} <= steps
    header = (tmp_path / "a" / "step" / "ship-body.step").read_text(errors="replace")[:400]
    assert "FILE_NAME('ship-body.step','2000-01-01T00:00:00'" in header


def test_the_split_boards_notes_name_its_joint_as_it_is_made(build_kit_once) -> None:
    """Issue 30: the MK4 kit's notes called the board joint a dovetail; the halves join with
    round-headed jigsaw tabs in sockets (``cad.parts.board_halves``)."""
    out, manifest = build_kit_once(scale=1.0, printer="mk4")
    assert_whole_kit(manifest)
    assert manifest["board_split"]
    notes = (out / "PRINT-NOTES.md").read_text(encoding="utf-8")
    assert "dovetail" not in notes.lower() and "dovetail" not in json.dumps(manifest)
    assert "- board halves at the jigsaw tab joint: 0.20 mm play per side." in notes
    assert "three round-headed tabs down into its sockets" in notes
