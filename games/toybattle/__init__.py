"""Toy Battle: the rules engine (TB-1..TB-41 of shared/rules/toy-battle.md) for the companion.

Modules: :mod:`.rules` (troops, counts, variant flags, the decisions D1..), :mod:`.state` (the
table and its JSON), :mod:`.actions` (actions and their JSON), :mod:`.terrains` (the eight
terrains as checked data), :mod:`.placement` (TB-11/TB-12/TB-31 legality), :mod:`.effects`
(TB-13..TB-37: effects in order, region capture, the end of the game), :mod:`.cards` (the troop
card schema and faces) and :mod:`.game` (the adapter on :class:`games.protocol.Game`).
"""
