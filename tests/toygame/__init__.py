"""Countdown, a toy fifth game kept in tests/: the test that a game is added by its own folder
and its view only (``tests/test_fifth_game.py``, docs/contributing.md "Adding a game").

Rules (rule ids ``CD-n``): a pile of counters starts at 21, or as many as the table agrees, up
to 300 (``CD-1``); the seats take turns
(``CD-2``, the first one chosen or rolled on a six-sided die: 1-3 A, 4-6 B) and take 1, 2 or 3
counters, at most what is left (``CD-3``); whoever takes the last counter wins (``CD-4``).
The cards are number cards 1..3 to play the takes with (a demo deck, ``demo:countdown``).
"""

from games.entry import GameEntry
from tests.toygame.cards import CARDS

ENTRY = GameEntry(
    package="tests.toygame", slug="countdown", title="Countdown", cards=CARDS, view="view"
)
"""Countdown's registry entry: its package, its cards and its own phone view folder; added
with :func:`games.registry.register` (the game is not one of this repository's)."""
