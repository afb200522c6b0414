"""The platform knows no game by name (issue 7, point 1): the companion's code, templates and
shared scripts hold no registered game's name as a value; games come from the registry, each
with its own phone view under ``companion/views/<game>/``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from flask.testing import FlaskClient

from games import registry

ROOT = Path(__file__).resolve().parents[2]
COMPANION = ROOT / "companion"


def literals(path: Path) -> list[tuple[int, str]]:
    """Every string constant of a Python module that is not a docstring, with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            found.append((node.lineno, node.value))
    return found


def test_the_companion_names_no_game() -> None:
    names = set(registry.GAMES) | {g.deck_game for g in registry.GAMES.values() if g.deck_game}
    assert {"asteroids", "pocketmodel", "transformers"} <= names
    offences = []
    for path in sorted(COMPANION.glob("*.py")):
        for line, value in literals(path):
            if value.strip().lower() in names:
                offences.append(f"{path.relative_to(ROOT)}:{line}: {value!r}")
    alternatives = "|".join(map(re.escape, sorted(names)))
    quoted = re.compile(r"""["'#/-](""" + alternatives + r""")["'/]""")
    for folder in (COMPANION / "static", COMPANION / "templates"):
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".js", ".html", ".css"):
                for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if quoted.search(text):
                        offences.append(f"{path.relative_to(ROOT)}:{n}: {text.strip()}")
    assert offences == []


def test_a_table_without_a_game_is_the_registrys_first(client: FlaskClient) -> None:
    created = client.post("/api/tables", json={})
    assert created.status_code == 201
    token = {"X-Seat-Token": created.get_json()["token"]}
    view = client.get(f"/api/t/{created.get_json()['table_id']}/state", headers=token).get_json()
    assert view["game"] == next(iter(registry.GAMES)) == "asteroids"
    unknown = client.post("/api/tables", json={"game": "chess"})
    assert unknown.status_code == 400
    assert unknown.get_json()["message"] == (
        f"game must be one of {list(registry.GAMES)}, got 'chess'"
    )
