"""The action kit every game's actions.py shares (games.actionjson): the frozen keyword-only
action classes and the JSON envelope's refusals, with the messages the phone shows."""

from __future__ import annotations

import dataclasses

import pytest

from games.actionjson import GameAction, action_kind, brief, field_names
from games.protocol import MalformedAction
from games.toybattle import actions as toybattle
from games.transformers import actions as transformers


class Jump(GameAction):
    """A test action with two fields, one with a default."""

    to: int
    high: bool = False


class Wait(GameAction):
    """A test action without fields."""


class Rest(GameAction):
    """Another test action without fields."""


def test_an_action_class_is_a_frozen_keyword_only_dataclass() -> None:
    jump = Jump(to=3)
    assert dataclasses.is_dataclass(jump) and (jump.to, jump.high) == (3, False)
    assert field_names(Jump) == {"to", "high"} and field_names(Wait) == frozenset()
    with pytest.raises(dataclasses.FrozenInstanceError):
        jump.to = 4  # type: ignore[misc]
    with pytest.raises(TypeError):
        Jump(3)  # type: ignore[call-arg]
    assert Jump(to=3) == jump and Jump(to=4) != jump
    rest: object = Rest()
    assert Wait() == Wait() and Wait() != rest  # no fields, still told apart by class
    assert repr(Rest()) == "Rest()"


FIELDS = {"jump": field_names(Jump), "wait": field_names(Wait), "free": None}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1], "an action must be a JSON object, got [1]"),
        ({"type": "fly"}, "type must be one of ['jump', 'wait', 'free'], got 'fly'"),
        ({"to": 1}, "type must be one of ['jump', 'wait', 'free'], got None"),
        ({"type": "wait", "to": 2}, "wait takes the fields [], got the unknown ['to']"),
        (
            {"type": "jump", "to": 1, "far": 1, "b": 2},
            "jump takes the fields ['high', 'to'], got the unknown ['b', 'far']",
        ),
    ],
)
def test_the_envelope_refusals_name_the_field_and_the_allowed_values(
    data: object, message: str
) -> None:
    with pytest.raises(MalformedAction) as refused:
        action_kind(data, FIELDS)
    assert str(refused.value) == message


def test_the_envelope_gives_the_type_and_leaves_unchecked_fields_to_the_parser() -> None:
    assert action_kind({"type": "jump", "to": 1}, FIELDS) == "jump"
    assert action_kind({"type": "free", "anything": 1}, FIELDS) == "free"
    assert brief("x" * 100) == repr("x" * 100)[:39] + "\u2026" and len(brief("x" * 100)) == 40
    assert brief([1, 2]) == "[1, 2]"


def test_the_card_games_refuse_through_the_shared_envelope() -> None:
    with pytest.raises(MalformedAction, match=r"draw takes the fields \[\], got the unknown"):
        toybattle.action_from_json({"type": "draw", "node": 1})
    with pytest.raises(MalformedAction, match=r"type must be one of \['team', 'draw'"):
        transformers.action_from_json({"type": "fly"})
    assert toybattle.action_from_json({"type": "stuck"}) == toybattle.Stuck()
    decline: object = toybattle.Decline()
    assert toybattle.action_from_json({"type": "stuck"}) != decline
