"""The produced PDF, read back with pypdf / pypdfium2 / zbarimg."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pypdf
import pytest

from games.cards.deck import card_url
from games.registry import CARD_GAMES
from printables.deckfile import demo_names, read_deck
from printables.duplex import BackAdjust, Duplex
from printables.layout import parse_card_size
from printables.render import RenderError, RenderOptions, render_deck

PT = 72 / 25.4


def render(name: str, tmp_path: Path, **options) -> tuple[Path, object]:
    loaded = read_deck(f"demo:{name}")
    out = tmp_path / f"{name}.pdf"
    result = render_deck(loaded.deck, RenderOptions(**options), out, base_dir=loaded.base_dir)
    return out, result


def test_demo_decks_are_legal_pm5_tf3_tb1() -> None:
    assert demo_names() == [
        "pocketmodel",
        "pocketmodel-corsairs",
        "toy-battle",
        "transformers",
        "transformers-decepticons",
    ]
    counts = {}
    for name in demo_names():
        deck = read_deck(f"demo:{name}").deck
        assert deck.legality_problems() == [], name
        counts[name] = deck.card_count
    assert counts == {
        "pocketmodel": 39,
        "pocketmodel-corsairs": 41,
        "toy-battle": 48,
        "transformers": 45,
        "transformers-decepticons": 45,
    }


@pytest.mark.parametrize(
    ("paper", "landscape", "size_pt"),
    [
        ("a4", False, (595.276, 841.890)),
        ("letter", False, (612.0, 792.0)),
        ("a3", True, (1190.551, 841.890)),
    ],
)
def test_every_page_has_the_paper_size(
    tmp_path: Path, paper: str, landscape: bool, size_pt: tuple[float, float]
) -> None:
    out, result = render("toy-battle", tmp_path, paper=paper, landscape=landscape)
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == result.pages[0]
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(size_pt[0], abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(size_pt[1], abs=0.01)


def test_page_counts_viewer_preferences_and_embedded_font(tmp_path: Path) -> None:
    out, _ = render("pocketmodel", tmp_path)
    reader = pypdf.PdfReader(out)
    # 39 cards, 9 per A4 sheet -> 5 sheets, each front + back.
    assert len(reader.pages) == 10
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None" and prefs["/Duplex"] == "/DuplexFlipLongEdge"
    fonts = reader.pages[0]["/Resources"]["/Font"]
    names = {str(f.get_object()["/BaseFont"]) for f in fonts.values()}
    assert any("DejaVuSans" in n for n in names)
    for ref in fonts.values():
        font = ref.get_object()
        descriptor = (
            font.get("/FontDescriptor")
            or font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
        )
        assert "/FontFile2" in descriptor.get_object()  # embedded TrueType


def test_card_names_sit_in_their_slots(tmp_path: Path, page_content) -> None:
    out, result = render("pocketmodel", tmp_path)
    page = page_content(pypdf.PdfReader(out).pages[0])
    layout = result.layouts[0]
    deck = read_deck("demo:pocketmodel").deck
    for slot, card in zip(layout.slots, deck.cards[:9], strict=True):
        ((x, y),) = page.text_at(card.name)
        # The title starts right of the top-left badge (11.2 mm wide) in the header band.
        assert slot.trim.x + 14 < x < slot.trim.x + 17
        assert slot.trim.top - 10 < y < slot.trim.top - 7
        # The badge holds the number a fanned hand needs: a unit's star cost (PM-1), a
        # combat card's bonus (PM-3), big and in the top-left corner.
        badge = "+3" if card.name == "Evasive Roll" else str(card.stars)
        assert any(
            t == badge and slot.trim.x + 3 < bx < slot.trim.x + 14 and slot.trim.top - 12 < by
            for t, bx, by in page.texts
        ), card.name
    texts = [t for t, _, _ in page.texts]
    assert "Print at 100 % (actual size, no fit-to-page): this ruler must measure 50 mm." in texts
    # Every stat of unit 1 (Halo Frigate: 4 / 3 / 11 / 6, PM-1) and the objective corner of
    # card 9 (Evasive Roll: defense 6, combat bonus +3 Defense, PM-3) are on the page; icons
    # carry their words (the legend).
    assert texts.count("ATTACK") == 8 and texts.count("SHIELDS") == 8
    assert {
        "4",
        "3",
        "11",
        "6",
        "+3",
        "DEF",
        "GROUND",
        "Carrier",
        "Leader",
        "UNIT",
        "COMBAT",
    } <= set(texts)


def test_crop_marks_in_the_pdf_match_the_layout(tmp_path: Path, page_content) -> None:
    out, result = render("pocketmodel", tmp_path, bleed=2.0, gutter=1.0, paper="a3")
    page = page_content(pypdf.PdfReader(out).pages[0])
    layout = result.layouts[0]
    drawn = {tuple(round(v, 2) for v in line) for line in page.lines}
    for mark in layout.crop_marks:
        assert (round(mark.x0, 2), round(mark.y0, 2), round(mark.x1, 2), round(mark.y1, 2)) in drawn
    xs = {round(m.x0, 2) for m in layout.crop_marks if m.x0 == m.x1}
    assert round(layout.slots[0].trim.x, 2) in xs and round(layout.slots[0].bleed.x, 2) not in xs


@pytest.mark.parametrize(
    ("duplex", "landscape"),
    [
        (Duplex.LONG_EDGE, False),
        (Duplex.SHORT_EDGE, False),
        (Duplex.LONG_EDGE, True),
        (Duplex.SHORT_EDGE, True),
    ],
)
def test_bot_side_lands_behind_its_alt_side(
    tmp_path: Path, page_content, duplex: Duplex, landscape: bool
) -> None:
    out, result = render(
        "transformers",
        tmp_path,
        duplex=duplex,
        landscape=landscape,
        paper="a3" if landscape else "a4",
    )
    placements = [p for p in result.placements if p.page in (1, 2)]
    reader = pypdf.PdfReader(out)
    front, back = page_content(reader.pages[0]), page_content(reader.pages[1])
    width, height = (
        float(reader.pages[0].mediabox.width) / PT,
        float(reader.pages[0].mediabox.height) / PT,
    )
    # The back of each character holds its bot side, drawn with the same anatomy: the title
    # sits at the same place relative to the card box, and the back's card box is the front's
    # box mirrored about the duplex axis (so it lands behind it).
    names = ["Bulwark", "Quickstep", "Lanternfish"]
    checked = 0
    left_right = (duplex is Duplex.LONG_EDGE) != landscape
    for name in names:
        if not front.text_at(name):
            continue
        ((fx, fy),) = front.text_at(name)
        ((bx, by),) = back.text_at(name)
        fbox = [p.trim for p in placements if p.card_id == name.lower() and p.side == "front"][0]
        bbox = [p.trim for p in placements if p.card_id == name.lower() and p.side == "back"][0]
        assert (bx - bbox.x, by - bbox.y) == (
            pytest.approx(fx - fbox.x, abs=0.01),
            pytest.approx(fy - fbox.y, abs=0.01),
        )
        if left_right:
            assert bbox.y == pytest.approx(fbox.y) and bbox.right == pytest.approx(width - fbox.x)
        else:
            assert bbox.x == pytest.approx(fbox.x) and bbox.top == pytest.approx(height - fbox.y)
        checked += 1
    assert checked >= 1
    assert read_deck("demo:transformers").deck.cards[0].name == "Bulwark"


def test_generated_back_is_one_form_placed_behind_every_card(tmp_path: Path, page_content) -> None:
    adjust = BackAdjust(dx=1.5, dy=-0.75)
    out, result = render("pocketmodel", tmp_path, adjust=adjust)
    reader = pypdf.PdfReader(out)
    layout = result.layouts[0]
    back_forms = [f for f in page_content(reader.pages[1]).forms if ".back" in f[0]]
    assert len(back_forms) == 9 and len({name for name, _, _ in back_forms}) == 1
    spots = {(round(x, 3), round(y, 3)) for _, x, y in back_forms}
    expected = {
        (round(layout.page_width - s.trim.right + 1.5, 3), round(s.trim.y - 0.75, 3))
        for s in layout.slots
    }
    assert spots == expected
    raw = out.read_bytes()
    # one back design, embedded once (the fronts use frame, icon, pattern and text forms)
    assert len(set(re.findall(rb"/FormXob\.(back[0-9a-f]+)", raw))) == 1


def test_separate_backs_file(tmp_path: Path) -> None:
    _out, result = render("transformers", tmp_path, duplex=Duplex.SEPARATE)
    main, backs = result.files
    assert backs == tmp_path / "transformers-backs.pdf"
    fronts, back_pages = pypdf.PdfReader(main), pypdf.PdfReader(backs)
    assert len(fronts.pages) == len(back_pages.pages) == result.pages[0] == result.pages[1]
    assert fronts.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/Simplex"
    assert "Quickstep" in back_pages.pages[0].extract_text()


def test_duplex_none_prints_bot_sides_as_cards(tmp_path: Path) -> None:
    _, result = render("transformers", tmp_path, duplex=Duplex.NONE)
    sides = [(p.card_id, p.side) for p in result.placements][:2]
    assert sides == [("bulwark", "front"), ("bulwark", "bot")]
    assert result.pages == (7,)  # 6 character faces: 2 sheets of 4; 42 battle cards: 5 of 9


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="needs zbarimg (Debian zbar-tools)")
def test_qr_decodes_to_the_card_url_at_300_dpi(tmp_path: Path) -> None:
    import pypdfium2 as pdfium

    out, _ = render("toy-battle", tmp_path, qr_base="http://192.168.1.20:8765")
    page = pdfium.PdfDocument(str(out))[0]
    png = tmp_path / "page.png"
    page.render(scale=300 / 72).to_pil().save(png)
    result = subprocess.run(
        ["zbarimg", "--raw", "-q", str(png)], capture_output=True, text=True, check=False
    )
    urls = set(result.stdout.split())
    assert card_url("http://192.168.1.20:8765", "toy-battle", "troops", "skully") in urls
    assert card_url("http://192.168.1.20:8765", "toy-battle", "troops", "kwak") in urls
    assert len(urls) == 3  # 9 cards on the page: 3 x Kwak, 3 x Skully, 3 x Cap'n


def test_qr_modules_are_at_least_0_4_mm_inside_the_safe_margin(tmp_path: Path) -> None:
    from printables.qr import QUIET_ZONE_MODULES, qr_matrix, qr_size_mm

    url = card_url("http://tablesmith.local:8765", "pocketmodel", "demo-fleet", "dry-dock")
    modules = len(qr_matrix(url))
    assert qr_size_mm(url) == pytest.approx((modules + 2 * QUIET_ZONE_MODULES) * 0.4)
    assert qr_size_mm(url) < 63 - 2 * 3


def test_qr_rectangles_cover_exactly_the_dark_modules() -> None:
    from printables.qr import dark_rectangles, qr_matrix

    matrix = qr_matrix(card_url("http://10.1.1.1:5000", "transformers", "demo-team", "bulwark"))
    covered: list[tuple[int, int]] = []
    for column, row, width, height in dark_rectangles(matrix):
        covered += [(c, r) for c in range(column, column + width) for r in range(row, row + height)]
    dark = [(c, r) for r, line in enumerate(matrix) for c, on in enumerate(line) if on]
    assert sorted(covered) == sorted(dark)  # no gaps, no overlaps
    assert len(dark_rectangles(matrix)) < sum(map(sum, matrix)) / 1.5  # one per row run


def _xobjects(reader: pypdf.PdfReader) -> dict[int, tuple[str, str]]:
    """Every XObject reachable from the pages (through forms too), by object number:
    (name, subtype)."""
    found: dict[int, tuple[str, str]] = {}

    def visit(resources) -> None:
        xobjects = resources.get("/XObject") if resources else None
        for name, ref in (xobjects or {}).items():
            if ref.idnum in found:
                continue
            xobject = ref.get_object()
            found[ref.idnum] = (str(name), str(xobject["/Subtype"]))
            visit(xobject.get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
    return found


def test_shared_art_back_designs_and_card_designs_are_embedded_once(tmp_path: Path) -> None:
    """Issue 10, point 5: 300 mixed cards from the three demo decks (Transformers characters
    print on their own sheets and are left out), each with the same art file and its own
    name and QR code: the art is one image XObject, each generated back design one form
    (the deck's back and the two Toy Battle troop colours), and each card design one form
    that every card with that design draws."""
    from dataclasses import replace

    from PIL import Image

    from games.cards.deck import BackSpec, Deck

    Image.new("RGB", (600, 400), (40, 90, 160)).save(tmp_path / "art.png")
    pool = [
        card
        for name in demo_names()
        for card in read_deck(f"demo:{name}").deck.cards
        if type(card).__name__ != "TransformersCharacter"
    ]
    cards = tuple(
        replace(pool[i % len(pool)], id=f"c{i:03d}", name=f"Card {i}", copies=1, image="art.png")
        for i in range(300)
    )
    deck = Deck(
        card_game=CARD_GAMES["pocketmodel"],
        slug="mixed",
        title="Mixed",
        cards=cards,
        back=BackSpec(text="Back"),
    )
    out = tmp_path / "mixed.pdf"
    result = render_deck(deck, RenderOptions(), out, base_dir=tmp_path)
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == result.pages[0] == 68  # 34 sheets, fronts and backs
    xobjects = _xobjects(reader).values()
    assert sum(kind == "/Image" for _, kind in xobjects) == 1
    backs = sorted(name for name, _ in xobjects if name.startswith("/FormXob.back"))
    assert len(backs) == 3
    designs = {name for name, _ in xobjects if name.startswith("/FormXob.face")}
    assert len(designs) == len(pool)  # names and QR codes differ, the designs repeat
    # Every back page draws only back designs; every card's name is on its front page.
    for number in range(0, len(reader.pages), 2):
        back_forms = {str(n) for n in reader.pages[number + 1]["/Resources"]["/XObject"]}
        assert back_forms <= set(backs)
    assert "Card 299" in reader.pages[-2].extract_text()


UNICODE_DECK = """game: toy-battle
deck: unicode
cards:
  - {troop: Star, name: Gwiazda, colour: red, text: "Zażółć gęślą jaźń. Жук ★ → ✓ “quoted” — Größe"}
"""


def test_polish_cyrillic_german_and_symbols_render(tmp_path: Path, write_deck) -> None:
    loaded = read_deck(str(write_deck(UNICODE_DECK)))
    out = tmp_path / "u.pdf"
    render_deck(loaded.deck, RenderOptions(), out)
    text = pypdf.PdfReader(out).pages[0].extract_text()
    for word in ("Zażółć", "gęślą", "Жук", "★", "→", "✓", "“quoted”", "—", "Größe"):
        assert word in text


def test_missing_glyph_and_overflow_are_reported_by_card_and_nothing_is_written(
    tmp_path: Path, write_deck
) -> None:
    long_text = "Very long ability text that keeps going. " * 7  # 287 characters
    deck_text = UNICODE_DECK.replace("Zażółć", "漢字 Zażółć") + (
        f'  - {{troop: Hook, name: Talkative, colour: blue, text: "{long_text}"}}\n'
    )
    loaded = read_deck(str(write_deck(deck_text)))
    out = tmp_path / "never.pdf"
    with pytest.raises(RenderError) as info:  # on a mini card the long text cannot fit
        render_deck(loaded.deck, RenderOptions(card_size=parse_card_size("mini")), out)
    message = str(info.value)
    assert (
        "card 'Gwiazda', field 'text': glyph(s) not in the font: U+5B57 '字', U+6F22 '漢'"
        in message
    )
    assert (
        "card 'Talkative', field 'text': does not fit: at 6 pt, the smallest size allowed"
        in message
    )
    assert not out.exists() and list(tmp_path.glob("*.part")) == []


def test_text_shrinks_before_it_overflows(tmp_path: Path, write_deck) -> None:
    from printables.text import fit_paragraph

    _short, size_short, _ = fit_paragraph("Draw 1.", 150, 60, max_pt=9, min_pt=6)
    long_text = "Place one more troop and apply its effect. " * 4
    para, size_long, reason = fit_paragraph(long_text, 150, 60, max_pt=9, min_pt=6)
    assert size_short == 9 and reason is None and 6 <= size_long < 9
    assert para.height <= 60
    assert fit_paragraph(long_text * 3, 150, 60, max_pt=9, min_pt=6)[0] is None


def test_custom_card_size_changes_the_grid(tmp_path: Path) -> None:
    _, result = render("toy-battle", tmp_path, card_size=parse_card_size("mini"))
    assert (result.layouts[0].columns, result.layouts[0].rows) == (4, 4)
    assert result.pages == (6,)  # 48 troops / 16 per sheet = 3 sheets, front + back


def test_shared_image_is_embedded_once(tmp_path: Path, write_deck) -> None:
    from PIL import Image

    Image.new("RGB", (60, 80), "#884400").save(tmp_path / "art.png")
    Image.new("RGB", (60, 80), "#003366").save(tmp_path / "back.png")
    rows = "".join(
        f"  - {{troop: Star, name: S{i}, colour: red, image: art.png}}\n" for i in range(12)
    )
    path = write_deck("game: toy-battle\nback: {image: back.png}\ncards:\n" + rows)
    loaded = read_deck(str(path))
    out = tmp_path / "img.pdf"
    render_deck(loaded.deck, RenderOptions(), out, base_dir=loaded.base_dir)
    raw = out.read_bytes()
    assert raw.count(b"/Subtype /Image") == 2  # the art and the back, once each


@pytest.mark.parametrize(
    "base",
    ["http://", "https:///x", "ftp://host", "http://host name", "host:5000", "http://h:99999"],
)
def test_qr_base_needs_http_or_https_and_a_host(base: str) -> None:
    from printables.layout import SettingError

    with pytest.raises(SettingError) as info:
        RenderOptions(qr_base=base)
    assert info.value.setting == "qr_base" and info.value.found == base
    assert RenderOptions(qr_base="https://cards.example:8443/app").qr_base.endswith("/app")


def _graphics_states_resolve(stream: object, seen: set[int]) -> list[str]:
    """Names used with ``gs`` in a page or form whose resources do not define them (and so on
    down its forms)."""
    obj = stream.get_object()  # type: ignore[attr-defined]
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    resources = (obj.get("/Resources") or {}).get_object() if obj.get("/Resources") else {}
    if "/Contents" in obj:  # a page
        data = obj.get_contents().get_data() if obj.get_contents() else b""
    else:  # a form XObject
        data = obj.get_data()
    defined = set((resources.get("/ExtGState") or {}).keys())
    used = {"/" + name.decode() for name in re.findall(rb"/(\w+)\s+gs\b", data)}
    missing = sorted(used - defined)
    for xobject in (resources.get("/XObject") or {}).values():
        if xobject.get_object().get("/Subtype") == "/Form":
            missing += _graphics_states_resolve(xobject, seen)
    return missing


@pytest.mark.parametrize("name", ["pocketmodel", "toy-battle", "transformers"])
def test_every_graphics_state_a_page_or_form_uses_is_defined(name: str, tmp_path: Path) -> None:
    # an alpha inside a form XObject left "ExtGState 'gRLs0' is unknown" in every viewer
    out, _ = render(name, tmp_path)
    seen: set[int] = set()
    pages = pypdf.PdfReader(out).pages
    assert len(pages) >= 2, name
    for page in pages:
        assert _graphics_states_resolve(page, seen) == []
