"""Reading deck files (the I/O side of ``games.cards``) and the demo decks shipped as data.

A deck argument is either a path to a ``.yaml``/``.yml``/``.csv`` file or ``demo:NAME`` for a
shipped demo deck (``games/cards/demo/NAME.yaml``: package data of ``games``, because the
companion reads the same decks). Files are decoded as UTF-8; a byte-order
mark is dropped. Image paths inside a deck are relative to the deck file's folder and must
exist and be readable PNG or JPEG images (checked here, reported with the card's name).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from games.cards import Deck, DeckError, FieldError, parse_deck_text

DEMO_PREFIX = "demo:"
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")


@dataclass(frozen=True, kw_only=True)
class LoadedDeck:
    """A parsed deck and where its relative image paths point.

    Attributes:
        deck: the validated deck.
        source: the name used in messages (the path as given, or ``demo:NAME``).
        base_dir: folder for relative image paths.
    """

    deck: Deck
    source: str
    base_dir: Path


def demo_names() -> list[str]:
    """Names of the shipped demo decks (use as ``demo:NAME``)."""
    folder = resources.files("games.cards") / "demo"
    return sorted(p.name.rsplit(".", 1)[0] for p in folder.iterdir() if p.name.endswith(".yaml"))


def read_deck(argument: str) -> LoadedDeck:
    """Read and validate a deck file or a ``demo:NAME`` deck.

    Raises:
        DeckError: the file is missing, not UTF-8, or has deck problems (all at once).
    """
    if argument.startswith(DEMO_PREFIX):
        name = argument[len(DEMO_PREFIX) :]
        if name not in demo_names():
            raise DeckError(
                argument,
                [
                    (
                        "deck",
                        FieldError(
                            field="demo", allowed="one of " + ", ".join(demo_names()), found=name
                        ),
                    )
                ],
            )
        resource = resources.files("games.cards") / "demo" / f"{name}.yaml"
        text = resource.read_text(encoding="utf-8")
        base_dir = Path(str(resources.files("games.cards") / "demo"))
        deck = parse_deck_text(text, source=f"{name}.yaml", default_slug=name)
        return LoadedDeck(deck=deck, source=argument, base_dir=base_dir)
    path = Path(argument)
    try:
        data = path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise DeckError(
            argument,
            [
                (
                    "",
                    FieldError(
                        field="file",
                        allowed="a readable deck file",
                        found=reason,
                        message=f"cannot read the deck file: {reason}",
                    ),
                )
            ],
        ) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise DeckError(
            argument,
            [
                (
                    f"line {line}",
                    FieldError(
                        field="encoding",
                        allowed="UTF-8 text",
                        found=f"byte 0x{data[exc.start]:02x}",
                    ),
                )
            ],
        ) from None
    deck = parse_deck_text(text, source=argument)
    problems = []
    base_dir = path.parent
    images = [
        (f"card '{c.name}'", n, getattr(c, n))
        for c in deck.cards
        for n in ("image", "back_image")
        if getattr(c, n)
    ]
    if deck.back.image:
        images.append(("header", "back.image", deck.back.image))
    checked: dict[Path, str | None] = {}
    for where, field_name, value in images:
        target = base_dir / value
        if not (target.is_file() and target.suffix.lower() in IMAGE_SUFFIXES):
            problems.append(
                (
                    where,
                    FieldError(
                        field=field_name,
                        allowed="an existing .png/.jpg file relative to the deck",
                        found=value,
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
                        allowed="a readable PNG or JPEG image",
                        found=value,
                        message=f"field '{field_name}': {value!r} is not a readable PNG or "
                        f"JPEG image ({unreadable})",
                    ),
                )
            )
    if problems:
        raise DeckError(argument, problems)
    return LoadedDeck(deck=deck, source=argument, base_dir=base_dir)


def _image_problem(path: Path) -> str | None:
    """Why ``path`` cannot be used as card art (None if it can): Pillow must identify it as
    PNG or JPEG and find its data complete."""
    from PIL import Image

    try:
        with Image.open(path) as image:
            kind = image.format
            image.verify()
    except OSError as exc:
        return exc.strerror or "not an image Pillow can read"
    except Exception:  # Pillow raises assorted errors for damaged files
        return "damaged image data"
    if kind not in ("PNG", "JPEG"):
        return f"the file is {kind or 'an unknown format'}"
    return None
