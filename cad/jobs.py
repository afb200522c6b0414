"""The kit's file work that needs no CAD kernel, shared between two processes.

Units: mm, mm^2, mm^3. Frames: part frame (``cad.parts``) for part meshes; bed frame (origin
at the bed's front-left corner) for plates.

A cold kit on a 2-core machine spends most of its time importing the CAD kernel and building
solids in one process. Everything after an STL exists (reading it back,
checking it, previews, 3MF plates) needs only numpy, Pillow and lib3mf, so it runs in a
second process started before the kernel is imported: it loads its libraries while the first
one loads OpenCASCADE, and works through part and plate jobs while the first one builds the
next solids and measures the fits. When the first process is done with geometry it takes
jobs from the same queue itself (``Helpers.finish``), so both cores stay busy to the end.

Jobs are plain dataclasses and module-level functions, so that they can be sent to a process
started with ``spawn`` (the start method that is safe everywhere: no fork of a process with
kernel threads).

Why a process of our own (:class:`Helpers`) and not :mod:`concurrent.futures`:

- The helper must start before the kernel import, under :func:`interrupts_held`, and load
  its libraries while this process loads OpenCASCADE. ``ProcessPoolExecutor`` (spawn, Python
  3.11) starts its workers at the first ``submit``, after the first solid is built, and its
  ``initializer`` runs only then: the overlap this module exists for would be lost.
- A failed or interrupted kit stops the helper at once (``stop(wait=False)``) before the
  staging folder is removed, so that it never writes into a folder being deleted.
  ``shutdown(wait=False, cancel_futures=True)`` lets the running job go on writing; killing
  the worker needs the executor's private ``_processes`` (``terminate_workers`` is 3.14).
- The queue stays here: the helper holds at most two jobs and, in :meth:`Helpers.finish`,
  this process takes the rest from the back of the same queue; jobs submitted to an
  executor's queue cannot be taken back to run here.

``multiprocessing.Pool`` was used before and replaced for its own reason (see
:class:`Helpers`: a killed worker left the kit waiting for ever). The print shop's job
workers (``shop/jobs.py``) are processes of their own for a similar reason (cancel a running
job).
"""

from __future__ import annotations

import multiprocessing
import pickle
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from cad import mesh
from cad.estimate import PartEstimate


@dataclass(frozen=True, kw_only=True)
class PartJob:
    """Check one part's STL and draw its preview.

    Attributes:
        name: part name (for messages).
        stl: the STL the kernel wrote.
        preview: the PNG to draw, or None.
        colour: body filament ``#RRGGBB``.
        top_colour: filament after the colour change, or None.
        change_z: bottom of the first layer in ``top_colour`` (mm).
        title: picture caption.
        legend: ``(colour, words)`` swatches under the caption.
        layer_height: mm, for the print estimate (``cad.estimate``).
    """

    name: str
    stl: Path
    preview: Path | None
    colour: str
    top_colour: str | None
    change_z: float
    title: str
    legend: tuple[tuple[str, str], ...]
    layer_height: float


@dataclass(frozen=True, kw_only=True)
class PartResult:
    """What the kit needs to know of a checked part mesh.

    Attributes:
        name: part name.
        triangles: triangle count.
        area: surface area (mm^2).
        size: bounding-box size (x, y, z) in mm.
        estimate: filament and time of one copy as PrusaSlicer prints it (``cad.estimate``).
    """

    name: str
    triangles: int
    area: float
    size: tuple[float, float, float]
    estimate: PartEstimate


@dataclass(frozen=True, kw_only=True)
class PlateItem:
    """One distinct part on a plate.

    Attributes:
        name: object name in the 3MF.
        stl: the part's STL (read once per process).
        colour: filament ``#RRGGBB``.
        placements: per copy ``(x, y, rotated)`` on the bed (see ``cad.threemf.PlateObject``).
        parts: for a multi-material plate, the STLs of the part below the symbol layer and of
            the symbol layer (filament 2), in the same frame as ``stl``; else None.
    """

    name: str
    stl: Path
    colour: str
    placements: tuple[tuple[float, float, bool], ...]
    parts: tuple[Path, Path] | None = None


@dataclass(frozen=True, kw_only=True)
class PlateJob:
    """Write one plate's 3MF and draw its preview.

    Attributes:
        file: the 3MF to write.
        preview: the PNG to draw, or None.
        items: the parts on the plate.
        change: the plate's colour change (``cad.threemf.ColourChange``) or None.
        settings: the print settings the 3MF carries (``cad.threemf.SlicerSettings``).
        layer_height: mm; the preview draws the last layer(s) above the change in its colour.
        bed: (x, y) of the bed in mm.
        title: picture caption.
        legend: ``(colour, words)`` swatches.
        symbol_colour: the colour of the symbol layer (after the change or on filament 2),
            or None for a one-colour plate.
        symbol_z: bottom of the symbol layer (mm), drawn in ``symbol_colour``.
    """

    file: Path
    preview: Path | None
    items: tuple[PlateItem, ...]
    change: Any
    settings: Any
    layer_height: float
    bed: tuple[float, float]
    title: str
    legend: tuple[tuple[str, str], ...]
    symbol_colour: str | None = None
    symbol_z: float | None = None


_MESHES: dict[Path, mesh.Mesh] = {}
"""Meshes this process has read, by STL path (a plate reuses the part jobs' meshes)."""


def _mesh(path: Path) -> mesh.Mesh:
    if path not in _MESHES:
        _MESHES[path] = mesh.read_stl(path)
    return _MESHES[path]


def run_part(job: PartJob) -> PartResult:
    """Read, check, estimate and draw one part.

    Raises:
        mesh.MeshError: the STL is not one closed body.
    """
    from cad import estimate, preview

    part = mesh.checked(_mesh(job.stl), job.name)
    if job.preview is not None:
        preview.render_png(
            [
                preview.Shaded(
                    vertices=part.vertices,
                    faces=part.faces,
                    colour=job.colour,
                    top_colour=job.top_colour,
                    change_z=job.change_z,
                )
            ],
            job.preview,
            title=job.title,
            legend=job.legend,
        )
    sections = estimate.layer_sections(part.vertices, part.faces, job.layer_height)
    return PartResult(
        name=job.name,
        triangles=len(part.faces),
        area=part.area,
        size=part.size,
        estimate=estimate.estimate_part(sections, job.layer_height),
    )


def run_plate(job: PlateJob) -> str:
    """Write one plate's 3MF with its thumbnails (and preview); returns the 3MF's file name."""
    from cad import preview, threemf, thumbnails

    objects, shaded = [], []
    for item in job.items:
        part = _mesh(item.stl)
        low, high = part.bounds
        shift = np.array([*((low[:2] + high[:2]) / 2), 0.0])
        centred = part.vertices - shift
        if item.parts is None:
            objects.append(
                threemf.PlateObject(
                    name=item.name,
                    vertices=centred,
                    faces=part.faces,
                    colour=item.colour,
                    placements=item.placements,
                )
            )
        else:
            body, symbols = (mesh.read_stl(path) for path in item.parts)
            objects.append(
                threemf.PlateObject(
                    name=item.name,
                    vertices=body.vertices - shift,
                    faces=body.faces,
                    colour=item.colour,
                    placements=item.placements,
                    extra_parts=(
                        threemf.PlatePart(
                            name=f"{item.name} symbols",
                            vertices=symbols.vertices - shift,
                            faces=symbols.faces,
                            filament=2,
                        ),
                    ),
                )
            )
        turned = centred[:, [1, 0, 2]] * [-1, 1, 1]
        for x, y, rotated in item.placements:
            shaded.append(
                preview.Shaded(
                    vertices=(turned if rotated else centred) + [x, y, 0],
                    faces=part.faces,
                    colour=item.colour,
                    top_colour=job.symbol_colour,
                    change_z=job.symbol_z if job.symbol_z is not None else np.inf,
                )
            )
    size = (thumbnails.RENDER_SIZE, thumbnails.RENDER_SIZE)
    picture = preview.render_image(shaded, view="iso", size=size, transparent=True)
    threemf.write_plate(job.file, objects, job.change, job.settings, thumbnails.pictures(picture))
    if job.preview is not None:
        preview.render_png(
            shaded, job.preview, view="top", bed=job.bed, title=job.title, legend=job.legend
        )
    return job.file.name


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back for the block; one that came meanwhile is delivered right
    after it, where Python raises it normally.

    For steps an interrupt must not cut in half: loading the CAD kernel (an interrupt in OCP's
    initialisation can crash the interpreter, or fail the import with a traceback) and
    starting the helper process (an interrupt while the pickled start-up data is written to
    its pipe left it printing "EOFError: Ran out of input" after the run had said it was
    interrupted).

    Two locks, because either alone leaks: the signal mask (where the system has one) blocks
    the signals in this thread only, and threads started earlier (numpy's, multiprocessing's)
    still take a signal sent to the process, whose Python handler then runs in the main
    thread in the middle of the block; so in the main thread the handlers are also replaced,
    for the block, by ones that only note the signal. Elsewhere (another thread, where Python
    allows no handler) only the mask applies.
    """
    held = (signal.SIGINT, signal.SIGTERM)
    caught: list[int] = []
    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for held_signal in held:
            previous[held_signal] = signal.signal(
                held_signal, lambda number, _frame: caught.append(number)
            )
    blocked = (
        signal.pthread_sigmask(signal.SIG_BLOCK, held)
        if hasattr(signal, "pthread_sigmask")
        else None
    )
    try:
        yield
    finally:
        if blocked is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)  # a blocked one is noted now
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if caught:
            signal.raise_signal(caught[0])  # the program's own handler, outside the block


def _start_helper() -> None:
    """Initialise the helper process: leave Ctrl-C to the main process (which stops us),
    and load the libraries now, while the main process loads the CAD kernel."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # started under interrupts_held(): the mask is inherited
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    from cad import preview, threemf  # noqa: F401


class HelperDied(RuntimeError):
    """The helper process ended while it had jobs (killed, e.g. by the system for lack of
    memory): the jobs it held are lost, so the kit cannot be completed."""


def _serve(connection: Connection) -> None:
    """The helper process: run the jobs that come down ``connection`` until it closes (or a
    None comes), sending back ``(key, True, result)`` or ``(key, False, exception)``."""
    _start_helper()
    while True:
        try:
            message = connection.recv()
        except EOFError:  # the main process is gone
            return
        if message is None:
            return
        key, function, job = message
        try:
            answer: tuple[str, bool, Any] = (key, True, function(job))
        except Exception as exc:  # noqa: BLE001 - raised again in the main process
            answer = (key, False, exc)
        try:
            connection.send(answer)
        except (pickle.PicklingError, TypeError, AttributeError):  # an exception pickle refuses
            connection.send((key, False, RuntimeError(f"{type(answer[2]).__name__}: {answer[2]}")))


class Helpers:
    """A queue of jobs worked by one helper process and, once it is free, the main process.

    Use as a context manager, or call ``stop``; leaving it by an exception stops the helper at
    once. Stop it before removing a folder it may still write into.

    The helper is one ``spawn`` process fed through a pipe, not a ``multiprocessing.Pool``: a
    pool replaces a worker that dies and never finishes the job the dead one held, and its
    ``terminate`` waits for ever on a queue lock a killed worker held, so a helper killed by
    the system (out of memory) or by hand left the kit waiting for ever. Here its end while
    it holds jobs raises :class:`HelperDied`, and stopping it never waits on it.

    Args:
        progress: called with a message when a job starts (may be replaced later).
    """

    def __init__(self, progress: Callable[[str], None]) -> None:
        self.progress = progress
        context = multiprocessing.get_context("spawn")
        self._connection, theirs = context.Pipe()
        self._process: BaseProcess | None = context.Process(
            target=_serve, args=(theirs,), daemon=True, name="tablesmith-kit-helper"
        )
        with interrupts_held():  # the helper's start-up data goes down its pipe whole
            self._process.start()
        theirs.close()
        self._waiting: deque[tuple[str, str, Callable[[Any], Any], Any]] = deque()
        self._running: list[str] = []  # keys of the jobs with the helper, in order
        self.results: dict[str, Any] = {}

    def __enter__(self) -> Helpers:
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        self.stop(wait=error is None)

    def stop(self, *, wait: bool) -> None:
        """End the helper process: after its jobs (``wait``) or at once. Idempotent."""
        process, self._process = self._process, None
        if process is None:
            return
        if wait and process.is_alive():
            with suppress(OSError):
                self._connection.send(None)
            process.join()
        else:
            process.terminate()  # SIGTERM: held back while the helper loads the kernel
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join()
        self._connection.close()

    def add(self, key: str, message: str, function: Callable[[Any], Any], job: Any) -> None:
        """Queue ``function(job)`` (announced by ``message``); its result becomes
        ``results[key]``."""
        self._waiting.append((key, message, function, job))
        self.pump()

    def pump(self, ahead: int = 2) -> None:
        """Collect finished jobs and keep up to ``ahead`` jobs with the helper.

        Raises:
            HelperDied: the helper process ended.
            Exception: whatever a finished job raised.
        """
        assert self._process is not None, "Helpers used outside its with-block"
        while self._running and self._connection.poll():
            self._receive()
        if self._running and not self._process.is_alive():
            self._died()
        while self._waiting and len(self._running) < ahead:
            key, message, function, job = self._waiting.popleft()
            self.progress(message)
            try:
                self._connection.send((key, function, job))
            except OSError:  # the pipe broke: the helper is gone
                self._died()
            self._running.append(key)

    def _receive(self) -> None:
        try:
            key, ok, value = self._connection.recv()
        except (EOFError, OSError):
            self._died()
        self._running.remove(key)
        if not ok:
            raise value
        self.results[key] = value

    def _died(self) -> NoReturn:
        assert self._process is not None
        self._process.join(1)
        code = self._process.exitcode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        raise HelperDied(
            f"the kit's helper process (pid {self._process.pid}) ended in the middle of the kit "
            f"({how}; perhaps the system ran out of memory); nothing was replaced"
        )

    def finish(self) -> dict[str, Any]:
        """Work through the queue with the helper and this process; return every result.

        Raises:
            HelperDied: the helper process ended.
            Exception: whatever a job raised (in either process).
        """
        assert self._process is not None, "Helpers used outside its with-block"
        while self._waiting or self._running:
            self.pump(ahead=1)
            if self._waiting:  # the helper takes jobs from the front, this process from the back
                key, message, function, job = self._waiting.pop()
                self.progress(message)
                self.results[key] = function(job)
            elif self._running:
                wait([self._connection, self._process.sentinel], timeout=0.5)
        return self.results
