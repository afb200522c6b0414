"""The print shop's pieces door (issue 27, points 1, 2 and 5): the start page's doors, the kit
form with every option of ``tablesmith build`` checked by the same definition with the same
messages, the limits of what a browser can send (at and past), downloads by name only, and a
kit made from the form that is byte for byte the command's."""

from __future__ import annotations

import io
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from cad.options import BUILD_OPTIONS, settings_from
from cad.settings import OptionError
from shop import pages
from shop.pages import MAX_FIELD
from tablesmith import cli
from tests.shop.conftest import wait_ended

ROOT = Path(__file__).resolve().parents[2]


def test_the_start_page_has_the_doors_in_english_and_german(client: FlaskClient) -> None:
    english = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    german = client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert 'id="door-pieces" href="/pieces"' in english and 'id="door-play"' in english
    assert "Print the pieces" in english and "Play" in english
    assert "Die Spielteile drucken" in german and "Spielen" in german
    assert "Print the pieces" not in german


def test_the_form_has_every_option_of_the_build_command(client: FlaskClient) -> None:
    page = client.get("/pieces", headers={"Accept-Language": "de"}).get_data(as_text=True)
    command = {p.name for p in cli.commands["build"].params}
    # what a kit needs beside the options: the game, where it goes, previews, cache, chatter
    assert command - {o.name for o in BUILD_OPTIONS} == {
        "game",
        "out",
        "preview",
        "cache",
        "quiet",
    }
    for option in BUILD_OPTIONS:
        assert f'id="f-{option.name}"' in page, option.name
    assert 'lang="de"' in page and "Set erstellen" in page


@pytest.mark.parametrize(
    "values",
    [
        {"scale": "2"},
        {"xy_compensation": "0.3"},
        {"layer_height": "abc"},
        {"engraving_layers": "4"},
        {"printer": "lego"},
        {"colour_a": "pink"},
        {"colour_b": "blue"},
        {"box": "10x10"},
        {"plate_spacing": "1"},
        {"bed_border": "31"},
    ],
)
def test_a_wrong_value_gets_the_commands_own_message(
    client: FlaskClient, values: dict[str, str]
) -> None:
    with pytest.raises(OptionError) as refused:
        settings_from(values)
    message = str(refused.value)
    answer = client.post("/pieces", data=values)
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert message.replace("'", "&#39;") in page
    name = next(iter(values))
    assert (
        f'class="field wrong" for="f-{refused.value.option.lstrip("-").replace("-", "_")}"' in page
    )
    # the command says the same (click parses numbers itself: a word is click's refusal)
    flag = "--" + name.replace("_", "-")
    result = CliRunner().invoke(cli, ["build", flag, values[name], "--out", "/nonexistent/x"])
    assert result.exit_code == 2
    if values[name] != "abc":
        assert message in result.output


def test_a_field_at_its_limit_is_read_and_past_it_refused(client: FlaskClient) -> None:
    at = client.post("/pieces", data={"printer": "x" * MAX_FIELD})
    assert at.status_code == 400
    assert "--printer: unknown printer" in at.get_data(as_text=True)
    past = client.post("/pieces", data={"printer": "x" * (MAX_FIELD + 1)})
    assert past.status_code == 400
    assert f"at most {MAX_FIELD} characters" in past.get_data(as_text=True)


def test_unknown_jobs_and_files_are_404_and_no_name_reaches_the_disk(
    client: FlaskClient, shop_app: Flask
) -> None:
    assert client.get("/pieces/jobs/nothing").status_code == 404
    assert client.get("/pieces/jobs/nothing.json").status_code == 404
    assert client.post("/pieces/jobs/nothing/cancel").status_code == 404
    runner = shop_app.extensions[pages.RUNNER]
    job = runner.submit("kit", {"scale": "2"}, "test")  # fails in its worker at once
    deadline = time.monotonic() + 60
    while job.state in ("queued", "running"):
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert job.state == "failed" and job.error.startswith("--scale: must be between")
    state = client.get(f"/pieces/jobs/{job.id}.json").get_json()
    assert state["state"] == "failed" and state["error"] == job.error and "files" not in state
    (job.folder / "secret.txt").write_text("no")
    for name in ("secret.txt", "../secret.txt", "%2e%2e/secret.txt", "/etc/passwd"):
        answer = client.get(f"/pieces/jobs/{job.id}/files/{name}", follow_redirects=True)
        assert answer.status_code == 404, name


def test_without_the_kit_extra_the_door_says_what_to_install(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pages, "missing_kit", lambda: ["cadquery-ocp"])
    page = client.get("/pieces").get_data(as_text=True)
    assert 'id="kit-missing"' in page and "pip install -r requirements/kit.txt" in page
    assert 'id="make-kit" disabled' in page
    assert client.post("/pieces", data={}).status_code == 503


@pytest.mark.slow
def test_a_kit_from_the_form_is_the_commands_kit_byte_for_byte(
    client: FlaskClient, tmp_path: Path
) -> None:
    form = {"scale": "0,8", "printer": "mini", "multi_material": "on", "colour_a": "green"}
    answer = client.post("/pieces", data=form)
    assert answer.status_code == 303
    job_url = answer.headers["Location"]
    page = client.get(job_url).get_data(as_text=True)
    assert 'id="job-status"' in page
    state = wait_ended(client, job_url)
    assert state["state"] == "done", state
    assert any("building the board" in line or "kit complete" in line for line in state["progress"])
    with client.get(state["zip"]) as download:
        kit = zipfile.ZipFile(io.BytesIO(download.data))
    made = {name.removeprefix("asteroids/"): kit.read(name) for name in kit.namelist()}
    command = tmp_path / "command"
    subprocess.run(
        [sys.executable, str(ROOT / "tablesmith.py"), "build", "-q", "--no-cache", "--scale",
         "0.8", "--printer", "mini", "--multi-material", "--colour-a", "green", "--out",
         str(command)],
        check=True, capture_output=True,
    )  # fmt: skip
    expected = {
        p.relative_to(command).as_posix(): p.read_bytes() for p in command.rglob("*") if p.is_file()
    }
    assert sorted(made) == sorted(expected)
    different = [name for name in expected if made[name] != expected[name]]
    assert not different, different
    assert state["manifest"]["settings"]["colour_a"] == "#2E9B4E"
    for name in ("asteroids/manifest.json", "asteroids/plates/plate-1-board.3mf"):
        with client.get(state["files"][name]) as download:
            assert download.status_code == 200
            assert download.data == expected[name.removeprefix("asteroids/")]
