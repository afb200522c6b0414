"""The kit's helper process (``cad.jobs.Helpers``): results from both processes, a job's
error raised where the kit waits, and a helper that dies ending the wait at once."""

from __future__ import annotations

import os
import signal
import time

import pytest

from cad.jobs import HelperDied, Helpers


def square(n: int) -> tuple[int, int]:
    """A job: ``n`` squared, and which process ran it."""
    return n * n, os.getpid()


def refuse(n: int) -> None:
    """A job that fails as a broken STL would."""
    raise ValueError(f"job {n} refused")


def sleep(seconds: float) -> int:
    """A job that takes a while."""
    time.sleep(seconds)
    return os.getpid()


def test_every_result_comes_back_and_both_processes_work() -> None:
    with Helpers(lambda _message: None) as helpers:
        for n in range(12):
            helpers.add(f"n{n}", f"job {n}", square, n)
        results = helpers.finish()
    assert {key: value[0] for key, value in results.items()} == {f"n{n}": n * n for n in range(12)}
    runners = {pid for _, pid in results.values()}
    assert os.getpid() in runners and len(runners) == 2  # the helper took the front jobs


def test_an_error_in_a_helper_job_is_raised_where_the_kit_waits() -> None:
    helpers = Helpers(lambda _message: None)
    try:
        helpers.add("bad", "bad job", refuse, 7)  # sent to the helper at once
        with pytest.raises(ValueError, match="job 7 refused"):
            helpers.finish()
    finally:
        helpers.stop(wait=False)


def test_a_helper_killed_mid_job_raises_helper_died_and_stopping_does_not_wait() -> None:
    helpers = Helpers(lambda _message: None)
    try:
        helpers.add("slow", "slow job", sleep, 30.0)
        helpers.pump()
        process = helpers._process
        assert process is not None and process.pid is not None
        time.sleep(0.5)
        os.kill(process.pid, signal.SIGKILL)
        started = time.monotonic()
        with pytest.raises(HelperDied, match=rf"pid {process.pid}\) ended .*killed by signal 9"):
            helpers.finish()
        assert time.monotonic() - started < 5
    finally:
        started = time.monotonic()
        helpers.stop(wait=False)
        assert time.monotonic() - started < 5
