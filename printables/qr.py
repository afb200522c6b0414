"""QR codes drawn as vector rectangles (no bitmap).

Encoding: libqrencode (the C library behind ``qrencode``; Debian ``libqrencode4``) through
ctypes where the system has it, about 100 times faster than a pure-Python encoder, which
matters for a thousand cards; otherwise segno. Both choose the error-correction level the same
way: the highest of L, M, Q, H that keeps the smallest symbol version, and evaluate all eight
masks (ISO/IEC 18004, 7.8).

Sizes: modules at least ``MIN_MODULE_MM`` (0.4 mm, reliably printed at 300 dpi and read by
phones from 15-20 cm) with a quiet zone of ``QUIET_ZONE_MODULES`` (4, ISO/IEC 18004).

Drawing: the dark modules are merged into few rectangles (:func:`dark_rectangles`) and written
as one PDF path in module units under a scaling matrix; the operator text is cached per code,
so copies of a card cost one string append.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache, lru_cache
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

Matrix = tuple[bytes, ...]
"""A QR symbol: one ``bytes`` per row, 1 = dark module, 0 = light."""

MIN_MODULE_MM = 0.4
"""Smallest module (dark square) edge, mm."""
QUIET_ZONE_MODULES = 4
"""Light border around the symbol, in modules."""
MM = 72 / 25.4
"""Points per millimetre."""


class _QRcode(ctypes.Structure):
    _fields_ = [
        ("version", ctypes.c_int),
        ("width", ctypes.c_int),
        ("data", ctypes.POINTER(ctypes.c_ubyte)),
    ]


@cache
def libqrencode() -> ctypes.CDLL | None:
    """The system's libqrencode with its prototypes set, or None where it is not installed."""
    name = ctypes.util.find_library("qrencode")
    if name is None:
        return None
    try:
        lib = ctypes.CDLL(name)
    except OSError:
        return None
    lib.QRcode_encodeData.restype = ctypes.POINTER(_QRcode)
    lib.QRcode_encodeData.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_int,
    ]
    lib.QRcode_free.argtypes = [ctypes.POINTER(_QRcode)]
    lib.QRcode_free.restype = None
    return lib


_DARK = bytes(b & 1 for b in range(256))
"""Byte translation of libqrencode's module bytes to 1 (dark, bit 0) or 0 (light)."""


ERROR_LEVEL_M = 1
"""libqrencode's ``QR_ECLEVEL_M``."""


def _encode(lib: ctypes.CDLL, data: bytes, level: int) -> Matrix:
    """The matrix of ``data`` at error level ``level`` (0 L .. 3 H), smallest version."""
    code = lib.QRcode_encodeData(len(data), data, 0, level)
    if not code:
        raise ValueError(f"data of {len(data)} bytes is too long for a QR code")
    try:
        width = code.contents.width
        cells = ctypes.string_at(code.contents.data, width * width).translate(_DARK)
    finally:
        lib.QRcode_free(code)
    return tuple(cells[r * width : (r + 1) * width] for r in range(width))


@lru_cache(maxsize=4096)
def qr_matrix(data: str) -> Matrix:
    """The QR symbol of ``data`` (UTF-8 bytes, byte mode) without quiet zone: one ``bytes``
    per row, 1 for a dark module and 0 for a light one.

    Error correction level M (15 % of the symbol may be lost: a scuffed or bent card still
    reads); the mask is chosen by the encoder's penalty rules (ISO/IEC 18004, 7.8.3).

    Raises:
        ValueError: ``data`` is too long for a QR code.
    """
    lib = libqrencode()
    if lib is None:
        import segno

        code = segno.make_qr(data, error="m", boost_error=False, mode="byte")
        return tuple(bytes(1 if v else 0 for v in row) for row in code.matrix)
    return _encode(lib, data.encode("utf-8"), ERROR_LEVEL_M)


def qr_size_mm(data: str, module_mm: float = MIN_MODULE_MM) -> float:
    """Edge of the drawn QR including its quiet zone, mm."""
    return (len(qr_matrix(data)) + 2 * QUIET_ZONE_MODULES) * module_mm


def dark_runs(matrix: Matrix) -> np.ndarray:
    """The horizontal runs of dark modules, row by row (numpy, no Python loop per module).

    Returns:
        An ``(n, 3)`` integer array of ``(column, row, width)`` in modules, row 0 at the top;
        the runs do not overlap and cover exactly the dark modules.
    """
    width = len(matrix)
    padded = np.zeros((width, width + 2), dtype=np.int8)
    padded[:, 1:-1] = np.frombuffer(b"".join(matrix), dtype=np.int8).reshape(width, width)
    edges = padded[:, 1:] - padded[:, :-1]
    rows, starts = np.nonzero(edges == 1)
    _, ends = np.nonzero(edges == -1)
    return np.column_stack((starts, rows, ends - starts))


def dark_rectangles(matrix: Matrix) -> list[tuple[int, int, int, int]]:
    """The dark modules as ``(column, row, width, height)`` rectangles in modules: one per
    horizontal run (height 1). Decision: merging equal runs of neighbouring rows saved about
    a third of the rectangles but cost more time than the rest of a card; the page streams
    are compressed, so the size difference is small."""
    return [(int(c), int(r), int(w), 1) for c, r, w in dark_runs(matrix)]


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
    size = qr_size_mm(data, module_mm)
    m = module_mm * MM
    modules = size / module_mm
    # PDF operators, inside q ... Q so the canvas state is untouched: a white square with the
    # quiet zone, then the dark rectangles in module units (origin at the symbol's top-left
    # corner of the quiet zone, y down).
    canvas.addLiteral(
        f"q 1 0 0 1 {x_mm * MM:.3f} {(y_mm + size) * MM:.3f} cm {m:.5f} 0 0 {-m:.5f} 0 0 cm "
        f"1 g 0 0 {modules:g} {modules:g} re f 0 g {_module_path(data)} f Q"
    )
    return size


@lru_cache(maxsize=4096)
def _module_path(data: str) -> str:
    """``re`` operators of the dark modules of ``data`` in module units, quiet zone offset."""
    runs = dark_runs(qr_matrix(data))
    runs[:, :2] += QUIET_ZONE_MODULES
    return ("%d %d %d 1 re " * len(runs)) % tuple(runs.ravel().tolist())
