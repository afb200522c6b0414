"""Both players at once: whether a write based on an older revision may still apply.

Each write carries the revision its phone saw (``expected_revision``). A write based on an
older one (stale) is applied to the current state when nothing that came after that revision
changes what it means: every ``action`` logged since commutes with it
(:meth:`games.protocol.Game.commutes`), and no ``setup`` or ``undo`` came between. A ``roll``
(dice rolled for a purpose), a ``join`` or ``reclaim`` (seats), a ``clock`` event (the game
clock paused or resumed, :mod:`companion.tables.clock`) and the players' own counters (a
``counter`` event or the undo of one, :mod:`companion.tables.counters`) leave the game state
alone. A counter write commutes with everything but a change of the same counter
(:func:`counter_independent_since`).
Anything else, or a revision older than the fold remembers (:data:`RECENT_EVENTS`), is refused
as before: 409 ``stale`` with the current view. The decision and its reasons are in
:mod:`games.protocol`'s docstring.
"""

from __future__ import annotations

from typing import Any

from companion.tables.counters import CounterChange, commutes_since
from companion.tables.fold import RECENT_EVENTS, Fold

__all__ = ["RECENT_EVENTS", "counter_independent_since", "independent_since"]

STATELESS = frozenset({"roll", "join", "reclaim", "clock"})
"""Event kinds that leave the game state alone (``clock``: :mod:`companion.tables.clock`)."""


def independent_since(fold: Fold, expected: int, revision: int, seat: str, action: Any) -> bool:
    """Whether ``seat``'s ``action``, chosen at revision ``expected``, means the same at
    ``revision`` (the table's current one): True when every event in between is stateless or an
    action that commutes with it.

    Args:
        fold: the table's fold (its ``recent`` events and game).
        expected: the revision the phone saw (below ``revision``).
        revision: the table's revision now.
        seat: the seat that sent ``action``.
        action: the parsed action.

    Returns:
        False when an event in between is not known any more (older than the last
        :data:`RECENT_EVENTS`), or changes the game otherwise.
    """
    if not 0 <= expected < revision or not fold.recent or fold.recent[0][0] > expected + 1:
        return False
    game = fold.game
    for seq, kind, other_seat, other in fold.recent:
        if seq <= expected:
            continue
        if kind in STATELESS or isinstance(other, CounterChange):
            continue
        if kind != "action" or other_seat is None:
            return False
        if not game.commutes(action, seat, other, other_seat):
            return False
    return True


def counter_independent_since(
    fold: Fold, expected: int, revision: int, seat: str, change: CounterChange
) -> bool:
    """Whether ``seat``'s counter ``change``, chosen at revision ``expected``, means the same at
    ``revision``: the fold still remembers every event in between and none of them changed
    that counter (:func:`companion.tables.counters.commutes_since`)."""
    if not 0 <= expected < revision or not fold.recent or fold.recent[0][0] > expected + 1:
        return False
    return commutes_since(fold.recent, expected, seat, change)
