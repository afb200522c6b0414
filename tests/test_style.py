"""STYLE.md habit 7: ruff (lint and format) and mypy (strict outside cad/) stay clean."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.assert_reach import python_test_files, unreached_tests

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


MAX_FUNCTION_LINES = 120
"""STYLE.md: no function longer than this in the platform and the command line."""

LONG_FUNCTION_PLACES = ("cad", "printables", "companion", "tablesmith.py")
"""Where :data:`MAX_FUNCTION_LINES` holds (games/ and shop/ are not in the rule)."""


def function_lengths(source: str, name: str) -> dict[str, int]:
    """``qualified name -> lines`` of every function and method in ``source`` (from its
    ``def`` line to its last line; decorators not counted), nested ones included."""
    found: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                qualified = f"{prefix}.{child.name}"
                if not isinstance(child, ast.ClassDef):
                    assert child.end_lineno is not None
                    found[qualified] = child.end_lineno - child.lineno + 1
                visit(child, qualified)
            else:
                visit(child, prefix)

    visit(ast.parse(source, filename=name), name)
    return found


def test_function_lengths_are_measured_from_def_to_last_line() -> None:
    """The measure itself, on a known text: a method, a nested function and an async one."""
    source = (
        "class A:\n    def m(self):\n        x = 1\n        return x\n"
        "def f():\n    def g():\n        pass\n    return g\n"
        "async def h():\n    await x\n"
    )
    assert function_lengths(source, "t") == {"t.A.m": 3, "t.f": 4, "t.f.g": 2, "t.h": 2}


def test_no_function_over_120_lines() -> None:
    """Issue 28: the long functions are split along their steps, and none grows back."""
    files = [
        path
        for place in LONG_FUNCTION_PLACES
        for path in ([ROOT / place] if place.endswith(".py") else (ROOT / place).rglob("*.py"))
    ]
    lengths: dict[str, int] = {}
    for path in files:
        name = str(path.relative_to(ROOT))
        lengths.update(function_lengths(path.read_text(encoding="utf-8"), name))
    assert len(files) > 90 and len(lengths) > 900  # the walk found the packages
    assert "tablesmith.py.cards" in lengths and "cad/kit.py._generate" in lengths
    too_long = {name: n for name, n in lengths.items() if n > MAX_FUNCTION_LINES}
    assert too_long == {}, f"functions over {MAX_FUNCTION_LINES} lines: {too_long}"


def test_the_assert_check_finds_tests_that_can_pass_unchecked() -> None:
    """The check below on small tests: asserts only in a loop over a collection or in one
    branch are found; a count asserted first, a loop that must run, or asserts in every
    branch are not."""
    source = """
def test_loop(items):
    for item in items:
        assert item
def test_branch(x):
    if x:
        assert x
def test_handler():
    try:
        pass
    except ValueError:
        assert False
def test_nested():
    def inner():
        assert True
def test_counted(items):
    assert len(items) == 3
    for item in items:
        assert item
def test_literal_loop():
    for item in (1, 2):
        assert item
def test_both_branches(x):
    if x:
        assert x
    else:
        assert not x
def test_raises():
    with pytest.raises(ValueError):
        int("x")
def test_helper(manifest):
    assert_whole_kit(manifest)
    for part in manifest:
        assert part
def test_helper_value(deck):
    cards = assert_faces(deck)
    if cards:
        assert cards[0]
def test_nothing():
    print("no assert: not this check's business")
def helper(items):
    for item in items:
        assert item
"""
    assert unreached_tests(source, "t.py") == [
        "t.py:2 test_loop",
        "t.py:5 test_branch",
        "t.py:8 test_handler",
        "t.py:13 test_nested",
    ]


def test_no_test_keeps_every_assert_in_a_loop_or_branch_that_may_run_zero_times() -> None:
    """Issue 28, point 4: a test whose asserts all sit in a loop over a collection that may be
    empty, or in a branch that may be skipped, passes on an empty kit or deck without checking
    anything (``tests/assert_reach.py`` says what counts). Assert the count or the names first."""
    files = list(python_test_files(ROOT / "tests"))
    assert len(files) > 100
    found = [
        finding
        for path in files
        for finding in unreached_tests(
            path.read_text(encoding="utf-8"), str(path.relative_to(ROOT))
        )
    ]
    assert found == [], "\n".join(found)
