"""The command line as a user meets it: one-line errors with exit code 2, progress, summary."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

kit_extra = pytest.mark.skipif(
    __import__("importlib").util.find_spec("OCP") is None,
    reason="the print-kit extra is not installed (pip install '.[kit]')",
)


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tablesmith", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=600,
    )


def test_build_without_the_kit_extra_says_in_one_line_what_to_install(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['OCP'] = None; sys.modules['lib3mf'] = None; "
        "import tablesmith; sys.argv = ['tablesmith', 'build', '--out', sys.argv[1]]; "
        "tablesmith.main()"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "kit")], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "tablesmith: error: build needs the print-kit extra (cadquery-ocp, lib3mf missing): "
        "pip install 'tablesmith[kit]'  (from a checkout: pip install -r requirements/kit.txt)"
    ]
    assert list(tmp_path.iterdir()) == []


def test_build_of_a_card_game_says_so_even_without_the_kit_extra(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['OCP'] = None; sys.modules['lib3mf'] = None; "
        "import tablesmith; sys.argv = ['tablesmith', 'build', 'pocketmodel']; tablesmith.main()"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "tablesmith: error: GAME: pocketmodel has no printed pieces; print its cards with "
        "`tablesmith cards demo:pocketmodel` or your own deck file"
    ]


def test_help_lists_the_build_command_and_its_options() -> None:
    result = run("build", "--help")
    assert result.returncode == 0
    for option in (
        "--out",
        "--scale",
        "--xy-compensation",
        "--layer-height",
        "--printer",
        "--colour-a",
        "--colour-b",
        "--symbol-colour",
        "--box",
        "--bed-border",
        "--no-preview",
    ):
        assert option in result.stdout


@pytest.mark.parametrize(
    ("args", "option", "words"),
    [
        (["--scale", "0"], "--scale", ["0.5 and 1.5", "got 0.0"]),
        (["--scale", "3"], "--scale", ["0.5 and 1.5", "got 3.0"]),
        (
            ["--scale", "0.8", "--xy-compensation", "-0.45"],
            "--xy-compensation",
            ["-0.4..0 mm", "got -0.45 mm"],
        ),
        (["--printer", "prusa-xl9000"], "--printer", ["mini, mk4", "prusa-xl9000"]),
        (["--symbol-colour", "sparkly"], "--symbol-colour", ["#RRGGBB", "sparkly"]),
        (["--box", "big"], "--box", ["XxYxZ", "big"]),
        (["--bed-border", "40"], "--bed-border", ["0 and 30", "got 40.0"]),
        (["--scale", "abc"], "--scale", ["abc"]),
    ],
)
@kit_extra
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
    tmp_path: Path, args, option, words
) -> None:
    result = run("build", "--out", str(tmp_path / "kit"), *args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("tablesmith: error:") and option in lines[0]
    for word in words:
        assert word in lines[0]
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


@kit_extra
def test_unwritable_output_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "not-a-folder").write_text("x", encoding="utf-8")
    result = run(
        "build", "--out", str(tmp_path / "not-a-folder" / "kit"), "--no-preview", "--no-cache"
    )
    assert result.returncode == 2
    assert (
        result.stderr.strip()
        .splitlines()[-1]
        .startswith("tablesmith: error: --out: cannot write to")
    )
    assert "Traceback" not in result.stderr


@kit_extra
@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc")
@pytest.mark.parametrize(
    ("out", "line"),
    [
        ("/proc/x", "cannot write to /proc/x: no new folder can be made in /proc ("),
        ("/proc/new/x", "cannot write to /proc/new/x: "),
    ],
)
def test_an_output_folder_that_cannot_be_made_is_one_line_before_any_progress(
    tmp_path: Path, out: str, line: str
) -> None:
    """Issue 30: ``--out /proc/x`` printed the first progress line, then the error."""
    result = run("build", "asteroids", "--out", out, "--no-cache", cwd=tmp_path)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith("tablesmith: error: --out: " + line)
    assert result.stdout == "" and list(tmp_path.iterdir()) == []


@kit_extra
@pytest.mark.slow
def test_build_writes_the_kit_with_progress_and_a_summary(tmp_path: Path) -> None:
    result = run(
        "build",
        "asteroids",
        "--scale",
        "0.8",
        "--printer",
        "mini",
        "--no-preview",
        "--no-cache",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    out = tmp_path / "build" / "asteroids"
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["settings"]["scale"] == 0.8 and manifest["settings"]["bed"]["name"] == "mini"
    for part in manifest["parts"]:
        assert f"meshing and writing {part['file']}" in result.stderr
        assert part["file"] in result.stdout
    assert "the set fits the 200x200x70 mm storage box" in result.stdout
    from cad.estimate import duration_words

    for plate in manifest["plates"]:  # each plate's print time beside it
        line = next(x for x in result.stdout.splitlines() if plate["file"] in x)
        assert duration_words(plate["print_time_s"]) in line
    total = duration_words(manifest["print_time_total_s"])
    assert f"the whole set: {manifest['filament_total_g']:g} g, {total} in PrusaSlicer's" in (
        result.stdout
    )


def _build_until(out: Path, words: str) -> tuple[subprocess.Popen[str], list[str]]:
    """Start a cold ``tablesmith build --out out`` and read its progress lines until one holds
    ``words``; returns the running process and the lines read."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tablesmith", "build", "--out", str(out), "--no-cache"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    seen = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        seen.append(line)
        if words in line or not line:
            break
    assert words in seen[-1], seen
    return process, seen


@kit_extra
@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
@pytest.mark.parametrize(
    ("moment", "delay"),
    [
        ("loading the CAD kernel", 0.0),
        ("loading the CAD kernel", 0.4),  # inside OCP's initialisation, other threads running
        ("meshing and writing stl/fragment-HH.stl", 0.0),
        ("measuring the fits", 0.0),
    ],
    ids=["importing", "mid-import", "generating", "helping"],
)
def test_interrupt_leaves_the_old_kit_and_no_leftovers(
    tmp_path: Path, signum: int, moment: str, delay: float
) -> None:
    old = tmp_path / "kit"
    old.mkdir()
    (old / "manifest.json").write_text(json.dumps({"generator": "tablesmith", "kit": "asteroids"}))
    process, seen = _build_until(old, moment)
    time.sleep(delay)
    process.send_signal(signum)
    _, rest = process.communicate(timeout=120)
    stderr = "".join(seen) + rest
    assert process.returncode == 130, stderr
    assert stderr.strip().splitlines()[-1] == (
        "tablesmith: interrupted; nothing half-written was left in place"
    )
    assert "Traceback" not in stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit"]
    assert sorted(p.name for p in old.iterdir()) == ["manifest.json"]


@kit_extra
def test_a_file_the_kit_cannot_write_is_one_line_naming_it_without_the_staging_folder(
    tmp_path: Path,
) -> None:
    code = (
        "import sys, tablesmith\n"
        "from cad import occ\n"
        "def failing(shape, path, *rest):\n"
        "    raise OSError(f'could not write STL {path}')\n"  # what the kernel's writer says
        "occ.write_stl = failing\n"
        "sys.argv = ['tablesmith', 'build', '--no-cache', '--no-preview', '--out', sys.argv[1]]\n"
        "tablesmith.main()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "kit")], capture_output=True, text=True
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        f"tablesmith: error: --out: cannot write the kit to {tmp_path / 'kit'}: "
        "could not write STL stl/board.stl"
    )
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []  # no kit, no staging folder


def test_a_full_disk_is_named_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import shutil

    from cad.outdir import write_failure

    full = OSError(errno.ENOSPC, "No space left on device", str(tmp_path / ".k.partial-1-x/a"))
    assert write_failure(full, tmp_path / "k") == "no space left on the disk"
    copy = shutil.Error([("/c/a.stl", "/o/a.stl", "[Errno 28] No space left on device: '/o'")])
    assert write_failure(copy, tmp_path / "k") == "no space left on the disk"
    gone = OSError(errno.ENOENT, "No such file or directory")
    assert write_failure(gone, tmp_path / "k") == "No such file or directory"
    nearly_full = type("Usage", (), {"free": 1024})()
    monkeypatch.setattr(shutil, "disk_usage", lambda _path: nearly_full)
    denied = OSError(errno.EACCES, "Permission denied")  # on a nearly full disk: still denied
    assert write_failure(denied, tmp_path / "k") == "Permission denied"
    reasonless = OSError(f"could not write STL {tmp_path}/.k.partial-1-x/stl/ship.stl")
    assert write_failure(reasonless, tmp_path / "k") == "no space left on the disk"
    monkeypatch.undo()
    assert write_failure(reasonless, tmp_path / "k") == "could not write STL stl/ship.stl"


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (Linux /proc)."""
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text(encoding="utf-8").rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            child = int(stat.parent.name)
            children += [child, *_descendants(child)]
    return children


@kit_extra
@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_a_killed_helper_process_ends_the_build_in_one_line_instead_of_a_hang(
    tmp_path: Path,
) -> None:
    process, seen = _build_until(tmp_path / "kit", "checking stl/board.stl")  # helper's job
    started = _descendants(process.pid)  # the helper and multiprocessing's resource tracker
    helpers = [pid for pid in started if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    assert len(helpers) == 1, seen
    subprocess.run(["kill", "-9", str(helpers[0])], check=True)
    _, rest = process.communicate(timeout=120)  # before the fix: waited for ever
    assert process.returncode == 2, rest
    last = rest.strip().splitlines()[-1]
    assert last.startswith(f"tablesmith: error: the kit's helper process (pid {helpers[0]}) ended")
    assert "killed by signal 9" in last and "Traceback" not in rest
    assert list(tmp_path.iterdir()) == []
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in started):
        time.sleep(0.1)  # a replacement helper or the tracker would be reparented, not gone
    assert [pid for pid in started if Path(f"/proc/{pid}").exists()] == []
