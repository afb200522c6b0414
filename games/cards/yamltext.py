"""Deck YAML text to plain values, read safely from PyYAML's event stream.

PyYAML's event parser (libyaml's C parser where PyYAML was built with it, else the pure
Python one) reads the text once; this module builds the mappings and lists itself, without
recursion, so it can refuse early and with the line number:

* aliases (``*name``: a small file must not expand into a huge one) and tags (``!tag``,
  ``!!python/object``: a deck holds plain text only);
* nesting deeper than :data:`MAX_DEPTH` (a deck needs 4 levels; a file of 100,000 ``[``
  would otherwise exhaust the stack of a recursive loader);
* keys that are not text, and more than one document;
* more than ``max_cards`` entries in the ``cards`` list (checked while reading, so a huge
  file stops at once).

Every scalar stays text (``007`` stays ``"007"``, ``no`` stays ``"no"``); the field specs
convert them. Keys given twice are collected (not raised) so a deck reports all of them.
Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from games.cards.wording import Words

MAX_DEPTH = 8
"""Deepest nesting accepted (root mapping 1, cards list 2, card 3, a flow list 4)."""


class YamlTextError(ValueError):
    """The text is not a YAML document this reader accepts.

    Attributes:
        line: 1-based line of the problem (0 when unknown).
        field: what is wrong (``yaml``, ``cards``).
        allowed: what would be allowed.
        found: what was found.
        message: the full message (without the line).
    """

    def __init__(
        self, *, line: int, field: str, allowed: Words, found: str, message: Words
    ) -> None:
        self.line = line
        self.field = field
        self.allowed = allowed
        self.found = found
        self.message = message
        super().__init__(f"line {line}: {message}" if line else message)


class Mapping(dict[str, Any]):
    """A YAML mapping that knows the (1-based) line it starts on and the line of each key."""

    line: int = 0
    key_lines: dict[str, int]


@dataclass(frozen=True, kw_only=True)
class RepeatedKey:
    """A key given twice in one mapping: ``key`` on ``line``, first on ``first_line``."""

    key: str
    line: int
    first_line: int


@dataclass
class _Frame:
    value: Mapping | list[Any]
    key: str | None = None
    key_line: int = 0
    counts_cards: bool = False


def _parser(text: str) -> Any:
    loader_class = getattr(yaml, "CBaseLoader", None) or yaml.BaseLoader
    return loader_class(text)


def _line(event: Any) -> int:
    mark = getattr(event, "start_mark", None)
    return int(mark.line) + 1 if mark is not None else 0


def _refuse(event: Any, what: Words, found: str, message: Words) -> YamlTextError:
    return YamlTextError(
        line=_line(event), field="yaml", allowed=what, found=found, message=message
    )


def load_deck_yaml(text: str, *, max_cards: int) -> tuple[Any, list[RepeatedKey]]:
    """The document of ``text`` as :class:`Mapping` / ``list`` / ``str`` values.

    Args:
        text: the YAML text (decoded).
        max_cards: most entries allowed in the root mapping's ``cards`` list.

    Returns:
        ``(document, repeated_keys)``; the document is None for an empty text or a bare
        ``---``. A repeated key keeps its first value.

    Raises:
        YamlTextError: malformed YAML (with PyYAML's reason), an alias, a tag, nesting deeper
            than :data:`MAX_DEPTH`, a key that is not text, a second document, or more than
            ``max_cards`` cards.
    """
    loader = _parser(text)
    repeated: list[RepeatedKey] = []
    stack: list[_Frame] = []
    document: Any = None
    documents = 0
    cards = 0
    try:
        while True:
            event = loader.get_event()
            if event is None or isinstance(event, yaml.StreamEndEvent):
                break
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise _refuse(
                        event,
                        Words("one document"),
                        "---",
                        Words("a deck file holds one YAML document"),
                    )
                continue
            if isinstance(event, (yaml.StreamStartEvent, yaml.DocumentEndEvent)):
                continue
            if isinstance(event, yaml.AliasEvent):
                raise _refuse(
                    event,
                    Words("no aliases"),
                    "*",
                    Words(
                        "YAML aliases (*name) are not supported; write the value out, or "
                        "repeat a card with copies"
                    ),
                )
            if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                done = stack.pop()
                value: Any = done.value
            else:
                tag = getattr(event, "tag", None)
                if tag is not None and not (
                    isinstance(event, yaml.ScalarEvent) and tag == "!" and event.implicit[1]
                ):
                    raise _refuse(
                        event,
                        Words("no tags"),
                        str(tag),
                        Words(
                            "YAML tags (%(tag)s) are not supported; a deck holds plain text",
                            tag=str(tag)[:40],
                        ),
                    )
                if isinstance(event, yaml.ScalarEvent):
                    value = event.value
                else:
                    if len(stack) >= MAX_DEPTH:
                        raise _refuse(
                            event,
                            Words("at most %(depth)s levels of nesting", depth=MAX_DEPTH),
                            f"{len(stack) + 1} levels",
                            Words(
                                "nesting deeper than %(depth)s levels is not a deck",
                                depth=MAX_DEPTH,
                            ),
                        )
                    container: Mapping | list[Any]
                    if isinstance(event, yaml.MappingStartEvent):
                        container = Mapping()
                        container.line = _line(event)
                        container.key_lines = {}
                    else:
                        container = []
                    parent = stack[-1] if stack else None
                    counting = (
                        parent is not None
                        and len(stack) == 1
                        and isinstance(parent.value, Mapping)
                        and parent.key == "cards"
                        and isinstance(container, list)
                    )
                    if parent is not None and parent.counts_cards:
                        cards += 1
                        if cards > max_cards:
                            raise _too_many(event, max_cards)
                    stack.append(_Frame(value=container, counts_cards=counting))
                    continue
            if stack and stack[-1].counts_cards and isinstance(event, yaml.ScalarEvent):
                cards += 1
                if cards > max_cards:
                    raise _too_many(event, max_cards)
            if not stack:
                document = value
                continue
            _place(stack[-1], value, event, repeated)
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, text) from None
    finally:
        dispose = getattr(loader, "dispose", None)
        if dispose is not None:
            dispose()
    return document, repeated


def _too_many(event: Any, max_cards: int) -> YamlTextError:
    return YamlTextError(
        line=_line(event),
        field="cards",
        allowed=Words("at most %(count)s cards", count=max_cards),
        found=f"more than {max_cards}",
        message=too_many_cards(max_cards),
    )


def _place(frame: _Frame, value: Any, event: Any, repeated: list[RepeatedKey]) -> None:
    """Put a finished value into its parent: a list item, a mapping key or a mapping value."""
    target = frame.value
    if isinstance(target, list):
        target.append(value)
        return
    if frame.key is None:
        if not isinstance(value, str):
            raise YamlTextError(
                line=frame.key_line or _line(event),
                field="key",
                allowed=Words("a field name (text)"),
                found="a list or mapping",
                message=Words("a key must be a field name (text), not a list or mapping"),
            )
        frame.key, frame.key_line = value, _line(event)
        return
    key, line = frame.key, frame.key_line
    frame.key = None
    if key in target.key_lines:
        repeated.append(RepeatedKey(key=key, line=line, first_line=target.key_lines[key]))
        return
    target.key_lines[key] = line
    target[key] = value


def _yaml_error(exc: yaml.YAMLError, text: str) -> YamlTextError:
    """A PyYAML error as a :class:`YamlTextError` with its line and one-line reason."""
    mark = getattr(exc, "problem_mark", None)
    if mark is not None:
        line = int(mark.line) + 1
    elif isinstance(getattr(exc, "position", None), int):
        line = text.count("\n", 0, exc.position) + 1  # type: ignore[attr-defined]
    else:
        line = 0
    reason = getattr(exc, "problem", None) or getattr(exc, "reason", None)
    if isinstance(exc, yaml.reader.ReaderError):
        code = (
            exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or " ")
        )
        reason = f"character U+{code:04X} is not allowed in YAML ({exc.reason})"
    problem = str(reason or str(exc).splitlines()[0])  # PyYAML's words: kept as they are
    return YamlTextError(
        line=line,
        field="yaml",
        allowed=VALID_YAML,
        found=problem,
        message=Words(
            "field 'yaml': allowed valid YAML; found %(found)s", found=repr(problem[:80])
        ),
    )


VALID_YAML = Words("valid YAML")
"""What a YAML syntax error allows (the deck reader gives such an error the standard form)."""


def too_many_cards(count: int) -> Words:
    """The message of a deck file with more than ``count`` cards (YAML and CSV)."""
    return Words(
        "more than %(count)s cards in one deck file; split it into several decks", count=count
    )
