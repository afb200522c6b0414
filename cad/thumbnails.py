"""Plate thumbnails inside the 3MF, in every place a slicer or a printer's file list looks.

A picture of the plate (``cad.preview.render_image``, RGBA on a transparent background) goes
into the archive three times, with the references each reader follows:

- ``Metadata/thumbnail.png`` (``THUMBNAIL``, 256 x 256): the 3MF core specification's package
  thumbnail, named in ``_rels/.rels`` with the OPC relationship type
  ``.../package/2006/relationships/metadata/thumbnail``; PrusaSlicer writes and reads it there
  (prusa3d/PrusaSlicer ``src/libslic3r/Format/3mf.cpp``, ``THUMBNAIL_FILE``, commit
  68e6f8adc81c5b4726b849d534d71dda634d15fa), and so do the operating systems' 3MF previews.
- ``Metadata/plate_1.png`` (``PLATE_THUMBNAIL``, 512 x 512) and ``Metadata/plate_1_small.png``
  (``PLATE_THUMBNAIL_SMALL``, 128 x 128): Bambu Studio's and OrcaSlicer's plate thumbnail
  (bambulab/BambuStudio ``src/libslic3r/Format/bbs_3mf.cpp`` at commit
  0067891f2815d0ff15355e31370a0135c38e3b70: ``THUMBNAIL_FILE``, ``THUMBNAIL_FILE_FORMAT``
  ``"Metadata/plate_%1%.png"``, the ``_small`` copy of ``_add_thumbnail_file_to_archive`` at
  ``PLATE_THUMBNAIL_SMALL_WIDTH`` 128). The loader takes a plate's thumbnail from
  ``Metadata/model_settings.config``, ``<plate>`` > ``<metadata key="thumbnail_file"
  value="Metadata/plate_1.png"/>`` (``_handle_start_config_metadata``, ``THUMBNAIL_FILE_ATTR``;
  with no such key it guesses from the plate's G-code file, which an unsliced plate has not);
  its file-list thumbnail (``get_thumbnail``) follows ``_rels/.rels``: the relationship
  ``http://schemas.bambulab.com/package/2021/cover-thumbnail-middle`` first, then the package
  thumbnail, then ``Metadata/plate_1.png`` (``_handle_start_relationship``); the printer's
  small picture is ``cover-thumbnail-small``. ``Metadata/slice_info.config`` names no
  thumbnail (it holds a sliced plate's results), so an unsliced plate writes none.

Only a Bambu-layout plate has a ``model_settings.config`` (``cad.slicers``); a PrusaSlicer
plate gets the pictures and the relationships, which is what OrcaSlicer's and Bambu Studio's
file lists read. Everything is byte-reproducible: PNGs without time stamps, fixed sizes.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence

from PIL import Image

THUMBNAIL = "Metadata/thumbnail.png"
"""The package thumbnail (3MF core spec, PrusaSlicer's ``THUMBNAIL_FILE``)."""

PLATE_THUMBNAIL = "Metadata/plate_1.png"
"""Bambu Studio's / OrcaSlicer's thumbnail of plate 1 (``THUMBNAIL_FILE_FORMAT``)."""

PLATE_THUMBNAIL_SMALL = "Metadata/plate_1_small.png"
"""Its small copy for the printer (``_add_thumbnail_file_to_archive``, ``_small``)."""

SIZES: Mapping[str, int] = {THUMBNAIL: 256, PLATE_THUMBNAIL: 512, PLATE_THUMBNAIL_SMALL: 128}
"""Edge length in pixels of each picture (all square)."""

RENDER_SIZE = 512
"""Pixels the plate is rendered at; the smaller pictures are scaled down from it."""

PACKAGE_THUMBNAIL = (
    "http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail"
)
COVER_MIDDLE = "http://schemas.bambulab.com/package/2021/cover-thumbnail-middle"
COVER_SMALL = "http://schemas.bambulab.com/package/2021/cover-thumbnail-small"
RELATIONSHIPS: Sequence[tuple[str, str]] = (
    (PACKAGE_THUMBNAIL, THUMBNAIL),
    (COVER_MIDDLE, PLATE_THUMBNAIL),
    (COVER_SMALL, PLATE_THUMBNAIL_SMALL),
)
"""``(relationship type, picture)`` pairs added to ``_rels/.rels``."""

_RELS = "_rels/.rels"
_MODEL_SETTINGS = "Metadata/model_settings.config"
_RELS_NAMESPACE = "http://schemas.openxmlformats.org/package/2006/relationships"


def pictures(image: Image.Image) -> dict[str, bytes]:
    """The PNG files of every thumbnail (``SIZES``) from one square picture of the plate.

    Args:
        image: the plate rendered ``RENDER_SIZE`` pixels square (RGBA).
    """
    found = {}
    for name, size in SIZES.items():
        scaled = (
            image
            if image.size == (size, size)
            else image.resize((size, size), Image.Resampling.LANCZOS)
        )
        buffer = io.BytesIO()
        scaled.save(buffer, format="PNG", optimize=True)
        found[name] = buffer.getvalue()
    return found


def with_thumbnails(
    entries: list[tuple[str, bytes]], pngs: Mapping[str, bytes]
) -> list[tuple[str, bytes]]:
    """A 3MF's zip entries with the thumbnails added and referenced (see the module doc).

    Args:
        entries: ``(name, data)`` of every file in the archive, as written by lib3mf.
        pngs: ``pictures``' result.

    Returns:
        The entries with ``_rels/.rels`` naming the pictures, ``model_settings.config``'s plate
        (if any) naming its thumbnail, and the pictures themselves after the other files.
    """
    changed = []
    for name, data in entries:
        if name == _RELS:
            data = _relationships(data)
        elif name == _MODEL_SETTINGS:
            data = _plate_thumbnail(data)
        changed.append((name, data))
    return changed + [(name, pngs[name]) for name in SIZES]


def _relationships(rels: bytes) -> bytes:
    """``_rels/.rels`` with one relationship per picture (ids ``rel-thumbnail-N``)."""
    ET.register_namespace("", _RELS_NAMESPACE)
    root = ET.fromstring(rels)
    for number, (kind, target) in enumerate(RELATIONSHIPS, start=1):
        ET.SubElement(
            root,
            f"{{{_RELS_NAMESPACE}}}Relationship",
            {"Type": kind, "Target": "/" + target, "Id": f"rel-thumbnail-{number}"},
        )
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _plate_thumbnail(config: bytes) -> bytes:
    """``model_settings.config`` with ``thumbnail_file`` in its plate, after ``locked``."""
    root = ET.fromstring(config)
    for plate in root.iter("plate"):
        keys = [child.get("key") for child in plate]
        at = keys.index("locked") + 1 if "locked" in keys else len(keys)
        metadata = ET.Element("metadata", {"key": "thumbnail_file", "value": PLATE_THUMBNAIL})
        plate.insert(at, metadata)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)
