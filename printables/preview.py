"""PNG previews of a PDF's pages (pypdfium2), for checking a sheet on screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from printables.layout import SettingError
from printables.outputs import atomic_outputs, check_folder, check_target
from printables.render import RenderResult

MIN_DPI = 30
"""Lowest preview resolution, dots per inch."""
DEFAULT_DPI = 150
"""Default preview resolution: the lowest at which every QR code of a sheet decodes (a
0.4 mm module is 2.4 pixels; at 100 dpi, 1.6 pixels, zbar reads about a third of them)."""
QR_DPI = DEFAULT_DPI
"""Below this resolution the QR codes in a preview may not decode."""
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


def check_existing(folder: Path, pattern: str) -> None:
    """Check, before anything is rendered, that every existing file in ``folder`` that a run
    may replace (``pattern``, a glob such as ``deck-p*.png``) is of its kind
    (:func:`printables.outputs.check_target`).

    Raises:
        OutputError: one of them is not (it is named; nothing is overwritten).
    """
    if folder.is_dir():
        for path in sorted(folder.glob(pattern)):
            check_target(path)


def write_previews(pdf: Path, out_dir: Path, *, dpi: int = DEFAULT_DPI) -> list[Path]:
    """Render every page of ``pdf`` to ``out_dir/<stem>-pNN.png`` at ``dpi``.

    All or nothing: every PNG is written to a temporary file and moved into place when all
    pages are done (:func:`printables.outputs.atomic_outputs`, which also removes folders it
    created when a page fails); an existing file of a target name that is not a PNG is
    refused before anything is written.

    Raises:
        SettingError: ``dpi`` outside 30..600.
        OutputError: ``out_dir`` or a PNG cannot be written, or a target name is taken by a
            file that is not a PNG (the message names it).
    """
    import pypdfium2 as pdfium

    check_preview_options(out_dir, dpi)
    document = pdfium.PdfDocument(str(pdf))
    try:
        targets = [out_dir / f"{pdf.stem}-p{n:02d}.png" for n in range(1, len(document) + 1)]
        for target in targets:
            check_target(target)
        with atomic_outputs(targets) as temps:
            for page, temp in zip(document, temps, strict=True):
                page.render(scale=dpi / 72).to_pil().save(temp, "PNG")
    finally:
        document.close()
    return targets


def write_cricut_images(pdf: Path, result: RenderResult, *, dpi: int = 300) -> list[Path]:
    """Design Space Print Then Cut images of every front sheet of ``pdf``:
    ``<stem>-cricut-pNN.png``, the 6.75 x 9.25 in area of :func:`printables.cutter.cricut_area`
    at ``dpi``, transparent outside the cards' cut lines (rounded rectangles), so Design
    Space traces one cut path per card.

    Raises:
        OutputError: a PNG cannot be written.
    """
    import pypdfium2 as pdfium

    fronts = sorted({p.page for p in result.placements if p.file == 0 and p.side != "back"})
    targets = [pdf.with_name(f"{pdf.stem}-cricut-p{n:02d}.png") for n in range(1, len(fronts) + 1)]
    for target in targets:
        check_target(target)
    document = pdfium.PdfDocument(str(pdf))
    try:
        with atomic_outputs(targets) as temps:
            _cricut_pages(document, result, fronts, temps, dpi)
    finally:
        document.close()
    return targets


def _cricut_pages(
    document: Any, result: RenderResult, fronts: list[int], temps: list[Path], dpi: int
) -> None:
    """Write the Cricut image of each front page (1-based numbers ``fronts``) to ``temps``."""
    from PIL import Image, ImageDraw

    from printables.cutter import CUT_CORNER_RADIUS, cut_frame

    for page_no, temp in zip(fronts, temps, strict=True):
        placements = [p for p in result.placements if p.page == page_no and p.file == 0]
        layout = next(
            layout
            for layout in result.layouts
            if (layout.spec.card.width, layout.spec.card.height)
            == (placements[0].trim.width, placements[0].trim.height)
        )
        frame = cut_frame(layout)
        scale = dpi / 25.4
        image = document[page_no - 1].render(scale=dpi / 72).to_pil().convert("RGBA")
        top = layout.page_height - frame.top
        box = (
            round(frame.x * scale),
            round(top * scale),
            round(frame.right * scale),
            round((top + frame.height) * scale),
        )
        crop = image.crop(box)
        mask = Image.new("L", crop.size, 0)
        draw = ImageDraw.Draw(mask)
        for p in placements:
            x0 = (p.trim.x - frame.x) * scale
            y0 = (frame.top - p.trim.top) * scale
            draw.rounded_rectangle(
                (x0, y0, x0 + p.trim.width * scale, y0 + p.trim.height * scale),
                radius=CUT_CORNER_RADIUS * scale,
                fill=255,
            )
        crop.putalpha(mask)
        crop.save(temp, "PNG", dpi=(dpi, dpi))
