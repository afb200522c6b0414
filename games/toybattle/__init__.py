"""Toy Battle: the rules engine (TB-1..TB-41 of shared/rules/toy-battle.md) for the companion.

Modules: :mod:`terrains` (the eight terrains as checked data), :mod:`rules` (troops, variant
flags, state, actions, JSON), :mod:`placement` (TB-11/TB-12/TB-31 legality), :mod:`effects`
(TB-13..TB-37: effects in order, region capture, the end of the game) and :mod:`game` (the
adapter on :class:`games.protocol.Game`). The decisions D1.. are listed in :mod:`rules`.
"""
