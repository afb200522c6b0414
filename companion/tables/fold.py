"""The fold: a table's game state from its event log, and the undo of the current turn.

A table's state is its game's pure reducer (:meth:`games.protocol.Game.apply`) folded over its
event log (ARCHITECTURE.md, *Companion*); nothing here knows any game's rules.

* ``setup``: :meth:`~games.protocol.Game.start` from the logged setup (the game's
  :meth:`~games.protocol.Game.setup_event`; the dice it needed are logged just before it as
  ``roll`` events). The payload also keeps the canonical request (``request``) for retries.
* ``action``: one action of a seat, with the faces of the dice it needed (``faces``).
* ``undo``: takes back the entry its ``undoes`` names: the undoing seat's most recent action of
  the current turn, when no roll came after it (rolls, actions with dice and the end of a turn
  are undo barriers) and the other seat did nothing since that could depend on it (only counter
  changes, :func:`~companion.tables.counters.undo_index`; without counters: the most recent).
* ``roll``: dice, logged with who rolled, the purpose and the faces.
* ``join`` and ``reclaim``: seats changed; the state does not.
* ``counter``: a player's own named counter added, changed or removed
  (:mod:`companion.tables.counters`): kept beside the game state, undoable like an action,
  never a barrier.
* ``clock``: the game clock (:mod:`companion.tables.clock`, folded by the table); the state
  does not change.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from companion.store.base import Event
from companion.tables.counters import CounterChange, Counters, undo_index, undo_seats
from games.protocol import Faces, Game

Applied = tuple[Any, Any]
"""An action as checked by the server: (the parsed action, the state after it)."""
RECENT_EVENTS = 64
"""Events the fold remembers for writes based on an older revision
(:mod:`companion.tables.commute`); a write older than that is refused as stale."""
Recent = tuple[int, str, str | None, Any]
"""(seq, kind, seat, the parsed action, the counter change, the undone entry, or None) of one
event."""


@dataclass(kw_only=True)
class Fold:
    """The running fold of one table's log (mutable, owned by :class:`companion.tables.table.Table`).

    Attributes:
        game: the table's game.
        state: the game state, None before setup.
        turn_start: the state the current turn's undoable actions start from.
        undoable: ``(seq, seat, action)`` of the current turn since the last barrier (a
            counter entry holds its :class:`~companion.tables.counters.CounterChange`).
        counters: the players' own counters (:mod:`companion.tables.counters`).
        counters_start: the counters when the current turn's undoable entries started.
        recent: the last :data:`RECENT_EVENTS` events as :data:`Recent`, oldest first.
    """

    game: Game[Any, Any, Any]
    state: Any = None
    turn_start: Any = None
    undoable: list[tuple[int, str, Any]] = field(default_factory=list)
    counters: Counters = field(default_factory=Counters)
    counters_start: Counters = field(default_factory=Counters)
    recent: deque[Recent] = field(default_factory=lambda: deque(maxlen=RECENT_EVENTS))

    def add(self, event: Event, applied: Applied | None = None) -> None:
        """Fold one event in (the event was validated before it was logged).

        Args:
            event: the event.
            applied: for an ``action`` event just checked by the server: the parsed action
                and the state the check computed with the same pure reducer from the same
                state, so the action is applied once, not again. None:
                parse the logged action and apply it (loading a log, catching up).
        """
        payload = event.payload
        game = self.game
        action: Any = None
        if event.kind == "setup":
            self.state = game.start(payload)
            self._barrier()
        elif event.kind == "roll":
            if self.state is None or game.outcome(self.state) is None:
                self._barrier()  # after the end a roll for fun keeps the last blow undoable
        elif event.kind == "action":
            assert self.state is not None and event.seat is not None
            before = self.state
            faces = faces_of(payload.get("faces", ()))
            if applied is None:
                action = game.parse_action(payload["action"])
                self.state = game.apply(before, event.seat, action, faces)
            else:
                action, self.state = applied
            # the action that ends the game stays undoable (a last blow can be taken back) until
            # the game starts anew, unless dice decided it (dice are never rolled again)
            ended = game.outcome(self.state) is not None
            if faces or (game.turn(self.state) != game.turn(before) and not ended):
                self._barrier()
            else:
                self.undoable.append((event.seq, event.seat, action))
        elif event.kind == "counter":
            assert event.seat is not None
            action = CounterChange.from_json(payload["counter"])
            self.counters = self.counters.apply(event.seat, action)
            self.undoable.append((event.seq, event.seat, action))
        elif event.kind == "undo":
            action = self._undo(payload.get("undoes"))
        self.recent.append((event.seq, event.kind, event.seat, action))

    def _undo(self, undoes: Any) -> Any:
        """Take back the undoable entry of seq ``undoes`` (the most recent where none matches:
        logs written before counters) and replay the rest; returns the undone entry."""
        seqs = [seq for seq, _, _ in self.undoable]
        _, _, undone = self.undoable.pop(seqs.index(undoes) if undoes in seqs else -1)
        state, counters = self.turn_start, self.counters_start
        for _, seat, kept in self.undoable:
            if isinstance(kept, CounterChange):
                counters = counters.apply(seat, kept)
            else:
                state = self.game.apply(state, seat, kept)
        self.state, self.counters = state, counters
        return undone

    def _barrier(self) -> None:
        self.turn_start = self.state
        self.counters_start = self.counters
        self.undoable = []

    @property
    def undo_seat(self) -> str | None:
        """The seat of the most recent undoable entry, or None."""
        return self.undoable[-1][1] if self.undoable else None

    def undo_index(self, seat: str) -> int | None:
        """The index in :attr:`undoable` that ``seat``'s undo takes back, or None
        (:func:`companion.tables.counters.undo_index`)."""
        return undo_index(self.undoable, seat)

    def undo_seats(self, seats: tuple[str, ...]) -> list[str]:
        """The seats that may undo now (:func:`companion.tables.counters.undo_seats`)."""
        return undo_seats(self.undoable, seats)


def faces_of(data: Any) -> Faces:
    """Logged faces (lists from JSON) as the tuples the protocol takes."""
    return tuple(tuple(rolled) for rolled in data)
