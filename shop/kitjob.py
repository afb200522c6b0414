"""The print shop's kit job: ``tablesmith build`` in a worker process (:mod:`shop.jobs`).

The kit is made by the same call as the command, :func:`cad.kit.build_kit`, with the settings
of :func:`cad.options.settings_from` and the same cache folder, so a kit made on the page is
byte for byte the one ``tablesmith build`` writes with the same options, and a kit one of
them built is served from the cache to the other. Beside the kit's folder (``asteroids/``)
the job writes ``asteroids-kit.zip``, the whole kit in one download (stored entries sorted,
with fixed dates: the same kit gives the same zip).
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

KIT_FOLDER = "asteroids"
"""The kit's folder inside the job's files (as ``tablesmith build`` names it: build/asteroids)."""

KIT_ZIP = "asteroids-kit.zip"
"""The whole kit as one zip, beside its folder."""

ZIP_DATE = (2000, 1, 1, 0, 0, 0)
"""The date of every zip entry (a zip entry must carry one; this keeps the zip reproducible)."""


def run(payload: dict[str, Any], work: Path, progress: Callable[[str], None]) -> None:
    """Build the kit for the form values ``payload`` into ``work`` and zip it.

    Args:
        payload: option name -> value as the form sent it (:data:`cad.options.BUILD_OPTIONS`);
            ``preview`` (bool) too.
        work: the job's empty folder.
        progress: takes one line per step of the build.

    Raises:
        OptionError: a value out of its range (the message names the option), checked
            before anything is built.
        KitError: a part does not fit the chosen printer.
    """
    from cad.kit import build_kit, default_cache_dir
    from cad.options import settings_from

    settings = settings_from(payload)
    folder = work / KIT_FOLDER
    build_kit(
        settings,
        folder,
        previews=bool(payload.get("preview", True)),
        cache_dir=default_cache_dir(),
        progress=progress,
    )
    progress(f"packing {KIT_ZIP}")
    zip_folder(folder, work / KIT_ZIP, KIT_FOLDER)


def zip_folder(folder: Path, target: Path, prefix: str) -> None:
    """Write every file under ``folder`` into the zip ``target``, named ``prefix/<path>``,
    sorted, deflated, dated :data:`ZIP_DATE` (no time of writing in the bytes)."""
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            info = zipfile.ZipInfo(f"{prefix}/{path.relative_to(folder).as_posix()}", ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
