"""Pages compressed on a worker thread: the same file as the canvas writes without the thread."""

from __future__ import annotations

import ast
import hashlib
import os
import re
import signal
import zlib
from pathlib import Path

import pypdf
import pytest
import reportlab

from printables import pdfcanvas
from printables.deckfile import read_deck
from printables.render import RenderOptions, render_deck

ROOT = Path(__file__).resolve().parents[2]


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


# ------------------------------------------------------- the ReportLab internals we follow

FOLLOWED = {
    "pdfbase/pdfdoc.py": {
        "PDFPage.check_format": "189e6ff2d83804e0",
        "PDFStreamFilterZCompress.encode": "066b1bbd82b61aff",
        "PDFStream.__init__": "8ff33cc25f5ed9d8",
        "PDFStream.format": "0c48949ba67ca96a",
        "PDFPages.addPage": "3e02b9c9390a1f8c",
    },
    "pdfgen/canvas.py": {"Canvas.showPage": "fa173c5f0a490462"},
}
"""The ReportLab functions whose behaviour printables/pdfcanvas.py repeats (how a finished
page's stream becomes its compressed ``/Contents``: ``zlib.compress`` at its default level,
``/Filter [ /FlateDecode ]``, the ``page stream`` comment) -> the first 16 hex digits of the
SHA-256 of their ``ast.unparse`` (code only: comments and layout do not count)."""
VERIFIED = ("4.0.0", "4.4.4", "5.1.0")
"""ReportLab versions whose functions in :data:`FOLLOWED` have these digests (read from their
wheels): pyproject's lowest allowed (4.0), the last 4.x and the lock's."""


def followed_digests(root: Path) -> dict[str, dict[str, str]]:
    """:data:`FOLLOWED`'s digests as the ReportLab package in ``root`` has them."""
    found: dict[str, dict[str, str]] = {}
    for module, names in FOLLOWED.items():
        tree = ast.parse((root / module).read_text(encoding="utf-8"))
        digests = {
            f"{cls.name}.{f.name}": hashlib.sha256(ast.unparse(f).encode()).hexdigest()[:16]
            for cls in tree.body
            if isinstance(cls, ast.ClassDef)
            for f in cls.body
            if isinstance(f, ast.FunctionDef) and f"{cls.name}.{f.name}" in names
        }
        found[module] = digests
    return found


def test_the_reportlab_internals_the_page_compression_copies_are_unchanged() -> None:
    """Issue 28: pdfcanvas.py copies what ReportLab does when it writes a page's stream; an
    upgrade that changes that must fail here, not silently write other PDFs."""
    root = Path(reportlab.__file__).parent
    found = followed_digests(root)
    changed = [
        f"{module}: {name}"
        for module, names in FOLLOWED.items()
        for name, digest in names.items()
        if found[module].get(name) != digest
    ]
    assert changed == [], (
        f"ReportLab {reportlab.Version} changed {changed}: printables/pdfcanvas.py repeats what "
        "these do with a finished page's stream. Compare the copy with them, make "
        "test_a_deck_is_byte_for_byte_the_file_reportlab_writes_by_itself pass, then record "
        "the new digests in FOLLOWED and the version in VERIFIED."
    )


def test_the_lock_and_pyproject_allow_only_verified_reportlab_versions() -> None:
    locked = {
        match
        for path in sorted((ROOT / "requirements").glob("*.txt"))
        for match in re.findall(r"^reportlab==([\d.]+)", path.read_text(encoding="utf-8"), re.M)
    }
    assert locked, "no requirements/*.txt pins reportlab"
    assert locked <= set(VERIFIED), f"lock pins {sorted(locked)}, verified {VERIFIED}"
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    lowest = re.search(r'"reportlab>=([\d.]+)"', pyproject)
    assert lowest is not None, "pyproject.toml gives no lowest reportlab"
    parts = (lowest.group(1).split(".") + ["0", "0"])[:3]
    assert ".".join(parts) in VERIFIED, f"pyproject allows reportlab>={lowest.group(1)}"
