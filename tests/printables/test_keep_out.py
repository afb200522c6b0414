"""Nothing of the sheet furniture near a registration mark: the heading, the ruler and the note
are read back from each page's content (text positions and sizes, drawn lines) and kept
5 mm clear of every mark (Silhouette Type 1, the four-mark CAMEO 5) and of Design Space's
Print Then Cut area (Cricut), on A4 and Letter; the heading is never set below 6 pt."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from printables.deckfile import read_deck
from printables.fonts import REGULAR, register_fonts
from printables.furniture import MIN_TEXT_SIZE, fit_lines
from printables.geometry import Rect
from printables.layout import SheetLayout
from printables.regmarks import CRICUT_AREA
from printables.render import RenderOptions, render_deck
from tests.printables.conftest import then

MM = 72 / 25.4
CLEAR = 5.0  # mm of blank paper around every mark


def furniture(page: pypdf.PageObject) -> tuple[list[tuple[str, Rect, float]], list[Rect]]:
    """The texts (text, box in mm, size in pt) and line boxes (mm) drawn on ``page``, in page
    coordinates: texts anywhere, lines on the page and in the furniture form (the ruler),
    not in the card designs' forms (their clipped art patterns)."""
    texts: list[tuple[str, Rect, float]] = []
    lines: list[Rect] = []
    outer = [[1.0, 0.0, 0.0, 1.0, 0.0, 0.0]]
    forms: list[str] = []
    start: list[tuple[float, float]] = []

    def point(cm: list[float], x: float, y: float) -> tuple[float, float]:
        m = then([float(v) for v in cm], outer[-1])
        return (m[0] * x + m[2] * y + m[4]) / MM, (m[1] * x + m[3] * y + m[5]) / MM

    def before(op: bytes, args: list, cm: list, tm: list) -> None:
        if op == b"m":
            start[:] = [point(cm, float(args[0]), float(args[1]))]
        elif op == b"l" and start and all(".furniture" in f for f in forms):
            (x0, y0), (x1, y1) = start[0], point(cm, float(args[0]), float(args[1]))
            lines.append(
                Rect(x=min(x0, x1), y=min(y0, y1), width=abs(x1 - x0), height=abs(y1 - y0))
            )
        elif op == b"Do":
            outer.append(then([float(v) for v in cm], outer[-1]))
            forms.append(str(args[0]))

    def after(op: bytes, args: list, cm: list, tm: list) -> None:
        if op == b"Do":
            outer.pop()
            forms.pop()

    def on_text(text: str, cm: list, tm: list, font: object, size: float) -> None:
        text = text.strip()
        if text:
            full = then(then([float(v) for v in tm], [float(v) for v in cm]), outer[-1])
            pt = size * (full[0] ** 2 + full[1] ** 2) ** 0.5
            x, y = full[4] / MM, full[5] / MM
            width = stringWidth(text, REGULAR, pt) / MM
            box = Rect(x=x, y=y - 0.24 * pt / MM, width=width, height=pt / MM)
            texts.append((text, box, pt))

    page.extract_text(
        visitor_operand_before=before, visitor_operand_after=after, visitor_text=on_text
    )
    return texts, lines


def zones(layout: SheetLayout) -> list[Rect]:
    """Every registration mark's box, or Design Space's area, grown by :data:`CLEAR`."""
    if layout.spec.cutter == "cricut":
        w, h = CRICUT_AREA if layout.page_height > layout.page_width else CRICUT_AREA[::-1]
        x, y = (layout.page_width - w) / 2, (layout.page_height - h) / 2
        return [Rect(x=x, y=y, width=w, height=h).inset(-CLEAR)]
    assert layout.registration
    return [mark.inset(-CLEAR) for mark in layout.registration]


def overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.top and b.y < a.top


@pytest.fixture(scope="module")
def long_name(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("keep-out") / ("a-very-long-deck-file-name-" * 6 + "end.pdf")


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("cutter", ["silhouette", "silhouette-4", "cricut"])
def test_no_furniture_within_5_mm_of_a_registration_mark(
    cutter: str, paper: str, long_name: Path
) -> None:
    register_fonts()
    loaded = read_deck("demo:transformers")
    out = long_name.with_name(f"{cutter}-{paper}-{long_name.name}")
    options = RenderOptions(paper=paper, cutter=cutter, qr=False)
    result = render_deck(loaded.deck, options, out, base_dir=loaded.base_dir)
    reader = pypdf.PdfReader(out)
    checked = 0
    firsts = {}  # the first front and back page of each card size
    for p in result.placements:
        key = (p.trim.width, p.trim.height, p.side == "back")
        firsts[key] = min(firsts.get(key, p.page), p.page)
    for number in sorted(firsts.values()):
        placed = [p for p in result.placements if p.file == 0 and p.page == number]
        front = placed[0].side != "back"  # back pages have a heading only
        layout = next(
            lay
            for lay in result.layouts
            if (lay.spec.card.width, lay.spec.card.height)
            == (placed[0].trim.width, placed[0].trim.height)
        )
        cards = [slot.bleed for slot in layout.slots]  # faces, not furniture
        texts, lines = furniture(reader.pages[number - 1])
        found = [(t, box, pt) for t, box, pt in texts if not any(overlaps(box, c) for c in cards)]
        ruler = [box for box in lines if not any(overlaps(box.inset(-0.01), c) for c in cards)]
        assert all(abs(box.y - layout.ruler.y) < 0.01 for box in ruler)  # only the ruler
        assert any(t.startswith("Print at 100 %") for t, _, _ in found) == front
        assert (len(ruler) >= 51) == front  # the base line and a tick every mm
        for zone in zones(layout):
            for text, box, _ in found:
                assert not overlaps(box, zone), (number, text, box, zone)
            for box in ruler:
                assert not overlaps(box, zone), (number, box, zone)
        for text, _, pt in found:
            assert pt >= MIN_TEXT_SIZE - 1e-6, (text, pt)
        heading = " ".join(t for t, _, _ in found if not t.startswith(("Print at", "this ruler")))
        if front:  # the cut file's long name shortened, its end kept
            assert "…" in heading and "-cut" in heading and ".svg" in heading, heading
        checked += 1
    assert checked == 4  # fronts and backs of characters and of standard cards


def test_a_heading_wraps_then_shortens_and_never_goes_below_6_pt() -> None:
    register_fonts()
    box = Rect(x=0, y=0, width=60, height=10)  # 60 mm: 3 lines of 6 pt
    parts = ["Deck title (Game)", "sheet 1/3 fronts", "63 x 88 mm", "a4", "cut file x-cut.svg"]
    short = fit_lines(parts[:2], box)
    assert short.size == 6.5 and short.lines == ("Deck title (Game) · sheet 1/3 fronts",)
    wrapped = fit_lines(parts, box)
    assert wrapped.size == 6.0 and len(wrapped.lines) == 2
    assert " · ".join(wrapped.lines) == " · ".join(parts)
    long = [*parts[:-1], "cut file " + "very-long-name-" * 30 + "cut.svg"]
    fitted = fit_lines(long, box)
    assert fitted.size == 6.0 and len(fitted.lines) <= 3
    assert fitted.lines[0].startswith("Deck title (Game) · sheet 1/3 fronts")
    assert "…" in fitted.lines[-1] and fitted.lines[-1].endswith("cut.svg")
    for line in fitted.lines:
        assert stringWidth(line, REGULAR, 6.0) / MM <= 60 + 1e-6
    one_line = fit_lines(long, Rect(x=0, y=0, width=120, height=3))
    assert len(one_line.lines) == 1 and one_line.lines[0].endswith("cut.svg")
    assert one_line.lines[0].startswith("Deck title (Game) · sheet 1/3 fronts")
    with pytest.raises(ValueError, match="never below 6 pt"):
        fit_lines(parts, box, sizes=(5.0,))
