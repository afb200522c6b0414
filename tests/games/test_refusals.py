"""Every refusal of every engine cites exactly one rule id of its game and a message id of
the game's catalog (which the phone shows translated), found by playing: at each position of
seeded random games, actions legal elsewhere (earlier positions) are tried by both seats."""

from __future__ import annotations

import importlib
import re
from collections import Counter
from pathlib import Path

import pytest

from games import registry
from games.protocol import Messages
from tests.games.playouts import tried_refusals

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = {"asteroids": "asteroids", "pocketmodel": "pocketmodel", "toy-battle": "toybattle"}
PACKAGE["transformers"] = "transformers"


def catalog(name: str) -> Messages:
    module = importlib.import_module(f"games.{PACKAGE[name]}.messages")
    messages: Messages = module.MESSAGES
    return messages


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_every_refusal_cites_one_rule_and_a_known_message(name: str) -> None:
    game = registry.GAMES[name]
    texts = catalog(name).texts
    seen: Counter[str] = Counter()
    bad: list[str] = []
    for _action, refusal in tried_refusals(game, game.example_setups() * 2):
        seen[refusal.message_id or "?"] += 1
        rule = refusal.rule or ""
        if not (
            re.fullmatch(rf"{game.rule_prefix}-\d+", rule)
            and refusal.message_id in texts
            and str(refusal).endswith(f"({rule})")
        ):
            bad.append(f"{refusal.rule} {refusal.message_id}: {refusal}")
    assert sum(seen.values()) > 100, seen  # the harness does provoke refusals
    assert bad == [], bad[:10]


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_every_message_id_is_raised_somewhere_and_every_raised_id_is_known(name: str) -> None:
    """Static: ids passed to the catalog in the engine's source are the catalog's ids."""
    texts = catalog(name).texts
    files = sorted((ROOT / "games" / PACKAGE[name]).glob("*.py"))
    # the catalog itself does not count as a use of its ids
    catalog_block = re.compile(r"MESSAGES = Messages\(.*?\n\)\n", re.S)
    source = "\n".join(catalog_block.sub("", p.read_text(encoding="utf-8")) for p in files)
    raised = set(re.findall(r'(?:MESSAGES\.error|_refuse)\(\s*"([a-z0-9_]+)"', source))
    assert raised and raised <= set(texts), sorted(raised - set(texts))
    quoted = set(re.findall(r'"([a-z0-9_]+)"', source))
    quoted |= {f"{kind}_played" for kind in ("action", "upgrade")}  # f"{kind}_played"
    quoted |= {f"expect_{phase}" for phase in ("main", "end")}  # f"expect_{phase}"
    unused = sorted(set(texts) - quoted)
    assert unused == [], unused
