"""Output files (printables.outputs): checks before work, all-or-nothing writes, modes."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from printables.outputs import OutputError, atomic_outputs, check_folder, check_pdf_target, shown


def test_check_pdf_target_refuses_decks_other_suffixes_and_foreign_files(tmp_path: Path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text("game: x\n", encoding="utf-8")
    with pytest.raises(OutputError, match="is the deck file itself"):
        check_pdf_target(tmp_path / "sub" / ".." / "deck.yaml", protect=[deck])
    with pytest.raises(OutputError, match=r"must be a file name ending in \.pdf, got '.*out\.txt'"):
        check_pdf_target(tmp_path / "out.txt")
    (tmp_path / "photo.pdf").write_bytes(b"\x89PNG\r\n")
    with pytest.raises(OutputError, match="exists and is not a PDF"):
        check_pdf_target(tmp_path / "photo.pdf")
    (tmp_path / "empty.pdf").write_bytes(b"")
    (tmp_path / "real.PDF").write_bytes(b"%PDF-1.7\n")
    check_pdf_target(tmp_path / "empty.pdf")  # nothing to lose
    check_pdf_target(tmp_path / "real.PDF")
    check_pdf_target(tmp_path / "new" / "deeper" / "x.pdf")
    assert not (tmp_path / "new").exists()  # the probe folder is gone again


def test_check_folder_below_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x", encoding="utf-8")
    with pytest.raises(OutputError) as info:
        check_folder(tmp_path / "f" / "png")
    assert str(info.value) == (
        f"cannot use folder {shown(tmp_path / 'f' / 'png')}: {shown(tmp_path / 'f')} is a file"
    )


def test_shown_cuts_long_paths_at_the_start() -> None:
    path = Path("/very/" + "long/" * 20 + "name.pdf")
    assert shown(path) == "…" + str(path)[-59:] and len(shown(path)) == 60


def test_a_failed_write_removes_its_temporary_files_and_new_folders(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "out.pdf"
    with pytest.raises(RuntimeError), atomic_outputs([target]) as temps:
        temps[0].write_bytes(b"%PDF-half")
        assert temps[0].parent == target.parent
        raise RuntimeError("render failed")
    assert not (tmp_path / "a").exists()


def test_a_folder_that_existed_before_is_kept(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "keep.txt").write_text("k", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_outputs([tmp_path / "a" / "b" / "x.pdf"]):
        raise RuntimeError
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["keep.txt"]


def test_modes_follow_the_umask_for_new_files_and_stay_for_replaced_ones(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        with atomic_outputs([tmp_path / "new.pdf"]) as temps:
            temps[0].write_bytes(b"%PDF-1")
        assert stat.S_IMODE((tmp_path / "new.pdf").stat().st_mode) == 0o640
        (tmp_path / "new.pdf").chmod(0o664)
        with atomic_outputs([tmp_path / "new.pdf"]) as temps:
            temps[0].write_bytes(b"%PDF-2")
        assert stat.S_IMODE((tmp_path / "new.pdf").stat().st_mode) == 0o664
        assert (tmp_path / "new.pdf").read_bytes() == b"%PDF-2"
    finally:
        os.umask(old)


def test_os_errors_name_the_target_not_the_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "out.pdf"
    with pytest.raises(OutputError) as info, atomic_outputs([target]) as temps:
        raise FileNotFoundError(2, "No such file or directory", str(temps[0]))
    assert str(info.value) == f"cannot write {shown(target)}: No such file or directory"
    assert list(tmp_path.iterdir()) == []


def test_previews_are_all_or_nothing(tmp_path: Path) -> None:
    from printables.layout import SettingError
    from printables.preview import check_preview_options, write_previews

    with pytest.raises(SettingError, match="dpi must be 30..600, got 0"):
        check_preview_options(None, 0)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 not really")
    with pytest.raises(Exception):  # noqa: B017 - pdfium's own error type
        write_previews(broken, tmp_path / "png" / "sub", dpi=30)
    assert not (tmp_path / "png").exists()


def test_a_killed_runs_temporary_files_are_removed_by_the_next_run(tmp_path: Path) -> None:
    import subprocess
    import sys

    from printables.outputs import remove_leftovers

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    target = tmp_path / "deck.pdf"
    stale = tmp_path / f".deck.pdf.{gone.pid}-0a1b2c3d.part"
    stale.write_bytes(b"")
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        busy = tmp_path / f".deck.pdf.{alive.pid}-0a1b2c3d.part"
        busy.write_bytes(b"")
        other = tmp_path / f".other.pdf.{gone.pid}-0a1b2c3d.part"
        other.write_bytes(b"")
        with atomic_outputs([target]) as temps:
            temps[0].write_bytes(b"%PDF-1.4\n")
        assert not stale.exists()
        assert busy.exists(), "a running process's temporary file is kept"
        assert other.exists(), "only the temporary files of the target are touched"
        assert remove_leftovers(tmp_path / "other.pdf") == [other]
    finally:
        alive.kill()
        alive.wait()
    assert target.read_bytes() == b"%PDF-1.4\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [busy.name, "deck.pdf"]


@pytest.mark.parametrize(
    ("name", "content", "allowed"),
    [
        ("x-cut.svg", b'<?xml version="1.0"?>\n<svg/>', True),
        ("x-cut.svg", b"my notes", False),
        ("x-cut.dxf", b"  0\nSECTION\n", True),
        ("x-cut.dxf", b"PK\x03\x04", False),
        ("x-p01.png", b"\x89PNG\r\n\x1a\nrest", True),
        ("x-p01.png", b"GIF89a", False),
        ("x-p01.png", b"", True),
    ],
)
def test_check_target_replaces_only_files_of_its_kind(
    tmp_path: Path, name: str, content: bytes, allowed: bool
) -> None:
    from printables.outputs import check_target

    path = tmp_path / name
    path.write_bytes(content)
    if allowed:
        check_target(path)
        assert path.read_bytes() == content  # checked, left alone until it is written
    else:
        with pytest.raises(OutputError, match="exists and is not .*; not overwriting it"):
            check_target(path)
