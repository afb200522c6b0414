"""The derived JSON codecs (games/codec.py): the JSON each type gives, round trips, and the
errors of the reader, which name the class and the field."""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from games.codec import decoder, encoder, json_object, or_none
from games.protocol import StateError


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True, kw_only=True)
class Leaf:
    name: str
    size: int = 1

    def __post_init__(self) -> None:
        if self.size < 0:
            raise ValueError(f"size must be >= 0, got {self.size}")


@dataclass(frozen=True, kw_only=True)
class Tree:
    flag: bool
    ratio: float
    colour: Colour
    leaves: tuple[Leaf, ...]
    pair: tuple[str, int]
    best: Leaf | None
    counts: Mapping[str, int]
    by_colour: dict[Colour, tuple[int, ...]]
    rows: list[tuple[int, ...]]
    note: str | None = None
    tags: tuple[str, ...] = field(default=())


@dataclass(frozen=True, kw_only=True)
class Node:
    label: str
    children: tuple[Node, ...] = ()
    parent: Node | None = None


TREE = Tree(
    flag=True,
    ratio=0.5,
    colour=Colour.BLUE,
    leaves=(Leaf(name="a"), Leaf(name="b", size=3)),
    pair=("x", 2),
    best=None,
    counts={"A": 1, "B": 0},
    by_colour={Colour.RED: (1, 2)},
    rows=[(1,), ()],
    tags=("t",),
)
JSON = {
    "flag": True,
    "ratio": 0.5,
    "colour": "blue",
    "leaves": [{"name": "a", "size": 1}, {"name": "b", "size": 3}],
    "pair": ["x", 2],
    "best": None,
    "counts": {"A": 1, "B": 0},
    "by_colour": {"red": [1, 2]},
    "rows": [[1], []],
    "note": None,
    "tags": ["t"],
}


def test_the_json_is_the_fields_one_to_one() -> None:
    assert encoder(Tree)(TREE) == JSON
    assert list(encoder(Tree)(TREE)) == list(JSON)  # in field order


def test_the_json_reads_back_to_an_equal_value() -> None:
    assert decoder(Tree)(json.loads(json.dumps(encoder(Tree)(TREE)))) == TREE
    read = decoder(Tree)(JSON)
    assert isinstance(read.leaves, tuple) and isinstance(read.pair, tuple)
    assert read.by_colour == {Colour.RED: (1, 2)}


def test_a_missing_field_with_a_default_takes_it() -> None:
    old = {k: v for k, v in JSON.items() if k not in ("note", "tags")}
    old["leaves"] = [{"name": "a"}]
    read = decoder(Tree)(old)
    assert (read.note, read.tags, read.leaves) == (None, (), (Leaf(name="a", size=1),))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"flag": 1}, r"Tree.flag must be true or false, got 1"),
        ({"pair": ["x", True]}, r"Tree.pair\[1\] must be a whole number, got True"),
        ({"pair": ["x"]}, r"Tree.pair must be a list of 2, got \['x'\]"),
        ({"leaves": [{"name": 3}]}, r"Leaf.name must be text, got 3"),
        ({"leaves": [{"name": "a", "colour": "red"}]}, r"Leaf: unknown field 'colour'"),
        ({"leaves": [{"size": 2}]}, r"Leaf: missing field 'name'"),
        ({"leaves": {"name": "a"}}, r"Tree.leaves must be a list"),
        ({"best": [1]}, r"Leaf must be a JSON object, got \[1\]"),
        ({"colour": "green"}, r"Tree: 'green' is not a valid Colour"),
        ({"leaves": [{"name": "a", "size": -1}]}, r"Tree: size must be >= 0, got -1"),
        ({"counts": {"A": "1"}}, r"Tree.counts\[\] must be a whole number, got '1'"),
        ({"ratio": "0.5"}, r"Tree.ratio must be a number, got '0.5'"),
    ],
)
def test_the_reader_names_the_class_and_field(change: dict[str, Any], message: str) -> None:
    with pytest.raises(StateError, match=message):
        decoder(Tree)({**JSON, **change})


def test_a_missing_field_without_default_is_refused() -> None:
    with pytest.raises(StateError, match="Tree: missing field 'pair'"):
        decoder(Tree)({k: v for k, v in JSON.items() if k != "pair"})


def test_custom_functions_replace_the_derived_ones_below() -> None:
    written = encoder(Tree, {Leaf: lambda leaf: leaf.name})(TREE)
    assert written["leaves"] == ["a", "b"] and written["best"] is None
    custom = {Leaf: lambda name: Leaf(name=name, size=9)}
    read = decoder(Tree, custom)({**JSON, "best": "z", "leaves": ["a", "b"]})
    assert read.best == Leaf(name="z", size=9) and read.leaves[1] == Leaf(name="b", size=9)


def test_types_without_a_json_form_are_refused_when_the_codec_is_made() -> None:
    @dataclass(frozen=True)
    class Odd:
        values: set[int]

    with pytest.raises(TypeError, match="no JSON codec for the type set"):
        encoder(Odd)
    with pytest.raises(TypeError, match="expected a dataclass"):
        decoder(int)


def test_json_object_checks_the_keys() -> None:
    assert json_object({"a": 1}, "here", frozenset({"a", "b"})) == {"a": 1}
    with pytest.raises(StateError, match=r"here: unknown field 'c'; fields are \['a', 'b'\]"):
        json_object({"c": 1}, "here", frozenset({"a", "b"}))
    with pytest.raises(StateError, match="here must be a JSON object, got 'x'"):
        json_object("x", "here")


def test_or_none_calls_the_function_only_for_a_value() -> None:
    assert or_none(encoder(Leaf), None) is None
    assert or_none(encoder(Leaf), Leaf(name="a")) == {"name": "a", "size": 1}


def test_a_recursive_type_round_trips_at_any_depth() -> None:
    deep = Node(label="0")
    for level in range(1, 12):
        deep = Node(label=str(level), children=(deep, Node(label="leaf")), parent=Node(label="p"))
    written = encoder(Node)(deep)
    assert written["children"][0]["children"][0]["label"] == "9"
    assert written["parent"] == {"label": "p", "children": [], "parent": None}
    assert decoder(Node)(json.loads(json.dumps(written))) == deep
