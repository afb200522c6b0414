"""The options of a print kit, defined once for the command line and the print shop's form.

``tablesmith build`` turns :data:`BUILD_OPTIONS` into click options, and the print shop page
(:mod:`shop`) draws its form from the same list; both make their :class:`PrintSettings`
with :func:`settings_from`, so the ranges, defaults, help texts and error messages are the
same wherever a maker sets them (issue 27). The ranges themselves are checked by
:class:`cad.settings.PrintSettings`; this module only names, describes and parses.

Pure Python: importing it loads no CAD kernel (``--help`` and the form stay fast).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from cad.settings import (
    BED_PRESETS,
    NAMED_COLOURS,
    OptionError,
    PrintSettings,
    SettingsError,
    parse_bed,
    parse_box,
    parse_colour,
)
from cad.slicers import DEFAULT_SLICER, SLICERS

Kind = Literal["float", "int", "text", "choice", "flag", "colour"]


@dataclass(frozen=True)
class BuildOption:
    """One setting of the kit.

    Attributes:
        name: the field name in :class:`PrintSettings` and in the form (``scale``).
        kind: how the value is written: a number, text, one of ``choices``, a colour (a name
            of :data:`cad.settings.NAMED_COLOURS` or ``#RRGGBB``) or an on/off flag.
        default: the value when none is given, as the command line shows it.
        help: one sentence with the unit and the allowed range, shown by ``--help``, in the
            command reference and beside the form field.
        choices: the allowed values of a ``choice`` (None: the bed's default for ``slicer``).
        group: the form's section (``size``, ``printer``, ``colours``, ``plates``).
    """

    name: str
    kind: Kind
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    group: str = "size"

    @property
    def flag(self) -> str:
        """The command-line option (``--xy-compensation``)."""
        return "--" + self.name.replace("_", "-")


KIT_GAMES: tuple[str, ...] = ("asteroids",)
"""The games (registry slugs) ``tablesmith build`` makes a print kit of: the kit generator
(:mod:`cad.kit`) builds Asteroids' pieces; every other game's printables are its cards."""

_BEDS = ", ".join(f"{name} {bed.x:g}x{bed.y:g}" for name, bed in BED_PRESETS.items())
_SLICER_DEFAULTS = ", ".join(
    f"{'custom beds' if bed == 'custom' else bed} {slicer}"
    for bed, slicer in DEFAULT_SLICER.items()
)
"""``--slicer``'s default per bed preset, in words (from :data:`cad.slicers.DEFAULT_SLICER`)."""

BUILD_OPTIONS: tuple[BuildOption, ...] = (
    BuildOption(
        "scale",
        "float",
        1.0,
        "Scale of the whole set, 0.5..1.5; 0.8 fits an empty 1 kg filament box.",
    ),
    BuildOption(
        "xy_compensation",
        "float",
        -0.1,
        "Per-side X-Y compensation in mm baked into the parts (outer contours shrink, holes "
        "grow), -0.5..0.",
    ),
    BuildOption(
        "layer_height",
        "float",
        0.2,
        "Layer height in mm, 0.08..0.32; piece heights and engravings are whole layers.",
    ),
    BuildOption("engraving_layers", "int", 1, "Depth of the engraved symbols in layers (1..3)."),
    BuildOption(
        "printer",
        "text",
        "a1",
        f"Bed preset ({_BEDS}) or WxD[xH] in mm.",
        choices=tuple(BED_PRESETS),
        group="printer",
    ),
    BuildOption(
        "slicer",
        "choice",
        None,
        "The slicer the 3MF plates are projects for (settings, colours, colour change). "
        f"Default per --printer: {_SLICER_DEFAULTS} (an A1 mini takes bambu). A prusa "
        "plate also opens whole in OrcaSlicer; a bambu plate in OrcaSlicer, and in PrusaSlicer "
        "except with --multi-material.",
        choices=SLICERS,
        group="printer",
    ),
    BuildOption(
        "multi_material",
        "flag",
        False,
        "Print the symbol layer of fragments and ships as a part of its own on filament 2 "
        "(AMS, MMU or tool changer: no filament change by hand).",
        group="printer",
    ),
    BuildOption(
        "colour_a", "colour", "blue", "Ship colour of player A (name or #RRGGBB).", group="colours"
    ),
    BuildOption("colour_b", "colour", "red", "Ship colour of player B.", group="colours"),
    BuildOption(
        "symbol_colour",
        "colour",
        "white",
        "Filament for the last layer of fragments and ships (shows the engraved symbols).",
        group="colours",
    ),
    BuildOption(
        "board_colour", "colour", "grey", "Colour of board and fragments.", group="colours"
    ),
    BuildOption(
        "box",
        "text",
        "200x200x70",
        "Inner size XxYxZ in mm of the storage box the set is checked against.",
        group="plates",
    ),
    BuildOption(
        "plate_spacing", "float", 6.0, "Gap in mm between parts on a plate, 2..30.", group="plates"
    ),
    BuildOption(
        "bed_border",
        "float",
        5.0,
        "Free mm along every bed edge for the slicer's skirt or a brim (0..30).",
        group="plates",
    ),
)
"""Every setting of ``tablesmith build`` and of the print shop's form, in form order."""

COLOUR_NAMES: tuple[str, ...] = tuple(NAMED_COLOURS)
"""The filament colour names a colour option takes besides ``#RRGGBB``."""


def settings_from(values: Mapping[str, Any]) -> PrintSettings:
    """The :class:`PrintSettings` for option values by name, as typed (form text) or parsed
    (click's numbers); a missing name takes its default.

    Raises:
        OptionError: a value that is not of its kind (``--scale: must be a number, got
            'abc'``) or, through :class:`PrintSettings`, out of its range; the message starts
            with the option, then says what is allowed and what was found.
    """
    given = {o.name: values.get(o.name, o.default) for o in BUILD_OPTIONS}
    parsed: dict[str, Any] = {}
    for option in BUILD_OPTIONS:
        value = given[option.name]
        if option.kind == "float":
            parsed[option.name] = _number(option, value, float)
        elif option.kind == "int":
            parsed[option.name] = _number(option, value, int)
        elif option.kind == "colour":
            parsed[option.name] = parse_colour(str(value), option.flag)
        elif option.kind == "flag":
            parsed[option.name] = value in (True, "on", "true", "1", 1)
        elif option.kind == "choice":
            parsed[option.name] = value or None
        else:
            parsed[option.name] = str(value)
    bed = parse_bed(parsed.pop("printer"))
    box = parse_box(parsed.pop("box"))
    return PrintSettings(bed=bed, box=box, **parsed)


def _number(option: BuildOption, value: Any, kind: type[float] | type[int]) -> float | int:
    """``value`` as ``kind``; a text is read as a decimal number (a comma taken as the point).

    Raises:
        SettingsError: not a number of that kind (names the option).
    """
    if isinstance(value, bool):
        value = str(value)
    if isinstance(value, (int, float)) and not (kind is int and isinstance(value, float)):
        return kind(value)
    text = str(value).strip().replace(",", ".")
    try:
        return kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise SettingsError(option.flag, f"must be {what}, got {str(value)[:40]!r}") from None


__all__ = ["BUILD_OPTIONS", "COLOUR_NAMES", "BuildOption", "OptionError", "settings_from"]
