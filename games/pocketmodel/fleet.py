"""Fleets at the table: the building and deployment limits (PM-5, PM-7, PM-8), a deck file
turned into a ``fleet`` action, and the fleets the examples and playouts use.

Pure: a deck comes in parsed (:class:`games.cards.deck.Deck`), nothing is read here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from games.pocketmodel.actions import Fleet, FleetUnit, fleet_to_json
from games.pocketmodel.cards import (
    DECK_MAX_COPIES,
    DECK_MIN_CARDS,
    FLEET_MAX_STARS,
    PocketModelCard,
    PocketModelUnit,
)
from games.pocketmodel.messages import MESSAGES
from games.pocketmodel.state import (
    RESERVE,
    DeckCard,
    DeckList,
    Objective,
    Player,
    State,
    Unit,
    home,
)
from games.protocol import SEATS, GameError, Reason, SetupError

DEPLOY_MAX_STARS = 20
"""PM-8: units worth up to 20 stars start in the home zone."""
OBJECTIVES = 3
"""PM-7: three objectives face down."""


def building_problems(fleet: Fleet) -> list[GameError]:
    """Every way the fleet breaks the building rules (PM-5), as refusals with their message id
    and numbers: fleet over 30 stars, deck under 30 cards, more than 3 copies of a card. Empty
    when legal."""
    problems: list[GameError] = []
    stars = sum(u.stars for u in fleet.units)
    if stars > FLEET_MAX_STARS:
        problems.append(
            MESSAGES.error("fleet_stars", "PM-5", SetupError, stars=stars, most=FLEET_MAX_STARS)
        )
    if fleet.deck is not None:
        try:
            check_deck_cards(fleet.deck.cards)
        except SetupError as exc:
            problems.append(exc)
    return problems


def check_fleet(fleet: Fleet) -> None:
    """The building and deployment limits of a fleet; a casual fleet (played anyway) skips
    the building rules (PM-5), never the deployment (PM-8).

    Raises:
        SetupError: fleet over 30 stars or deck under 30 cards or over 3 copies of a card
            (PM-5); deployed units over 20 stars or none deployed (PM-8). The message gives the
            numbers, e.g. ``"fleet has 31 stars, at most 30 (PM-5)"``.
    """
    problems = [] if fleet.casual else building_problems(fleet)
    if problems:
        raise problems[0]
    deployed = sum(u.stars for u in fleet.units if u.deploy)
    if deployed > DEPLOY_MAX_STARS:
        raise MESSAGES.error(
            "deployed_stars", "PM-8", SetupError, stars=deployed, most=DEPLOY_MAX_STARS
        )
    if deployed == 0:
        raise MESSAGES.error("deploy_one", "PM-8", SetupError)


def check_deck_cards(cards: Sequence[DeckCard]) -> None:
    """PM-5 for the deck list: at least 30 cards, at most 3 copies of each.

    Raises:
        SetupError: with the numbers (``"deck has 24 cards, at least 30 (PM-5)"``).
    """
    size = sum(c.copies for c in cards)
    if size < DECK_MIN_CARDS:
        raise MESSAGES.error("deck_size", "PM-5", SetupError, size=size, least=DECK_MIN_CARDS)
    for card in cards:
        if card.copies > DECK_MAX_COPIES:
            raise MESSAGES.error(
                "deck_copies",
                "PM-5",
                SetupError,
                copies=card.copies,
                card=card.name,
                most=DECK_MAX_COPIES,
            )


def place_fleet(state: State, seat: str, fleet: Fleet) -> State:
    """The state with ``seat``'s fleet on the table: units ``<seat>1``.. in fleet order,
    deployed ones in the home zone, the rest in the reserve (PM-8), three face-down
    objectives (PM-7). The caller has run :func:`check_fleet`.
    """
    units = tuple(
        Unit(
            id=f"{seat}{n}",
            seat=seat,
            name=u.name,
            stars=u.stars,
            attack=u.attack,
            damage=u.damage,
            defense=u.defense,
            shields=u.shields,
            icons=u.icons,
            ground=u.ground,
            text=u.text,
            card=u.card,
            place=home(seat) if u.deploy else RESERVE,
        )
        for n, u in enumerate(fleet.units, start=1)
    )
    player = Player(
        deck=fleet.deck,
        objectives=tuple(Objective(slot=n) for n in range(1, OBJECTIVES + 1)),
        casual=tuple(Reason.of(e) for e in building_problems(fleet)) if fleet.casual else (),
    )
    players = tuple(player if s == seat else state.player(s) for s in SEATS)
    ordered = tuple(sorted(state.units + units, key=lambda u: (u.seat, int(u.id[1:]))))
    return replace(state, players=(players[0], players[1]), units=ordered)


def fleet_from_deck(deck: Any, casual: bool = False) -> Fleet:
    """A parsed deck file (:class:`games.cards.deck.Deck` of ``game: pocketmodel``) as a fleet:
    each unit card once per copy, deployed in file order while the deployed stars stay within
    20 (PM-8, the rest to the reserve); the combat and objective cards as the deck list.

    Args:
        deck: the parsed deck.
        casual: play anyway: a deck that breaks PM-5 is brought as a casual fleet.

    Raises:
        SetupError: the deck breaks PM-5 (fleet over 30 stars, deck under 30 cards, more than
            3 copies) and is not casual, it has no unit, or a unit does not fit the table's
            limits.
    """
    units: list[FleetUnit] = []
    deployed = 0
    cards: list[DeckCard] = []
    for card in deck.cards:
        if isinstance(card, PocketModelUnit):
            for _ in range(card.copies):
                deploy = deployed + card.stars <= DEPLOY_MAX_STARS
                deployed += card.stars if deploy else 0
                units.append(
                    FleetUnit(
                        name=card.name[:40],
                        stars=card.stars,
                        attack=card.attack,
                        damage=card.damage,
                        defense=card.defense,
                        shields=card.shields,
                        icons=tuple(card.icons),
                        ground=card.ground,
                        text=card.text,
                        card=card.id,
                        deploy=deploy,
                    )
                )
        elif isinstance(card, PocketModelCard):
            cards.append(
                DeckCard(
                    id=card.id,
                    type=card.type,
                    name=card.name[:40],
                    bonus_attack=card.bonus_attack,
                    bonus_damage=card.bonus_damage,
                    bonus_defense=card.bonus_defense,
                    icons=tuple(card.icons),
                    text=card.text,
                    stars=card.stars,
                    defense=card.defense,
                    copies=card.copies,
                )
            )
    if not units:
        raise MESSAGES.error("deck_no_units", "PM-5", SetupError)
    fleet = Fleet(
        units=tuple(units), deck=DeckList(slug=deck.slug, title=deck.title, cards=tuple(cards))
    )
    fleet = replace(fleet, casual=casual and bool(building_problems(fleet)))
    check_fleet(fleet)
    return fleet


def fleet_action(fleet: Fleet) -> dict[str, Any]:
    """The ``fleet`` action JSON that brings ``fleet`` to the table."""
    return {"type": "fleet", **fleet_to_json(fleet)}


def _unit(
    name: str, stars: int, a: int, d: int, df: int, sh: int, icons: str, deploy: bool
) -> FleetUnit:
    return FleetUnit(
        name=name,
        stars=stars,
        attack=a,
        damage=d,
        defense=df,
        shields=sh,
        icons=tuple(icons.split()),
        deploy=deploy,
    )


def _card(
    cid: str,
    kind: str,
    name: str,
    bonus: tuple[int, int, int],
    icons: str,
    stars: int,
    defense: int,
) -> DeckCard:
    return DeckCard(
        id=cid,
        type=kind,
        name=name,
        bonus_attack=bonus[0],
        bonus_damage=bonus[1],
        bonus_defense=bonus[2],
        icons=tuple(icons.split()),
        text=None,
        stars=stars,
        defense=defense,
        copies=3,
    )


EXAMPLE_DECK = DeckList(
    slug="example",
    title="Example deck",
    cards=(
        _card("steady", "combat", "Steady", (1, 0, 0), "", 1, 6),
        _card("overdrive", "combat", "Overdrive", (2, 1, 0), "Laser", 2, 7),
        _card("volley", "combat", "Volley", (0, 2, 0), "Torpedo", 3, 8),
        _card("brace", "combat", "Brace", (0, 0, 3), "", 1, 6),
        _card("broadside", "combat", "Broadside", (1, 1, 0), "Turbolaser", 2, 7),
        _card("rally", "combat", "Rally", (2, 0, 1), "Leader Force", 2, 8),
        _card("beacon", "objective", "Beacon", (0, 0, 0), "", 2, 9),
        _card("depot", "objective", "Depot", (0, 0, 0), "", 3, 10),
        _card("array", "objective", "Array", (0, 0, 0), "Droid", 2, 8),
        _card("dock", "objective", "Dock", (0, 0, 0), "Carrier", 4, 12),
    ),
)
"""A legal deck list (30 cards, 3 copies each) for the examples, tests and benchmark."""

STANDARD_FLEET = Fleet(
    units=(
        _unit("Frigate", 5, 4, 3, 11, 6, "Carrier Leader", True),
        _unit("Cruiser", 5, 5, 4, 12, 5, "Turbolaser", True),
        _unit("Walker", 4, 3, 3, 10, 4, "Troops Laser", True),
        _unit("Lancer", 4, 4, 2, 9, 3, "Torpedo Leader", True),
        _unit("Skiff", 4, 3, 2, 10, 3, "Laser Droid", False),
        _unit("Runner", 3, 3, 2, 8, 2, "Laser", False),
        _unit("Shuttle", 2, 2, 1, 7, 2, "Troops", True),
        _unit("Drone", 2, 1, 1, 7, 1, "Droid", False),
    ),
    deck=EXAMPLE_DECK,
)
"""A legal fleet (29 stars, 20 deployed) with :data:`EXAMPLE_DECK`: the one fleet that
``legal_actions`` lists in the fleets phase (D8) and the examples bring."""
