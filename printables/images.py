"""Card art as it should print: upright (EXIF orientation) and in sRGB (embedded ICC profile).

A phone stores a photo in the sensor's orientation and records how to turn it in the EXIF
``Orientation`` tag (1..8, EXIF 2.32 section 4.6.5, TIFF tag 274); ReportLab embeds the pixels
as stored, so a portrait photo would print sideways. Art from a design program may carry an
ICC profile (Adobe RGB, Display P3, a CMYK press profile); PDF ``DeviceRGB`` is read as sRGB,
so such art would print with wrong colours (a CMYK JPEG as ``DeviceCMYK`` with no profile).

:func:`prepare_image` decides once per distinct file (cached by path, size and modification
time) how to draw it:

* Orientation only (the common phone photo, no profile or an sRGB one): the file is embedded
  unchanged - a JPEG stays the camera's JPEG, not recompressed - and drawn through the
  orientation's affine map (:data:`ORIENTATION_MATRICES`), which turns or mirrors it on the
  page. Costs nothing.
* A profile other than sRGB, CMYK pixels, 16-bit or other modes ReportLab cannot embed, an
  MPO (multi-picture JPEG of some phones) or a WebP file, or art above :data:`MAX_ART_PPI` at
  the card's size (then also downsampled to it, Lanczos): the pixels are turned upright
  (``PIL.ImageOps.exif_transpose``), converted to sRGB with LittleCMS (``PIL.ImageCms``,
  perceptual intent; CMYK without a profile by Pillow's plain formula) and written as a JPEG
  (quality 95; PNG for PNG sources and art with transparency) to the art cache, named by the
  SHA-256 of the source bytes. The cache is ``$TABLESMITH_CACHE/art`` (the kit's cache
  variable), else ``$XDG_CACHE_HOME/tablesmith/art`` (``~/.cache/tablesmith/art``), else a temporary folder
  for the run; the same art therefore gets the same file and the PDF stays reproducible.

Each distinct source is still embedded once per PDF (ReportLab shares an image XObject per
file name).
"""

from __future__ import annotations

import atexit
import hashlib
import io
import math
import os
import shutil
import tempfile
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image as PILImage
    from reportlab.pdfgen.canvas import Canvas

CONVERSION_VERSION = "1"
"""Part of every cached file's name: bump it when the conversion changes."""
JPEG_QUALITY = 95
"""Quality of converted JPEG art (Pillow scale 1..95)."""
ORIENTATION_TAG = 0x0112
"""EXIF/TIFF tag 274, ``Orientation``."""
MIN_ART_PPI = 150
"""Art printing under this resolution (pixels per inch at its printed size) is warned about,
per card: it prints visibly soft or blocky at arm's length."""
MAX_ART_PPI = 600
"""Art above this resolution at the card's size is downsampled to it once, into the art cache
(no printer shows more; a 1,337 ppi photo made an 18 MB PDF)."""
EMBEDDABLE_MODES = frozenset({"1", "L", "P", "RGB", "RGBA", "LA"})
"""Pillow modes ReportLab embeds as they are (others are converted)."""

ORIENTATION_MATRICES: dict[int, tuple[float, float, float, float, float, float]] = {
    1: (1, 0, 0, 1, 0, 0),
    2: (-1, 0, 0, 1, 1, 0),
    3: (-1, 0, 0, -1, 1, 1),
    4: (1, 0, 0, -1, 0, 1),
    5: (0, -1, -1, 0, 1, 1),
    6: (0, -1, 1, 0, 0, 1),
    7: (0, 1, 1, 0, 0, 0),
    8: (0, 1, -1, 0, 1, 0),
}
"""Per EXIF orientation, the PDF matrix ``[a b c d e f]`` that maps the stored image drawn in
the unit square to the upright image in the unit square (``u = a s + c t + e``,
``v = b s + d t + f``; s, t, u, v from the bottom-left corner). Orientation 6 ("rotate 90
degrees clockwise to view"): the stored top-left corner (0, 1) goes to the top-right (1, 1)."""


@dataclass(frozen=True, kw_only=True)
class PreparedImage:
    """How to draw one art file upright and in sRGB.

    Attributes:
        source: the file ReportLab embeds (the original or a converted copy in the cache).
        size: (width, height) of the upright image, pixels.
        matrix: the orientation's unit-square map (:data:`ORIENTATION_MATRICES`); identity
            for a converted copy, whose pixels are already upright.
        converted: True if ``source`` is a converted copy.
    """

    source: str
    size: tuple[int, int]
    matrix: tuple[float, float, float, float, float, float]
    converted: bool

    def draw(self, canvas: Canvas, x: float, y: float, width: float, height: float) -> None:
        """Draw the upright image into the box (x, y, width, height), points, stretched to it
        (callers keep the aspect ratio with :attr:`size`). Transparency is kept."""
        canvas.saveState()
        canvas.transform(width, 0, 0, height, x, y)
        if self.matrix != ORIENTATION_MATRICES[1]:
            canvas.transform(*self.matrix)
        canvas.drawImage(self.source, 0, 0, 1, 1, mask="auto")
        canvas.restoreState()


def prepare_image(
    path: Path | str, *, cover_mm: tuple[float, float] | None = None
) -> PreparedImage:
    """The :class:`PreparedImage` of the art file ``path`` (PNG, JPEG or WebP, checked when the
    deck was read), from the cache when the file's size and modification time are unchanged.

    With ``cover_mm`` (width, height of the largest box the art is drawn to cover, mm: the
    card), art that would print there at more than :data:`MAX_ART_PPI` is downsampled once
    (Lanczos) to cover it at :data:`MAX_ART_PPI`, into the art cache; the original file is
    never touched. Every smaller box it covers then gets at least that resolution.

    Raises:
        OSError: the file cannot be read, or a converted copy cannot be written anywhere.
    """
    info = os.stat(path)
    key = (str(Path(path).resolve()), info.st_size, info.st_mtime_ns, _cache_key())
    prepared = _prepare(*key, None)
    if cover_mm is not None:
        target = downsampled_size(prepared.size, cover_mm)
        if target is not None:
            return _prepare(*key, target)
    return prepared


def print_ppi(size: tuple[int, int], box_mm: tuple[float, float]) -> float:
    """The resolution, pixels per inch, at which an image of ``size`` pixels prints when
    scaled to cover a box of ``box_mm`` (width, height, mm), cropped to it."""
    scale = max(box_mm[0] / size[0], box_mm[1] / size[1])  # mm per pixel
    return 25.4 / scale


def downsampled_size(
    size: tuple[int, int], cover_mm: tuple[float, float]
) -> tuple[int, int] | None:
    """The pixel size at which an image of ``size`` covers ``cover_mm`` at
    :data:`MAX_ART_PPI`, or None when it prints at that or less there."""
    ppi = print_ppi(size, cover_mm)
    if ppi <= MAX_ART_PPI:
        return None
    factor = MAX_ART_PPI / ppi
    return max(1, math.ceil(size[0] * factor)), max(1, math.ceil(size[1] * factor))


def _cache_key() -> str:
    return os.environ.get("TABLESMITH_CACHE", "") + "|" + os.environ.get("XDG_CACHE_HOME", "")


@lru_cache(maxsize=256)
def _prepare(
    path: str, size: int, mtime_ns: int, cache: str, target: tuple[int, int] | None
) -> PreparedImage:
    """:func:`prepare_image` for one (path, size, mtime, cache setting), downsampled to
    ``target`` pixels where given."""
    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the deck reader has checked the file already
        with Image.open(path) as im:
            orientation = _orientation(im)
            icc = im.info.get("icc_profile")
            needs = (
                target is not None
                or im.mode not in EMBEDDABLE_MODES
                or im.format not in ("JPEG", "PNG")
                or bool(icc and not _is_srgb(icc))
            )
            if not needs:
                w, h = im.size
                return PreparedImage(
                    source=path,
                    size=(h, w) if orientation in (5, 6, 7, 8) else (w, h),
                    matrix=ORIENTATION_MATRICES[orientation],
                    converted=False,
                )
            data = Path(path).read_bytes()
            digest = hashlib.sha256(data + CONVERSION_VERSION.encode()).hexdigest()[:32]
            upright = _to_srgb(im, icc)
    if target is not None:
        upright = upright.resize(target, Image.Resampling.LANCZOS)
        digest += f"-{target[0]}x{target[1]}"
    keep_png = upright.mode in ("RGBA", "LA") or Path(path).suffix.lower() == ".png"
    cached = _cache_dir() / f"{digest}.{'png' if keep_png else 'jpg'}"
    if not cached.exists():
        buffer = io.BytesIO()
        if keep_png:
            upright.save(buffer, "PNG", optimize=False)
        else:
            upright.save(buffer, "JPEG", quality=JPEG_QUALITY, subsampling=0)
        _write_atomic(cached, buffer.getvalue())
    return PreparedImage(
        source=str(cached), size=upright.size, matrix=ORIENTATION_MATRICES[1], converted=True
    )


def _orientation(im: PILImage.Image) -> int:
    """The EXIF orientation 1..8 of ``im``; 1 when absent, damaged or out of range."""
    try:
        value = im.getexif().get(ORIENTATION_TAG, 1)
    except Exception:  # Pillow raises assorted errors for damaged EXIF blocks
        return 1
    return value if isinstance(value, int) and value in ORIENTATION_MATRICES else 1


def _is_srgb(icc: bytes) -> bool:
    """True if the ICC profile describes sRGB (its description names it); a profile that
    cannot be parsed counts as sRGB (it is then ignored, as ReportLab would)."""
    from PIL import ImageCms

    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        description = ImageCms.getProfileDescription(profile)
    except Exception:  # ImageCms raises PyCMSError/OSError/ValueError for bad profiles
        return True
    return "srgb" in description.lower().replace(" ", "")


def _to_srgb(im: PILImage.Image, icc: bytes | None) -> PILImage.Image:
    """The pixels of ``im`` upright and in sRGB: mode RGB, or RGBA when it has transparency."""
    from PIL import Image, ImageCms, ImageOps

    upright = ImageOps.exif_transpose(im) or im
    alpha = None
    if upright.mode in ("RGBA", "LA", "PA") or (
        upright.mode == "P" and "transparency" in upright.info
    ):
        upright = upright.convert("RGBA")
        alpha = upright.getchannel("A")
    elif upright.mode in ("I;16", "I;16B", "I;16L", "I", "F"):  # 16-bit or float grey
        values = upright.convert("F")  # Pillow alone: the slim install has no numpy
        high = float(values.getextrema()[1])  # type: ignore[arg-type]  # F: (low, high)
        top = 65535.0 if upright.mode.startswith("I;16") or high > 255 else 255.0
        scaled = values.point(lambda v: v * (255.0 / top) + 0.5)  # + 0.5: rounded below
        upright = scaled.convert("L")  # truncates and clips to 0..255
    base_mode = "CMYK" if upright.mode == "CMYK" else ("L" if upright.mode == "L" else "RGB")
    pixels = upright.convert(base_mode) if upright.mode != base_mode else upright
    converted: Image.Image | None = None
    if icc:
        try:
            source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            converted = ImageCms.profileToProfile(
                pixels, source, ImageCms.createProfile("sRGB"), outputMode="RGB"
            )
        except Exception:  # a profile that does not match the pixels or cannot be used
            converted = None
    result = converted if converted is not None else pixels.convert("RGB")
    if alpha is not None:
        result.putalpha(alpha)
    return result


def _write_atomic(target: Path, data: bytes) -> None:
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=target.suffix)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


_RUN_DIR: list[Path] = []


def _cache_dir() -> Path:
    """The art cache folder (created); a temporary folder removed at exit if the user cache
    cannot be written. Its root is the kit cache's (``cad.kit.default_cache_dir``, the same
    rule: printables may not import cad, ARCHITECTURE.md's arrows)."""
    configured = os.environ.get("TABLESMITH_CACHE")
    base = (
        Path(configured)
        if configured
        else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tablesmith"
    )
    folder = base / "art"  # beside the kit cache (cad/kit.py), under the same $TABLESMITH_CACHE
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if os.access(folder, os.W_OK):
            return folder
    except OSError:
        pass
    if not _RUN_DIR:
        _RUN_DIR.append(Path(tempfile.mkdtemp(prefix="tablesmith-art-")))
        atexit.register(shutil.rmtree, _RUN_DIR[0], True)
    return _RUN_DIR[0]
