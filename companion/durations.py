"""Durations as people type them on the command line (``30d``, ``12h``, ``90m``, ``45s``) and
as the pages say them ("30 days"): :func:`parse_duration` and :func:`describe_duration`."""

from __future__ import annotations

import re

UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
"""Seconds per unit letter: seconds, minutes, hours, days."""
FORMS = "a whole number with a unit s, m, h or d (45s, 90m, 12h, 30d), or 0 for never"
"""The allowed forms, as an error names them."""
_DURATION = re.compile(r"(\d{1,9})([smhd])")
_NAMES = (("day", 86400.0), ("hour", 3600.0), ("minute", 60.0), ("second", 1.0))


def parse_duration(text: str, option: str) -> float:
    """Seconds of a duration such as ``30d``, ``12h``, ``90m`` or ``45s`` (case and spaces
    around it do not matter); ``0`` is 0.0, which the callers read as "never".

    Args:
        text: what was typed.
        option: the option it was typed for, named in the error (``--retention``).

    Raises:
        ValueError: any other text; the message starts with ``option`` and names the allowed
            forms and the value (cut to 30 characters).
    """
    cleaned = text.strip().lower()
    if cleaned == "0":
        return 0.0
    match = _DURATION.fullmatch(cleaned)
    if match is None or int(match.group(1)) == 0:
        raise ValueError(f"{option}: must be {FORMS}, got {text[:30]!r}")
    return int(match.group(1)) * UNITS[match.group(2)]


def duration_parts(seconds: float) -> tuple[int, str]:
    """A duration as a count of the largest unit it is a whole number of: ``2592000`` ->
    ``(30, "day")``, ``3600`` -> ``(1, "hour")``, ``90`` -> ``(90, "second")`` (whole seconds;
    0 is ``(0, "second")``). The unit is one of ``day``, ``hour``, ``minute``, ``second``."""
    whole = round(seconds)
    for name, size in _NAMES:
        if whole >= size and whole % size == 0:
            return int(whole // size), name
    return whole, "second"


def describe_duration(seconds: float) -> str:
    """A duration in the largest unit it is a whole number of: ``2592000`` -> "30 days",
    ``3600`` -> "1 hour", ``90`` -> "90 seconds" (whole seconds; 0 is "0 seconds")."""
    count, name = duration_parts(seconds)
    return f"{count} {name}{'' if count == 1 else 's'}"
