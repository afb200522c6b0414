"""The real-world acceptance check: PrusaSlicer's CLI takes every file we emit.

Skips where prusa-slicer is missing; CI installs Debian's package so it runs there.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

SLICER = shutil.which("prusa-slicer")
pytestmark = pytest.mark.skipif(SLICER is None, reason="prusa-slicer is not installed")


def _run(*args: str) -> str:
    result = subprocess.run([SLICER, *args], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


@pytest.mark.parametrize(
    "config",
    [dict(scale=1.0, printer="a1"), dict(scale=0.8, printer="mini")],
    ids=["1.0-a1", "0.8-mini"],
)
def test_every_stl_and_3mf_is_manifold_for_prusaslicer(build_kit_once, config) -> None:
    out, manifest = build_kit_once(**config)
    files = [p["file"] for p in manifest["parts"]] + [p["file"] for p in manifest["plates"]]
    for name in files:
        info = _run("--info", str(out / name))
        verdicts = re.findall(r"manifold = (\w+)", info)
        assert verdicts and set(verdicts) == {"yes"}, (name, info)
    for part in manifest["parts"]:
        info = _run("--info", str(out / part["file"]))
        volume = float(re.search(r"volume = ([\d.]+)", info).group(1))
        assert volume == pytest.approx(part["volume_mm3"], rel=0.002)


def _slice(path: Path, layer: float, tmp_path: Path) -> str:
    gcode = tmp_path / (path.stem + ".gcode")
    _run(
        "--export-gcode",
        "--layer-height",
        str(layer),
        "--first-layer-height",
        str(layer),
        "--dont-arrange",
        "-o",
        str(gcode),
        str(path),
    )
    return gcode.read_text()


@pytest.mark.parametrize(
    "config",
    [dict(scale=1.0, printer="a1"), dict(scale=0.8, printer="mini")],
    ids=["1.0-a1", "0.8-mini"],
)
def test_colour_change_m600_comes_right_before_the_last_layer(
    build_kit_once, config, tmp_path
) -> None:
    out, manifest = build_kit_once(**config)
    layer = manifest["settings"]["layer_height"]
    for group in ("fragments", "ships-A"):
        plate = next(p for p in manifest["plates"] if p["group"] == group)
        gcode = _slice(out / plate["file"], layer, tmp_path)
        body = gcode.split("; prusaslicer_config")[0]
        assert body.count("\nM600") == 1, plate["file"]
        before = body[: body.index("\nM600")]
        z_of_change = float(re.findall(r"^;Z:([\d.]+)", before, flags=re.M)[-1])
        assert z_of_change == pytest.approx(plate["colour_change"]["height_mm"], abs=1e-6)
        top = float(re.findall(r"^;Z:([\d.]+)", body, flags=re.M)[-1])
        used_cm3 = float(re.search(r"filament used \[cm3\] = ([\d.]+)", gcode).group(1))
        # our estimate (0.8 mm shells, 15 % infill) agrees with the slicer's defaults
        assert plate["filament_g"] / 1.24 == pytest.approx(used_cm3, rel=0.2)
        assert top == pytest.approx(plate["height_mm"], abs=1e-6)  # ... which is the last layer
