"""No wall under the minimum at any allowed scale and bed (issue 11, point 2), and the
board-half joint that locks: the wall table swept, then checked against the real solids."""

from __future__ import annotations

import math

import pytest

from cad import fits, parts
from cad.design import AsteroidsDesign, print_dimensions
from cad.kit import KitError, board_split
from cad.settings import BED_PRESETS, PrintSettings
from tests.cad.geometry import cq_shape, section, socket_tips

MIN_WALL = AsteroidsDesign().min_wall


@pytest.mark.parametrize("bed", list(BED_PRESETS), ids=list(BED_PRESETS))
def test_every_scale_from_half_to_one_and_a_half_keeps_every_wall(bed: str) -> None:
    design = AsteroidsDesign()
    built = 0
    for hundredths in range(50, 151):
        settings = PrintSettings(scale=hundredths / 100, bed=BED_PRESETS[bed])
        dims = print_dimensions(settings, design)
        try:
            split = board_split(settings, design, dims)
        except KitError as error:  # the board does not fit this bed even in halves
            assert error.option == "--printer" and "or less fits" in str(error)
            continue
        built += 1
        walls = dims.walls(split=split)
        thinnest = min(walls, key=walls.__getitem__)
        assert walls[thinnest] >= MIN_WALL - 1e-9, (hundredths, bed, thinnest, walls[thinnest])
    assert built >= 40  # every bed takes a good range of scales


def test_the_middle_rib_stays_whole_in_half_a_at_the_smallest_scale() -> None:
    dims = print_dimensions(PrintSettings(scale=0.5))
    half_a, half_b = parts.board_halves(dims)
    z = dims.board_thickness - dims.rift_depth / 2  # inside the rifts: ribs stand alone
    faces = sorted(section(half_a, z), key=lambda f: f.Center().y)
    rib = faces[-1]  # the +Y-most face of half A is the middle rib
    assert rib.BoundingBox().ylen == pytest.approx(dims.rib_width - 0.2, abs=2e-3)
    assert rib.BoundingBox().ylen >= MIN_WALL
    assert rib.BoundingBox().ymax == pytest.approx(dims.rib_width / 2 - 0.1, abs=2e-3)
    # half B holds no sliver of it: its section starts at the far side of rift 4
    assert min(f.BoundingBox().ymin for f in section(half_b, z)) > dims.rib_width / 2 + 10


@pytest.mark.parametrize("compensation", [-0.1, 0.0])
@pytest.mark.parametrize("scale", [0.5, 1.29])
def test_no_socket_tip_of_half_b_is_under_the_minimum(scale: float, compensation: float) -> None:
    # the smallest scale and the largest any preset splits the board at; a round head
    # alone left tips of 0.11 mm (scale 0.5, -0.1 mm) to 0.69 mm (scale 1.29, 0 mm)
    dims = print_dimensions(PrintSettings(scale=scale, xy_compensation=compensation))
    tips = socket_tips(dims, parts.board_halves(dims)[1])
    assert len(tips) == dims.split_joint_tabs
    assert min(tips) >= MIN_WALL - 1e-6, tips
    # as the wall table says (the manifest's walls_mm): the measured tip is the formula's
    assert tips == pytest.approx([dims.walls()["socket tip of a board-half tab"]] * 3, abs=2e-3)
    if scale == 0.5:  # raised just to the minimum where the scaled shoulder is too low
        assert min(tips) == pytest.approx(MIN_WALL, abs=2e-3)


@pytest.mark.parametrize("scale", [0.5, 1.0])
def test_chamfered_top_walls_are_as_the_table_says(scale: float) -> None:
    dims = print_dimensions(PrintSettings(scale=scale))
    fragment = parts.fragment(dims, __import__("games.asteroids").asteroids.FragmentKind.HH)
    z = dims.fragment_height - dims.layer_height / 2  # the middle of the top layer
    (face,) = section(fragment, z)
    walls = [face.outerWire().distance(inner) for inner in face.innerWires()]
    expected = dims.walls()["fragment wall beside a pocket, in the top layer"]
    assert min(walls) == pytest.approx(expected, abs=0.01)
    assert min(walls) >= MIN_WALL - 1e-6


@pytest.mark.parametrize("scale", [0.5, 1.0, 1.5])
def test_the_tabs_lock_the_halves_with_little_play_both_ways(scale: float) -> None:
    dims = print_dimensions(PrintSettings(scale=scale))
    halves = parts.board_halves(dims)
    travel = fits.joint_travel(dims, halves)
    # along the joint and pushing together: the 0.2 mm of play of every fit
    assert travel.along_minus == pytest.approx(0.2, abs=0.005)
    assert travel.along_plus == pytest.approx(0.2, abs=0.005)
    assert travel.push == pytest.approx(0.2, abs=0.005)
    # pulling apart the heads' lock faces (30 deg, parallel to the head's tangent at the neck)
    # stop the halves after the play divided by cos 30 deg
    # (the neck is half the head): 0.23 mm instead of 1.6 mm of the old straight dovetails
    assert travel.pull == pytest.approx(0.2 / math.cos(math.radians(30)), abs=0.002)
    # the tab neck, the thinnest part of the joint, is wider than the minimum
    neck = cq_shape(halves[0])
    assert neck.isValid() and dims.walls()["neck of a board-half tab"] >= MIN_WALL


@pytest.mark.parametrize("scale", [0.5, 1.0])
def test_symbol_lands_are_the_gaps_between_the_engraving_tools(scale: float) -> None:
    """The narrow strips inside the asteroid symbol, computed from the design, equal the
    exact distance between the engraving tools the part is cut with."""
    from cad import occ, parts
    from cad.design import AsteroidsDesign, print_dimensions, symbol_lands
    from cad.settings import PrintSettings

    dims = print_dimensions(PrintSettings(scale=scale), AsteroidsDesign())
    ring, crater_1, crater_2 = parts._asteroid_tools(dims, 0.0, dims.fragment_height)
    lands = symbol_lands(dims)
    assert lands["asteroid symbol: crater 1 to the outline"] == pytest.approx(
        occ.distance(ring, crater_1), abs=0.01
    )
    assert lands["asteroid symbol: crater 2 to the outline"] == pytest.approx(
        occ.distance(ring, crater_2), abs=0.01
    )
    assert lands["asteroid symbol: between the craters"] == pytest.approx(
        occ.distance(crater_1, crater_2), abs=0.01
    )
