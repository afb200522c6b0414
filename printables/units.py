"""The one conversion between the paper packages' millimetres and ReportLab's points.

Everything in :mod:`printables` is laid out in mm (origin bottom-left, y up); only the drawing
calls take points. Source: 1 in = 25.4 mm = 72 pt (PRINT-FORMATS.md, *Numbers*).
"""

from __future__ import annotations

MM = 72 / 25.4
"""Points per millimetre: ``length_mm * MM`` is the length in pt."""
