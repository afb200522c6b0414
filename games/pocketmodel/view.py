"""What each seat's phone and a watcher may see of a PocketModel table (hidden information).

The table follows the physical table (ARCHITECTURE.md): the units (in play and in the
reserve), the objectives' slots and what is face up lie on the table for everybody; a
player's deck list (the combat and objective cards brought with the fleet) stays in that
player's deck box, so only that player's phone receives it. The other seat and watchers get
the deck's slug, title and size, never its cards:

* the state (:func:`view_state`): every other seat's ``players.<seat>.deck.cards`` is empty,
  ``hidden`` holds the number of cards (with copies);
* the legal actions: only the seat to act receives them (they name its deck's cards);
* the log (:func:`event_view`): a ``fleet`` action and a setup that brought fleets carry the
  deck list only for its owner; a card played from it (``play``, ``objective``, ``reveal``) is
  on the table once played, so the others get its ``name`` beside the id.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.pocketmodel.codec import state_to_json
from games.pocketmodel.state import State

_PLAYED = ("play", "objective", "reveal")
"""Actions that put a card of the deck list on the table (PM-10, PM-20, PM-30)."""


def hidden_deck(deck: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A deck list's JSON (``{"slug", "title", "cards"}``) as the other seat sees it: slug,
    title, no cards, and ``hidden``: how many cards (copies counted) lie in the deck box."""
    if deck is None:
        return None
    count = sum(int(c.get("copies", 1)) for c in deck.get("cards", ()))
    return {"slug": deck.get("slug"), "title": deck.get("title"), "cards": [], "hidden": count}


def view_state(state: State, seat: str | None) -> dict[str, Any]:
    """:func:`state_to_json` with the deck lists of every seat but ``seat`` hidden
    (:func:`hidden_deck`); ``seat`` None (a watcher) sees no deck list."""
    data = state_to_json(state)
    for owner, player in data["players"].items():
        if owner != seat and player is not None:
            player["deck"] = hidden_deck(player["deck"])
    return data


def event_view(
    kind: str,
    payload: Mapping[str, Any],
    actor: str | None,
    seat: str | None,
    before: State | None,
) -> dict[str, Any] | None:
    """The logged payload as ``seat`` may see it (module docstring), or None when unchanged.

    Args:
        kind: the event kind; only ``setup`` and ``action`` events carry deck lists.
        payload: the logged payload.
        actor: the seat that wrote the event.
        seat: the viewer (``"A"``, ``"B"``, None for a watcher).
        before: the state before the event (names a played card for the other seats).
    """
    if kind == "setup":
        return _setup_view(payload, seat)
    if kind != "action" or actor == seat:
        return None
    action = payload.get("action") or {}
    kind_of = action.get("type")
    if kind_of == "fleet":
        return {**payload, "action": {**action, "deck": hidden_deck(action.get("deck"))}}
    if kind_of in _PLAYED and action.get("card") and before is not None and actor is not None:
        player = before.player(actor)
        card = None if player is None or player.deck is None else player.deck.card(action["card"])
        if card is not None:
            return {**payload, "action": {**action, "name": card.name}}
    return None


def _setup_view(payload: Mapping[str, Any], seat: str | None) -> dict[str, Any] | None:
    """A setup that brought fleets (``fleets`` in the event and in its ``request``) with the
    other seats' deck lists hidden."""

    def hide(fleets: Any) -> Any:
        if not isinstance(fleets, dict):
            return fleets
        return {
            owner: fleet
            if owner == seat or not isinstance(fleet, dict)
            else {**fleet, "deck": hidden_deck(fleet.get("deck"))}
            for owner, fleet in fleets.items()
        }

    request = payload.get("request")
    carries = any(
        isinstance(f, dict) and f.get("deck")
        for fleets in (payload.get("fleets"), (request or {}).get("fleets"))
        if isinstance(fleets, dict)
        for owner, f in fleets.items()
        if owner != seat
    )
    if not carries:
        return None
    shown = {**payload, "fleets": hide(payload.get("fleets"))}
    if isinstance(request, dict):
        shown["request"] = {**request, "fleets": hide(request.get("fleets"))}
    return shown
