"""The Asteroids component spec: what is in the box, as pure data.

Used by ``cad`` (how many of which piece to print) and by the companion (the digital twin of
the board). Counts and the grid come from the rules digest, section *Components*
(shared/rules/asteroids.md, AST-1, AST-2, AST-3); the variant flags from its section
*Variant flags*.

Board frame used everywhere: rifts are numbered 1..6 from player A's home base to player B's;
places along a rift are numbered 1..8 from the left end to the right end. A fragment covers two
neighbouring places of one rift.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


class SpecError(ValueError):
    """A component spec or variant value is out of range; the message names field and value."""


class FragmentKind(enum.StrEnum):
    """The two kinds of subspace fragment (a 1x2 tile).

    ``HH``: two holes (both places take ships). ``HA``: a hole and an asteroid (may be
    inserted either way round). Source: rules digest, *Components*.
    """

    HH = "HH"
    HA = "HA"

    @property
    def places(self) -> tuple[str, str]:
        """The two places of the fragment in its nominal orientation: ``"H"`` hole, ``"A"`` asteroid."""
        return (self.value[0], self.value[1])


@dataclass(frozen=True, kw_only=True)
class Variant:
    """Variant flags of the rules engine; the defaults are the rules digest's defaults.

    Attributes:
        jump_mandatory: AST-15. False (default): a ship leaving a stack may make a plain step
            instead of its jump.
        stack_on_enemy: AST-12. True (default): ships may stack on ships of either colour.
        immediate_repush: AST-23. True (default): the fragment that just fell out may be pushed
            straight back in.
        ships_in_play: AST-1. 8 (default) or 7 ships per player.
        scored_ships_mobile: AST-18. False (default): ships in the opposing base stay there.

    Raises:
        SpecError: ``ships_in_play`` not 7 or 8.
    """

    jump_mandatory: bool = False
    stack_on_enemy: bool = True
    immediate_repush: bool = True
    ships_in_play: int = 8
    scored_ships_mobile: bool = False

    def __post_init__(self) -> None:
        if self.ships_in_play not in (7, 8):
            raise SpecError(f"ships_in_play must be 7 or 8, got {self.ships_in_play!r}")


@dataclass(frozen=True, kw_only=True)
class AsteroidsSpec:
    """What an Asteroids set contains and how the board is laid out.

    Attributes:
        rifts: number of rifts (rows of the grid), 6.
        fragments_per_rift: fragments standing in one rift, 4 (AST-2).
        places_per_fragment: places on one fragment, 2.
        fragment_counts: how many fragments of each kind the set has (14 HH + 14 HA).
        min_hh_per_rift_at_setup: AST-3, 1.
        ships_per_colour: ships printed per colour, 9 (8 in play + 1 spare).
        colours: the two fleets, player A first (A's base touches rift 1).
        max_stack: AST-12, 3.
        ships_to_win: AST-30, 5.
        base_sockets: ship places printed in each home base (2 rows x 8); room for 8 own ships
            and up to 5 arriving enemy ships (rules digest, *A starting geometry*).

    Raises:
        SpecError: any count is not positive, or the fragments do not fill the rifts and leave
            a supply.
    """

    rifts: int = 6
    fragments_per_rift: int = 4
    places_per_fragment: int = 2
    fragment_counts: Mapping[FragmentKind, int] = field(
        default_factory=lambda: MappingProxyType({FragmentKind.HH: 14, FragmentKind.HA: 14})
    )
    min_hh_per_rift_at_setup: int = 1
    ships_per_colour: int = 9
    colours: tuple[str, str] = ("A", "B")
    max_stack: int = 3
    ships_to_win: int = 5
    base_socket_rows: int = 2

    def __post_init__(self) -> None:
        for name in (
            "rifts",
            "fragments_per_rift",
            "places_per_fragment",
            "ships_per_colour",
            "max_stack",
            "ships_to_win",
            "base_socket_rows",
        ):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise SpecError(f"{name} must be a positive integer, got {value!r}")
        if self.fragments_in_rifts >= self.fragment_total:
            raise SpecError(
                f"fragment_counts total {self.fragment_total} must exceed the "
                f"{self.fragments_in_rifts} fragments standing in the rifts (a supply is needed)"
            )
        if (
            self.fragment_counts.get(FragmentKind.HH, 0)
            < self.rifts * self.min_hh_per_rift_at_setup
        ):
            raise SpecError(
                f"fragment_counts[HH] must be at least {self.rifts * self.min_hh_per_rift_at_setup} "
                f"(AST-3), got {self.fragment_counts.get(FragmentKind.HH, 0)}"
            )

    @property
    def places_per_rift(self) -> int:
        """Places along one rift (8)."""
        return self.fragments_per_rift * self.places_per_fragment

    @property
    def fragment_total(self) -> int:
        """All fragments in the set (28)."""
        return sum(self.fragment_counts.values())

    @property
    def fragments_in_rifts(self) -> int:
        """Fragments standing in the rifts at any time (24, AST-2)."""
        return self.rifts * self.fragments_per_rift

    @property
    def supply_size(self) -> int:
        """Fragments in the supply (4, AST-2)."""
        return self.fragment_total - self.fragments_in_rifts

    @property
    def base_sockets(self) -> int:
        """Ship places printed in one home base (16)."""
        return self.base_socket_rows * self.places_per_rift

    @property
    def ships_total(self) -> int:
        """Ships printed in both colours (18)."""
        return self.ships_per_colour * len(self.colours)


ASTEROIDS = AsteroidsSpec()
"""The default Asteroids set (rules digest, *Components*)."""
