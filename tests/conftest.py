"""Shared fixtures: kits are expensive (seconds), so each configuration is built once per run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session")
def build_kit_once(tmp_path_factory: pytest.TempPathFactory):
    """Return a function that builds (once per session) a kit for the given settings.

    The function returns ``(out_folder, manifest)``.
    """
    cache: dict[tuple[Any, ...], tuple[Path, dict[str, Any]]] = {}

    def build(**options: Any) -> tuple[Path, dict[str, Any]]:
        from cad.kit import build_kit
        from cad.settings import PrintSettings, parse_bed

        key = tuple(sorted(options.items()))
        if key not in cache:
            printer = options.pop("printer", "a1")
            out = tmp_path_factory.mktemp("kit") / "asteroids"
            build_kit(PrintSettings(bed=parse_bed(printer), **options), out, cache_dir=None)
            cache[key] = (out, json.loads((out / "manifest.json").read_text()))
        return cache[key]

    return build
