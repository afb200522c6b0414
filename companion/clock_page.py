"""The game clock on the phone pages: the choice on the start page, and the clock's texts.

The start page's form (``templates/home.html``) sends ``clock_mode`` (``none``, ``turn``,
``chess``), ``clock_turn_seconds`` (per-turn timer), ``clock_minutes`` and
``clock_increment`` (chess clock: minutes per player, seconds added per turn);
:func:`form_setting` makes the :class:`~companion.tables.clock.ClockSetting` of them. The
phone's clock (``static/clock.js``) gets its texts from :func:`js_strings`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext

from companion.tables.clock import ClockSetting, parse_setting
from companion.tables.rejected import Rejected, brief

DEFAULTS = {"clock_turn_seconds": 60, "clock_minutes": 10, "clock_increment": 0}
"""What the start page offers before anything is chosen (and the clock is off: ``none``)."""


def _form_number(form: Mapping[str, str], name: str) -> float:
    text = form.get(name, "").strip() or str(DEFAULTS[name])
    try:
        return float(text.replace(",", "."))
    except ValueError:
        raise Rejected(400, "malformed", f"{name} must be a number, got {brief(text)}") from None


def form_setting(form: Mapping[str, str]) -> ClockSetting | None:
    """The clock chosen on the start page, or None (no clock, also when nothing was sent).

    Raises:
        Rejected: 400 naming the field and the allowed values.
    """
    mode = form.get("clock_mode", "none")
    if mode == "turn":
        return parse_setting({"mode": mode, "seconds": _form_number(form, "clock_turn_seconds")})
    if mode == "chess":
        seconds = _form_number(form, "clock_minutes") * 60
        increment = _form_number(form, "clock_increment")
        return parse_setting({"mode": mode, "seconds": seconds, "increment": increment})
    return parse_setting({"mode": mode})


def js_strings() -> dict[str, Any]:
    """The texts of the phone's clock (``static/clock.js``), translated for the request."""
    return {
        "clock_pause": gettext("Pause the clock"),
        "clock_resume": gettext("Resume the clock"),
        "clock_paused_by": gettext("Clock paused by %(player)s"),
        "clock_out": gettext("%(player)s is out of time: what follows is your call."),
        "log_clock_set": gettext("Clock set"),
        "log_clock_pause": gettext("Clock paused"),
        "log_clock_resume": gettext("Clock resumed"),
        "log_clock_expired": gettext("%(player)s ran out of time"),
        "err_clock_state": gettext("the clock was paused or resumed already"),
        "err_no_clock": gettext("this table has no clock"),
        "err_clock_stopped": gettext(
            "the clock stands: it starts with the game's first move and stops at its end"
        ),
    }
