"""An acknowledged action survives kill -9 of the server (issue 4, point 3)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from tests.companion.conftest import seat_both

ROOT = Path(__file__).resolve().parents[2]


def start_server(database: Path, *extra: str) -> tuple[subprocess.Popen[str], str]:
    """``tablesmith serve`` on a free loopback port; returns the process and its base URL."""
    code = "import sys\nfrom tablesmith import cli\nsys.exit(cli())"
    process = subprocess.Popen(
        [
            sys.executable,
            "-u",
            "-c",
            code,
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--db",
            str(database),
            "--no-qr",
            "--threads",
            "8",
            *extra,
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    match = re.search(r"open (http://127\.0\.0\.1:\d+)/", line)
    assert match, line
    return process, match.group(1)


def close_pipes(process: subprocess.Popen[str]) -> None:
    """Close the pipe :func:`start_server` opened (after the process has ended)."""
    if process.stdout is not None:
        process.stdout.close()


def stop(process: subprocess.Popen[str]) -> None:
    """Kill a server of :func:`start_server`, wait for it and close its pipe."""
    process.kill()
    process.wait(timeout=10)
    close_pipes(process)


@pytest.mark.parametrize("fsync", [[], ["--no-fsync"]], ids=["power", "crash"])
def test_acknowledged_actions_survive_kill_9(tmp_path: Path, fsync: list[str]) -> None:
    database = tmp_path / "data" / "companion.sqlite"
    process, base = start_server(database, *fsync)
    try:
        seats = seat_both(lambda path, **kw: requests.post(base + path, timeout=10, **kw))
        url = f"{base}{seats.api}/actions"
        setup = {
            "expected_revision": 1,
            "client_action_id": "s",
            "action": {"type": "setup", "mode": "random"},
        }
        view = requests.post(url, json=setup, headers=seats.headers("A"), timeout=10).json()["view"]
        mover = view["state"]["player"]
        move = next(a for a in view["legal"] if a["type"] == "move")
        body = {"expected_revision": view["revision"], "client_action_id": "m", "action": move}
        acked = requests.post(url, json=body, headers=seats.headers(mover), timeout=10)
        assert acked.status_code == 200
        again = next(a for a in acked.json()["view"]["legal"] if a["type"] == "move")
        second = {
            "expected_revision": view["revision"] + 1,
            "client_action_id": "m2",
            "action": again,
        }
        requests.post(url, json=second, headers=seats.headers(mover), timeout=10)
        undo = {
            "expected_revision": view["revision"] + 2,
            "client_action_id": "u",
            "action": {"type": "undo"},
        }
        undone = requests.post(url, json=undo, headers=seats.headers(mover), timeout=10)
        assert undone.status_code == 200
        expected = undone.json()["view"]
        assert expected["state"] == acked.json()["view"]["state"]
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        close_pipes(process)
    assert process.returncode == -signal.SIGKILL
    restarted, base = start_server(database)
    try:
        state = requests.get(f"{base}{seats.api}/state", headers=seats.headers("B"), timeout=10)
        assert state.status_code == 200
        assert state.json()["revision"] == expected["revision"] == view["revision"] + 3
        assert state.json()["state"] == expected["state"]  # the fold replays the undo
        assert state.json()["undo_seat"] == mover  # the first step can still be undone
        retry = requests.post(
            url.replace(url.split("/api")[0], base),
            json=body,
            headers=seats.headers(mover),
            timeout=10,
        )
        assert retry.json()["duplicate"] is True  # the phone's retry after the crash is harmless
    finally:
        stop(restarted)
