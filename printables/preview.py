"""PNG previews of a PDF's pages (pypdfium2), for checking a sheet on screen."""

from __future__ import annotations

from pathlib import Path


def write_previews(pdf: Path, out_dir: Path, *, dpi: int = 100) -> list[Path]:
    """Render every page of ``pdf`` to ``out_dir/<stem>-pNN.png`` at ``dpi``.

    Raises:
        ValueError: ``dpi`` outside 30..600.
    """
    import pypdfium2 as pdfium

    if not 30 <= dpi <= 600:
        raise ValueError(f"preview dpi must be 30..600, got {dpi}")
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    document = pdfium.PdfDocument(str(pdf))
    try:
        for number, page in enumerate(document, start=1):
            image = page.render(scale=dpi / 72).to_pil()
            target = out_dir / f"{pdf.stem}-p{number:02d}.png"
            image.save(target)
            written.append(target)
    finally:
        document.close()
    return written
