"""PocketModel actions and their JSON (what the phone view sends, view.js ``send(...)``).

Every action is a frozen dataclass; :func:`action_from_json` parses the phone's JSON and
raises :class:`~games.protocol.MalformedAction` naming the field and the allowed values, and
:func:`action_to_json` writes the canonical JSON back (round trip), derived from the fields
(:mod:`games.codec`).

``{"type": ...}``:

* ``fleet`` ``{"deck": deck|null, "units": [{name, stars, attack, damage, defense, shields,
  icons, ground, text, card, deploy}], "casual"?: true}``: bring a fleet (PM-5, PM-8;
  ``casual``: play anyway although it breaks PM-5).
* ``counter`` ``{"unit", "delta": 1|-1}``: one damage counter on or off (PM-23, PM-24).
* ``objective`` ``{"slot", "card"}``: play an objective (PM-10).
* ``move`` ``{"units", "to"}`` (PM-11), ``combat`` ``{"pairs": [[attacker, defender]]}``
  (PM-12), ``strike`` ``{"units"}`` (PM-13), ``carrier`` ``{"carrier", "units"}`` (PM-14).
* battles: ``play`` ``{"card"}`` or ``{"attack", "damage", "defense"}`` (PM-20), ``pass``,
  ``modify`` ``{"unit"|null, "attack", "damage", "defense"}`` (D10), ``roll`` (PM-21, 2d6 per
  unit rolled by the server), ``confirm`` (PM-22..24).
* strikes: ``target`` ``{"slot"}``, ``reveal`` ``{"card"}`` or ``{"defense", "stars"}``
  (PM-30), ``roll`` (PM-31), ``confirm``, ``reinforce`` ``{"units"}`` (PM-32).
* ``end_turn``.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any

from games.actionjson import GameAction, action_kind, brief, field_names
from games.codec import encoder
from games.pocketmodel.state import (
    CARD_ICONS,
    UNIT_ICONS,
    ZONES,
    DeckCard,
    DeckList,
)
from games.protocol import MalformedAction

NAME_CHARS = 40
"""Longest unit or card name."""
TEXT_CHARS = 400
"""Longest ability text."""
ID_CHARS = 40
"""Longest unit or card id."""
MAX_UNITS = 30
"""Most units in a fleet (PM-5: 30 stars, 1 star at least each)."""
MAX_DECK_ENTRIES = 200
"""Most card entries in a deck list."""
MAX_PAIRS = 5
"""Most battle pairs or strikers (PM-12, PM-13: 5 stars, 1 star at least each)."""


class FleetUnit(GameAction):
    """One unit of a fleet as brought (PM-1); ``deploy``: into the home zone (PM-8)."""

    name: str
    stars: int
    attack: int
    damage: int
    defense: int
    shields: int
    icons: tuple[str, ...] = ()
    ground: bool = False
    text: str | None = None
    card: str | None = None
    deploy: bool = True


class Fleet(GameAction):
    """Bring a fleet and its deck list (PM-5, PM-7, PM-8)."""

    units: tuple[FleetUnit, ...]
    deck: DeckList | None = None
    casual: bool = False
    """Play anyway: the players bring it although it breaks the building rules (PM-5); the
    table records which rules and numbers (:attr:`games.pocketmodel.state.Player.casual`)."""


class Counter(GameAction):
    """One damage counter on (+1) or off (-1) a unit in play (PM-23, PM-24)."""

    unit: str
    delta: int


class PlayObjective(GameAction):
    """Replace the objective in ``slot`` with the objective card ``card`` (PM-10)."""

    slot: int
    card: str


class Move(GameAction):
    """Move units worth up to 5 stars to the adjacent zone ``to`` (PM-11)."""

    units: tuple[str, ...]
    to: str


class Combat(GameAction):
    """Battles: each attacker (up to 5 stars in all) attacks one enemy unit (PM-12)."""

    pairs: tuple[tuple[str, str], ...]


class Strike(GameAction):
    """Units in the enemy home zone (up to 5 stars) strike one objective (PM-13: "Greife eines
    der Ziele des Gegners an"; the target follows as ``target``, D15)."""

    units: tuple[str, ...]


class Carrier(GameAction):
    """Carrier power: reserve units worth up to 2 stars into the carrier's zone (PM-14)."""

    carrier: str
    units: tuple[str, ...]


class PlayCard(GameAction):
    """A combat card from the deck list (``card``) or a bonus typed by hand (PM-20)."""

    card: str | None = None
    attack: int = 0
    damage: int = 0
    defense: int = 0


class Pass(GameAction):
    """Play no card now (PM-20)."""


class Modify(GameAction):
    """A modifier from card texts or objectives the engine does not model (D10), for a unit of
    the fight or (``unit`` None) the struck objective."""

    unit: str | None
    attack: int = 0
    damage: int = 0
    defense: int = 0


class Roll(GameAction):
    """Roll the fight's dice: 2d6 per unit (PM-21) or for the strike (PM-31)."""


class Confirm(GameAction):
    """Apply the rolled result (PM-23, PM-24, PM-31)."""


class Target(GameAction):
    """Strike the enemy objective in ``slot`` (PM-30)."""

    slot: int


class Reveal(GameAction):
    """The defender names the face-down objective turned up: a card of the deck list, or its
    printed defense and stars (a fleet without deck list, D9) (PM-30)."""

    card: str | None = None
    defense: int | None = None
    stars: int | None = None


class Reinforce(GameAction):
    """Reserve units into the home zone after losing an objective (PM-32)."""

    units: tuple[str, ...]


class EndTurn(GameAction):
    """End the turn, after its action or passing it (D14)."""


Action = (
    Fleet
    | Counter
    | PlayObjective
    | Move
    | Combat
    | Strike
    | Carrier
    | PlayCard
    | Pass
    | Modify
    | Roll
    | Confirm
    | Target
    | Reveal
    | Reinforce
    | EndTurn
)
"""Every PocketModel action."""

_KINDS: dict[str, type[Any]] = {
    "fleet": Fleet,
    "counter": Counter,
    "objective": PlayObjective,
    "move": Move,
    "combat": Combat,
    "strike": Strike,
    "carrier": Carrier,
    "play": PlayCard,
    "pass": Pass,
    "modify": Modify,
    "roll": Roll,
    "confirm": Confirm,
    "target": Target,
    "reveal": Reveal,
    "reinforce": Reinforce,
    "end_turn": EndTurn,
}
"""Action ``type`` -> its class; the JSON's other keys are the class's fields."""
_FIELDS = {kind: field_names(c) for kind, c in _KINDS.items()}
_WRITE: dict[type[Any], tuple[str, Callable[[Any], dict[str, Any]]]] = {
    c: (kind, encoder(c)) for kind, c in _KINDS.items()
}
_WRITE_UNIT = encoder(FleetUnit)
_WRITE_DECK = encoder(DeckList)
TYPES = tuple(_FIELDS)
"""Every action ``type``."""


def _int(data: dict[str, Any], key: str, low: int, high: int, default: int | None = None) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise MalformedAction(f"{key} must be an integer {low}..{high}, got {brief(value)}")
    return value


def _opt_int(data: dict[str, Any], key: str, low: int, high: int) -> int | None:
    if data.get(key) is None:
        return None
    return _int(data, key, low, high)


def _text(data: dict[str, Any], key: str, limit: int, *, optional: bool = False) -> str | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not len(value.strip()) >= 1 or len(value) > limit:
        allowed = "null or " if optional else ""
        raise MalformedAction(
            f"{key} must be {allowed}text of 1..{limit} characters, got {brief(value)}"
        )
    return value.strip()


def _ident(value: Any, key: str) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= ID_CHARS:
        raise MalformedAction(f"{key} must be an id (1..{ID_CHARS} characters), got {brief(value)}")
    return value


def _ids(data: dict[str, Any], key: str, most: int) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, list) or len(value) > most:
        raise MalformedAction(
            f"{key} must be a list of at most {most} unit ids, got {brief(value)}"
        )
    ids = tuple(_ident(v, key) for v in value)
    if len(set(ids)) != len(ids):
        raise MalformedAction(f"{key} names a unit twice: {list(ids)}")
    return ids


def _icons(value: Any, allowed: tuple[str, ...], key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > 4 or any(v not in allowed for v in value):
        raise MalformedAction(
            f"{key} must be a list of up to 4 of {list(allowed)}, got {brief(value)}"
        )
    return tuple(value)


def _bool(data: dict[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise MalformedAction(f"{key} must be true or false, got {brief(value)}")
    return value


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise MalformedAction(f"{what} must be a JSON object, got {brief(value)}")
    return value


def fleet_unit_from_json(data: Any) -> FleetUnit:
    """Parse one unit of a fleet (PM-1 ranges: stars 1..5, Attack/Damage 0..9, Defense and
    Shields 0..20, icons green or silver).

    Raises:
        MalformedAction: a field missing or out of range (named).
    """
    data = _object(data, "each of units")
    unknown = set(data) - {
        "name",
        "stars",
        "attack",
        "damage",
        "defense",
        "shields",
        "icons",
        "ground",
        "text",
        "card",
        "deploy",
    }
    if unknown:
        raise MalformedAction(f"unknown fields of a fleet unit: {sorted(unknown)}")
    card = data.get("card")
    return FleetUnit(
        name=_text(data, "name", NAME_CHARS) or "",
        stars=_int(data, "stars", 1, 5),
        attack=_int(data, "attack", 0, 9),
        damage=_int(data, "damage", 0, 9),
        defense=_int(data, "defense", 0, 20),
        shields=_int(data, "shields", 0, 20),
        icons=_icons(data.get("icons", []), UNIT_ICONS, "icons"),
        ground=_bool(data, "ground", False),
        text=_text(data, "text", TEXT_CHARS, optional=True),
        card=None if card is None else _ident(card, "card"),
        deploy=_bool(data, "deploy", True),
    )


def deck_from_action_json(data: Any) -> DeckList | None:
    """Parse a fleet's deck list: ``{"slug"?, "title"?, "cards": [{id, type, name, bonus_*,
    icons, text, stars, defense, copies}]}`` or null.

    Raises:
        MalformedAction: a field missing or out of range, or a card id used twice.
    """
    if data is None:
        return None
    data = _object(data, "deck")
    cards_data = data.get("cards")
    if not isinstance(cards_data, list) or len(cards_data) > MAX_DECK_ENTRIES:
        raise MalformedAction(f"deck.cards must be a list of at most {MAX_DECK_ENTRIES} cards")
    cards = []
    for raw in cards_data:
        raw = _object(raw, "each of deck.cards")
        kind = raw.get("type")
        if kind not in ("combat", "objective"):
            raise MalformedAction(f"type must be combat or objective, got {brief(kind)}")
        cards.append(
            DeckCard(
                id=_ident(raw.get("id"), "id"),
                type=kind,
                name=_text(raw, "name", NAME_CHARS) or "",
                bonus_attack=_int(raw, "bonus_attack", 0, 9, 0),
                bonus_damage=_int(raw, "bonus_damage", 0, 9, 0),
                bonus_defense=_int(raw, "bonus_defense", 0, 9, 0),
                icons=_icons(raw.get("icons", []), CARD_ICONS, "icons"),
                text=_text(raw, "text", TEXT_CHARS, optional=True),
                stars=_int(raw, "stars", 1, 5),
                defense=_int(raw, "defense", 1, 20),
                copies=_int(raw, "copies", 1, 99, 1),
            )
        )
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        raise MalformedAction("deck.cards: every card id must be unique")
    slug, title = data.get("slug"), data.get("title")
    if slug is not None:
        slug = _ident(slug, "deck.slug")
    if title is not None and (not isinstance(title, str) or len(title) > 60):
        raise MalformedAction(
            f"deck.title must be text of at most 60 characters, got {brief(title)}"
        )
    return DeckList(slug=slug, title=title, cards=tuple(cards))


def fleet_from_json(data: dict[str, Any]) -> Fleet:
    """Parse ``{"deck", "units"}`` (the ``fleet`` action, also used in a setup).

    Raises:
        MalformedAction: see :func:`fleet_unit_from_json` and :func:`deck_from_action_json`.
    """
    units = data.get("units")
    if not isinstance(units, list) or not 1 <= len(units) <= MAX_UNITS:
        raise MalformedAction(f"units must be a list of 1..{MAX_UNITS} units, got {brief(units)}")
    casual = data.get("casual", False)
    if not isinstance(casual, bool):
        raise MalformedAction(f"casual must be true or false, got {brief(casual)}")
    return Fleet(
        units=tuple(fleet_unit_from_json(u) for u in units),
        deck=deck_from_action_json(data.get("deck")),
        casual=casual,
    )


def fleet_to_json(fleet: Fleet) -> dict[str, Any]:
    """``{"deck", "units"}`` (without ``type``; each unit and the deck list field by field),
    and ``"casual": true`` for a fleet played anyway."""
    return {
        **({"casual": True} if fleet.casual else {}),
        "deck": None if fleet.deck is None else _WRITE_DECK(fleet.deck),
        "units": [_WRITE_UNIT(u) for u in fleet.units],
    }


def action_from_json(data: Any) -> Action:
    """Parse a JSON action (see the module docstring for the shapes).

    Raises:
        MalformedAction: not an object, an unknown ``type`` or field, a value out of range.
    """
    kind = action_kind(data, _FIELDS)
    if kind == "fleet":
        return fleet_from_json(data)
    if kind == "counter":
        delta = data.get("delta")
        if delta not in (1, -1) or isinstance(delta, bool):
            raise MalformedAction(f"delta must be 1 or -1, got {brief(delta)}")
        return Counter(unit=_ident(data.get("unit"), "unit"), delta=int(delta))
    if kind == "objective":
        return PlayObjective(slot=_int(data, "slot", 1, 3), card=_ident(data.get("card"), "card"))
    if kind == "move":
        to = data.get("to")
        if to not in ZONES:
            raise MalformedAction(f"to must be one of {list(ZONES)}, got {brief(to)}")
        units = _ids(data, "units", MAX_PAIRS)
        if not units:
            raise MalformedAction("units must name at least one unit")
        return Move(units=units, to=to)
    if kind == "combat":
        pairs = data.get("pairs")
        if (
            not isinstance(pairs, list)
            or not 1 <= len(pairs) <= MAX_PAIRS
            or not all(isinstance(p, list) and len(p) == 2 for p in pairs)
        ):
            raise MalformedAction(
                f"pairs must be a list of 1..{MAX_PAIRS} [attacker, defender] pairs, got {brief(pairs)}"
            )
        return Combat(pairs=tuple((_ident(a, "pairs"), _ident(d, "pairs")) for a, d in pairs))
    if kind == "strike":
        units = _ids(data, "units", MAX_PAIRS)
        if not units:
            raise MalformedAction("units must name at least one unit")
        return Strike(units=units)
    if kind == "carrier":
        units = _ids(data, "units", 2)
        if not units:
            raise MalformedAction("units must name at least one unit")
        return Carrier(carrier=_ident(data.get("carrier"), "carrier"), units=units)
    if kind == "play":
        card = data.get("card")
        bonus = [_int(data, k, 0, 9, 0) for k in ("attack", "damage", "defense")]
        if card is not None:
            if any(bonus):
                raise MalformedAction("play: give a card or a bonus, not both")
            return PlayCard(card=_ident(card, "card"))
        return PlayCard(card=None, attack=bonus[0], damage=bonus[1], defense=bonus[2])
    if kind == "modify":
        unit = data.get("unit")
        return Modify(
            unit=None if unit is None else _ident(unit, "unit"),
            attack=_int(data, "attack", -9, 9, 0),
            damage=_int(data, "damage", -9, 9, 0),
            defense=_int(data, "defense", -9, 9, 0),
        )
    if kind == "target":
        return Target(slot=_int(data, "slot", 1, 3))
    if kind == "reveal":
        card = data.get("card")
        defense, stars = _opt_int(data, "defense", 1, 20), _opt_int(data, "stars", 1, 5)
        if card is not None:
            if defense is not None or stars is not None:
                raise MalformedAction("reveal: give a card or its defense and stars, not both")
            return Reveal(card=_ident(card, "card"))
        if defense is None or stars is None:
            raise MalformedAction("reveal: give a card, or the objective's defense and stars")
        return Reveal(card=None, defense=defense, stars=stars)
    if kind == "reinforce":
        return Reinforce(units=_ids(data, "units", 30))
    return typing.cast(Action, _KINDS[kind]())  # pass, roll, confirm, end_turn: no fields


def action_to_json(action: Action) -> dict[str, Any]:
    """The canonical JSON of an action (round trip with :func:`action_from_json`):
    ``{"type", ...its fields}``; a fleet as :func:`fleet_to_json`, a ``play`` or ``reveal`` with
    a card as ``{"type", "card"}`` and without one without ``card``."""
    if isinstance(action, Fleet):
        return {"type": "fleet", **fleet_to_json(action)}
    kind, write = _WRITE[type(action)]
    data = write(action)
    if isinstance(action, (PlayCard, Reveal)):
        card = data.pop("card")
        if card is not None:
            return {"type": kind, "card": card}
    return {"type": kind, **data}
