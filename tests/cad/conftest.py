"""CadQuery fixtures for the cad tests."""

from __future__ import annotations

import pytest

pytest.importorskip("OCP", reason="the print-kit extra is not installed (pip install '.[kit]')")
pytest.importorskip("cadquery", reason="CadQuery (the test extra) measures the solids")


@pytest.fixture(params=[1.0, 0.8], ids=["scale1.0", "scale0.8"], scope="session")
def scale(request: pytest.FixtureRequest) -> float:
    return request.param
