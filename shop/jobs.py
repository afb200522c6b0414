"""The print shop's jobs: kits and card sheets made in worker processes, never on the server.

A job is queued by a page (:meth:`JobRunner.submit`) and run by a bounded pool: at most
``slots`` worker processes at once (one by default: a kit build takes both cores of a small
machine for seconds), each started with the ``spawn`` method, so a job never shares the
server's threads, event loop or memory. The rest wait in a queue whose place the page shows.

Why processes of our own and not :mod:`concurrent.futures`: a job must be cancellable while it
runs and a killed worker must end only its own job. ``ProcessPoolExecutor`` cannot stop a
running task, and a worker killed by the kernel (out of memory) breaks the whole pool; here a
cancel terminates the one process (SIGTERM: the kit removes its half-written folder), and a
worker that dies ends its job with one line naming its exit code.

Nothing half-written is offered: a worker writes into ``work/`` and renames it to ``out/``
as its last step, and only a job whose worker exited 0 with ``out/`` in place is done. A
finished job's folder is removed ``retention`` seconds after it ended (the page says so); the
folders live under one root that the runner owns. No request chooses a path: a download is
looked up by name in the job's own list of files.

Each job's worker writes its progress, one line at a time, to ``progress.txt`` and a failure's
one-line message to ``error.txt``; the runner reads them back for the page.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import secrets
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any, Literal

log = logging.getLogger(__name__)

State = Literal["queued", "running", "done", "failed", "cancelled"]

MAX_QUEUED = 12
"""Jobs waiting at once over the whole server; one more is refused (:class:`ShopBusy`)."""

MAX_PER_CLIENT = 2
"""Jobs one client address may have queued or running at once."""

DEFAULT_RETENTION = 3600.0
"""Seconds a finished job's files stay for download."""

MAX_KEPT = 24
"""Ended jobs kept at once (their files on disk): past it the oldest go first, whatever their
retention, so submitting and cancelling in a loop cannot fill the disk or the memory."""


WORKER_NICE = 19
"""How much a worker process lowers its CPU priority (``os.nice``): the server's threads come
first. benchmarks/shop_load.py on an idle 2-core machine, 100 tables' action p99 with kits
building / without: nice 0 2.3 x, nice 10 1.5-1.6 x, nice 19 1.1-1.6 x (median 7 ms against
4.5-6 ms), each kit as fast (3.5-4.2 s): the server leaves most of the CPU to it anyway. What
stays is not the shop's: a nice 19 ``tablesmith build`` run beside the server costs as much."""


class ShopBusy(RuntimeError):
    """The queue is full, or this client has :data:`MAX_PER_CLIENT` jobs already (the message
    says which, and the limit)."""


@dataclass
class Job:
    """One kit or card sheet on its way.

    Attributes:
        id: random, unguessable (128 bits), the job's name in its URLs.
        kind: the worker's task (``kit`` or ``cards``: :data:`TASKS`).
        payload: the task's input (form values; plain data, sent to the worker).
        client: the address that asked (for :data:`MAX_PER_CLIENT`).
        folder: the job's own folder under the runner's root.
        state: queued, running, done, failed or cancelled.
        created, started, ended: ``time.time()`` stamps (s), 0 until they happen.
        error: the one-line reason of a failed job.
        files: the files of a done job, relative to ``out/`` (POSIX paths), sorted.
        process: the worker process (None until it starts).
        retention: seconds its files stay after it ends (None: the runner's).
    """

    id: str
    kind: str
    payload: dict[str, Any]
    client: str
    folder: Path
    state: State = "queued"
    created: float = field(default_factory=time.time)
    started: float = 0.0
    ended: float = 0.0
    error: str = ""
    files: list[str] = field(default_factory=list)
    process: Any = None
    retention: float | None = None

    @property
    def out(self) -> Path:
        """The folder of a done job's files."""
        return self.folder / "out"

    def progress(self, last: int = 40) -> list[str]:
        """The worker's progress lines so far (the last ``last``)."""
        path = self.folder / "progress.txt"
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return []
        return lines[-last:]


TASKS: Mapping[str, str] = {"kit": "shop.kitjob:run", "cards": "shop.cardjob:run"}
"""Job kind -> ``module:function`` the worker runs as ``function(payload, work, progress)``:
``work`` is the empty folder to write into, ``progress`` takes one line at a time."""


def _worker(task_path: str, payload: dict[str, Any], folder: str) -> None:
    """A worker process's body: run the task (``module:function``) into ``work/``, then
    rename ``work/`` to ``out/``.

    A failure writes its one-line message to ``error.txt`` and exits 1; SIGTERM (a cancel)
    unwinds like Ctrl-C so that the task removes what it had half-written.
    """

    def terminate(signum: int, _frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, terminate)
    die_with_parent(signal.SIGTERM)  # a server killed with -9 takes its builds along
    # A build must yield the CPU to the tables the same server is running: the lowest priority
    # (inherited by the kit's helper process and any command the task starts). At the same
    # priority a kit doubled the tables' action p99 (2.3 x, benchmarks/shop_load.py); now about
    # 1.5 x (see WORKER_NICE), and what the server does not use the build still gets.
    os.nice(WORKER_NICE)
    root = Path(folder)
    work = root / "work"
    work.mkdir()
    with open(root / "progress.txt", "a", encoding="utf-8", buffering=1) as progress:

        def say(line: str) -> None:
            progress.write(line.replace("\n", " ") + "\n")

        try:
            module, _, name = task_path.partition(":")
            task: Callable[[dict[str, Any], Path, Callable[[str], None]], None]
            task = getattr(import_module(module), name)
            task(payload, work, say)
        except KeyboardInterrupt:
            sys.exit(130)
        except Exception as exc:  # noqa: BLE001 - any failure is the job's one line
            (root / "error.txt").write_text(_one_line(exc), encoding="utf-8")
            sys.exit(1)
    work.rename(root / "out")


def _one_line(exc: BaseException) -> str:
    """An exception as the page's one line (its message; the type where it has none). A full
    disk is said as such, without the server's paths (a copy of many files reports it inside
    a list of them)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    if (isinstance(exc, OSError) and exc.errno == 28) or "No space left on device" in text:
        return "the server's disk is full (no space left on device); nothing was kept"
    return text[:300]


def die_with_parent(signum: int) -> None:
    """Ask the kernel to send ``signum`` to this process when its parent dies (Linux's
    ``PR_SET_PDEATHSIG``; elsewhere nothing): a worker whose server was killed, or a command
    whose worker was killed, does not run on alone."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signum, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        return


class JobRunner:
    """The queue and the worker processes of one server process.

    Args:
        root: an empty folder the runner owns (job folders go under it; removed at
            :meth:`close`).
        slots: worker processes at once, >= 1.
        retention: seconds a finished job's files stay, > 0.
        poll: seconds between the scheduler's looks at its workers.
        tasks: job kind -> ``module:function`` (default :data:`TASKS`).
    """

    def __init__(
        self,
        root: Path,
        slots: int = 1,
        retention: float = DEFAULT_RETENTION,
        poll: float = 0.2,
        tasks: Mapping[str, str] = TASKS,
    ) -> None:
        if slots < 1:
            raise ValueError(f"slots must be >= 1, got {slots}")
        self.root = root
        self.slots = slots
        self.retention = retention
        self.tasks = dict(tasks)
        self._poll = poll
        self._jobs: dict[str, Job] = {}
        self._order: list[str] = []  # queued job ids, first in first out
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._closed = False
        self._context = multiprocessing.get_context("spawn")
        self._thread = threading.Thread(target=self._loop, name="shop-jobs", daemon=True)
        self._thread.start()

    # --- what the pages call ------------------------------------------------------------

    def submit(
        self, kind: str, payload: dict[str, Any], client: str, retention: float | None = None
    ) -> Job:
        """Queue a job of ``kind`` (a key of ``tasks``) for ``client``; its files stay
        ``retention`` seconds after it ends (None: the runner's).

        Raises:
            ShopBusy: the queue holds :data:`MAX_QUEUED` jobs, or ``client`` has
                :data:`MAX_PER_CLIENT` queued or running, or the job folder cannot be made
                (the message names the folder and why).
            KeyError: an unknown kind.
        """
        if kind not in self.tasks:
            raise KeyError(kind)
        with self._lock:
            if len(self._order) >= MAX_QUEUED:
                raise ShopBusy(f"the print shop has {MAX_QUEUED} jobs waiting; try again soon")
            mine = [j for j in self._jobs.values() if j.client == client and j.state in _ACTIVE]
            if len(mine) >= MAX_PER_CLIENT:
                raise ShopBusy(
                    f"you have {len(mine)} jobs waiting or running (at most {MAX_PER_CLIENT}); "
                    "cancel one or wait for it"
                )
            job_id = secrets.token_urlsafe(16)
            folder = self.root / job_id
            try:  # a cleaner may have removed the root of a server running for days
                folder.mkdir(parents=True)
            except OSError as exc:
                raise ShopBusy(
                    f"the print shop cannot write its job folder {self.root}: {exc.strerror or exc}"
                ) from None
            job = Job(id=job_id, kind=kind, payload=payload, client=client, folder=folder)
            job.retention = retention
            self._jobs[job_id] = job
            self._order.append(job_id)
        self._wake.set()
        return job

    def get(self, job_id: str) -> Job | None:
        """The job, or None (never was, or removed after its retention)."""
        with self._lock:
            return self._jobs.get(job_id)

    def position(self, job: Job) -> int:
        """A queued job's place in the queue (1: next), 0 when it is not queued."""
        with self._lock:
            return self._order.index(job.id) + 1 if job.id in self._order else 0

    def cancel(self, job_id: str) -> bool:
        """Cancel a queued or running job (its worker is terminated and its folder goes);
        False when there is no such job or it has ended."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None or job.state not in _ACTIVE:
                return False
            if job.id in self._order:
                self._order.remove(job.id)
            process, job.state, job.ended = job.process, "cancelled", time.time()
        if process is not None and process.is_alive():
            process.terminate()
            process.join(10)
            if process.is_alive():
                process.kill()
                process.join()
        job.payload = {}  # nothing of a cancelled job is kept, on disk or in memory
        shutil.rmtree(job.folder, ignore_errors=True)
        self._wake.set()
        return True

    def close(self) -> None:
        """Stop every worker and remove every job's folder (the server is stopping)."""
        self._closed = True
        self._wake.set()
        for job_id in list(self._jobs):
            self.cancel(job_id)
        self._thread.join(5)
        shutil.rmtree(self.root, ignore_errors=True)

    # --- the scheduler ------------------------------------------------------------------

    def _loop(self) -> None:
        while not self._closed:
            try:
                self._step()
            except Exception:  # noqa: BLE001 - the scheduler must outlive one bad job
                log.exception("print shop scheduler")
            self._wake.wait(self._poll)
            self._wake.clear()

    def _step(self) -> None:
        """Finish the workers that ended, start queued jobs in free slots, drop old jobs."""
        now = time.time()
        with self._lock:
            running = [j for j in self._jobs.values() if j.state == "running"]
        for job in running:
            if job.process is not None and job.process.exitcode is not None:
                self._finish(job)
        with self._lock:
            free = self.slots - sum(1 for j in self._jobs.values() if j.state == "running")
            starting = []
            while free > 0 and self._order:
                job = self._jobs[self._order.pop(0)]
                job.state, job.started = "running", now
                starting.append(job)
                free -= 1
            ended = sorted(
                (j for j in self._jobs.values() if j.state not in _ACTIVE and j.ended),
                key=lambda j: j.ended,
            )
            expired = [
                j
                for number, j in enumerate(ended)
                if now - j.ended > (self.retention if j.retention is None else j.retention)
                or number < len(ended) - MAX_KEPT  # the oldest beyond the cap
            ]
            for job in expired:
                del self._jobs[job.id]
        for job in starting:
            # not a daemon: the kit starts a helper process of its own (cad.jobs); close()
            # ends the workers when the server stops
            process = self._context.Process(
                target=_worker,
                args=(self.tasks[job.kind], job.payload, str(job.folder)),
                daemon=False,
            )
            process.start()
            with self._lock:
                job.process = process
                cancelled = job.state == "cancelled"  # while it was starting
            if cancelled:
                process.terminate()
                process.join()
        for job in expired:
            shutil.rmtree(job.folder, ignore_errors=True)

    def _finish(self, job: Job) -> None:
        """Record how a worker ended: done only with exit 0 and its ``out/`` in place."""
        code = job.process.exitcode
        job.process.join()
        if job.state == "cancelled":
            return
        if code == 0 and job.out.is_dir():
            files = sorted(
                p.relative_to(job.out).as_posix() for p in job.out.rglob("*") if p.is_file()
            )
            job.files, job.state = files, "done"
        else:
            error = job.folder / "error.txt"
            if error.is_file():
                job.error = error.read_text(encoding="utf-8", errors="replace").strip()
            elif code is not None and code < 0:
                name = signal.Signals(-code).name
                job.error = f"the worker process was killed ({name}; perhaps out of memory)"
            else:
                job.error = f"the worker process ended with exit code {code}"
            job.state = "failed"
            job.payload = {}
            shutil.rmtree(job.folder / "work", ignore_errors=True)
        job.ended = time.time()


_ACTIVE = ("queued", "running")


def shop_root(parent: str | Path | None = None) -> Path:
    """A new folder for one server's jobs, in ``parent`` (default: the system's temporary
    folder). The folders of servers that are gone (killed, so never cleaned up) are removed
    first: their names carry their process id."""
    import tempfile

    from cad.outdir import process_alive

    base = Path(parent or tempfile.gettempdir())
    for stale in base.glob("tablesmith-shop-*-*"):
        pid = stale.name.split("-")[2]
        if pid.isdigit() and not process_alive(int(pid)):
            shutil.rmtree(stale, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix=f"tablesmith-shop-{os.getpid()}-", dir=base))
