"""The kit's STEP files and CadQuery parts: exact solids a maker can remix, the same as the
meshes the kit prints (checked against the STLs with CadQuery, which reads STEP itself)."""

from __future__ import annotations

import re
import subprocess
import sys

import cadquery
import pytest

from cad import mesh
from cad.cq import PART_NAMES, part
from tests.cad.kitcheck import assert_whole_kit

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    "config", [dict(scale=1.0, printer="a1"), dict(scale=0.8, printer="mini")], ids=["1.0", "0.8"]
)
def test_every_part_has_a_named_step_in_mm_matching_its_stl(build_kit_once, config) -> None:
    out, manifest = build_kit_once(**config)
    assert_whole_kit(manifest)
    for entry in manifest["parts"]:
        step = out / entry["step"]
        text = step.read_text(errors="replace")
        assert f"PRODUCT('{entry['name']}','{entry['name']}'" in text
        assert re.search(r"LENGTH_UNIT\(\) NAMED_UNIT\(\*\) SI_UNIT\(\.MILLI\.,\.METRE\.\)", text)
        solid = cadquery.importers.importStep(str(step)).val()
        assert solid.isValid() and len(solid.Solids()) == 1
        stl = mesh.read_stl(out / entry["file"])
        # the STL is the STEP tessellated within 0.01 mm: volumes agree to 0.3 %
        assert solid.Volume() == pytest.approx(entry["volume_mm3"], abs=0.051)
        assert solid.Volume() == pytest.approx(stl.volume, rel=3e-3)
        box = solid.BoundingBox()
        low, high = stl.bounds
        assert [box.xmin, box.ymin, box.zmin] == pytest.approx(list(low), abs=0.02)
        assert [box.xmax, box.ymax, box.zmax] == pytest.approx(list(high), abs=0.02)


def test_cadquery_parts_are_the_kits_solids_from_the_same_parameters(build_kit_once) -> None:
    out, manifest = build_kit_once(scale=0.8, printer="mini")
    assert_whole_kit(manifest)
    volumes = {entry["name"]: entry["volume_mm3"] for entry in manifest["parts"]}
    for name in ("board-half-a", "fragment-HA", "ship"):
        workplane = part(name, scale=0.8)
        assert isinstance(workplane, cadquery.Workplane)
        kit_step = cadquery.importers.importStep(str(out / "step" / f"{name}.step")).val()
        assert workplane.val().Volume() == pytest.approx(kit_step.Volume(), rel=1e-9)
        assert workplane.val().Volume() == pytest.approx(volumes[name], abs=0.051)
    # a remix starts from the solid: cut a notch into the ship's top
    ship = part("ship", scale=0.8)
    top = ship.val().BoundingBox().zmax
    notched = ship.cut(cadquery.Workplane("XY").box(2, 2, 2).translate((0, 0, top)))
    assert notched.val().Volume() < ship.val().Volume()
    with pytest.raises(ValueError, match="allowed: board, board-half-a"):
        part("dragon")
    assert set(PART_NAMES) >= set(volumes)


def test_build_does_not_import_cadquery(tmp_path) -> None:
    args = ["build", "-q", "--no-cache", "--no-preview", "--out", str(tmp_path / "kit")]
    code = (
        "import sys, tablesmith;"
        f"tablesmith.cli.main({args!r}, standalone_mode=False);"
        "print('cadquery' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().splitlines()[-1] == "False"
    assert (tmp_path / "kit" / "step" / "ship.step").is_file()


def test_part_without_cadquery_names_the_extra_to_install(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "cadquery", None)  # as if it were not installed
    with pytest.raises(ImportError, match=r"pip install 'tablesmith\[remix\]'"):
        part("ship")


def test_multi_material_parts_have_steps_that_add_up_to_the_piece(tmp_path) -> None:
    """Issue 30: --multi-material writes the body and the symbol layer as STEP too; together
    they are the whole piece, split at the colour change."""
    from cad.kit import build_kit
    from cad.settings import PrintSettings, parse_bed

    out = tmp_path / "kit"
    settings = PrintSettings(scale=0.8, bed=parse_bed("mini"), multi_material=True)
    manifest = build_kit(settings, out, cache_dir=None, previews=False)
    checked = 0
    for entry in manifest["parts"]:
        if not entry["multi_material_step"]:
            continue
        whole = cadquery.importers.importStep(str(out / entry["step"])).val()
        body, symbols = (
            cadquery.importers.importStep(str(out / name)).val()
            for name in entry["multi_material_step"]
        )
        assert body.isValid() and symbols.isValid()
        assert (
            f"PRODUCT('{entry['name']}-body'" in (out / entry["multi_material_step"][0]).read_text()
        )
        assert body.Volume() + symbols.Volume() == pytest.approx(whole.Volume(), rel=1e-6)
        assert symbols.BoundingBox().zmin == pytest.approx(body.BoundingBox().zmax, abs=1e-6)
        assert 0 < symbols.Volume() < 0.2 * whole.Volume()
        checked += 1
    assert checked == 3  # both fragments and the ship
