"""The registry: card schemas at once, an engine on first look-up."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest

from games import registry
from games.cards.cardgame import CardGame
from games.demos import demo_deck
from games.entry import GameEntry
from printables.faces import game_title
from printables.render import pdf_title

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
    wrong = GameEntry(package="toybattle", slug="toy_battle", title="Toy Battle")
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


def test_each_game_has_one_title_written_in_its_registry_entry() -> None:
    """Issue 28: PocketModel had two titles ("PocketModel" on card backs and PDFs,
    "PocketModel TCG" on the phone); now the entry's title is the only one, the original's."""
    assert dict(registry.TITLES) == {
        "asteroids": "Asteroids",
        "pocketmodel": "PocketModel TCG",
        "transformers": "Transformers TCG",
        "toy-battle": "Toy Battle",
    }
    assert [e.game.title for e in registry.ENTRIES] == [e.title for e in registry.ENTRIES]
    assert "title" not in {f.name for f in dataclasses.fields(CardGame)}
    written = [
        path.name
        for path in (ROOT / "games").glob("*/*.py")
        if re.search(r"^\s+title(: str)? = \"", path.read_text(encoding="utf-8"), re.M)
    ]
    assert written == []  # no game module writes a title of its own
    pdf = pdf_title(demo_deck("pocketmodel"))
    assert pdf.endswith("(PocketModel TCG)") and game_title("transformers") == "Transformers TCG"
