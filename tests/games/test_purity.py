"""games/ stays pure (ARCHITECTURE.md): every game module and every card schema imports no
web framework, PDF library, CAD kernel or image library, checked in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from games import registry

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("flask", "reportlab", "OCP", "cadquery", "PIL")


def game_modules() -> list[str]:
    """Every module of the games package, found on disk (a new file is covered at once)."""
    modules = []
    for path in sorted((ROOT / "games").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return modules


def test_the_module_list_covers_every_game_and_the_card_schemas() -> None:
    modules = set(game_modules())
    for entry in registry.ENTRIES:
        for spine in ("game", "rules", "state", "actions"):
            assert f"games.{entry.package}.{spine}" in modules
        if entry.cards is not None:
            assert f"games.{entry.package}.cards" in modules
    assert {"games.cards.deck", "games.cards.fields", "games.cards.anatomy"} <= modules


def test_every_game_module_and_card_schema_is_pure() -> None:
    modules = game_modules()
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == ""
    assert len(modules) >= 30
