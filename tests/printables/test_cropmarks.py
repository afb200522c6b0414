"""Crop marks moved onto the bleed are drawn over the faces, so they show on the art."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2 as pdfium

from games.cards.deck import parse_deck_text
from games.registry import CARD_GAMES
from printables.cropmarks import marks_on_art
from printables.duplex import Duplex
from printables.layout import CardSize, SheetSpec, layout_sheet
from printables.render import RenderOptions, render_deck

DPI = 300


def test_marks_on_the_bleed_show_over_the_art(tmp_path: Path) -> None:
    # A4 portrait: three 66 mm bleed boxes (63 + 2 x 1.5) leave 1 mm beside the grid; the
    # side marks run 0.5..2.5 mm out from the trim line, 1 mm of them on the blue bleed.
    card = CardSize(width=63, height=88)
    layout = layout_sheet(SheetSpec(card=card, bleed=1.5))
    assert layout.crop_mark_places == ("bleed", "outside")
    on_art = marks_on_art(layout)
    assert len(on_art) == 2 * 2 * layout.rows  # both sides, both trim lines of each row
    deck = parse_deck_text(
        "game: toy-battle\ncards: [{troop: Star, name: Star, colour: blue, copies: 9}]\n",
        games=CARD_GAMES,
        source="t.yaml",
    )
    out = tmp_path / "b.pdf"
    render_deck(
        deck,
        RenderOptions(duplex=Duplex.NONE, qr=False, bleed=1.5, card_size=card),
        out,
    )
    page = pdfium.PdfDocument(str(out))[0].render(scale=DPI / 72).to_pil().convert("RGB")
    pixels = np.asarray(page, dtype=np.int16)
    height = pixels.shape[0]

    def darkest(x_mm: float, y_mm: float) -> int:
        col, row = round(x_mm / 25.4 * DPI), round(height - y_mm / 25.4 * DPI)
        return int(pixels[row - 3 : row + 4, col - 1 : col + 2].sum(axis=2).min())

    first = layout.slots[0]
    y = first.trim.top
    on_bleed_x = first.trim.x - 1.0  # 0.5 mm inside the bleed box's edge
    assert first.bleed.x < on_bleed_x < first.trim.x
    assert darkest(on_bleed_x, y) < 150  # the black mark, not the blue bleed
    assert darkest(on_bleed_x, y - 3.0) > 200  # 3 mm lower: the bleed's blue (sum > 200)
