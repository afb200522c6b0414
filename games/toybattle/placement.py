"""Where a troop may go: TB-11 (empty, own, weaker enemy, Kwak both ways, enemy H.Q., never
the own H.Q.), TB-12 (connection to the own H.Q. through own visible troops), TB-20 Hook (no
connection needed, except onto an enemy H.Q.), TB-31 (Tropical Pool values), TB-36 with D3
(Hook on Metal-X bases) and D2 (Kwak on restricted bases), TB-1 with D8 (a fourth troop of a
type), TB-37 with D10 (blocked troops). Pure.
"""

from __future__ import annotations

from games.protocol import GameError
from games.toybattle.messages import MESSAGES
from games.toybattle.rules import COPIES, HOOK, KWAK, SEAT_COLOUR, TROOPS
from games.toybattle.state import State
from games.toybattle.terrains import TERRAINS, Terrain, adjacency


def connected_bases(state: State, seat: str) -> set[int]:
    """Bases topped by ``seat`` that a path of such bases links to one of its H.Q.s (TB-12).

    Returns:
        The set of base ids (H.Q.s excluded).
    """
    terrain = TERRAINS[state.terrain]
    adjacent = adjacency(terrain)
    tops = state.tops()
    own = {n for n, (s, _) in tops.items() if s == seat and terrain.hq_colour(n) is None}
    reached: set[int] = set()
    todo = [m for h in terrain.hqs[SEAT_COLOUR[seat]] for m in adjacent[h] if m in own]
    reached.update(todo)
    while todo:
        for m in adjacent[todo.pop()]:
            if m in own and m not in reached:
                reached.add(m)
                todo.append(m)
    return reached


def reachable(state: State, seat: str) -> set[int]:
    """Nodes a troop of ``seat`` may go to under the connection rule: every node next to an
    own H.Q. or to a connected own base (TB-12)."""
    terrain = TERRAINS[state.terrain]
    adjacent = adjacency(terrain)
    found: set[int] = set()
    for n in (*terrain.hqs[SEAT_COLOUR[seat]], *connected_bases(state, seat)):
        found |= adjacent[n]
    return found


def _metal_x(terrain: Terrain, node: int) -> bool:
    return terrain.effect == "no_troop_effect" and node in terrain.specials


def refusal(
    state: State,
    seat: str,
    troop: int,
    node: int,
    near: set[int] | None = None,
    tops: dict[int, tuple[str, int]] | None = None,
) -> GameError | None:
    """Why ``seat`` may not place ``troop`` (type index) on ``node`` now, or None if it may.

    The rack itself (count, blocked troops) is checked by :func:`check_place`; this is the
    board's side, fast enough for :func:`targets`. ``near`` (:func:`reachable`) and ``tops``
    (:meth:`State.tops`) may be given when the caller has them already.

    Returns:
        The refusal (an :class:`IllegalAction` with its rule id, not raised), or None.
    """
    terrain = TERRAINS[state.terrain]
    name = TROOPS[troop]
    if node not in terrain.positions:
        return MESSAGES.error("not_on_terrain", "TB-2", node=node, terrain=terrain.name)
    colour = terrain.hq_colour(node)
    if colour == SEAT_COLOUR[seat]:
        return MESSAGES.error("own_hq", "TB-11", troop=name)
    allowed = terrain.allowed.get(node)
    kwak_free = troop == KWAK and state.variant.kwak_on_restricted
    if allowed is not None and troop not in allowed and not kwak_free:
        values = "/".join(map(str, sorted(allowed)))
        return MESSAGES.error("restricted", "TB-31", allowed=values, node=node)
    if near is None:
        near = reachable(state, seat)
    if colour is not None:  # the enemy H.Q.: always needs the connection (TB-20 Hook)
        if node not in near:
            return MESSAGES.error("hq_not_connected", "TB-12", node=node)
        return None
    visible = (state.tops() if tops is None else tops).get(node)
    if visible is not None:
        owner, top = visible
        if owner != seat and troop != KWAK and top != KWAK and top >= troop:
            return MESSAGES.error(
                "not_stronger",
                "TB-11",
                troop=name,
                strength=troop,
                enemy=TROOPS[top],
                enemy_strength=top,
                node=node,
            )
    if node not in near:
        hook_free = troop == HOOK and (
            not _metal_x(terrain, node) or state.variant.hook_ignores_metal_x
        )
        if not hook_free:
            if troop == HOOK:
                return MESSAGES.error("metal_x_hook", "TB-36")
            return MESSAGES.error("not_connected", "TB-12", node=node)
    return None


def rack_refusal(state: State, seat: str, troop: int) -> GameError | None:
    """Why the rack cannot give ``troop`` now (D8, D10), or None."""
    s = state.seat(seat)
    if s.rack - s.blocked <= 0:
        if s.blocked:
            return MESSAGES.error("rack_blocked", "TB-37")
        return MESSAGES.error("rack_empty", "TB-11")
    if state.known(seat)[troop] >= COPIES:
        return MESSAGES.error("all_copies_known", "TB-1", copies=COPIES, troop=TROOPS[troop])
    return None


def check_place(state: State, seat: str, troop: int, node: int) -> None:
    """Raise if ``seat`` may not place ``troop`` on ``node``.

    Raises:
        IllegalAction: with the reason and rule id (TB-1, TB-11, TB-12, TB-31, TB-36, TB-37).
    """
    reason = rack_refusal(state, seat, troop) or refusal(state, seat, troop, node)
    if reason is not None:
        raise reason


def targets(state: State, seat: str) -> list[tuple[int, int]]:
    """Every legal (troop type index, node) for ``seat`` now, by type then node.

    The same rules as :func:`refusal` and :func:`rack_refusal` (a test checks that they
    agree), computed once per node and then per troop without building messages: this is the
    engine's hot loop (benchmarks/toybattle_engine.py).
    """
    terrain = TERRAINS[state.terrain]
    s = state.seat(seat)
    if s.rack - s.blocked <= 0:
        return []
    near = reachable(state, seat)
    tops = state.tops()
    known = state.known(seat)
    own_colour = SEAT_COLOUR[seat]
    kwak_free = state.variant.kwak_on_restricted
    hook_metal = state.variant.hook_ignores_metal_x
    # per node: (node, allowed or None, is enemy H.Q., connected, enemy top or -1, metal-x)
    cells = []
    for node in terrain.nodes:
        colour = terrain.hq_colour(node)
        if colour == own_colour:
            continue
        top = tops.get(node)
        enemy_top = top[1] if top is not None and top[0] != seat else -1
        cells.append(
            (
                node,
                terrain.allowed.get(node),
                colour is not None,
                node in near,
                enemy_top,
                _metal_x(terrain, node),
            )
        )
    found = []
    for troop in range(len(TROOPS)):
        if known[troop] >= COPIES:
            continue
        for node, allowed, enemy_hq, connected, enemy_top, metal_x in cells:
            if allowed is not None and troop not in allowed and not (troop == KWAK and kwak_free):
                continue
            if enemy_hq:
                if connected:
                    found.append((troop, node))
                continue
            if enemy_top >= 0 and troop != KWAK and enemy_top != KWAK and enemy_top >= troop:
                continue
            if connected or (troop == HOOK and (not metal_x or hook_metal)):
                found.append((troop, node))
    return found
