"""Each rule constant of a game is defined once (read from the syntax trees of games/).

A game's deck limits, icons and counts are used by its rules engine (the companion's
refusals) and by its card schema (the printer's deck warnings); two definitions of one
constant would drift apart with nothing tying them together. So, within a game's package
together with the generic modules (games/cards/, games/*.py), a module-level UPPER_CASE name
is assigned in one module only, and no two such constants hold the same tuple of words.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

from games import registry

ROOT = Path(__file__).resolve().parents[2]
UPPER = re.compile(r"^[A-Z][A-Z0-9_]*$")


def constants(path: Path) -> list[tuple[str, ast.expr | None]]:
    """The module-level UPPER_CASE names ``path`` assigns, with their values."""
    found: list[tuple[str, ast.expr | None]] = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            targets = [t for t in node.targets if isinstance(t, ast.Name)]
            found += [(t.id, node.value) for t in targets if UPPER.match(t.id)]
            for t in node.targets:
                if isinstance(t, ast.Tuple):
                    found += [(e.id, None) for e in t.elts if isinstance(e, ast.Name)]
        elif (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and UPPER.match(node.target.id)
        ):
            found.append((node.target.id, node.value))
    return found


def words(value: ast.expr | None) -> tuple[str, ...] | None:
    """A literal tuple of two or more strings, else None."""
    if isinstance(value, ast.Tuple) and len(value.elts) >= 2:
        items = [e.value for e in value.elts if isinstance(e, ast.Constant)]
        if len(items) == len(value.elts) and all(isinstance(i, str) for i in items):
            return tuple(items)
    return None


def generic_files() -> list[Path]:
    return sorted((ROOT / "games" / "cards").glob("*.py")) + sorted((ROOT / "games").glob("*.py"))


def twice(files: list[Path]) -> list[str]:
    """Constants assigned in two modules, or the same words under two names."""
    where: dict[str, set[str]] = defaultdict(set)
    by_words: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for path in files:
        shown = str(path.relative_to(ROOT))
        for name, value in constants(path):
            where[name].add(shown)
            if (w := words(value)) is not None:
                by_words[w].add(f"{shown}:{name}")
    found = [f"{n} in {sorted(p)}" for n, p in where.items() if len(p) > 1]
    found += [f"{list(w)} as {sorted(n)}" for w, n in by_words.items() if len(n) > 1]
    return found


def test_each_rule_constant_is_defined_once_per_game() -> None:
    assert len(registry.ENTRIES) >= 4  # every registered game, the four shipped at least
    for entry in registry.ENTRIES:
        files = sorted((ROOT / "games" / entry.package).rglob("*.py")) + generic_files()
        assert twice(files) == [], entry.package


def test_the_check_finds_a_second_definition(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(
        'FLEET_MAX_STARS = 30\nICONS = ("Droid", "Laser")\n', encoding="utf-8"
    )
    (tmp_path / "b.py").write_text(
        'FLEET_MAX_STARS: int = 30\nUNIT_ICONS = ("Droid", "Laser")\n', encoding="utf-8"
    )
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        found = twice([tmp_path / "a.py", tmp_path / "b.py"])
    finally:
        ROOT = saved
    assert found == [
        "FLEET_MAX_STARS in ['a.py', 'b.py']",
        "['Droid', 'Laser'] as ['a.py:ICONS', 'b.py:UNIT_ICONS']",
    ]
