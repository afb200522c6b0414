"""Idempotency keys: what a write asked for, so that a retry is recognised and applied once.

Writes carry a ``client_action_id``: a repeated id with the same request (a retry, a double
tap) is answered with the current view and applied once; the same id with a different request
is refused with 409 ``client_action_id_reused``.
"""

from __future__ import annotations

import json
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
    return _key(event.kind, event.seat)


def action_request_key(game: Game[Any, Any, Any], seat: str, action: Any) -> str:
    """The key of an incoming ``/actions`` request (see :func:`event_request_key`)."""
    if not isinstance(action, dict):
        return _key("invalid")
    kind = action.get("type")
    if kind == "undo":
        return _key("undo", seat)
    try:
        if kind == "setup":
            return _key("setup", seat, game.setup_to_json(game.parse_setup(action)))
        return _key("action", seat, game.action_to_json(game.parse_action(action)))
    except GameError:
        return _key("invalid")


def roll_request_key(seat: str | None, count: Any, sides: Any, purpose: Any) -> str:
    """The key of a dice request (see :func:`event_request_key`)."""
    return _key("roll", seat, count, sides, purpose.strip() if isinstance(purpose, str) else None)
