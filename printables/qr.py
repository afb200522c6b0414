"""QR codes drawn as vector rectangles (no bitmap).

Encoding: libqrencode (the C library behind ``qrencode``; Debian ``libqrencode4``) through
ctypes where the system has it, far faster than a pure-Python encoder, which matters for a
thousand cards (``benchmarks/cards_bench.py``); otherwise segno. Both encode in byte mode at
error-correction level M in the smallest version that holds the data, and evaluate all
eight masks (ISO/IEC 18004, 7.8).

Sizes: modules at least ``MIN_MODULE_MM`` (0.4 mm, reliably printed at 300 dpi and read by
phones from 15-20 cm) with a quiet zone of ``QUIET_ZONE_MODULES`` (4, ISO/IEC 18004).

Drawing: the dark modules are drawn as their row runs (a recurring row's operators looked
up, a new row's built from chunks of 8 modules, :func:`_module_path`) in one PDF path in
module units under a scaling matrix; the operator text is cached per code, so copies of a
card cost one string append. The three finder patterns, the same in every symbol of a size,
are one shared form XObject. Decision: not an image mask of one sample per module, though
it would be a tenth of the bytes: PDFium (Chrome's viewer, and its printing) smooths an
upscaled image mask even without ``/I true``, so its module edges come out grey, and
zbarimg read 3 of 9 codes of a sheet PDFium rendered at 150 dpi (all 9 as vectors).

Speed: :class:`Prefetch` encodes a deck's codes ahead of the drawing in a background thread,
in batches of one libqrencode call each (``QRcode_encodeInputStructured`` over inputs without
structured-append headers: each is encoded exactly as ``QRcode_encodeData`` would). The
batch call runs without Python's global interpreter lock, so on a machine with a free core
the encoding (choosing the mask is about nine tenths of it) overlaps the drawing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import re
import threading
from collections.abc import Iterable
from functools import cache, lru_cache
from types import TracebackType
from typing import TYPE_CHECKING

from printables.units import MM

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

Matrix = tuple[bytes, ...]
"""A QR symbol: one ``bytes`` per row, 1 = dark module, 0 = light."""

MIN_MODULE_MM = 0.4
"""Smallest module (dark square) edge, mm."""
QUIET_ZONE_MODULES = 4
"""Light border around the symbol, in modules."""


class _QRcode(ctypes.Structure):
    _fields_ = [
        ("version", ctypes.c_int),
        ("width", ctypes.c_int),
        ("data", ctypes.POINTER(ctypes.c_ubyte)),
    ]


class _QRcodeList(ctypes.Structure):
    pass


_QRcodeList._fields_ = [
    ("code", ctypes.POINTER(_QRcode)),
    ("next", ctypes.POINTER(_QRcodeList)),
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


@cache
def _batch_api() -> tuple[ctypes.CDLL, ctypes.PyDLL] | None:
    """libqrencode for batches: the encoding call through a ``CDLL`` (releases the global
    interpreter lock while it runs) and the quick set-up and free calls through a ``PyDLL``
    (keep the lock, so a background thread does not wait for it between them); None where
    the library or its structured-input functions are missing."""
    lib = libqrencode()
    if lib is None or lib._name is None:
        return None
    try:
        quick = ctypes.PyDLL(lib._name)
        lib.QRcode_encodeInputStructured.restype = ctypes.POINTER(_QRcodeList)
        lib.QRcode_encodeInputStructured.argtypes = [ctypes.c_void_p]
        quick.QRinput_new2.restype = ctypes.c_void_p
        quick.QRinput_new2.argtypes = [ctypes.c_int, ctypes.c_int]
        quick.QRinput_append.restype = ctypes.c_int
        quick.QRinput_append.argtypes = [
            ctypes.c_void_p,
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_char_p,
        ]
        quick.QRinput_free.restype = None
        quick.QRinput_free.argtypes = [ctypes.c_void_p]
        quick.QRinput_Struct_new.restype = ctypes.c_void_p
        quick.QRinput_Struct_new.argtypes = []
        quick.QRinput_Struct_appendInput.restype = ctypes.c_int
        quick.QRinput_Struct_appendInput.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        quick.QRinput_Struct_free.restype = None
        quick.QRinput_Struct_free.argtypes = [ctypes.c_void_p]
        quick.QRcode_List_free.restype = None
        quick.QRcode_List_free.argtypes = [ctypes.POINTER(_QRcodeList)]
    except (OSError, AttributeError):
        return None
    return lib, quick


MODE_8 = 2
"""libqrencode's ``QR_MODE_8`` (byte mode)."""


def encode_batch(data: list[str]) -> list[Matrix] | None:
    """The matrices of every item of ``data`` in one libqrencode call, each the same as
    :func:`qr_matrix` gives (smallest version, level M, mask by the penalty rules).

    Returns:
        One matrix per item, in order; None where libqrencode (or its batch functions) is
        missing or any item cannot be encoded (too long): :func:`qr_matrix` then encodes
        them one by one and names the culprit.
    """
    api = _batch_api()
    if api is None:
        return None
    lib, quick = api
    batch = quick.QRinput_Struct_new()
    if not batch:
        return None
    try:
        for item in data:
            raw = item.encode("utf-8")
            entry = quick.QRinput_new2(0, ERROR_LEVEL_M)
            if not entry:
                return None
            if (
                quick.QRinput_append(entry, MODE_8, len(raw), raw) != 0
                or quick.QRinput_Struct_appendInput(batch, entry) < 0
            ):
                quick.QRinput_free(entry)
                return None
        head = lib.QRcode_encodeInputStructured(batch)
        if not head:
            return None
        matrices: list[Matrix] = []
        try:
            node = head
            while node:
                code = node.contents.code.contents
                width = code.width
                cells = ctypes.string_at(code.data, width * width).translate(_DARK)
                matrices.append(tuple(cells[r * width : (r + 1) * width] for r in range(width)))
                node = node.contents.next
        finally:
            quick.QRcode_List_free(head)
        return matrices if len(matrices) == len(data) else None
    finally:
        quick.QRinput_Struct_free(batch)


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


CACHE_SIZE = 4096
"""Codes whose matrix and drawing operators are kept (the least recently used go first)."""
_scheduled: dict[str, Prefetch] = {}
"""Codes a running :class:`Prefetch` encodes, and which one: :func:`qr_matrix` takes them
from it."""


@lru_cache(maxsize=CACHE_SIZE)
def qr_matrix(data: str) -> Matrix:
    """The QR symbol of ``data`` (UTF-8 bytes, byte mode) without quiet zone: one ``bytes``
    per row, 1 for a dark module and 0 for a light one.

    Error correction level M (15 % of the symbol may be lost: a scuffed or bent card still
    reads); the mask is chosen by the encoder's penalty rules (ISO/IEC 18004, 7.8.3).

    Raises:
        ValueError: ``data`` is too long for a QR code.
    """
    owner = _scheduled.get(data)
    if owner is not None:
        ready = owner.take(data)
        if ready is not None:
            return ready
    lib = libqrencode()
    if lib is None:
        import segno

        code = segno.make_qr(data, error="m", boost_error=False, mode="byte")
        return tuple(bytes(1 if v else 0 for v in row) for row in code.matrix)
    return _encode(lib, data.encode("utf-8"), ERROR_LEVEL_M)


def qr_size_mm(data: str, module_mm: float = MIN_MODULE_MM) -> float:
    """Edge of the drawn QR including its quiet zone, mm."""
    return (len(qr_matrix(data)) + 2 * QUIET_ZONE_MODULES) * module_mm


FINDER_MODULES = 7
"""Edge of a finder pattern, modules (ISO/IEC 18004, 6.3.3): the same in every symbol."""


_RUN = re.compile(b"\x01+")
"""A run of dark modules in a matrix row (one byte per module, 1 = dark)."""


def dark_runs(matrix: Matrix, *, without_finders: bool = False) -> list[tuple[int, int, int]]:
    """The horizontal runs of dark modules, row by row (a C regex over each row's bytes, no
    Python loop per module; no numpy, which the slim install does not have).

    Args:
        matrix: a symbol from :func:`qr_matrix`.
        without_finders: leave out the three finder patterns (the 7 x 7 squares in the
            top-left, top-right and bottom-left corners, :func:`finder_runs`).

    Returns:
        ``(column, row, width)`` in modules, row 0 at the top, row by row from the left; the
        runs do not overlap and cover exactly the dark modules (outside the finders).
    """
    width = len(matrix)
    f = FINDER_MODULES
    blank = bytes(f)
    runs = []
    for row, line in enumerate(matrix):
        if without_finders and row < f:
            line = blank + line[f : width - f] + blank
        elif without_finders and row >= width - f:
            line = blank + line[f:]
        runs += [(m.start(), row, m.end() - m.start()) for m in _RUN.finditer(line)]
    return runs


def finder_runs(width: int) -> list[tuple[int, int, int]]:
    """The dark runs ``(column, row, width)`` of the three finder patterns of a symbol
    ``width`` modules wide (a dark 7 x 7 ring, a light ring, a dark 3 x 3 centre), the same
    modules every symbol of that width has there."""
    pattern = [(0, 7), (0, 1, 6, 1), (0, 1, 2, 3, 6, 1), (0, 1, 2, 3, 6, 1), (0, 1, 2, 3, 6, 1)]
    pattern += [(0, 1, 6, 1), (0, 7)]
    runs = []
    for x0, y0 in ((0, 0), (width - FINDER_MODULES, 0), (0, width - FINDER_MODULES)):
        for row, spans in enumerate(pattern):
            for k in range(0, len(spans), 2):
                runs.append((x0 + spans[k], y0 + row, spans[k + 1]))
    return runs


def dark_rectangles(matrix: Matrix) -> list[tuple[int, int, int, int]]:
    """The dark modules as ``(column, row, width, height)`` rectangles in modules: one per
    horizontal run (height 1). Decision: merging equal runs of neighbouring rows saved about
    a third of the rectangles but cost more time than the rest of a card; the page streams
    are compressed, so the size difference is small."""
    return [(c, r, w, 1) for c, r, w in dark_runs(matrix)]


def draw_qr(
    canvas: Canvas, data: str, x_mm: float, y_mm: float, module_mm: float = MIN_MODULE_MM
) -> float:
    """Draw the QR of ``data`` with its bottom-left quiet-zone corner at (x_mm, y_mm).

    Over a white square that includes the quiet zone, the dark modules are drawn as the
    filled rectangles of :func:`dark_runs` (finder patterns left out), all in one path, and
    the three finder patterns, the same in every symbol of a size, as one form XObject per
    symbol size (:func:`finder_runs`); a finder touches only light modules around it, so the
    two fills meet nowhere.

    Returns:
        The edge length drawn, mm (quiet zone included).

    Raises:
        ValueError: ``module_mm`` is below ``MIN_MODULE_MM``.
    """
    from printables.icons import defined_forms

    if module_mm < MIN_MODULE_MM:
        raise ValueError(f"QR module must be >= {MIN_MODULE_MM} mm, got {module_mm} mm")
    size = qr_size_mm(data, module_mm)
    m = module_mm * MM
    modules = round(size / module_mm)
    finders = f"qrfinders{modules}"
    forms = defined_forms(canvas)
    if finders not in forms:
        canvas.beginForm(finders, 0, 0, modules, modules)
        runs = "".join(
            f"{c + QUIET_ZONE_MODULES} {r + QUIET_ZONE_MODULES} {w} 1 re "
            for c, r, w in finder_runs(modules - 2 * QUIET_ZONE_MODULES)
        )
        canvas.addLiteral(f"0 g {runs}f")
        canvas.endForm()
        forms.add(finders)
    # PDF operators, inside q ... Q so the canvas state is untouched: a white square with the
    # quiet zone, then the dark rectangles in module units (origin at the symbol's top-left
    # corner of the quiet zone, y down).
    canvas.addLiteral(
        f"q 1 0 0 1 {x_mm * MM:.3f} {(y_mm + size) * MM:.3f} cm {m:.5f} 0 0 {-m:.5f} 0 0 cm "
        f"1 g 0 0 {modules} {modules} re f 0 g {_module_path(data)} f"
    )
    canvas.doForm(finders)
    canvas.addLiteral("Q")
    return size


@lru_cache(maxsize=CACHE_SIZE)
def _module_path(data: str) -> str:
    """``re`` operators (``column row width 1 re``, module units, quiet zone offset, row 0
    at the top) that cover exactly the dark modules of ``data`` outside its finder patterns.

    A row's operators (the row number left as ``R``, put in afterwards) are looked up in
    :data:`_ROWS` by the row's modules: the codes of one deck share the URL up to the card
    id, so most of their rows recur. A new row is cut into chunks of :data:`CHUNK_MODULES` modules whose operators come from
    :data:`_CHUNKS` (at most 256 patterns per chunk position, filled as they are met).
    Decision: a run that crosses a chunk boundary is drawn as two rectangles that meet
    there (about a tenth more rectangles than :func:`dark_runs`); they are filled as one
    path, so they show no seam.
    """
    matrix = qr_matrix(data)
    width, f = len(matrix), FINDER_MODULES
    blank = bytes(f)
    rows = _ROWS
    if len(rows) > ROWS_KEPT:
        rows.clear()
    parts = []
    for row, line in enumerate(matrix):
        if row < f:
            line = blank + line[f : width - f] + blank
        elif row >= width - f:
            line = blank + line[f:]
        ops = rows.get(line)
        if ops is None:
            ops = rows[line] = "".join(
                [chunks[line[k : k + CHUNK_MODULES]] for k, chunks in _CHUNKS[: -(-width // 8)]]
            )
        parts.append(ops.replace("R", str(row + QUIET_ZONE_MODULES)))
    return "".join(parts)


CHUNK_MODULES = 8
"""Modules per chunk of a row in :func:`_module_path`."""
ROWS_KEPT = 65536
"""Rows whose operators :data:`_ROWS` keeps before it starts again (a few MB at most)."""


class _ChunkOperators(dict[bytes, str]):
    """``chunk bytes -> 're' operators`` of the dark runs of a chunk whose first module is
    in column ``column``, the row left as ``R``; an entry is made the first time it is
    asked for."""

    def __init__(self, column: int) -> None:
        super().__init__()
        self.column = column

    def __missing__(self, chunk: bytes) -> str:
        ops = "".join(
            f"{m.start() + self.column + QUIET_ZONE_MODULES} R {m.end() - m.start()} 1 re "
            for m in _RUN.finditer(chunk)
        )
        self[chunk] = ops
        return ops


_CHUNKS = [(k, _ChunkOperators(k)) for k in range(0, 177, CHUNK_MODULES)]
"""(first column, its chunk operators) for every chunk position of the largest symbol
(version 40, 177 modules)."""
_ROWS: dict[bytes, str] = {}
"""A row's modules (finders blanked) -> its operators, the row left as ``R``."""


class Prefetch:
    """Encode QR codes in a background thread ahead of the drawing (a context manager).

    The thread encodes the first :data:`CACHE_SIZE` distinct ``data`` in order, in batches
    (:func:`encode_batch`) that grow from 8 to 256 codes. :func:`qr_matrix` takes a code
    from it, waiting if its batch is still being encoded: with a free core the encoding
    overlaps the drawing; without one the drawing waits as long as it would have taken to
    encode the code itself, and no code is encoded twice. A code the thread could not
    encode (too long) is encoded by :func:`qr_matrix`, which reports it. Leaving the
    ``with`` block stops the thread after its current batch and waits for it. Nothing
    happens without libqrencode's batch functions.

    Args:
        data: the codes' contents, in drawing order (duplicates are fine).
    """

    def __init__(self, data: Iterable[str]) -> None:
        self._data = list(dict.fromkeys(data))[:CACHE_SIZE]
        self._ready: dict[str, Matrix] = {}
        self._pending = set(self._data)
        self._changed = threading.Condition()
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="qr-prefetch", daemon=True)

    def _run(self) -> None:
        try:
            start, size = 0, 8
            while start < len(self._data) and not self._stop:
                chunk = self._data[start : start + size]
                matrices = encode_batch(chunk)
                if matrices is None:
                    return
                with self._changed:
                    self._ready.update(zip(chunk, matrices, strict=True))
                    self._pending.difference_update(chunk)
                    self._changed.notify_all()
                start, size = start + size, min(size * 2, 256)
        finally:
            with self._changed:
                self._pending.clear()
                self._changed.notify_all()

    def take(self, item: str) -> Matrix | None:
        """The matrix of ``item`` once its batch is encoded (None if the thread did not
        encode it); each matrix is handed out once."""
        with self._changed:
            while item in self._pending:
                self._changed.wait()
            return self._ready.pop(item, None)

    def __enter__(self) -> Prefetch:
        if self._data and _batch_api() is not None:
            for item in self._data:
                _scheduled[item] = self
            self._thread.start()
        else:
            self._pending.clear()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._stop = True
        if self._thread.is_alive():
            self._thread.join()
        for item in self._data:
            if _scheduled.get(item) is self:
                del _scheduled[item]
