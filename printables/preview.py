"""PNG previews of a PDF's pages (pypdfium2), for checking a sheet on screen."""

from __future__ import annotations

import contextlib
from pathlib import Path

from printables.layout import SettingError
from printables.outputs import OutputError, check_folder, os_reason, shown

MIN_DPI = 30
"""Lowest preview resolution, dots per inch."""
MAX_DPI = 600
"""Highest preview resolution, dots per inch (an A3 page is then about 7000 x 9900 px)."""


def check_preview_options(out_dir: Path | None, dpi: int) -> None:
    """Check the preview settings before anything is rendered.

    Raises:
        SettingError: ``dpi`` outside ``MIN_DPI..MAX_DPI`` (setting ``dpi``).
        OutputError: ``out_dir`` is a file, lies below a file or cannot be created.
    """
    if not MIN_DPI <= dpi <= MAX_DPI:
        raise SettingError(setting="dpi", allowed=f"{MIN_DPI}..{MAX_DPI}", found=dpi)
    if out_dir is not None:
        check_folder(out_dir)


def write_previews(pdf: Path, out_dir: Path, *, dpi: int = 100) -> list[Path]:
    """Render every page of ``pdf`` to ``out_dir/<stem>-pNN.png`` at ``dpi``.

    All or nothing: if a page fails, the PNGs of this call and the folders it created are
    removed again.

    Raises:
        SettingError: ``dpi`` outside 30..600.
        OutputError: ``out_dir`` or a PNG cannot be written (the message names it).
    """
    import pypdfium2 as pdfium

    check_preview_options(out_dir, dpi)
    created = []
    folder = out_dir
    while not folder.exists() and folder != folder.parent:
        created.append(folder)
        folder = folder.parent
    written: list[Path] = []
    target = out_dir
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        document = pdfium.PdfDocument(str(pdf))
        try:
            for number, page in enumerate(document, start=1):
                image = page.render(scale=dpi / 72).to_pil()
                target = out_dir / f"{pdf.stem}-p{number:02d}.png"
                written.append(target)
                image.save(target)
        finally:
            document.close()
    except OSError as exc:
        _undo(written, created)
        raise OutputError(target, f"cannot write {shown(target)}: {os_reason(exc)}") from None
    except BaseException:
        _undo(written, created)
        raise
    return written


def _undo(written: list[Path], created: list[Path]) -> None:
    for path in written:
        path.unlink(missing_ok=True)
    for folder in created:
        with contextlib.suppress(OSError):
            folder.rmdir()
