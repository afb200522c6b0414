"""Render a deck to a print-and-play PDF (ReportLab): faces, backs, crop marks, furniture.

Page order: with duplex ``long-edge``/``short-edge`` every front sheet is followed by its back
sheet; with ``separate`` the backs go to ``<out stem>-backs.pdf`` (page k = backs of front page
k); with ``none`` there are no back pages (a two-sided card's back side, such as a Transformers
character's bot side, is then printed as a card of its own right after its front). Cards of
different sizes (large cards vs. standard cards) go on different sheets, each size with its own
grid.

Files are written to a temporary file beside the target and moved into place with
``os.replace`` only when everything succeeded, so a failed run never leaves a half-written PDF
(:func:`printables.outputs.atomic_outputs`).

Decisions: the 100 % note and the ruler are printed on front pages only; so are the crop
marks of duplex sheets (cutting happens from the front; marks on a misregistered back would
only mislead). The backs of ``separate`` get the same crop and inner marks as their fronts,
moved with the back adjustment: printed on a sheet of their own, they are cut from it. A last
sheet that is not full marks its own cards only (:func:`printables.cropmarks.marks_for_cards`):
an empty slot gets no crop or inner marks, so nobody cuts a blank card out. Every generated
back design is one PDF form XObject, and every image file one image XObject, however many
cards use it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from games.cards.deck import Card, Deck, ascii_base, card_url
from printables.backs import draw_generated_back
from printables.cropmarks import draw_marks, draw_marks_on_art, inner_marks, marks_for_cards
from printables.cutter import svg_text, write_dxf
from printables.duplex import (
    BackAdjust,
    Duplex,
    Overreach,
    PrintScale,
    back_overreach,
    back_slot_index,
    mirrors_left_right,
)
from printables.faces import (
    card_game,
    face_content,
    game_title,
    standard_face,
)
from printables.fonts import REGULAR, register_fonts
from printables.furniture import draw_furniture, draw_heading
from printables.images import prepare_image
from printables.layout import (
    CARD_SIZES,
    CardSize,
    LayoutError,
    Rect,
    SettingError,
    SheetLayout,
    SheetSpec,
    layout_sheet,
)
from printables.outputs import atomic_outputs, check_target
from printables.pageboxes import sheet_boxes
from printables.painter import Painter
from printables.qr import Prefetch
from printables.regmarks import marks_for
from printables.text import Overflow
from printables.units import MM

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from printables.pdfcanvas import BackgroundCanvas

DEFAULT_QR_BASE = "http://tablesmith.local:8765"
"""Default companion address in card QR codes (override with ``--qr-base``)."""
LAYOUTS = ("sheet", "single", "single-back-first")
"""How cards are put on pages: ``sheet`` (a grid of cards on each sheet of paper), ``single``
(one card per page at trim plus bleed, each front followed by its back, for print-on-demand
shops) or ``single-back-first`` (each back before its front, DriveThruCards' order)."""
VIEWER_DUPLEX = {
    Duplex.LONG_EDGE: "DuplexFlipLongEdge",
    Duplex.SHORT_EDGE: "DuplexFlipShortEdge",
    Duplex.SEPARATE: "Simplex",
    Duplex.NONE: "Simplex",
}
"""PDF ``/ViewerPreferences /Duplex`` per duplex mode (PDF 1.7, table 150)."""


class RenderError(ValueError):
    """Texts that do not fit or glyphs the font lacks; ``problems`` lists every one."""

    def __init__(self, problems: list[Overflow]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(map(str, problems)))


@dataclass(frozen=True, kw_only=True)
class RenderOptions:
    """How a deck is put on paper (lengths in mm).

    Attributes:
        paper: ``a4`` (default), ``letter`` or ``a3`` (any case; stored in lower case).
        landscape: landscape sheets.
        card_size: size of standard cards (default: TCG 63 x 88 mm, PM-3, TF-2).
        character_size: size of large cards (card classes with ``LARGE``, such as Transformers
            characters; default 88 x 126 mm, TF-1).
        bleed: mm, see :class:`printables.layout.SheetSpec`.
        gutter: mm.
        page_margin: mm.
        crop_marks: draw crop marks.
        duplex: how backs are printed.
        adjust: printer correction applied to every back page.
        scale: the printer's size correction, applied to every page about its centre.
        qr: print QR codes (cards can still opt out with ``qr: no``).
        qr_base: companion base URL, ``http://`` or ``https://`` with a host.
        cutter: ``none``, ``silhouette`` or ``cricut``: lay sheets out for the machine's
            print-then-cut workflow (no crop marks then; see :mod:`printables.cutter`).
        layout: one of :data:`LAYOUTS`: ``sheet`` (cards on sheets of ``paper``), or
            ``single``/``single-back-first`` (one card per page at trim plus bleed, for
            print-on-demand shops: :mod:`printables.single`).

    Raises:
        SettingError: a sheet value is out of range, ``qr_base`` is not an http(s) URL with a
            host (setting ``qr_base``), or ``layout`` is unknown or ``single`` with a cutter
            (setting ``layout``).
    """

    paper: str = "a4"
    landscape: bool = False
    card_size: CardSize | None = None
    character_size: CardSize | None = None
    bleed: float = 0.0
    gutter: float = 0.0
    page_margin: float = 5.0
    crop_marks: bool = True
    duplex: Duplex = Duplex.LONG_EDGE
    adjust: BackAdjust = field(default_factory=BackAdjust)
    scale: PrintScale = field(default_factory=PrintScale)
    qr: bool = True
    qr_base: str = DEFAULT_QR_BASE
    cutter: str = "none"
    layout: str = "sheet"

    def __post_init__(self) -> None:
        object.__setattr__(self, "paper", self.sheet(CardSize(width=63, height=88)).paper)
        check_qr_base(self.qr_base)
        if self.layout not in LAYOUTS:
            raise SettingError(setting="layout", allowed=" or ".join(LAYOUTS), found=self.layout)
        if self.layout != "sheet" and self.cutter != "none":
            raise SettingError(
                setting="layout",
                allowed="sheet with --cutter (a cutting machine cuts sheets)",
                found=self.layout,
            )

    def sheet(self, card: CardSize) -> SheetSpec:
        """The :class:`SheetSpec` for cards of size ``card``."""
        return SheetSpec(
            card=card,
            paper=self.paper,
            landscape=self.landscape,
            bleed=self.bleed,
            gutter=self.gutter,
            page_margin=self.page_margin,
            crop_marks=self.crop_marks and self.cutter == "none",
            cutter=self.cutter,
        )

    def size_of(self, card: Card) -> CardSize:
        """The trim size a card is printed at."""
        if card.LARGE:
            w, h = CARD_SIZES["tf-character"]
            return self.character_size or CardSize(width=w, height=h, name="tf-character")
        w, h = CARD_SIZES["tcg"]
        return self.card_size or CardSize(width=w, height=h, name="tcg")


MAX_QR_BASE = 100
"""Longest companion base URL (characters). Every card's QR code holds the base and the card's
path, so it grows with the base; at about 150 characters the codes crowd the stats and text
out of a TCG card (measured on the demo decks), at 100 every demo card still fits."""


def check_qr_base(base: str) -> None:
    """Check a companion base URL: ``http`` or ``https``, a host, no spaces, no query, at most
    :data:`MAX_QR_BASE` characters as printed (:func:`games.cards.deck.ascii_base`: a
    non-ASCII host is IDNA-encoded into the QR codes).

    Raises:
        SettingError: setting ``qr_base``, with the value found.
    """
    allowed = "an http:// or https:// URL with a host, e.g. http://192.168.1.20:8765"
    try:
        parts = urlsplit(base)
        parts.port  # noqa: B018 - raises ValueError for a port that is not 0..65535
        valid = (
            parts.scheme in ("http", "https")
            and bool(parts.hostname)
            and not (parts.query or parts.fragment)
            and not any(ch.isspace() for ch in base)
        )
    except ValueError:
        valid = False
    if not valid and len(base) <= MAX_QR_BASE:
        raise SettingError(setting="qr_base", allowed=allowed, found=base)
    try:
        printed = ascii_base(base) if valid else base
    except UnicodeError:
        raise SettingError(
            setting="qr_base",
            allowed="a host name of labels of 1..63 characters (IDNA)",
            found=base,
        ) from None
    if len(printed) > MAX_QR_BASE:
        raise SettingError(
            setting="qr_base",
            allowed=f"a URL of at most {MAX_QR_BASE} characters (the QR codes grow with it)",
            found=len(printed),
            unit="characters",
        )


@dataclass(frozen=True, kw_only=True)
class Back:
    """What goes on the back of a printed card.

    Attributes:
        kind: ``side`` (the card's bot side), ``image`` or ``generated``.
        image: the image file for ``image``.
        colour: background of a generated back.
        text: words of a generated back.
    """

    kind: str
    image: Path | None = None
    colour: str = "#22313f"
    text: str = ""


@dataclass(frozen=True, kw_only=True)
class Placement:
    """One drawn card face, for reports and tests.

    Attributes:
        file: which output file (0 = main, 1 = backs file).
        page: 1-based page number within that file.
        slot: slot index on the page.
        card_id: the card's id.
        side: ``front``, ``bot`` (a character's bot side printed as a front) or ``back``.
        trim: trim box on the page, mm, before any back adjustment.
    """

    file: int
    page: int
    slot: int
    card_id: str
    side: str
    trim: Rect


@dataclass(frozen=True, kw_only=True)
class RenderResult:
    """What :func:`render_deck` wrote.

    Attributes:
        files: the PDF files written (main first).
        pages: page count per file.
        placements: every card face drawn.
        layouts: the sheet layout per card size used.
        cut_files: the cut lines (SVG, then DXF, of each :class:`CutFile`), with a cutter.
        warnings: one line each, e.g. a back moved off the paper by the back adjustment.
    """

    files: tuple[Path, ...]
    pages: tuple[int, ...]
    placements: tuple[Placement, ...]
    layouts: tuple[SheetLayout, ...]
    cut_files: tuple[Path, ...] = ()
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class CutFile:
    """One pair of cut files (SVG and DXF) and the sheets it is for.

    Attributes:
        svg: ``<stem>-cut.svg``; ``-cut-88x126.svg`` when the deck prints cards of several
            sizes; ``-cut-sheet07.svg`` (after the size) for a last sheet that is not full.
        dxf: the same name ending in ``.dxf``.
        layout: the sheet layout.
        cards: the cards each of its sheets holds (the first slots, in order).
        sheets: the sheet numbers (1-based, as in the sheet headings) it cuts.
    """

    svg: Path
    dxf: Path
    layout: SheetLayout
    cards: int
    sheets: tuple[int, ...]


def cut_files(out: Path, groups: list[tuple[SheetLayout, int]]) -> list[CutFile]:
    """The cut files of ``out`` for sheet groups of (layout, cards): one for the full sheets
    of each card size, and one for a last sheet that is not full, outlining only its cards."""
    files = []
    sheet = 0
    for layout, count in groups:
        size = f"-{layout.spec.card.width:g}x{layout.spec.card.height:g}" if len(groups) > 1 else ""
        full, rest = divmod(count, layout.per_page)
        if full:
            name = f"{out.stem}-cut{size}"
            sheets = tuple(range(sheet + 1, sheet + full + 1))
            files.append(_cut_file(out, name, layout, layout.per_page, sheets))
        sheet += full
        if rest:
            sheet += 1
            name = f"{out.stem}-cut{size}" + (f"-sheet{sheet:02d}" if full else "")
            files.append(_cut_file(out, name, layout, rest, (sheet,)))
    return files


def _cut_file(
    out: Path, name: str, layout: SheetLayout, cards: int, sheets: tuple[int, ...]
) -> CutFile:
    return CutFile(
        svg=out.with_name(name + ".svg"),
        dxf=out.with_name(name + ".dxf"),
        layout=layout,
        cards=cards,
        sheets=sheets,
    )


@dataclass(frozen=True, kw_only=True)
class _Item:
    card: Card
    side: str
    back: Back | None


def _back_of(card: Card, deck: Deck, base_dir: Path) -> Back:
    if len(card.SIDES) > 1:
        return Back(kind="side")
    if card.back_image:
        return Back(kind="image", image=base_dir / card.back_image)
    if deck.back.image:
        return Back(kind="image", image=base_dir / deck.back.image)
    colour = card_game(card).back_colour(card) or deck.back.colour
    return Back(kind="generated", colour=colour, text=deck.back.text or game_title(deck.game))


def _items(deck: Deck, options: RenderOptions, base_dir: Path) -> list[_Item]:
    items = []
    for card in deck.cards:
        for _ in range(card.copies):
            if options.duplex is Duplex.NONE:
                items.append(_Item(card=card, side="front", back=None))
                items.extend(_Item(card=card, side=side, back=None) for side in card.SIDES[1:])
            else:
                items.append(_Item(card=card, side="front", back=_back_of(card, deck, base_dir)))
    return items


@lru_cache(maxsize=256)
def _form_name(back: Back, size: CardSize, bleed: float, deck_title: str) -> str:
    key = f"{back.colour}|{back.text}|{deck_title}|{size.width}|{size.height}|{bleed}"
    return "back" + hashlib.sha1(key.encode()).hexdigest()[:12]


def new_canvas(path: Path, title: str, duplex: Duplex) -> BackgroundCanvas:
    """A ReportLab canvas with embedded fonts, invariant output and no-scaling viewer prefs,
    its pages compressed on a worker thread and given page boxes
    (:class:`printables.pdfcanvas.BackgroundCanvas`)."""
    from reportlab import rl_config

    from printables.pdfcanvas import BackgroundCanvas

    register_fonts()
    rl_config.useA85 = 0  # binary compressed streams: smaller and faster than ASCII85
    c = BackgroundCanvas(
        str(path), invariant=True, pageCompression=1, initialFontName=REGULAR, initialFontSize=8
    )
    c.setTitle(title)
    c.setCreator("Tablesmith")
    c.setViewerPreference("PrintScaling", "None")
    c.setViewerPreference("Duplex", VIEWER_DUPLEX[duplex])
    return c


def apply_scale(c: Canvas, page_width: float, page_height: float, scale: PrintScale) -> None:
    """Put :class:`printables.duplex.PrintScale` on the canvas: scale about the page centre
    (page mm; see :func:`printables.duplex.scale_point`)."""
    if scale.identity:
        return
    cx, cy = page_width / 2 * MM, page_height / 2 * MM
    c.translate(cx, cy)
    c.scale(scale.x, scale.y)
    c.translate(-cx, -cy)


def _apply_adjust(c: Canvas, layout: SheetLayout, adjust: BackAdjust) -> None:
    """Back-page transform = :func:`printables.duplex.adjust_point` (rotate, then shift)."""
    cx, cy = layout.page_width / 2 * MM, layout.page_height / 2 * MM
    c.translate(adjust.dx * MM, adjust.dy * MM)
    c.translate(cx, cy)
    c.rotate(adjust.rotation_deg)
    c.translate(-cx, -cy)


@dataclass(kw_only=True)
class _Job:
    deck: Deck
    options: RenderOptions
    base_dir: Path
    problems: list[Overflow] = field(default_factory=list)
    overlaps: list[str] = field(default_factory=list)
    placements: list[Placement] = field(default_factory=list)
    forms: set[str] = field(default_factory=set)

    def url(self, card: Card) -> str | None:
        if not (self.options.qr and card.qr):
            return None
        return card_url(self.options.qr_base, self.deck.game, self.deck.slug, card.id)

    def prefetch(self, items: list[_Item]) -> Prefetch:
        """The QR codes of ``items``, encoded in the background while the pages are drawn."""
        codes = (self.url(item.card) for item in items)
        return Prefetch(url for url in codes if url)

    def image(self, card: Card) -> Path | None:
        return self.base_dir / card.image if card.image else None

    def face(self, c: Canvas, trim: Rect, card: Card, side: str) -> None:
        painter = Painter(
            canvas=c,
            trim=trim,
            bleed=self.options.bleed,
            card_name=card.name,
            problems=self.problems,
            warnings=self.overlaps,
        )
        c.saveState()
        standard_face(
            painter,
            face_content(card, side=side),
            image=self.image(card),
            qr_url=self.url(card),
            edge=self.deck.colour,
        )
        c.restoreState()

    def define_forms(self, c: Canvas, items: list[_Item]) -> None:
        """Generated backs as form XObjects, defined before the first page is drawn."""
        bleed = self.options.bleed
        for item in items:
            back = item.back
            if back is None or back.kind != "generated":
                continue
            size = self.options.size_of(item.card)
            name = _form_name(back, size, bleed, self.deck.title)
            if name in self.forms:
                continue
            self.forms.add(name)
            c.beginForm(
                name,
                -bleed * MM,
                -bleed * MM,
                (size.width + bleed) * MM,
                (size.height + bleed) * MM,
            )
            painter = Painter(
                canvas=c,
                trim=Rect(x=0, y=0, width=size.width, height=size.height),
                bleed=bleed,
                card_name="(deck back)",
                problems=self.problems,
            )
            draw_generated_back(
                painter, colour=back.colour, text=back.text, subtitle=self.deck.title
            )
            c.endForm()

    def back(self, c: Canvas, trim: Rect, item: _Item) -> None:
        back = item.back
        assert back is not None
        if back.kind == "side":
            self.face(c, trim, item.card, item.card.SIDES[-1])
            return
        bleed = self.options.bleed
        if back.kind == "image":
            assert back.image is not None
            box = trim.inset(-bleed)
            art = prepare_image(back.image, cover_mm=(box.width, box.height))  # upright, sRGB
            art.draw(c, box.x * MM, box.y * MM, box.width * MM, box.height * MM)
            return
        name = _form_name(back, self.options.size_of(item.card), bleed, self.deck.title)
        c.saveState()
        c.translate(trim.x * MM, trim.y * MM)
        c.doForm(name)
        c.restoreState()


def _groups(items: list[_Item], options: RenderOptions) -> list[tuple[CardSize, list[_Item]]]:
    groups: dict[tuple[float, float], tuple[CardSize, list[_Item]]] = {}
    for item in items:
        size = options.size_of(item.card)
        groups.setdefault((size.width, size.height), (size, []))[1].append(item)
    return list(groups.values())


def pdf_title(deck: Deck) -> str:
    """The title of a deck's PDF: ``<deck title> (<game>)``."""
    return f"{deck.title} ({game_title(deck.game)})"


def backs_path(out: Path) -> Path:
    """The backs file of ``out`` for duplex ``separate``: ``<stem>-backs.pdf``."""
    return out.with_name(out.stem + "-backs" + out.suffix)


def _front_page(
    job: _Job,
    front: Canvas,
    layout: SheetLayout,
    chunk: list[_Item],
    heading: list[str],
    page: int,
    *,
    cut: bool,
) -> None:
    """Draw one sheet of fronts (page ``page`` of file 0) with its furniture and crop marks;
    ``cut``: the sheet has a cut file (its registration marks go into the furniture)."""
    options = job.options
    filled = range(len(chunk))  # a last sheet's empty slots get no marks
    marked = marks_for_cards(layout, filled)
    front.setPageSize((layout.page_width * MM, layout.page_height * MM))
    front.saveState()
    apply_scale(front, layout.page_width, layout.page_height, options.scale)
    draw_furniture(front, marked, heading, (-1, 0) if cut else (0,))
    for slot, item in zip(layout.slots, chunk, strict=False):
        job.face(front, slot.trim, item.card, item.side)
        job.placements.append(
            Placement(
                file=0,
                page=page,
                slot=slot.index,
                card_id=item.card.id,
                side=item.side,
                trim=slot.trim,
            )
        )
    draw_marks_on_art(front, marked, filled)  # crop marks moved onto the bleed
    front.restoreState()
    boxes = sheet_boxes(layout, options.scale)
    front.set_page_boxes(trim=boxes.trim, bleed=boxes.bleed)
    front.showPage()


def _back_page(
    job: _Job,
    back: Canvas,
    layout: SheetLayout,
    chunk: list[_Item],
    heading: list[str],
    where: tuple[int, int],
    over: dict[int, Overreach],
    warned: dict[str, str],
    sheet: int,
) -> None:
    """Draw the backs of one sheet (``where``: file index and page number), mirrored for the
    duplex mode and shifted by the back adjustment; a back pushed off the paper or into the
    unprintable border adds a warning per card to ``warned`` (``over``: the slots that are)."""
    options = job.options
    index, page = where
    separate = options.duplex is Duplex.SEPARATE
    back.setPageSize((layout.page_width * MM, layout.page_height * MM))
    left_right = mirrors_left_right(options.duplex, options.landscape)
    back.saveState()
    apply_scale(back, layout.page_width, layout.page_height, options.scale)
    draw_heading(back, layout, heading, (0,))
    _apply_adjust(back, layout, options.adjust)
    for slot, item in zip(layout.slots, chunk, strict=False):
        target = layout.slots[back_slot_index(layout, slot.index, left_right=left_right)]
        job.back(back, target.trim, item)
        reach = over.get(target.index)
        if reach is not None and item.card.id not in warned:
            where_words = (
                "off the paper"
                if reach.off_paper
                else (f"into the {options.page_margin:g} mm unprintable border")
            )
            warned[item.card.id] = (
                f"the back offset/rotation moves the back of card '{item.card.name}' "
                f"(sheet {sheet}) {reach.distance:.1f} mm {where_words} at the {reach.side}"
            )
        job.placements.append(
            Placement(
                file=index,
                page=page,
                slot=target.index,
                card_id=item.card.id,
                side="back",
                trim=target.trim,
            )
        )
    if separate:  # a backs sheet of its own is cut from its own marks, beside its backs only
        filled = [back_slot_index(layout, i, left_right=left_right) for i in range(len(chunk))]
        marks = marks_for_cards(layout, filled).crop_marks
        draw_marks(back, [*marks, *inner_marks(layout, filled)])
    back.restoreState()
    boxes = sheet_boxes(layout, options.scale, options.adjust)
    back.set_page_boxes(trim=boxes.trim, bleed=boxes.bleed)
    back.showPage()


def render_deck(
    deck: Deck, options: RenderOptions, out: Path, *, base_dir: Path = Path(".")
) -> RenderResult:
    """Write the print-and-play PDF(s) of ``deck``.

    Args:
        deck: a validated deck.
        options: paper, sizes, duplex, QR settings.
        out: the PDF to write; with duplex ``separate`` also :func:`backs_path` of it.
        base_dir: folder that relative image paths of the deck are resolved against.

    Returns:
        What was written, with every card placement.

    Raises:
        RenderError: texts that do not fit or glyphs that are missing (all of them); nothing
            is written then.
        LayoutError: a card size does not fit the paper.
        SettingError: ``options.layout`` is not ``sheet`` (one card per page is
            :func:`printables.single.render_single`).
        printables.outputs.OutputError: a cut file's name is taken by a file of another kind.
    """
    job = _Job(deck=deck, options=options, base_dir=base_dir)
    items = _items(deck, options, base_dir)
    if options.layout != "sheet":
        raise SettingError(
            setting="layout",
            allowed="sheet (printables.single renders the others)",
            found=options.layout,
        )
    groups = [(layout_sheet(options.sheet(size)), group) for size, group in _groups(items, options)]
    separate = options.duplex is Duplex.SEPARATE
    pdfs = [out, backs_path(out)] if separate else [out]
    plan = (
        cut_files(out, [(layout, len(group)) for layout, group in groups])
        if options.cutter != "none"
        else []
    )
    cuts = [path for cut in plan for path in (cut.svg, cut.dxf)]
    cut_of = {sheet: cut for cut in plan for sheet in cut.sheets}
    for cut in cuts:
        check_target(cut)
    paths = pdfs + cuts
    title = pdf_title(deck)
    with atomic_outputs(paths) as temps, job.prefetch(items):
        front = new_canvas(temps[0], title, options.duplex)
        back = new_canvas(temps[1], title + " - backs", options.duplex) if separate else front
        job.define_forms(back, items)
        pages = [0, 0]
        total = sum(-(-len(group) // layout.per_page) for layout, group in groups)
        sheet = 0
        warned: dict[str, str] = {}
        for layout, group in groups:
            size = layout.spec.card
            over = (
                {o.slot: o for o in back_overreach(layout, options.adjust)}
                if options.duplex is not Duplex.NONE
                else {}
            )
            for start in range(0, len(group), layout.per_page):
                sheet += 1
                chunk = group[start : start + layout.per_page]
                heading = [
                    title,
                    f"sheet {sheet}/{total} fronts",
                    f"{size.width:g} x {size.height:g} mm",
                    options.paper,
                ]
                if (marks := marks_for(options.cutter)) is not None:
                    heading.append(marks.studio_settings())
                if sheet in cut_of:
                    heading.append(f"cut file {cut_of[sheet].svg.name}")
                pages[0] += 1
                _front_page(job, front, layout, chunk, heading, pages[0], cut=sheet in cut_of)
                if options.duplex is Duplex.NONE:
                    continue
                index = 1 if separate else 0
                pages[index] += 1
                _back_page(
                    job,
                    back,
                    layout,
                    chunk,
                    [title, f"sheet {sheet}/{total} backs"],
                    (index, pages[index]),
                    over,
                    warned,
                    sheet,
                )
        if job.problems:
            raise RenderError(job.problems)
        front.save()
        if separate:
            back.save()
        for index, sheet_cut in enumerate(plan):
            svg = svg_text(sheet_cut.layout, cards=sheet_cut.cards)
            temps[len(pdfs) + 2 * index].write_text(svg, encoding="utf-8")
            write_dxf(sheet_cut.layout, temps[len(pdfs) + 2 * index + 1], cards=sheet_cut.cards)
    return RenderResult(
        files=tuple(pdfs),
        pages=tuple(pages[: len(pdfs)]),
        placements=tuple(job.placements),
        layouts=tuple(layout for layout, _ in groups),
        cut_files=tuple(cuts),
        warnings=tuple(warned.values()) + tuple(dict.fromkeys(job.overlaps)),
    )


__all__ = [
    "DEFAULT_QR_BASE",
    "LayoutError",
    "RenderError",
    "RenderOptions",
    "RenderResult",
    "atomic_outputs",
    "backs_path",
    "draw_furniture",
    "render_deck",
]
