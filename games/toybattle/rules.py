"""Toy Battle rules: the troops and their counts, the seats' colours, the variant flags and the
decisions D1..D16 every module of the engine follows.

Source: shared/rules/toy-battle.md (TB-1..TB-41). Pure: no I/O. The table is in
:mod:`games.toybattle.state`, the actions in :mod:`games.toybattle.actions`; the moves live in
:mod:`games.toybattle.placement` (where a troop may go) and :mod:`games.toybattle.effects`
(what happens then, captures, the end).

The companion follows the table (ARCHITECTURE.md): troops are real tiles in the players' hands,
so racks, reserves and the 4 troops removed at setup are COUNTS; what lies face up (the board's
stacks and the discards) is known by type. Seat A plays blue, seat B red.

Decisions (the digest's two open points and the others found while writing the engine; each
flag is a field of :class:`Variant`, default first):

* D1 (open point, TB-33) Volcanic Jungle moves a troop onto bases only, never onto an H.Q.
  Flag ``jungle_onto_hq`` (False): with it, any adjacent H.Q. is a destination too; a moved
  troop never wins (TB-40 speaks of *placing* on an enemy H.Q.). On the published Volcanic
  Jungle no base next to a special base is next to an H.Q., so the flag changes nothing there
  (a test checks the fact); it is kept for terrains that differ.
  Seed (its rules are in English): "VOLCANIC JUNGLE: ... Move it to a base that is adjacent to
  its starting base, ignoring the placement rules."
* D2 (open point, TB-31) Kwak (strength 0) may not go on a value-restricted Tropical Pool base
  or H.Q. Flag ``kwak_on_restricted`` (False).
  Seed: "TROPICAL POOL: Only Troops with the indicated values can be placed on these special
  bases and H.Q." (Kwak shows no value.)
* D3 (TB-20/TB-36) Hook's freedom from the connection rule is its troop effect, and Station
  Metal-X suppresses troop effects on its special bases ("placement restrictions occur before
  placing"): an unconnected Hook may not go on a Metal-X base. Flag ``hook_ignores_metal_x``.
  Seed: "STATION METAL-X: Troop effects are not applied on these special bases. (Note: Placement
  restrictions occur before placing the Troop.)"
* D4 (TB-13, "special base effects only for visible troops") a special base acts only if the
  troop placed on it is still the visible top of its stack when its base effect comes (after
  the troop effects: a Cap'n's extra troop placed on top of it, or a Jungle move onto it, hides
  it). Flag ``covered_troop_triggers_base`` (False).
  Seed: "IMPORTANT: Special base terrain effects may only be applied to visible troops (i.e.,
  the troop on top of a stack)."
* D5 (TB-14) only the placing player claims regions: a region completed for the opponent
  during my turn (a discard, a return to the rack or a move uncovers their troop) is theirs
  at their next capture check (after their next placement), if they still hold it then. Flag
  ``opponent_captures_at_once`` (the former default): it is theirs at once, in my turn.
  Seed: "If you now control region(s) by occupying all the bases surrounding it, claim the
  medal(s) placed during setup." (the last step of *your* turn's placement, B. Play 1 troop)
  and "Wenn du Basen besetzt, die einen ununterbrochenen Pfad um eine Region bilden,
  beanspruchst du die Orden innerhalb dieser Region." (When you occupy bases forming an
  unbroken path around a region, you claim its medals: the one who occupies, by placing.)
  Stored tables: every setup event and state has carried all six flags since the engine's
  first commit (97db568; the setup event writes every flag), so the new default reaches new
  tables only and a table logged with ``"opponent_captures_at_once": true`` replays as played.
* D6 (TB-14) regions are checked once, when the placed troop's effect and the base's effect
  (and a Cap'n's chain) are done: a region completed by the placement and opened again by an
  effect is not taken. Flag ``captures_after_effects`` (True); off (the former default):
  checked after the placement and after every single effect, so a capture (and the medal
  objective, TB-40) can come before the remaining effects, and is kept.
  Seed: "After placement, trigger that troop's effect (if any). Finally, trigger the base's
  effect (if any). If you now control region(s) by occupying all the bases surrounding it, claim
  the medal(s)": the default is one check once the effects are done (TB-14); flag
  ``captures_after_effects`` off: the former default, a check after every step.
* D7 (TB-3) seat A is blue, seat B red; a 2-sided die chooses the starting player, who takes 3
  troops (the other 4); each seat removes 4 unseen, so 17 and 16 stay in the reserves.
* D8 (TB-1, TB-11) the player says which troop they place; the engine refuses a type of which
  all 3 are already known (on the board or discarded), and any troop when the rack holds no
  unblocked troop.
* D9 (TB-20 XB-42) the random troop is drawn at the table; the player enters its type (types of
  which the opponent has 3 known are not offered).
* D10 (TB-37) a blocked troop is a count on its rack: the rack may place ``rack - blocked``
  troops; the block ends at the end of the blocked player's next turn; a block needs an
  unblocked troop on the opponent's rack.
* D11 (TB-41) when the player to move can neither draw (rack 8 or reserve 0) nor place (no
  unblocked troop, or no troop type with a legal base), the engine ends the game itself; when it
  cannot know (the rack's types are hidden), the player declares it with ``stuck`` (offered only
  when they cannot draw) and shows the rack.
  Seed: "Wenn ein Spieler keine Truppe ziehen oder einsetzen kann, endet das Spiel und wer die
  meisten Orden hat, gewinnt." (When a player can neither draw nor place a troop, the game ends
  and the most medals win.) and "If tied, the player who ended the game loses."
* D12 (TB-20, TB-30..37) every effect is optional (``decline``); an effect that can do nothing
  now (a full rack, no adjacent enemy, an empty discard) is skipped without asking, and a draw
  is cut to what the rack (8) and the reserve allow.
* D13 (TB-13) order: the placed troop's effect, then a Cap'n's extra troop and its effect
  (troop effects first, also of a chain of Cap'ns), then the special base effects in the order
  the troops were placed.
  Seed: "Note: First apply all the effects of Troops you just placed, then apply any special
  base effects."
* D14 (TB-30) Castle Field's "other troops" are the visible own troops on any other node.
* D15 (TB-33) a Jungle move ignores the placement rules (any adjacent base, own or enemy stack,
  the Jungle base itself included); only the visible top troop moves.
* D16 (TB-40) a troop placed on an enemy H.Q. wins at once, before any effect; reaching the
  objective wins at the capture that reaches it (D6).
  Seed: "Das Spiel endet, sobald du das H.Q. deines Gegners besetzt oder die erforderliche
  Anzahl an Orden auf der Grundlage des aktuellen Spielbretts gewonnen hast." (The game ends as
  soon as you occupy the enemy H.Q. or have won the medals the board requires.)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from games.protocol import MalformedAction

TROOPS: tuple[str, ...] = ("Kwak", "Skully", "Cap'n", "Jumbo", "Hook", "XB-42", "Star", "Roxy")
"""TB-1: the troop types; the index is the strength (Kwak, the joker, is 0)."""


TROOP_INDEX: Mapping[str, int] = {name: i for i, name in enumerate(TROOPS)}

JOKER_MARK = "J"
"""The mark of Kwak, the joker, wherever a troop is shown by one character (the printed card's
badge, the aid sheet's tiles, the phone's board and buttons). "J" because the published rules
list it as "Joker - Kwak" (shared/seeds/toy-battle.de.txt, *Troop Descriptions*; TB-1 calls it
the joker too) and a 0 would read as the weakest troop, which Kwak is not (TB-11)."""


def troop_mark(troop: str) -> str:
    """The one-character mark of a troop type: :data:`JOKER_MARK` for Kwak, else its strength
    ("1".."7", TB-1).

    Raises:
        KeyError: not a troop type of :data:`TROOPS`.
    """
    strength = TROOP_INDEX[troop]
    return JOKER_MARK if strength == 0 else str(strength)


KWAK, SKULLY, CAPN, JUMBO, HOOK, XB42, STAR, ROXY = range(8)


COPIES = 3
"""TB-1: copies of each type per colour."""


TROOPS_PER_COLOUR = 24


REMOVED_AT_SETUP = 4
"""TB-3: troops removed unseen per colour."""


RACK_MAX = 8
"""TB-10: most troops on a rack."""


START_RACK = {"first": 3, "second": 4}
"""TB-3: troops on the rack at the start."""


SEAT_COLOUR: Mapping[str, str] = {"A": "blue", "B": "red"}
"""D7: seat -> colour."""


OTHER: Mapping[str, str] = {"A": "B", "B": "A"}


EFFECTS = (
    "draw",
    "place",
    "discard_adjacent",
    "discard_from_rack",
    "return_to_rack",
    "move_enemy",
    "take_from_discard",
    "block",
)
"""Codes of the pending effects (the phone translates them)."""


REASONS = ("hq_taken", "medal_objective", "most_medals", "tie_stuck_loses")
"""Codes of :attr:`games.toybattle.state.Ended.reason`."""


@dataclass(frozen=True, kw_only=True)
class Variant:
    """Variant flags for the open points (decisions D1..D6 in the module docstring)."""

    kwak_on_restricted: bool = False
    jungle_onto_hq: bool = False
    hook_ignores_metal_x: bool = False
    covered_troop_triggers_base: bool = False
    opponent_captures_at_once: bool = False
    captures_after_effects: bool = True


VARIANT_FLAGS = tuple(f.name for f in fields(Variant))


def variant_from_json(data: Any) -> Variant:
    """Parse ``{"flag": bool, ...}`` (missing flags keep their defaults).

    Raises:
        MalformedAction: not an object, an unknown flag, or a value that is not a boolean.
    """
    if data is None:
        return Variant()
    if not isinstance(data, dict):
        raise MalformedAction("variant must be an object of flags")
    for key, value in data.items():
        if key not in VARIANT_FLAGS:
            raise MalformedAction(
                f"variant flag must be one of {list(VARIANT_FLAGS)}, got {key!r:.40}"
            )
        if not isinstance(value, bool):
            raise MalformedAction(f"variant flag {key} must be true or false, got {value!r:.40}")
    return Variant(**data)


def variant_to_json(variant: Variant) -> dict[str, bool]:
    """Every flag with its value."""
    return {name: getattr(variant, name) for name in VARIANT_FLAGS}


Piece = tuple[str, int]
"""A troop on the board: (seat, type index)."""
