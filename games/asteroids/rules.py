"""The Asteroids rules: ``legal_actions``, ``apply`` and the outcome, over the state of
:mod:`games.asteroids.state` and the actions of :mod:`games.asteroids.actions`.

Source: shared/rules/asteroids.md (rule ids AST-n are cited on every decision). The engine
performs no I/O and never rolls dice: randomness (the layout of AST-4, the starting player of
AST-5) comes in as dice faces rolled by the caller.

Board frame (the same as :mod:`games.asteroids.spec`): rifts 1..6 run from player A's home base
to player B's; places 1..8 run from the left end of a rift to the right end. A :class:`Spot`
with ``rift`` 0 is A's home base, ``rift`` 7 is B's home base (``place`` 0 for both); a base is
one big place (AST-14). "Up" is towards B (rift + 1), "down" towards A (rift - 1).

A turn is exactly step, step, push (AST-10..AST-24). ``State.phase`` walks
``"step1" -> "step2" -> "push"`` and hands over to the other player; ``"over"`` once a player
has 5 ships in the opposing base (AST-30).

Decisions where the rules digest is silent (each also named where it applies):

* D1 (AST-12, variant ``stack_on_enemy=False``): a ship may end only on an empty place or on a
  stack made of its own colour only.
  Seed: "Befindet sich auf dem Zielfeld schon ein Raumschiff, so darf gestapelt werden (max.
  drei Raumschiffe)." (If a ship is on the target place already, ships may stack, at most three;
  it names no colour.)
* D2 (AST-14): a ship may move into either base from the adjacent rift, its own base included
  (a retreat); entering the opposing base scores it (AST-18).
  Seed: "man darf von jedem Feld in die Heimatbasis ziehen und aus der Heimatbasis in jedes
  beliebige anliegende Feld ziehen" (one may move from any place into the home base and out of
  it onto any adjacent place).
* D3 (AST-22, AST-24): if the 2nd step was skipped, the player chooses the rift to push, as if
  the step had ended off the board.
  Seed: "Die Subraumspalte, in der die zweite Zug- bzw. Sprungaktion endete, wird instabil!"
  (The rift in which the second step or jump ended becomes unstable; it names no rift for a step
  that ended elsewhere.)
* D4 (AST-23, variant ``immediate_repush=False``): "pushed straight back in" means the fragment
  that fell out at the previous push, pushed into the same rift from the end where it fell
  out (undoing that push). Pushing it elsewhere stays legal.
  Seed: "Der Spieler wählt eine der vier verbleibenden Fragmente aus und schiebt diese wahlweise
  von rechts oder links in die Spalte." (The player picks one of the four remaining fragments
  and pushes it in from the right or the left; nothing forbids the one that fell out.)
* D5 (AST-15/AST-16): a step or a jump whose target is a base or off the board has the same
  outcome whatever its length, so a :class:`Move` names the origin and the target only.
* D6: a fragment's layout in a rift is ``"HH"``, ``"HA"`` (hole left, asteroid right) or
  ``"AH"``; an HH fragment has the single layout ``"HH"``.
  Seed: "Die Basis ist hierbei eine Ausnahme: hier dürfen übrige Sprungfelder verfallen." (The
  base is the exception: leftover jump places may be forfeited.)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from games.asteroids.actions import Action, Move, Push, Skip
from games.asteroids.spec import ASTEROIDS
from games.asteroids.state import (
    BASE,
    LAYOUTS,
    PLACES,
    RIFTS,
    SIDES,
    SPOTS,
    LastOut,
    MalformedAction,
    RulesError,
    Spot,
    State,
    Tile,
    _frozen_counts,
    evolve,
    other,
    refuse,
)

# ------------------------------------------------------------------------------ move making


def _can_land(state: State, spot: Spot, colour: str) -> bool:
    """AST-11, AST-12 (and D1): may a ship of ``colour`` end on ``spot``?"""
    if spot.is_base:
        return True
    if state.cell(spot) == "A":
        return False
    stack = state.stacks.get(spot, ())
    if len(stack) >= ASTEROIDS.max_stack:
        return False
    return state.variant.stack_on_enemy or all(c == colour for c in stack)


_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _destination(origin: Spot, drift: int, dplace: int, distance: int) -> Spot | None:
    """Where a straight line of ``distance`` places ends (AST-10, AST-15, AST-16).

    Returns the landing spot, a base (leftover distance forfeited, AST-16) or None when the
    line leaves the board sideways (AST-13).
    """
    if dplace:
        place = origin.place + dplace * distance
        return SPOTS[origin.rift, place] if 1 <= place <= PLACES else None
    for k in range(1, distance + 1):
        rift = origin.rift + drift * k
        if rift in (0, RIFTS + 1):
            return SPOTS[rift, 0]
    return SPOTS[origin.rift + drift * distance, origin.place]


def _origins(state: State) -> list[Spot]:
    """Spots holding a ship of the player to move that may move (AST-12, AST-14, AST-18)."""
    me = state.player
    spots = [spot for spot, stack in state.stacks.items() if stack[-1] == me]
    if state.home[me]:
        spots.append(BASE[me])
    if state.variant.scored_ships_mobile and state.scored[me]:
        spots.append(BASE[other(me)])
    return sorted(spots)


def _targets(state: State, origin: Spot) -> list[Spot | None]:
    """All ends of a legal step or jump from ``origin`` (AST-10..AST-16, D5)."""
    me = state.player
    found: list[Spot | None] = []
    if origin.is_base:
        rift = 1 if origin.rift == 0 else RIFTS
        for place in range(1, PLACES + 1):
            spot = SPOTS[rift, place]
            if _can_land(state, spot, me):
                found.append(spot)
        return found
    height = len(state.stacks[origin])
    distances = [height] if height > 1 and state.variant.jump_mandatory else [1]
    if height > 1 and not state.variant.jump_mandatory:
        distances.append(height)
    for distance in distances:
        for drift, dplace in _DIRECTIONS:
            end = _destination(origin, drift, dplace, distance)
            if (end is None or _can_land(state, end, me)) and end not in found:
                found.append(end)
    return found


def _legal_targets(state: State) -> Mapping[Spot, list[Spot | None]]:
    """Origin -> the ends of its legal steps or jumps, for every origin of the player to move
    (AST-10..AST-16, D5); empty outside the step phases.

    Computed once per state and kept on it (a state never changes): the view's legal actions
    and the check of the next move read the same search.
    """
    memo: Mapping[Spot, list[Spot | None]] | None = state.__dict__.get("_legal_targets")
    if memo is None:
        if state.phase in ("step1", "step2"):
            memo = {origin: _targets(state, origin) for origin in _origins(state)}
        else:
            memo = {}
        object.__setattr__(state, "_legal_targets", memo)
    return memo


def legal_moves(state: State) -> list[Move]:
    """Every legal :class:`Move` of the player to move (empty outside the step phases)."""
    return [Move(origin=o, target=t) for o, ends in _legal_targets(state).items() for t in ends]


def legal_actions(state: State) -> list[Action]:
    """Every action :func:`apply` accepts in ``state``, in a stable order.

    Steps: the legal moves, or ``Skip`` when there is none (AST-24). Push: every supply
    fragment x layout x side x allowed rift (AST-20, AST-22, AST-23 / D4). Over: none.
    """
    if state.phase in ("step1", "step2"):
        moves: list[Action] = list(legal_moves(state))
        return moves or [Skip()]
    if state.phase == "push":
        rifts = [state.push_rift] if state.push_rift else range(1, RIFTS + 1)
        return [
            push
            for fragment in state.supply
            for layout in LAYOUTS[state.fragments[fragment]]
            for rift in rifts
            for side in SIDES
            if not _is_straight_back(
                state, push := Push(fragment=fragment, layout=layout, side=side, rift=rift)
            )
        ]
    return []


def _is_straight_back(state: State, push: Push) -> bool:
    """D4: would this push undo the previous one while the variant forbids it (AST-23)?"""
    last = state.last_out
    return (
        not state.variant.immediate_repush
        and last is not None
        and push.fragment == last.fragment
        and push.rift == last.rift
        and push.side == last.side
    )


def apply(state: State, action: Action) -> State:
    """The state after ``action`` by the player to move.

    Raises:
        MalformedAction: ``action`` is not a Move, Skip or Push.
        IllegalAction: the rules forbid it now; the message cites the rule id.
    """
    if not isinstance(action, (Move, Skip, Push)):
        raise MalformedAction(f"action must be a Move, Skip or Push, got {type(action).__name__}")
    if state.phase == "over":
        raise refuse("game_over", "AST-30", winner=state.winner)
    if isinstance(action, Push):
        return _apply_push(state, action)
    if state.phase == "push":
        raise refuse("must_push", "AST-17")  # a third step: the turn has two (AST-17, AST-20)
    if isinstance(action, Skip):
        if any(_legal_targets(state).values()):
            raise refuse("skip_not_allowed", "AST-24")
        return _after_step(state, end=None, returned=(), skipped=True, **_unchanged(state))
    return _apply_move(state, action)


def _why_not(state: State, origin: Spot, target: Spot | None) -> RulesError:
    """The one rule a move from a legal ``origin`` to ``target`` breaks (AST-10..AST-16)."""
    shown = {"origin": str(origin.to_json()), "target": str(target.to_json()) if target else "off"}
    if origin.is_base:
        if target is not None and target.rift == (1 if origin.rift == 0 else RIFTS):
            return _landing(state, target, shown)
        return refuse("from_base", "AST-14", **shown)
    height = len(state.stacks[origin])
    for distance in (1, height):
        ends = {_destination(origin, dr, dp, distance) for dr, dp in _DIRECTIONS}
        if target in ends:
            if distance == 1 and height > 1 and state.variant.jump_mandatory:
                return refuse("jump_mandatory", "AST-15", height=height, **shown)
            assert target is not None  # leaving the board sideways is never refused
            return _landing(state, target, shown)
    if target is None:
        return refuse("not_off_here", "AST-13", **shown)
    if height > 1 and abs(target.rift - origin.rift) + abs(target.place - origin.place) > 1:
        return refuse("jump_length", "AST-15", height=height, **shown)
    return refuse("not_orthogonal", "AST-10", **shown)


def _landing(state: State, target: Spot, shown: dict[str, Any]) -> RulesError:
    """Why a ship of the player to move may not end on ``target`` (AST-11, AST-12, D1)."""
    if state.cell(target) == "A":
        return refuse("onto_asteroid", "AST-11", **shown)
    if len(state.stacks.get(target, ())) >= ASTEROIDS.max_stack:
        return refuse("stack_full", "AST-12", **shown)
    return refuse("own_stacks_only", "AST-12", **shown)


def _unchanged(state: State) -> dict[str, Any]:
    return {"stacks": dict(state.stacks), "home": dict(state.home), "scored": dict(state.scored)}


def _apply_move(state: State, move: Move) -> State:
    me = state.player
    origin, target = move.origin, move.target
    ends = _legal_targets(state).get(origin)
    if ends is None:
        if not origin.is_base and origin in state.stacks:
            raise refuse("top_ship_only", "AST-12", player=me)
        if origin == BASE[other(me)] and state.scored[me]:
            raise refuse("scored_stay", "AST-18")
        raise refuse("no_ship_here", "AST-10", player=me, origin=str(origin.to_json()))
    if target not in ends:
        raise _why_not(state, origin, target)
    parts = _unchanged(state)
    stacks, home, scored = parts["stacks"], parts["home"], parts["scored"]
    if origin == BASE[me]:
        home[me] -= 1
    elif origin.is_base:
        scored[me] -= 1
    else:
        rest = stacks[origin][:-1]
        if rest:
            stacks[origin] = rest
        else:
            del stacks[origin]
    returned: tuple[str, ...] = ()
    if target is None:
        home[me] += 1
        returned = (me,)
    elif target == BASE[me]:
        home[me] += 1
    elif target.is_base:
        scored[me] += 1
    else:
        stacks[target] = stacks.get(target, ()) + (me,)
    return _after_step(state, end=target, returned=returned, skipped=False, **parts)


def _after_step(
    state: State,
    *,
    end: Spot | None,
    returned: tuple[str, ...],
    skipped: bool,
    stacks: dict[Spot, tuple[str, ...]],
    home: dict[str, int],
    scored: dict[str, int],
) -> State:
    """Advance the phase after a step or a skip; check AST-30 after every step."""
    winner = state.player if scored[state.player] >= ASTEROIDS.ships_to_win else None
    if winner:
        phase, push_rift = "over", None
    elif state.phase == "step1":
        phase, push_rift = "step2", None
    else:
        phase = "push"
        push_rift = end.rift if end is not None and not end.is_base and not skipped else None
    return evolve(
        state,
        stacks=MappingProxyType(stacks),
        home=_frozen_counts(home),
        scored=_frozen_counts(scored),
        phase=phase,
        push_rift=push_rift,
        winner=winner,
        ply=state.ply + 1,
        returned=returned,
    )


def _apply_push(state: State, push: Push) -> State:
    if state.phase != "push":
        raise refuse("push_after_steps", "AST-20", phase=state.phase)
    if push.fragment not in state.supply:
        raise refuse("not_in_supply", "AST-20", supply=list(state.supply), fragment=push.fragment)
    kind = state.fragments[push.fragment]
    if push.layout not in LAYOUTS[kind]:
        raise refuse(
            "layout_of_kind",
            "AST-20",
            kind=kind.value,
            layouts=list(LAYOUTS[kind]),
            layout=push.layout,
        )
    if state.push_rift is not None and push.rift != state.push_rift:
        raise refuse("push_this_rift", "AST-20", rift=state.push_rift, got=push.rift)
    if _is_straight_back(state, push):
        raise refuse("no_straight_back", "AST-23")
    tiles = list(state.rifts[push.rift - 1])
    shift = 2 if push.side == "left" else -2
    new_tile = Tile(fragment=push.fragment, layout=push.layout)
    if push.side == "left":
        out, tiles = tiles[-1], [new_tile, *tiles[:-1]]
        out_places, out_side = (PLACES - 1, PLACES), "right"
    else:
        out, tiles = tiles[0], [*tiles[1:], new_tile]
        out_places, out_side = (1, 2), "left"
    stacks: dict[Spot, tuple[str, ...]] = {}
    home = dict(state.home)
    returned: list[str] = []
    for spot, stack in state.stacks.items():
        if spot.rift != push.rift:
            stacks[spot] = stack
        elif spot.place in out_places:
            for colour in stack:  # AST-21
                home[colour] += 1
                returned.append(colour)
        else:
            stacks[SPOTS[spot.rift, spot.place + shift]] = stack
    rifts = list(state.rifts)
    rifts[push.rift - 1] = tuple(tiles)
    supply = tuple(sorted([f for f in state.supply if f != push.fragment] + [out.fragment]))
    return evolve(
        state,
        rifts=tuple(rifts),
        supply=supply,
        stacks=MappingProxyType(stacks),
        home=_frozen_counts(home),
        player=other(state.player),
        phase="step1",
        push_rift=None,
        last_out=LastOut(fragment=out.fragment, rift=push.rift, side=out_side),
        turn=state.turn + 1,
        ply=state.ply + 1,
        returned=tuple(returned),
    )


# ------------------------------------------------------------------------------------ outcome


@dataclass(frozen=True, kw_only=True)
class Outcome:
    """How a finished game ended (AST-30).

    Attributes:
        winner: "A" or "B".
        score: ships in the opposing base per colour.
        turn: the turn in which the game ended.
    """

    winner: str
    score: Mapping[str, int]
    turn: int


def outcome(state: State) -> Outcome | None:
    """The :class:`Outcome` once the game is over (AST-30), else None."""
    if state.winner is None:
        return None
    return Outcome(winner=state.winner, score=state.scored, turn=state.turn)


def score(state: State) -> dict[str, int]:
    """Ships of each colour in the opposing base (AST-18, AST-30)."""
    return dict(state.scored)
