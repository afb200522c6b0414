"""Pages compressed on a worker thread: the same file as the canvas writes without the thread."""

from __future__ import annotations

import os
import signal
import zlib
from pathlib import Path

import pypdf
import pytest

from printables import pdfcanvas
from printables.deckfile import read_deck
from printables.render import RenderOptions, render_deck


def _render(name: str, out: Path) -> bytes:
    loaded = read_deck(f"demo:{name}")
    render_deck(loaded.deck, RenderOptions(), out, base_dir=loaded.base_dir)
    return out.read_bytes()


@pytest.mark.parametrize("name", ["pocketmodel", "transformers"])
def test_a_deck_is_byte_for_byte_the_file_reportlab_writes_by_itself(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours = _render(name, tmp_path / "ours.pdf")
    monkeypatch.setattr(pdfcanvas.BackgroundCanvas, "showPage", pdfcanvas.BoxedCanvas.showPage)
    plain = _render(name, tmp_path / "plain.pdf")
    assert ours == plain
    pages = pypdf.PdfReader(tmp_path / "ours.pdf").pages
    assert len(pages) >= 4
    for page in pages:  # every page stream Flate-compressed once, and it decodes
        stream = page["/Contents"].get_object()
        assert stream["/Filter"] == ["/FlateDecode"]
        assert b"Do" in zlib.decompress(stream._data)


def test_a_page_reportlab_would_not_compress_is_left_to_it(tmp_path: Path) -> None:
    c = pdfcanvas.BackgroundCanvas(str(tmp_path / "raw.pdf"), pageCompression=0, invariant=True)
    c.drawString(100, 100, "plain text stays plain")
    c.showPage()
    c.save()
    raw = (tmp_path / "raw.pdf").read_bytes()
    assert b"(plain text stays plain) Tj" in raw
    assert b"/FlateDecode" not in raw


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork (POSIX)")
def test_a_process_forked_after_a_render_renders_too(tmp_path: Path) -> None:
    """A child forked after the parent used the compression thread has no such thread: it
    must make its own, not wait for ever on the parent's queue."""
    _render("toy-battle", tmp_path / "parent.pdf")
    pid = os.fork()
    if pid == 0:  # the child: exit 0 only if its render completes within the alarm
        signal.alarm(30)
        try:
            _render("pocketmodel", tmp_path / "child.pdf")
        finally:
            os._exit(0 if (tmp_path / "child.pdf").is_file() else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert pypdf.PdfReader(tmp_path / "child.pdf").pages
