"""The output folder: replaced as a whole, never a user's folder, no leftovers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cad.outdir import OutputError, check_target, foreign_files, replacing
from tests.cad.kitcheck import assert_whole_kit


def _kit(folder: Path) -> None:
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text(
        json.dumps({"generator": "tablesmith", "kit": "asteroids"})
    )


def test_new_empty_and_previous_kit_folders_are_accepted(tmp_path: Path) -> None:
    assert check_target(tmp_path / "new", "asteroids") == (tmp_path / "new").resolve()
    (tmp_path / "empty").mkdir()
    check_target(tmp_path / "empty", "asteroids")
    _kit(tmp_path / "old")
    check_target(tmp_path / "old", "asteroids")


def test_foreign_folders_files_and_the_current_folder_are_refused(
    tmp_path: Path, monkeypatch
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "thesis.txt").write_text("precious", encoding="utf-8")
    (tmp_path / "file").write_text("x", encoding="utf-8")
    other = tmp_path / "other-kit"
    other.mkdir()
    (other / "manifest.json").write_text(json.dumps({"generator": "tablesmith", "kit": "chess"}))
    monkeypatch.chdir(tmp_path / "docs")
    for path, words in (
        (tmp_path / "docs", "current folder"),
        (Path("."), "current folder"),
        (Path(".."), "current folder"),
        (tmp_path / "file", "not a folder"),
        (other, "holds no asteroids kit"),
    ):
        with pytest.raises(OutputError, match=words) as info:
            check_target(path, "asteroids")
        assert info.value.option == "--out"
    assert (tmp_path / "docs" / "thesis.txt").read_text(encoding="utf-8") == "precious"


def _listed_kit(folder: Path) -> None:
    """A previous kit whose manifest lists one part and one plate, with their files."""
    folder.mkdir(parents=True)
    manifest = {
        "generator": "tablesmith",
        "kit": "asteroids",
        "parts": [{"file": "stl/ship.stl", "step": "step/ship.step", "preview": None}],
        "plates": [{"file": "plates/plate-1.3mf", "preview": "preview/plate-1.png"}],
    }
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    for name in ("PRINT-NOTES.md", "stl/ship.stl", "step/ship.step", "plates/plate-1.3mf"):
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_text("kit", encoding="utf-8")
    (folder / "preview").mkdir()
    (folder / "preview" / "plate-1.png").write_text("kit", encoding="utf-8")


def test_a_kit_holding_files_it_did_not_write_is_refused_and_they_survive(
    tmp_path: Path,
) -> None:
    kit = tmp_path / "kit"
    _listed_kit(kit)
    check_target(kit, "asteroids")  # only its own files: replaced
    (kit / "plates" / "plate-1.gcode").write_text("G1 X0", encoding="utf-8")  # sliced beside it
    (kit / "notes").mkdir()
    (kit / "notes" / "n.txt").write_text("mine", encoding="utf-8")
    (kit / "stl" / "remix.stl").write_text("mine", encoding="utf-8")
    assert foreign_files(kit, json.loads((kit / "manifest.json").read_text())) == [
        "notes/",
        "plates/plate-1.gcode",
        "stl/remix.stl",
    ]
    with pytest.raises(OutputError, match=r"files the kit did not write \(notes/, plates/plate-1"):
        check_target(kit, "asteroids")
    assert (kit / "plates" / "plate-1.gcode").read_text(encoding="utf-8") == "G1 X0"


@pytest.mark.slow
@pytest.mark.parametrize(
    "config",
    [
        dict(scale=1.0, printer="a1"),
        dict(scale=0.8, printer="mini"),
        dict(scale=1.0, printer="a1", multi_material=True),
    ],
    ids=["1.0", "0.8-split", "multi-material"],
)
def test_a_built_kit_holds_only_what_its_manifest_names(build_kit_once, config) -> None:
    out, manifest = build_kit_once(**config)
    assert_whole_kit(manifest)
    assert foreign_files(out, manifest) == []
    assert len(list(out.rglob("*.stl"))) >= 4 and len(list(out.rglob("*.3mf"))) >= 4


def test_success_swaps_in_the_new_kit_with_normal_permissions(tmp_path: Path) -> None:
    target = tmp_path / "kit"
    _kit(target)
    (target / "old.txt").write_text("old", encoding="utf-8")
    with replacing(target) as staging:
        (staging / "new.txt").write_text("new", encoding="utf-8")
    assert sorted(p.name for p in target.iterdir()) == ["new.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit"]
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o777 & ~mask


def test_failure_keeps_the_old_kit_and_removes_the_staging_folder(tmp_path: Path) -> None:
    target = tmp_path / "kit"
    _kit(target)
    with pytest.raises(RuntimeError), replacing(target) as staging:
        (staging / "half.stl").write_text("half", encoding="utf-8")
        raise RuntimeError("interrupted")
    assert sorted(p.name for p in target.iterdir()) == ["manifest.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit"]


def test_leftovers_of_a_killed_run_are_swept_but_live_ones_kept(tmp_path: Path) -> None:
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    dead_pid = int(dead.stdout)
    stale = tmp_path / f".kit.partial-{dead_pid}-abc"
    stale.mkdir()
    live = tmp_path / f".kit.partial-{os.getppid()}-xyz"
    live.mkdir()
    with replacing(tmp_path / "kit") as staging:
        (staging / "a").write_text("a", encoding="utf-8")
    assert not stale.exists()
    assert live.exists()
