"""Texts of deck-file problems that a page can show in its reader's language.

A problem with a deck file (:class:`~games.cards.fields.FieldError`, its location in a
:class:`~games.cards.deck.DeckError`) is English on the command line and in the logs, and in the
phone's or the print shop's language on a page. Each such text is a :class:`Words`: an English
template with ``%(name)s`` fields, which is also its message id, and the values that fill it.
A ``Words`` *is* its English text (a ``str``), so every caller that prints, compares or joins
the problems sees exactly what it saw before; a page calls :meth:`Words.translated` with its
``gettext``.

The templates are extracted with the keyword ``Words`` (``pybabel extract -k Words``); the
German texts are in ``translations/de/LC_MESSAGES/messages.po`` beside this module (a game's
own texts in its phone view's catalog), and a test checks that every template has one.
Values are data (field names, what the file holds, numbers) and stay as they are, except a
value that is itself a ``Words`` (an ``allowed`` description inside a message), which is
translated too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

TRANSLATIONS = Path(__file__).parent / "translations"
"""The catalogs of the generic deck-file texts (``<lang>/LC_MESSAGES/messages.po``)."""


class Words(str):
    """An English text made from a template and its values; the template is its message id.

    ``Words("line %(line)s", line=12)`` is the text ``"line 12"``. Without values the template
    is the text as it is (a ``%`` in it stays).

    Attributes:
        template: the English template (the message id), or None for :meth:`verbatim` text.
        values: the template's values by name.
    """

    template: str | None
    values: Mapping[str, Any]
    parts: tuple[Words, ...] = ()
    separator: str = ""

    def __new__(cls, template: str, /, **values: Any) -> Words:
        text = template % {k: str(v) for k, v in values.items()} if values else template
        made = super().__new__(cls, text)
        made.template = template
        made.values = values
        return made

    @classmethod
    def verbatim(cls, text: str) -> Words:
        """``text`` as it is, never translated (a list of names, what a file holds)."""
        made = cls(text)
        made.template = None
        return made

    @classmethod
    def series(cls, parts: list[Words], separator: str) -> Words:
        """``parts`` joined by ``separator``, each translated on its own (a list of findings)."""
        made = cls.verbatim(separator.join(parts))
        made.parts, made.separator = tuple(parts), separator
        return made

    def but(self, **changes: Any) -> Words:
        """The same template with some values changed (a field renamed ``back.colour``)."""
        if self.template is None:
            return self
        return Words(self.template, **{**self.values, **changes})

    def translated(self, gettext: Callable[[str], str]) -> str:
        """The text in ``gettext``'s language: the translated template filled with the
        values, a ``Words`` value translated the same way (English where the catalog has no
        translation, as ``gettext`` answers)."""
        if self.parts:
            return self.separator.join(part.translated(gettext) for part in self.parts)
        if self.template is None:
            return str(self)
        text = gettext(self.template)
        if not self.values:
            return text
        return text % {
            name: value.translated(gettext) if isinstance(value, Words) else str(value)
            for name, value in self.values.items()
        }


def joined(items: Any, separator: str = ", ") -> Words:
    """Names joined by ``separator``, verbatim (field names, choices, card ids are data)."""
    return Words.verbatim(separator.join(str(item) for item in items))
