"""Issue 28: a card game owns its icons and art patterns (``games/<game>/art.py``, declared in
its ``CARDS``); the printer's drawers find them by name and name no game themselves."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from games import registry
from games.cards.icons import STAT_ICONS, defense, robot
from games.cards.pen import gradient, mix, rgb
from games.pocketmodel.art import ART_ICONS as POCKETMODEL_ICONS
from games.transformers.art import ART_ICONS as TRANSFORMERS_ICONS
from printables.icons import icon_drawing
from printables.patterns import pattern_drawing
from tests.toygame import ENTRY
from tests.toygame.art import countdown, counter

ROOT = Path(__file__).resolve().parents[2]


def test_each_game_declares_its_icons_and_patterns_and_the_printer_finds_them_by_name() -> None:
    assert sorted(STAT_ICONS) == ["attack", "damage", "defense", "health", "shields", "star"]
    assert POCKETMODEL_ICONS["droid"] is robot and TRANSFORMERS_ICONS["bot"] is robot
    assert TRANSFORMERS_ICONS["armor"] is defense
    assert icon_drawing("star") is STAT_ICONS["star"]
    assert icon_drawing("joker") is registry.CARD_GAMES["toy-battle"].icons["joker"]
    assert pattern_drawing("circuit") is registry.CARD_GAMES["transformers"].patterns["circuit"]
    styles = {s for game in registry.CARD_GAMES.values() for s in game.patterns}
    assert styles == {"space", "rays", "radar", "circuit", "toy"}


def test_a_registered_game_brings_its_own_and_takes_them_away_again() -> None:
    with registry.registered(ENTRY):
        assert icon_drawing("counter") is counter
        assert pattern_drawing("countdown") is countdown
    with pytest.raises(KeyError, match=r"unknown icon 'counter'; known: .*droid.*star"):
        icon_drawing("counter")
    with pytest.raises(KeyError, match=r"unknown art pattern 'countdown'; known: circuit, "):
        pattern_drawing("countdown")


def test_a_name_two_games_draw_differently_is_refused_naming_both() -> None:
    assert ENTRY.cards is not None
    clash = replace(ENTRY, cards=replace(ENTRY.cards, icons={"star": counter}))
    with registry.registered(clash):
        with pytest.raises(ValueError, match="icon 'star' is declared twice: by the stat icons "):
            icon_drawing("star")
        assert icon_drawing("attack") is STAT_ICONS["attack"]  # the others still draw


def test_the_colour_helpers_compute_as_reportlab_does() -> None:
    from reportlab.lib.colors import HexColor

    hexed = HexColor("#37474f")
    assert rgb("#37474f") == (hexed.red, hexed.green, hexed.blue) == (55 / 255, 71 / 255, 79 / 255)
    assert rgb((0.1, 0.2, 0.3)) == (0.1, 0.2, 0.3)
    assert mix("#000000", "#ffffff", 0.25) == (0.25, 0.25, 0.25)
    assert mix("#ff0000", (0.0, 0.0, 1.0), 0.5) == (0.5, 0.0, 0.5)
    for bad in ("37474f", "#37474", "#37474fff"):
        with pytest.raises(ValueError, match="expected #RRGGBB"):
            rgb(bad)


class _Log:
    """A pen that records the fills and rectangles drawn (the protocol needs no ReportLab)."""

    def __init__(self) -> None:
        self.fills: list[object] = []
        self.rects: list[tuple[float, ...]] = []

    def setFillColor(self, colour: object) -> None:  # noqa: N802 - the pen's name
        self.fills.append(colour)

    def rect(self, *box: float, stroke: int = 1, fill: int = 0) -> None:
        self.rects.append(box)


def test_a_gradient_is_forty_bands_from_the_first_colour_to_the_last() -> None:
    pen = _Log()
    gradient(pen, 40.0, 80.0, ("#000000", "#ffffff"))  # type: ignore[arg-type]
    assert len(pen.fills) == 40 and pen.fills[0] == (0.0, 0.0, 0.0)
    assert pen.fills[-1] == (1.0, 1.0, 1.0)
    assert pen.rects[0] == (0, 78.0, 40.0, 2.3) and pen.rects[-1] == (0, 0.0, 40.0, 2.3)


def test_the_drawers_name_no_game() -> None:
    words = {"pocketmodel", "transformers", "toy battle", "toy-battle", "toybattle", "asteroids"}
    for module in ("printables/icons.py", "printables/patterns.py"):
        text = (ROOT / module).read_text(encoding="utf-8").lower()
        assert [w for w in words if w in text] == [], module
