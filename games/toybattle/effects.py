"""What a turn does: draw (TB-10), place (TB-11..13) and the effects in order (TB-13, TB-20,
TB-30..TB-37, D12..D15), region capture (TB-14, D5, D6), the end of a turn (TB-37's block
ends) and of the game (TB-40, TB-41, D11, D16). Pure: every function returns a new state.

:func:`legal_actions` lists, in a stable order, what the player to move may do; :func:`apply`
checks an action and plays it, raising :class:`games.protocol.IllegalAction` (rule id in the
message) or :class:`games.protocol.NotYourTurn`.
"""

from __future__ import annotations

from dataclasses import replace

from games.protocol import NotYourTurn
from games.toybattle import placement
from games.toybattle.actions import Action, Decline, Draw, Place, Resolve, Stuck
from games.toybattle.messages import MESSAGES
from games.toybattle.rules import (
    CAPN,
    COPIES,
    JUMBO,
    OTHER,
    RACK_MAX,
    SKULLY,
    STAR,
    TROOP_INDEX,
    TROOPS,
    XB42,
    Piece,
)
from games.toybattle.state import Ended, Pending, SeatState, State, draw_count
from games.toybattle.terrains import TERRAINS, adjacency

TROOP_EFFECTS = {
    SKULLY: ("draw", 2),
    CAPN: ("place", 0),
    JUMBO: ("discard_adjacent", 0),
    XB42: ("discard_from_rack", 0),
    STAR: ("draw", 1),
}
"""TB-20: troop type -> (effect, draw count); Kwak, Hook (a placement rule) and Roxy have none."""
BASE_EFFECTS = {"return_to_rack", "draw", "move_enemy", "take_from_discard", "block"}
"""Terrain effects that act after a placement on a special base (TB-30, 32, 33, 34, 37)."""


# ---------------------------------------------------------------------------------- helpers


def _with_seat(state: State, seat: str, **changes: int | tuple[int, ...]) -> State:
    s = replace(state.seat(seat), **changes)  # type: ignore[arg-type]
    seats = (s, state.seats[1]) if seat == "A" else (state.seats[0], s)
    return replace(state, seats=seats)


def _with_stack(state: State, node: int, pieces: tuple[Piece, ...]) -> State:
    stacks = {n: p for n, p in state.stacks}
    if pieces:
        stacks[node] = pieces
    else:
        stacks.pop(node, None)
    return replace(state, stacks=tuple(sorted(stacks.items())))


def _discard(discard: tuple[int, ...], troop: int, delta: int) -> tuple[int, ...]:
    out = list(discard)
    out[troop] += delta
    return tuple(out)


def can_draw(seat: SeatState) -> bool:
    """TB-10: the rack has room and the reserve is not empty."""
    return draw_count(seat) > 0


def _visible(state: State, p: Pending) -> bool:
    """D4: the troop placed for ``p`` is still the top of its stack."""
    stack = state.stack(p.node)
    return len(stack) == p.height and stack[-1] == (state.player, p.troop)


# --------------------------------------------------------------------------------- captures


def capture(state: State, seats: tuple[str, ...]) -> State:
    """TB-14: give ``seats`` (in order) every region whose bases they all top; the medals are
    kept for good and a region gives its medals once. TB-40: reaching the objective ends the
    game at once.

    Returns:
        The state with the captures (and possibly ``ended``).
    """
    terrain = TERRAINS[state.terrain]
    taken = {r for r, _ in state.captured}
    tops = state.tops()
    for seat in seats:
        for region in terrain.regions:
            if region.index in taken:
                continue
            if all(tops.get(b, ("", 0))[0] == seat for b in region.bases):
                taken.add(region.index)
                state = replace(state, captured=(*state.captured, (region.index, seat)))
                state = _with_seat(state, seat, medals=state.seat(seat).medals + region.medals)
        if state.ended is None and state.seat(seat).medals >= terrain.objective:
            state = replace(
                state,
                ended=Ended(winner=seat, reason="medal_objective", rule="TB-40"),
                pending=(),
            )
    return state


def _check(state: State, *, final: bool = False) -> State:
    """Capture check after a step (D5, D6)."""
    if state.ended is not None:
        return state
    if state.variant.captures_after_effects and not final:
        return state
    seats: tuple[str, ...] = (state.player, OTHER[state.player])
    if not state.variant.opponent_captures_at_once:
        seats = (state.player,)
    return capture(state, seats)


# ---------------------------------------------------------------------------- effect options


def options(state: State, p: Pending) -> list[Action]:
    """The ways to resolve pending effect ``p`` now (without :class:`Decline`), stable order.

    ``place`` (Cap'n): the legal :class:`Place` actions; the others: :class:`Resolve`.
    """
    seat, enemy = state.player, OTHER[state.player]
    me, them = state.seat(seat), state.seat(enemy)
    terrain = TERRAINS[state.terrain]
    adjacent = adjacency(terrain)
    tops = state.tops()
    if p.effect == "draw":
        return [Resolve()] if draw_count(me, p.count or 1) > 0 else []
    if p.effect == "place":
        return [Place(troop=TROOPS[t], node=n) for t, n in placement.targets(state, seat)]
    if p.effect == "discard_adjacent":
        return [
            Resolve(node=n) for n in sorted(adjacent[p.node]) if n in tops and tops[n][0] == enemy
        ]
    if p.effect == "discard_from_rack":
        if them.rack - them.blocked <= 0:
            return []
        known = state.known(enemy)
        return [Resolve(troop=TROOPS[t]) for t in range(8) if known[t] < COPIES]
    if p.effect == "return_to_rack":
        if me.rack >= RACK_MAX:
            return []
        return [Resolve(node=n) for n, (s, _) in sorted(tops.items()) if s == seat and n != p.node]
    if p.effect == "move_enemy":
        found: list[Action] = []
        for n in sorted(adjacent[p.node]):
            if n not in tops or tops[n][0] != enemy:
                continue
            for m in sorted(adjacent[n]):
                if terrain.hq_colour(m) is None or state.variant.jungle_onto_hq:
                    found.append(Resolve(node=n, to=m))
        return found
    if p.effect == "take_from_discard":
        if me.rack >= RACK_MAX:
            return []
        return [Resolve(troop=TROOPS[t]) for t in range(8) if me.discard[t] > 0]
    if p.effect == "block":
        return [Resolve()] if them.rack - them.blocked > 0 else []
    raise AssertionError(p.effect)


def _settle(state: State) -> State:
    """D12/D4: drop pending effects that cannot act now, cut a draw to what fits; end the turn
    when nothing is left."""
    while state.ended is None and state.pending:
        head = state.pending[0]
        hidden = (
            head.base
            and not state.variant.covered_troop_triggers_base
            and not _visible(state, head)
        )
        if hidden or not options(state, head):
            state = replace(state, pending=state.pending[1:])
            continue
        if head.effect == "draw":
            count = draw_count(state.seat(state.player), head.count)
            if count != head.count:
                state = replace(state, pending=(replace(head, count=count), *state.pending[1:]))
        return state
    if state.ended is None:
        state = end_turn(_check(state, final=True))
    return state


def end_turn(state: State) -> State:
    """End the turn: the player's blocked troops stand up again (TB-37), the other seat is to
    move; TB-41/D11: if it provably can neither draw nor place, the game ends."""
    if state.ended is not None:
        return state
    state = _with_seat(state, state.player, blocked=0)
    state = replace(state, player=OTHER[state.player], turn=state.turn + 1, pending=())
    me = state.seat(state.player)
    if not can_draw(me) and not placement.targets(state, state.player):
        state = _stalemate(state)
    return state


def _stalemate(state: State) -> State:
    """TB-41: most medals wins; on a tie the player who could not move (to move now) loses."""
    stuck, other = state.player, OTHER[state.player]
    a, b = state.seat(stuck).medals, state.seat(other).medals
    winner = stuck if a > b else other
    reason = "most_medals" if a != b else "tie_stuck_loses"
    return replace(state, ended=Ended(winner=winner, reason=reason, rule="TB-41"))


# ---------------------------------------------------------------------------------- actions


def legal_actions(state: State) -> list[Action]:
    """Everything the player to move may do now, in a stable order (empty after the end).

    No effect pending: Draw (if possible), every legal Place, Stuck (if no draw is possible).
    An effect pending: its options, then Decline.
    """
    if state.ended is not None:
        return []
    if state.pending:
        return [*options(state, state.pending[0]), Decline()]
    seat = state.seat(state.player)
    found: list[Action] = []
    drawable = can_draw(seat)
    if drawable:
        found.append(Draw())
    found += [Place(troop=TROOPS[t], node=n) for t, n in placement.targets(state, state.player)]
    if not drawable:
        found.append(Stuck())
    return found


def apply(state: State, seat: str, action: Action) -> State:
    """Play ``action`` for ``seat``.

    Raises:
        NotYourTurn: ``seat`` is not the player to move.
        IllegalAction: the game is over, or the rules forbid the action now (rule id cited).
    """
    if state.ended is not None:
        raise MESSAGES.error("game_over", "TB-40")
    if seat != state.player:
        raise MESSAGES.error("not_your_turn", "TB-10", NotYourTurn, player=state.player)
    if state.pending:
        head = state.pending[0]
        if isinstance(action, Decline):
            return _settle(replace(state, pending=state.pending[1:]))
        if isinstance(action, Place):
            if head.effect != "place":
                raise MESSAGES.error("effect_first", "TB-13", source=head.source)
            return _place(state, action, extra=True)
        if isinstance(action, Resolve):
            return _resolve(state, head, action)
        raise MESSAGES.error("effect_first", "TB-13", source=head.source)
    if isinstance(action, Draw):
        me = state.seat(seat)
        count = draw_count(me)
        if count == 0:
            raise MESSAGES.error("cannot_draw", "TB-10")
        state = _with_seat(state, seat, rack=me.rack + count, reserve=me.reserve - count)
        return end_turn(state)
    if isinstance(action, Place):
        return _place(state, action, extra=False)
    if isinstance(action, Stuck):
        if can_draw(state.seat(seat)):
            raise MESSAGES.error("can_still_draw", "TB-41")
        return _stalemate(state)
    raise MESSAGES.error("no_effect", "TB-13")


def _place(state: State, action: Place, *, extra: bool) -> State:
    """TB-11..13: put the troop down, win on an enemy H.Q., queue its effects (D13)."""
    seat = state.player
    troop = TROOP_INDEX[action.troop]
    placement.check_place(state, seat, troop, action.node)
    terrain = TERRAINS[state.terrain]
    me = state.seat(seat)
    state = _with_seat(state, seat, rack=me.rack - 1)
    stack = (*state.stack(action.node), (seat, troop))
    state = _with_stack(state, action.node, stack)
    pending = state.pending[1:] if extra else state.pending
    if terrain.hq_colour(action.node) is not None:  # TB-40, D16
        return replace(state, pending=(), ended=Ended(winner=seat, reason="hq_taken", rule="TB-40"))
    front: tuple[Pending, ...] = ()
    back: tuple[Pending, ...] = ()
    metal_x = terrain.effect == "no_troop_effect" and action.node in terrain.specials
    if troop in TROOP_EFFECTS and not metal_x:
        effect, count = TROOP_EFFECTS[troop]
        front = (
            Pending(
                effect=effect,
                source=TROOPS[troop],
                rule="TB-20",
                node=action.node,
                troop=troop,
                height=len(stack),
                count=count,
            ),
        )
    if action.node in terrain.specials and terrain.effect in BASE_EFFECTS:
        back = (
            Pending(
                effect=terrain.effect,
                source=terrain.name,
                rule=terrain.rule,
                node=action.node,
                troop=troop,
                height=len(stack),
                count=1 if terrain.effect == "draw" else 0,
                base=True,
            ),
        )
    state = replace(state, pending=(*front, *pending, *back))
    return _settle(_check(state))


def _resolve(state: State, head: Pending, action: Resolve) -> State:
    """Apply the first pending effect with the player's choice."""
    if action not in options(state, head):
        raise MESSAGES.error("not_a_choice", head.rule, source=head.source)
    seat, enemy = state.player, OTHER[state.player]
    rest = replace(state, pending=state.pending[1:])
    me, them = state.seat(seat), state.seat(enemy)
    if head.effect == "draw":
        count = draw_count(me, head.count)
        state = _with_seat(rest, seat, rack=me.rack + count, reserve=me.reserve - count)
    elif head.effect == "discard_adjacent":
        assert action.node is not None
        stack = state.stack(action.node)
        state = _with_stack(rest, action.node, stack[:-1])
        state = _with_seat(state, enemy, discard=_discard(them.discard, stack[-1][1], 1))
    elif head.effect == "discard_from_rack":
        assert action.troop is not None
        t = TROOP_INDEX[action.troop]
        state = _with_seat(rest, enemy, rack=them.rack - 1, discard=_discard(them.discard, t, 1))
    elif head.effect == "return_to_rack":
        assert action.node is not None
        stack = state.stack(action.node)
        state = _with_stack(rest, action.node, stack[:-1])
        state = _with_seat(state, seat, rack=me.rack + 1)
    elif head.effect == "move_enemy":
        assert action.node is not None and action.to is not None
        stack = state.stack(action.node)
        state = _with_stack(rest, action.node, stack[:-1])
        state = _with_stack(state, action.to, (*state.stack(action.to), stack[-1]))
    elif head.effect == "take_from_discard":
        assert action.troop is not None
        t = TROOP_INDEX[action.troop]
        state = _with_seat(rest, seat, rack=me.rack + 1, discard=_discard(me.discard, t, -1))
    elif head.effect == "block":
        state = _with_seat(rest, enemy, blocked=them.blocked + 1)
    else:  # pragma: no cover - "place" goes through _place
        raise AssertionError(head.effect)
    return _settle(_check(state))
