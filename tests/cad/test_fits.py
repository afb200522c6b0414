"""Every mating pair: zero interference and the designed play, at full size and at 80 %."""

from __future__ import annotations

import pytest

from cad.fits import kit_fits, measure
from tests.cad.geometry import kit_parts

PAIRS = (
    "fragment in rift 1, slot 1 (left end)",
    "fragment in rift 1, slot 2 (middle)",
    "fragment in rift 1, slot 4 (right end)",
    "fragment beside fragment (end to end in a rift)",
    "ship in a fragment's hole",
    "ship on ship (stack level 2 of 3)",
    "ship on ship (stack level 3 of 3)",
    "ship in a base pocket",
    "board halves at the jigsaw tab joint",
)


def test_every_pair_has_no_interference_and_0_2_mm_play(scale: float) -> None:
    dims, partset = kit_parts(scale)
    fits = kit_fits(dims, partset)
    assert tuple(f.pair for f in fits) == PAIRS
    for fit in fits:
        assert fit.interference < 1e-6, fit
        # compensation is absolute: 2 x 0.1 mm at any scale (P1, P2)
        assert fit.play == pytest.approx(0.2, abs=1e-3), fit


def test_without_compensation_the_fits_are_line_to_line() -> None:
    dims, partset = kit_parts(1.0, 0.0)
    fits = kit_fits(dims, partset, joint=False)
    assert len(fits) == 8  # every rift slot end of the fragments
    for fit in fits:
        assert fit.play == pytest.approx(0.0, abs=1e-6), fit


def test_measure_sees_interference_when_parts_overlap() -> None:
    dims, partset = kit_parts(1.0)
    from cad.fits import _at

    # a fragment pushed 0.5 mm sideways into a rib of rift 1
    y = dims.rift_centre_y(1) + 0.5
    floor = dims.board_thickness - dims.rift_depth
    fit = measure("bad", partset.board, _at(partset.fragment_hh, 0, y, floor), floor + 1)
    assert fit.interference > 1.0
    assert fit.play == pytest.approx(0.0, abs=1e-9)


def test_stacked_ships_rest_on_their_rims_not_on_the_boss() -> None:
    dims, partset = kit_parts(1.0)
    from cad.fits import _at
    from tests.cad.geometry import cq_shape

    lower = cq_shape(partset.ship)
    upper = cq_shape(_at(partset.ship, 0, 0, dims.ship_body_height))
    # resting: touching (distance 0) with no overlap ...
    assert lower.distance(upper) == pytest.approx(0.0, abs=1e-9)
    assert lower.intersect(upper).Volume() == pytest.approx(0.0, abs=1e-9)
    # ... and the upper ship's recess still runs one layer above the lower boss top:
    # in that layer the upper ship has a hole wider than the boss top, so nothing touches it
    from tests.cad.geometry import section

    boss_top = dims.outer(dims.boss_base_diameter) - 2 * dims.boss_height
    (face,) = section(upper, dims.ship_height + dims.layer_height / 2)
    (hole,) = face.innerWires()
    assert hole.BoundingBox().xlen > boss_top + 0.1
    (roof,) = section(upper, dims.ship_height + dims.layer_height * 1.5)
    assert roof.innerWires() == []
