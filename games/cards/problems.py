"""A deck file's problems and where they are: :class:`DeckError` and its locations.

Every problem of a file is collected and raised together as one :class:`DeckError`; each
names the file, where in it (``header``, ``line 12``, ``line 12 (card 3)``: the row of a CSV
record's start, the line of a YAML card's mapping or key), and the
:class:`~games.cards.fields.FieldError` (field, allowed values, what was found). Locations and
messages are :class:`~games.cards.wording.Words`: English as text, and in a page's language
through :meth:`DeckError.translated`.
"""

from __future__ import annotations

from collections.abc import Callable

from games.cards.fields import FieldError
from games.cards.wording import Words

HEADER = Words("header")
"""The location of a problem in a deck's header (a CSV deck's header values, YAML's top)."""
WHOLE_FILE = Words.verbatim("")
"""The location of a problem of the whole file (``DeckError`` then names the file alone)."""


def at_line(line: int, card: int | None = None) -> Words:
    """The location ``line 12`` of a problem, or ``line 12 (card 3)`` for a YAML card."""
    if card is None:
        return Words("line %(line)s", line=line)
    return Words("line %(line)s (card %(card)s)", line=line, card=card)


Problems = list[tuple[Words, FieldError]]
"""A deck file's problems so far: ``(location, error)`` pairs."""


class DeckError(ValueError):
    """A deck file has problems; ``problems`` lists all of them, ``str()`` shows one per line.

    Attributes:
        source: the file name as given by the caller.
        problems: ``(location, FieldError)`` pairs, location like ``"header"`` or
            ``"line 12"`` (:class:`~games.cards.wording.Words`); an empty location means the
            whole file.
    """

    def __init__(self, source: str, problems: Problems) -> None:
        self.source = source
        self.problems = tuple(problems)
        super().__init__(
            "\n".join(
                f"{source}: {where}: {problem}" if where else f"{source}: {problem}"
                for where, problem in self.problems
            )
        )

    def translated(self, gettext: Callable[[str], str]) -> list[str]:
        """One line per problem as ``str()`` has them, in ``gettext``'s language (a page's)."""
        lines = []
        for where, problem in self.problems:
            said = problem.words.translated(gettext)
            place = where.translated(gettext) if isinstance(where, Words) else where
            lines.append(f"{self.source}: {place}: {said}" if place else f"{self.source}: {said}")
        return lines
