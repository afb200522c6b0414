"""QR codes drawn as vector rectangles (no bitmap), via segno for the encoding.

Sizes: modules at least ``MIN_MODULE_MM`` (0.4 mm, reliably printed at 300 dpi and read by
phones from 15-20 cm) with a quiet zone of ``QUIET_ZONE_MODULES`` (4, ISO/IEC 18004).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

MIN_MODULE_MM = 0.4
"""Smallest module (dark square) edge, mm."""
QUIET_ZONE_MODULES = 4
"""Light border around the symbol, in modules."""
MM = 72 / 25.4
"""Points per millimetre."""
FIXED_MASK = 0
"""Mask pattern used for every symbol. Decision: segno's automatic choice evaluates all eight
masks (about 6 ms a code, most of the time for 1,000 cards); any mask is valid QR and the
zbarimg test decodes mask 0 at 300 dpi, so the evaluation is skipped."""


@lru_cache(maxsize=4096)
def qr_matrix(data: str) -> tuple[tuple[bool, ...], ...]:
    """The QR symbol of ``data`` without quiet zone: rows of dark (True) / light modules.

    Error correction: the lowest level that keeps the smallest version, raised by segno's
    ``boost_error`` where that costs no extra size; mask ``FIXED_MASK``.
    """
    import segno

    code = segno.make_qr(data, error="l", boost_error=True, mask=FIXED_MASK)
    return tuple(tuple(bool(v) for v in row) for row in code.matrix)


def qr_size_mm(data: str, module_mm: float = MIN_MODULE_MM) -> float:
    """Edge of the drawn QR including its quiet zone, mm."""
    return (len(qr_matrix(data)) + 2 * QUIET_ZONE_MODULES) * module_mm


def dark_rectangles(matrix: tuple[tuple[bool, ...], ...]) -> list[tuple[int, int, int, int]]:
    """Cover the dark modules with few rectangles: horizontal runs of a row, merged with the
    identical runs of the rows below.

    Returns:
        ``(column, row, width, height)`` in modules, row 0 at the top; the rectangles do not
        overlap and cover exactly the dark modules.
    """
    done: list[tuple[int, int, int, int]] = []
    open_runs: dict[tuple[int, int], tuple[int, int]] = {}  # (start, end) -> (top row, height)
    for r, row in enumerate(matrix):
        runs = []
        c = 0
        while c < len(row):
            if row[c]:
                start = c
                while c < len(row) and row[c]:
                    c += 1
                runs.append((start, c))
            else:
                c += 1
        following: dict[tuple[int, int], tuple[int, int]] = {}
        for run in runs:
            top, height = open_runs.pop(run, (r, 0))
            following[run] = (top, height + 1)
        done.extend((s, top, e - s, h) for (s, e), (top, h) in open_runs.items())
        open_runs = following
    done.extend((s, top, e - s, h) for (s, e), (top, h) in open_runs.items())
    return done


def draw_qr(
    canvas: Canvas, data: str, x_mm: float, y_mm: float, module_mm: float = MIN_MODULE_MM
) -> float:
    """Draw the QR of ``data`` with its bottom-left quiet-zone corner at (x_mm, y_mm).

    The dark modules are drawn as the filled rectangles of :func:`dark_rectangles`, all in one
    path, over a white square that includes the quiet zone.

    Returns:
        The edge length drawn, mm (quiet zone included).

    Raises:
        ValueError: ``module_mm`` is below ``MIN_MODULE_MM``.
    """
    if module_mm < MIN_MODULE_MM:
        raise ValueError(f"QR module must be >= {MIN_MODULE_MM} mm, got {module_mm} mm")
    matrix = qr_matrix(data)
    size = qr_size_mm(data, module_mm)
    m = module_mm * MM
    ox, oy = (
        (x_mm + QUIET_ZONE_MODULES * module_mm) * MM,
        (y_mm + size - QUIET_ZONE_MODULES * module_mm) * MM,
    )
    canvas.saveState()
    canvas.setFillColorRGB(1, 1, 1)
    canvas.rect(x_mm * MM, y_mm * MM, size * MM, size * MM, stroke=0, fill=1)
    canvas.setFillColorRGB(0, 0, 0)
    path = canvas.beginPath()
    for column, row, width, height in dark_rectangles(matrix):
        path.rect(ox + column * m, oy - (row + height) * m, width * m, height * m)
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()
    return size
