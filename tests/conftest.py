"""Shared fixtures and skip helpers.

Kits are expensive (seconds), so each configuration is built once per test run, also across
pytest-xdist workers: the first worker to need a kit builds it into a cache folder shared by
all workers (under a file lock), the others copy it from there.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def needs_program(program: str, package: str) -> pytest.MarkDecorator:
    """Skip a test, with the reason, where ``program`` is not on the PATH.

    Args:
        program: the executable, e.g. ``prusa-slicer``.
        package: the Debian package that has it (``.ci/run`` installs it, so CI skips nothing).
    """
    return pytest.mark.skipif(
        shutil.which(program) is None,
        reason=f"{program} is not installed (Debian package {package}; .ci/run installs it)",
    )


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    import fcntl

    with open(path, "w", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def build_kit_once(tmp_path_factory: pytest.TempPathFactory):
    """Return a function that builds (once per run) a kit for the given settings.

    The function returns ``(out_folder, manifest)``; ``out_folder`` belongs to this worker.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    root = tmp_path_factory.getbasetemp()
    shared = (root.parent if worker else root) / "kit-cache"
    shared.mkdir(exist_ok=True)
    kits: dict[tuple[Any, ...], tuple[Path, dict[str, Any]]] = {}

    def build(**options: Any) -> tuple[Path, dict[str, Any]]:
        from cad.kit import build_kit
        from cad.settings import PrintSettings, parse_bed

        key = tuple(sorted(options.items()))
        if key not in kits:
            printer = options.pop("printer", "a1")
            out = tmp_path_factory.mktemp("kit") / "asteroids"
            import hashlib

            lock = shared / f".lock-{hashlib.sha256(repr(key).encode()).hexdigest()[:12]}"
            with _locked(lock):
                build_kit(PrintSettings(bed=parse_bed(printer), **options), out, cache_dir=shared)
            kits[key] = (out, json.loads((out / "manifest.json").read_text(encoding="utf-8")))
        return kits[key]

    return build
