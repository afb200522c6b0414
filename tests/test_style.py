"""STYLE.md habit 7: ruff (lint and format) and mypy (strict outside cad/) stay clean."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "args", [["check", "."], ["format", "--check", "."]], ids=["lint", "format"]
)
def test_ruff_is_clean(args: list[str]) -> None:
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (it is in the test extra)")
    result = subprocess.run([ruff, *args], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean() -> None:
    pytest.importorskip("mypy")
    result = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
