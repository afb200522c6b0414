"""Fixtures for the print shop's tests: the companion app with the shop mounted, as
``tablesmith serve`` mounts it, on a fresh database, job folder and kit cache."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

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
