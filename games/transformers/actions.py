"""Transformers actions and their JSON (the phone's requests, checked here).

Source: shared/rules/transformers.md TF-3..TF-40; decisions D1..D22 in
:mod:`games.transformers`; :mod:`games.transformers.rules` says who may take them, lists and
applies them. The JSON forms are the ones the phone view sends
(``companion/views/transformers/view.js``):

* ``{"type": "team", "seat", "deck", "title", "battle_cards", "characters", "casual"?}`` (D1,
  TF-3; ``casual``: play anyway although it breaks TF-3)
* ``{"type": "draw"}`` (TF-10)
* ``{"type": "flip", "character"}`` (TF-11: the turn's one flip to the other mode)
* ``{"type": "tap", "character", "tapped"}`` (D7)
* ``{"type": "counter", "character", "delta"}`` (D14: +n adds, -n removes counters)
* ``{"type": "play_action", "card"?, "name"?}`` (TF-11, TF-12, TF-14, D18)
* ``{"type": "play_upgrade", "character", "card"? | "slot"?, "name"?}`` (TF-11..TF-13, D17)
* ``{"type": "attack", "attacker", "defender", "any_defender"?}`` (TF-20, D10)
* ``{"type": "icons", "side", "orange", "blue", "white", "black", "green"}`` (TF-21, D11)
* ``{"type": "card_icons", "side", "orange", "blue", "white", "black", "green"}``: one flipped
  card's icons, 0..2 (TF-21, TF-2, D23; the phone's icon buttons)
* ``{"type": "bonus", "side", "value", "source"?}`` (TF-22, D12)
* ``{"type": "resolve"}`` (TF-23, TF-30, TF-24, TF-25, TF-40)
* ``{"type": "end_turn"}`` (TF-26)
"""

from __future__ import annotations

from typing import Any

from games.actionjson import GameAction, action_kind
from games.codec import encoder
from games.protocol import SEATS, MalformedAction
from games.transformers import codec
from games.transformers.codec import Invalid
from games.transformers.state import (
    FIGHTER_SIDES,
    ICONS,
    SLOTS,
    Bonus,
    Icons,
)
from games.transformers.team import BringTeam


class Draw(GameAction):
    """TF-10: the turn's card is drawn (a check mark: the companion holds no hands, D3)."""


class Flip(GameAction):
    """TF-11: flip ``character`` (an id) to its other mode."""

    character: str


class Tap(GameAction):
    """D7: tap (``tapped`` True) or untap a character by hand (card effects)."""

    character: str
    tapped: bool


class Counters(GameAction):
    """D14: ``delta`` (-30..30, not 0) damage counters on ``character``; KO at Health (TF-30)."""

    character: str
    delta: int


class PlayAction(GameAction):
    """TF-11: the turn's Action: a card of the deck list, a name typed in, or neither (D18)."""

    card: str | None = None
    name: str | None = None


class PlayUpgrade(GameAction):
    """TF-11, TF-13: the turn's Upgrade onto ``character``: a deck list ``card`` (its slot),
    or a ``slot`` with an optional ``name`` (D17)."""

    character: str
    card: str | None = None
    slot: str | None = None
    name: str | None = None


class StartAttack(GameAction):
    """TF-20: ``attacker`` attacks ``defender``; ``any_defender``: a card allows an untapped
    defender although a tapped enemy exists (D10)."""

    attacker: str
    defender: str
    any_defender: bool = False


class EnterIcons(GameAction):
    """TF-21: the icons one flip of ``side`` (``attacker``/``defender``) showed."""

    side: str
    icons: Icons


class EnterCard(GameAction):
    """TF-21, D23: the icons one flipped card of ``side`` showed (the flip's cards one by one)."""

    side: str
    icons: Icons


class AddBonus(GameAction):
    """D12: a card effect on ``side``'s total."""

    side: str
    bonus: Bonus


class Resolve(GameAction):
    """TF-23: apply the calculated damage."""


class EndTurn(GameAction):
    """TF-26: end the turn; the other player's turn begins."""


Action = (
    BringTeam
    | Draw
    | Flip
    | Tap
    | Counters
    | PlayAction
    | PlayUpgrade
    | StartAttack
    | EnterIcons
    | EnterCard
    | AddBonus
    | Resolve
    | EndTurn
)
"""Every Transformers action."""


TYPES: tuple[str, ...] = (
    "team",
    "draw",
    "flip",
    "tap",
    "counter",
    "play_action",
    "play_upgrade",
    "attack",
    "icons",
    "card_icons",
    "bonus",
    "resolve",
    "end_turn",
)
"""The ``type`` of every action."""


# ----------------------------------------------------------------------------------- JSON


def action_from_json(data: Any) -> Action:
    """Parse an action's JSON (see the module docstring).

    Raises:
        MalformedAction: not an object, unknown type, a missing, unknown or bad field (the
            message names the field and the allowed values).
    """
    kind = action_kind(data, dict.fromkeys(TYPES))  # each type's parser checks its fields
    try:
        parsed: Action = _PARSERS[kind](data)
        return parsed
    except Invalid as exc:
        raise MalformedAction(f"{kind}: {exc}") from exc


def _parse_team(data: dict[str, Any]) -> BringTeam:
    found = codec.obj(
        data, "team", {"type", "seat", "characters"}, {"deck", "title", "battle_cards", "casual"}
    )
    casual = found.get("casual", False)
    if not isinstance(casual, bool):
        raise Invalid(f"casual must be true or false, got {str(casual)[:20]!r}")
    characters = found["characters"]
    if not isinstance(characters, list) or not 1 <= len(characters) <= codec.MAX_CHARACTERS:
        raise Invalid(f"characters must be a list of 1..{codec.MAX_CHARACTERS} characters")
    return BringTeam(
        seat=codec.choice(found["seat"], "seat", SEATS),
        deck=codec.optional_slug(found.get("deck"), "deck"),
        title=codec.optional_text(found.get("title"), "title", 60),
        battle_cards=codec.battle_cards_from_json(found.get("battle_cards", []), "battle_cards"),
        characters=tuple(
            codec.recruit_from_json(c, f"characters[{i}]") for i, c in enumerate(characters)
        ),
        casual=casual,
    )


def _simple(kind: type[Draw] | type[Resolve] | type[EndTurn]) -> Any:
    def parse(data: dict[str, Any]) -> Any:
        codec.obj(data, data["type"], {"type"})
        return kind()

    return parse


def _parse_flip(data: dict[str, Any]) -> Flip:
    found = codec.obj(data, "flip", {"type", "character"})
    return Flip(character=codec.character_id(found["character"], "character"))


def _parse_tap(data: dict[str, Any]) -> Tap:
    found = codec.obj(data, "tap", {"type", "character", "tapped"})
    return Tap(
        character=codec.character_id(found["character"], "character"),
        tapped=codec.flag(found["tapped"], "tapped"),
    )


def _parse_counter(data: dict[str, Any]) -> Counters:
    found = codec.obj(data, "counter", {"type", "character", "delta"})
    delta = codec.integer(found["delta"], "delta", -30, 30)
    if delta == 0:
        raise Invalid("delta must be -30..30 and not 0, got 0")
    return Counters(character=codec.character_id(found["character"], "character"), delta=delta)


def _parse_play_action(data: dict[str, Any]) -> PlayAction:
    found = codec.obj(data, "play_action", {"type"}, {"card", "name"})
    return PlayAction(
        card=codec.optional_slug(found.get("card"), "card"),
        name=codec.optional_text(found.get("name"), "name", 40),
    )


def _parse_play_upgrade(data: dict[str, Any]) -> PlayUpgrade:
    found = codec.obj(data, "play_upgrade", {"type", "character"}, {"card", "slot", "name"})
    card = codec.optional_slug(found.get("card"), "card")
    slot = found.get("slot")
    if (card is None) == (slot is None):
        raise Invalid("give the upgrade's card (from the deck list) or its slot, one of them")
    return PlayUpgrade(
        character=codec.character_id(found["character"], "character"),
        card=card,
        slot=None if slot is None else codec.choice(slot, "slot", SLOTS),
        name=codec.optional_text(found.get("name"), "name", 40),
    )


def _parse_attack(data: dict[str, Any]) -> StartAttack:
    found = codec.obj(data, "attack", {"type", "attacker", "defender"}, {"any_defender"})
    return StartAttack(
        attacker=codec.character_id(found["attacker"], "attacker"),
        defender=codec.character_id(found["defender"], "defender"),
        any_defender=codec.flag(found.get("any_defender", False), "any_defender"),
    )


def _parse_icons(data: dict[str, Any]) -> EnterIcons:
    found = codec.obj(data, "icons", {"type", "side"}, set(ICONS))
    return EnterIcons(
        side=codec.choice(found["side"], "side", FIGHTER_SIDES),
        icons=codec.icons_from_json(found, "icons"),
    )


def _parse_card(data: dict[str, Any]) -> EnterCard:
    found = codec.obj(data, "card_icons", {"type", "side"}, set(ICONS))
    return EnterCard(
        side=codec.choice(found["side"], "side", FIGHTER_SIDES),
        icons=codec.icons_from_json(found, "card_icons"),
    )


def _parse_bonus(data: dict[str, Any]) -> AddBonus:
    found = codec.obj(data, "bonus", {"type", "side", "value"}, {"source"})
    return AddBonus(
        side=codec.choice(found["side"], "side", FIGHTER_SIDES),
        bonus=Bonus(
            value=codec.bonus_value(found["value"], "value"),
            source=codec.optional_text(found.get("source"), "source", 40),
        ),
    )


_PARSERS: dict[str, Any] = {
    "team": _parse_team,
    "draw": _simple(Draw),
    "flip": _parse_flip,
    "tap": _parse_tap,
    "counter": _parse_counter,
    "play_action": _parse_play_action,
    "play_upgrade": _parse_play_upgrade,
    "attack": _parse_attack,
    "icons": _parse_icons,
    "card_icons": _parse_card,
    "bonus": _parse_bonus,
    "resolve": _simple(Resolve),
    "end_turn": _simple(EndTurn),
}


_TYPES: dict[type[Any], str] = {
    BringTeam: "team",
    Draw: "draw",
    Flip: "flip",
    Tap: "tap",
    Counters: "counter",
    PlayAction: "play_action",
    PlayUpgrade: "play_upgrade",
    StartAttack: "attack",
    EnterIcons: "icons",
    EnterCard: "card_icons",
    AddBonus: "bonus",
    Resolve: "resolve",
    EndTurn: "end_turn",
}
"""Action class -> its ``type`` (the keys of :data:`_PARSERS`)."""
_WRITE = {cls: encoder(cls) for cls in _TYPES}
_FLAT = {EnterIcons: "icons", EnterCard: "icons", AddBonus: "bonus"}
"""Actions whose JSON holds the fields of one of their values beside their own."""


def action_to_json(action: Action) -> dict[str, Any]:
    """The action's JSON (round trip with :func:`action_from_json`): ``{"type", ...its
    fields}`` derived from the fields (:mod:`games.codec`); the icons or the bonus of
    ``icons``, ``card_icons`` and ``bonus`` spelt out beside ``side``, and a team's
    ``"casual": true`` only when it is played anyway."""
    data = _WRITE[type(action)](action)
    flat = _FLAT.get(type(action))
    if flat is not None:
        data.update(data.pop(flat))
    if isinstance(action, BringTeam) and not action.casual:
        del data["casual"]
    return {"type": _TYPES[type(action)], **data}
