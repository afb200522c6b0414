"""Helpers for the Transformers engine tests: small teams, a table, one-line actions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.cards.deck import Deck, parse_deck_text
from games.registry import CARD_GAMES
from games.transformers.game import GAME
from games.transformers.state import State

ROOT = Path(__file__).resolve().parents[2]
DEMO_YAML = ROOT / "games" / "transformers" / "demo" / "transformers.yaml"


def character(
    name: str,
    *,
    stars: int = 5,
    health: int = 6,
    alt: tuple[int, int] = (2, 1),
    bot: tuple[int, int] = (4, 0),
    subtitle: str | None = None,
    card: str | None = None,
) -> dict[str, Any]:
    """A team entry as the phone's quick entry sends it."""
    entry: dict[str, Any] = {
        "card": card,
        "name": name,
        "stars": stars,
        "health": health,
        "alt": {"attack": alt[0], "defense": alt[1]},
        "bot": {"attack": bot[0], "defense": bot[1]},
    }
    if subtitle is not None:
        entry["alt"]["subtitle"] = subtitle
    return entry


TEAM_A = [
    character("Alpha", health=6, alt=(2, 1), bot=(4, 0)),
    character("Beta", health=5, alt=(1, 2), bot=(2, 2)),
]
TEAM_B = [
    character("Gamma", health=6, alt=(3, 1), bot=(1, 3)),
    character("Delta", health=4, alt=(1, 1), bot=(2, 1)),
]


def team(
    seat: str,
    characters: list[dict[str, Any]],
    battle_cards: list[dict[str, Any]] | None = None,
    deck: str | None = None,
) -> dict[str, Any]:
    """A ``team`` action."""
    return {
        "type": "team",
        "seat": seat,
        "deck": deck,
        "title": None,
        "battle_cards": battle_cards or [],
        "characters": characters,
    }


def deck_list(cards: int = 14, copies: int = 3, stars: int = 0) -> list[dict[str, Any]]:
    """A deck list: odd cards are actions, even ones upgrades (weapon, armor, utility)."""
    slots = ("weapon", "armor", "utility")
    return [
        {
            "card": f"c{n}",
            "name": f"Card {n}",
            "type": "action" if n % 2 else "upgrade",
            "upgrade": None if n % 2 else slots[(n // 2) % 3],
            "icons": [],
            "stars": stars if n == 1 else 0,
            "copies": copies,
        }
        for n in range(1, cards + 1)
    ]


SCENARIO = {"must_attack": False}
"""The flags a scenario table opens with unless the test names its own: attacking optional
(the former default), so scenarios of other rules may end a turn without an attack; the
default ``must_attack`` (D9) is tested with it named."""


def empty_table(variant: dict[str, bool] | None = None) -> State:
    """A table set up with ``variant`` (missing flags: :data:`SCENARIO`, then the game's
    defaults), waiting for the teams."""
    request = {"type": "setup", "variant": {**SCENARIO, **(variant or {})}}
    return GAME.start(GAME.setup_event(GAME.parse_setup(request), ()))


def table(
    variant: dict[str, bool] | None = None,
    *,
    a: list[dict[str, Any]] | None = None,
    b: list[dict[str, Any]] | None = None,
    a_cards: list[dict[str, Any]] | None = None,
    first: str = "A",
) -> State:
    """Both teams in, ``first`` to play turn 1 (the die of TF-5: 1 = A, 2 = B)."""
    state = empty_table(variant)
    state = GAME.apply(state, "A", GAME.parse_action(team("A", a or TEAM_A, a_cards)))
    face = 1 if first == "A" else 2
    return GAME.apply(state, "B", GAME.parse_action(team("B", b or TEAM_B)), ((face,),))


def act(state: State, seat: str, kind: str, /, **fields: Any) -> State:
    """Apply ``{"type": kind, **fields}`` as ``seat`` (through the JSON parser)."""
    return GAME.apply(state, seat, GAME.parse_action({"type": kind, **fields}))


def turn_to(state: State, turn: int) -> State:
    """Draw and end turns until ``turn`` begins (no attacks)."""
    while state.turn < turn:
        if not state.this_turn.drawn:
            state = act(state, state.player, "draw")
        state = act(state, state.player, "end_turn")
    return state


def flips(state: State, attacker: dict[str, int], defender: dict[str, int]) -> State:
    """Enter the first flip of both sides (the attacker's phone enters both, D19)."""
    state = act(state, state.player, "icons", side="attacker", **attacker)
    return act(state, state.player, "icons", side="defender", **defender)


def demo_deck(text: str | None = None) -> Deck:
    """The shipped demo deck, or a variant of its text."""
    source = DEMO_YAML.read_text(encoding="utf-8") if text is None else text
    return parse_deck_text(
        source, games=CARD_GAMES, source="transformers.yaml", default_slug="transformers"
    )
