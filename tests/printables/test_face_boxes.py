"""What a card shows, read back from the PDF: no two text runs or symbols overlap, none
crosses the 3 mm safe margin, and no text is under 6 pt - on every card of the demo decks at
every card size and on Hypothesis decks of the longest names, four icons and every stat at its
maximum. Where a card cannot hold its content, it is named in a warning or an error.

Text: pypdfium2's tight glyph boxes and font sizes, grouped into words. Symbols: every icon
and QR code form XObject placed on the page (pypdf's content stream walk, with the CTM through
nested forms), its BBox on the page. Both are independent of the boxes the renderer records
(:mod:`printables.facebox`)."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards.deck import card_url, parse_deck_text
from games.pocketmodel.state import GREEN_ICONS, SILVER_ICONS
from games.registry import CARD_GAMES
from printables.deckfile import read_deck
from printables.duplex import Duplex
from printables.icons import FORM_SIZE
from printables.layout import CARD_SIZES, CardSize, Rect
from printables.painter import SAFE_MARGIN
from printables.render import RenderError, RenderOptions, render_deck

MM = 72 / 25.4
TOLERANCE = 0.1
"""Overlap or margin crossing tolerated, mm (anti-aliasing width at 300 dpi is 0.08 mm)."""
MIN_PT = 6.0
DEMOS = ("pocketmodel", "transformers", "toy-battle")
SIZES = tuple(CARD_SIZES)


@dataclass(frozen=True)
class Drawn:
    what: str
    rect: Rect


def _box(m: list[float], x0: float, y0: float, x1: float, y1: float) -> Rect:
    xs, ys = [], []
    for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
        xs.append(m[0] * x + m[2] * y + m[4])
        ys.append(m[1] * x + m[3] * y + m[5])
    return Rect(
        x=min(xs) / MM,
        y=min(ys) / MM,
        width=(max(xs) - min(xs)) / MM,
        height=(max(ys) - min(ys)) / MM,
    )


def symbols(page: pypdf.PageObject, page_content) -> list[Drawn]:
    """Icons and QR codes on ``page``: the page box of every icon/QR form placed (mm)."""
    found: list[Drawn] = []
    for name, full in page_content(page).form_matrices:
        icon = re.search(r"icon-([a-z]+)-", name)
        qr = re.search(r"qrfinders(\d+)", name)
        if icon:
            found.append(Drawn(f"symbol {icon.group(1)}", _box(full, 0, 0, FORM_SIZE, FORM_SIZE)))
        elif qr:
            n = int(qr.group(1))
            found.append(Drawn("QR code", _box(full, 0, 0, n, n)))
    return found


def words(page: pdfium.PdfPage) -> list[tuple[Drawn, float]]:
    """Words on ``page`` with their tight glyph box (mm) and font size (pt)."""
    text = page.get_textpage()
    out: list[tuple[Drawn, float]] = []
    current: list[tuple[str, tuple[float, float, float, float], float]] = []

    def flush() -> None:
        if current:
            chars = "".join(ch for ch, _, _ in current)
            left = min(b[0] for _, b, _ in current)
            bottom = min(b[1] for _, b, _ in current)
            right = max(b[2] for _, b, _ in current)
            top = max(b[3] for _, b, _ in current)
            rect = Rect(
                x=left / MM, y=bottom / MM, width=(right - left) / MM, height=(top - bottom) / MM
            )
            out.append((Drawn(f"text {chars!r}", rect), min(s for _, _, s in current)))
            current.clear()

    for index in range(text.count_chars()):
        ch = text.get_text_range(index, 1)
        if not ch.strip():
            flush()
            continue
        box = text.get_charbox(index, loose=False)
        size = pdfium_c.FPDFText_GetFontSize(text.raw, index)
        if current:
            last = current[-1][1]
            same_line = abs(box[1] - last[1]) < 3 or abs(box[3] - last[3]) < 3
            if not same_line or box[0] < last[0] - 0.5 or box[0] - last[2] > 1.5:
                flush()
        current.append((ch, box, size))
    flush()
    return out


@dataclass(frozen=True)
class CardRead:
    name: str
    problems: list[str]
    smallest: float


def read_cards(pdf: Path, result, page_content) -> list[CardRead]:
    """Every front placement of ``result``: what overlaps or crosses its safe margin, and its
    smallest text size."""
    document = pdfium.PdfDocument(str(pdf))
    reader = pypdf.PdfReader(pdf)
    seen: set[tuple[str, str]] = set()
    cards: list[CardRead] = []
    for number, page in enumerate(reader.pages, start=1):
        placed = [
            p
            for p in result.placements
            if p.page == number
            and p.file == 0
            and p.side != "back"
            and (p.card_id, p.side) not in seen  # copies of a card draw the same face
        ]
        seen.update((p.card_id, p.side) for p in placed)
        if not placed:
            continue
        drawn = [(d, None) for d in symbols(page, page_content)] + words(document[number - 1])
        for placement in placed:
            trim = placement.trim
            inside = [
                (d, size)
                for d, size in drawn
                if trim.x < d.rect.x + d.rect.width / 2 < trim.right
                and trim.y < d.rect.y + d.rect.height / 2 < trim.top
            ]
            safe = trim.inset(SAFE_MARGIN)
            problems = []
            for d, _ in inside:
                out = max(
                    safe.x - d.rect.x,
                    safe.y - d.rect.y,
                    d.rect.right - safe.right,
                    d.rect.top - safe.top,
                )
                if out > TOLERANCE:
                    problems.append(f"{d.what} {out:.2f} mm into the safe margin")
            for (a, _), (b, _) in itertools.combinations(inside, 2):
                dx = min(a.rect.right, b.rect.right) - max(a.rect.x, b.rect.x)
                dy = min(a.rect.top, b.rect.top) - max(a.rect.y, b.rect.y)
                if dx > TOLERANCE and dy > TOLERANCE:
                    problems.append(f"{a.what} overlaps {b.what} ({dx:.2f} x {dy:.2f} mm)")
            sizes = [size for _, size in inside if size is not None]
            cards.append(CardRead(placement.card_id, problems, min(sizes, default=99.0)))
    document.close()
    return cards


def render(deck, tmp_path: Path, size: str | None, base_dir: Path = Path(".")):
    """(pdf, result) or the RenderError."""
    card_size = (
        CardSize(width=CARD_SIZES[size][0], height=CARD_SIZES[size][1], name=size) if size else None
    )
    options = RenderOptions(
        paper="a3", duplex=Duplex.NONE, card_size=card_size, character_size=card_size
    )
    out = tmp_path / f"boxes-{size}.pdf"
    try:
        return out, render_deck(deck, options, out, base_dir=base_dir)
    except RenderError as exc:
        return exc


def assert_faces(
    deck, tmp_path: Path, size: str | None, page_content, base_dir: Path = Path(".")
) -> tuple[list[CardRead], list[str]]:
    """Assert that rendering ``deck`` names its problems: every card the PDF shows overlapping, crossing the safe margin or
    under 6 pt must be named in a warning; a RenderError must name cards and say what does not
    fit. Returns (cards read, warnings)."""
    rendered = render(deck, tmp_path, size, base_dir)
    if isinstance(rendered, RenderError):
        assert rendered.problems
        for problem in rendered.problems:
            assert problem.card and "does not fit" in problem.reason or "glyph" in problem.reason, (
                problem
            )
        return [], []
    pdf, result = rendered
    cards = read_cards(pdf, result, page_content)
    by_id = {card.id: card.name for card in deck.cards}
    named = {w.split("'")[1] for w in result.warnings if w.startswith("card '")}
    for card in cards:
        assert card.smallest >= MIN_PT - 0.01, (card.name, size, card.smallest)
        if card.problems:
            assert by_id[card.name] in named, (size, card.name, card.problems)
    return cards, list(result.warnings)


@pytest.mark.slow
@pytest.mark.parametrize("size", (None, *SIZES))
@pytest.mark.parametrize("demo", DEMOS)
def test_demo_decks_at_every_size_overlap_nowhere_or_name_the_card(
    tmp_path: Path, page_content, demo: str, size: str | None
) -> None:
    loaded = read_deck(f"demo:{demo}")
    cards, warnings = assert_faces(loaded.deck, tmp_path, size, page_content, loaded.base_dir)
    if size is None:  # the default sizes: all clean, nothing under 6 pt, no warning
        assert cards, "the demo deck prints at its default sizes"
        assert warnings == []
        assert [c for c in cards if c.problems] == []


def test_a_four_icon_unit_at_tcg_size_is_clean(tmp_path: Path, page_content) -> None:
    deck = parse_deck_text(
        "game: pocketmodel\ncards:\n"
        "  - {kind: unit, name: Heavy Carrier Sovereign, stars: 5, attack: 9, damage: 9,"
        " defense: 20, shields: 20, icons: Turbolaser Carrier Leader Torpedo,"
        ' text: "Carrier power: deploy reserve units worth up to 3 stars here."}\n'
        "  - {kind: unit, name: Turbolaser Carrier Leader, stars: 5, attack: 9, damage: 9,"
        " defense: 20, shields: 20, ground: yes, icons: Turbolaser Carrier Leader Torpedo}\n",
        games=CARD_GAMES,
        source="four.yaml",
    )
    cards, warnings = assert_faces(deck, tmp_path, "tcg", page_content)
    assert len(cards) == 2
    assert warnings == []
    assert [c.problems for c in cards] == [[], []]
    assert min(c.smallest for c in cards) >= MIN_PT - 0.01


WIDE = st.text(alphabet="WMQ@ÄÖwmg ", min_size=1, max_size=40)
"""Names of the widest letters (and the deepest and tallest), up to the 40-character limit."""
ICONS = st.lists(st.sampled_from(GREEN_ICONS + SILVER_ICONS), min_size=4, max_size=4, unique=True)


@st.composite
def hostile_decks(draw):
    """A deck of each kind with the longest names, four icons and every stat at its maximum."""
    name = " ".join(draw(WIDE).split()) or "W"
    icons = " ".join(draw(ICONS))
    game = draw(st.sampled_from(("pocketmodel", "transformers", "toy-battle")))
    n = f'"{name}"'
    if game == "pocketmodel":
        cards = [
            f"{{kind: unit, name: {n}, stars: 5, attack: 9, damage: 9, defense: 20, shields: 20,"
            f" ground: yes, icons: {icons}}}",
            f"{{kind: combat, name: {n}, stars: 5, defense: 20, bonus_attack: 9, bonus_damage: 9,"
            " bonus_defense: 9, icons: Luck Force Leader, text: Go.}",
            f"{{kind: objective, name: {n}, stars: 5, defense: 20, text: Go.}}",
        ]
    elif game == "transformers":
        cards = [
            f"{{kind: character, name: {n}, faction: Decepticon, stars: 25, health: 30,"
            " alt_attack: 20, alt_defense: 20, bot_attack: 20, bot_defense: 20}",
            f"{{kind: upgrade, name: {n}, upgrade: weapon, stars: 5, icons: orange white, text: Go.}}",
            f"{{kind: action, name: {n}, stars: 5, icons: black green, text: Go.}}",
        ]
    else:
        cards = [
            f"{{troop: Kwak, name: {n}, colour: red}}",
            f"{{troop: Roxy, name: {n}, colour: blue}}",
        ]
    cards = [card.replace("{", f"{{id: c{i}, ", 1) for i, card in enumerate(cards)]
    text = f"game: {game}\ncards:\n" + "".join(f"  - {card}\n" for card in cards)
    return parse_deck_text(text, games=CARD_GAMES, source="hostile.yaml"), draw(
        st.sampled_from(SIZES)
    )


@pytest.mark.slow
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=hostile_decks())
def test_hostile_decks_overlap_nowhere_or_name_the_card(tmp_path: Path, page_content, case) -> None:
    deck, size = case
    assert_faces(deck, tmp_path, size, page_content)


def test_the_qr_codes_own_problems_are_reported_for_every_card_of_its_design(
    tmp_path: Path,
) -> None:
    """The QR code's safe-margin and overlap checks run once per design, and their findings
    are reported for each card drawn with it: on a 20 x 30 mm card the 14.8 mm QR code
    (37 modules of 0.4 mm) cannot keep out of the 3 mm safe margin."""
    from reportlab.pdfgen.canvas import Canvas

    from printables.faces import face_content, standard_face
    from printables.fonts import register_fonts
    from printables.painter import Painter

    register_fonts()
    card = read_deck("demo:pocketmodel").deck.cards[0]
    url = card_url("http://tablesmith.local:8765", "pocketmodel", "demo-fleet", card.id)
    canvas = Canvas(str(tmp_path / "small.pdf"))
    warnings: list[str] = []
    for name in ("first copy", "second copy"):
        painter = Painter(
            canvas=canvas,
            trim=Rect(x=10, y=10, width=20, height=30),
            bleed=0.0,
            card_name=name,
            problems=[],
            warnings=warnings,
        )
        standard_face(painter, face_content(card), qr_url=url)
    qr = [line for line in warnings if "QR code reaches" in line]
    assert [line.split("'")[1] for line in qr] == ["first copy", "second copy"]
    assert all("into the 3 mm safe margin" in line for line in qr)
