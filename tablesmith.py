"""Tablesmith command line: the composition root.

Every command imports its heavy machinery (CadQuery, ReportLab, Flask) inside its own body, so
``tablesmith --help`` starts fast and never imports CadQuery. Errors in what the user typed are
one line on stderr naming the option, with exit code 2 and no traceback.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import click

from printables.cliwords import CARD_OPTIONS, one_line
from printables.cutter import Cutter
from printables.layout import CARD_SIZES, PAPER_SIZES

_PAPERS = ", ".join(PAPER_SIZES)
"""The paper sizes in words (``a4, letter, a3``), from the preset table."""
_SIZES = ", ".join(CARD_SIZES)
"""The card size presets in words, from the preset table."""


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tablesmith")
def cli() -> None:
    """Tablesmith: print the pieces, print the cards, keep score at the table."""


def _fail(message: str) -> None:
    """Print a one-line error and exit with code 2."""
    click.echo(f"tablesmith: error: {message}", err=True)
    sys.exit(2)


def _build_options(command: Any) -> Any:
    """Attach the kit's settings (:data:`cad.options.BUILD_OPTIONS`, the one definition the
    print shop's form uses too) to ``command`` as click options, in that order."""
    from cad.options import BUILD_OPTIONS

    for option in reversed(BUILD_OPTIONS):
        kinds: dict[str, dict[str, Any]] = {
            "float": {"type": float, "show_default": True},
            "int": {"type": int, "show_default": True},
            "text": {"show_default": True},
            "colour": {"show_default": True},
            "choice": {"type": click.Choice(option.choices)},
            "flag": {"is_flag": True},
        }
        kind = kinds[option.kind]
        default = {} if option.kind == "choice" else {"default": option.default}
        command = click.option(option.flag, help=option.help, **default, **kind)(command)
    return command


@cli.command()
@click.argument("game", default="asteroids", metavar="[GAME]")
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Output folder [default: ./build/GAME]. Replaced as a whole when the new kit is complete.",
)
@_build_options
@click.option(
    "--preview/--no-preview",
    default=True,
    show_default=True,
    help="Render PNG previews of parts and plates.",
)
@click.option(
    "--cache/--no-cache",
    default=True,
    show_default=True,
    help="Reuse a finished kit built with the same settings and generator version.",
)
@click.option("-q", "--quiet", is_flag=True, help="Print only the summary, no progress.")
def build(
    game: str,
    out: Path | None,
    preview: bool,
    cache: bool,
    quiet: bool,
    **values: Any,
) -> None:
    """Generate the print kit of GAME (STL, 3MF plates, previews, manifest, print notes)."""
    started = time.perf_counter()
    from cad.options import KIT_GAMES
    from games.registry import CARD_GAMES

    # the game first: a card game needs no kit install to be told it has no pieces
    if game not in KIT_GAMES:
        hint = (
            f"{game} has no printed pieces; print its cards with `tablesmith cards demo:{game}` "
            "or your own deck file"
            if game in CARD_GAMES
            else f"allowed: {', '.join(KIT_GAMES)}, got {game!r}"
        )
        _fail(f"GAME: {hint}")
    missing = _missing_kit_libraries()
    if missing:
        _fail(
            f"build needs the print-kit extra ({', '.join(missing)} missing): "
            "pip install 'tablesmith[kit]'  (from a checkout: pip install -r requirements/kit.txt)"
        )
    from cad.jobs import HelperDied
    from cad.kit import build_kit, default_cache_dir
    from cad.options import settings_from
    from cad.outdir import write_failure
    from cad.settings import OptionError
    from cad.summary import kit_summary

    target = out if out is not None else Path("build") / game
    try:
        settings = settings_from(values)
        manifest = build_kit(
            settings,
            target,
            previews=preview,
            cache_dir=default_cache_dir() if cache else None,
            progress=(lambda _m: None) if quiet else (lambda m: click.echo(m, err=True)),
        )
    except OptionError as exc:
        _fail(str(exc))
        return
    except HelperDied as exc:
        _fail(str(exc))
        return
    except OSError as exc:  # the disk filled up, the folder went away: nothing was replaced
        _fail(f"--out: cannot write the kit to {target}: {write_failure(exc, target)}")
        return
    for line in kit_summary(manifest, target, time.perf_counter() - started, settings):
        click.echo(line)
    global _SKIP_TEARDOWN
    _SKIP_TEARDOWN = True


KIT_LIBRARIES = {"OCP": "cadquery-ocp", "lib3mf": "lib3mf", "numpy": "numpy", "PIL": "pillow"}
"""Modules the print kit imports, and the distributions of the ``kit`` extra that have them."""


def _missing_kit_libraries() -> list[str]:
    """The ``kit`` extra's distributions whose modules cannot be found (without importing)."""
    import importlib.util

    missing = []
    for module, distribution in KIT_LIBRARIES.items():
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a broken or blocked module counts as missing
            found = False
        if not found:
            missing.append(distribution)
    return missing


_SKIP_TEARDOWN = False
"""Set by a finished ``build``: everything is written and the helper process has ended, so the
console entry point leaves without the interpreter's teardown of the CAD kernel (which takes
a noticeable part of a short build; benchmarks/asteroids_build.py measures it)."""


def _terminate(signum: int, _frame: object) -> None:
    """SIGTERM: unwind like Ctrl-C, so every ``finally`` removes its half-written output."""
    raise KeyboardInterrupt(f"signal {signum}")


def main() -> None:
    """Console entry point: run the CLI with one-line usage errors (exit code 2).

    Ctrl-C and SIGTERM end the run with exit code 130 after the commands have removed whatever
    they had half-written.
    """
    signal.signal(signal.SIGTERM, _terminate)
    try:
        cli.main(standalone_mode=False)
        if _SKIP_TEARDOWN:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(0)
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("tablesmith: interrupted; nothing half-written was left in place", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        _fail(exc.format_message())


class CommandError(click.ClickException):
    """A user error: printed as one line ``Error: ...``, exit code 2, no traceback."""

    exit_code = 2


@cli.command(context_settings={"show_default": True})
@click.argument("deckfile", required=False)
@click.option(
    "--out",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    help="PDF to write (must end in .pdf) [default: <deck>.pdf, or calibration.pdf].",
)
@click.option("--paper", default="a4", help=f"Paper size: {_PAPERS}.")
@click.option("--landscape", is_flag=True, help="Landscape sheets.")
@click.option(
    "--card-size",
    help=f"Standard cards: {_SIZES} or WxH in mm, each side 20..300 [default: tcg 63x88].",
)
@click.option(
    "--character-size",
    help="Transformers characters, as --card-size [default: tf-character 88x126].",
)
@click.option("--bleed", type=float, default=0.0, help="Bleed per side, mm (0..10).")
@click.option("--gutter", type=float, default=0.0, help="Gap between cards, mm (0..30).")
@click.option("--page-margin", type=float, default=5.0, help="Unprintable page border, mm (0..40).")
@click.option("--crop-marks/--no-crop-marks", default=True, help="Crop marks around the grid.")
@click.option(
    "--duplex",
    help="long-edge, short-edge, separate or none [default: the "
    "printer profile's, else long-edge].",
)
@click.option("--back-offset", metavar="DX,DY", help="Shift back pages by DX,DY mm (each -20..20).")
@click.option("--back-rotation", type=float, help="Rotate back pages, degrees CCW (-5..5).")
@click.option(
    "--print-scale",
    metavar="X,Y",
    help="Scale every page by X across and Y down (each 0.95..1.05) for a printer that prints "
    "short or long: 100 / the measured length of --calibration's 100 mm rulers "
    "[default: the printer profile's, else 1,1].",
)
@click.option("--printer", help="Use a saved printer profile (duplex, offset, rotation, scale).")
@click.option(
    "--save-profile",
    metavar="NAME",
    help="Save duplex/offset/rotation/print scale as a printer profile (without DECKFILE: save "
    "and stop).",
)
@click.option("--qr/--no-qr", default=True, help="QR codes linking each card to the companion.")
@click.option(
    "--qr-base",
    default="http://tablesmith.local:8765",
    help="Companion base URL for QR codes: <base>/card/<game>/<deck>/<card>.",
)
@click.option(
    "--png",
    "png_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Also write PNG previews of every page into this folder.",
)
@click.option(
    "--png-dpi",
    type=int,
    default=150,
    help="Resolution of PNG previews (30..600; below 150 their QR codes may not decode).",
)
@click.option(
    "--cutter",
    type=click.Choice([cutter.value for cutter in Cutter], case_sensitive=False),
    default=Cutter.NONE.value,
    help="Lay sheets out for a cutting machine's print-then-cut and write its cut lines "
    "(SVG, DXF; Cricut also PNG images).",
)
@click.option(
    "--layout",
    type=click.Choice(["sheet", "single", "single-back-first"], case_sensitive=False),
    default="sheet",
    help="sheet: cards on sheets of --paper with crop marks. single: one card per page at its "
    "trim size plus --bleed (TrimBox = the card), each front followed by its back, for "
    "print-on-demand shops (use --bleed 3.175); single-back-first: each back before its front "
    "(DriveThruCards).",
)
@click.option("--calibration", is_flag=True, help="Write the duplex calibration sheet.")
@click.option("--list-demos", is_flag=True, help="List the shipped demo decks and stop.")
@click.option(
    "--all-problems",
    is_flag=True,
    help="When the deck has several problems, list every one on a line of its own after the "
    "error line (which shows the first three).",
)
def cards(
    deckfile: str | None,
    out: Path | None,
    paper: str,
    landscape: bool,
    card_size: str | None,
    character_size: str | None,
    bleed: float,
    gutter: float,
    page_margin: float,
    crop_marks: bool,
    duplex: str | None,
    back_offset: str | None,
    back_rotation: float | None,
    print_scale: str | None,
    printer: str | None,
    save_profile: str | None,
    qr: bool,
    qr_base: str,
    png_dir: Path | None,
    png_dpi: int,
    cutter: str,
    layout: str,
    calibration: bool,
    list_demos: bool,
    all_problems: bool,
) -> None:
    """Print-and-play card sheets (PDF) from DECKFILE (.yaml/.csv) or demo:NAME.

    Every option is checked before anything is rendered; a failed run leaves no file and no
    folder behind.
    """
    from printables.cardscommand import CardsProblem, CardsRequest, CardsRun
    from printables.layout import DoesNotFitError, SettingError
    from printables.outputs import os_reason, shown
    from printables.render import RenderError

    run = CardsRun(
        CardsRequest(
            deckfile=deckfile,
            out=out,
            paper=paper,
            landscape=landscape,
            card_size=card_size,
            character_size=character_size,
            bleed=bleed,
            gutter=gutter,
            page_margin=page_margin,
            crop_marks=crop_marks,
            duplex=duplex,
            back_offset=back_offset,
            back_rotation=back_rotation,
            print_scale=print_scale,
            printer=printer,
            save_profile=save_profile,
            qr=qr,
            qr_base=qr_base,
            png_dir=png_dir,
            png_dpi=png_dpi,
            cutter=cutter,
            layout=layout,
            calibration=calibration,
            list_demos=list_demos,
        ),
        lambda line, to_stderr: click.echo(line, err=to_stderr),
    )
    try:
        run.run()
    except CardsProblem as exc:
        raise CommandError(str(exc)) from None
    except SettingError as exc:
        flag = CARD_OPTIONS.get(exc.setting)
        raise CommandError(
            f"{flag} must be {exc.allowed}, got {exc.found_text}" if flag else str(exc)
        ) from None
    except DoesNotFitError as exc:
        raise CommandError(exc.options_hint()) from None
    except RenderError as exc:
        raise CommandError(
            one_line(
                ValueError("\n".join(f"{run.source}: {problem}" for problem in exc.problems)),
                every=all_problems,
            )
        ) from None
    except ValueError as exc:
        raise CommandError(one_line(exc, every=all_problems)) from None
    except OSError as exc:
        where = f"{shown(Path(exc.filename))}: " if exc.filename else ""
        raise CommandError(f"{where}{os_reason(exc)}") from None


@cli.command("toy-battle-aids", context_settings={"show_default": True})
@click.option(
    "--out",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("toy-battle-aids.pdf"),
    help="PDF to write (must end in .pdf).",
)
@click.option(
    "--tile-size",
    type=float,
    default=30.0,
    help="Side of a square troop tile, mm (15..60): measure one of your own tiles.",
)
@click.option(
    "--paper",
    type=click.Choice(list(PAPER_SIZES), case_sensitive=False),
    default="a4",
    help="Paper size of both sheets.",
)
@click.option(
    "--language",
    type=click.Choice(["en", "de"]),
    default="en",
    help="Language of the player aids.",
)
@click.option("--landscape", is_flag=True, help="Landscape pages (aids and tile sheets).")
def toy_battle_aids(
    out: Path, tile_size: float, paper: str, language: str, landscape: bool
) -> None:
    """Toy Battle: a player aid per terrain (board graph, special bases, objective) and a
    sheet of spare troop tiles in both colours at the size of your tiles.

    Example: tablesmith toy-battle-aids -o aids.pdf --tile-size 28 --paper letter
    """
    from printables.layout import LayoutError, SettingError
    from printables.outputs import OutputError, check_pdf_target, os_reason, shown
    from printables.toybattle_aids import render_aids

    try:
        check_pdf_target(out)
        result = render_aids(
            out, tile_size=tile_size, paper=paper.lower(), language=language, landscape=landscape
        )
    except SettingError as exc:
        option = {"tile_size": "--tile-size", "paper": "--paper", "language": "--language"}
        _fail(f"{option.get(exc.setting, exc.setting)} must be {exc.allowed}, got {exc.found_text}")
        return
    except (LayoutError, OutputError) as exc:
        _fail(str(exc) if isinstance(exc, LayoutError) else f"--out: {exc}")
        return
    except OSError as exc:
        _fail(f"cannot write {shown(out)}: {os_reason(exc)}")
        return
    click.echo(
        f"{shown(out)}: {result.aid_pages} player aids, {result.tiles} tiles at {tile_size:g} mm "
        f"on {result.tile_pages} page(s) of up to {result.tiles_per_page}"
    )


@cli.command()
@click.option(
    "--host",
    default="0.0.0.0",
    show_default=True,
    help="Address to listen on; 0.0.0.0 means every network of this machine (LAN).",
)
@click.option(
    "--port",
    default=8765,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="TCP port to listen on.",
)
@click.option(
    "--db",
    "database",
    help="SQLite database file [default: tablesmith/companion.sqlite in the user's data folder], "
    "or postgresql://USER:PASSWORD@HOST[:PORT]/DBNAME to share the tables between several serve "
    "processes or machines (needs pip install 'tablesmith[store]').",
)
@click.option(
    "--pubsub",
    default="local",
    show_default=True,
    help="How live streams learn of other processes' actions: local (one process), or "
    "redis://[:PASSWORD@]HOST[:PORT] (also rediss://, unix://) shared by every serve process "
    "of the same --db.",
)
@click.option(
    "--base-url",
    help="URL the phones use to reach this server, for links and QR "
    "codes [default: http://<LAN address>:<port>].",
)
@click.option(
    "--threads",
    default=None,
    type=click.IntRange(4, 1024),
    help="Worker threads for actions and pages [default: 16; with --server waitress 256, and "
    "every open phone holds one of them for its live stream].",
)
@click.option(
    "--server",
    "server_kind",
    type=click.Choice(["uvicorn", "waitress"]),
    default="uvicorn",
    show_default=True,
    help="uvicorn: live streams on an event loop (thousands of phones; tested on Linux, written "
    "for macOS and Windows too). "
    "waitress: one thread per live stream (a few hundred phones), for where uvicorn cannot run.",
)
@click.option(
    "--fsync/--no-fsync",
    default=True,
    show_default=True,
    help="Flush every action to the disk before answering, so it survives a power cut too. "
    "--no-fsync is faster on a busy disk; an acknowledged action then survives a killed or "
    "crashed server, not a power cut.",
)
@click.option("--qr/--no-qr", default=True, show_default=True, help="Print the URL as a QR code.")
@click.option(
    "--mdns/--no-mdns",
    default=True,
    show_default=True,
    help="Announce this server on the LAN as tablesmith.local (mDNS), the address printed "
    "cards use by default; where that cannot work, serve says why.",
)
@click.option(
    "--retention",
    default="30d",
    metavar="DURATION",
    help="Remove a table from the database this long after its last action, finished or not: "
    "a whole number of s, m, h or d (45s, 90m, 12h, 30d), or 0 to keep all [default: 30d].",
)
@click.option(
    "--trusted-proxy",
    metavar="ADDR[,ADDR]",
    help="Reverse proxies (IP addresses or networks) whose X-Forwarded-For and "
    "X-Forwarded-Proto are believed: the phone address the join limits count and https for "
    "Secure seat cookies. Name only a proxy that sets both headers [default: none: every "
    "phone behind a proxy shares the proxy's limit].",
)
def serve(
    host: str,
    port: int,
    database: str | None,
    pubsub: str,
    base_url: str | None,
    threads: int | None,
    server_kind: str,
    fsync: bool,
    qr: bool,
    mdns: bool,
    retention: str,
    trusted_proxy: str | None,
) -> None:
    """Run the phone companion on the local network (uvicorn; or waitress, --server)."""
    from companion.serve import ServeError, ServeOptions, run
    from shop import init_app as print_shop

    card_qr_base = ""
    if mdns:  # named when the announced address is not the one printed cards use
        from printables.render import DEFAULT_QR_BASE as card_qr_base

    options = ServeOptions(
        host=host,
        port=port,
        database=database,
        pubsub=pubsub,
        base_url=base_url,
        threads=threads,
        server=server_kind,
        fsync=fsync,
        qr=qr,
        mdns=mdns,
        card_qr_base=card_qr_base,
        retention=retention,
        trusted_proxy=trusted_proxy,
        extensions=(print_shop,),
    )
    try:
        run(options)
    except ServeError as exc:
        raise CommandError(str(exc)) from None


if __name__ == "__main__":  # pragma: no cover
    main()
