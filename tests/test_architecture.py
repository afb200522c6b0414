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
