"""Card faces and generated backs, drawn with ReportLab onto a card's box on the page.

Every face follows one anatomy (:mod:`games.cards.anatomy`, drawn by :func:`standard_face`),
read at a glance at the size of a real card:

* a **badge** in the top-left corner with the number a fanned hand needs, optionally repeated
  upside down in the bottom-right corner, like playing cards;
* a **header** with the name (and corner icons or a mode tab at its right end), and a **type
  band** with the card kind and its icons as drawn symbols with their words next to them;
* an **art window** holding the card's image (cropped to fill) or a generated pattern
  (:mod:`printables.patterns`); it gives up height when the rules text needs it;
* a **stats row** of big numbers with their symbol and word;
* the **rules text** on a light box, left-aligned (a text of symbols only centred), 8.5 pt
  shrinking to 6 pt at the least, a lead-in before the first colon in bold ("Carrier
  power:"); between the bottom corners, or across the card above them where that column is
  narrow; a card without text has no empty box;
* a **footer** with the QR code, build stars as a number with a star, a legend line, and an
  optional defense corner bottom-right (the QR code then goes bottom-left).

What a game's cards show (colours, frames, badges) is decided by the game's face builder
(:attr:`games.cards.cardgame.CardGame.face`, in ``games/<game>/cards.py``); this module draws
any :class:`~games.cards.anatomy.FaceContent` and names no game, in its steps: the frame
(:mod:`printables.faceframe`), the badge (:mod:`printables.badge`), the header and type band
(:mod:`printables.faceupper`), and the art, stats, text and footer
(:mod:`printables.facelower`); this module puts them together. The static parts of a frame
are one form XObject per frame and size, and everything on a face but its name and QR code is
one form XObject per card design (:func:`standard_face`), so copies and cards that differ only
in name are drawn once.

Coordinates inside a face are mm from the card's trim bottom-left corner; the content stays
inside ``SAFE_MARGIN``; the frame colour runs into the bleed. Fixed sizes are given for a
63 x 88 mm card and scale with the card (:attr:`Painter.unit`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.cards.anatomy import FaceContent
from games.cards.cardgame import CardGame
from games.cards.fields import ValidatedCard
from games.registry import CARD_GAMES, TITLES
from printables.facebox import Box, box_problems, overlap
from printables.facelower import lower_half
from printables.faceupper import design_upper
from printables.icons import defined_forms
from printables.layout import Rect
from printables.painter import MIN_TEXT_PT, SAFE_MARGIN, Painter
from printables.qr import MIN_MODULE_MM, draw_qr, qr_size_mm
from printables.text import Overflow
from printables.units import MM

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas


@dataclass(frozen=True, kw_only=True)
class _Design:
    """A card design drawn once as a form XObject: everything on a face except its name and
    QR code, with where those two go (face mm) and the text problems found drawing it.

    What does not change from card to card is checked once here: the design's own overlaps
    (``overlaps``) and the QR code's (``qr_found``: its safe margin, then its crossings with
    the design's boxes); ``edges`` holds each box's (left, right, bottom, top), mm, for the
    name's check per card; ``notes`` are warnings about its art (a resolution too low to
    print sharp), reported for every card drawn with it."""

    form: str
    title: tuple[float, float, float]
    qr_x: float
    problems: tuple[tuple[str, str], ...]
    boxes: tuple[Box, ...] = ()
    overlaps: tuple[str, ...] = ()
    qr_box: Box | None = None
    qr_found: tuple[str, ...] = ()
    edges: tuple[tuple[float, float, float, float, Box], ...] = ()
    notes: tuple[str, ...] = ()


_design_fields = attrgetter(
    *(f.name for f in fields(FaceContent) if f.name not in ("title", "art_key"))
)
"""The fields of a face that make its design (:func:`standard_face`) as a tuple: all but the
name and the art key (which is part of the design only without an image)."""


def _designs(c: Canvas) -> dict[tuple[Any, ...], _Design]:
    designs: dict[tuple[Any, ...], _Design] | None = getattr(c, "_tablesmith_designs", None)
    if designs is None:
        designs = {}
        c._tablesmith_designs = designs
    return designs


def standard_face(
    p: Painter,
    face: FaceContent,
    *,
    image: Path | None = None,
    qr_url: str | None = None,
    edge: str | None = None,
) -> None:
    """Draw ``face`` on the painter's card (see the module docstring for the anatomy), with
    ``image`` (an image file) in its art window, or a generated pattern where it is None,
    and the QR code of ``qr_url`` (none where it is None); ``edge``: the deck's own colour
    on the card's outer edge (:attr:`games.cards.anatomy.Frame.edge`), or None.

    Everything but the name and the QR code is one form XObject per card design (the face
    without its name and QR code, at this size and bleed; with an image the art is part of
    it, without one the generated pattern is, which differs per card id), defined on first
    use in the document: copies of a card, and cards that differ only in name, cost one
    ``Do`` each. Text problems found while drawing the design are reported for every card
    that uses it.
    """
    c = p.canvas
    if edge:
        face = replace(face, frame=replace(face.frame, edge=edge))
    qr_edge = qr_size_mm(qr_url) if qr_url else 0.0
    art_key = "" if image is not None else (face.art_key or face.title)
    key = (_design_fields(face), image, art_key, qr_edge, p.trim.width, p.trim.height, p.bleed)
    designs = _designs(c)
    design = designs.get(key)
    if design is None:
        design_face = replace(face, title="", art_key=art_key)
        design = _define_design(p, design_face, image, qr_edge, f"face{len(designs)}")
        designs[key] = design
    for field_name, reason in design.problems:
        p.problems.append(Overflow(card=p.card_name, field=field_name, reason=reason))
    p.warnings.extend(f"card '{p.card_name}': {note}" for note in design.notes)
    c.saveState()
    c.translate(*p.pt(0, 0))
    c.doForm(design.form)
    c.restoreState()
    x, y, width = design.title
    first = len(p.boxes)
    p.line(
        face.title,
        x,
        y,
        width,
        max_pt=11.5 * p.unit,
        min_pt=MIN_TEXT_PT,
        field_name="name",
        bold=True,
        colour="#ffffff",
    )
    names = p.boxes[first:]
    found = list(design.overlaps)
    found += box_problems(names, p.trim.width, p.trim.height, SAFE_MARGIN)
    found += _crossings(names, design.edges)
    if qr_url and design.qr_box is not None:  # a design has its QR box iff its face has a QR
        draw_qr(c, qr_url, p.trim.x + design.qr_x, p.trim.y + SAFE_MARGIN, MIN_MODULE_MM)
        p.boxes.append(design.qr_box)
        found += _crossings(names, _edges((design.qr_box,)))
        found += design.qr_found
    if found:
        size = f"{p.trim.width:g} x {p.trim.height:g} mm"
        p.warnings.extend(f"card '{p.card_name}' ({size}): {line}" for line in found)


def _edges(boxes: Iterable[Box]) -> tuple[tuple[float, float, float, float, Box], ...]:
    """(left, right, bottom, top, box) of each box, face mm."""
    return tuple((b.rect.x, b.rect.right, b.rect.y, b.rect.top, b) for b in boxes)


def _crossings(
    own: Iterable[Box], others: tuple[tuple[float, float, float, float, Box], ...]
) -> list[str]:
    """The overlaps of the boxes ``own`` (the name, the QR code) with the boxes of
    ``others`` (as :func:`_edges` gives them), in the words of :func:`box_problems`."""
    found = []
    for box in own:
        a = box.rect
        left, right, bottom, top = a.x, a.right, a.y, a.top
        for x0, x1, y0, y1, other in others:
            if x0 >= right or left >= x1 or y0 >= top or bottom >= y1:
                continue  # the common case, decided without a call
            line = overlap(box, other)
            if line:
                found.append(line)
    return found


def _define_design(
    p: Painter, face: FaceContent, image: Path | None, qr_edge: float, name: str
) -> _Design:
    """Draw the form XObject ``name`` of ``face`` (a face without name and QR code; ``image``
    in its art window, or its pattern where None) at the painter's card size and bleed;
    return where the name and QR code go."""
    c = p.canvas
    w, h, b = p.trim.width, p.trim.height, p.bleed
    local = Painter(canvas=c, trim=Rect(x=0, y=0, width=w, height=h), bleed=b, card_name="")
    c.beginForm(name, -b * MM, -b * MM, (w + b) * MM, (h + b) * MM)
    title, band_bottom = design_upper(local, face)
    qr_x = lower_half(local, face, image, band_bottom - 1.0, qr_edge)
    c.endForm()
    defined_forms(c).add(name)
    edges = _edges(local.boxes)
    qr_box = None
    qr_found: list[str] = []
    if qr_edge:
        qr_box = Box(
            what="QR code", rect=Rect(x=qr_x, y=SAFE_MARGIN, width=qr_edge, height=qr_edge)
        )
        qr_found = box_problems([qr_box], w, h, SAFE_MARGIN) + _crossings([qr_box], edges)
    return _Design(
        notes=tuple(local.warnings),
        form=name,
        title=title,
        qr_x=qr_x,
        problems=tuple((problem.field, problem.reason) for problem in local.problems),
        boxes=tuple(local.boxes),
        overlaps=tuple(box_problems(local.boxes, w, h, SAFE_MARGIN)),
        qr_box=qr_box,
        qr_found=tuple(qr_found),
        edges=edges,
    )


def face_content(card: ValidatedCard, *, side: str = "front") -> FaceContent:
    """The :class:`FaceContent` of a card's ``side`` (``front``, or one of its class's
    ``SIDES``), built by its game's face builder (:attr:`games.cards.cardgame.CardGame.face`).

    Raises:
        TypeError: not a card class of a registered game.
    """
    return card_game(card).face(card, side)


def card_game(card: ValidatedCard) -> CardGame:
    """The registered card game whose kinds include ``card``'s class.

    Raises:
        TypeError: not a card class of a registered game.
    """
    # looked up live: a game registered after this module was imported has faces too
    for cards in CARD_GAMES.values():
        if type(card) in cards.kinds.values():
            return cards
    raise TypeError(f"no face for {type(card).__name__}")


def game_title(game: str) -> str:
    """Display title of a game slug (its registry entry's)."""
    return TITLES[game]
