"""Where each slicer finds a 3MF's thumbnails, followed the way its code does (test helper).

Sources (read at the commits named in ``cad/thumbnails.py``):

- The package thumbnail (3MF core specification; PrusaSlicer ``3mf.cpp`` ``THUMBNAIL_FILE``):
  the target of the ``_rels/.rels`` relationship of type ``.../metadata/thumbnail``.
- Bambu Studio / OrcaSlicer ``bbs_3mf.cpp``:
  ``_BBS_3MF_Importer::get_thumbnail`` (the picture a file list shows) takes the
  ``cover-thumbnail-middle`` relationship's target, else the package thumbnail's (a ``.png``
  only, ``_handle_start_relationship``), else ``Metadata/plate_1.png``; a plate's own thumbnail
  is ``model_settings.config``'s ``<plate>`` metadata ``thumbnail_file`` (``plater_id`` the
  plate), else the plate's ``gcode_file`` with ``.gcode`` turned into ``.png``
  (``load_gcode_3mf_from_stream``); the printer's small picture is the
  ``cover-thumbnail-small`` target.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

_OPC = "http://schemas.openxmlformats.org/"
_BAMBU = "http://schemas.bambulab.com/"


def _relationships(archive: zipfile.ZipFile) -> list[tuple[str, str]]:
    """``(type, target without its leading slash)`` of every package relationship."""
    root = ET.fromstring(archive.read("_rels/.rels"))
    return [
        (node.get("Type") or "", (node.get("Target") or "").lstrip("/"))
        for node in root
        if node.tag.endswith("Relationship")
    ]


def _read(archive: zipfile.ZipFile, name: str | None) -> bytes | None:
    return archive.read(name) if name and name in archive.namelist() else None


def package_thumbnail(path: Path) -> bytes | None:
    """The 3MF core package thumbnail (what PrusaSlicer writes and reads), or None."""
    with zipfile.ZipFile(path) as archive:
        targets = [
            target
            for kind, target in _relationships(archive)
            if kind.startswith(_OPC) and kind.endswith("/metadata/thumbnail")
        ]
        return _read(archive, targets[0] if targets else None)


def bambu_file_thumbnail(path: Path) -> bytes | None:
    """The picture Bambu Studio's / OrcaSlicer's file lists show (``get_thumbnail``)."""
    with zipfile.ZipFile(path) as archive:
        found: dict[str, str] = {}
        for kind, target in _relationships(archive):
            if kind.startswith(_OPC) and kind.endswith("thumbnail") and target.endswith(".png"):
                found["package"] = target
            elif kind.startswith(_BAMBU) and kind.endswith("cover-thumbnail-middle"):
                found["middle"] = target
        name = found.get("middle") or found.get("package") or "Metadata/plate_1.png"
        return _read(archive, name)


def bambu_printer_thumbnail(path: Path) -> bytes | None:
    """The small picture for the printer (``cover-thumbnail-small``), or None."""
    with zipfile.ZipFile(path) as archive:
        targets = [
            target
            for kind, target in _relationships(archive)
            if kind.startswith(_BAMBU) and kind.endswith("cover-thumbnail-small")
        ]
        return _read(archive, targets[0] if targets else None)


def bambu_plate_thumbnails(path: Path) -> dict[int, bytes | None]:
    """Per plate of ``model_settings.config``, the thumbnail the loader extracts (or None)."""
    with zipfile.ZipFile(path) as archive:
        config = _read(archive, "Metadata/model_settings.config")
        if config is None:
            return {}
        found: dict[int, bytes | None] = {}
        for plate in ET.fromstring(config).iter("plate"):
            meta = {m.get("key"): m.get("value") or "" for m in plate if m.tag == "metadata"}
            name = meta.get("thumbnail_file") or meta.get("gcode_file", "").replace(
                ".gcode", ".png"
            )
            found[int(meta.get("plater_id") or 0)] = _read(archive, name)
        return found
