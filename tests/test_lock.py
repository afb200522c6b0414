"""The lock (``requirements/*.txt``, made by ``requirements/update``) follows pyproject.toml.

Issue 26: a fresh machine installs exactly the versions of the last green CI. These checks
read the files only (no network): every install set of the README has a lock file, every
package pyproject asks for in that set is pinned there within pyproject's range and with its
hashes, the files agree with each other on every version, and CI installs from the lock.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCKS = ROOT / "requirements"

# lock file -> the extras of pyproject.toml it installs beside the base dependencies
SETS: dict[str, tuple[str, ...]] = {
    "base": (),
    "cutter": ("cutter",),
    "kit": ("kit",),
    "store": ("store",),
    "remix": ("remix",),
    "docs": ("docs",),
    "test": ("test",),
    "all": ("kit", "cutter", "store", "remix", "docs", "test", "bench"),
}

# Linux with CPython 3.11, the machine CI runs on (markers are judged for it)
LINUX = {"sys_platform": "linux", "platform_system": "Linux", "python_version": "3.11"}

PIN = re.compile(r"^([A-Za-z0-9_.\-\[\]]+)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def _pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _requirements(extras: tuple[str, ...]) -> list[Requirement]:
    """pyproject's requirements of the base and ``extras``, self-references expanded."""
    project = _pyproject()["project"]
    assert isinstance(project, dict)
    optional: dict[str, list[str]] = project["optional-dependencies"]
    found = [Requirement(text) for text in project["dependencies"]]
    todo, seen = list(extras), set()
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for text in optional[extra]:
            req = Requirement(text)
            if canonicalize_name(req.name) == "tablesmith":
                todo.extend(req.extras)
            else:
                found.append(req)
    return found


def _pins(name: str) -> dict[str, list[tuple[str, str | None]]]:
    """Lock file ``name``: package -> [(version, marker or None)], and each pin has hashes."""
    lines = (LOCKS / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    pins: dict[str, list[tuple[str, str | None]]] = {}
    for number, line in enumerate(lines):
        match = PIN.match(line)
        if not match:
            continue
        package, version, marker = match.groups()
        following = lines[number + 1] if number + 1 < len(lines) else ""
        assert following.strip().startswith("--hash=sha256:"), (
            f"requirements/{name}.txt line {number + 1}: {package} is pinned without hashes"
        )
        pins.setdefault(canonicalize_name(package), []).append((version, marker))
    return pins


def test_every_install_set_has_a_lock_file() -> None:
    present = {path.stem for path in LOCKS.glob("*.txt")}
    assert present == set(SETS), "requirements/update writes one file per set of SETS"
    project = _pyproject()["project"]
    assert isinstance(project, dict)
    extras = set(project["optional-dependencies"])
    covered = {extra for names in SETS.values() for extra in names}
    assert extras == covered, f"extras without a lock file: {sorted(extras - covered)}"


@pytest.mark.parametrize("name", sorted(SETS))
def test_lock_pins_every_requirement_within_pyprojects_range(name: str) -> None:
    pins = _pins(name)
    assert len(pins) >= 20, f"requirements/{name}.txt pins only {len(pins)} packages"
    checked = 0
    for req in _requirements(SETS[name]):
        if req.marker is not None and not req.marker.evaluate(LINUX):
            continue
        key = canonicalize_name(req.name)
        assert key in pins, (
            f"requirements/{name}.txt lacks {req.name} ({req}): run requirements/update"
        )
        for version, marker in pins[key]:
            if marker is not None and not Marker(marker).evaluate(LINUX):
                continue
            assert req.specifier.contains(version, prereleases=True), (
                f"requirements/{name}.txt pins {req.name}=={version}, outside pyproject's {req}: "
                "run requirements/update"
            )
            checked += 1
    assert checked >= len(_requirements(())) - 1


def test_every_lock_file_agrees_with_all_txt() -> None:
    everything = _pins("all")
    assert len(SETS) >= 4 and len(everything) >= 20  # the sets' pins, all of them in all.txt
    for name in SETS:
        for package, versions in _pins(name).items():
            assert package in everything, f"requirements/{name}.txt pins {package}, all.txt not"
            mine = {version for version, _ in versions}
            theirs = {version for version, _ in everything[package]}
            assert mine <= theirs, (
                f"requirements/{name}.txt pins {package} {sorted(mine)}, all.txt {sorted(theirs)}"
            )


def test_ci_installs_from_the_lock_with_hashes() -> None:
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -q --require-hashes -r requirements/test.txt" in run
    assert "pip install -q --no-deps ." in run
    assert "python -m pytest -n auto" in run
    latest = (ROOT / ".ci" / "run-latest").read_text(encoding="utf-8")
    assert "TABLESMITH_LATEST=1" in latest


def test_the_readme_installs_from_the_lock() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    installs = re.findall(r"pip install [^\n`]*", readme)
    assert installs, "the README installs nothing"
    for command in installs:
        assert "-r requirements/" in command or "--no-deps" in command, (
            f"the README installs around the lock: {command!r}"
        )


def test_every_lock_file_was_made_from_todays_pyproject() -> None:
    """Each lock file names the hash of pyproject's requirements it was compiled from; a
    changed range or extra without ``requirements/update`` fails here, naming the command."""
    import hashlib
    import json

    project = _pyproject()["project"]
    assert isinstance(project, dict)
    text = json.dumps([project["dependencies"], project["optional-dependencies"]], sort_keys=True)
    today = hashlib.sha256(text.encode()).hexdigest()[:16]
    for name in SETS:
        head = (LOCKS / f"{name}.txt").read_text(encoding="utf-8").splitlines()[:5]
        stamp = [line.rsplit(" ", 1)[-1] for line in head if "requirements sha256:" in line]
        assert stamp == [today], (
            f"requirements/{name}.txt is older than pyproject.toml: run requirements/update"
        )
