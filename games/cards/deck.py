"""Decks: deck-file parsing from text (YAML or CSV) and the card URL scheme.

Pure: the caller reads the file and passes its text and name in; nothing here touches the
file system. Every problem of a file is collected and raised together as one
:class:`DeckError`, each naming the file, the row (CSV: line of the record's start; YAML: line
of the card's mapping), the field, the allowed values and what was found.

Deck file formats (docs/cards.md):

* YAML: a mapping with ``game``, optional ``deck`` (slug), ``title``, ``colour`` (the
  deck's own ``#RRGGBB``, on the edge of every face), ``back`` (a mapping with ``image`` or
  ``text`` and ``colour``) and ``cards`` (a list of card mappings, each with a
  ``kind`` unless the game has one kind). Scalars are read as text (no YAML type guessing:
  ``007`` stays ``"007"``, ``no`` stays ``"no"``) and converted by the field specs. A key
  given twice in one mapping is an error, and so are aliases (``*name``): a card is repeated
  with ``copies``, and refusing aliases keeps a small file from expanding into a huge one.
* CSV: UTF-8 with or without a byte-order mark (``printables.deckfile`` also reads
  Windows-1252, with a warning), ``,`` or ``;`` as delimiter (decided by the header line:
  whichever occurs more often; a tie means ``,``; or named by an Excel ``sep=;`` first
  line, which is then skipped), a header row of field names,
  one card per record; quoted fields may contain real line breaks. A ``game`` column is
  required (same value in every row); an optional ``deck`` column sets the deck slug. Each
  column name may appear once. A quote that is never closed is an error: the reader runs in
  strict mode, and a quoted cell whose later lines hold as many delimiters as a whole row
  (a row swallowed by a missing closing quote) is reported too.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from games.cards.cardgame import CardGame
from games.cards.fields import (
    FieldError,
    FieldSpec,
    Kind,
    ValidatedCard,
    parse_fields,
    slugify,
    unknown_field,
)
from games.cards.problems import HEADER, WHOLE_FILE, Problems, at_line
from games.cards.problems import DeckError as DeckError  # re-exported: where readers look
from games.cards.wording import Words, joined
from games.cards.yamltext import VALID_YAML, YamlTextError, load_deck_yaml, too_many_cards
from games.cards.yamltext import Mapping as YamlMapping

MAX_DECK_BYTES = 1_048_576
"""Largest deck file, bytes (1 MiB: about 8,000 cards of this format; checked by the reader
before parsing)."""
MAX_CARD_ENTRIES = 2000
"""Most card entries (CSV rows, YAML list items) in one deck file."""
MAX_PRINTED_CARDS = 10_000
"""Most printed cards in one deck, copies included (about 1,100 A4 sheets)."""

Card = ValidatedCard
"""A card of any game (each game's card classes are in its ``games/<game>/cards.py``)."""

CardGames = Mapping[str, CardGame]
"""The card games a deck may be of: ``game:`` value -> the game's cards (its card schemas,
deck rules and faces). The caller passes them (:data:`games.registry.CARD_GAMES`, or a test's
own), so this reader knows no game of its own."""
_DECK = FieldSpec(name="deck", kind=Kind.SLUG)
_TITLE = FieldSpec(name="title", max_length=60)
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
_BACK_FIELDS = (
    FieldSpec(name="image", max_length=300),
    FieldSpec(name="text", max_length=40),
    FieldSpec(name="colour", max_length=7),
)
_HEADER_KEYS = ("game", "deck", "title", "colour", "back", "cards")
_BACK_ALLOWED = {"colour": Words("#RRGGBB"), "image": Words("a .png/.jpg file name (text)")}


@dataclass(frozen=True, kw_only=True)
class BackSpec:
    """The common back of a deck: an image file or a generated design.

    Attributes:
        image: image path relative to the deck file (resolved by ``printables``), or None.
        text: the words on a generated back (default: the game's title).
        colour: background colour of a generated back, ``#RRGGBB``.

    Raises:
        FieldError: ``colour`` is not ``#RRGGBB``, ``text`` is longer than 40 characters, or
            a value is not text.
    """

    image: str | None = None
    text: str | None = None
    colour: str = "#22313f"

    def __post_init__(self) -> None:
        for name, allowed in (("image", Words("a file name")), ("text", Words("text"))):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise FieldError(field=f"back.{name}", allowed=allowed, found=value)
        if not (isinstance(self.colour, str) and _COLOUR.match(self.colour)):
            raise FieldError(field="back.colour", allowed=Words("#RRGGBB"), found=self.colour)
        if self.text is not None and len(self.text) > 40:
            raise FieldError(
                field="back.text", allowed=Words("at most 40 characters"), found=self.text
            )


@dataclass(frozen=True, kw_only=True)
class Deck:
    """A validated deck.

    Attributes:
        card_game: the card game the deck is of (its schemas and deck rules); its slug is
            :attr:`game`.
        slug: deck slug used in card URLs.
        title: display title.
        cards: the cards in file order (each with its ``copies``).
        back: the common back.
        colour: the deck's own colour, ``#RRGGBB``, or None: the outer edge of every face
            (the bleed and the border around the inner panel), so that two decks mixed at
            the table (two fleets, two teams) are told apart and sorted back.

    Raises:
        FieldError: bad slug, a ``colour`` that is not ``#RRGGBB``, or two
            cards share an ``id``.
    """

    card_game: CardGame
    slug: str
    title: str
    cards: tuple[Card, ...]
    back: BackSpec = field(default_factory=BackSpec)
    colour: str | None = None

    def __post_init__(self) -> None:
        _DECK.check(self.slug)
        if self.colour is not None and not _COLOUR.match(self.colour):
            raise FieldError(field="colour", allowed=Words("#RRGGBB"), found=self.colour)
        seen: set[str] = set()
        for card in self.cards:
            if card.id in seen:
                raise FieldError(
                    field="id", allowed=Words("a card id unique in the deck"), found=card.id
                )
            seen.add(card.id)

    @property
    def game(self) -> str:
        """The game's slug (the deck file's ``game:``), a key of the card games it was read
        with."""
        return self.card_game.slug

    @property
    def card_count(self) -> int:
        """Number of physical cards (copies included)."""
        return sum(card.copies for card in self.cards)

    def legality_problems(self) -> list[FieldError]:
        """The game's deck-building rule problems (PM-5, TF-3, TB-1); empty when legal."""
        return self.card_game.legality(self.cards)


def card_path(game: str, deck: str, card: str) -> str:
    """The companion path of a card: ``/card/<game>/<deck>/<card>`` (percent-encoded).

    This is the QR URL scheme: a printed QR code holds ``<base>`` + this path, where base is
    the companion's address (e.g. ``http://192.168.1.20:8765``). All three parts are slugs.
    """
    return "/card/" + "/".join(quote(part, safe="") for part in (game, deck, card))


def card_url(base: str, game: str, deck: str, card: str) -> str:
    """:func:`ascii_base` of ``base`` (trailing ``/`` removed) + :func:`card_path`.

    Raises:
        UnicodeError: a host name that IDNA cannot encode (see :func:`ascii_base`).
    """
    return ascii_base(base).rstrip("/") + card_path(game, deck, card)


_URL_SAFE = "/:@!$&'()*+,;=-._~%"
"""Characters left as they are when a base URL's path or user part is percent-encoded."""


@lru_cache(maxsize=64)
def ascii_base(base: str) -> str:
    """``base`` in ASCII, as a QR code reader expects a URL: an internationalised host name
    IDNA-encoded (``http://bücher.example`` -> ``http://xn--bcher-kva.example``; RFC 3490,
    Python's ``idna`` codec), any other non-ASCII character (path, user) percent-encoded as
    UTF-8 (RFC 3986, 2.5). A QR code holds bytes with no declared encoding, and readers take
    raw UTF-8 for Latin-1 (``bÃ¼cher``). ASCII input is returned unchanged.

    Raises:
        UnicodeError: a host label IDNA cannot encode (empty or longer than 63 characters).
    """
    if base.isascii():
        return base
    parts = urlsplit(base)
    user, at, hostport = parts.netloc.rpartition("@")
    host, colon, port = hostport.rpartition(":") if "]" not in hostport else (hostport, "", "")
    if not colon or not port.isdigit():
        host, colon, port = hostport, "", ""
    netloc = quote(user, safe=_URL_SAFE) + at + host.encode("idna").decode("ascii") + colon + port
    return urlunsplit(
        (parts.scheme, netloc, quote(parts.path, safe=_URL_SAFE), parts.query, parts.fragment)
    )


def _parse_cards(
    game: CardGame, rows: list[tuple[Words, dict[str, Any]]], problems: Problems
) -> list[tuple[Words, Card]]:
    cards: list[tuple[Words, Card]] = []
    kinds = tuple(game.kinds)
    kind_spec = FieldSpec(
        name="kind", kind=Kind.CHOICE, required=len(kinds) > 1, choices=kinds, default=kinds[0]
    )
    for where, row in rows:
        try:
            kind = kind_spec.parse(row.get("kind"))
        except FieldError as exc:
            problems.append((where, exc))
            continue
        cls = game.kinds[kind]
        given = row.get("type")
        given = given.strip() if isinstance(given, str) else given
        fields = dict(row)
        errors: list[FieldError] = []
        if "type" in {spec.name for spec in cls.FIELDS}:
            if given and given != kind:
                errors.append(
                    FieldError(
                        field="type",
                        allowed=Words("empty or '%(kind)s' (the kind)", kind=kind),
                        found=given,
                    )
                )
            fields["type"] = kind
        values, field_errors = parse_fields(cls, fields)
        errors.extend(field_errors)
        if not errors:
            try:
                cards.append((where, cls(**values)))
            except FieldError as exc:
                errors.append(exc)
        problems.extend((where, error) for error in errors)
    return cards


def _finish(
    games: CardGames,
    source: str,
    header: dict[str, Any],
    rows: list[tuple[Words, dict[str, Any]]],
    problems: Problems,
    default_slug: str,
    back: BackSpec | None,
) -> Deck:
    where = HEADER
    try:
        game_slug = FieldSpec(
            name="game", kind=Kind.CHOICE, required=True, choices=tuple(games)
        ).parse(header.get("game"))
    except FieldError as exc:
        problems.append((_where(header, "game"), exc))
        raise DeckError(source, problems) from None
    slug, title = default_slug, None
    try:
        slug = _DECK.parse(header.get("deck")) or default_slug
    except FieldError as exc:
        problems.append((_where(header, "deck"), exc))
    try:
        title = _TITLE.parse(header.get("title"))
    except FieldError as exc:
        problems.append((_where(header, "title"), exc))
    colour = header.get("colour")
    colour = colour.strip() if isinstance(colour, str) else colour
    if colour is not None and not (isinstance(colour, str) and _COLOUR.match(colour)):
        problems.append(
            (
                _where(header, "colour"),
                FieldError(
                    field="colour", allowed=Words("#RRGGBB (the faces' edge)"), found=colour
                ),
            )
        )
        colour = None
    cards = _parse_cards(games[game_slug], rows, problems)
    ids: dict[str, Words] = {}
    for row_where, card in cards:
        if card.id in ids:
            problems.append(
                (
                    row_where,
                    FieldError(
                        field="id",
                        allowed=Words(
                            "a card id unique in the deck (also on %(where)s)", where=ids[card.id]
                        ),
                        found=card.id,
                    ),
                )
            )
        ids.setdefault(card.id, row_where)
    if not rows and not problems:
        problems.append((where, _no_cards(Words("the deck needs at least one card"))))
    printed = sum(card.copies for _, card in cards)
    if printed > MAX_PRINTED_CARDS:
        problems.append(
            (
                Words("all cards"),
                FieldError(
                    field="copies",
                    allowed=Words(
                        "at most %(count)s printed cards, copies included", count=MAX_PRINTED_CARDS
                    ),
                    found=printed,
                ),
            )
        )
    if problems:
        raise DeckError(source, problems)
    return Deck(
        card_game=games[game_slug],
        slug=slug,
        title=title or slug,
        cards=tuple(card for _, card in cards),
        back=back or BackSpec(),
        colour=colour,
    )


def _where(mapping: object, key: object) -> Words:
    """``line N`` of ``key`` in a YAML mapping (the line the key is written on), else
    ``header`` (a CSV deck's header values, or a key that is absent)."""
    if isinstance(mapping, YamlMapping) and key in mapping.key_lines:
        return at_line(mapping.key_lines[str(key)])
    return HEADER


def _no_cards(why: Words) -> FieldError:
    return FieldError(
        field="cards",
        allowed=Words("at least one card"),
        found="none",
        message=Words("no cards: %(why)s", why=why),
    )


def _one(source: str, where: Words, problem: FieldError) -> DeckError:
    return DeckError(source, [(where, problem)])


def parse_yaml_deck(text: str, *, games: CardGames, source: str, default_slug: str) -> Deck:
    """Parse a YAML deck file's text.

    Args:
        text: the file's text.
        games: the card games a deck may be of (``game:`` value -> its cards).
        source: the file name for error messages.
        default_slug: the deck slug when the file has no ``deck`` key (usually the file stem).

    Returns:
        The validated :class:`Deck`.

    Raises:
        DeckError: the YAML is malformed or empty, uses an alias, repeats a key, or any card
            or header field is invalid (all at once).
    """
    try:
        data, repeated = load_deck_yaml(text, max_cards=MAX_CARD_ENTRIES)
    except YamlTextError as exc:
        where = at_line(exc.line) if exc.line else Words("file")
        custom = None if exc.allowed == VALID_YAML else exc.message
        raise _one(
            source,
            where,
            FieldError(field=exc.field, allowed=exc.allowed, found=exc.found, message=custom),
        ) from None
    problems: Problems = [
        (
            at_line(r.line),
            FieldError(
                field=r.key,
                allowed=Words("each key once"),
                found=r.key,
                message=Words(
                    "field '%(field)s' is given twice (first on line %(first)s)",
                    field=r.key,
                    first=r.first_line,
                ),
            ),
        )
        for r in repeated
    ]
    if data is None or data == "":  # nothing, or a bare "---"
        raise _one(
            source,
            WHOLE_FILE,
            FieldError(
                field="file",
                allowed=A_DECK_MAPPING,
                found="",
                message=Words("the file is empty (a deck needs game: and cards:)"),
            ),
        )
    if not isinstance(data, dict):
        raise _one(
            source,
            at_line(1),
            FieldError(field="file", allowed=A_DECK_MAPPING, found=data),
        )
    for key in data:
        if key not in _HEADER_KEYS:
            problems.append(
                (_where(data, key), unknown_field(key, joined(_HEADER_KEYS), _HEADER_KEYS))
            )
    cards = data.get("cards")
    rows: list[tuple[Words, dict[str, Any]]] = []
    if not isinstance(cards, list):
        problems.append(
            (
                HEADER,
                FieldError(field="cards", allowed=Words("a list of card mappings"), found=cards),
            )
        )
    else:
        for number, item in enumerate(cards, start=1):
            if not isinstance(item, YamlMapping):
                problems.append(
                    (
                        Words("card %(card)s", card=number),
                        FieldError(
                            field="cards", allowed=Words("a mapping of field: value"), found=item
                        ),
                    )
                )
                continue
            rows.append((at_line(item.line, number), item))
    back = _parse_back(data.get("back"), problems)
    return _finish(games, source, data, rows, problems, default_slug, back)


def _parse_back(raw_back: object, problems: Problems) -> BackSpec | None:
    """The deck's ``back`` mapping as a :class:`BackSpec`, or None when it is absent or has
    problems (added to ``problems``: not a mapping, unknown keys, bad values)."""
    back = None
    if raw_back is not None:
        if not isinstance(raw_back, dict):
            problems.append(
                (
                    HEADER,
                    FieldError(
                        field="back",
                        allowed=Words("a mapping with image or text and colour"),
                        found=raw_back,
                    ),
                )
            )
        else:
            unknown = set(raw_back) - {spec.name for spec in _BACK_FIELDS}
            values: dict[str, Any] = {}
            if unknown:
                problems.append(
                    (
                        HEADER,
                        FieldError(
                            field="back",
                            allowed=Words("keys image, text, colour"),
                            found=sorted(unknown),
                        ),
                    )
                )
            for spec in _BACK_FIELDS:
                try:
                    value = spec.parse(raw_back.get(spec.name))
                except FieldError as exc:
                    said = exc.words  # keep a control character's code point and position
                    problems.append(
                        (
                            _where(raw_back, spec.name),
                            FieldError(
                                field=f"back.{spec.name}",
                                allowed=_BACK_ALLOWED.get(spec.name, exc.allowed),
                                found=exc.found,
                                message=(
                                    said.but(field=f"back.{spec.name}")
                                    if " is not allowed; " in said
                                    else None
                                ),
                            ),
                        )
                    )
                    continue
                if value is not None:
                    values[spec.name] = value
            if not unknown:
                try:
                    back = BackSpec(**values)
                except FieldError as exc:
                    problems.append((_where(raw_back, exc.field.removeprefix("back.")), exc))
    return back


def sniff_delimiter(header_line: str) -> str:
    """``;`` if the header line has more semicolons than commas, else ``,``."""
    return ";" if header_line.count(";") > header_line.count(",") else ","


def _swallowed_rows(cell: str, delimiter: str, columns: int) -> bool:
    """True if a quoted multi-line ``cell`` holds a line with a whole row's delimiters: the
    sign of a missing closing quote that swallowed the rows below."""
    if columns < 3 or "\n" not in cell:
        return False
    return any(line.count(delimiter) >= columns - 1 for line in cell.splitlines()[1:])


_SEP_LINE = re.compile(r"^sep=(.)[ \t]*\r?$", re.IGNORECASE)
"""Excel's delimiter line (``sep=;``), written before the header by some exports and tools."""


def csv_dialect(text: str) -> tuple[str, str, int]:
    """``(text, delimiter, skipped)``: ``text`` without its byte-order mark and without a
    first line ``sep=X`` (Excel's way to name the delimiter; then ``X`` is the delimiter and
    ``skipped`` is 1), else the delimiter :func:`sniff_delimiter` finds on the header line."""
    text = text.removeprefix("\ufeff")
    first, _, rest = text.partition("\n")
    declared = _SEP_LINE.match(first)
    if declared and declared.group(1) in ",;\t|":
        return rest, declared.group(1), 1
    return text, sniff_delimiter(first), 0


def parse_csv_deck(text: str, *, games: CardGames, source: str, default_slug: str) -> Deck:
    """Parse a CSV deck file's text (see the module docstring for the dialect).

    Args:
        text: the file's text, decoded; a leading byte-order mark and a first line
            ``sep=;`` (:func:`csv_dialect`) are dropped.
        games: the card games a deck may be of (``game:`` value -> its cards).
        source: the file name for error messages.
        default_slug: the deck slug when there is no ``deck`` column.

    Returns:
        The validated :class:`Deck`; its back is the default generated back.

    Raises:
        DeckError: any header or card problem (all at once); a header repeating a column
            name, an empty file, no card rows or an unterminated quote stop at once.
            Locations are ``line N``, the physical line of the file where the record starts
            (the header is line 1, or 2 after a ``sep=`` line).
    """
    text, delimiter, skipped = csv_dialect(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    header = _csv_header(reader, source, skipped)
    problems: Problems = []
    rows: list[tuple[Words, dict[str, Any]]] = []
    _csv_records(reader, header, delimiter, skipped, source, rows, problems)
    if not rows and not problems:
        raise _one(
            source,
            at_line(2 + skipped),
            _no_cards(Words("the file has a header row and no card rows")),
        )
    meta: dict[str, Any] = {}
    for key in ("game", "deck"):
        values = {row.get(key, "").strip() for _, row in rows}
        if len(values) > 1:
            problems.append(
                (
                    Words("all rows"),
                    FieldError(
                        field=key,
                        allowed=Words("the same value in every row"),
                        found=sorted(values),
                    ),
                )
            )
        meta[key] = next(iter(values)) if len(values) == 1 else None
    if "game" not in header:
        meta["game"] = None
    return _finish(games, source, meta, rows, problems, default_slug, None)


def _csv_header(reader: Any, source: str, skipped: int) -> list[str]:
    """The column names of a CSV deck (lower case, stripped), read from ``reader``.

    Raises:
        DeckError: an empty file, malformed CSV on the header line, or a column name given
            twice.
    """
    where = at_line(1 + skipped)
    try:
        header = [name.strip().lower() for name in next(reader)]
    except StopIteration:
        raise _one(
            source,
            WHOLE_FILE,
            FieldError(
                field="header",
                allowed=Words("a header row of field names"),
                found="",
                message=Words("the file is empty (a deck needs a header row and card rows)"),
            ),
        ) from None
    except csv.Error as exc:
        raise _one(
            source, where, FieldError(field="csv", allowed=WELL_FORMED_CSV, found=str(exc))
        ) from None
    columns: dict[str, int] = {}
    header_problems = []
    for number, name in enumerate(header, start=1):
        if name and name in columns:
            header_problems.append(
                (
                    where,
                    FieldError(
                        field=name,
                        allowed=Words("each column name once"),
                        found=name,
                        message=Words(
                            "columns %(first)s and %(second)s are both named '%(name)s'",
                            first=columns[name],
                            second=number,
                            name=name,
                        ),
                    ),
                )
            )
        columns.setdefault(name, number)
    if header_problems:
        raise DeckError(source, header_problems)
    return header


def _csv_records(
    reader: Any,
    header: list[str],
    delimiter: str,
    skipped: int,
    source: str,
    rows: list[tuple[Words, dict[str, Any]]],
    problems: Problems,
) -> None:
    """Read the card records after the header into ``rows`` (``(where, field -> text)``),
    and rows with too many values into ``problems``; blank records are skipped.

    Raises:
        DeckError: more than :data:`MAX_CARD_ENTRIES` records, a quote that is never closed
            (or one that swallowed whole rows), or other malformed CSV: stops at once.
    """
    start = reader.line_num + 1
    try:
        for record in reader:
            where = at_line(start + skipped)
            first_line, start = start, reader.line_num + 1
            if not any(cell.strip() for cell in record):
                continue
            if len(rows) >= MAX_CARD_ENTRIES:
                raise _one(
                    source,
                    where,
                    FieldError(
                        field="cards",
                        allowed=Words("at most %(count)s cards", count=MAX_CARD_ENTRIES),
                        found=f"more than {MAX_CARD_ENTRIES}",
                        message=too_many_cards(MAX_CARD_ENTRIES),
                    ),
                )
            swallowing = [
                name
                for name, cell in zip(header, record, strict=False)
                if _swallowed_rows(cell, delimiter, len(header))
            ]
            if swallowing:
                raise _one(
                    source,
                    where,
                    _unterminated(
                        Words(
                            "the quoted '%(name)s' cell runs over lines %(first)s-%(last)s and "
                            "holds whole rows",
                            name=swallowing[0] or "?",
                            first=first_line + skipped,
                            last=reader.line_num + skipped,
                        )
                    ),
                )
            if len(record) > len(header):
                problems.append(
                    (
                        where,
                        FieldError(
                            field="columns",
                            allowed=Words(
                                "at most %(count)s values (the header)", count=len(header)
                            ),
                            found=len(record),
                        ),
                    )
                )
                continue
            rows.append((where, {n: value for n, value in zip(header, record, strict=False) if n}))
    except csv.Error as exc:
        if "end of data" in str(exc) or reader.line_num > start:
            raise _one(
                source,
                at_line(start + skipped),
                _unterminated(
                    Words("a '\"' opened here is not closed properly (%(csv)s)", csv=str(exc))
                ),
            ) from None
        raise _one(
            source,
            at_line(reader.line_num + skipped),
            FieldError(
                field="csv",
                allowed=WELL_FORMED_CSV,
                found=str(exc),
                message=Words(
                    'malformed CSV: %(csv)s (a quote inside a quoted cell is written "")',
                    csv=str(exc),
                ),
            ),
        ) from None


def _unterminated(detail: Words) -> FieldError:
    return FieldError(
        field="csv",
        allowed=Words("closed quotes"),
        found=str(detail),
        message=Words("unterminated quoted field: %(detail)s", detail=detail),
    )


A_DECK_MAPPING = Words("a mapping with game and cards")
WELL_FORMED_CSV = Words("well-formed CSV")


def parse_deck_text(
    text: str, *, games: CardGames, source: str, default_slug: str | None = None
) -> Deck:
    """Parse a deck file's text, choosing YAML or CSV by the extension of ``source``.

    Args:
        text: the decoded file text.
        games: the card games a deck may be of (``game:`` value -> its cards).
        source: the file name (``.yaml``, ``.yml`` or ``.csv``), used for messages.
        default_slug: deck slug if the file names none; default: slug of the file stem.

    Raises:
        DeckError: unknown extension or any problem in the file.
    """
    name = source.replace("\\", "/").rsplit("/", 1)[-1]
    stem, _, ext = name.rpartition(".")
    slug = default_slug or slugify(stem or name, fallback="deck")
    if ext.lower() in ("yaml", "yml"):
        return parse_yaml_deck(text, games=games, source=source, default_slug=slug)
    if ext.lower() == "csv":
        return parse_csv_deck(text, games=games, source=source, default_slug=slug)
    raise DeckError(
        source,
        [
            (
                Words("file"),
                FieldError(
                    field="extension",
                    allowed=Words(".yaml, .yml or .csv"),
                    found="." + ext if ext else name,
                ),
            )
        ],
    )
