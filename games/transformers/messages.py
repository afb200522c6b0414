"""The Transformers engine's refusal texts (message id -> English), which the phone shows
translated (the same ids in ``companion/views/transformers/view.html``, block
``refusal-strings``). Every refusal cites one rule id (:class:`games.protocol.Messages`).
Character labels, card names and sides (``attacker``/``defender``) are values.
"""

from __future__ import annotations

from games.protocol import Messages

MESSAGES = Messages(
    {
        "game_over": "the game is over: a team is all KO'd",
        "own_team": "%(seat)s brings its own team, not %(other)s's",
        "teams_first": "both players bring their teams first",
        "defender_side_only": "%(seat)s enters the defender's side only; the attacker's side "
        "is %(player)s's",
        "not_your_turn": "it is %(player)s's turn",
        "finish_attack": "finish the attack first: enter the flips and apply it",
        "drawn_already": "the turn's card is drawn already: 1 card per turn",
        "draw_at_start": "the card is drawn at the start of the turn",
        "draw_first": "draw the turn's card first",
        "plays_before_attack": "the turn's plays come before its attack",
        "not_yours": "%(character)s is not yours",
        "one_flip": "one flip per turn, and %(character)s flipped already",
        "tap_outside_attack": "tap and untap during the turn, not in an attack",
        "tapped_already": "%(character)s is tapped already",
        "untapped_already": "%(character)s is untapped already",
        "first_turn_no_plays": "the starting player plays no Action and no Upgrade in the "
        "first turn",
        "action_played": "an Action is played already this turn: one per turn",
        "upgrade_played": "an Upgrade is played already this turn: one per turn",
        "second_turn_one_play": "in the second turn an Action or an Upgrade, not both",
        "no_deck_card": "no %(kind)s card '%(card)s' in your deck list: %(listed)s",
        "wrong_card_type": "'%(card)s' is an %(type)s, not an %(kind)s",
        "must_attack": "you must attack if you can: the turn's attack follows now",
        "no_attack": "no attack is running; start one first",
        "no_more_attacks": "no more attacks this turn: the opponent still has an untapped "
        "character",
        "attack_in_main": "an attack starts in the turn's main phase",
        "attack_with_own": "%(character)s is not yours: attack with your own",
        "attacker_tapped": "%(character)s is tapped: attack with an untapped one",
        "defend_with_enemy": "%(character)s is yours: defend with an enemy",
        "defender_tapped_first": "%(character)s is untapped; the defender must be a tapped "
        "enemy: %(allowed)s",
        "flips_entered": "the %(side)s's flips are all entered: 2 cards, and 2 more only after "
        "a white icon, once per attack",
        "first_card_entered": "the %(side)s's first card of this flip is entered already: "
        "enter the second card (or undo the first)",
        "card_icons": "%(icons)s icons on one battle card; a battle card shows 0..%(most)s",
        "too_many_icons": "%(icons)s icons on 2 flipped cards; a battle card shows 0..2, so at "
        "most %(most)s",
        "bonuses_full": "the %(side)s has %(most)s bonuses already, at most",
        "first_flips_missing": "the %(side)s's first 2 cards are not entered yet",
        "extra_flips_missing": "the %(side)s's 2 extra cards are not entered yet",
        "counters_below_zero": "%(character)s has %(damage)s damage counters; cannot remove "
        "%(remove)s",
        "teams_in": "both teams are on the table already",
        "team_brought": "%(seat)s has brought a team already; undo it to change it",
        "not_in_play": "character '%(character)s' is not in play; in play: %(known)s",
        "knocked_out": "%(character)s is KO'd, not in play",
        "team_empty": "team has no character, at least 1",
        "team_stars_cards": "team has %(stars)s stars (%(on_characters)s on characters, "
        "%(on_cards)s on battle cards), at most %(most)s",
        "team_stars": "team has %(stars)s stars, at most %(most)s",
        "character_copies": "team has %(copies)s copies of character '%(name)s', at most 1",
        "deck_size": "deck has %(size)s battle cards, at least %(least)s",
        "deck_copies": "deck has %(copies)s copies of '%(name)s', at most %(most)s",
    }
)
"""Message id -> English template (``%(name)s`` fields)."""
