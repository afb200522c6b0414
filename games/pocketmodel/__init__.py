"""PocketModel TCG: a pure rules engine for PM-5..PM-40 (shared/rules/pocketmodel.md, seed
shared/seeds/pocketmodel-tcg.de.txt) behind the game protocol.

Modules: :mod:`.state` (the table and its JSON, which the phone view reads),
:mod:`.actions` (actions and their JSON), :mod:`.fleet` (PM-5, PM-7, PM-8; decks to fleets),
:mod:`.combat` (totals, hits, damage, destruction), :mod:`.rules` (turn structure, legality,
apply), :mod:`.cards` (the card schemas and faces), :mod:`.game` (the adapter, ``GAME``).

The companion follows the table, not the hands (ARCHITECTURE.md): no draw pile, hand or discard
pile is kept; a card played is picked from the deck list the player brought.

Decisions where the digest is unclear (numbered; variant flags where the choice matters):

* D1 (PM-11): units of one move may start in different zones; each must be adjacent to the
  target zone (so home A and home B units may move to the contested zone together).
  Seed: "Bewegungsaktion: Wähle Einheiten im Wert von bis zu fünf Sternen aus und bewege sie in
  eine benachbarte Zone." (Move action: choose units worth up to five stars and move them into
  an adjacent zone; it names no common start zone.)
* D2 (PM-24): destroyed when counters >= Shields (seed, default); flag
  ``destroy_above_shields``: when counters > Shields (official sheet). A destroyed unit goes
  to the reserve with its counters removed and ``destroyed`` set; it counts as a reserve unit
  again for the carrier power (PM-14) and reinforcements (PM-32), as the seed says
  ("werden sie zu Reserve-Einheiten").
  Seed: "Ist die Anzahl der Schadensmarken größert/gleich dem Schildwert, ist die Einheit
  zerstört und wird zur Reserve gestellt" (if the damage counters are greater than or equal to
  the Shields, the unit is destroyed and goes to the reserve).
* D3 (PM-25): a played combat card's bonus always counts; only its special ability needs the
  unit to carry the card's green and silver icons (gold icons gate nothing). The engine does
  not read abilities (D10): the players type them as modifiers, and the play lists the icons
  the unit lacks. Flag ``icon_gates_bonus`` (the former default): the bonus counts only when
  the unit carries every green and silver icon of the card. A bonus typed by hand always
  counts.
  Seed: "Wenn du eine Kampfkarte ausspielst, erhält deine Einheit für dieses Gefecht den
  Kampfbonus, den diese Karte bietet." (When you play a combat card, your unit gets the card's
  combat bonus for this battle.) and "Kampfkarten gewähren dir meistens eine Spezialfähigkeit,
  die du nur nur erhältst, wenn du die Bedingungen erfüllst, die der Symboltyp stellt." (Combat
  cards mostly grant a special ability you get only if you meet the conditions of the icon
  type.)
* D4 (PM-12, PM-13): battles and strikes are fought in the order chosen; a pair whose unit has
  left play (destroyed earlier) is skipped, and so is a striker no longer in the enemy home.
  A defender may be attacked by several attackers; each attacker attacks one unit. The
  strikers all attack the one objective of the strike (D15), one roll each.
  Seed: "wiederholen die Schritte ein bis sieben Mal für jedes Gefecht, das in diesem Zug
  angekündigt wurde" (repeat steps one to seven for each battle announced this turn).
* D5 (PM-23): damage counters may be put on or taken off any unit in play by either seat at
  any time after the fleets are in (the table's counters, logged and undoable), except on the
  units fighting right now; a counter below zero is refused; a counter that reaches the
  PM-24 threshold destroys the unit like battle damage.
  The seed has no sentence on correcting counters (a table correction): "Wird eine Einheit
  getroffen, werden so viele Schadensmarken auf die Einheit gelegt, wie sie dem Schadenswert der
  Einheit die getroffen hat entsprechen." (A hit unit gets as many damage counters as the
  hitting unit's Damage.)
* D6 (PM-24): destruction is checked when counters are added (a unit with 0 Shields and no
  counters stays in play).
  Seed: as D2 ("Ist die Anzahl der Schadensmarken größert/gleich dem Schildwert, ist die Einheit
  zerstört": destruction is judged on the counters).
* D7 (PM-40): checked after every action; when both players lose at once (their last units
  destroyed in one battle: the hits land together, "Beide Spieler Prüfen gleichzeitig") the
  game is a draw: the sentence makes each of them a loser and nobody a winner. Flag
  ``double_loss_active_wins``: the active player (who attacked) wins.
  Seed: "Hat ein Spieler keine Einheiten mehr im Spiel, so hat er verloren." (A player with no
  units left in play has lost; the seed names no case of both at once.)
* D8 (protocol): fleets may be brought by either seat in any order (``to_act`` names the
  first seat still without one); the second fleet rolls the first player (PM-9).
  ``legal_actions`` lists the standard fleet, card plays and reveals from the deck list, and
  at most ``LIST_CAP`` unit subsets per kind; typed bonuses, modifiers and other fleets are
  legal but not listed.
* D9 (PM-30): the defender names the objective turned face up: a card of their deck list, or
  its printed defense and stars (a fleet entered by hand has no deck list). The revealed
  objective stays face up if it survives.
* D10 (PM-21, PM-25, PM-30, PM-31): card texts and objective abilities are not modelled; the
  players type their effect as modifiers (Attack, Damage, Defense, -9..+9) before the roll.
* D11 (PM-26): refilling hands is the players' own business (hands are not tracked).
* D12 (PM-8): a fleet deploys 1..20 stars; from a deck file, units are deployed in file order
  while the deployed stars stay within 20, the rest go to the reserve.
* D13 (PM-32): reinforcements are chosen by the defender (any units of their reserve worth up
  to the destroyed card's stars, possibly none); the step is skipped when nothing fits.
  Seed: "Ist das zerstörte Ziel nicht das letzte, so werden Einheiten aus der Reserve, die dem
  Sternwert des Ziels entsprechen, in die Heimatzone gestellt." (If the destroyed objective is
  not the last, reserve units matching its star value are put into the home zone.)
* D14 (turn): a turn is an optional objective (PM-10, before the action), at most one action
  (PM-11..14), then ``end_turn`` (also without an action: passing it); the active player rolls
  and confirms every fight.
  Seed: "Während seines Zuges darf ein Spieler zwei Dinge tun: 1. Ein Ziel ausspielen. 2. Eine
  dieser drei Aktionen durchführen" (During their turn a player may do two things: 1. play an
  objective; 2. take one of these three actions): both are optional, so a turn may end without
  an action (flag ``action_required``: the former default, exactly one action).
* D15 (PM-13, PM-30): a strike attacks ONE objective: the attacker picks it once, then each
  striker rolls against it in turn (it is face up after the first reveal) until it is
  destroyed; then the strike ends (after the reinforcements, PM-32). Flag
  ``each_striker_picks_objective`` (the former default): every striker picks its own target,
  so one strike may destroy several objectives.
  Seed: "Zielschlagaktion: Greife eines der Ziele des Gegners an." (Strike action: attack one
  of the opponent's objectives.) and "Der angreifende Spieler ... wählt das Ziel aus, das er
  angreifen will." (The attacking player chooses the objective they want to attack.)
* D16 (PM-14): the Carrier power is used instead of the turn: not in a turn in which an
  objective was played (nor an objective after it: the action ends the turn's plays). Flag
  ``carrier_replaces_action`` (the former default): instead of the action only, so an
  objective may be played first.
  Seed: "Bei TTräger darfst du anstatt des Zuges bis zu zwei Sterne an Einheiten aus der
  Reserve in die Zone deiner Einheit stellen." (With Carrier you may, instead of the turn, put
  up to two stars of reserve units into your unit's zone.)

Stored tables: a setup event or state written before D15's and D16's flags existed lacks them
and reads them as the former readings (:data:`games.pocketmodel.state.FORMER_READINGS`), so it
replays as it was played; a new table writes every flag.
"""
