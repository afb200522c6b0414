"""The generic card code names no game: a game's card design lives in its own builder.

The deck reader, the face anatomy and the drawing of faces and sheets find a game's cards only
through its registry entry (games/registry.py); adding a game's card design touches that
game's ``games/<game>/cards.py`` only. Checked on the syntax trees: no import of a game
package, and no name or string in the code (docstrings aside) that spells a game.
"""

from __future__ import annotations

import ast
from pathlib import Path

from games import registry

ROOT = Path(__file__).resolve().parents[2]
GENERIC = [
    *sorted((ROOT / "games" / "cards").glob("*.py")),
    ROOT / "games" / "entry.py",
    ROOT / "games" / "protocol.py",
    ROOT / "printables" / "faces.py",
    ROOT / "printables" / "render.py",
    ROOT / "printables" / "deckfile.py",
]


def spellings() -> set[str]:
    """Every way a registered game is written: package, slug and the titles, lower case."""
    found = set()
    for entry in registry.ENTRIES:
        found |= {entry.package, entry.slug, entry.game.title.lower()}
        found |= {entry.game.title.split()[0].lower()}
        if entry.cards is not None:
            found |= {entry.title.lower(), entry.cards.slug}
    return found


def named_games(path: Path, names: set[str]) -> list[str]:
    """Where the code of ``path`` names a game (imports, names, attributes, strings)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        words: list[str] = []
        if isinstance(node, ast.Import):
            words = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            words = [node.module]
        elif isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            words = [node.value]
        for word in words:
            low = word.lower().replace("_", "")
            hits = [n for n in names if n.replace("_", "") in low]
            if hits:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {word!r}")
    return found


def test_the_generic_card_code_names_no_game() -> None:
    names = spellings()
    assert {"pocketmodel", "toybattle", "toy-battle", "transformers"} <= names
    assert [hit for path in GENERIC for hit in named_games(path, names)] == []


def test_the_check_sees_a_game_named_in_code(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Docstrings may name Toy Battle."""\n'
        "from games.toybattle.cards import FRAMES\n"
        "def f(card):\n"
        '    return card.kind == "toy-battle"\n'
    )
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        found = named_games(sample, spellings())
    finally:
        ROOT = saved
    assert found == [
        "sample.py:2: 'games.toybattle.cards'",
        "sample.py:4: 'toy-battle'",
    ]
