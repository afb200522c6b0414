"""The anatomy of a standard card face, as data: what a face shows, never how it is drawn.

Each card game's builder (``games/<game>/cards.py``, found through its
:class:`games.cards.cardgame.CardGame`) turns a card into a :class:`FaceContent`;
``printables.faces`` draws any :class:`FaceContent` (ReportLab). Pure: colours are
``#rrggbb`` strings, icons are names of stat icons (:mod:`games.cards.icons`) or the game's
own (``CardGame.icons``), sizes are the drawing's.

The anatomy: a **badge** in the top-left corner (the number a fanned hand needs), a **header**
with the name, a **type band** with the card kind and its icons as chips (symbol and word), an
**art window** (the card's image, or a generated pattern), a **stats row** of big numbers with
their symbol and word, the **rules text** on a light box, and a **footer** with the QR code,
build stars and an optional value corner.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Frame:
    """The static frame of a card kind: colours, shape, decoration and art style.

    Attributes:
        key: the frame's name, unique over all games (part of the PDF form names).
        colour: the frame colour (runs into the bleed; also the type label and pattern tint).
        header: the header band colour (a dark shade of ``colour``; also the art border).
        pattern: the generated art style (a style name the game declares, ``CardGame.patterns``).
        cut_corners: the inner panel has cut corners instead of rounded ones.
        panel_radius: corner radius of the rounded inner panel, mm.
        double_rule: a double rule in ``colour`` along the inner panel.
        stripe: a metal stripe under the header band.
        edge: the colour of the card's outer edge (the bleed and the border around the inner
            panel), or empty for ``colour``: a deck's own colour
            (:attr:`games.cards.deck.Deck.colour`), set by the printer.
    """

    key: str
    colour: str
    header: str
    pattern: str
    cut_corners: bool = False
    panel_radius: float = 2.0
    double_rule: bool = False
    stripe: bool = False
    edge: str = ""


@dataclass(frozen=True, kw_only=True)
class Badge:
    """The top-left corner badge.

    Attributes:
        value: the big text (a number, ``+3``, ``J``) or empty for an icon-only badge.
        icon: a small symbol under the value (or the whole badge when ``value`` is empty).
        colour: the badge's fill colour.
        label: a short word under the value (e.g. ``DEF``), optional.
    """

    value: str
    icon: str | None
    colour: str
    label: str = ""


@dataclass(frozen=True, kw_only=True)
class Stat:
    """One entry of the stats row: a symbol, a big number and its word."""

    label: str
    value: str
    icon: str
    colour: str


@dataclass(frozen=True, kw_only=True)
class Chip:
    """An icon with its word (the legend), on the type band."""

    word: str
    icon: str
    colour: str


@dataclass(frozen=True, kw_only=True)
class FaceContent:
    """What a standard face shows (see the module docstring for the anatomy).

    Attributes:
        frame: the frame: colours, frame shape, art style.
        title: the card's name.
        kind_label: the card kind in capitals on the type band (``UNIT``, ``OBJECTIVE``).
        subtitle: small text after the kind (subtitle, traits).
        badge: the top-left badge.
        chips: icons with their words, right-aligned on the type band.
        corner_icons: (symbol, colour) squares in the header's right end.
        legend: (icon, colour, words) explained on the footer line.
        stats: the stats row.
        text: rules text and its field name.
        stars: build stars shown in the footer as a number with a star (0 = none).
        defense_corner: a defense value for the bottom-right corner, or None.
        corner_colour: the fill of the defense corner.
        mirror_index: the badge repeated upside down in the bottom-right corner.
        mode_tab: a tab in the header's right end (``ALT MODE``), or empty.
        empty_text: what the text box says when the card has no rules text.
        art_bar: the colour of a bar along the art window's bottom edge, or empty.
        art_key: the card's id, which picks the pattern variant of a card without an
            image.

    The card's image and its QR code's URL are the printer's, not the game's: they are
    given to :func:`printables.faces.standard_face` beside the face.
    """

    frame: Frame
    title: str
    kind_label: str
    badge: Badge
    subtitle: str = ""
    chips: tuple[Chip, ...] = ()
    corner_icons: tuple[tuple[str, str], ...] = ()
    legend: tuple[tuple[str, str, str], ...] = ()
    stats: tuple[Stat, ...] = ()
    text: tuple[str, str] = ("", "text")
    stars: int = 0
    defense_corner: int | None = None
    corner_colour: str = ""
    mirror_index: bool = False
    mode_tab: str = ""
    empty_text: str = ""
    art_bar: str = ""
    art_key: str = ""
