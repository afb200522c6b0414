"""Plane geometry of a sheet: rectangles in the page frame (origin bottom-left, y up, mm)."""

from __future__ import annotations

from dataclasses import dataclass

EPSILON = 1e-6
"""Tolerance in mm for "fits exactly" (a grid that fits exactly keeps its column)."""


@dataclass(frozen=True, kw_only=True)
class Rect:
    """An axis-aligned rectangle in the page frame, mm (x, y = bottom-left corner)."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        """x of the right edge, mm."""
        return self.x + self.width

    @property
    def top(self) -> float:
        """y of the top edge, mm."""
        return self.y + self.height

    def inset(self, amount: float) -> Rect:
        """The rectangle shrunk by ``amount`` mm on every side (negative grows it)."""
        return Rect(
            x=self.x + amount,
            y=self.y + amount,
            width=self.width - 2 * amount,
            height=self.height - 2 * amount,
        )

    def overlaps(self, other: Rect) -> bool:
        """True if the interiors intersect (touching edges do not count)."""
        return (
            self.x < other.right - EPSILON
            and other.x < self.right - EPSILON
            and self.y < other.top - EPSILON
            and other.y < self.top - EPSILON
        )

    def contains_point(self, x: float, y: float) -> bool:
        """True if (x, y) lies strictly inside."""
        return self.x + EPSILON < x < self.right - EPSILON and (
            self.y + EPSILON < y < self.top - EPSILON
        )
