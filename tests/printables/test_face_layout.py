"""Card faces as a player reads them (issue 29, point 5): rules text that uses the card's
width where the design has room, no empty text box, a symbol-only text centred, the joker rule
on a Kwak, and the two demo decks of a game told apart by their faces' edge colour."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

from games.cards.anatomy import FaceContent
from games.cards.deck import DeckError, parse_deck_text
from games.registry import CARD_GAMES
from printables.deckfile import read_deck
from printables.facelower import TEXT_BOX, lower_half, symbols_only
from printables.faces import face_content
from printables.fonts import register_fonts
from printables.layout import Rect
from printables.painter import SAFE_MARGIN, Painter
from printables.render import RenderOptions, render_deck

QR_EDGE = 17.2
"""The QR code of a demo card, mm (43 modules of 0.4 mm)."""
TOP = 66.0
"""Below the type band of a 63 x 88 mm card, mm."""


def lower(tmp_path: Path, face: FaceContent) -> tuple[Painter, list[tuple[Rect, str]]]:
    """Draw the lower half of ``face`` on a 63 x 88 mm card; (painter, every fill)."""
    register_fonts()
    painter = Painter(
        canvas=Canvas(str(tmp_path / "f.pdf")),
        trim=Rect(x=0, y=0, width=63, height=88),
        bleed=0.0,
        card_name="c",
    )
    fills: list[tuple[Rect, str]] = []
    real = painter.fill

    def fill(box: Rect, colour: str, **kwargs: object) -> None:
        fills.append((box, colour))
        real(box, colour, **kwargs)  # type: ignore[arg-type]

    painter.fill = fill  # type: ignore[method-assign]
    lower_half(painter, face, None, TOP, QR_EDGE)
    assert painter.problems == []
    return painter, fills


def card(deck: str, name: str) -> FaceContent:
    return face_content(next(c for c in read_deck(deck).deck.cards if c.name == name))


def text_box(painter: Painter) -> Rect:
    (box,) = [b.rect for b in painter.boxes if b.what == "text text"]
    return box


@pytest.mark.parametrize(
    ("deck", "name"),
    [("demo:pocketmodel", "Evasive Roll"), ("demo:pocketmodel", "Relay Beacon")]
    + [("demo:toy-battle", "Skully")],
)
def test_combat_objective_and_troop_text_spans_the_card(tmp_path: Path, deck, name) -> None:
    painter, fills = lower(tmp_path, card(deck, name))
    (box,) = [b for b, colour in fills if colour == TEXT_BOX]
    assert box.x == pytest.approx(SAFE_MARGIN) and box.width == pytest.approx(63 - 2 * SAFE_MARGIN)
    assert box.y > SAFE_MARGIN + QR_EDGE  # above the QR code and the corner
    assert text_box(painter).width > 40  # the column between the corners was 24 mm


def test_a_unit_without_text_has_no_empty_box_and_one_with_text_keeps_its_column(
    tmp_path: Path,
) -> None:
    _, fills = lower(tmp_path, card("demo:pocketmodel", "Comet Lancer"))
    assert TEXT_BOX not in {colour for _, colour in fills}
    painter, fills = lower(tmp_path, card("demo:pocketmodel", "Halo Frigate"))
    (box,) = [b for b, colour in fills if colour == TEXT_BOX]
    assert box.y == pytest.approx(SAFE_MARGIN) and box.right < 63 - SAFE_MARGIN - QR_EDGE


def test_a_symbol_only_text_is_centred_in_its_box(tmp_path: Path) -> None:
    assert symbols_only("★ ★ ★") and symbols_only("→ +2") and not symbols_only("+2 Attack")
    face = replace(card("demo:pocketmodel", "Halo Frigate"), text=("★ ★ ★", "text"))
    painter, fills = lower(tmp_path, face)
    (box,) = [b for b, colour in fills if colour == TEXT_BOX]
    text = text_box(painter)
    assert text.x + text.width / 2 == pytest.approx(box.x + box.width / 2, abs=0.3)
    assert text.y + text.height / 2 == pytest.approx(box.y + box.height / 2, abs=0.6)
    words = replace(face, text=("★ Draw 1.", "text"))
    left = text_box(lower(tmp_path, words)[0])
    assert left.x == pytest.approx(box.x + 1.2)


@pytest.mark.parametrize(
    "pair", [("pocketmodel", "pocketmodel-corsairs"), ("transformers", "transformers-decepticons")]
)
def test_the_two_demo_decks_of_a_game_have_their_own_edge_colour(
    tmp_path: Path, pair: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import printables.faces

    decks = [read_deck(f"demo:{name}").deck for name in pair]
    colours = [deck.colour for deck in decks]
    assert None not in colours and colours[0] != colours[1]
    edges: list[set[str]] = []
    real = printables.faces.design_upper

    def record(p: Painter, face: FaceContent):
        edges[-1].add(face.frame.edge)
        return real(p, face)

    monkeypatch.setattr(printables.faces, "design_upper", record)
    for deck in decks:
        edges.append(set())
        render_deck(deck, RenderOptions(qr=False), tmp_path / f"{deck.slug}.pdf")
    assert edges == [{colour} for colour in colours]


def test_the_edge_colour_fills_the_bleed_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    from printables.faceframe import frame_form

    face = card("demo:pocketmodel", "Halo Frigate")
    painter = Painter(
        canvas=Canvas(str(tmp_path / "e.pdf")),
        trim=Rect(x=0, y=0, width=63, height=88),
        bleed=3.0,
        card_name="c",
    )
    fills: list[tuple[Rect, str]] = []
    real = Painter.fill

    def fill(self: Painter, box: Rect, colour: str, **kwargs: object) -> None:
        fills.append((box, colour))
        real(self, box, colour, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Painter, "fill", fill)
        frame_form(painter, replace(face.frame, edge="#123456"))
    assert fills[0] == (Rect(x=-3.0, y=-3.0, width=69.0, height=94.0), "#123456")
    with pytest.raises(DeckError, match=r"line 3: field 'colour': allowed #RRGGBB"):
        parse_deck_text(
            "game: toy-battle\ntitle: T\ncolour: blue\ncards:\n  - {troop: Star, name: A, "
            "colour: red}\n",
            games=CARD_GAMES,
            source="d.yaml",
        )
