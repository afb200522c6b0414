"""Card icons placed as PDF form XObjects: the drawer, and the colours the printer uses.

An icon is a pen drawing in the unit box (0, 0)-(1, 1) (:data:`games.cards.pen.IconDrawing`):
the stat icons every card game has live in :mod:`games.cards.icons`, a game's own icons in
``games/<game>/art.py``, declared by its ``CARDS`` (:attr:`games.cards.cardgame.CardGame.icons`).
:func:`draw_icon` finds an icon by name through the registered card games and places it as a
form XObject (defined once per icon and colour, then reused), so a thousand cards cost one
``Do`` per icon. This module names no game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TypeVar

from reportlab.lib.colors import Color, HexColor

from games.cards.icons import STAT_ICONS
from games.cards.pen import IconDrawing
from games.registry import CARD_GAMES

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

D = TypeVar("D", bound=Callable[..., None])


def _hex(colour: str) -> Color:
    return HexColor(colour)


def colour_of(colour: str | Color) -> Color:
    """A ReportLab colour for ``#RRGGBB`` (parsed once and cached: ReportLab parses a colour
    string on every use, which cost a fifth of the time of a thousand cards)."""
    return _hex(colour) if isinstance(colour, str) else colour


def mix(colour: str | Color, other: str | Color, t: float) -> Color:
    """``colour`` moved toward ``other`` by ``t`` (0..1) in RGB: ``other`` laid over
    ``colour`` at opacity ``t``, as one opaque colour (an alpha inside a form XObject has no
    ExtGState in ReportLab, so translucency is drawn this way)."""
    a, b = colour_of(colour), colour_of(other)
    return Color(
        a.red + (b.red - a.red) * t,
        a.green + (b.green - a.green) * t,
        a.blue + (b.blue - a.blue) * t,
    )


FORM_SIZE = 20.0
"""Edge of an icon's form XObject, pt (icons are scaled from it)."""


def declared(
    what: str, name: str, common: Mapping[str, D], of_game: Callable[[str], Mapping[str, D]]
) -> D:
    """The drawing named ``name`` among ``common`` and every registered card game's own
    (``of_game(slug)``): icon and pattern names are one namespace over all games.

    Raises:
        KeyError: no game declares ``name`` (the message names the known ones).
        ValueError: two declarations of ``name`` draw differently (names both).
    """
    found: dict[str, D] = {"the stat icons": common[name]} if name in common else {}
    for slug in CARD_GAMES:
        own = of_game(slug)
        if name in own:
            found[f"game {slug!r}"] = own[name]
    if not found:
        known = sorted({*common, *(n for slug in CARD_GAMES for n in of_game(slug))})
        raise KeyError(f"unknown {what} {name!r}; known: {', '.join(known)}")
    if len(set(found.values())) > 1:
        raise ValueError(f"{what} {name!r} is declared twice: by {' and by '.join(found)}")
    return next(iter(found.values()))


def icon_drawing(name: str) -> IconDrawing:
    """The icon ``name``: a stat icon or one a registered card game declares.

    Raises:
        KeyError: unknown icon name. ValueError: two games declare it differently.
    """
    return declared("icon", name, STAT_ICONS, lambda slug: CARD_GAMES[slug].icons)


def defined_forms(c: Canvas) -> set[str]:
    """The names of the form XObjects already defined on canvas ``c`` (kept on the canvas,
    so a new document starts empty)."""
    forms: set[str] | None = getattr(c, "_tablesmith_forms", None)
    if forms is None:
        forms = set()
        c._tablesmith_forms = forms
    return forms


def draw_icon(c: Canvas, name: str, x_pt: float, y_pt: float, size_pt: float, colour: str) -> None:
    """Draw icon ``name`` in ``colour`` into the square (x, y, size) in page points.

    The icon is a form XObject named after the icon and colour, defined on first use in this
    document.

    Raises:
        KeyError: unknown icon name. ValueError: two games declare it differently.
    """
    form = f"icon-{name}-{colour.lstrip('#')}"
    defined = defined_forms(c)
    if form not in defined:
        draw = icon_drawing(name)
        c.beginForm(form, 0, 0, FORM_SIZE, FORM_SIZE)
        c.scale(FORM_SIZE, FORM_SIZE)
        c.setFillColor(colour_of(colour))
        c.setStrokeColor(colour_of(colour))
        c.setLineCap(1)
        c.setLineJoin(1)
        draw(c)
        c.endForm()
        defined.add(form)
    c.saveState()
    c.translate(x_pt, y_pt)
    c.scale(size_pt / FORM_SIZE, size_pt / FORM_SIZE)
    c.doForm(form)
    c.restoreState()
