"""JSON of the Transformers values: modes, recruits, deck lists and the whole table state.

The phone view (``companion/views/transformers/view.js``) draws from this JSON plus the
derived values of :mod:`games.transformers.view`. Readers are strict: an unknown field, a
wrong type or a value out of range raises :class:`Invalid` naming the field, the allowed
values and what was found; the callers turn it into ``MalformedAction`` (actions) or
``StateError`` (stored states).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import fields
from typing import Any

from games.codec import decoder, encoder, json_object, or_none
from games.protocol import SEATS, Reason, StateError
from games.transformers.state import (
    FACTIONS,
    FIGHTER_SIDES,
    ICONS,
    SLOTS,
    Attack,
    AttackResult,
    BattleCard,
    Character,
    Icons,
    Mode,
    Recruit,
    State,
    Team,
    ThisTurn,
    Upgrade,
    Variant,
)

SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
"""Deck and card ids (the slugs of deck files)."""
CHARACTER_ID = re.compile(r"[AB][0-9]{1,2}")
"""Character ids (D20)."""
MAX_CHARACTERS = 25
"""A team has at most 25 characters (each has at least 1 of the 25 stars, TF-3)."""
MAX_BATTLE_CARDS = 200
"""Entries of a deck list."""


class Invalid(ValueError):
    """A JSON value that does not fit: names the field, the allowed values and the value."""


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "\u2026"


def obj(
    data: Any, where: str, required: AbstractSet[str], optional: AbstractSet[str] = frozenset()
) -> dict[str, Any]:
    """``data`` as a JSON object with exactly the ``required`` keys and some ``optional`` ones.

    Raises:
        Invalid: not an object, a missing or an unknown field.
    """
    if not isinstance(data, dict):
        raise Invalid(f"{where} must be a JSON object, got {_shown(data)}")
    missing = sorted(required - data.keys())
    if missing:
        raise Invalid(f"{where}: missing field {missing[0]!r}")
    unknown = sorted(str(k) for k in data.keys() - required - optional)
    if unknown:
        allowed = ", ".join(sorted(required | optional))
        raise Invalid(f"{where}: unknown field {unknown[0][:30]!r}; fields are {allowed}")
    return data


def integer(value: Any, where: str, low: int, high: int) -> int:
    """``value`` as an int in ``low..high``.

    Raises:
        Invalid: not a whole number (booleans included) or out of range.
    """
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Invalid(f"{where} must be a whole number {low}..{high}, got {_shown(value)}")
    return value


def flag(value: Any, where: str) -> bool:
    """``value`` as a bool.

    Raises:
        Invalid: not true or false.
    """
    if not isinstance(value, bool):
        raise Invalid(f"{where} must be true or false, got {_shown(value)}")
    return value


def text(value: Any, where: str, longest: int, *, empty: bool = True) -> str:
    """``value`` as one line of at most ``longest`` characters.

    Raises:
        Invalid: not a string, too long, empty where not allowed, or with control characters.
    """
    if not isinstance(value, str) or len(value) > longest or (not empty and not value.strip()):
        need = "" if empty else "non-empty "
        raise Invalid(
            f"{where} must be {need}text of at most {longest} characters, got {_shown(value)}"
        )
    if any(ord(ch) < 32 and ch != "\n" for ch in value):
        raise Invalid(f"{where} must not hold control characters, got {_shown(value)}")
    return value


def optional_text(value: Any, where: str, longest: int) -> str | None:
    """None, or :func:`text` (an empty string is None)."""
    if value is None:
        return None
    return text(value, where, longest) or None


def choice(value: Any, where: str, allowed: tuple[str, ...]) -> str:
    """``value`` if it is one of ``allowed``.

    Raises:
        Invalid: anything else (the message lists ``allowed``).
    """
    if not isinstance(value, str) or value not in allowed:
        raise Invalid(f"{where} must be one of {', '.join(allowed)}, got {_shown(value)}")
    return value


def slug(value: Any, where: str) -> str:
    """A deck or card id: 1..64 of a-z, 0-9 and '-'.

    Raises:
        Invalid: anything else.
    """
    if not isinstance(value, str) or not SLUG.fullmatch(value):
        raise Invalid(f"{where} must be a slug of a-z, 0-9 and '-' (1..64), got {_shown(value)}")
    return value


def optional_slug(value: Any, where: str) -> str | None:
    """None or :func:`slug`."""
    return None if value is None else slug(value, where)


def character_id(value: Any, where: str) -> str:
    """A character id such as ``A1`` (D20).

    Raises:
        Invalid: anything else.
    """
    if not isinstance(value, str) or not CHARACTER_ID.fullmatch(value):
        raise Invalid(f"{where} must be a character id such as A1 or B2, got {_shown(value)}")
    return value


def optional_character_id(value: Any, where: str) -> str | None:
    """None or :func:`character_id`."""
    return None if value is None else character_id(value, where)


# ------------------------------------------------------------------------------ values
# Written from the fields one to one (games.codec); read back only from our own state JSON.

variant_to_json = encoder(Variant)
"""``{"count_battle_stars", "must_attack", "untap_all"}``."""
_recruit_to_json = encoder(Recruit)
_team_to_json = encoder(Team, {Reason: Reason.to_json})
_this_turn_to_json = encoder(ThisTurn)
_attack_to_json = encoder(Attack)
_result_to_json = encoder(AttackResult)
_variant_from_json = decoder(Variant)
_recruit_from_json = decoder(Recruit)
_upgrade_from_json = decoder(Upgrade)
_team_from_json = decoder(Team, {Reason: Reason.from_json})
_this_turn_from_json = decoder(ThisTurn)
_attack_from_json = decoder(Attack)
_result_from_json = decoder(AttackResult)
_RECRUIT_FIELDS = tuple(f.name for f in fields(Recruit))
_CHARACTER_FIELDS = frozenset(
    {"id", "seat", *_RECRUIT_FIELDS, "mode", "tapped", "damage", "zone", "upgrades"}
)


def variant_from_json(data: Any) -> Variant:
    """The variant flags; missing flags take their default (the seed's reading). Only a new
    table's request lacks flags: every stored setup event and state carries all three (D9).

    Raises:
        Invalid: not an object, an unknown flag, a flag that is not a bool.
    """
    names = {"count_battle_stars", "must_attack", "untap_all"}
    found = obj({} if data is None else data, "variant", set(), names)
    return Variant(**{name: flag(found[name], f"variant.{name}") for name in found})


def mode_from_json(data: Any, where: str) -> Mode:
    """A mode: ``attack`` and ``defense`` 0..20 (required), subtitle, traits and text.

    Raises:
        Invalid: a field out of range (TF-1 card limits of :mod:`games.transformers.cards`).
    """
    found = obj(data, where, {"attack", "defense"}, {"subtitle", "traits", "text"})
    return Mode(
        attack=integer(found["attack"], f"{where}.attack", 0, 20),
        defense=integer(found["defense"], f"{where}.defense", 0, 20),
        subtitle=optional_text(found.get("subtitle"), f"{where}.subtitle", 40) or "",
        traits=optional_text(found.get("traits"), f"{where}.traits", 60) or "",
        text=optional_text(found.get("text"), f"{where}.text", 400) or "",
    )


def recruit_from_json(data: Any, where: str) -> Recruit:
    """A character as a team brings it: name 1..40, stars 1..25, health 1..30, both modes.

    Raises:
        Invalid: a field out of range.
    """
    found = obj(data, where, {"name", "stars", "health", "alt", "bot"}, {"card", "faction"})
    faction = found.get("faction")
    return Recruit(
        card=optional_slug(found.get("card"), f"{where}.card"),
        name=text(found["name"], f"{where}.name", 40, empty=False).strip(),
        faction=None if faction is None else choice(faction, f"{where}.faction", FACTIONS),
        stars=integer(found["stars"], f"{where}.stars", 1, 25),
        health=integer(found["health"], f"{where}.health", 1, 30),
        alt=mode_from_json(found["alt"], f"{where}.alt"),
        bot=mode_from_json(found["bot"], f"{where}.bot"),
    )


def battle_card_from_json(data: Any, where: str) -> BattleCard:
    """A deck list entry (TF-2): an action, or an upgrade with its slot.

    Raises:
        Invalid: a field out of range, an upgrade without slot or an action with one.
    """
    found = obj(data, where, {"card", "name", "type"}, {"upgrade", "icons", "stars", "copies"})
    kind = choice(found["type"], f"{where}.type", ("action", "upgrade"))
    upgrade = found.get("upgrade")
    if kind == "upgrade":
        upgrade = choice(upgrade, f"{where}.upgrade", SLOTS)
    elif upgrade is not None:
        raise Invalid(f"{where}.upgrade must be null for an action, got {_shown(upgrade)}")
    icons = found.get("icons", [])
    if not isinstance(icons, list) or len(icons) > 2:
        raise Invalid(f"{where}.icons must be a list of 0..2 icons, got {_shown(icons)}")
    return BattleCard(
        card=slug(found["card"], f"{where}.card"),
        name=text(found["name"], f"{where}.name", 40, empty=False).strip(),
        type=kind,
        upgrade=upgrade,
        icons=tuple(choice(i, f"{where}.icons", ICONS) for i in icons),
        stars=integer(found.get("stars", 0), f"{where}.stars", 0, 5),
        copies=integer(found.get("copies", 1), f"{where}.copies", 1, 99),
    )


def battle_cards_from_json(data: Any, where: str) -> tuple[BattleCard, ...]:
    """A deck list: at most 200 entries with distinct card ids.

    Raises:
        Invalid: not a list, too long, a bad entry, a repeated card id.
    """
    if not isinstance(data, list) or len(data) > MAX_BATTLE_CARDS:
        raise Invalid(f"{where} must be a list of at most {MAX_BATTLE_CARDS} battle cards")
    cards = tuple(battle_card_from_json(c, f"{where}[{i}]") for i, c in enumerate(data))
    ids = [c.card for c in cards]
    repeated = next((c for c in ids if ids.count(c) > 1), None)
    if repeated is not None:
        raise Invalid(f"{where}: card id {repeated!r} appears twice (one entry with copies)")
    return cards


def icons_from_json(data: Mapping[str, Any], where: str) -> Icons:
    """Icon counts 0..8 per colour; a missing colour is 0.

    Raises:
        Invalid: a count that is not a whole number 0..8.
    """
    return Icons(**{name: integer(data.get(name, 0), f"{where}.{name}", 0, 8) for name in ICONS})


def bonus_value(value: Any, where: str) -> int:
    """A bonus: a whole number -20..20 other than 0 (D12).

    Raises:
        Invalid: anything else.
    """
    found = integer(value, where, -20, 20)
    if found == 0:
        raise Invalid(f"{where} must be -20..20 and not 0, got 0")
    return found


def character_to_json(character: Character) -> dict[str, Any]:
    """A character: id, seat, the card's values (its recruit's fields), mode, tapped,
    damage, zone and ``upgrades`` (slot -> ``{"card", "name"}`` or None)."""
    upgrades: dict[str, Any] = dict.fromkeys(SLOTS)
    for upgrade in character.upgrades:
        upgrades[upgrade.slot] = {"card": upgrade.card, "name": upgrade.name}
    return {
        "id": character.id,
        "seat": character.seat,
        **_recruit_to_json(character.recruit),
        "mode": character.mode,
        "tapped": character.tapped,
        "damage": character.damage,
        "zone": character.zone,
        "upgrades": upgrades,
    }


def _character_from_json(data: Any) -> Character:
    found = json_object(data, "Character", _CHARACTER_FIELDS)
    slots = json_object(found["upgrades"], "Character.upgrades", frozenset(SLOTS))
    return Character(
        id=found["id"],
        seat=found["seat"],
        recruit=_recruit_from_json({k: found[k] for k in _RECRUIT_FIELDS}),
        mode=found["mode"],
        tapped=found["tapped"],
        damage=found["damage"],
        zone=found["zone"],
        upgrades=tuple(
            _upgrade_from_json({"slot": slot, **slots[slot]})
            for slot in SLOTS
            if slots.get(slot) is not None
        ),
    )


# ------------------------------------------------------------------------------- state

_STATE_FIELDS = frozenset(
    {
        "variant",
        "phase",
        "player",
        "first_player",
        "turn",
        "teams",
        "characters",
        "this_turn",
        "attack",
        "last_attack",
        "winner",
    }
)


def state_to_json(state: State) -> dict[str, Any]:
    """The whole table as JSON (round trip with :func:`state_from_json`)."""
    return {
        "variant": variant_to_json(state.variant),
        "phase": state.phase,
        "player": state.player,
        "first_player": state.first_player,
        "turn": state.turn,
        "teams": {seat: or_none(_team_to_json, state.team(seat)) for seat in SEATS},
        "characters": [character_to_json(c) for c in state.characters],
        "this_turn": _this_turn_to_json(state.this_turn),
        "attack": or_none(_attack_to_json, state.attack),
        "last_attack": or_none(_result_to_json, state.last_attack),
        "winner": state.winner,
    }


def state_from_json(data: Any) -> State:
    """Parse :func:`state_to_json` output (trusted: our own JSON, each value of its field's
    type, :mod:`games.codec`) and check that it hangs together (:func:`check_state`).

    Raises:
        StateError: a missing or unknown field, a value of the wrong type.
        Invalid: a character in no or two places, counters on a KO'd character or at/above
            Health in play, an attack on a character not in play.
    """
    found = json_object(data, "state", _STATE_FIELDS)
    teams = json_object(found["teams"], "teams", frozenset(SEATS))
    try:
        state = State(
            variant=_variant_from_json(found["variant"]),
            phase=found["phase"],
            player=found["player"],
            first_player=found["first_player"],
            turn=found["turn"],
            teams=(or_none(_team_from_json, teams["A"]), or_none(_team_from_json, teams["B"])),
            characters=tuple(_character_from_json(c) for c in found["characters"]),
            this_turn=_this_turn_from_json(found["this_turn"]),
            attack=or_none(_attack_from_json, found["attack"]),
            last_attack=or_none(_result_from_json, found["last_attack"]),
            winner=found["winner"],
        )
    except (KeyError, TypeError) as exc:
        raise StateError(f"not a Transformers state: {exc!r}") from exc
    check_state(state)
    return state


def check_state(state: State) -> None:
    """The invariants every state keeps (the random playout tests check them too).

    Raises:
        Invalid: repeated character ids; counters on a KO'd character, negative, or at or
            above Health in play (TF-30); a character of a seat without a team; an attack or a
            phase that does not fit.
    """
    ids = [c.id for c in state.characters]
    if len(set(ids)) != len(ids):
        raise Invalid("characters: repeated id")
    for c in state.characters:
        if not c.id.startswith(c.seat):
            raise Invalid(f"characters: {c.id} must start with its seat {c.seat}")
        if state.team(c.seat) is None:
            raise Invalid(f"characters: {c.id} belongs to a seat without a team")
        if c.zone == "ko" and (c.damage or c.upgrades):
            raise Invalid(f"characters: {c.id} is KO'd but carries counters or upgrades (TF-30)")
        if c.zone == "play" and not 0 <= c.damage < c.health:
            raise Invalid(f"characters: {c.id} has {c.damage} counters, Health {c.health} (TF-30)")
    if (state.phase == "attack") != (state.attack is not None):
        raise Invalid("attack: an attack runs exactly in the attack phase")
    if state.attack is not None:
        for side in FIGHTER_SIDES:
            fighter = state.attack.side(side)
            fighting = state.character(fighter.character)
            if fighting is None or fighting.zone != "play":
                raise Invalid(f"attack.{side}: {fighter.character} is not in play")
    if state.phase == "team" and all(t is not None for t in state.teams):
        raise Invalid("phase: both teams are in, the team phase is over")
    if (state.phase == "over") != (state.winner is not None):
        raise Invalid("winner: set exactly when the game is over (TF-40)")
