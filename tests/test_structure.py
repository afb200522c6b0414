"""The shape of the house: no import cycle, no source module over 800 lines (STYLE.md).

The imports are read from the syntax trees, not by importing: every ``import`` and ``from ...
import`` anywhere in a module counts, in functions and ``if`` blocks too (a lazy import that
closes a cycle is still a cycle), and relative imports are resolved against the module's
package. ``from package import name`` depends on the module ``package.name`` where that is a
module, else on ``package`` itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cad", "companion", "games", "printables", "shop")
SCRIPTS = ("tablesmith.py",)
MAX_LINES = 800


def module_files() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the packages and the scripts."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    for script in SCRIPTS:
        found[Path(script).stem] = ROOT / script
    return found


def imported_modules(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of ``modules`` that module ``name`` (at ``path``) imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def ours(target: str) -> str | None:
        """``target`` or the nearest enclosing package that is one of ours."""
        while target and target not in modules:
            target = target.rpartition(".")[0]
        return target or None

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                child = f"{source}.{alias.name}"
                targets.append(child if child in modules else source)
        for target in targets:
            module = ours(target)
            if module is not None and module != name:
                found.add(module)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of ours it imports."""
    modules = module_files()
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:  # iterative, so deep chains cannot overflow the stack
        nonlocal counter
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return sorted(found)


def test_the_graph_sees_lazy_relative_and_from_package_imports() -> None:
    """The reader itself: a lazy import in a function, a relative import and ``from package
    import module`` are all edges (else the cycle test below could pass on a blind reader)."""
    graph = import_graph()
    assert "companion.api" in graph["companion"]  # create_app imports the blueprints lazily
    assert "companion.tables.rejected" in graph["companion.tables.seats"]
    assert "companion.decks" in graph["companion.api"]  # from companion import decks
    assert "companion.serve" in graph["tablesmith"]  # inside the serve command
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles() -> None:
    """No module of ours reaches itself through imports, lazy ones included."""
    assert cycles(import_graph()) == []


@pytest.mark.parametrize("path", sorted(str(p.relative_to(ROOT)) for p in module_files().values()))
def test_no_source_module_over_800_lines(path: str) -> None:
    """One concept per module, and no module over :data:`MAX_LINES` lines (STYLE.md)."""
    lines = len((ROOT / path).read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path} has {lines} lines"
