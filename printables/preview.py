"""PNG previews of a PDF's pages (pypdfium2), for checking a sheet on screen."""

from __future__ import annotations

import contextlib
from pathlib import Path

from printables.layout import SettingError
from printables.outputs import OutputError, check_folder, os_reason, shown
from printables.render import RenderResult

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


def write_cricut_images(pdf: Path, result: RenderResult, *, dpi: int = 300) -> list[Path]:
    """Design Space Print Then Cut images of every front sheet of ``pdf``:
    ``<stem>-cricut-pNN.png``, the 6.75 x 9.25 in area of :func:`printables.cutter.cricut_area`
    at ``dpi``, transparent outside the cards' cut lines (rounded rectangles), so Design
    Space traces one cut path per card.

    Raises:
        OutputError: a PNG cannot be written.
    """
    import pypdfium2 as pdfium
    from PIL import Image, ImageDraw

    from printables.cutter import CUT_CORNER_RADIUS, cut_frame

    fronts = sorted({p.page for p in result.placements if p.file == 0 and p.side != "back"})
    written: list[Path] = []
    document = pdfium.PdfDocument(str(pdf))
    try:
        for number, page_no in enumerate(fronts, start=1):
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
            target = pdf.with_name(f"{pdf.stem}-cricut-p{number:02d}.png")
            try:
                crop.save(target, dpi=(dpi, dpi))
            except OSError as exc:
                raise OutputError(
                    target, f"cannot write {shown(target)}: {os_reason(exc)}"
                ) from None
            written.append(target)
    finally:
        document.close()
    return written
