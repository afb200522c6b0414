"""Print settings: scale, X-Y compensation, layer height, printer bed, colours.

All lengths in mm. Sources: the designer's print notes P1-P3 (shared/rules/asteroids.md) and the
bed sizes in shared/design/PRINT-FORMATS.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from types import MappingProxyType
from typing import Any, cast

from cad.slicers import DEFAULT_SLICER, SLICERS, Slicer


class OptionError(ValueError):
    """A value given for a command-line option cannot be used.

    The message starts with the option, then says what is allowed and what was found.

    Attributes:
        option: the command-line option the value came from (e.g. ``--scale``).
    """

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option


class SettingsError(OptionError):
    """A print setting is out of range."""


@dataclass(frozen=True, kw_only=True)
class Bed:
    """A printer's usable build volume.

    Attributes:
        name: preset name or ``custom``.
        x: bed width in mm (the printer's X axis).
        y: bed depth in mm.
        z: maximum print height in mm.
        label: the printers the preset stands for, for humans.
        keep_out: areas of the bed no part may cover, as (x0, y0, x1, y1) in mm in the bed
            frame (origin at the front-left corner, x to the right, y to the back): the
            printer profile's ``bed_exclude_area`` (:func:`cad.plates.arrange` keeps every
            part, with its spacing, off them).

    Raises:
        SettingsError: a dimension outside 50..1000 mm (option ``--bed``).
    """

    name: str
    x: float
    y: float
    z: float
    label: str = ""
    keep_out: tuple[tuple[float, float, float, float], ...] = ()

    def __post_init__(self) -> None:
        for axis in ("x", "y", "z"):
            value = getattr(self, axis)
            if not 50 <= value <= 1000:
                raise SettingsError("--bed", f"bed {axis} must be 50..1000 mm, got {value:g} mm")


X1_CORNER = (0.0, 0.0, 18.0, 28.0)
"""The excluded front-left corner of the Bambu X1 and P1 beds, (x0, y0, x1, y1) in mm
(``bed_exclude_area`` ``0x0, 18x0, 18x28, 0x28``: the purge chute's corner)."""

BED_PRESETS: Mapping[str, Bed] = MappingProxyType(
    {
        "mini": Bed(name="mini", x=180, y=180, z=180, label="Prusa MINI, Bambu A1 mini"),
        "mk4": Bed(name="mk4", x=250, y=210, z=220, label="Prusa MK3/MK4"),
        "ender3": Bed(name="ender3", x=220, y=220, z=250, label="Creality Ender-3"),
        "a1": Bed(name="a1", x=256, y=256, z=256, label="Bambu A1"),
        "x1": Bed(
            name="x1", x=256, y=256, z=250, label="Bambu X1 Carbon, X1", keep_out=(X1_CORNER,)
        ),
        "p1s": Bed(name="p1s", x=256, y=256, z=250, label="Bambu P1S, P1P", keep_out=(X1_CORNER,)),
    }
)
"""Printer bed presets (PRINT-FORMATS.md, *Numbers*).

The Bambu X1 and P1 beds are BambuStudio's machine profiles (``Bambu Lab X1 Carbon 0.4
nozzle.json``, ``Bambu Lab P1S 0.4 nozzle.json`` and their ``fdm_bbl_machine_common``):
``printable_area`` 256 x 256, ``printable_height`` 250, and ``bed_exclude_area`` the 18 x 28 mm
front-left corner (:data:`X1_CORNER`), which the plates keep clear. The ``a1`` preset is the
A1's ``Bambu Lab A1 0.4 nozzle.json``: 256 high, no excluded area.
"""

_BED_CUSTOM = re.compile(
    r"^\s*(\d+(?:\.\d+)?)\s*[xX]\s*(\d+(?:\.\d+)?)(?:\s*[xX]\s*(\d+(?:\.\d+)?))?\s*$"
)
_HEX_COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")

NAMED_COLOURS: Mapping[str, str] = MappingProxyType(
    {
        "white": "#F2F2F2",
        "black": "#1A1A1A",
        "grey": "#8C8C8C",
        "red": "#C0392B",
        "blue": "#2E64C8",
        "green": "#2E9B4E",
        "yellow": "#F2C230",
        "orange": "#E67E22",
        "purple": "#7D3C98",
    }
)
"""Filament colour names accepted wherever a colour is asked for (or ``#RRGGBB``)."""


def colour_name(colour: str) -> str:
    """The name of a ``#RRGGBB`` filament colour from ``NAMED_COLOURS``, else the code itself."""
    for name, code in NAMED_COLOURS.items():
        if code == colour:
            return name
    return colour


def parse_bed(text: str) -> Bed:
    """Parse a ``--printer`` value: a preset name or ``WxD`` / ``WxDxH`` in mm.

    Args:
        text: e.g. ``"mk4"`` or ``"235x235"`` or ``"235x235x250"`` (height defaults to 200 mm).

    Returns:
        The bed.

    Raises:
        SettingsError: unknown preset or malformed size; the message lists the presets.
    """
    key = text.strip().lower()
    if key in BED_PRESETS:
        return BED_PRESETS[key]
    match = _BED_CUSTOM.match(key)
    if not match:
        allowed = ", ".join(BED_PRESETS)
        raise SettingsError(
            "--printer",
            f"unknown printer {text!r}; allowed: {allowed}, or a bed size WxD or WxDxH in mm "
            f"(e.g. 235x235)",
        )
    x, y, z = (float(g) if g else 200.0 for g in match.groups())
    try:
        return Bed(name="custom", x=x, y=y, z=z, label=f"custom {x:g} x {y:g} x {z:g} mm")
    except SettingsError as exc:
        raise SettingsError("--printer", str(exc).split(": ", 1)[1]) from None


def parse_colour(text: str, option: str) -> str:
    """Normalise a filament colour to ``#RRGGBB`` (upper case).

    Args:
        text: a name from ``NAMED_COLOURS`` or ``#RRGGBB``.
        option: the option the value came from, for the error message.

    Raises:
        SettingsError: neither a known name nor ``#RRGGBB``.
    """
    key = text.strip().lower()
    if key in NAMED_COLOURS:
        return NAMED_COLOURS[key]
    if _HEX_COLOUR.match(text.strip()):
        return text.strip().upper()
    names = ", ".join(NAMED_COLOURS)
    raise SettingsError(option, f"unknown colour {text!r}; allowed: {names}, or #RRGGBB")


def parse_box(text: str) -> tuple[float, float, float]:
    """Parse ``XxYxZ`` (mm) for ``--box``: the storage box's inside size.

    Raises:
        SettingsError: not three numbers separated by ``x`` (names ``--box``).
    """
    try:
        x, y, z = (float(v) for v in text.lower().split("x"))
    except ValueError:
        raise SettingsError(
            "--box", f"must be XxYxZ in mm (e.g. 200x200x70), got {text!r}"
        ) from None
    return (x, y, z)


@dataclass(frozen=True, kw_only=True)
class PrintSettings:
    """Everything about *how* the kit is printed (the design itself lives in ``cad.design``).

    Attributes:
        scale: uniform factor applied to the nominal design (P2): 0.5..1.5; 0.8 fits the set
            in an empty 1 kg filament box.
        xy_compensation: per-side offset of every horizontal contour in mm, applied after
            scaling (P1): outer contours move by this value, holes by its negative. -0.5..0.0,
            default -0.1 (the designer's printer); ``cad.design`` also refuses a value that
            would thin a wall below its minimum. Bake it here OR in the slicer, never both.
        layer_height: mm, 0.08..0.32. Every piece height and engraving depth is a whole number
            of layers (P3).
        engraving_layers: depth of engraved symbols in layers, 1..3 (P3: the last layer is
            printed in the symbol colour, so one layer is enough).
        bed: the printer bed the plates are arranged for.
        colour_a, colour_b: the two fleets' ship colours (``#RRGGBB``).
        symbol_colour: the filament loaded for the last layer of fragments and ships (P3).
        board_colour: the colour of the board and the fragments.
        box: inner size (x, y, z) in mm of the storage box checked at any scale (P2).
        plate_spacing: mm between parts on a plate, 2..30.
        bed_border: mm kept free along every bed edge, 0..30, so that the slicer's skirt or a
            brim stays on the bed. The default 5 mm holds the 2 mm skirt the plates ask for
            (one line) or a brim up to 4 mm. Below 3.5 mm the plates ask for no skirt.
        slicer: the slicer the plates are projects for (``cad.slicers.SLICERS``), or None for
            the bed preset's default (``cad.slicers.DEFAULT_SLICER``); see ``slicer_name``.
        multi_material: print the symbol layer of fragments and ships as a part of its own on
            filament 2 (an AMS, MMU or tool changer; no filament change by hand).

    Raises:
        SettingsError: any value outside its range; the message names the option.
    """

    scale: float = 1.0
    xy_compensation: float = -0.1
    layer_height: float = 0.2
    engraving_layers: int = 1
    bed: Bed = field(default_factory=lambda: BED_PRESETS["a1"])
    colour_a: str = NAMED_COLOURS["blue"]
    colour_b: str = NAMED_COLOURS["red"]
    symbol_colour: str = NAMED_COLOURS["white"]
    board_colour: str = NAMED_COLOURS["grey"]
    box: tuple[float, float, float] = (200.0, 200.0, 70.0)
    plate_spacing: float = 6.0
    bed_border: float = 5.0
    slicer: str | None = None
    multi_material: bool = False

    def __post_init__(self) -> None:
        if self.slicer is not None and self.slicer not in SLICERS:
            raise SettingsError("--slicer", f"allowed: {', '.join(SLICERS)}, got {self.slicer!r}")
        _check_range("--scale", self.scale, 0.5, 1.5, "")
        _check_range("--xy-compensation", self.xy_compensation, -0.5, 0.0, " mm")
        _check_range("--layer-height", self.layer_height, 0.08, 0.32, " mm")
        if not isinstance(self.engraving_layers, int) or not 1 <= self.engraving_layers <= 3:
            raise SettingsError(
                "--engraving-layers", f"must be 1..3, got {self.engraving_layers!r}"
            )
        _check_range("--plate-spacing", self.plate_spacing, 2.0, 30.0, " mm")
        _check_range("--bed-border", self.bed_border, 0.0, 30.0, " mm")
        if len(self.box) != 3:
            raise SettingsError("--box", f"must be X Y Z in mm, got {self.box!r}")
        for value in self.box:
            _check_range("--box", value, 20.0, 1000.0, " mm")
        for option, colour in (
            ("--colour-a", self.colour_a),
            ("--colour-b", self.colour_b),
            ("--symbol-colour", self.symbol_colour),
            ("--board-colour", self.board_colour),
        ):
            if not _HEX_COLOUR.match(colour):
                raise SettingsError(option, f"must be #RRGGBB, got {colour!r}")
        if self.colour_a == self.colour_b:
            raise SettingsError(
                "--colour-b",
                f"must differ from --colour-a (the fleets must be told apart), "
                f"got {self.colour_b} for both",
            )
        for option, base in (
            ("--board-colour", self.board_colour),
            ("--colour-a", self.colour_a),
            ("--colour-b", self.colour_b),
        ):
            if base == self.symbol_colour:
                raise SettingsError(
                    "--symbol-colour",
                    f"must differ from {option} ({base}), or the engraved "
                    f"symbols do not show; got {self.symbol_colour}",
                )

    @property
    def slicer_name(self) -> Slicer:
        """The slicer the plates are written for: ``slicer`` or the bed's default."""
        if self.slicer is not None:
            return cast(Slicer, self.slicer)
        return DEFAULT_SLICER.get(self.bed.name, DEFAULT_SLICER["custom"])

    @property
    def engraving_depth(self) -> float:
        """Engraving depth in mm: whole layers, never scaled (P2, P3)."""
        return self.engraving_layers * self.layer_height

    def to_json(self) -> dict[str, Any]:
        """The settings as plain JSON data (used in the manifest and as the cache key)."""
        data = asdict(self)
        data["box"] = list(self.box)
        data["slicer"] = self.slicer_name
        if self.bed.keep_out:  # only where a bed has one: other beds' manifests as before
            data["bed"]["keep_out"] = [list(area) for area in self.bed.keep_out]
        else:
            del data["bed"]["keep_out"]
        return data


def _check_range(option: str, value: float, low: float, high: float, unit: str) -> None:
    """Raise SettingsError unless ``low <= value <= high``."""
    if not isinstance(value, (int, float)) or not low <= value <= high:
        raise SettingsError(
            option, f"must be between {low:g} and {high:g}{unit}, got {value!r}{unit}"
        )
