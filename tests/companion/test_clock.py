"""The game clock as a pure fold of the log (companion/tables/clock.py), with injected server
times (``created_at``) and a stand-in game: per-turn timer, chess clock with increment,
pauses by either seat, the end of the game, a refold after a restart."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from companion.store.base import Event
from companion.tables.clock import Clock, ClockError, ClockSetting, parse_setting
from companion.tables.rejected import Rejected

T0 = 1_800_000_000.0
"""The server time of the first event (UNIX seconds)."""


@dataclass(frozen=True)
class Turn:
    """A stand-in game state: the turn number, the seat to act, whether the game ended."""

    turn: int
    seat: str
    over: bool = False
    started: bool = True


class StandIn:
    """The three protocol calls the clock uses (:class:`games.protocol.Game`)."""

    def to_act(self, state: Turn) -> str | None:
        return None if state.over else state.seat

    def started(self, state: Turn) -> bool:
        return state.started

    def turn(self, state: Turn) -> int:
        return state.turn

    def outcome(self, state: Turn) -> Any:
        return "over" if state.over else None


class Log:
    """Events fed to a clock, as the table feeds them (the state after each event)."""

    def __init__(self, clock: Clock | None = None) -> None:
        self.clock = clock or Clock()
        self.events: list[tuple[Event, Turn | None]] = []
        self.state: Turn | None = None

    def add(self, at: float, kind: str, seat: str | None = "A", **payload: Any) -> None:
        event = Event(
            seq=len(self.events) + 1,
            kind=kind,
            seat=seat,
            client_action_id=None,
            payload=payload,
            created_at=T0 + at,
        )
        self.events.append((event, self.state))
        self.clock.add(event, StandIn(), self.state)  # type: ignore[arg-type]

    def play(self, at: float, state: Turn) -> None:
        self.state = state
        self.add(at, "action", state.seat, action={})

    def refold(self) -> Clock:
        """The clock from the same log, folded anew (a restarted server)."""
        clock = Clock()
        for event, state in self.events:
            clock.add(event, StandIn(), state)  # type: ignore[arg-type]
        return clock


def chess(seconds: float = 60, increment: float = 0) -> Log:
    log = Log()
    log.add(0, "clock", op="set", mode="chess", seconds=seconds, increment=increment)
    log.add(0, "join", "B")
    log.state = Turn(1, "A")
    log.add(1, "setup")  # the clock starts with the game
    return log


def test_clock_parse_setting_names_the_field_and_the_allowed_values() -> None:
    assert parse_setting(None) is None and parse_setting({"mode": "none"}) is None
    assert parse_setting({"mode": "chess", "seconds": 300, "increment": 5}) == ClockSetting(
        mode="chess", seconds=300.0, increment=5.0
    )
    assert parse_setting({"mode": "turn", "seconds": 30, "increment": 5}) == ClockSetting(
        mode="turn", seconds=30.0, increment=0.0
    )
    for bad, words in (
        ({"mode": "sand"}, "clock.mode must be one of ['none', 'turn', 'chess']"),
        ({"mode": "turn"}, "clock.seconds must be a number in 1..86400"),
        ({"mode": "chess", "seconds": 0}, "clock.seconds must be a number in 1..86400"),
        ({"mode": "chess", "seconds": 9, "increment": -1}, "clock.increment must be a number"),
        ({"mode": "chess", "seconds": True}, "clock.seconds"),
        ("chess", "clock must be a JSON object"),
    ):
        with pytest.raises(Rejected) as caught:
            parse_setting(bad)
        assert caught.value.status == 400 and words in str(caught.value), bad


def test_clock_chess_runs_for_the_seat_to_act_from_the_setup_on() -> None:
    log = chess(60)
    clock = log.clock
    assert clock.running == "A" and clock.left(T0 + 1) == {"A": 60.0, "B": 60.0}
    assert clock.left(T0 + 11.5) == {"A": 49.5, "B": 60.0}
    log.play(21, Turn(1, "A"))  # an action within the turn: A's time runs on
    assert clock.left(T0 + 31) == {"A": 30.0, "B": 60.0}


def test_clock_chess_increment_goes_to_the_player_who_ended_the_turn() -> None:
    log = chess(60, increment=5)
    clock = log.clock
    log.play(11, Turn(2, "B"))  # A used 10 s, ends the turn: +5 s
    assert clock.left(T0 + 11) == {"A": 55.0, "B": 60.0} and clock.running == "B"
    log.play(31, Turn(3, "A"))  # B used 20 s: +5 s
    assert clock.left(T0 + 41) == {"A": 45.0, "B": 45.0}
    assert clock.view() is not None and clock.view()["increment"] == 5.0  # type: ignore[index]


def test_clock_waits_for_the_second_phone_when_the_game_was_set_up_before_it_joined() -> None:
    log = Log()
    log.add(0, "clock", op="set", mode="chess", seconds=60)
    log.state = Turn(1, "B")
    log.add(1, "setup")  # the first phone set the game up alone; B is to start
    assert log.clock.running is None and log.clock.left(T0 + 301) == {"A": 60.0, "B": 60.0}
    log.add(301, "join", "B")  # five minutes later phone B takes its seat: now B's time runs
    assert log.clock.running == "B" and log.clock.left(T0 + 311) == {"A": 60.0, "B": 50.0}
    assert log.refold().left(T0 + 311) == {"A": 60.0, "B": 50.0}


def test_clock_waits_while_the_players_bring_their_decks() -> None:
    log = Log()
    log.add(0, "clock", op="set", mode="turn", seconds=30)
    log.add(0, "join", "B")
    log.state = Turn(1, "A", started=False)
    log.add(1, "setup")  # the game is set up; seat A chooses its deck for two minutes
    assert log.clock.running is None and log.clock.left(T0 + 121) == {"A": 30.0, "B": 30.0}
    log.play(121, Turn(1, "B", started=False))  # A's deck is in; B chooses
    assert log.clock.running is None
    log.play(200, Turn(1, "A"))  # B's deck is in: the game starts, A's full 30 s run
    assert log.clock.running == "A" and log.clock.left(T0 + 210) == {"A": 20.0, "B": 30.0}
    assert log.refold().left(T0 + 210) == {"A": 20.0, "B": 30.0}


def test_clock_turn_timer_starts_again_each_turn() -> None:
    log = Log()
    log.add(0, "clock", op="set", mode="turn", seconds=30)
    log.add(0, "join", "B")
    log.state = Turn(1, "A")
    log.add(2, "setup")
    assert log.clock.left(T0 + 12) == {"A": 20.0, "B": 30.0}
    log.play(40, Turn(2, "B"))  # A ran 8 s over; B's turn gets the full 30 s
    assert log.clock.left(T0 + 45) == {"A": 30.0, "B": 25.0}
    assert log.clock.expiry_key("B") != (0, "B")  # once per turn, not once per side


def test_clock_pause_by_each_seat_stops_the_time_and_resume_goes_on() -> None:
    log = chess(60)
    clock = log.clock
    log.add(11, "clock", "B", op="pause")  # B pauses during A's turn
    assert clock.paused and clock.paused_by == "B"
    assert clock.left(T0 + 500) == {"A": 50.0, "B": 60.0}
    log.add(500, "clock", "A", op="resume")
    assert clock.left(T0 + 503) == {"A": 47.0, "B": 60.0}
    log.play(510, Turn(2, "B"))
    log.add(520, "clock", "A", op="pause")  # now A pauses during B's turn
    assert clock.paused_by == "A" and clock.left(T0 + 900) == {"A": 40.0, "B": 50.0}
    log.add(900, "clock", "B", op="resume")
    assert clock.left(T0 + 902) == {"A": 40.0, "B": 48.0}


def test_clock_refolded_after_a_restart_mid_turn_gives_the_same_time() -> None:
    log = chess(60, increment=3)
    log.play(8, Turn(2, "B"))
    log.add(10, "clock", "A", op="pause")
    log.add(15, "clock", "B", op="resume")
    again = log.refold()
    assert again.left(T0 + 30) == log.clock.left(T0 + 30) == {"A": 56.0, "B": 43.0}
    assert again.view() == log.clock.view()


def test_clock_stops_at_the_end_of_the_game_and_runs_on_after_an_undo() -> None:
    log = chess(60)
    log.play(11, Turn(1, "A", over=True))
    assert log.clock.running is None and log.clock.left(T0 + 99) == {"A": 50.0, "B": 60.0}
    log.state = Turn(1, "A")
    log.add(20, "undo", "A", undoes=3)
    assert log.clock.left(T0 + 25) == {"A": 45.0, "B": 60.0}


def test_clock_runs_below_zero_and_an_expiry_is_kept_per_side_in_chess() -> None:
    log = chess(5)
    assert log.clock.left(T0 + 8) == {"A": -2.0, "B": 5.0}
    log.add(7, "clock", "B", op="expired", side="A", period=1)
    assert log.clock.view()["expired"] == ["A"]  # type: ignore[index]
    log.play(9, Turn(2, "B"))  # the players play on: their call
    assert log.clock.expiry_key("A") in log.clock.expired
    assert log.clock.view()["expired"] == ["A"]  # type: ignore[index]


def test_clock_none_leaves_the_view_without_a_clock() -> None:
    log = Log()
    log.state = Turn(1, "A")
    log.add(0, "setup")
    log.play(5, Turn(2, "B"))
    assert log.clock.view() is None and log.clock.running is None


def test_clock_choice_of_the_start_page_form() -> None:
    from companion.clock_page import form_setting

    assert form_setting({}) is None and form_setting({"clock_mode": "none"}) is None
    chess = {"clock_mode": "chess", "clock_minutes": "1,5", "clock_increment": "2"}
    assert form_setting(chess) == ClockSetting(mode="chess", seconds=90.0, increment=2.0)
    assert form_setting({"clock_mode": "turn"}) == ClockSetting(mode="turn", seconds=60.0)
    with pytest.raises(Rejected) as caught:
        form_setting({"clock_mode": "turn", "clock_turn_seconds": "soon"})
    assert "clock_turn_seconds must be a number, got 'soon'" in str(caught.value)
    with pytest.raises(Rejected) as caught:
        form_setting({"clock_mode": "chess", "clock_minutes": "2000"})
    assert "clock.seconds must be a number in 1..86400" in str(caught.value)


def test_clock_setting_checks_itself() -> None:
    assert ClockSetting(mode="chess", seconds=300, increment=2).to_json() == {
        "mode": "chess",
        "seconds": 300.0,
        "increment": 2.0,
    }
    for fields, words in (
        (
            {"mode": "turn", "seconds": 30, "increment": 5},
            "clock.increment must be a number in 0..0",
        ),
        ({"mode": "none", "seconds": 30}, "clock.mode must be one of"),
        ({"mode": "chess", "seconds": float("nan")}, "clock.seconds must be a number in 1..86400"),
    ):
        with pytest.raises(ClockError, match=words):
            ClockSetting(**fields)
