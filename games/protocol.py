"""The game protocol: what every game implements so that the companion can keep its table.

One small interface in the spirit of boardgame.io's game object and python-chess: a game turns a
setup into an initial state, lists its legal actions, applies an action (raising distinct errors
for an action it cannot parse and one the rules forbid now), names the seat to act and the
outcome, round-trips its state through JSON, and says what each seat may see. The companion
(``companion/``) folds any game's event log through this interface and never imports a game by
name: it looks games up in :mod:`games.registry`.

The companion follows the physical table (ARCHITECTURE.md): a game's state holds what lies on
the table (units, zones, counters, modes, tapped, upgrades, stacks, medals, objectives), never
the cards in the players' hands.

Seats are ``"A"`` and ``"B"``; a watcher is the seat ``None``.

Both players at once: every write carries the revision its phone saw. A write based on an
older revision (stale) is applied to the current state when every action logged since that
revision commutes with it (:meth:`Game.commutes`: independent, so the order does not matter)
and nothing else changed the game meanwhile (a setup or an undo; rolls of dice and seat changes
leave the state alone); otherwise it is refused with 409 and the current view, as before. The
game declares which actions commute, with a safe default of "no", rather than the server
re-checking a stale action against the current state: only the rules know whether an action's
meaning depends on another (a counter on a unit both phones saw hit once must not become two),
and a wrong "no" costs a second tap where a wrong "yes" would change the table.

Dice: engines never roll (ARCHITECTURE.md, *Companion*). A setup or an action that needs dice
says so through :meth:`Game.setup_dice` / :meth:`Game.dice_for`; the companion rolls them on
the server, logs them, and hands the faces to :meth:`Game.start` / :meth:`Game.apply`, which are
pure functions of their arguments, so replaying the log always gives the same state. An action
with dice is an undo barrier.

Errors (all :class:`GameError`, a ``ValueError``):

* :class:`MalformedAction`: cannot be understood at all (wrong type, missing field, value out
  of range). HTTP 400.
* :class:`IllegalAction`: well formed, but the rules forbid it now; ``rule`` holds the one rule
  id it cites (``"PM-11"``), ``message_id`` and ``values`` the text the phone translates
  (:class:`Messages`). HTTP 422 ``illegal``.
* :class:`NotYourTurn`: an :class:`IllegalAction` because another seat is to act. HTTP 422
  ``not_your_turn``.
* :class:`SetupError`: an :class:`IllegalAction` at setup (a deck that breaks the building
  rules: "team has 27 stars, at most 25 (TF-3)").
* :class:`StateError`: a stored state is inconsistent (never the players' fault).
"""

from __future__ import annotations

import abc
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, TypeVar

SEATS: tuple[str, str] = ("A", "B")
"""The two seats of every table."""

Faces = tuple[tuple[int, ...], ...]
"""Rolled dice: one tuple of faces per :class:`DiceRequest`, in the order requested."""

_RULE_ID = re.compile(r"\(([A-Z]{2,3}-\d+)\)")


class GameError(ValueError):
    """Base class of every error a game raises through this protocol.

    Args:
        message: the English text (logs, the API's ``message``).
        rule: the one rule id the error cites (``"PM-24"``); when None, the first id written
            in parentheses in ``message`` (``"... (PM-24)"``), or None.
        message_id: the id of the refusal's text in the game view's catalogs (the phone
            shows it translated, :class:`Messages`), or None.
        values: the values of the text's ``%(name)s`` fields (strings and integers).
        problems: where one error stands for several (a deck breaking several building
            rules), each of them; empty otherwise.

    Attributes:
        rule: the rule id, or None.
        message_id: the text's id, or None.
        values: the text's values (read-only).
        problems: the errors this one stands for (empty: just itself).
    """

    def __init__(
        self,
        message: str,
        *,
        rule: str | None = None,
        message_id: str | None = None,
        values: Mapping[str, str | int] | None = None,
        problems: Sequence[GameError] = (),
    ) -> None:
        super().__init__(message)
        self.problems: tuple[GameError, ...] = tuple(problems)
        if rule is None:
            found = _RULE_ID.search(message)
            rule = found.group(1) if found else None
        self.rule = rule
        self.message_id = message_id
        self.values: Mapping[str, str | int] = MappingProxyType(dict(values or {}))

    def to_json(self) -> dict[str, Any]:
        """``{"message", "rule", "message_id", "values"}`` (what the API sends the phone)."""
        return {
            "message": str(self),
            "rule": self.rule,
            "message_id": self.message_id,
            "values": dict(self.values),
        }


class MalformedAction(GameError):
    """The action (or setup) cannot be understood: wrong type, missing field, out of range."""


class IllegalAction(GameError):
    """The action is well formed but the rules forbid it in this state (cites the rule id)."""


class NotYourTurn(IllegalAction):
    """The action belongs to the seat to act, and the seat that sent it is not that seat."""


class SetupError(IllegalAction):
    """A setup breaks the rules (deck building, fleet budget): names the rule and the numbers."""


class StateError(GameError):
    """A stored state (or event) is inconsistent: a bug or a damaged log, never a player's move."""


@dataclass(frozen=True, kw_only=True)
class Reason:
    """One building rule a deck played anyway (a casual deck) breaks, with its numbers, kept
    in the state so that both phones show it for the whole game, each in its own language.

    Attributes:
        text: the English text with the rule, ``"deck has 4 cards, at least 30 (PM-5)"``.
        message_id: the text's id in the game's :class:`Messages` (the phone translates it
            like a refusal), or None (a state written before reasons had ids: shown as
            ``text``).
        rule: the rule id, or None.
        values: the text's ``%(name)s`` values, as ``(name, value)`` pairs.
    """

    text: str
    message_id: str | None = None
    rule: str | None = None
    values: tuple[tuple[str, str | int], ...] = ()

    @classmethod
    def of(cls, error: GameError) -> Reason:
        """The reason a refusal gives (its text, message id, rule and values)."""
        return cls(
            text=str(error),
            message_id=error.message_id,
            rule=error.rule,
            values=tuple(error.values.items()),
        )

    def to_json(self) -> dict[str, Any]:
        """``{"text", "message_id", "rule", "values": {name: value}}`` (what the phone gets)."""
        return {
            "text": self.text,
            "message_id": self.message_id,
            "rule": self.rule,
            "values": dict(self.values),
        }

    @classmethod
    def from_json(cls, data: Any) -> Reason:
        """:meth:`to_json`'s form back, or a plain string (the text alone, as states before
        reasons had ids stored it).

        Raises:
            StateError: neither form.
        """
        if isinstance(data, str):
            return cls(text=data)
        if not isinstance(data, dict) or not isinstance(data.get("text"), str):
            raise StateError(f"a casual reason must be a string or an object, got {data!r:.60}")
        values = data.get("values") or {}
        if not isinstance(values, dict) or not all(
            isinstance(v, str | int) and not isinstance(v, bool) for v in values.values()
        ):
            raise StateError(f"a casual reason's values must be strings or integers: {data!r:.60}")
        message_id, rule = data.get("message_id"), data.get("rule")
        return cls(
            text=data["text"],
            message_id=message_id if isinstance(message_id, str) else None,
            rule=rule if isinstance(rule, str) else None,
            values=tuple((str(k), v) for k, v in values.items()),
        )


@dataclass(frozen=True, kw_only=True)
class DiceRequest:
    """Dice the server must roll for a setup or an action.

    Attributes:
        count: number of dice, 1..100.
        sides: sides of each die, 2..2,000,000 (large dice serve as random sort keys).
        purpose: why, in English (the phone translates known purposes), 1..80 characters;
            shown in the dice history next to the faces.

    Raises:
        ValueError: a field out of range.
    """

    count: int
    sides: int
    purpose: str

    def __post_init__(self) -> None:
        if not 1 <= self.count <= 100:
            raise ValueError(f"count must be 1..100, got {self.count}")
        if not 2 <= self.sides <= 2_000_000:
            raise ValueError(f"sides must be 2..2000000, got {self.sides}")
        if not 1 <= len(self.purpose) <= 80:
            raise ValueError(f"purpose must be 1..80 characters, got {self.purpose!r}")


@dataclass(frozen=True, kw_only=True)
class Outcome:
    """How a finished game ended.

    Attributes:
        winner: the winning seat (``"A"``/``"B"``), or None for a draw.
        reason: a stable code the phone translates (``"five_ships"``, ``"no_units"``, ...).
        rule: the rule id that ended the game (``"AST-30"``).
        score: points per seat where the game counts any (ships scored, medals), else empty.
    """

    winner: str | None
    reason: str
    rule: str
    score: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    def to_json(self) -> dict[str, Any]:
        """``{"winner", "reason", "rule", "score"}``."""
        return {
            "winner": self.winner,
            "reason": self.reason,
            "rule": self.rule,
            "score": dict(self.score),
        }


S = TypeVar("S")
"""A game's state type (immutable)."""
A = TypeVar("A")
"""A game's action type (immutable)."""
T = TypeVar("T")
"""A game's parsed setup type (immutable)."""


class Game(abc.ABC, Generic[S, A, T]):
    """One game's rules behind the protocol the companion uses.

    Implementations are stateless singletons registered in :mod:`games.registry`; every
    method is a pure function of its arguments.

    Class attributes:
        name: the registry key, also the game slug of deck files and card URLs
            (``"pocketmodel"``, ``"toy-battle"``).
        rule_prefix: the prefix of the game's rule ids (``"PM"``).
        deck_game: the deck-file ``game:`` value a player brings to the table, or None for a
            game without decks (Asteroids).
        hidden_information: True when :meth:`view` differs between the seats; otherwise
            the companion computes one view for everybody.
        action_types: every ``type`` :meth:`parse_action` takes, in the order its refusal
            lists them (the whole-game tests look for these raw names in the phones' logs).
    """

    name: str
    rule_prefix: str
    action_types: tuple[str, ...]
    deck_game: str | None = None
    hidden_information: bool = False

    title: str = ""
    """The display name, written once: in the game's registry entry
    (:attr:`games.entry.GameEntry.title`), which sets it here when it loads the engine (the
    protocol imports no registry: that would be an import cycle)."""

    # ----------------------------------------------------------------------------- setup

    @abc.abstractmethod
    def parse_setup(self, data: Any) -> T:
        """Parse a setup request: the JSON object of a ``{"type": "setup", ...}`` action
        (``type`` included).

        Raises:
            MalformedAction: not understood (unknown field, wrong type, out of range).
            SetupError: understood, but against the rules (deck building).
        """

    @abc.abstractmethod
    def example_setups(self) -> list[dict[str, Any]]:
        """Setup requests that together show the game's options and variant flags (the
        protocol tests and the benchmarks play from each)."""

    @abc.abstractmethod
    def setup_to_json(self, setup: T) -> dict[str, Any]:
        """The setup request in canonical JSON (equal requests give equal JSON)."""

    def setup_dice(self, setup: T) -> tuple[DiceRequest, ...]:
        """Dice the server rolls for this setup (a starting player, a random layout)."""
        return ()

    @abc.abstractmethod
    def setup_event(self, setup: T, faces: Faces) -> dict[str, Any]:
        """The setup as it is logged: everything decided, dice resolved (JSON object).

        Raises:
            SetupError: the dice or the setup cannot give a legal start.
        """

    @abc.abstractmethod
    def start(self, event: Mapping[str, Any]) -> S:
        """The initial state from a logged :meth:`setup_event`.

        Raises:
            StateError: the event is not one this game wrote.
        """

    # --------------------------------------------------------------------------- actions

    @abc.abstractmethod
    def parse_action(self, data: Any) -> A:
        """Parse a JSON action (``{"type": ..., ...}``).

        Raises:
            MalformedAction: not an action of this game.
        """

    @abc.abstractmethod
    def action_to_json(self, action: A) -> dict[str, Any]:
        """The action as JSON (round trip with :meth:`parse_action`)."""

    @abc.abstractmethod
    def legal_actions(self, state: S, seat: str) -> Sequence[A]:
        """Every action ``seat`` may take now, in a stable order (empty when the game is over).

        Actions whose outcome depends on dice are listed once (the faces come later).
        """

    def dice_for(self, state: S, seat: str, action: A) -> tuple[DiceRequest, ...]:
        """Dice the server rolls before applying ``action`` (none for most actions).

        Raises:
            IllegalAction: the action is illegal now (checked before anything is rolled).
        """
        return ()

    @abc.abstractmethod
    def apply(self, state: S, seat: str, action: A, faces: Faces = ()) -> S:
        """The state after ``seat`` takes ``action`` with the rolled ``faces``.

        Raises:
            MalformedAction: not an action of this game, or faces that do not fit the request.
            NotYourTurn: another seat is to act.
            IllegalAction: the rules forbid it now (the message cites the rule id).
        """

    def commutes(self, action: A, seat: str, other: A, other_seat: str) -> bool:
        """Whether ``action`` of ``seat`` and ``other`` of ``other_seat`` are independent: in
        every state, each is legal after the other exactly when it is legal before it, means
        the same, and applying both in either order gives the same state. The companion then
        applies ``action`` even when the phone sent it before it saw ``other`` (module
        docstring). Symmetric; an action with dice is asked with its dice still to roll.

        Returns:
            True only where the rules make both orders the same; the default, False, refuses
            every stale action (409) as before.
        """
        return False

    @abc.abstractmethod
    def to_act(self, state: S) -> str | None:
        """The seat whose turn it is, or None once the game is over."""

    def started(self, state: S) -> bool:
        """Whether the game proper has begun: False while the players still bring what they
        play with (decks, fleets, teams) before the first move, True from then on (also once
        over). A clock runs only from here (:mod:`companion.tables.clock`). The default: a
        game without such a phase has begun with its setup."""
        return True

    @abc.abstractmethod
    def turn(self, state: S) -> int:
        """The turn number (1, 2, ...); undo never reaches back into an earlier turn."""

    @abc.abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or None while it goes on."""

    # ------------------------------------------------------------------------------ JSON

    @abc.abstractmethod
    def state_to_json(self, state: S) -> dict[str, Any]:
        """The whole state as JSON (round trip with :meth:`state_from_json`)."""

    @abc.abstractmethod
    def state_from_json(self, data: Any) -> S:
        """Parse :meth:`state_to_json` output.

        Raises:
            StateError: not a consistent state of this game.
        """

    def view(self, state: S, seat: str | None) -> dict[str, Any]:
        """What ``seat`` (None: a watcher) may see: at least ``state`` and ``legal``.

        The default shows the whole state (the table is open: the companion holds no hands)
        and the legal actions of the seat to act.
        """
        actor = self.to_act(state)
        legal = [] if actor is None else self.legal_actions(state, actor)
        return {
            "state": self.state_to_json(state),
            "legal": [self.action_to_json(a) for a in legal],
        }

    def legal_for(self, state: S, seat: str | None) -> list[dict[str, Any]]:
        """The legal actions (JSON) ``seat`` receives: all of them for the seat to act, none for
        the other seat and watchers (for games whose legal actions name cards of the acting
        player's hidden deck list)."""
        actor = self.to_act(state)
        if actor is None or actor != seat:
            return []
        return [self.action_to_json(a) for a in self.legal_actions(state, actor)]

    def event_view(
        self,
        kind: str,
        payload: Mapping[str, Any],
        actor: str | None,
        seat: str | None,
        before: S | None,
    ) -> dict[str, Any] | None:
        """A logged event's payload as ``seat`` (None: a watcher) may see it, or None when it
        may see the payload as logged.

        The log is sent to every phone of a table (the live stream and ``/log``), so an event
        that carries what lies in a player's hand or deck box (a deck list brought with a
        fleet) must show other seats and watchers only what lies on the table
        (ARCHITECTURE.md: a player's deck list and hand stay on that player's phone). Only
        called for games with :attr:`hidden_information`.

        Args:
            kind: the event kind (``"setup"``, ``"action"``, ...).
            payload: the payload as logged (not to be changed).
            actor: the seat that wrote the event, or None (the server).
            seat: the viewer: ``"A"``, ``"B"`` or None for a watcher.
            before: the state before the event (None before the setup), to name a card
                played from the deck list the viewer does not see.
        """
        return None

    # ------------------------------------------------------------------------------ decks

    def setup_from_deck(self, deck: Any, seat: str, casual: bool = False) -> dict[str, Any]:
        """The JSON action that brings a parsed deck (:class:`games.cards.deck.Deck`) to the
        table for ``seat``; only for games with :attr:`deck_game`.

        Args:
            deck: the parsed deck.
            seat: the seat bringing it.
            casual: play anyway: a deck that breaks the building rules is brought all the
                same, and the table records the rules and numbers it breaks (a casual deck).

        Raises:
            SetupError: the deck breaks the building rules for play (and is not casual), or
                cannot be played at all (no unit, no character).
            NotImplementedError: the game has no decks.
        """
        raise NotImplementedError(f"{self.name} has no decks")

    def pieces_of_card(self, state: S, deck: str, card: str, seat: str | None = None) -> list[str]:
        """Ids of the pieces on the table (units, characters) that the printed card ``card``
        of deck ``deck`` stands for, for the card's QR code (``/card/<game>/<deck>/<card>``).

        ``seat`` is the seat of the phone that scanned the card ("A", "B" or None for a
        watcher): when both players brought the same deck, that seat's own pieces come first,
        so a scan opens the scanner's copy. Empty for games without decks and for cards not on
        the table."""
        return []


def check_faces(requests: Sequence[DiceRequest], faces: Faces) -> None:
    """Check that ``faces`` answer ``requests`` (count and range of every die).

    Raises:
        MalformedAction: a missing, extra or out-of-range face.
    """
    if len(faces) != len(requests):
        raise MalformedAction(f"expected faces for {len(requests)} dice requests, got {len(faces)}")
    for request, rolled in zip(requests, faces):
        if len(rolled) != request.count or not all(
            isinstance(f, int) and 1 <= f <= request.sides for f in rolled
        ):
            raise MalformedAction(
                f"{request.purpose}: expected {request.count} faces of 1..{request.sides}, "
                f"got {list(rolled)[:10]}"
            )


class Messages:
    """A game's refusal texts: message id -> English template with ``%(name)s`` fields.

    The same ids and English texts are in the game view's catalog (``view.html``, block
    ``refusal-strings``), translated in its ``translations/``; a test checks both ways.

    Args:
        texts: message id (``[a-z0-9_]+``) -> English template.
    """

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.texts: Mapping[str, str] = MappingProxyType(dict(texts))

    def error(
        self,
        message_id: str,
        rule: str,
        cls: type[GameError] | None = None,
        /,
        **values: Any,
    ) -> GameError:
        """The error (an :class:`IllegalAction` unless ``cls`` says otherwise) for
        ``message_id`` with ``values`` (lists become ``", "``-joined text, None ``"-"``), its
        English text ending in ``(rule)``.

        Raises:
            KeyError: an unknown message id (a bug in the engine).
        """
        shown: dict[str, str | int] = {}
        for key, value in values.items():
            if isinstance(value, (list, tuple)):
                shown[key] = ", ".join(str(v) for v in value)
            elif isinstance(value, int) and not isinstance(value, bool):
                shown[key] = value
            else:
                shown[key] = "-" if value is None else str(value)
        text = self.texts[message_id] % shown
        kind = cls or IllegalAction
        return kind(f"{text} ({rule})", rule=rule, message_id=message_id, values=shown)
