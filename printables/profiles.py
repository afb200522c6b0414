"""Printer profiles: a saved duplex mode and back-page correction, stored as JSON.

The file is ``printers.json`` in ``$TABLESMITH_CONFIG_DIR`` if set, otherwise in the user's
config folder as Click reports it (``~/.config/tablesmith`` on Linux). One entry per printer
name: ``{"duplex": "long-edge", "dx": 0.8, "dy": -0.4, "rotation_deg": 0.1, "scale_x": 1.004,
"scale_y": 0.998}`` (mm, degrees, print scale; a profile saved without a scale reads as 1).
"""

from __future__ import annotations

import difflib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from printables.duplex import BackAdjust, Duplex, PrintScale
from printables.layout import LayoutError

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
KEYS = ("duplex", "dx", "dy", "rotation_deg", "scale_x", "scale_y")
"""The keys of one profile entry; any other key is refused (a typo would otherwise be read as
no correction at all)."""


class ProfileError(ValueError):
    """A printer profile name, file or entry is invalid or missing."""


@dataclass(frozen=True, kw_only=True)
class PrinterProfile:
    """A printer's duplex mode and back correction.

    Attributes:
        duplex: the duplex mode that works on this printer.
        adjust: the back-page correction read from the calibration sheet (mm, degrees).
        scale: the size correction read from the calibration sheet's 100 mm rulers.
    """

    duplex: Duplex = Duplex.LONG_EDGE
    adjust: BackAdjust = field(default_factory=BackAdjust)
    scale: PrintScale = field(default_factory=PrintScale)


def profiles_path() -> Path:
    """Where printer profiles are stored."""
    import click

    folder = os.environ.get("TABLESMITH_CONFIG_DIR") or click.get_app_dir("tablesmith")
    return Path(folder) / "printers.json"


def _check_name(name: str) -> None:
    if not _NAME.match(name):
        raise ProfileError(
            f"printer profile name must be 1..40 of A-Z a-z 0-9 _ . - , got {name!r}"
        )


def _read_all(path: Path) -> dict[str, dict[str, object]]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ProfileError(f"{path}: not a readable printer profile file ({exc})") from None
    if not isinstance(data, dict):
        raise ProfileError(f"{path}: expected a JSON object of printer profiles")
    return data


def load_profile(name: str) -> PrinterProfile:
    """The saved profile ``name``.

    Raises:
        ProfileError: unknown name, an unknown key in the entry (named with the nearest
            known one, :func:`unknown_key_message`) or a broken value; the message names the
            file.
    """
    _check_name(name)
    path = profiles_path()
    entries = _read_all(path)
    if name not in entries:
        known = ", ".join(sorted(entries)) or "none saved yet"
        raise ProfileError(f"printer profile {name!r} not found in {path} (known: {known})")
    entry = entries[name]
    if isinstance(entry, dict):
        for key in entry:
            if key not in KEYS:
                raise ProfileError(unknown_key_message(path, name, str(key)))
    try:
        if not isinstance(entry, dict):
            raise TypeError(f"expected an object, found {entry!r}")
        numbers = {key: float(str(entry.get(key, 0))) for key in ("dx", "dy", "rotation_deg")}
        scale = PrintScale(
            x=float(str(entry.get("scale_x", 1.0))), y=float(str(entry.get("scale_y", 1.0)))
        )
        return PrinterProfile(
            duplex=Duplex(str(entry.get("duplex", "long-edge"))),
            adjust=BackAdjust(**numbers),
            scale=scale,
        )
    except (TypeError, ValueError, LayoutError) as exc:
        raise ProfileError(f"{path}: profile {name!r} is invalid: {exc}") from None


def unknown_key_message(path: Path, name: str, key: str) -> str:
    """``<file>: profile 'office': unknown key 'dX' (did you mean 'dx'? known: ...)``: the
    nearest known key by :func:`difflib.get_close_matches` (case-insensitive), if any."""
    lowered = {known.lower(): known for known in KEYS}
    close = difflib.get_close_matches(key.lower(), list(lowered), n=1, cutoff=0.5)
    hint = f"did you mean {lowered[close[0]]!r}? " if close else ""
    return f"{path}: profile {name!r}: unknown key {key!r} ({hint}known keys: {', '.join(KEYS)})"


def save_profile(name: str, profile: PrinterProfile) -> Path:
    """Store ``profile`` under ``name`` (replacing an older one) and return the file path.

    The file is rewritten through a temporary file and ``os.replace``.

    Raises:
        ProfileError: a bad name or an unreadable existing file.
    """
    _check_name(name)
    path = profiles_path()
    entries = _read_all(path)
    entries[name] = {
        "duplex": profile.duplex.value,
        "dx": profile.adjust.dx,
        "dy": profile.adjust.dy,
        "rotation_deg": profile.adjust.rotation_deg,
        "scale_x": profile.scale.x,
        "scale_y": profile.scale.y,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(path.name + ".part")
    temp.write_text(json.dumps(entries, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(temp, path)
    return path
