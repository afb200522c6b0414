"""One card per page (``--layout single``, ``single-back-first``): the file print-on-demand
card shops take.

Each page is one card face at its trim size plus the bleed on every side; MediaBox and
BleedBox are the page, TrimBox is the card (:func:`printables.pageboxes.single_page`). Pages
carry nothing but the card: no crop marks, heading, ruler or note (the shop cuts to the
TrimBox). Order: front 1, back 1, front 2, back 2, ... in one file; ``single-back-first``
puts each back before its front (back 1, front 1, ...: the order DriveThruCards' card
specification asks for in its one PDF per deck). With duplex ``separate`` the fronts go to the
main file and the backs, in the same order, to ``<out>-backs.pdf`` (shops that take fronts
and backs as separate uploads: MakePlayingCards, PrinterStudio, The Game Crafter); with
``none`` there are fronts only (a character's bot side is a card of its own). Backs are upright, never
mirrored: the shop pairs pages, not positions on a sheet. A printer profile's back offset,
rotation and print scale are for a home printer's sheets and are not applied.

Conventions (docs/print-cards.md, *Print-on-demand shops*): the shops ask for 1/8 in
(3.175 mm) of bleed on every side (:data:`printables.pageboxes.POD_BLEED`); a smaller
``--bleed`` is written as asked, with a warning.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from printables.duplex import Duplex
from printables.outputs import atomic_outputs
from printables.pageboxes import POD_BLEED, single_page
from printables.render import (
    Placement,
    RenderError,
    RenderOptions,
    RenderResult,
    _items,
    _Job,
    backs_path,
    new_canvas,
    pdf_title,
)
from printables.units import MM

if TYPE_CHECKING:
    from games.cards.deck import Deck


def render_single(
    deck: Deck, options: RenderOptions, out: Path, *, base_dir: Path = Path(".")
) -> RenderResult:
    """Write ``deck`` one card per page to ``out`` (and the backs to :func:`backs_path` of it
    with duplex ``separate``); see the module docstring for sizes, boxes and order. The
    counterpart of :func:`printables.render.render_deck` for ``options.layout`` ``single``
    and ``single-back-first``.

    Args:
        deck: a validated deck.
        options: card sizes, bleed, duplex, QR settings and the layout; the paper, margins,
            crop marks, back adjustment and print scale are not used.
        out: the PDF to write.
        base_dir: folder that relative image paths of the deck are resolved against.

    Returns:
        The files, page counts and placements (page frame of each card page, mm); no sheet
        layouts.

    Raises:
        RenderError: texts that do not fit or glyphs that are missing; nothing is written.
    """
    job = _Job(deck=deck, options=options, base_dir=base_dir)
    items = _items(deck, options, base_dir)
    options = job.options
    separate = options.duplex is Duplex.SEPARATE
    pdfs = [out, backs_path(out)] if separate else [out]
    title = pdf_title(job.deck)
    pages = [0, 0]
    with atomic_outputs(pdfs) as temps, job.prefetch(items):
        front = new_canvas(temps[0], title, options.duplex)
        back = new_canvas(temps[1], title + " - backs", options.duplex) if separate else front
        job.define_forms(back, items)
        canvases = (front, back)
        for item in items:
            faces = [(item.side, 0)] + ([("back", int(separate))] if item.back else [])
            if options.layout == "single-back-first" and not separate:
                faces.reverse()
            boxes = single_page(options.size_of(item.card), options.bleed)
            for side, file in faces:
                c = canvases[file]
                pages[file] += 1
                c.setPageSize((boxes.media.width * MM, boxes.media.height * MM))
                if side == "back":
                    job.back(c, boxes.trim, item)
                else:
                    job.face(c, boxes.trim, item.card, side)
                c.set_page_boxes(trim=boxes.trim, bleed=boxes.bleed)
                c.showPage()
                job.placements.append(
                    Placement(
                        file=file,
                        page=pages[file],
                        slot=0,
                        card_id=item.card.id,
                        side=side,
                        trim=boxes.trim,
                    )
                )
        if job.problems:
            raise RenderError(job.problems)
        front.save()
        if separate:
            back.save()
    warnings = []
    if options.bleed < POD_BLEED - 0.2:
        warnings.append(
            f"--layout single with {options.bleed:g} mm bleed: print-on-demand card shops ask "
            f"for {POD_BLEED:g} mm (1/8 in) on every side; add --bleed {POD_BLEED:g}"
        )
    return RenderResult(
        files=tuple(pdfs),
        pages=tuple(pages[: len(pdfs)]),
        placements=tuple(job.placements),
        layouts=(),
        warnings=tuple(warnings) + tuple(dict.fromkeys(job.overlaps)),
    )
