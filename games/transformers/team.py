"""Team building and setup: TF-3 (stars, one copy per character, the deck), TF-5 (alt mode,
the starting player), a deck file's team (``setup_from_deck``), and example teams.

Source: shared/rules/transformers.md TF-3, TF-5; decisions D1, D2, D20 in
:mod:`games.transformers`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.protocol import SEATS, GameError, IllegalAction, Reason
from games.transformers.cards import TransformersBattleCard, TransformersCharacter
from games.transformers.messages import MESSAGES
from games.transformers.state import (
    DECK_MAX_COPIES,
    DECK_MIN_CARDS,
    TEAM_MAX_STARS,
    BattleCard,
    Character,
    Mode,
    Recruit,
    State,
    Team,
    ThisTurn,
    Variant,
    other,
)

PURPOSE_FIRST_PLAYER = "starting player (TF-5)"
"""The purpose of the server's roll for the starting player (the phone translates it)."""


@dataclass(frozen=True, kw_only=True)
class BringTeam:
    """The ``team`` action: a seat brings its characters and deck list (D1).

    Attributes:
        seat: the seat bringing it (must be the sender).
        deck: the deck file's slug, or None (quick entry).
        title: the deck's title, or None.
        battle_cards: the deck list (empty for quick entry).
        characters: 1..25 characters.
        casual: play anyway: the team is brought although it breaks TF-3; the table records
            which rules and numbers (:attr:`games.transformers.state.Team.casual`).
    """

    seat: str
    characters: tuple[Recruit, ...]
    deck: str | None = None
    title: str | None = None
    battle_cards: tuple[BattleCard, ...] = ()
    casual: bool = False


def team_problems(
    characters: Sequence[Recruit], battle_cards: Sequence[BattleCard], variant: Variant
) -> list[GameError]:
    """Every way a team breaks TF-3, with the numbers.

    Args:
        characters: the team's characters (a copy per entry).
        battle_cards: the deck list; empty for a quick-entry team, whose deck the companion
            does not know (the deck limits are then not checked, D2).
        variant: ``count_battle_stars`` adds battle card stars (official reading, D2).

    Returns:
        The refusals (not raised), such as "team has 27 stars, at most 25 (TF-3)"; empty
        when legal.
    """
    problems: list[GameError] = []
    if not characters:
        problems.append(MESSAGES.error("team_empty", "TF-3"))
    stars = sum(c.stars for c in characters)
    if variant.count_battle_stars:
        extra = sum(b.stars * b.copies for b in battle_cards)
        if stars + extra > TEAM_MAX_STARS:
            problems.append(
                MESSAGES.error(
                    "team_stars_cards",
                    "TF-3",
                    stars=stars + extra,
                    on_characters=stars,
                    on_cards=extra,
                    most=TEAM_MAX_STARS,
                )
            )
    elif stars > TEAM_MAX_STARS:
        problems.append(MESSAGES.error("team_stars", "TF-3", stars=stars, most=TEAM_MAX_STARS))
    copies = Counter(c.full_name for c in characters)
    problems.extend(
        MESSAGES.error("character_copies", "TF-3", copies=n, name=name)
        for name, n in copies.items()
        if n > 1
    )
    if battle_cards:
        size = sum(b.copies for b in battle_cards)
        if size < DECK_MIN_CARDS:
            problems.append(MESSAGES.error("deck_size", "TF-3", size=size, least=DECK_MIN_CARDS))
        problems.extend(
            MESSAGES.error(
                "deck_copies", "TF-3", copies=b.copies, name=b.name, most=DECK_MAX_COPIES
            )
            for b in battle_cards
            if b.copies > DECK_MAX_COPIES
        )
    return problems


def joined(problems: Sequence[GameError], cls: type[GameError]) -> GameError:
    """One refusal for every problem of a team (TF-3): the English text names them all; the
    phone shows the first one's text (its message id and values)."""
    first = problems[0]
    return cls(
        "; ".join(str(p) for p in problems),
        rule="TF-3",
        message_id=first.message_id,
        values=first.values,
        problems=problems,
    )


def check_bring(state: State, seat: str, action: BringTeam) -> None:
    """Whether ``seat`` may bring this team now (the seat check is the caller's).

    Raises:
        IllegalAction: not the team phase, the seat already brought one, or TF-3 broken.
    """
    if state.phase != "team":
        raise MESSAGES.error("teams_in", "TF-3")
    if state.team(seat) is not None:
        raise MESSAGES.error("team_brought", "TF-3", seat=seat)
    problems = team_problems(action.characters, action.battle_cards, state.variant)
    if problems and not action.casual:  # a casual team is played anyway (it needs a character)
        raise joined(problems, IllegalAction)


def needs_first_player(state: State, seat: str) -> bool:
    """True when this seat's team is the second one: then the starting player is rolled."""
    return state.phase == "team" and state.team(other(seat)) is not None


def bring(state: State, seat: str, action: BringTeam, first_face: int | None) -> State:
    """The state after ``seat`` brings its team (checked by :func:`check_bring`).

    Characters get the ids ``<seat>1``, ``<seat>2``, ... (D20) and start in alt mode, untapped
    (TF-5). With the second team the game starts: ``first_face`` (1d2) names the starting
    player (1 = A, 2 = B, TF-5).
    """
    casual = (
        team_problems(action.characters, action.battle_cards, state.variant)
        if action.casual
        else []
    )
    team = Team(
        deck=action.deck,
        title=action.title,
        battle_cards=action.battle_cards,
        casual=tuple(Reason.of(p) for p in casual),
    )
    teams = (team, state.teams[1]) if seat == "A" else (state.teams[0], team)
    recruits = tuple(
        Character(id=f"{seat}{n}", seat=seat, recruit=r)
        for n, r in enumerate(action.characters, start=1)
    )
    characters = tuple(sorted(state.characters + recruits, key=lambda c: c.seat))
    state = replace(state, teams=teams, characters=characters)
    if first_face is None:
        return replace(state, player=other(seat))
    first = SEATS[first_face - 1]
    return replace(
        state, phase="main", player=first, first_player=first, turn=1, this_turn=ThisTurn()
    )


# ------------------------------------------------------------------------------- decks


def recruits_of_deck(deck: Any) -> tuple[tuple[Recruit, ...], tuple[BattleCard, ...]]:
    """A deck file's characters (one per copy) and deck list (:class:`games.cards.Deck`)."""
    recruits: list[Recruit] = []
    battle: list[BattleCard] = []
    for card in deck.cards:
        if isinstance(card, TransformersCharacter):
            recruit = Recruit(
                card=card.id,
                name=card.name,
                faction=card.faction,
                stars=card.stars,
                health=card.health,
                alt=_mode(card.side("alt")),
                bot=_mode(card.side("bot")),
            )
            recruits.extend([recruit] * card.copies)
        elif isinstance(card, TransformersBattleCard):
            battle.append(
                BattleCard(
                    card=card.id,
                    name=card.name,
                    type=card.type,
                    upgrade=card.upgrade,
                    icons=tuple(card.icons),
                    stars=card.stars,
                    copies=card.copies,
                )
            )
    return tuple(recruits), tuple(battle)


def _mode(side: Any) -> Mode:
    return Mode(
        attack=side.attack,
        defense=side.defense,
        subtitle=side.subtitle,
        traits=side.traits,
        text=side.text,
    )


# ---------------------------------------------------------------------------- examples


def example_team(seat: str, *, with_deck: bool) -> BringTeam:
    """A legal team for ``seat`` (tests, benchmarks and the team phase's legal actions).

    Without a deck: three quick-entry characters, 22 stars. With a deck: the same characters
    and a 42-card deck list (14 cards x 3, 3 stars on battle cards: 25 even when they count).
    """
    recruits = (
        Recruit(
            card="ridgeback" if with_deck else None,
            name="Ridgeback",
            faction="Autobot" if with_deck else None,
            stars=9,
            health=11,
            alt=Mode(attack=2, defense=2, subtitle="Hauler"),
            bot=Mode(attack=4, defense=1, subtitle="Guard"),
        ),
        Recruit(
            card="swiftwing" if with_deck else None,
            name="Swiftwing",
            faction="Autobot" if with_deck else None,
            stars=7,
            health=8,
            alt=Mode(attack=3, defense=0),
            bot=Mode(attack=2, defense=2),
        ),
        Recruit(
            card="gravel" if with_deck else None,
            name="Gravel",
            faction="Autobot" if with_deck else None,
            stars=6,
            health=7,
            alt=Mode(attack=1, defense=1),
            bot=Mode(attack=3, defense=1),
        ),
    )
    if not with_deck:
        return BringTeam(seat=seat, characters=recruits)
    slots = ("weapon", "armor", "utility")
    colours = ("orange", "blue", "white")
    cards = tuple(
        BattleCard(
            card=f"card-{n}",
            name=f"Card {n}",
            type="action" if n % 2 else "upgrade",
            upgrade=None if n % 2 else slots[n % 3],
            icons=(colours[n % 3],) * (n % 3),
            stars=1 if n == 1 else 0,
            copies=3,
        )
        for n in range(1, 15)
    )
    return BringTeam(
        seat=seat, characters=recruits, deck="example", title="Example", battle_cards=cards
    )
