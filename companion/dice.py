"""Dice for the companion: rolled on the server with a cryptographic random source.

Every roll is logged as a ``"roll"`` event (who, purpose, faces) and is an undo barrier
(ARCHITECTURE.md, *Companion*). Rules engines never roll: they take faces as input.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

MAX_DICE = 100
MAX_SIDES = 1000
MAX_PURPOSE = 80
STATS_MAX_SIDES = 100
"""Rolls with more sides (e.g. the layout dice) are listed but left out of the statistics."""


class RollError(ValueError):
    """A roll request is out of range; the message names the field, the range and the value."""


@dataclass(frozen=True, kw_only=True)
class RollRequest:
    """Roll ``count`` dice of ``sides`` sides for a stated ``purpose``.

    Attributes:
        count: 1..100 dice.
        sides: 2..1000 sides each.
        purpose: why (shown in the history), 1..80 characters.

    Raises:
        RollError: a field out of range.
    """

    count: int
    sides: int
    purpose: str

    def __post_init__(self) -> None:
        for name, high in (("count", MAX_DICE), ("sides", MAX_SIDES)):
            value = getattr(self, name)
            low = 1 if name == "count" else 2
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                shown = repr(value)[:60]
                raise RollError(f"{name} must be an integer in {low}..{high}, got {shown}")
        if not isinstance(self.purpose, str) or not 1 <= len(self.purpose.strip()) <= MAX_PURPOSE:
            shown = repr(self.purpose)
            shown = shown if len(shown) <= 60 else shown[:59] + "\u2026"
            raise RollError(f"purpose must be 1..{MAX_PURPOSE} characters, got {shown}")


class DiceService:
    """Rolls dice with ``secrets.SystemRandom`` (or an injected generator in tests).

    Args:
        rng: a ``random.Random``-like generator; default ``secrets.SystemRandom()``.
    """

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else secrets.SystemRandom()

    def roll(self, count: int, sides: int) -> list[int]:
        """``count`` faces, each uniform in 1..sides."""
        return [self.rng.randint(1, sides) for _ in range(count)]


def chi_square(observed: Mapping[int, int], sides: int) -> float:
    """Pearson's chi-square statistic of face counts against a fair die (sides - 1 dof)."""
    total = sum(observed.values())
    if total == 0:
        return 0.0
    expected = total / sides
    return sum((observed.get(face, 0) - expected) ** 2 / expected for face in range(1, sides + 1))


def frequencies(rolls: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Observed versus expected face counts per die size, with the chi-square statistic.

    Args:
        rolls: roll payloads with ``sides`` and ``faces``.

    Returns:
        One dict per die size (ascending): ``sides``, ``dice`` (faces counted), ``expected``
        (per face), ``observed`` (list, face 1 first) and ``chi_square``.
    """
    counts: dict[int, dict[int, int]] = {}
    for roll in rolls:
        if roll["sides"] > STATS_MAX_SIDES:
            continue
        per_face = counts.setdefault(roll["sides"], {})
        for face in roll["faces"]:
            per_face[face] = per_face.get(face, 0) + 1
    return [
        {
            "sides": sides,
            "dice": sum(per_face.values()),
            "expected": sum(per_face.values()) / sides,
            "observed": [per_face.get(face, 0) for face in range(1, sides + 1)],
            "chi_square": chi_square(per_face, sides),
        }
        for sides, per_face in sorted(counts.items())
    ]
