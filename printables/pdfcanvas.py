"""A ReportLab canvas whose finished pages are compressed on a worker thread.

ReportLab compresses every page's content stream when the document is saved, one after the
other, in the thread that draws. :class:`BackgroundCanvas` hands each page's stream to a
worker thread as soon as the page is finished (``showPage``), so on a machine with a free
core the compression overlaps the drawing of the next pages: ``zlib`` releases Python's
global interpreter lock while it works. A sheet of QR codes is mostly their rectangles, a
few megabytes of page content for a thousand cards, so this is a real share of a deck's
render time (``benchmarks/cards_bench.py``).

The file is the one ReportLab writes by itself, byte for byte: the same ``zlib.compress``
at its default level, the same ``/Filter [ /FlateDecode ]`` stream dictionary, in the
same place (the tests compare the two). Where ReportLab would not compress a page (page
compression off, or ASCII85 on), the page is left to ReportLab. What is copied is
``PDFPage.check_format``'s handling of a page's stream (with ``PDFStream`` and its Flate
filter): ``tests/printables/test_pdfcanvas.py`` pins those functions' code for the ReportLab
versions pyproject and the lock allow (4.0 to 5.1 have the same) and fails, naming them, when
an upgrade changes them.

Every page also gets a TrimBox and a BleedBox (:class:`BoxedCanvas`, :mod:`printables.pageboxes`):
the ones set with :meth:`BoxedCanvas.set_page_boxes` for that page, else the whole page.
"""

from __future__ import annotations

import os
import zlib
from concurrent.futures import Future, ThreadPoolExecutor
from functools import cache
from typing import Any

from reportlab import rl_config
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream
from reportlab.pdfgen.canvas import Canvas

from printables.geometry import Rect
from printables.units import MM


@cache
def _worker() -> ThreadPoolExecutor:
    """The one compression thread of the process (made on first use). A forked child has
    none of its parent's threads, so it makes its own (the fork hook below forgets the
    parent's executor, whose queue no thread would ever empty)."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="pdf-compress")


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_worker.cache_clear)


class _CompressedStream(PDFStream):  # type: ignore[misc] # ReportLab has no type hints
    """A page's content stream whose Flate-compressed bytes a worker thread makes; the
    document's ``format`` waits for them."""

    __Comment__ = "page stream"
    content: bytes | None

    def __init__(self, compressed: Future[bytes]) -> None:
        super().__init__(PDFDictionary({"Filter": PDFArray([PDFName("FlateDecode")])}))
        self._compressed = compressed

    def format(self, document: Any) -> bytes:
        """The stream object's bytes (PDF 32000-1, 7.3.8), once the compression is done.

        Raises:
            whatever ``zlib.compress`` raised on the worker thread (MemoryError).
        """
        if self.content is None:
            self.content = self._compressed.result()
        result: bytes = super().format(document)
        return result


class BoxedCanvas(Canvas):  # type: ignore[misc] # ReportLab has no type hints
    """A ReportLab :class:`~reportlab.pdfgen.canvas.Canvas` (same arguments) that gives every
    page a TrimBox and a BleedBox (PDF 32000-1, 14.11.2); everything else is ReportLab's."""

    _page_boxes: tuple[Rect, Rect] | None = None

    def set_page_boxes(self, *, trim: Rect, bleed: Rect) -> None:
        """The TrimBox and BleedBox of the page being drawn, in mm in the page frame (origin
        bottom-left, y up; written in pt, to 0.0001 pt). They hold for this page only: a page
        without them gets the whole page as both."""
        self._page_boxes = (trim, bleed)

    def showPage(self) -> None:  # noqa: N802 - ReportLab's name
        """Finish the page as ReportLab does, with its TrimBox and BleedBox."""
        width, height = self._pagesize
        paper = Rect(x=0.0, y=0.0, width=width / MM, height=height / MM)
        trim, bleed = self._page_boxes or (paper, paper)
        self._page_boxes = None
        for name, box in (("trim", trim), ("bleed", bleed)):
            self.setCropBox(
                tuple(round(v * MM, 4) for v in (box.x, box.y, box.right, box.top)), name=name
            )
        super().showPage()


class BackgroundCanvas(BoxedCanvas):
    """A :class:`BoxedCanvas` (same arguments) that compresses each finished page's content
    stream on a worker thread (see the module docstring)."""

    def showPage(self) -> None:  # noqa: N802 - ReportLab's name
        """Finish the page as :class:`BoxedCanvas` does, then start compressing its content
        stream."""
        super().showPage()
        page = self._doc.Pages.pages[-1]
        stream = page.stream
        if not (page.compression and stream) or rl_config.useA85 or page.Contents:
            return
        data = stream.encode("utf8") if isinstance(stream, str) else stream
        page.Contents = _CompressedStream(_worker().submit(zlib.compress, data))
