import math

import pytest

from cad.design import (
    AsteroidsDesign,
    asteroid_symbol,
    print_dimensions,
    ship_symbol,
    snap_to_layers,
)
from cad.settings import PrintSettings, SettingsError

HEIGHTS = (
    "fragment_height",
    "board_thickness",
    "rift_depth",
    "pocket_depth",
    "ship_body_height",
    "boss_height",
    "stack_clearance",
    "engraving_depth",
)


@pytest.mark.parametrize("scale", [0.6, 0.8, 0.9, 1.0, 1.17, 1.5])
@pytest.mark.parametrize("layer", [0.1, 0.15, 0.2, 0.28])
def test_every_height_is_a_whole_number_of_layers(scale: float, layer: float) -> None:
    dims = print_dimensions(PrintSettings(scale=scale, layer_height=layer))
    for name in HEIGHTS:
        layers = getattr(dims, name) / layer
        assert layers >= 1 and abs(layers - round(layers)) < 1e-6, (name, getattr(dims, name))
    assert abs(dims.ship_height / layer - round(dims.ship_height / layer)) < 1e-6


def test_snap_rounds_to_nearest_layer_and_never_to_zero() -> None:
    assert snap_to_layers(3.2, 0.2) == pytest.approx(3.2)
    assert snap_to_layers(1.28, 0.2) == pytest.approx(1.2)
    assert snap_to_layers(1.31, 0.2) == pytest.approx(1.4)
    assert snap_to_layers(0.01, 0.2) == pytest.approx(0.2)


def test_horizontal_sizes_scale_and_engraving_does_not() -> None:
    full, small = (print_dimensions(PrintSettings(scale=s)) for s in (1.0, 0.8))
    assert small.fragment_length == pytest.approx(0.8 * full.fragment_length)
    assert small.board_depth == pytest.approx(0.8 * full.board_depth)
    assert small.engraving_depth == full.engraving_depth == pytest.approx(0.2)
    assert small.xy_compensation == full.xy_compensation == -0.1


def test_board_is_four_fragments_long_and_has_six_rifts() -> None:
    dims = print_dimensions(PrintSettings())
    assert dims.board_length == pytest.approx(4 * 47.6)
    assert dims.board_depth == pytest.approx(2 * 45 + 6 * 23.6 + 5 * 2.4)
    # rift 1 touches A's base, rift 6 B's base, 26 mm apart centre to centre
    assert dims.rift_centre_y(1) - dims.fragment_width / 2 == pytest.approx(
        -dims.board_depth / 2 + dims.base_depth
    )
    assert dims.rift_centre_y(6) + dims.fragment_width / 2 == pytest.approx(
        dims.board_depth / 2 - dims.base_depth
    )


def test_compensation_helpers_shrink_outer_and_grow_holes() -> None:
    dims = print_dimensions(PrintSettings(xy_compensation=-0.1))
    assert dims.outer(10) == pytest.approx(9.8)
    assert dims.hole(10) == pytest.approx(10.2)


def test_compensation_that_eats_a_wall_is_refused_with_the_allowed_range() -> None:
    with pytest.raises(SettingsError) as info:
        print_dimensions(PrintSettings(scale=0.8, xy_compensation=-0.45))
    message = str(info.value)
    assert info.value.option == "--xy-compensation"
    assert (
        "board wall beside a base pocket" in message
        and "-0.4..0 mm" in message
        and "got -0.45" in message
    )


def test_scale_that_thins_a_wall_even_without_compensation_names_scale() -> None:
    slim = AsteroidsDesign(rib_width=1.5)
    with pytest.raises(SettingsError) as info:
        print_dimensions(PrintSettings(scale=0.5, xy_compensation=0.0), slim)
    assert info.value.option == "--scale"
    assert "rib between rifts" in str(info.value) and "0.54..1.5" in str(info.value)


def _distance_to_polygon(px: float, py: float, polygon) -> float:
    best = math.inf
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1]):
        dx, dy = x1 - x0, y1 - y0
        t = max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(px - x0 - t * dx, py - y0 - t * dy))
    return best


@pytest.mark.parametrize("scale", [0.8, 1.0])
def test_asteroid_craters_leave_a_printable_wall_inside_the_outline(scale: float) -> None:
    dims = print_dimensions(PrintSettings(scale=scale))
    outer, inner, craters = asteroid_symbol(dims.asteroid_symbol_size, dims.asteroid_stroke)
    grow = -dims.xy_compensation
    for cx, cy, diameter in craters:
        wall = _distance_to_polygon(cx, cy, inner) - diameter / 2 - 2 * grow
        assert wall >= AsteroidsDesign().min_wall
    radius = max(math.hypot(x, y) for x, y in outer)
    assert radius == pytest.approx(dims.asteroid_symbol_size / 2, rel=0.01)


@pytest.mark.parametrize("scale", [0.6, 0.8, 1.0, 1.5])
def test_ship_symbol_leaves_a_printable_rim_on_the_boss_top(scale: float) -> None:
    dims = print_dimensions(PrintSettings(scale=scale))
    boss_top = dims.outer(dims.boss_base_diameter) / 2 - dims.boss_height
    reach = (
        max(math.hypot(x, y) for x, y in ship_symbol(dims.ship_symbol_size)) - dims.xy_compensation
    )
    assert boss_top - reach >= AsteroidsDesign().min_wall
