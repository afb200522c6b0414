"""The print shop's job runner with real worker processes (shop/jobs.py, issue 27 point 5):
a bounded pool with a queue whose place is known, cancel, one line for a failed or killed
worker, nothing half-written offered, limits per client and for the queue (at and past), and
the files gone after the retention period."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from shop import jobs as jobs_module
from shop.jobs import MAX_PER_CLIENT, MAX_QUEUED, Job, JobRunner, ShopBusy, shop_root

TASKS = {
    "write": "tests.shop.tasks:write",
    "fail": "tests.shop.tasks:fail",
    "die": "tests.shop.tasks:die",
    "child": "tests.shop.tasks:child",
}


@pytest.fixture
def runner(tmp_path: Path) -> Iterator[JobRunner]:
    root = tmp_path / "jobs"
    root.mkdir()
    jobs = JobRunner(root, slots=1, retention=60, poll=0.05, tasks=TASKS)
    yield jobs
    jobs.close()


def wait(condition: Callable[[], bool], seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def ended(job: Job) -> Callable[[], bool]:
    return lambda: job.state not in ("queued", "running")


def test_a_job_runs_in_a_worker_and_offers_its_files(runner: JobRunner) -> None:
    job = runner.submit("write", {"text": "hello"}, "phone")
    wait(ended(job))
    assert job.state == "done", job.error
    assert job.files == ["sub/result.txt"]
    assert (job.out / "sub" / "result.txt").read_text() == "hello"
    assert job.progress() == ["starting", "finished"]
    assert not (job.folder / "work").exists()


def test_one_slot_queues_the_rest_in_order_and_cancel_stops_a_running_worker(
    runner: JobRunner,
) -> None:
    first = runner.submit("write", {"seconds": 30}, "a")
    second = runner.submit("write", {"seconds": 0}, "b")
    third = runner.submit("write", {"seconds": 0}, "c")
    wait(lambda: first.state == "running" and first.progress() == ["starting"])
    assert (runner.position(first), runner.position(second), runner.position(third)) == (0, 1, 2)
    assert runner.cancel(second.id)  # queued: leaves the queue, never runs
    assert runner.position(third) == 1
    started = time.monotonic()
    assert runner.cancel(first.id)  # running: its worker is terminated
    assert time.monotonic() - started < 10
    assert first.state == "cancelled" and not first.process.is_alive()
    assert not first.folder.exists() and first.payload == {}  # nothing kept, disk or memory
    wait(ended(third))
    assert third.state == "done"
    assert second.state == "cancelled" and second.process is None
    assert not runner.cancel(third.id)  # ended: nothing to cancel


def test_a_failure_is_one_line_and_its_half_written_files_are_not_offered(
    runner: JobRunner,
) -> None:
    job = runner.submit("fail", {"message": "--scale: must be between 0.5 and 1.5"}, "a")
    wait(ended(job))
    assert job.state == "failed"
    assert job.error == "--scale: must be between 0.5 and 1.5"
    assert job.files == [] and not job.out.exists() and not (job.folder / "work").exists()


def test_a_killed_worker_ends_its_job_with_one_line_and_the_next_job_runs(
    runner: JobRunner,
) -> None:
    killed = runner.submit("die", {}, "a")
    after = runner.submit("write", {}, "b")
    wait(ended(killed))
    assert killed.state == "failed"
    assert killed.error == "the worker process was killed (SIGKILL; perhaps out of memory)"
    assert killed.files == [] and not killed.out.exists()
    wait(ended(after))
    assert after.state == "done"


def test_limits_per_client_and_for_the_queue_at_and_past(runner: JobRunner) -> None:
    blocker = runner.submit("write", {"seconds": 30}, "client-0")
    wait(lambda: blocker.state == "running")
    for _ in range(MAX_PER_CLIENT - 1):
        runner.submit("write", {}, "client-0")  # at the limit: accepted
    with pytest.raises(ShopBusy, match=f"at most {MAX_PER_CLIENT}"):
        runner.submit("write", {}, "client-0")  # past it
    queued = MAX_PER_CLIENT - 1
    client = 1
    while queued < MAX_QUEUED:
        runner.submit("write", {}, f"client-{client}")
        queued += 1
        client += 1
    with pytest.raises(ShopBusy, match=f"has {MAX_QUEUED} jobs waiting"):
        runner.submit("write", {}, "someone-new")
    with pytest.raises(KeyError):
        runner.submit("paint", {}, "someone-new")


def test_a_finished_job_and_its_files_go_after_the_retention(tmp_path: Path) -> None:
    root = tmp_path / "jobs"
    root.mkdir()
    jobs = JobRunner(root, slots=2, retention=0.5, poll=0.05, tasks=TASKS)
    try:
        job = jobs.submit("write", {}, "a")
        wait(ended(job))
        assert job.out.is_dir()
        wait(lambda: jobs.get(job.id) is None, 30)
        # its files are removed right after, outside the runner's lock (a big kit takes a
        # while to delete): gone within a moment, not necessarily at once
        wait(lambda: not job.folder.exists(), 5)
    finally:
        jobs.close()
    assert not root.exists()  # close() removes the runner's folder


def test_a_killed_worker_takes_the_command_it_started_along(runner: JobRunner) -> None:
    job = runner.submit("child", {}, "a")
    wait(lambda: any(line.startswith("child ") for line in job.progress()))
    pid = int(job.progress()[-1].split()[1])
    os.kill(job.process.pid, signal.SIGKILL)
    wait(ended(job))
    assert job.state == "failed" and "SIGKILL" in job.error

    def gone() -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        with open(f"/proc/{pid}/stat") as stat:  # a zombie waits for init to reap it
            return stat.read().split()[2] == "Z"

    wait(gone, 10)


def test_at_most_max_kept_ended_jobs_stay_whatever_their_retention(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs_module, "MAX_KEPT", 2)
    root = tmp_path / "jobs"
    root.mkdir()
    jobs = JobRunner(root, slots=2, retention=3600, poll=0.05, tasks=TASKS)
    try:
        made = [jobs.submit("write", {}, f"c{i}") for i in range(4)]
        for job in made:
            wait(ended(job))
        wait(lambda: sum(jobs.get(j.id) is not None for j in made) == 2)
        assert [jobs.get(j.id) is not None for j in made] == [False, False, True, True]
        assert not made[0].folder.exists() and made[3].out.is_dir()
    finally:
        jobs.close()


def test_a_job_folder_that_cannot_be_made_is_one_line_and_a_stale_root_is_removed(
    tmp_path: Path,
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    jobs = JobRunner(blocker / "jobs", slots=1, poll=0.05, tasks=TASKS)
    try:
        with pytest.raises(ShopBusy, match="cannot write its job folder .*/file/jobs"):
            jobs.submit("write", {}, "a")
    finally:
        jobs.close()
    stale = tmp_path / "tablesmith-shop-999999999-x"  # no such process
    stale.mkdir()
    (stale / "old").mkdir()
    mine = shop_root(tmp_path)
    assert not stale.exists() and mine.is_dir() and str(os.getpid()) in mine.name
