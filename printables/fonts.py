"""Locate, register and check the embedded Unicode font (DejaVu Sans).

ReportLab's built-in Helvetica has no Polish, Cyrillic or symbol glyphs and is not embedded,
so every card text uses DejaVu Sans, embedded as a subset (ARCHITECTURE.md, *Paper*).

Decision: the font is looked up, in order, in ``$TABLESMITH_FONT_DIR``, Debian's
``fonts-dejavu-core`` directory, and the copy that matplotlib (a Tablesmith dependency) ships
in ``mpl-data/fonts/ttf``; nothing is downloaded. If none has it, :class:`FontError` says how
to install it.
"""

from __future__ import annotations

import importlib.util
import os
from functools import cache
from pathlib import Path

REGULAR = "TablesmithSans"
"""ReportLab name of the regular face."""
BOLD = "TablesmithSans-Bold"
"""ReportLab name of the bold face."""
_FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}


class FontError(ValueError):
    """The font files cannot be found, or a text uses a glyph the font lacks."""


def font_dirs() -> list[Path]:
    """Directories searched for DejaVu Sans, in order."""
    dirs = []
    if os.environ.get("TABLESMITH_FONT_DIR"):
        dirs.append(Path(os.environ["TABLESMITH_FONT_DIR"]))
    dirs += [Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu")]
    spec = importlib.util.find_spec("matplotlib")
    if spec is not None and spec.origin:
        dirs.append(Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf")
    return dirs


def font_path(file_name: str) -> Path:
    """The first existing ``file_name`` in :func:`font_dirs`.

    Raises:
        FontError: not found anywhere (the message lists the places and the Debian package).
    """
    for directory in font_dirs():
        candidate = directory / file_name
        if candidate.is_file():
            return candidate
    raise FontError(
        f"font {file_name} not found in {', '.join(map(str, font_dirs()))}; install the Debian "
        "package fonts-dejavu-core or set TABLESMITH_FONT_DIR to a folder with DejaVu Sans"
    )


@cache
def register_fonts() -> tuple[str, str]:
    """Register the regular and bold faces with ReportLab (once) and return their names.

    Raises:
        FontError: a font file is missing.
    """
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name, file_name in _FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(font_path(file_name))))
    for bold, italic in ((0, 0), (0, 1)):
        addMapping(REGULAR, bold, italic, REGULAR)
    for italic in (0, 1):
        addMapping(REGULAR, 1, italic, BOLD)
    return REGULAR, BOLD


def missing_glyphs(text: str, font_name: str = REGULAR) -> list[str]:
    """Characters of ``text`` (line breaks and other controls ignored) the font has no glyph for.

    Args:
        text: any text.
        font_name: a name returned by :func:`register_fonts`.

    Returns:
        The missing characters, sorted, each once.
    """
    from reportlab.pdfbase import pdfmetrics

    register_fonts()
    cmap = pdfmetrics.getFont(font_name).face.charToGlyph
    return sorted({ch for ch in text if ch.isprintable() and ord(ch) not in cmap})
