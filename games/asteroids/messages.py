"""The Asteroids engine's refusal texts (message id -> English), which the phone shows
translated (the same ids in ``companion/views/asteroids/view.html``, block
``refusal-strings``). Every refusal cites one rule id (:class:`games.protocol.Messages`).
"""

from __future__ import annotations

from games.protocol import Messages

MESSAGES = Messages(
    {
        "game_over": "the game is over, %(winner)s won",
        "not_your_turn": "it is %(player)s's turn",
        "must_push": "after two steps the turn must push",
        "skip_not_allowed": "a step is possible, so it may not be skipped",
        "top_ship_only": "only the top ship of a stack moves, and only your own (%(player)s)",
        "scored_stay": "scored ships stay in the opposing base",
        "no_ship_here": "no ship of %(player)s can move from %(origin)s",
        "not_orthogonal": "%(origin)s -> %(target)s: a step moves one place orthogonally",
        "jump_length": "%(origin)s -> %(target)s: a ship leaving a stack as number %(height)s "
        "jumps exactly %(height)s places in a straight line",
        "jump_mandatory": "%(origin)s -> %(target)s: this table plays jump_mandatory, so a ship "
        "leaving a stack jumps %(height)s places",
        "onto_asteroid": "%(origin)s -> %(target)s: a ship never ends on an asteroid",
        "stack_full": "%(origin)s -> %(target)s: a stack is at most 3 high",
        "own_stacks_only": "%(origin)s -> %(target)s: this table stacks on own ships only",
        "not_off_here": "%(origin)s -> off: a ship leaves the board only past the left or "
        "right end of a rift",
        "from_base": "%(origin)s -> %(target)s: out of a base a ship moves onto a place of "
        "the adjacent rift",
        "push_after_steps": "the push comes after two steps; now is %(phase)s",
        "not_in_supply": "fragment must be one of the supply %(supply)s, got %(fragment)s",
        "layout_of_kind": "a %(kind)s fragment lies as %(layouts)s, got %(layout)s",
        "push_this_rift": "the 2nd step ended in rift %(rift)s, so it must be pushed, got rift "
        "%(got)s",
        "no_straight_back": "the fragment that just fell out may not be pushed straight back",
        "rift_count": "rifts must hold %(rifts)s rifts, got %(got)s",
        "rift_size": "rift %(rift)s must hold %(size)s fragments, got %(got)s",
        "rift_needs_hh": "rift %(rift)s must contain an HH fragment, got %(got)s",
        "supply_size": "supply must hold %(size)s fragments, got %(got)s",
        "fragment_count": "the set has %(count)s %(kind)s fragments, the layout uses %(got)s",
    }
)
"""Message id -> English template (``%(name)s`` fields)."""
