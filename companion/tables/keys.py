"""Idempotency keys: what a write asked for, so that a retry is recognised and applied once.

Writes carry a ``client_action_id``: a repeated id with the same request (a retry, a double
tap) is answered with the current view and applied once; the same id with a different request
is refused with 409 ``client_action_id_reused``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.store.base import Event
from games.protocol import Game, GameError


def _key(*parts: Any) -> str:
    return json.dumps(parts, sort_keys=True, separators=(",", ":"))


def event_request_key(event: Event) -> str:
    """What a logged event's request asked for, comparable with :func:`action_request_key`.

    A retry of a request (same ``client_action_id``) must ask for the same thing; the key
    leaves out what the server decided (dice faces, the layout of a random setup). A setup
    logged before the request was kept (``request`` missing) matches no retry: the retry is
    refused as ``client_action_id_reused`` and nothing is applied twice.
    """
    payload = event.payload
    if event.kind == "action":
        return _key("action", event.seat, payload["action"])
    if event.kind == "setup":
        return _key("setup", event.seat, payload.get("request"))
    if event.kind == "roll":
        return roll_request_key(event.seat, payload["count"], payload["sides"], payload["purpose"])
    if event.kind == "counter":
        return counter_request_key(event.seat, payload["counter"])
    if event.kind == "clock":
        return clock_request_key(event.seat, payload["op"])
    return _key(event.kind, event.seat)


@dataclass(frozen=True, kw_only=True)
class ActionRequest:
    """The ``action`` of an ``/actions`` request, parsed once (:func:`parse_request`): its key,
    the rules and the logged payload all use this one parse and this one canonical JSON.

    Attributes:
        kind: ``"setup"``, ``"undo"`` or ``"action"``.
        parsed: the game's setup or action (None for undo, or when it did not parse).
        canonical: the game's JSON of ``parsed`` (``setup_to_json`` / ``action_to_json``).
        error: the game's error when it did not parse; raised once the request is decided
            (after the duplicate check, in the order of the checks).
    """

    kind: str
    parsed: Any = None
    canonical: dict[str, Any] | None = None
    error: GameError | None = None


def parse_request(game: Game[Any, Any, Any], action: dict[str, Any]) -> ActionRequest:
    """Parse an ``/actions`` request's ``action`` object with its table's game, keeping an
    error for later instead of raising it."""
    kind = action.get("type")
    if kind == "undo":
        return ActionRequest(kind="undo")
    kind = "setup" if kind == "setup" else "action"
    try:
        if kind == "setup":
            setup = game.parse_setup(action)
            return ActionRequest(kind=kind, parsed=setup, canonical=game.setup_to_json(setup))
        parsed = game.parse_action(action)
        return ActionRequest(kind=kind, parsed=parsed, canonical=game.action_to_json(parsed))
    except GameError as exc:
        return ActionRequest(kind=kind, error=exc)


def action_request_key(seat: str, request: ActionRequest) -> str:
    """The key of an incoming ``/actions`` request (see :func:`event_request_key`)."""
    if request.kind == "undo":
        return _key("undo", seat)
    if request.error is not None:
        return _key("invalid")
    return _key(request.kind, seat, request.canonical)


def roll_request_key(seat: str | None, count: Any, sides: Any, purpose: Any) -> str:
    """The key of a dice request (see :func:`event_request_key`)."""
    return _key("roll", seat, count, sides, purpose.strip() if isinstance(purpose, str) else None)


def counter_request_key(seat: str | None, change: dict[str, Any]) -> str:
    """The key of a counter write (its :meth:`~companion.tables.counters.CounterChange.to_json`;
    see :func:`event_request_key`)."""
    return _key("counter", seat, change)


def clock_request_key(seat: str | None, op: str) -> str:
    """The key of a clock request (``op``: pause, resume, set, expired; see
    :func:`event_request_key` and :mod:`companion.tables.clock_writes`)."""
    return _key("clock", seat, op)
