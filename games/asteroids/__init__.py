"""Asteroids: a self-designed, 3D-printed two-player board game (rules: shared/rules/asteroids.md)."""

from games.asteroids.spec import ASTEROIDS, AsteroidsSpec, FragmentKind, Variant

__all__ = ["ASTEROIDS", "AsteroidsSpec", "FragmentKind", "Variant"]
