"""The print shop's pages: the kit form, a job's progress, its files.

``GET /pieces`` is the form (every option of ``tablesmith build``, from
:data:`cad.options.BUILD_OPTIONS`); posting it checks the values as the command does and
queues a job (:mod:`shop.jobs`), then the job's page follows it: its place in the queue, the
build's progress lines, a cancel button, and when it is done the plate previews, the print
notes, the 3D view and the downloads. Its state as JSON (``.json``) is what the page polls.

Limits: the form is a few short fields (the companion's 64 KiB body limit holds); each
field's text is at most :data:`MAX_FIELD` characters; a client has at most
:data:`shop.jobs.MAX_PER_CLIENT` jobs queued or running and the server
:data:`shop.jobs.MAX_QUEUED` waiting (then 503 with the reason). Downloads are looked up by
name in the job's own list, never joined to a path from the request.
"""

from __future__ import annotations

import importlib.util
import json
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from shop.jobs import Job, JobRunner, ShopBusy
from shop.kitjob import KIT_FOLDER, KIT_ZIP

bp = Blueprint("shop", __name__, template_folder="templates", static_folder="static",
               static_url_path="/shop-static")  # fmt: skip

RUNNER = "tablesmith.shop"
"""The app's extension key of the :class:`JobRunner`."""

MAX_FIELD = 64
"""Characters a form field may hold (a colour, a bed size, a number): more is refused."""

KIT_MODULES = {"OCP": "cadquery-ocp", "lib3mf": "lib3mf", "numpy": "numpy", "PIL": "pillow"}
"""Modules the kit needs, and the distributions of the ``kit`` extra that bring them."""


def runner() -> JobRunner:
    """This app's job runner."""
    found: JobRunner = current_app.extensions[RUNNER]
    return found


def missing_kit() -> list[str]:
    """The kit extra's distributions that are not installed (the pieces door says so)."""
    missing = []
    for module, distribution in KIT_MODULES.items():
        try:
            if importlib.util.find_spec(module) is None:
                missing.append(distribution)
        except (ImportError, ValueError):
            missing.append(distribution)
    return missing


def _form_values() -> dict[str, Any]:
    """The posted form's values by option name (unknown names ignored).

    Raises:
        OptionError: a field longer than :data:`MAX_FIELD` characters (named, with its
            length).
    """
    from cad.options import BUILD_OPTIONS
    from cad.settings import OptionError

    values: dict[str, Any] = {}
    for option in BUILD_OPTIONS:
        text = request.form.get(option.name)
        if option.kind == "flag":
            values[option.name] = text == "on"
        elif text is not None and text.strip():
            if len(text) > MAX_FIELD:
                raise OptionError(option.flag, f"at most {MAX_FIELD} characters, got {len(text)}")
            values[option.name] = text.strip()
    values["preview"] = True
    return values


@bp.get("/pieces")
def pieces() -> str:
    """The kit form, with the defaults (or the values of ``?from=<job>``)."""
    values: dict[str, Any] = {}
    previous = runner().get(request.args.get("from", ""))
    if previous is not None and previous.kind == "kit":
        values = previous.payload
    return _form(values, None, 200)[0]


@bp.post("/pieces")
def new_kit() -> Response | tuple[str, int]:
    """Check the form as ``tablesmith build`` would and queue the kit."""
    from cad.options import settings_from
    from cad.settings import OptionError

    try:
        values = _form_values()
    except OptionError as exc:
        return _form({}, str(exc), 400, field=exc.option)
    if missing_kit():
        return _form(values, _kit_missing_line(), 503)
    try:
        settings_from(values)
    except OptionError as exc:
        return _form(values, str(exc), 400, field=exc.option)
    try:
        job = runner().submit("kit", values, request.remote_addr or "?")
    except ShopBusy as exc:
        return _form(values, str(exc), 503)
    return redirect(url_for("shop.kit_job", job_id=job.id), code=303)


def _kit_missing_line() -> str:
    return str(
        _(
            "The print kit is not installed on this server: pip install 'tablesmith[kit]' "
            "(from a checkout: pip install -r requirements/kit.txt), then start tablesmith serve "
            "again."
        )
    )


def _form(
    values: dict[str, Any], error: str | None, status: int, field: str | None = None
) -> tuple[str, int]:
    from cad.options import BUILD_OPTIONS, COLOUR_NAMES

    missing = missing_kit()
    html = render_template(
        "shop/pieces.html",
        options=BUILD_OPTIONS,
        values=values,
        error=error,
        error_field=(field or "").lstrip("-").replace("-", "_"),
        colour_names=COLOUR_NAMES,
        missing=_kit_missing_line() if missing else None,
        max_field=MAX_FIELD,
    )
    return html, status


def job_or_404(job_id: str, kind: str) -> Job:
    """The job of ``kind`` with this id, else 404 (an id of another kind is not found)."""
    job = runner().get(job_id)
    if job is None or job.kind != kind:
        abort(404)
    return job


def cancel_answer(job: Job, page: str) -> Response:
    """Cancel ``job`` (its worker stops, nothing stays): its state as JSON for the page's
    script, else back to the job's page (endpoint ``page``)."""
    runner().cancel(job.id)
    if request.accept_mimetypes.best == "application/json":
        return jsonify(state(job))
    return redirect(url_for(page, job_id=job.id), code=303)


def file_answer(job: Job, name: str) -> Response:
    """One file of a done job, by its name in the job's list (404 for any other name)."""
    if job.state != "done" or name not in job.files:
        abort(404)
    return send_from_directory(job.out, name, as_attachment=not name.endswith(".png"))


@bp.get("/pieces/jobs/<job_id>")
def kit_job(job_id: str) -> str:
    """A kit job's page: it polls the JSON below and fills itself in."""
    job = job_or_404(job_id, "kit")
    return render_template("shop/job.html", job=job, state=state(job))


def state_answer(job_id: str, kind: str) -> tuple[Response, int]:
    """A job's state as JSON for the page's polling; a job that is gone (its files removed
    after their time, or the server restarted) is a JSON 404 the page says in words."""
    job = runner().get(job_id)
    if job is None or job.kind != kind:
        return jsonify({"state": "gone", "error": "not_found"}), 404
    return jsonify(state(job)), 200


@bp.get("/pieces/jobs/<job_id>.json")
def kit_job_state(job_id: str) -> tuple[Response, int]:
    """A kit job's state (:func:`state`), for the page's polling."""
    return state_answer(job_id, "kit")


@bp.post("/pieces/jobs/<job_id>/cancel")
def cancel_kit(job_id: str) -> Response:
    """Cancel a queued or running kit; back to the job."""
    return cancel_answer(job_or_404(job_id, "kit"), "shop.kit_job")


@bp.get("/pieces/jobs/<job_id>/files/<path:name>")
def kit_file(job_id: str, name: str) -> Response:
    """One file of a done kit."""
    return file_answer(job_or_404(job_id, "kit"), name)


FILE_ENDPOINTS = {"kit": "shop.kit_file", "cards": "shop.cards_file"}
"""Job kind -> the endpoint that serves its files."""


def state(job: Job) -> dict[str, Any]:
    """What the job page shows, as JSON data.

    Keys: ``state`` (queued, running, done, failed, cancelled), ``position`` (place in the
    queue, 0 when not queued), ``progress`` (the last lines), ``error`` (one line); for a done
    job ``files`` (name -> download URL); for a done kit also ``manifest`` (the kit's
    manifest.json), ``notes`` (PRINT-NOTES.md) and ``zip`` (the whole kit's URL).
    """
    data: dict[str, Any] = {
        "state": job.state,
        "position": runner().position(job),
        "progress": job.progress(),
        "error": job.error,
        "retention_s": runner().retention,
    }
    if job.state != "done":
        return data
    endpoint = FILE_ENDPOINTS[job.kind]
    data["files"] = {name: url_for(endpoint, job_id=job.id, name=name) for name in job.files}
    if job.kind == "kit":
        kit = job.out / KIT_FOLDER
        data["manifest"] = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
        data["notes"] = (kit / "PRINT-NOTES.md").read_text(encoding="utf-8")
        data["zip"] = data["files"].get(KIT_ZIP)
    return data
