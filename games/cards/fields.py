"""Field specs shared by every card schema: one table per card type drives both parsing and
validation, so a deck file and a dataclass built in code are checked by the same rules.

Pure: no I/O. Every value arrives as text (CSV cells, YAML scalars read without type
resolution), so ``"007"`` stays ``"007"`` until a field spec converts it.
"""

from __future__ import annotations

import difflib
import enum
import hashlib
import re
import reprlib
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.cards.wording import Words, joined

FOUND_LIMIT = 60
"""Longest rendering of a found value in an error message, characters (ellipsis included)."""

_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxlist, _REPR.maxtuple, _REPR.maxdict = 2, 4, 4, 4
_REPR.maxstring = _REPR.maxother = FOUND_LIMIT


def short_repr(value: object, limit: int = FOUND_LIMIT) -> str:
    """``repr(value)`` on one line of at most about ``limit`` characters, cut with an ellipsis.

    Text is cut before quoting (``'abc…'``); nested lists and mappings are abbreviated without
    being expanded first, so even a huge value costs little.
    """
    if isinstance(value, str):
        return repr(value if len(value) <= limit - 2 else value[: limit - 3] + "…")
    text = _REPR.repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class FieldError(ValueError):
    """One field of one card is invalid.

    Attributes:
        field: the field name as written in a deck file.
        allowed: a human description of the allowed values.
        found: the value that was found (as given; the message shows it cut to
            :data:`FOUND_LIMIT` characters).
        words: the message, ``str(error)`` (:class:`~games.cards.wording.Words`: a page shows
            it in its reader's language); by default ``field 'F': allowed A; found V``, or the
            ``message`` given where that reads badly (``the file is empty``).
    """

    def __init__(
        self, *, field: str, allowed: Words, found: object, message: Words | None = None
    ) -> None:
        self.field = field
        self.allowed = allowed
        self.found = found
        self.words = message or Words(
            "field '%(field)s': allowed %(allowed)s; found %(found)s",
            field=field,
            allowed=allowed,
            found=short_repr(found),
        )
        super().__init__(str(self.words))


class Kind(enum.Enum):
    """How a field's text is converted."""

    TEXT = "text"
    INT = "int"
    CHOICE = "choice"
    LIST = "list"
    BOOL = "bool"
    SLUG = "slug"


MAX_DIGITS = 9
"""Most significant digits of a whole number a field reads (every range is far smaller); a
longer one is refused as out of range before conversion (Python refuses 4,300 digits with an
error that names no field)."""

LINE_BREAK_LIMIT = 6
"""Most lines in a multi-line text field (ability texts): the text box of the smallest
standard card sets this many short lines at the minimum size (see ``printables.faces``)."""


def normalise_text(text: str) -> str:
    """``text`` with Windows (``\\r\\n``) and old Mac (``\\r``) line breaks as ``\\n`` and
    tabs as single spaces (spreadsheets export both); nothing else changes."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")


def text_problem(text: str, *, multiline: bool) -> Words | None:
    """Why ``text`` cannot be printed as it is, or None.

    Printable means: every character is a visible character or a space (Unicode category
    Zs); a multi-line field may also hold line breaks (``\n``). Control characters (C0, C1,
    DEL), invisible format characters (zero-width space, bidi overrides, ...), private-use,
    unassigned and surrogate code points would print as nothing or as a blank box, so they
    are refused with their code point and position (1-based character index).
    """
    if text.isprintable():  # the common case in C: visible characters and plain spaces
        return None
    if multiline and text.replace("\n", "").isprintable():
        lines = text.count("\n") + 1
        return _too_many_lines(lines) if lines > LINE_BREAK_LIMIT else None
    for index, ch in enumerate(text, start=1):
        if ch == "\n":
            if multiline:
                continue
            return Words(
                "a line break at character %(index)s (this field is one line)", index=index
            )
        if ch.isprintable() or unicodedata.category(ch) == "Zs":
            continue
        kind = {
            "Cc": Words("control character"),
            "Cf": Words("invisible format character"),
            "Co": Words("private-use character"),
            "Cn": Words("unassigned code point"),
            "Cs": Words("lone surrogate"),
        }.get(unicodedata.category(ch), Words("line separator"))
        code = format(ord(ch), "04X")
        return Words(
            "%(kind)s U+%(code)s at character %(index)s", kind=kind, code=code, index=index
        )
    if multiline and text.count("\n") >= LINE_BREAK_LIMIT:
        return _too_many_lines(text.count("\n") + 1)
    return None


def _too_many_lines(lines: int) -> Words:
    return Words("%(lines)s lines (at most %(limit)s)", lines=lines, limit=LINE_BREAK_LIMIT)


_SLUG = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$")
_LIST_SPLIT = re.compile(r"[\s,]+")
_TRUE = {"yes", "true", "1", "y", "on"}
_FALSE = {"no", "false", "0", "n", "off"}


_LATIN_EXTRA = str.maketrans(
    {"ł": "l", "Ł": "L", "ß": "ss", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "œ": "oe"}
    | {"Œ": "OE", "đ": "d", "Đ": "D", "þ": "th", "Þ": "TH", "ð": "d", "Ð": "D", "ı": "i"}
)


def slugify(text: str, fallback: str = "card") -> str:
    """Lower-case ASCII slug of ``text`` (letters, digits, hyphens), used in card URLs.

    Latin letters lose their accents (``"Łódź"`` -> ``"lodz"``, ``"Größe"`` -> ``"grosse"``);
    other characters become hyphens. Letters and digits that have no ASCII form (Cyrillic,
    Greek, CJK, ...) are not dropped silently: a stable 6-digit hash of the whole text is
    appended, so different names keep different slugs (``"Звезда"`` -> ``"card-" + hash``,
    ``"Звезда 2"`` -> ``"2-" + hash``); so is a name of symbols only (``"★"``).

    Args:
        text: the name.
        fallback: the slug's start when nothing of ``text`` is ASCII.

    Returns:
        A slug of 1..64 characters.
    """
    decomposed = unicodedata.normalize("NFKD", text.translate(_LATIN_EXTRA))
    ascii_text = decomposed.encode("ascii", "ignore").decode()
    lost = any(ord(ch) > 127 and unicodedata.category(ch)[0] in "LN" for ch in decomposed)
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:64].strip("-")
    if slug and not lost:
        return slug
    if not text.strip():
        return fallback
    digest = hashlib.sha256(unicodedata.normalize("NFC", text).encode()).hexdigest()[:6]
    return f"{slug[:57].strip('-') or fallback}-{digest}"


@dataclass(frozen=True, kw_only=True)
class FieldSpec:
    """How one card field is read and checked.

    Attributes:
        name: the field name in deck files and the dataclass attribute name.
        kind: conversion of the text value.
        required: a missing or empty value is an error (else ``default`` is used).
        default: the value used when the field is absent and not required.
        low: smallest allowed integer (``Kind.INT``) or list length (``Kind.LIST``).
        high: largest allowed integer or list length.
        choices: allowed values of a ``CHOICE`` field or of each ``LIST`` item (case-insensitive
            on input, stored in the spelling given here).
        max_length: longest allowed text, in characters.
        multiline: a text field that may hold line breaks (at most ``LINE_BREAK_LIMIT``
            lines); other fields are one line.
    """

    name: str
    kind: Kind = Kind.TEXT
    required: bool = False
    default: Any = None
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    max_length: int | None = None
    multiline: bool = False

    def allowed(self) -> Words:
        """A human description of the allowed values, used in error messages."""
        if self.kind is Kind.INT:
            return Words("a whole number %(low)s..%(high)s", low=self.low, high=self.high)
        if self.kind is Kind.CHOICE:
            return one_of(self.choices)
        if self.kind is Kind.LIST:
            return Words(
                "%(low)s..%(high)s of %(choices)s (separated by spaces or commas)",
                low=self.low,
                high=self.high,
                choices=joined(self.choices),
            )
        if self.kind is Kind.BOOL:
            return Words("yes or no")
        if self.kind is Kind.SLUG:
            return Words("a slug of a-z, 0-9 and '-' (1..64 characters)")
        lines = LINE_BREAK_LIMIT
        if self.multiline and self.required:
            need = Words("non-empty text (printable, at most %(lines)s lines)", lines=lines)
        elif self.multiline:
            need = Words("text (printable, at most %(lines)s lines)", lines=lines)
        elif self.required:
            need = Words("non-empty text (one line)")
        else:
            need = Words("text (one line)")
        if self.max_length:
            return Words(
                "%(text)s of at most %(length)s characters", text=need, length=self.max_length
            )
        return need

    def _fail(self, found: object) -> FieldError:
        if isinstance(found, tuple) and all(isinstance(item, str) for item in found):
            found = " ".join(found)  # a parsed list, shown as a deck file writes it
        return FieldError(field=self.name, allowed=self.allowed(), found=found)

    def _absent(self, raw: object) -> FieldError:
        """The error of a required field that is not given (``raw`` None: ``missing``) or
        given blank (``empty``)."""
        missing = raw is None
        values = {"field": self.name, "allowed": self.allowed()}
        return FieldError(
            field=self.name,
            allowed=self.allowed(),
            found="missing" if missing else "empty",
            message=(
                Words("field '%(field)s': missing; allowed %(allowed)s", **values)
                if missing
                else Words("field '%(field)s': empty; allowed %(allowed)s", **values)
            ),
        )

    def parse(self, raw: object) -> Any:
        """Convert a raw deck-file value (text, or a list of texts for list fields).

        Args:
            raw: the value as read; ``None`` or blank text means "absent".

        Returns:
            The converted value, or ``default`` when absent and optional.

        Raises:
            FieldError: the value cannot be converted or is out of range.
        """
        if isinstance(raw, list) and self.kind is Kind.LIST:
            items = [str(item).strip() for item in raw if str(item).strip()]
            text = " ".join(items)
        else:
            if isinstance(raw, (list, dict)):
                raise self._fail(raw)
            text = "" if raw is None else normalise_text(str(raw)).strip()
            problem = text_problem(text, multiline=self.multiline)
            if problem:
                raise FieldError(
                    field=self.name,
                    allowed=self.allowed(),
                    found=text,
                    message=Words(
                        "field '%(field)s': %(problem)s is not allowed; allowed %(allowed)s",
                        field=self.name,
                        problem=problem,
                        allowed=self.allowed(),
                    ),
                )
            items = (
                [item for item in _LIST_SPLIT.split(text) if item] if self.kind is Kind.LIST else []
            )
        if not text:
            if self.required:
                raise self._absent(raw)
            return self.default
        if self.kind is Kind.INT:
            if not re.fullmatch(r"[+-]?\d+", text) or len(text.lstrip("+-0")) > MAX_DIGITS:
                raise self._fail(text)  # a number beyond any range: never converted
            value: Any = int(text)
        elif self.kind is Kind.CHOICE:
            value = self._choice(text)
        elif self.kind is Kind.LIST:
            value = tuple(self._choice(item) for item in items)
        elif self.kind is Kind.BOOL:
            if text.lower() not in _TRUE | _FALSE:
                raise self._fail(text)
            value = text.lower() in _TRUE
        else:
            value = text
        self.check(value)
        return value

    def _choice(self, text: str) -> str:
        for choice in self.choices:
            if choice.lower() == text.lower():
                return choice
        raise self._fail(text)

    def check(self, value: Any) -> None:
        """Check an already converted value.

        Raises:
            FieldError: the value breaks this spec.
        """
        if value is None or (not self.required and value == self.default):
            if self.required:
                raise self._absent(value)
            return
        ok = True
        if self.kind is Kind.INT:
            ok = (
                isinstance(value, int)
                and not isinstance(value, bool)
                and (self.low is None or value >= self.low)
                and (self.high is None or value <= self.high)
            )
        elif self.kind is Kind.CHOICE:
            ok = value in self.choices
        elif self.kind is Kind.LIST:
            ok = (
                isinstance(value, tuple)
                and all(item in self.choices for item in value)
                and (self.low is None or len(value) >= self.low)
                and (self.high is None or len(value) <= self.high)
            )
        elif self.kind is Kind.BOOL:
            ok = isinstance(value, bool)
        elif self.kind is Kind.SLUG:
            ok = isinstance(value, str) and bool(_SLUG.match(value))
        else:
            ok = isinstance(value, str) and not (self.required and not value.strip())
            ok = ok and (self.max_length is None or len(value) <= self.max_length)
            ok = ok and text_problem(value, multiline=self.multiline) is None
        if not ok:
            raise self._fail(value)


# Fields every card type has (see docs/cards.md, "Writing your own deck").
COMMON_FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec(name="name", required=True, max_length=40),
    FieldSpec(name="id", kind=Kind.SLUG, default=""),
    FieldSpec(name="copies", kind=Kind.INT, default=1, low=1, high=99),
    FieldSpec(name="image", max_length=300),
    FieldSpec(name="back_image", max_length=300),
    FieldSpec(name="qr", kind=Kind.BOOL, default=True),
)


@dataclass(frozen=True, kw_only=True)
class ValidatedCard:
    """Base of the frozen card dataclasses: the common fields, and a ``__post_init__`` that
    checks every field spec.

    Subclasses set ``FIELDS`` (the full spec table, including ``COMMON_FIELDS``) and ``KIND``
    (the value of the ``kind`` column that selects the class). A missing ``id`` is derived
    from the name with :func:`slugify`.

    Attributes:
        name: the card's name (1..40 characters).
        id: slug in the card's URL (default: :func:`slugify` of the name).
        copies: how many to print, 1..99.
        image: art image path, relative to the deck file.
        back_image: a back image for this card only.
        qr: print this card's QR code.

    Raises:
        FieldError: the first invalid field (deck files report all of them, see
            :func:`parse_fields`).
    """

    FIELDS: ClassVar[tuple[FieldSpec, ...]]
    KIND: ClassVar[str]
    SIDES: ClassVar[tuple[str, ...]] = ("front",)
    """The faces printed: one, or a front and a back side printed as one card's two sides."""
    LARGE: ClassVar[bool] = False
    """Printed at the large card size (the sheets' second size) instead of the standard one."""

    name: str
    id: str = ""
    copies: int = 1
    image: str | None = None
    back_image: str | None = None
    qr: bool = True

    def __post_init__(self) -> None:
        for spec in self.FIELDS:
            spec.check(getattr(self, spec.name))
        if not self.id:
            object.__setattr__(self, "id", slugify(self.name))
        self.check_card()

    def check_card(self) -> None:
        """Cross-field checks of one card; override in subclasses.

        Raises:
            FieldError: two fields contradict each other.
        """


def parse_fields(
    cls: type[ValidatedCard], row: Mapping[str, object]
) -> tuple[dict[str, Any], list[FieldError]]:
    """Convert every field of a deck-file row for card class ``cls``, collecting all errors.

    Args:
        cls: the card dataclass; its ``FIELDS`` table says what is allowed.
        row: field name -> raw value (``kind`` and ``game`` columns are ignored here).

    Returns:
        ``(values, errors)``: the converted values of the good fields and one
        :class:`FieldError` per bad or unknown field.
    """
    specs = {spec.name: spec for spec in cls.FIELDS}
    values: dict[str, Any] = {}
    errors: list[FieldError] = []
    for key in row:
        if key not in specs and key not in ("kind", "game", "deck"):
            allowed = Words("a field of %(names)s", names=joined(specs))
            errors.append(unknown_field(key, allowed, (*specs, "kind")))
    for name, spec in specs.items():
        try:
            values[name] = spec.parse(row.get(name))
        except FieldError as exc:
            errors.append(exc)
    return values, errors


def did_you_mean(word: str, known: Sequence[str]) -> Words:
    """`` (did you mean 'troop'?)`` for the known name nearest to ``word`` by
    :func:`difflib.get_close_matches` (case-insensitive, ratio at least 0.6), else ``""``."""
    lowered = {name.lower(): name for name in known}
    close = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
    if not close:
        return Words.verbatim("")
    return Words(" (did you mean '%(name)s'?)", name=lowered[close[0]])


def one_of(choices: Sequence[str]) -> Words:
    """``one of a, b, c`` (the allowed values of a choice)."""
    return Words("one of %(choices)s", choices=joined(choices))


def unknown_field(key: object, allowed: Words, known: Sequence[str]) -> FieldError:
    """The error of a field ``key`` that is not allowed (``allowed`` says which are); the
    message suggests the nearest of ``known``."""
    described = allowed
    return FieldError(
        field=str(key),
        allowed=described,
        found=key,
        message=Words(
            "field '%(field)s': allowed %(allowed)s; found %(found)s%(hint)s",
            field=key,
            allowed=described,
            found=short_repr(key),
            hint=did_you_mean(str(key), known),
        ),
    )


CARDS_WORD = Words("cards")
"""How a deck's cards are called in :func:`deck_size_problems` unless a game says otherwise."""


def deck_size_problems(
    cards: Sequence[ValidatedCard],
    *,
    min_cards: int,
    max_copies: int,
    rule: str,
    what: Words = CARDS_WORD,
) -> list[FieldError]:
    """The common deck-building limits: at least ``min_cards`` cards in all, at most
    ``max_copies`` copies of each card.

    Args:
        cards: the cards that form the deck (not the fleet or team).
        min_cards: smallest deck size.
        max_copies: most copies of one card.
        rule: the rule id named in the messages (``PM-5``, ``TF-3``).
        what: how the deck's cards are called in the message.

    Returns:
        One :class:`FieldError` per broken limit.
    """
    problems: list[FieldError] = []
    size = sum(card.copies for card in cards)
    if size < min_cards:
        problems.append(
            FieldError(
                field="copies",
                allowed=Words(
                    "a deck of at least %(count)s %(what)s (%(rule)s)",
                    count=min_cards,
                    what=what,
                    rule=rule,
                ),
                found=size,
            )
        )
    problems.extend(
        FieldError(
            field="copies",
            allowed=Words(
                "at most %(count)s copies of '%(name)s' (%(rule)s)",
                count=max_copies,
                name=card.name,
                rule=rule,
            ),
            found=card.copies,
        )
        for card in cards
        if card.copies > max_copies
    )
    return problems


def star_limit_problems(total: int, *, limit: int, what: Words, rule: str) -> list[FieldError]:
    """A fleet or team worth more than ``limit`` stars (PM-5, TF-3); empty when within.
    ``what`` is the words with the article (``Words("a fleet")``: German needs the gender)."""
    if total <= limit:
        return []
    return [
        FieldError(
            field="stars",
            allowed=Words(
                "%(what)s of at most %(limit)s stars (%(rule)s)", what=what, limit=limit, rule=rule
            ),
            found=total,
        )
    ]
