"""Transformers TCG: a pure rules engine for the companion (TF-3..TF-40).

Source: shared/rules/transformers.md (rule ids TF-n), completed from the German seed
shared/seeds/transformers-tcg.de.txt. No I/O, no dice rolled here (the starting player's die
comes in as a face). Modules, by concept:

* :mod:`.state`: what lies on the table (characters, teams, the turn, the attack);
* :mod:`.team`: team building (TF-3), setup (TF-5), deck files, example teams;
* :mod:`.attack`: the attack calculator (TF-20..TF-25), damage and KO (TF-30), TF-40;
* :mod:`.actions`: the actions and their JSON;
* :mod:`.rules`: who may take which action now, ``legal_actions``, ``apply``;
* :mod:`.codec`: JSON of the state; :mod:`.view`: what the phones see;
* :mod:`.cards`: the card schemas (characters, battle cards) and their faces;
* :mod:`.game`: the adapter registered in :mod:`games.registry` (``GAME``).

Decisions where the digest is unclear (cited as Dn in the code and the tests):

* D1 (TF-3, TF-5) The table opens with the variant flags only; each seat then brings its team
  (``team`` action: from a deck file or by quick entry), in either order. When the second
  team arrives the server rolls 1d2 for the starting player (1 = A, 2 = B, TF-5: "choose the
  first player"); characters start in alt mode, untapped.
* D2 (TF-3) Stars: the seed counts the characters' stars only; the variant flag
  ``count_battle_stars`` (official) adds the stars printed on battle cards times their copies.
  One copy per character by full name (name and alt subtitle, as the card sheets check). The
  deck limits (at least 40 battle cards, at most 3 copies) are checked whenever a team brings
  a deck list; a quick-entry team brings none, and the companion does not know its deck.
  Messages carry the numbers: "team has 27 stars, at most 25 (TF-3)".
  Seed: "Du kannst so viele Transformers Character Cards in deinem Team haben wie du willst,
  darfst aber das Limit von 25 Sternen nicht überschreiten!" (As many characters as you like,
  but not over the limit of 25 stars; it names the characters' stars only.)
* D3 (TF-10, TF-14, TF-26, TF-31) The companion follows the table, not the hands: the draw is
  a check mark, the played Action is shown until the end of the turn, and the deck, hand and
  scrap pile are not held; so TF-31 (reshuffle the scrap pile) is the players' job and flips
  are never limited by a count of cards left.
* D4 (TF-10) The turn's draw comes first: the plays, the attack and the end of the turn need
  it. Tapping by hand and damage counters do not.
* D5 (TF-11) The turn's plays (flip, Action, Upgrade) come before its first attack (the seed:
  "Im Zug folgt jetzt der Angriff"); after an attack only more attacks (TF-24) and the end.
  Seed: "Im Zug folgt jetzt der Angriff" (The turn's attack follows now.)
* D6 (TF-12) Turns are numbered for the table: turn 1 is the starting player's first turn
  (no Action, no Upgrade), turn 2 the other player's first (an Action or an Upgrade, not both).
  Seed: "Im ersten Zug eines Spiels kann der beginnende Spieler keine Action und Upgrade Cards
  spielen. Im zweiten Zug kann der andere Spieler nur eine Kartenart spielen" (In the first turn
  the starting player plays no Action and no Upgrade; in the second turn the other player plays
  one kind of card only.)
* D7 Tapping by hand: the player to act may tap or untap any character in play outside an
  attack (the seed: "some cards tap or untap characters"). With ``untap_all`` off it is the
  only way a character untaps.
  Seed: "Einige Karten können Charaktere tappen oder enttappen." (Some cards can tap or untap
  characters.)
* D8 (TF-25, flag ``untap_all``, official, the default) Once every character in play on both
  sides is tapped, all untap: checked after every attack (after TF-24) and after every tap by
  hand.
  The seed names no untap step (its only sentence: "Greif solange an bis alle deine Character
  Cards getappt sind.", attack until all your characters are tapped); the official rule TF-25
  untaps all, and without it no game can end: the default. Flag ``untap_all`` off: the former
  default (nothing untaps but by hand).
* D9 (TF-20, flag ``must_attack``, the default; official too) "You must attack if you can":
  the end of the turn is refused while an attack can be started, chained attacks of TF-24
  included. Flag off (the former default): attacking is optional.
  Seed: "Im Zug folgt jetzt der Angriff" (the turn's attack follows now: the turn has one,
  it does not say "may"), "Wähle eine deiner ungetappten Character Cards als Angreifer" (choose
  one of your untapped characters as the attacker) and "Greif solange an bis alle deine
  Character Cards getappt sind" (attack until all your characters are tapped). Its "kannst du
  mit einer deiner anderen ungetappten Character Cards angreifen" says when a further attack is
  possible, not that it is optional.
  Stored tables: every setup event and state has carried ``must_attack`` since the engine's
  first commit (the setup event writes every flag), so the new default reaches new tables
  only; a table logged with ``"must_attack": false`` replays as it was played.
* D10 (TF-20) The attack action may say ``any_defender``: a card (such as the demo's Quickstep)
  lets the attacker choose an untapped defender although a tapped enemy exists.
  Seed: "Wähle eine gegnerische getappte Character Card als Verteidiger. Sollten keine Character
  Card deines Gegners getappt sein, kannst du eine beliebige Character Card angreifen." (Choose
  a tapped enemy character as defender; if none is tapped, you may attack any.)
* D11 (TF-21, TF-2) Each side enters the icons of its 2 flipped cards as counts per colour, at
  most 4 (2 cards of 0..2 icons). A white icon in the first flip opens a second flip of 2
  cards, entered even when the player declines it (the seed says "darf": then zeros); a white
  icon in the second flip gives nothing (once per attack). Black and green are recorded and
  have no effect in these rules. ``legal_actions`` lists orange, blue and white counts only.
  Seed: "Wenn ein Spieler dabei ein weißes Kampfsymbol aufdeckt, darf er 2 weitere Battle Cards
  aufdecken. Dieser Bonus wird nur einmal pro Angriff gegeben!" (A player who turns up a white
  icon may turn up 2 more battle cards; once per attack.)
* D12 (TF-22) Card effects (upgrades' "+1 Attack", actions) are entered as signed bonuses per
  side, -20..20 and not 0, at most 20 per side, with an optional source; the engine does not
  read card text.
* D13 (TF-22, TF-23) Totals use the characters' current modes; damage is the attack total
  minus the defense total when higher, else 0; a total may be negative through bonuses.
  Seed: "Wenn der Wert des Angreifers höher ist als der des Verteidigers, füge dem Verteidiger
  die Differenz als Schaden zu." (If the attacker's value is higher than the defender's, the
  defender takes the difference as damage.)
* D14 (TF-30) Damage counters are actions of either seat, at any time once the teams are in
  (damage from card effects, corrections): +n or -n, n 1..30; the phone sends +1/-1. Fewer
  than zero counters are refused (TF-30).
* D15 (TF-30, TF-13) At Health the character is KO'd: it moves to the KO area without counters,
  untapped, its upgrades scrapped. A KO by counters of a character fighting in the running
  attack ends that attack without damage (then TF-24 as after any attack).
  Seed: "Wenn die Zahl der Schadensmarken auf einer Karte gleich oder höher ihrer Trefferpunkte
  ist, gilt sie als besiegt (KO’d)." (At counters equal to or above its Health a character is
  KO'd.)
* D16 (TF-24) After an attack: the opponent has an untapped character -> the attacks are over
  (phase ``end``); all of theirs tapped -> another attack with an untapped character of yours
  (phase ``main``; optional unless ``must_attack``), or ``end`` when all of yours are tapped.
  Seed: "Wenn nach deinem Angriff dein Gegner nur noch ungetappte Charaktere hat, ist dein Zug
  vorbei." (If after your attack the opponent has only untapped characters, your turn is over.)
  and "Wenn die Character Cards deines Gegners alle getappt sind, kannst du mit einer deiner
  anderen ungetappten Character Cards angreifen." (If all the opponent's characters are tapped,
  you can attack with another untapped one.)
* D17 (TF-13) An Upgrade names a deck list card (its slot comes from the card) or, for a
  quick-entry team, a slot with an optional name; the upgrade already in that slot is scrapped.
* D18 (TF-11) An Action names a deck list card, a name typed in, or nothing.
* D19 (TF-21) During an attack the attacking seat may enter icons and bonuses for both sides,
  the defending seat for the defender's side only (it holds the defender's deck).
* D20 Character ids are ``A1``, ``A2``, ... ``B1``, ... (letters and digits, the ``#piece=``
  of a card link); :meth:`game.TransformersGame.pieces_of_card` lists A's before B's.
* D21 (TF-40) The game ends the moment a team's last character is KO'd, mid-turn or
  mid-attack; the other seat wins. The outcome's score counts the KO'd enemies per seat.
  Seed: "Wenn alle Character Cards deines Gegners besiegt sind (knocked out = KO), hast du das
  Spiel gewonnen!" (When all the opponent's characters are KO'd, you have won.)
* D22 A tap to the state the character is in already, or any change to a KO'd character, is
  refused (nothing to do); the platform's undo takes back a mistaken action.
* D23 (TF-21, TF-2) A flip's icons may also be entered card by card (``card_icons``, 0..2 icons
  of one card: the phone's icon buttons); each card counts in the totals as soon as it is
  entered, so both phones see them grow, and the second card completes the flip (a white
  icon on either card brings the 2 extra cards). A whole flip typed at once (``icons``) is
  refused while its first card is entered; undo takes back a mis-tapped card.
"""
