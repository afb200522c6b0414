"""The work of ``tablesmith cards``: options checked, then the calibration sheet or a deck's
sheets, the cut files and the PNG previews written, each line of what happened told.

``tablesmith.py`` parses the options into a :class:`CardsRequest`, runs :class:`CardsRun`
and words the errors (:mod:`printables.cliwords`); a problem this module finds in an option
itself is a :class:`CardsProblem`, already worded as the one line the user sees. Every
option is checked before anything is rendered; a failed run leaves no file and no folder.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from printables.cliwords import short, size_message
from printables.cutter import Cutter

Say = Callable[[str, bool], None]
"""Tell one line to the user: ``(line, to_stderr)``."""


class CardsProblem(ValueError):
    """An option or output of ``tablesmith cards`` that cannot be used; the message is the
    one line shown (it names the option)."""


@dataclass(frozen=True, kw_only=True)
class CardsRequest:
    """The options of ``tablesmith cards`` as typed (see its ``--help`` for each).

    Attributes:
        deckfile: a .yaml/.csv deck file or ``demo:NAME``, or None.
        out: the PDF to write, or None for the default name.
        paper, landscape, bleed, gutter, page_margin, crop_marks, qr, qr_base: the sheets.
        card_size, character_size: size names or ``WxH`` in mm, or None.
        duplex, back_offset, back_rotation, print_scale: back-page settings as typed, or None
            for the printer profile's.
        printer: a saved printer profile's name, or None.
        save_profile: save the duplex settings under this name, or None.
        png_dir, png_dpi: PNG previews of every page.
        cutter: a :class:`~printables.cutter.Cutter` value.
        layout: ``sheet``, ``single`` or ``single-back-first``.
        calibration: write the duplex calibration sheet instead of a deck.
        list_demos: only list the demo decks.
    """

    deckfile: str | None = None
    out: Path | None = None
    paper: str = "a4"
    landscape: bool = False
    card_size: str | None = None
    character_size: str | None = None
    bleed: float = 0.0
    gutter: float = 0.0
    page_margin: float = 5.0
    crop_marks: bool = True
    duplex: str | None = None
    back_offset: str | None = None
    back_rotation: float | None = None
    print_scale: str | None = None
    printer: str | None = None
    save_profile: str | None = None
    qr: bool = True
    qr_base: str = "http://tablesmith.local:8765"
    png_dir: Path | None = None
    png_dpi: int = 150
    cutter: str = Cutter.NONE.value
    layout: str = "sheet"
    calibration: bool = False
    list_demos: bool = False


def pair(text: str, option: str, example: str) -> tuple[float, float]:
    """Parse an ``A,B`` option value into two finite numbers (``--back-offset 0.5,-1.2``).

    Raises:
        CardsProblem: not two finite numbers (the message names ``option`` and ``example``).
    """
    try:
        first, second = (float(part) for part in text.split(","))
    except ValueError:
        first = second = float("nan")
    if not (math.isfinite(first) and math.isfinite(second)):
        raise CardsProblem(f"{option} must be {example}, got {short(text)}") from None
    return first, second


def print_scale(text: str) -> Any:
    """``--print-scale X,Y`` as a :class:`printables.duplex.PrintScale`.

    Raises:
        CardsProblem: not two numbers within :data:`printables.duplex.SCALE_LIMITS`.
    """
    from printables.duplex import SCALE_LIMITS, PrintScale
    from printables.layout import SettingError

    low, high = SCALE_LIMITS
    x, y = pair(text, "--print-scale", f"X,Y, each {low:g}..{high:g} (e.g. 1.004,0.998)")
    try:
        return PrintScale(x=x, y=y)
    except SettingError as exc:
        axis = exc.setting[-1].upper()
        raise CardsProblem(
            f"--print-scale {axis} must be {exc.allowed}, got {exc.found_text}"
        ) from None


class Writing:
    """Report an output that cannot be written as ``<option>: <why>`` (a context manager
    raising :class:`CardsProblem`).

    With ``target``, a system error that names no file (a full disk while the PDF is written)
    is reported as ``<option>: cannot write <target>: <why>``.
    """

    def __init__(self, option: str, target: Path | None = None) -> None:
        self.option = option
        self.target = target

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, exc: BaseException | None, trace: object) -> None:
        from printables.outputs import OutputError, os_reason, shown

        if isinstance(exc, OutputError):
            raise CardsProblem(f"{self.option}: {exc}") from None
        if isinstance(exc, OSError) and not exc.filename and self.target is not None:
            raise CardsProblem(
                f"{self.option}: cannot write {shown(self.target)}: {os_reason(exc)}"
            ) from None


@dataclass(frozen=True, kw_only=True)
class _Backs:
    """The back-page settings of a run: the request's, else the printer profile's."""

    mode: Any  # printables.duplex.Duplex
    adjust: Any  # printables.duplex.BackAdjust
    scale: Any  # printables.duplex.PrintScale


class CardsRun:
    """One run of ``tablesmith cards``.

    Attributes:
        source: the deck as its problems name it (the file as read, once it is read), for
            the caller's wording of a :class:`printables.render.RenderError`.
    """

    def __init__(self, request: CardsRequest, say: Say) -> None:
        self.request = request
        self.say = say
        self.source = request.deckfile or ""

    def run(self) -> None:
        """Do what the request asks: list the demos, save a profile, write the calibration
        sheet or the deck's sheets, and the previews; tell each file written.

        Raises:
            CardsProblem: an option or output that cannot be used (worded).
            printables.layout.SettingError, printables.layout.DoesNotFitError,
            printables.render.RenderError, ValueError, OSError: for the caller to word.
        """
        from printables import deckfile as decks
        from printables.profiles import PrinterProfile
        from printables.profiles import save_profile as store

        request = self.request
        if request.list_demos:
            for name in decks.demo_names():
                self.say(f"demo:{name}", False)
            return
        backs = self.backs()
        self.check_options()
        sizes = self.sizes()
        # the render options are checked before a profile is saved
        options = (
            self.options(backs, sizes)
            if not request.calibration and request.deckfile is not None
            else None
        )
        if request.save_profile:
            path = store(
                request.save_profile,
                PrinterProfile(duplex=backs.mode, adjust=backs.adjust, scale=backs.scale),
            )
            self.say(f"saved printer profile {request.save_profile!r} to {path}", False)
            if request.deckfile is None and not request.calibration:
                return
        files = self.calibration(backs) if request.calibration else self.deck(backs, options)
        self.previews(files)

    def backs(self) -> _Backs:
        """The duplex mode, back offset/rotation and print scale: the request's, else the
        printer profile's.

        Raises:
            CardsProblem: ``--duplex``, ``--back-offset`` or ``--print-scale`` is no such value.
        """
        from printables.duplex import BackAdjust, Duplex
        from printables.profiles import PrinterProfile, load_profile

        request = self.request
        profile = load_profile(request.printer) if request.printer else PrinterProfile()
        offset = (
            None
            if request.back_offset is None
            else pair(request.back_offset, "--back-offset", "DX,DY in mm (e.g. 0.5,-1.2)")
        )
        duplex = request.duplex
        if duplex is not None and duplex.strip().lower() not in {d.value for d in Duplex}:
            raise CardsProblem(
                f"--duplex must be one of {', '.join(d.value for d in Duplex)}, got {short(duplex)}"
            )
        rotation = request.back_rotation
        return _Backs(
            mode=Duplex(duplex.strip().lower()) if duplex else profile.duplex,
            adjust=BackAdjust(
                dx=offset[0] if offset else profile.adjust.dx,
                dy=offset[1] if offset else profile.adjust.dy,
                rotation_deg=profile.adjust.rotation_deg if rotation is None else rotation,
            ),
            scale=print_scale(request.print_scale)
            if request.print_scale is not None
            else profile.scale,
        )

    def check_options(self) -> None:
        """The preview options, and the cutter's extra where a cutter is asked for.

        Raises:
            CardsProblem: ``--png``/``--png-dpi`` unusable, or the cutter extra is missing.
        """
        from printables.preview import check_preview_options

        request = self.request
        with Writing("--png"):
            check_preview_options(request.png_dir, request.png_dpi)
        if request.cutter.lower() != Cutter.NONE and not request.calibration:
            from printables.cutter import MissingExtraError, require_dxf

            try:
                require_dxf()
            except MissingExtraError as exc:
                raise CardsProblem(str(exc)) from None

    def sizes(self) -> dict[str, Any]:
        """``--card-size`` and ``--character-size`` as card sizes (None: the default).

        Raises:
            CardsProblem: a size that is no size or out of range.
        """
        from printables.layout import SettingError, parse_card_size

        sizes: dict[str, Any] = {}
        request = self.request
        for option, text in (
            ("--card-size", request.card_size),
            ("--character-size", request.character_size),
        ):
            try:
                sizes[option] = parse_card_size(text) if text else None
            except SettingError as exc:
                raise CardsProblem(size_message(option, text or "", exc)) from None
        return sizes

    def options(self, backs: _Backs, sizes: dict[str, Any]) -> Any:
        """The render options (:class:`printables.render.RenderOptions`) of the request."""
        from printables.render import RenderOptions

        request = self.request
        return RenderOptions(
            paper=request.paper,
            landscape=request.landscape,
            bleed=request.bleed,
            gutter=request.gutter,
            page_margin=request.page_margin,
            crop_marks=request.crop_marks,
            duplex=backs.mode,
            adjust=backs.adjust,
            scale=backs.scale,
            qr=request.qr,
            qr_base=request.qr_base,
            card_size=sizes["--card-size"],
            character_size=sizes["--character-size"],
            cutter=request.cutter.lower(),
            layout=request.layout.lower(),
        )

    def calibration(self, backs: _Backs) -> tuple[Path, ...]:
        """Write the duplex calibration sheet; returns the PDFs written."""
        from printables.calibration import render_calibration
        from printables.duplex import Duplex
        from printables.outputs import check_pdf_target
        from printables.render import backs_path

        request = self.request
        target = request.out or Path("calibration.pdf")
        with Writing("--out"):
            for file in (
                (target, backs_path(target)) if backs.mode is Duplex.SEPARATE else (target,)
            ):
                check_pdf_target(file)
            return tuple(
                render_calibration(
                    target,
                    paper=request.paper,
                    landscape=request.landscape,
                    duplex=backs.mode,
                    adjust=backs.adjust,
                    scale=backs.scale,
                )
            )

    def deck(self, backs: _Backs, options: Any) -> tuple[Path, ...]:
        """Read the deck, tell its warnings, write its sheets (and cut files and Cricut
        images); returns the PDFs written.

        Args:
            backs: the back-page settings.
            options: the render options (:meth:`options`), None when no deck is given.

        Raises:
            CardsProblem: no deck given, or an output that cannot be written.
        """
        from printables import deckfile as decks
        from printables.duplex import Duplex
        from printables.layout import MIN_SAFE_PAGE_MARGIN
        from printables.outputs import check_pdf_target, glob_escape
        from printables.preview import check_existing, write_cricut_images
        from printables.render import backs_path, render_deck
        from printables.single import render_single
        from printables.summary import sheet_summary

        request, say = self.request, self.say
        deckfile = request.deckfile
        if deckfile is None or options is None:
            raise CardsProblem(
                "give a DECKFILE (.yaml/.csv or demo:NAME), --calibration or --list-demos"
            )
        target = request.out or Path(Path(deckfile.removeprefix("demo:")).stem + ".pdf")
        protect = [] if deckfile.startswith(decks.DEMO_PREFIX) else [Path(deckfile)]
        with Writing("--out"):
            for file in (
                (target, backs_path(target)) if backs.mode is Duplex.SEPARATE else (target,)
            ):
                check_pdf_target(file, protect=protect)
            if request.cutter.lower() == Cutter.CRICUT:
                check_existing(target.parent, f"{glob_escape(target.stem)}-cricut-p*.png")
        if request.png_dir is not None:
            with Writing("--png"):
                for file in (target, backs_path(target)):
                    check_existing(request.png_dir, f"{glob_escape(file.stem)}-p*.png")
        loaded = decks.read_deck(deckfile)
        self.source = loaded.source
        for note in loaded.notes:
            say(f"warning: {note}", True)
        for problem in loaded.deck.legality_problems():
            say(f"warning: {loaded.source}: {problem}", True)
        for line in decks.literal_line_breaks(loaded):
            say(f"warning: {line}", True)
        if request.page_margin < MIN_SAFE_PAGE_MARGIN:
            say(
                f"warning: --page-margin {request.page_margin:g} mm: most printers cannot print "
                f"within about {MIN_SAFE_PAGE_MARGIN:g} mm of the paper edge; crop marks "
                "and card edges there may be missing",
                True,
            )
        with Writing("--out", target):
            render = render_deck if options.layout == "sheet" else render_single
            result = render(loaded.deck, options, target, base_dir=loaded.base_dir)
        for line in result.warnings:
            say(f"warning: {line}", True)
        for line, to_stderr in sheet_summary(result, options):
            say(line, to_stderr)
        for file in result.cut_files:
            say(f"wrote {file}", False)
        if options.cutter == Cutter.CRICUT:
            with Writing("--out"):
                for png in write_cricut_images(result.files[0], result, dpi=300):
                    say(f"wrote {png}", False)
        return tuple(result.files)

    def previews(self, files: tuple[Path, ...]) -> None:
        """Tell each PDF written and write its PNG previews (``--png``)."""
        from printables.preview import QR_DPI, write_previews

        request, say = self.request, self.say
        png_dir = request.png_dir
        if (
            png_dir is not None
            and request.qr
            and request.png_dpi < QR_DPI
            and not request.calibration
        ):
            say(
                f"note: --png-dpi {request.png_dpi}: the QR codes in the previews may not decode "
                f"below {QR_DPI} dpi (the PDF's do)",
                True,
            )
        for file in files:
            say(f"wrote {file}", False)
            if png_dir is not None:
                with Writing("--png"):
                    for png in write_previews(file, png_dir, dpi=request.png_dpi):
                        say(f"wrote {png}", False)
