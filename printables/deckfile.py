"""Reading deck files (the I/O side of ``games.cards``) and the demo decks shipped as data.

A deck argument is either a path to a ``.yaml``/``.yml``/``.csv`` file or ``demo:NAME`` for a
shipped demo deck (``games/<game>/demo/NAME.yaml``, read by :mod:`games.demos`, the loader the
companion reads the same decks with). Files are decoded as UTF-8; a byte-order
mark is dropped; a CSV that is not UTF-8 is read as Windows-1252 with a warning
(:func:`decode_deck`). Image paths inside a deck are relative to the deck file's folder and
must exist and be readable PNG, JPEG or WebP images (checked here, reported with the card's
name).
"""

from __future__ import annotations

import errno
import os
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path

from games.cards.deck import MAX_DECK_BYTES, Deck, DeckError, parse_deck_text
from games.cards.fields import FieldError
from games.cards.problems import HEADER, WHOLE_FILE, Problems, at_line
from games.cards.wording import Words
from games.demos import demo_deck, demo_resource
from games.demos import demo_names as demo_names  # re-exported: the CLI lists them
from games.registry import CARD_GAMES
from printables.outputs import shown

DEMO_PREFIX = "demo:"
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
ART_ALLOWED = Words("an existing .png, .jpg or .webp file relative to the deck")
ART_FORMATS = ("PNG", "JPEG", "MPO", "WEBP")
"""Pillow formats accepted as art (MPO: a phone's multi-picture JPEG)."""
LEGACY_ENCODING = "cp1252"
"""What a CSV deck that is not UTF-8 is read as (Windows-1252: Excel's "CSV" on Western
Windows), with a warning."""
MAX_IMAGE_BYTES = 50_000_000
"""Largest art or back image file, bytes."""
MAX_IMAGE_PIXELS = 40_000_000
"""Largest art or back image, pixels (40 MP; a 63 x 88 mm card at 1200 dpi is 8 MP)."""


def _file_kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _bytes(size: int) -> str:
    """A file size for a message, exact and readable: ``1,048,600 bytes (1.0 MiB)``."""
    return f"{size:,} bytes ({size / 2**20:.1f} MiB)"


def read_limited(path: Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, refused before reading when it is no regular
    file or larger than ``limit`` bytes.

    The file is opened non-blocking (a FIFO swapped in after the check cannot hang the read)
    and at most ``limit + 1`` bytes are read (files whose size the system does not report,
    such as ``/proc`` files, are caught too).

    Raises:
        OSError: the file cannot be opened or read (``strerror`` says why; a symlink loop
            is ``ELOOP``).
        ValueError: it is a folder, FIFO, device or socket, it is larger than ``limit``, or
            the path holds a NUL character. The message is the reason only.
    """
    if "\0" in str(path):
        raise ValueError("the path contains a NUL character")
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"it is {_file_kind(info.st_mode)}, not a file")
    if info.st_size > limit:
        raise ValueError(f"it is {_bytes(info.st_size)}; the limit is {_bytes(limit)}")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    handle = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise ValueError("it is not a regular file")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(handle, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(handle)
    if size > limit:
        raise ValueError(f"it is larger than the limit of {limit / 1e6:g} MB")
    return b"".join(chunks)


@dataclass(frozen=True, kw_only=True)
class LoadedDeck:
    """A parsed deck and where its relative image paths point.

    Attributes:
        deck: the validated deck.
        source: the name used in messages (the path as given, or ``demo:NAME``).
        base_dir: folder for relative image paths.
        notes: warnings about how the file was read (a CSV read as Windows-1252).
    """

    deck: Deck
    source: str
    base_dir: Path
    notes: tuple[str, ...] = ()


def read_deck(argument: str) -> LoadedDeck:
    """Read and validate a deck file or a ``demo:NAME`` deck.

    Raises:
        DeckError: the file is missing, not UTF-8 (a CSV: nor Windows-1252,
            :func:`decode_deck`), or has deck problems (all at once).
    """
    if argument.startswith(DEMO_PREFIX):
        name = argument[len(DEMO_PREFIX) :]
        resource = demo_resource(name)
        return LoadedDeck(
            deck=demo_deck(name), source=argument, base_dir=Path(str(resource)).parent
        )
    if not argument.strip():
        raise DeckError(
            "''",
            [
                (
                    WHOLE_FILE,
                    FieldError(
                        field="file",
                        allowed=Words("a deck file path"),
                        found="",
                        message=Words("the deck path is empty"),
                    ),
                )
            ],
        )
    path = Path(argument)
    argument = shown(argument)
    try:
        data = read_limited(path, MAX_DECK_BYTES)
    except (OSError, ValueError) as exc:
        if isinstance(exc, OSError):
            reason = exc.strerror or type(exc).__name__
            if exc.errno == errno.ELOOP:
                reason = "symlink loop (too many levels of symbolic links)"
        else:
            reason = str(exc)
        raise DeckError(
            argument,
            [
                (
                    WHOLE_FILE,
                    FieldError(
                        field="file",
                        allowed=Words("a readable deck file"),
                        found=reason,
                        message=Words("cannot read the deck file: %(reason)s", reason=reason),
                    ),
                )
            ],
        ) from None
    text, encoding_note = decode_deck(data, argument)
    deck = parse_deck_text(text, games=CARD_GAMES, source=argument)
    base_dir = path.parent
    problems = art_problems(deck, base_dir)
    if problems:
        raise DeckError(argument, problems)
    return LoadedDeck(
        deck=deck,
        source=argument,
        base_dir=base_dir,
        notes=(encoding_note,) if encoding_note else (),
    )


def decode_deck(data: bytes, source: str) -> tuple[str, str | None]:
    """The text of a deck file's bytes and a warning, or None.

    UTF-8 (a byte-order mark dropped) is the format; a CSV that is no UTF-8 is read as
    Windows-1252, the code page spreadsheets on Western Windows systems save "CSV" in
    (German Excel: ``Zürich`` as ``5A FC 72 69 63 68``), with a warning naming the file and how
    to save it as UTF-8. Bytes that are not text in Windows-1252 either (0x81, 0x8D, 0x8F,
    0x90, 0x9D), and YAML files (UTF-8 by the YAML spec), stay errors.

    Raises:
        DeckError: not UTF-8 (and, for a CSV, not Windows-1252 either): names the line and
            the first byte that is not.
    """
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        first = exc
    if source.lower().endswith(".csv"):
        try:
            text = data.decode(LEGACY_ENCODING)
        except UnicodeDecodeError:
            pass
        else:
            line = data[: first.start].count(b"\n") + 1
            return text, (
                f"{source}: not UTF-8 (line {line}: byte 0x{data[first.start]:02x}); read as "
                "Windows-1252, as Excel saves CSV on Western Windows. To be sure of every "
                'character, save it as "CSV UTF-8" (Excel) or with the character set '
                '"Unicode (UTF-8)" (LibreOffice)'
            )
    line = data[: first.start].count(b"\n") + 1
    raise DeckError(
        source,
        [
            (
                at_line(line),
                FieldError(
                    field="encoding",
                    allowed=Words("UTF-8 text"),
                    found=f"byte 0x{data[first.start]:02x}",
                ),
            )
        ],
    ) from None


def art_problems(deck: Deck, base_dir: Path) -> Problems:
    """Every card's ``image`` and ``back_image`` and the deck's ``back.image`` that is not an
    existing, readable PNG, JPEG or WebP file relative to ``base_dir`` (each file opened
    once), as ``(where, problem)`` pairs naming the card."""
    images = [
        (Words("card '%(name)s'", name=c.name), n, getattr(c, n))
        for c in deck.cards
        for n in ("image", "back_image")
        if getattr(c, n)
    ]
    if deck.back.image:
        images.append((HEADER, "back.image", deck.back.image))
    problems: Problems = []
    checked: dict[Path, str | None] = {}
    for where, field_name, value in images:
        target = base_dir / value
        if not target.is_file() or target.suffix.lower() not in IMAGE_SUFFIXES:
            exists = target.is_file()
            problems.append(
                (
                    where,
                    FieldError(
                        field=field_name,
                        allowed=Words("a .png, .jpg or .webp file name") if exists else ART_ALLOWED,
                        found=value,
                        message=None
                        if not exists
                        else Words(
                            "field '%(field)s': %(value)s is a %(suffix)s file; card art must be "
                            "PNG, JPEG or WebP (.png, .jpg, .webp)",
                            field=field_name,
                            value=repr(value),
                            suffix=target.suffix or "file",
                        ),
                    ),
                )
            )
            continue
        if target not in checked:
            checked[target] = _image_problem(target)
        unreadable = checked[target]
        if unreadable:
            problems.append(
                (
                    where,
                    FieldError(
                        field=field_name,
                        allowed=Words("a readable PNG, JPEG or WebP image"),
                        found=value,
                        message=Words(
                            "field '%(field)s': %(value)s is not a readable PNG, JPEG or WebP "
                            "image (%(why)s)",
                            field=field_name,
                            value=repr(value),
                            why=unreadable,
                        ),
                    ),
                )
            )
    return problems


def literal_line_breaks(loaded: LoadedDeck) -> list[str]:
    """Warnings for CSV cells holding a literal ``\\n`` (backslash, n).

    CSV has no escapes: a line break in a cell is a real one inside a quoted cell (Alt+Enter
    in LibreOffice Calc and Excel). A typed ``\\n`` is printed as typed; the warning says so
    and how to make a break, so the card is not printed with a stray ``\\n`` unnoticed.
    """
    if not loaded.source.lower().endswith(".csv"):
        return []
    found = []
    for card in loaded.deck.cards:
        for name, value in vars(card).items():
            if isinstance(value, str) and "\\n" in value:
                found.append(
                    f"{loaded.source}: card '{card.name}': field '{name}' holds a literal \\n, "
                    "printed as typed; for a line break put the cell in quotes and break the "
                    "line inside it (Alt+Enter in a spreadsheet)"
                )
    return found


def _jpeg_ends(path: Path) -> bool:
    """True if the JPEG ``path`` has an EOI marker (``FF D9``) after its last start-of-scan
    (``FF DA``). In the entropy-coded data every ``FF`` is stuffed (``FF 00``), so a file
    whose end was cut off or overwritten (zeros decode without an error) has none there
    (ITU T.81, B.1.1.5, F.1.2.3)."""
    data = path.read_bytes()
    scan = data.rfind(b"\xff\xda")
    return scan >= 0 and data.find(b"\xff\xd9", scan) > scan


def _image_problem(path: Path) -> str | None:
    """Why ``path`` cannot be used as card art (None if it can): Pillow must identify it as
    PNG, JPEG or WebP and find its data complete. Pillow's own warnings (a
    ``DecompressionBombWarning`` above 89 megapixels, damaged EXIF data) are caught here, not
    printed: the answer is this function's (an image over :data:`MAX_IMAGE_PIXELS` names its
    size and the limit; Pillow refuses one over 179 megapixels before telling its size)."""
    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # what matters is said in our own message
        try:
            return _image_checks(path)
        except Image.DecompressionBombError:
            return (
                f"more than {2 * (Image.MAX_IMAGE_PIXELS or 0) / 1e6:.0f} megapixels; the "
                f"limit is {MAX_IMAGE_PIXELS / 1e6:g} megapixels"
            )
        except OSError as exc:
            if "truncated" in str(exc) or "broken data" in str(exc):
                return "the image data is cut off (truncated file)"
            return exc.strerror or "not an image Pillow can read"
        except Exception:  # Pillow raises assorted errors for damaged files
            return "damaged image data"


def _image_checks(path: Path) -> str | None:
    """:func:`_image_problem` without its error handling."""
    from PIL import Image

    size = os.stat(path).st_size
    if size > MAX_IMAGE_BYTES:
        return f"{size / 1e6:.0f} MB; the limit is {MAX_IMAGE_BYTES / 1e6:g} MB"
    with Image.open(path) as image:
        kind = image.format
        if image.width * image.height > MAX_IMAGE_PIXELS:
            return (
                f"{image.width} x {image.height} pixels; the limit is "
                f"{MAX_IMAGE_PIXELS / 1e6:g} megapixels"
            )
        image.verify()  # PNG: chunk checksums; JPEG: nothing (it has none)
    with Image.open(path) as image:
        # Decode it (JPEG at 1/8 scale: the same entropy-coded data, read to its end), so
        # a file cut off halfway is refused, not printed as a nearly blank art window.
        if image.format in ("JPEG", "MPO"):
            image.draft(image.mode, (max(1, image.width // 8), max(1, image.height // 8)))
        image.load()
        if image.format in ("JPEG", "MPO") and not _jpeg_ends(path):
            return "the JPEG data has no end marker after its last scan (cut off or damaged)"
    if kind not in ART_FORMATS:
        return f"the file is {kind or 'an unknown format'}"
    return None
