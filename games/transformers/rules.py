"""Transformers rules: who may take which action now, ``legal_actions`` and ``apply``.

Source: shared/rules/transformers.md TF-3..TF-40; decisions D1..D22 in
:mod:`games.transformers`. The actions and their JSON are in :mod:`games.transformers.actions`.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from games.protocol import NotYourTurn
from games.transformers import attack as fight
from games.transformers.actions import (
    Action,
    AddBonus,
    Counters,
    Draw,
    EndTurn,
    EnterCard,
    EnterIcons,
    Flip,
    PlayAction,
    PlayUpgrade,
    Resolve,
    StartAttack,
    Tap,
)
from games.transformers.messages import MESSAGES
from games.transformers.state import (
    FIGHTER_SIDES,
    ICONS,
    MAX_BONUSES,
    MAX_ICONS_PER_FLIP,
    SLOTS,
    BattleCard,
    Bonus,
    Character,
    Icons,
    Played,
    State,
    ThisTurn,
    Upgrade,
    in_play,
    other,
)
from games.transformers.team import BringTeam, bring, check_bring, example_team

# ------------------------------------------------------------------------------- allowed


def plays_open(state: State) -> bool:
    """The turn's plays (flip, Action, Upgrade) are open: main phase, after the draw, before
    the first attack (TF-10, TF-11, D4, D5)."""
    return state.phase == "main" and state.this_turn.drawn and state.this_turn.attacks == 0


def may_play(state: State, kind: str) -> bool:
    """TF-11, TF-12: may the player to act still play an ``action`` or an ``upgrade``?"""
    turn = state.this_turn
    if not plays_open(state) or state.turn == 1:
        return False
    if kind == "action":
        return turn.action is None and not (state.turn == 2 and turn.upgrade is not None)
    return turn.upgrade is None and not (state.turn == 2 and turn.action is not None)


def may_end_turn(state: State) -> bool:
    """TF-26 with TF-10 and (variant ``must_attack``) TF-20."""
    if state.phase not in ("main", "end") or not state.this_turn.drawn:
        return False
    return not (state.variant.must_attack and fight.can_attack(state))


def allowed(state: State) -> dict[str, bool]:
    """What the player to act may still do this turn (the phone's buttons and check marks):
    ``draw``, ``flip``, ``tap``, ``action``, ``upgrade``, ``attack``, ``end_turn``."""
    turn = state.this_turn
    return {
        "draw": state.phase == "main" and not turn.drawn and turn.attacks == 0,
        "flip": plays_open(state) and turn.flipped is None,
        "tap": state.phase in ("main", "end"),
        "action": may_play(state, "action"),
        "upgrade": may_play(state, "upgrade"),
        "attack": fight.can_attack(state),
        "end_turn": may_end_turn(state),
    }


# --------------------------------------------------------------------------------- legal


def _icon_choices() -> tuple[Icons, ...]:
    """Orange, blue and white counts of one flip with at most 4 icons (D11)."""
    return tuple(
        Icons(orange=o, blue=b, white=w)
        for o in range(MAX_ICONS_PER_FLIP + 1)
        for b in range(MAX_ICONS_PER_FLIP + 1 - o)
        for w in range(MAX_ICONS_PER_FLIP + 1 - o - b)
    )


ICON_CHOICES = _icon_choices()
"""The icon entries :func:`legal_actions` lists per pending flip (35)."""


def _card_choices() -> tuple[Icons, ...]:
    """One card's icons: none, one, or two of the five colours (TF-2)."""
    shown: list[tuple[str, ...]] = [(), *((c,) for c in ICONS)]
    shown += [(a, b) for i, a in enumerate(ICONS) for b in ICONS[i:]]
    return tuple(Icons(**{c: pair.count(c) for c in set(pair)}) for pair in shown)


CARD_CHOICES = _card_choices()
"""The one-card entries :func:`legal_actions` lists per pending flip (21)."""

_CARD_ACTIONS = {
    side: tuple(EnterCard(side=side, icons=i) for i in CARD_CHOICES) for side in FIGHTER_SIDES
}
_ICON_ACTIONS = {
    side: tuple(EnterIcons(side=side, icons=i) for i in ICON_CHOICES) + _CARD_ACTIONS[side]
    for side in FIGHTER_SIDES
}


def legal_actions(state: State, seat: str) -> list[Action]:
    """Every action ``seat`` may take now, in a stable order (empty once the game is over).

    Open-ended entries are listed by examples: the two example teams (D1), icon counts in
    orange, blue and white with at most 4 icons (D11), bonuses +1 and -1 (D12), counters +1
    and -1 (D14), the anonymous Action (D18).
    """
    if state.phase == "over":
        return []
    if state.phase == "team":
        if state.team(seat) is not None:
            return []
        return [example_team(seat, with_deck=False), example_team(seat, with_deck=True)]
    found: list[Action] = []
    if state.phase == "attack":
        assert state.attack is not None
        sides = FIGHTER_SIDES if seat == state.player else ("defender",)
        for side in sides:
            fighter = state.attack.side(side)
            if fighter.pending is not None:  # a flip half entered goes on card by card (D23)
                found.extend(_CARD_ACTIONS[side] if fighter.cards else _ICON_ACTIONS[side])
            if len(fighter.bonuses) < MAX_BONUSES:
                found.extend(AddBonus(side=side, bonus=Bonus(value=v)) for v in (1, -1))
        if seat == state.player and fight.ready(state):
            found.append(Resolve())
    elif seat == state.player:
        found.extend(_turn_actions(state))
    for c in state.characters:
        if c.zone == "play":
            found.append(_counters(c.id, 1))
            if c.damage:
                found.append(_counters(c.id, -1))
    return found


@functools.cache
def _counters(character: str, delta: int) -> Counters:
    """The listed counter actions (immutable, so shared between calls)."""
    return Counters(character=character, delta=delta)


@functools.cache
def _tap_action(character: str, tapped: bool) -> Tap:
    """The listed tap actions (immutable, so shared between calls)."""
    return Tap(character=character, tapped=tapped)


def _turn_actions(state: State) -> list[Action]:
    can = allowed(state)
    seat = state.player
    team = state.team(seat)
    assert team is not None
    mine = list(state.of(seat))
    found: list[Action] = []
    if can["draw"]:
        found.append(Draw())
    if can["flip"]:
        found.extend(Flip(character=c.id) for c in mine)
    if can["action"]:
        found.extend(PlayAction(card=b.card) for b in team.battle_cards if b.type == "action")
        found.append(PlayAction())
    if can["upgrade"]:
        upgrades = [b for b in team.battle_cards if b.type == "upgrade"]
        for c in mine:
            if upgrades:
                found.extend(PlayUpgrade(character=c.id, card=b.card) for b in upgrades)
            else:
                found.extend(PlayUpgrade(character=c.id, slot=s) for s in SLOTS)
    if can["attack"]:
        targets = fight.defenders(state, seat)
        extra = [c for c in fight.defenders(state, seat, True) if c not in targets]
        for c in mine:
            if not c.tapped:
                found.extend(StartAttack(attacker=c.id, defender=d.id) for d in targets)
                found.extend(
                    StartAttack(attacker=c.id, defender=d.id, any_defender=True) for d in extra
                )
    if can["tap"]:
        found.extend(_tap_action(c.id, not c.tapped) for c in state.characters if c.zone == "play")
    if can["end_turn"]:
        found.append(EndTurn())
    return found


# --------------------------------------------------------------------------------- apply


def needs_first_player(state: State, seat: str, action: Action) -> bool:
    """True when ``action`` brings the second team: the starting player is rolled (TF-5)."""
    return (
        isinstance(action, BringTeam)
        and state.phase == "team"
        and state.team(other(seat)) is not None
    )


def check_seat(state: State, seat: str, action: Action) -> None:
    """Whether ``seat`` may send ``action`` at all now (before the rules of the action).

    Counters: either seat (D14). Icons and bonuses during an attack: the attacking seat for
    both sides, the defending seat for the defender's side (D19). A team: the sender's own.
    Everything else: the player to act.

    Raises:
        IllegalAction: the game is over (TF-40) or the teams are not in yet (TF-3).
        NotYourTurn: another seat is to act.
    """
    if state.phase == "over":
        raise MESSAGES.error("game_over", "TF-40")
    if isinstance(action, BringTeam):
        if action.seat != seat:
            raise MESSAGES.error("own_team", "TF-3", NotYourTurn, seat=seat, other=action.seat)
        return
    if state.phase == "team":
        raise MESSAGES.error("teams_first", "TF-3")
    if isinstance(action, Counters):
        return
    if isinstance(action, EnterIcons | EnterCard | AddBonus) and state.phase == "attack":
        if seat == state.player or action.side == "defender":
            return
        rule = "TF-22" if isinstance(action, AddBonus) else "TF-21"  # a bonus is TF-22's
        raise MESSAGES.error(
            "defender_side_only", rule, NotYourTurn, seat=seat, player=state.player
        )
    if seat != state.player:
        raise MESSAGES.error("not_your_turn", "TF-10", NotYourTurn, player=state.player)


_IN_ATTACK: dict[type, str] = {Draw: "TF-10", Flip: "TF-11", PlayAction: "TF-11", Tap: "TF-20"}
"""The rule an action breaks when it comes during a running attack: the draw is the turn's
start (TF-10), the plays come before the attack (TF-11, D5), a tap by hand waits for the
attack's end (TF-20, D7); ending the turn leaves the attack unresolved (TF-23)."""
_IN_ATTACK[PlayUpgrade] = "TF-11"


def apply(state: State, seat: str, action: Action, first_face: int | None = None) -> State:
    """The state after ``seat`` takes ``action``.

    Args:
        state: the table.
        seat: ``"A"`` or ``"B"``.
        action: a parsed action.
        first_face: 1d2 for the starting player, exactly when the action brings the second
            team (:func:`needs_first_player`), else None.

    Raises:
        NotYourTurn: another seat is to act (:func:`check_seat`).
        IllegalAction: the rules forbid it now; the message cites the rule id.
    """
    check_seat(state, seat, action)
    if isinstance(action, BringTeam):
        check_bring(state, seat, action)
        return bring(state, seat, action, first_face)
    if isinstance(action, Counters):
        target = in_play(state, action.character, "TF-30")
        return fight.add_counters(state, target, action.delta)[0]
    if isinstance(action, EnterIcons):
        return fight.enter_icons(state, action.side, action.icons)
    if isinstance(action, EnterCard):
        return fight.enter_card(state, action.side, action.icons)
    if isinstance(action, AddBonus):
        return fight.add_bonus(state, action.side, action.bonus)
    if isinstance(action, StartAttack):
        return fight.start(state, action.attacker, action.defender, action.any_defender)
    if isinstance(action, Resolve):
        return fight.resolve(state)
    if state.phase == "attack":
        raise MESSAGES.error("finish_attack", _IN_ATTACK.get(type(action), "TF-23"))
    if isinstance(action, Draw):
        return _draw(state)
    if isinstance(action, Flip):
        return _flip_mode(state, action)
    if isinstance(action, Tap):
        return _tap(state, action)
    if isinstance(action, PlayAction):
        return _play_action(state, action)
    if isinstance(action, PlayUpgrade):
        return _play_upgrade(state, action)
    return _end_turn(state)


def _draw(state: State) -> State:
    if state.this_turn.drawn:
        raise MESSAGES.error("drawn_already", "TF-10")
    if state.phase != "main" or state.this_turn.attacks:
        raise MESSAGES.error("draw_at_start", "TF-10")
    return replace(state, this_turn=replace(state.this_turn, drawn=True))


def _check_plays_open(state: State, rule: str) -> None:
    if not state.this_turn.drawn:
        raise MESSAGES.error("draw_first", "TF-10")
    if state.phase != "main" or state.this_turn.attacks:
        raise MESSAGES.error("plays_before_attack", rule)


def _own(state: State, character_id: str, rule: str) -> Character:
    character = in_play(state, character_id, rule)
    if character.seat != state.player:
        raise MESSAGES.error("not_yours", rule, character=character.label())
    return character


def _flip_mode(state: State, action: Flip) -> State:
    _check_plays_open(state, "TF-11")
    flipped = state.this_turn.flipped
    if flipped is not None:
        raise MESSAGES.error("one_flip", "TF-11", character=flipped)
    character = _own(state, action.character, "TF-11")
    mode = "bot" if character.mode == "alt" else "alt"
    state = state.with_character(replace(character, mode=mode))
    return replace(state, this_turn=replace(state.this_turn, flipped=character.id))


def _tap(state: State, action: Tap) -> State:
    character = in_play(state, action.character, "TF-20")
    if state.phase not in ("main", "end"):
        raise MESSAGES.error("tap_outside_attack", "TF-20")
    if character.tapped == action.tapped:
        which = "tapped_already" if action.tapped else "untapped_already"
        raise MESSAGES.error(which, "TF-20", character=character.label())
    state = state.with_character(replace(character, tapped=action.tapped))
    return fight.untap_if_all_tapped(state) if action.tapped else state


def _check_may_play(state: State, kind: str) -> None:
    _check_plays_open(state, "TF-11")
    if state.turn == 1:
        raise MESSAGES.error("first_turn_no_plays", "TF-12")
    turn = state.this_turn
    done = turn.action if kind == "action" else turn.upgrade
    if done is not None:
        raise MESSAGES.error(f"{kind}_played", "TF-11")
    if state.turn == 2 and (turn.upgrade if kind == "action" else turn.action) is not None:
        raise MESSAGES.error("second_turn_one_play", "TF-12")


def _deck_card(state: State, card: str, kind: str, rule: str) -> BattleCard:
    team = state.team(state.player)
    assert team is not None
    found = team.battle_card(card)
    if found is None:
        listed = ", ".join(b.card for b in team.battle_cards if b.type == kind) or "none"
        raise MESSAGES.error("no_deck_card", rule, kind=kind, card=card, listed=listed[:120])
    if found.type != kind:
        raise MESSAGES.error("wrong_card_type", rule, card=found.name, type=found.type, kind=kind)
    return found


def _play_action(state: State, action: PlayAction) -> State:
    _check_may_play(state, "action")
    name = action.name
    if action.card is not None:
        name = _deck_card(state, action.card, "action", "TF-11").name
    played = Played(card=action.card, name=name)
    return replace(state, this_turn=replace(state.this_turn, action=played))


def _play_upgrade(state: State, action: PlayUpgrade) -> State:
    _check_may_play(state, "upgrade")
    character = _own(state, action.character, "TF-13")
    slot, name = action.slot, action.name
    if action.card is not None:
        card = _deck_card(state, action.card, "upgrade", "TF-13")
        slot, name = card.upgrade, card.name
    assert slot is not None
    upgrade = Upgrade(slot=slot, card=action.card, name=name)
    kept = tuple(u for u in character.upgrades if u.slot != slot)  # TF-13: the old one scrapped
    ordered = tuple(sorted((*kept, upgrade), key=lambda u: SLOTS.index(u.slot)))
    state = state.with_character(replace(character, upgrades=ordered))
    played = Played(card=action.card, name=name, character=character.id, slot=slot)
    return replace(state, this_turn=replace(state.this_turn, upgrade=played))


def _end_turn(state: State) -> State:
    if not state.this_turn.drawn:
        raise MESSAGES.error("draw_first", "TF-10")
    if state.variant.must_attack and fight.can_attack(state):
        raise MESSAGES.error("must_attack", "TF-20")
    return replace(
        state,
        phase="main",
        player=other(state.player),
        turn=state.turn + 1,
        this_turn=ThisTurn(),
    )
