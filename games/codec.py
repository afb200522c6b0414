"""JSON codecs derived from frozen dataclasses: one field, one key, for states we wrote ourselves.

A game's state is a tree of frozen, keyword-only dataclasses (STYLE.md, habit 2). Where its
JSON is a plain copy of the fields (``{"id": unit.id, "stars": unit.stars, ...}``), the codec
is derived here from the field types instead of written out field by field:
:func:`encoder` gives ``value -> JSON`` and :func:`decoder` ``JSON -> value``. A game writes by
hand only the parts whose JSON differs from its fields (the phone view's form, derived values
such as a fleet's stars) and hands the rest to these.

The derived readers are for trusted input, the game's own ``state_to_json`` output (the
stored fixtures, the round trips): they check every value's JSON type and every object's keys
and raise :class:`~games.protocol.StateError` naming the class and the field, but not the
rules' ranges (the game's ``check_state`` does). Anything a phone sends (actions, setups, deck
lists) keeps its hand-checked parser, whose errors name the field and the allowed values.

Types understood (from the dataclass annotations, ``from __future__ import annotations``
included): ``bool``, ``int``, ``float``, ``str``, ``None``; ``X | None``; ``tuple[X, ...]``,
``tuple[X, Y]`` (a JSON list) and ``list[X]``; ``dict[K, V]`` / ``Mapping[K, V]`` with ``str``
or string-valued enum keys (a JSON object); enums (by value); nested dataclasses (a JSON object
of their fields, in field order). A field with a default may be missing from the JSON (a state
written before the field existed) and then takes its default.

The functions are compiled once per class (like :mod:`dataclasses` compiles ``__init__``), so
encoding costs what the hand-written dict literal did.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from games.protocol import StateError

Value = TypeVar("Value")
"""The dataclass a codec reads and writes."""

Custom = Mapping[type, Callable[[Any], Any]]
"""Class -> the hand-written function to use for its values instead of a derived one."""

_PRIMITIVES = (bool, int, float, str, type(None))
_INLINE_DEPTH = 3
"""Lists of dataclasses nested up to this deep have their items written inline, as a dict
literal (no function call per item); deeper ones call the class's function, which also ends a
recursive type."""


def encoder(cls: type[Value], custom: Custom | None = None) -> Callable[[Value], dict[str, Any]]:
    """The function that turns a ``cls`` value into JSON: an object of its fields.

    Args:
        cls: a dataclass.
        custom: classes (nested anywhere below ``cls``) whose values are written by the given
            function instead.

    Raises:
        TypeError: ``cls`` is not a dataclass, or a field's type is not one listed in the
            module docstring.
    """
    return _Compiler("enc", custom or {}).function(cls)


def decoder(cls: type[Value], custom: Custom | None = None) -> Callable[[Any], Value]:
    """The function that reads :func:`encoder`'s JSON back to an equal ``cls`` value.

    The function raises :class:`~games.protocol.StateError` for a value of the wrong JSON
    type, a missing field without default or an unknown field (naming the class and field),
    and for an error the dataclass raises (``__post_init__``).

    Args:
        cls: a dataclass.
        custom: classes whose values are read by the given function instead.

    Raises:
        TypeError: as :func:`encoder`.
    """
    inner = _Compiler("dec", custom or {}).function(cls)

    def read(data: Any) -> Value:
        try:
            return typing.cast(Value, inner(data))
        except StateError:
            raise
        except (ValueError, TypeError) as exc:
            raise StateError(f"{cls.__name__}: {exc}") from exc

    return read


def or_none(function: Callable[[Any], Any], value: Any) -> Any:
    """None for None, else ``function(value)`` (an optional part the game writes or reads by
    hand with a derived function)."""
    return None if value is None else function(value)


# ----------------------------------------------------------------------- checks (decoding)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "\u2026"


def _bad(where: str, need: str, value: Any) -> StateError:
    return StateError(f"{where} must be {need}, got {_shown(value)}")


def _bool(value: Any, where: str) -> bool:
    if value.__class__ is not bool:
        raise _bad(where, "true or false", value)
    return value


def _int(value: Any, where: str) -> int:
    if value.__class__ is not int:
        raise _bad(where, "a whole number", value)
    return value


def _float(value: Any, where: str) -> float:
    if value.__class__ not in (int, float):
        raise _bad(where, "a number", value)
    return float(value)


def _str(value: Any, where: str) -> str:
    if value.__class__ is not str:
        raise _bad(where, "text", value)
    return value


def _none(value: Any, where: str) -> None:
    if value is not None:
        raise _bad(where, "null", value)


def _list(value: Any, where: str, length: int | None = None) -> list[Any]:
    if value.__class__ is not list or (length is not None and len(value) != length):
        raise _bad(where, "a list" if length is None else f"a list of {length}", value)
    return value


def json_object(value: Any, where: str, known: frozenset[str] | None = None) -> dict[str, Any]:
    """``value`` as a JSON object whose keys are all in ``known`` (any keys when None).

    Raises:
        StateError: not an object, or an unknown key (names ``where`` and the known keys).
    """
    if value.__class__ is not dict:
        raise _bad(where, "a JSON object", value)
    if known is not None and not known.issuperset(value):
        unknown = sorted(str(k) for k in value if k not in known)
        raise StateError(f"{where}: unknown field {unknown[0][:30]!r}; fields are {sorted(known)}")
    return typing.cast(dict[str, Any], value)


def _missing(where: str, exc: KeyError) -> StateError:
    return StateError(f"{where}: missing field {exc.args[0]!r}")


_CHECKS: dict[type, str] = {bool: "_bool", int: "_int", float: "_float", str: "_str"}
_CHECKS[type(None)] = "_none"


# ---------------------------------------------------------------------------- the compiler


class _Compiler:
    """Writes the Python source of one function per dataclass (and per fixed-length tuple
    when decoding) and compiles them in one namespace."""

    def __init__(self, mode: str, custom: Custom) -> None:
        self.mode = mode
        self.custom = custom
        self.names: dict[Any, str] = {}
        self.namespace: dict[str, Any] = {
            "_bool": _bool,
            "_int": _int,
            "_float": _float,
            "_str": _str,
            "_none": _none,
            "_list": _list,
            "_missing": _missing,
            "json_object": json_object,
        }
        self.sources: list[str] = []

    def function(self, cls: type) -> Callable[[Any], Any]:
        """The compiled function of ``cls`` (and of every type below it).

        Raises:
            TypeError: not a dataclass, or a field type without a JSON form.
        """
        if not (dataclasses.is_dataclass(cls) and isinstance(cls, type)):
            raise TypeError(f"expected a dataclass, got {cls!r}")
        name = self._dataclass(cls)
        exec("\n\n".join(self.sources), self.namespace)  # noqa: S102 - our own generated source
        return typing.cast(Callable[[Any], Any], self.namespace[name])

    def _name(self, key: Any, stem: str) -> str:
        name = f"_{self.mode}{len(self.names)}_{stem}"
        self.names[key] = name
        return name

    # ----------------------------------------------------------------------- dataclasses

    def _dataclass(self, cls: type) -> str:
        if cls in self.names:
            return self.names[cls]
        name = self._name(cls, cls.__name__)
        hints = typing.get_type_hints(cls)
        fields = [f for f in dataclasses.fields(cls) if f.init]
        where = cls.__name__
        if self.mode == "enc":
            body = f"    return {self._fields_literal(cls, 'v', 0)}"
        else:
            self.namespace[f"{name}_cls"] = cls
            self.namespace[f"{name}_known"] = frozenset(f.name for f in fields)
            args = []
            for f in fields:
                read = self._dec(hints[f.name], f"d[{f.name!r}]", f"{where}.{f.name}", 0)
                if f.default is not dataclasses.MISSING:
                    self.namespace[f"{name}_{f.name}"] = f.default
                    read = f"({read} if {f.name!r} in d else {name}_{f.name})"
                elif f.default_factory is not dataclasses.MISSING:
                    self.namespace[f"{name}_{f.name}"] = f.default_factory
                    read = f"({read} if {f.name!r} in d else {name}_{f.name}())"
                args.append(f"{f.name}={read}")
            body = (
                f"    if v.__class__ is not dict or not {name}_known.issuperset(v):\n"
                f"        json_object(v, {where!r}, {name}_known)\n"
                f"    d = v\n"
                f"    try:\n"
                f"        return {name}_cls({', '.join(args)})\n"
                f"    except KeyError as exc:\n"
                f"        raise _missing({where!r}, exc) from None"
            )
        self.sources.append(f"def {name}(v):\n{body}")
        return name

    # ---------------------------------------------------------------------------- types

    def _fields_literal(self, cls: type, src: str, depth: int) -> str:
        """The dict literal of the fields of ``src``, a ``cls`` value held in a name."""
        hints = typing.get_type_hints(cls)
        fields = [f for f in dataclasses.fields(cls) if f.init]
        items = [
            f"{f.name!r}: {self._enc(hints[f.name], f'{src}.{f.name}', depth + 1)}" for f in fields
        ]
        return "{" + ", ".join(items) + "}"

    def _custom(self, tp: Any) -> str | None:
        if isinstance(tp, type) and tp in self.custom:
            name = f"_custom_{self.mode}_{len(self.namespace)}"
            self.namespace[name] = self.custom[tp]
            return name
        return None

    def _enc(self, tp: Any, src: str, depth: int) -> str:
        """A Python expression that encodes the value of expression ``src`` of type ``tp``."""
        custom = self._custom(tp)
        if custom is not None:
            return f"{custom}({src})"
        if tp in _PRIMITIVES:
            return src
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return f"{src}.value"
        if dataclasses.is_dataclass(tp) and isinstance(tp, type):
            if src.isidentifier() and depth <= _INLINE_DEPTH:  # an item of a list: no call
                return self._fields_literal(tp, src, depth)
            return f"{self._dataclass(tp)}({src})"
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        item = f"x{depth}"
        if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
            inner = self._enc(next(a for a in args if a is not type(None)), src, depth)
            return src if inner == src else f"(None if {src} is None else {inner})"
        if origin in (tuple, list) and (origin is list or (len(args) == 2 and args[1] is ...)):
            inner = self._enc(args[0], item, depth + 1)
            return f"list({src})" if inner == item else f"[{inner} for {item} in {src}]"
        if origin is tuple and args:
            return (
                "["
                + ", ".join(self._enc(a, f"{src}[{i}]", depth) for i, a in enumerate(args))
                + "]"
            )
        if origin in (dict, Mapping):
            key = self._enc(args[0], f"k{depth}", depth + 1)
            value = self._enc(args[1], item, depth + 1)
            if key == f"k{depth}" and value == item:
                return f"dict({src})"
            return f"{{{key}: {value} for k{depth}, {item} in {src}.items()}}"
        raise TypeError(f"no JSON codec for the type {tp!r}")

    def _dec(self, tp: Any, src: str, where: str, depth: int) -> str:
        """A Python expression that decodes the JSON of expression ``src`` to type ``tp``
        (checks name ``where``)."""
        custom = self._custom(tp)
        if custom is not None:
            return f"{custom}({src})"
        if tp in (bool, int, str):  # inline: a call per value would double the cost
            kind = tp.__name__
            return f"({src} if {src}.__class__ is {kind} else _{kind}({src}, {where!r}))"
        if tp in _CHECKS:
            return f"{_CHECKS[tp]}({src}, {where!r})"
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            name = f"_enum{len(self.namespace)}"
            self.namespace[name] = tp
            return f"{name}({src})"
        if dataclasses.is_dataclass(tp) and isinstance(tp, type):
            return f"{self._dataclass(tp)}({src})"
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        item = f"x{depth}"
        if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
            inner = self._dec(next(a for a in args if a is not type(None)), src, where, depth)
            return f"(None if {src} is None else {inner})"
        if origin in (tuple, list) and (origin is list or (len(args) == 2 and args[1] is ...)):
            inner = self._dec(args[0], item, f"{where}[]", depth + 1)
            items = f"({src} if {src}.__class__ is list else _list({src}, {where!r}))"
            made = f"[{inner} for {item} in {items}]"
            return made if origin is list else f"tuple({made})"
        if origin is tuple and args:
            if (tp, where) not in self.names:
                name = self._name((tp, where), "tuple")
                parts = ", ".join(
                    self._dec(a, f"t[{i}]", f"{where}[{i}]", 0) for i, a in enumerate(args)
                )
                self.sources.append(
                    f"def {name}(v):\n    t = _list(v, {where!r}, {len(args)})\n"
                    f"    return ({parts},)"
                )
            return f"{self.names[tp, where]}({src})"
        if origin in (dict, Mapping):
            key = self._dec(args[0], f"k{depth}", f"{where} key", depth + 1)
            value = self._dec(args[1], item, f"{where}[]", depth + 1)
            return (
                f"{{{key}: {value} for k{depth}, {item} in json_object({src}, {where!r}).items()}}"
            )
        raise TypeError(f"no JSON codec for the type {tp!r}")
