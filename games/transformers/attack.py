"""The attack calculator: TF-20 (attacker and defender), TF-21 (flips, the white icon once per
attack), TF-22 (totals), TF-23 (damage), TF-30 (KO), TF-24 (attack again or end), TF-25
(untap all, official variant) and TF-40 (the outcome).

The icons come in as input: each side enters the counts per colour shown by its 2 flipped
cards (and 2 more after a white icon). Decisions D8..D16, D19 in :mod:`games.transformers`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.transformers.messages import MESSAGES
from games.transformers.state import (
    CARDS_PER_FLIP,
    ICONS,
    MAX_BONUSES,
    MAX_ICONS_PER_CARD,
    MAX_ICONS_PER_FLIP,
    Attack,
    AttackResult,
    Bonus,
    Character,
    Fighter,
    Icons,
    State,
    in_play,
    other,
)


@dataclass(frozen=True, kw_only=True)
class Totals:
    """The calculator's numbers for one side (TF-22).

    Attributes:
        base: the character's Attack (attacker) or Defense (defender) in its current mode.
        icons: orange icons flipped by the attacker, blue ones flipped by the defender.
        bonus: the sum of the entered bonuses (D12).
        total: base + icons + bonus.
    """

    base: int
    icons: int
    bonus: int

    @property
    def total(self) -> int:
        """base + icons + bonus."""
        return self.base + self.icons + self.bonus


def totals(state: State, side: str) -> Totals:
    """The running attack's numbers for ``side`` (``attacker`` or ``defender``), TF-22.

    Raises:
        IllegalAction: no attack is running (TF-20).
    """
    attack = state.attack
    if attack is None:
        raise MESSAGES.error("no_attack", "TF-20")
    fighter = attack.side(side)
    character = state.character(fighter.character)
    assert character is not None
    shown = (*fighter.flips, *fighter.cards)  # a flip's first card counts as it is entered
    if side == "attacker":
        return Totals(
            base=character.current.attack,
            icons=sum(f.orange for f in shown),
            bonus=fighter.bonus,
        )
    return Totals(
        base=character.current.defense,
        icons=sum(f.blue for f in shown),
        bonus=fighter.bonus,
    )


def damage(state: State) -> int:
    """TF-23: the attack total minus the defense total when higher, else 0."""
    return max(0, totals(state, "attacker").total - totals(state, "defender").total)


def ready(state: State) -> bool:
    """True when both sides entered every flip (TF-21): the damage can be applied."""
    attack = state.attack
    return (
        attack is not None and attack.attacker.pending is None and attack.defender.pending is None
    )


def defenders(state: State, seat: str, any_defender: bool = False) -> list[Character]:
    """The enemy characters ``seat`` may attack (TF-20): the tapped ones if there is any,
    otherwise all; every one in play with ``any_defender`` (D10)."""
    enemies = list(state.of(other(seat)))
    tapped = [c for c in enemies if c.tapped]
    return enemies if any_defender or not tapped else tapped


def can_attack(state: State) -> bool:
    """True when the player to act may start an attack now (TF-20, TF-24, TF-10)."""
    return (
        state.phase == "main"
        and state.this_turn.drawn
        and any(not c.tapped for c in state.of(state.player))
        and any(True for _ in state.of(other(state.player)))
    )


def start(state: State, attacker_id: str, defender_id: str, any_defender: bool) -> State:
    """TF-20: tap the attacker, open the calculator.

    Raises:
        IllegalAction: not the main phase, no draw yet (TF-10), TF-24 ended the attacks, the
            attacker is not the player's, not in play or tapped, the defender not an enemy in
            play or not tapped while a tapped enemy exists (TF-20).
    """
    if state.phase == "end":
        raise MESSAGES.error("no_more_attacks", "TF-24")
    if state.phase != "main":  # an attack is running: the next one comes after it (TF-24)
        raise MESSAGES.error("attack_in_main", "TF-24")
    if not state.this_turn.drawn:
        raise MESSAGES.error("draw_first", "TF-10")
    attacker = in_play(state, attacker_id, "TF-20")
    if attacker.seat != state.player:
        raise MESSAGES.error("attack_with_own", "TF-20", character=attacker.label())
    if attacker.tapped:
        raise MESSAGES.error("attacker_tapped", "TF-20", character=attacker.label())
    defender = in_play(state, defender_id, "TF-20")
    if defender.seat == state.player:
        raise MESSAGES.error("defend_with_enemy", "TF-20", character=defender.label())
    allowed = defenders(state, state.player, any_defender)
    if defender not in allowed:
        names = ", ".join(c.label() for c in allowed)
        raise MESSAGES.error(
            "defender_tapped_first", "TF-20", character=defender.label(), allowed=names
        )
    state = state.with_character(replace(attacker, tapped=True))
    return replace(
        state,
        phase="attack",
        attack=Attack(
            attacker=Fighter(character=attacker.id),
            defender=Fighter(character=defender.id),
            any_defender=any_defender,
        ),
        this_turn=replace(state.this_turn, attacks=state.this_turn.attacks + 1),
    )


def enter_icons(state: State, side: str, icons: Icons) -> State:
    """TF-21: the icons of one flip of ``side``.

    Raises:
        IllegalAction: no attack, no flip pending for that side (the extra 2 cards follow a
            white icon once per attack), or more than 4 icons on 2 cards (TF-2, D11).
    """
    attack = _running(state)
    fighter = _pending_fighter(attack, side)
    if fighter.cards:
        raise MESSAGES.error("first_card_entered", "TF-21", side=side)
    if icons.total > MAX_ICONS_PER_FLIP:
        raise MESSAGES.error("too_many_icons", "TF-21", icons=icons.total, most=MAX_ICONS_PER_FLIP)
    return _with_side(state, side, replace(fighter, flips=(*fighter.flips, icons)))


def enter_card(state: State, side: str, icons: Icons) -> State:
    """TF-21: the icons of one flipped card of ``side``, tapped in card by card (D23). The
    card counts in the totals at once; the flip's second card completes the flip (a white
    icon on either card then asks for 2 more cards, once per attack).

    Raises:
        IllegalAction: no attack, no flip pending for that side, or more than 2 icons on the
            card (TF-2).
    """
    attack = _running(state)
    fighter = _pending_fighter(attack, side)
    if icons.total > MAX_ICONS_PER_CARD:
        raise MESSAGES.error("card_icons", "TF-2", icons=icons.total, most=MAX_ICONS_PER_CARD)
    cards = (*fighter.cards, icons)
    if len(cards) < CARDS_PER_FLIP:
        return _with_side(state, side, replace(fighter, cards=cards))
    flip = Icons(**{colour: sum(getattr(c, colour) for c in cards) for colour in ICONS})
    return _with_side(state, side, replace(fighter, flips=(*fighter.flips, flip), cards=()))


def _pending_fighter(attack: Attack, side: str) -> Fighter:
    fighter = attack.side(side)
    if fighter.pending is None:
        raise MESSAGES.error("flips_entered", "TF-21", side=side)
    return fighter


def add_bonus(state: State, side: str, bonus: Bonus) -> State:
    """A card effect on ``side``'s total (D12).

    Raises:
        IllegalAction: no attack, or the side has :data:`MAX_BONUSES` already (TF-22).
    """
    attack = _running(state, "TF-22")
    fighter = attack.side(side)
    if len(fighter.bonuses) >= MAX_BONUSES:
        raise MESSAGES.error("bonuses_full", "TF-22", side=side, most=MAX_BONUSES)
    return _with_side(state, side, replace(fighter, bonuses=(*fighter.bonuses, bonus)))


def resolve(state: State) -> State:
    """TF-23 and TF-30: place the damage counters, KO the defender at its Health, then
    TF-40, TF-24 and TF-25.

    Raises:
        IllegalAction: no attack (TF-23), or a flip is still to be entered (TF-21).
    """
    attack = _running(state, "TF-23")
    for side in ("attacker", "defender"):
        if attack.side(side).pending is not None:
            first = attack.side(side).pending == "first"
            which = "first_flips_missing" if first else "extra_flips_missing"
            raise MESSAGES.error(which, "TF-21", side=side)
    hit = damage(state)
    result = AttackResult(
        attacker=attack.attacker.character,
        defender=attack.defender.character,
        attack_total=totals(state, "attacker").total,
        defense_total=totals(state, "defender").total,
        damage=hit,
        ko=False,
    )
    defender = state.character(attack.defender.character)
    assert defender is not None
    state = replace(state, attack=None, phase="main")
    state, ko = add_counters(state, defender, hit)
    return after_attack(replace(state, last_attack=replace(result, ko=ko)))


def add_counters(state: State, character: Character, delta: int) -> tuple[State, bool]:
    """``delta`` damage counters on (or off) ``character``; KO at Health (TF-30, D15).

    A KO'd character goes to the KO area without counters, its upgrades are scrapped (TF-13),
    and the game ends when it was its team's last one (TF-40). A KO of a character fighting
    in the running attack ends that attack without damage (D15).

    Returns:
        The new state and whether the character was KO'd.

    Raises:
        IllegalAction: fewer counters than ``-delta`` (TF-30: counters never go below zero).
    """
    count = character.damage + delta
    if count < 0:
        raise MESSAGES.error(
            "counters_below_zero",
            "TF-30",
            character=character.label(),
            damage=character.damage,
            remove=-delta,
        )
    if count < character.health:
        return state.with_character(replace(character, damage=count)), False
    knocked = replace(character, damage=0, zone="ko", tapped=False, upgrades=())
    state = state.with_character(knocked)
    if not any(True for _ in state.of(character.seat)):
        return replace(state, phase="over", winner=other(character.seat), attack=None), True
    attack = state.attack
    if attack is not None and character.id in (
        attack.attacker.character,
        attack.defender.character,
    ):
        state = after_attack(replace(state, attack=None, phase="main"))
    return state, True


def after_attack(state: State) -> State:
    """TF-24 then TF-25 after an attack (D16, D8).

    The opponent still has an untapped character: the attacks are over (phase ``end``).
    All of theirs are tapped: attack again while one of yours is untapped (phase ``main``),
    else ``end``. Then, with ``untap_all``, :func:`untap_if_all_tapped`.
    """
    if state.phase == "over":
        return state
    theirs = any(not c.tapped for c in state.of(other(state.player)))
    mine = any(not c.tapped for c in state.of(state.player))
    state = replace(state, phase="end" if theirs or not mine else "main")
    return untap_if_all_tapped(state)


def untap_if_all_tapped(state: State) -> State:
    """TF-25 (official, flag ``untap_all``, the default): every character in play is tapped
    -> all untap.

    Unchanged with the flag off, or while any character in play is untapped.
    """
    if not state.variant.untap_all:
        return state
    playing = [c for c in state.characters if c.zone == "play"]
    if not playing or not all(c.tapped for c in playing):
        return state
    return replace(
        state,
        characters=tuple(
            replace(c, tapped=False) if c.zone == "play" else c for c in state.characters
        ),
    )


def _running(state: State, rule: str = "TF-21") -> Attack:
    """The running attack; without one the refusal cites ``rule``, the rule of the attack's
    step the action belongs to (flips TF-21, bonuses TF-22, the result TF-23)."""
    if state.attack is None:
        raise MESSAGES.error("no_attack", rule)
    return state.attack


def _with_side(state: State, side: str, fighter: Fighter) -> State:
    attack = _running(state)
    if side == "attacker":
        return replace(state, attack=replace(attack, attacker=fighter))
    return replace(state, attack=replace(attack, defender=fighter))
