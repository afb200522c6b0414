"""The one-way arrows of ARCHITECTURE.md, checked in a fresh interpreter."""

import subprocess
import sys

import pytest

HEAVY = ("cadquery", "OCP", "reportlab", "flask")


@pytest.mark.parametrize("module", ["games", "games.asteroids", "games.asteroids.spec"])
def test_games_stay_pure(module: str) -> None:
    code = f"import sys, {module}; print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""


@pytest.mark.parametrize(
    "module", ["cad.settings", "cad.design", "cad.plates", "cad.notes", "tablesmith"]
)
def test_pure_cad_modules_and_cli_do_not_import_cadquery(module: str) -> None:
    code = f"import sys, {module}; print('cadquery' in sys.modules, 'OCP' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False False"


@pytest.mark.parametrize("module", ["cad.jobs", "cad.mesh", "cad.preview", "cad.threemf"])
def test_the_helper_process_modules_never_load_the_cad_kernel(module: str) -> None:
    """The kit's second process loads numpy, Pillow and lib3mf only (issue 11, point 4)."""
    pytest.importorskip("numpy")
    code = f"import sys, {module}; print('OCP' in sys.modules, 'cadquery' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False False"


def test_adapters_import_only_games_and_themselves() -> None:
    """ARCHITECTURE.md: tablesmith.py -> {cad, printables, companion} -> games, never sideways;
    the print shop (``shop``, issue 27) calls the kit and the card printer:
    tablesmith.py -> shop -> {cad, printables, games}, and nothing imports the shop."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    ours = {"games", "cad", "printables", "companion", "shop", "tablesmith"}
    wrong = []
    for package in ("games", "cad", "printables", "companion", "shop"):
        allowed = {package} if package == "games" else {package, "games"}
        if package == "shop":
            allowed |= {"cad", "printables"}
        for path in (root / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = []
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                for name in names:
                    top = name.split(".")[0]
                    if top in ours and top not in allowed:
                        wrong.append(f"{path.relative_to(root)} imports {name}")
    assert wrong == []
