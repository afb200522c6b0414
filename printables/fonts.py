"""Locate, register and check the embedded Unicode font (DejaVu Sans).

ReportLab's built-in Helvetica has no Polish, Cyrillic or symbol glyphs and is not embedded,
so every card text uses DejaVu Sans, embedded as a subset (ARCHITECTURE.md, *Paper*).

Decision: the two faces ship inside the package (``printables/dejavu/``: DejaVu Sans 2.37, the
files of Debian's ``fonts-dejavu-core``, with their licence), so a card sheet is the same bytes
on every machine and a slim install on Windows or macOS needs no system font. Earlier the font
was looked up in Debian's folder and in matplotlib's copy, which only the test extra installs:
a fresh ``pip install .`` without ``fonts-dejavu-core`` could print no card.
``$TABLESMITH_FONT_DIR`` still comes first, for a designer who wants other files of the same
names; nothing is downloaded.
"""

from __future__ import annotations

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


PACKAGED = Path(__file__).resolve().parent / "dejavu"
"""The folder of the fonts shipped with the package (DejaVu Sans 2.37 and its licence)."""


def font_dirs() -> list[Path]:
    """Directories searched for DejaVu Sans, in order: ``$TABLESMITH_FONT_DIR``, then
    :data:`PACKAGED`."""
    dirs = []
    if os.environ.get("TABLESMITH_FONT_DIR"):
        dirs.append(Path(os.environ["TABLESMITH_FONT_DIR"]))
    dirs.append(PACKAGED)
    return dirs


def font_path(file_name: str) -> Path:
    """The first existing ``file_name`` in :func:`font_dirs`.

    Raises:
        FontError: not found anywhere (the message lists the places searched).
    """
    for directory in font_dirs():
        candidate = directory / file_name
        if candidate.is_file():
            return candidate
    raise FontError(
        f"font {file_name} not found in {', '.join(map(str, font_dirs()))}; the package's own "
        "copy is missing (reinstall Tablesmith) or TABLESMITH_FONT_DIR names a folder without it"
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
