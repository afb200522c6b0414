"""Every game plays to its end with its default setup (the original rules): 200 seeded games
per game under the policy of :mod:`tests.games.playouts` (random legal; greedy in Asteroids,
where random play never scores), capped at :data:`CAP` plies. No game reaches a stall, and
every PocketModel, Transformers and Toy Battle game reaches an outcome within the cap.

The detector is checked too: with the former Transformers default (``untap_all`` off: nothing
untaps) every game stalls once every character is tapped.
"""

from __future__ import annotations

import pytest

from tests.games.playouts import default_setups, playout

GAMES_PER_GAME = 200
CHUNKS = 4
CAP = {"asteroids": 600, "pocketmodel": 3000, "transformers": 3000, "toy-battle": 3000}
"""Most plies per game (the longest of the 200 default games: Asteroids 314, PocketModel 493,
Transformers 739, Toy Battle 86 plies)."""
MUST_END = ("pocketmodel", "transformers", "toy-battle")


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("name", ["asteroids", "pocketmodel", "transformers", "toy-battle"])
def test_default_games_play_to_an_outcome_without_a_stall(name: str, chunk: int) -> None:
    setups = default_setups(name)
    size = GAMES_PER_GAME // CHUNKS
    played = [
        playout(name, setups[seed % len(setups)], seed, CAP[name])
        for seed in range(chunk * size, (chunk + 1) * size)
    ]
    stalls = [(seed, p.stalled_at) for seed, p in enumerate(played) if p.stalled_at is not None]
    assert stalls == [], f"{name}: stalls (game, ply) {stalls}"
    if name in MUST_END:
        unfinished = [seed for seed, p in enumerate(played) if p.reason is None]
        assert unfinished == [], f"{name}: no outcome within {CAP[name]} plies: {unfinished}"
    assert all(p.plies > 0 for p in played)


def test_the_former_transformers_default_stalls_and_the_detector_sees_it() -> None:
    setup = {"type": "setup", "variant": {"untap_all": False}}
    played = [playout("transformers", setup, seed, CAP["transformers"]) for seed in range(10)]
    assert all(p.stalled_at is not None and p.reason is None for p in played), played
    # the same seeds with the default end
    ended = [
        playout("transformers", {"type": "setup"}, seed, CAP["transformers"]) for seed in range(10)
    ]
    assert all(p.reason is not None and p.stalled_at is None for p in ended), ended
