"""Fixtures for the print shop's tests: the companion app with the shop mounted, as
``tablesmith serve`` mounts it, on a fresh database, job folder and kit cache."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import shop
from companion import create_app
from shop.pages import RUNNER


@pytest.fixture
def shop_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    monkeypatch.setenv("TABLESMITH_CACHE", str(tmp_path / "kit-cache"))  # the workers inherit it
    (tmp_path / "jobs").mkdir()
    config = {
        "DATABASE": str(tmp_path / "companion.sqlite"),
        "DICE_RNG": random.Random(4),
        "I18N_CACHE": str(tmp_path / "i18n"),
        "SHOP_ROOT": str(tmp_path / "jobs"),
    }
    app = create_app(config, extensions=(shop.init_app,))
    yield app
    app.extensions[RUNNER].close()


@pytest.fixture
def client(shop_app: Flask) -> FlaskClient:
    """A test client of the app with the shop."""
    return shop_app.test_client()


def wait_ended(client: FlaskClient, url: str, seconds: float = 240) -> dict[str, Any]:
    """Poll a job's JSON state (``url`` + ``.json``) until it is no longer queued or
    running; its last state."""
    deadline = time.monotonic() + seconds
    while True:
        state: dict[str, Any] = client.get(url + ".json").get_json()
        if state["state"] not in ("queued", "running"):
            return state
        assert time.monotonic() < deadline, state
        time.sleep(0.2)


@pytest.fixture
def browser() -> Iterator[Any]:
    """A headless chromium (:func:`tests.companion.phones.launch`)."""
    from tests.companion.phones import launch

    yield from launch()


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A real ``tablesmith serve`` (the shop mounted) on loopback, with a kit cache of its
    own (kits are really built)."""
    from tests.companion.servers import serve_process

    monkeypatch.setenv("TABLESMITH_CACHE", str(tmp_path / "kit-cache"))
    options = ["--host", "127.0.0.1", "--port", "0", "--no-mdns", "--no-qr"]
    serve = serve_process([*options, "--db", str(tmp_path / "t.sqlite")], tmp_path / "serve.log")
    yield serve
    serve.stop()
