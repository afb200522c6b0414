"""Which test functions can pass without checking anything: every assert of theirs sits in a
loop or a branch that may run zero times (issue 28, point 4; the check is in test_style.py).

An assert is *reached* when it runs every time the test runs to its end: it is in the test's
own body, in a ``with`` or ``try`` body, in a ``finally``, in a loop that runs at least once
(``while True``, a ``for`` over a non-empty literal list, tuple, set or string, or over
``range(N)`` with a literal N > 0), or in an ``if`` whose every branch asserts. Asserts in a
loop over anything else, in one branch of an ``if``, in an ``except`` handler, in a ``match``
case, in a comprehension's lambda or in a nested function are not reached: an empty
collection or a skipped branch lets the test pass unchecked. ``with pytest.raises(...)``,
``pytest.warns``, ``pytest.fail`` and a call of a helper named ``assert_*`` (which asserts on
its own, as :func:`tests.cad.kitcheck.assert_whole_kit`) count as asserts.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

CHECKING_CONTEXTS = ("raises", "warns", "deprecated_call")
"""``with pytest.X(...)`` blocks that fail the test unless their body does what is expected."""


def _is_check_call(node: ast.AST) -> bool:
    """``pytest.raises(...)``/``pytest.warns(...)``/``pytest.fail(...)`` (or ``raises(...)``),
    or ``assert_something(...)``."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in (*CHECKING_CONTEXTS, "fail") or name.startswith("assert_")


def _runs_at_least_once(loop: ast.For | ast.AsyncFor | ast.While) -> bool:
    """True for loops that cannot run zero times (see the module docstring)."""
    if isinstance(loop, ast.While):
        return isinstance(loop.test, ast.Constant) and bool(loop.test.value)
    items = loop.iter
    if isinstance(items, ast.List | ast.Tuple | ast.Set):
        return bool(items.elts) and not any(isinstance(e, ast.Starred) for e in items.elts)
    if isinstance(items, ast.Constant) and isinstance(items.value, str | bytes):
        return bool(items.value)
    if (
        isinstance(items, ast.Call)
        and isinstance(items.func, ast.Name)
        and items.func.id == "range"
        and len(items.args) == 1
        and isinstance(items.args[0], ast.Constant)
        and isinstance(items.args[0].value, int)
    ):
        return items.args[0].value > 0
    return False


def _reached(statements: list[ast.stmt]) -> bool:
    """Whether running ``statements`` to their end always runs at least one assert."""
    return any(_statement_reached(s) for s in statements)


def _statement_reached(node: ast.stmt) -> bool:
    if isinstance(node, ast.Assert):
        return True
    if isinstance(node, ast.Expr | ast.Assign | ast.AnnAssign | ast.Return) and any(
        _is_check_call(call) for call in ast.walk(node)
    ):
        return True  # pytest.fail(...), cards = assert_faces(...)
    if isinstance(node, ast.With | ast.AsyncWith):
        if any(_is_check_call(item.context_expr) for item in node.items):
            return True
        return _reached(node.body)
    if isinstance(node, ast.Try | ast.TryStar):
        return _reached(node.body) or _reached(node.finalbody) or _reached(node.orelse)
    if isinstance(node, ast.For | ast.AsyncFor | ast.While):
        return _runs_at_least_once(node) and _reached(node.body)
    if isinstance(node, ast.If):
        return bool(node.orelse) and _reached(node.body) and _reached(node.orelse)
    return False


def _has_check(node: ast.AST) -> bool:
    """Whether the test holds any assert at all, reached or not (nested functions too)."""
    return any(isinstance(c, ast.Assert) or _is_check_call(c) for c in ast.walk(node))


def unreached_tests(source: str, name: str) -> list[str]:
    """``file:line test_name`` of every test function in ``source`` whose asserts all may be
    skipped (tests without any assert are not this check's business)."""
    found = []
    for node in ast.walk(ast.parse(source, filename=name)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if not node.name.startswith("test"):
            continue
        if _has_check(node) and not _reached(node.body):
            found.append(f"{name}:{node.lineno} {node.name}")
    return found


def python_test_files(root: Path) -> Iterator[Path]:
    """Every ``test_*.py`` below ``root`` (sorted)."""
    yield from sorted(root.rglob("test_*.py"))
