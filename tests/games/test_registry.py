"""The registry: card schemas at once, an engine on first look-up."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from games import registry
from games.entry import GameEntry

ROOT = Path(__file__).resolve().parents[2]


def test_every_entry_loads_the_engine_that_names_itself_by_the_slug() -> None:
    registry.load_engines()
    assert [e.slug for e in registry.ENTRIES] == list(registry.GAMES)
    for entry in registry.ENTRIES:
        assert registry.GAMES[entry.slug] is entry.game
        assert entry.game.name == entry.slug
        assert type(entry.game).__module__ == f"games.{entry.package}.game"
    # the deck a player brings to the table (companion/api.py): the card games' own deck
    # files; Toy Battle prints troop sheets but plays without a deck, Asteroids has no cards
    assert {e.slug: e.game.deck_game for e in registry.ENTRIES} == {
        "asteroids": None,
        "pocketmodel": "pocketmodel",
        "transformers": "transformers",
        "toy-battle": None,
    }


def test_an_entry_whose_engine_names_itself_otherwise_is_refused() -> None:
    wrong = GameEntry(package="toybattle", slug="toy_battle")
    with pytest.raises(RuntimeError, match="names itself 'toy-battle', not 'toy_battle'"):
        _ = wrong.game


def test_printing_a_deck_imports_no_rules_engine(tmp_path: Path) -> None:
    """The card printer needs the card schemas only: reading and rendering a deck of every
    card game in a fresh interpreter leaves every ``games/<game>/game.py`` unimported."""
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from printables.deckfile import demo_names, read_deck\n"
        "from printables.render import RenderOptions, render_deck\n"
        "for name in demo_names():\n"
        "    loaded = read_deck(f'demo:{name}')\n"
        f"    render_deck(loaded.deck, RenderOptions(), Path({str(tmp_path)!r}) / f'{{name}}.pdf',"
        " base_dir=loaded.base_dir)\n"
        "print(sorted(m for m in sys.modules if m.startswith('games.') and m.endswith('.game')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"
    assert len(list(tmp_path.glob("*.pdf"))) == 5
