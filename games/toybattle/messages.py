"""The Toy Battle engine's refusal texts (message id -> English), which the phone shows
translated (the same ids in ``companion/views/toy-battle/view.html``, block
``refusal-strings``). Every refusal cites one rule id (:class:`games.protocol.Messages`).
Troop and terrain names are values, shown as printed.
"""

from __future__ import annotations

from games.protocol import Messages

MESSAGES = Messages(
    {
        "game_over": "the game is over",
        "not_your_turn": "it is %(player)s's turn",
        "effect_first": "first resolve or decline %(source)s's effect",
        "cannot_draw": "you cannot draw: the rack holds 8 or the reserve is empty",
        "can_still_draw": "you can still draw, so the game does not end",
        "no_effect": "no effect is waiting to be resolved or declined",
        "not_a_choice": "that is not a choice for %(source)s's effect now",
        "not_on_terrain": "node %(node)s is not on %(terrain)s",
        "own_hq": "%(troop)s cannot go on your own H.Q.",
        "restricted": "only strengths %(allowed)s may go on node %(node)s",
        "hq_not_connected": "the enemy H.Q. %(node)s is not connected to your H.Q.",
        "not_stronger": "%(troop)s (%(strength)s) is not stronger than the enemy %(enemy)s "
        "(%(enemy_strength)s) on node %(node)s",
        "metal_x_hook": "on a Metal-X base Hook needs the connection to your H.Q.",
        "not_connected": "node %(node)s is not connected to your H.Q. by your troops",
        "rack_blocked": "every troop on your rack is blocked this turn",
        "rack_empty": "your rack is empty",
        "all_copies_known": "all %(copies)s of your %(troop)s are on the board or discarded",
    }
)
"""Message id -> English template (``%(name)s`` fields)."""
