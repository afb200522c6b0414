"""Real generated geometry: validity, sizes, X-Y compensation measured on sections, layers."""

from __future__ import annotations

import pytest

from cad.parts import checked
from tests.cad.geometry import cq_shape, kit_parts, section

ALL = ("board", "half_a", "half_b", "fragment_hh", "fragment_ha", "ship")


def _raw(partset, name):
    if name == "half_a":
        return partset.board_halves[0]
    if name == "half_b":
        return partset.board_halves[1]
    return getattr(partset, name)


def _get(partset, name):
    return cq_shape(_raw(partset, name))


def inner_wire_sizes(face) -> list[tuple[float, float]]:
    return sorted((w.BoundingBox().xlen, w.BoundingBox().ylen) for w in face.innerWires())


@pytest.mark.parametrize("name", ALL)
def test_every_part_is_one_valid_solid_with_one_shell(scale: float, name: str) -> None:
    _, partset = kit_parts(scale)
    assert checked(_raw(partset, name), name) is not None
    solid = _get(partset, name)
    assert len(solid.Solids()) == 1 and len(solid.Shells()) == 1 and solid.isValid()
    assert solid.BoundingBox().zmin == pytest.approx(0, abs=1e-6)


@pytest.mark.parametrize("name", ALL)
def test_compensation_shrinks_outer_contour_by_0_1_per_side_and_leaves_z(
    scale: float, name: str
) -> None:
    _, compensated = kit_parts(scale, -0.1)
    _, nominal = kit_parts(scale, 0.0)
    a, b = _get(compensated, name).BoundingBox(), _get(nominal, name).BoundingBox()
    assert a.zlen == pytest.approx(b.zlen, abs=1e-6)
    if name in ("half_a", "half_b"):  # the cut side moves too: both Y sides shrink
        assert a.xlen == pytest.approx(b.xlen - 0.2, abs=2e-3)
        assert a.ylen == pytest.approx(b.ylen - 0.2, abs=2e-3)
    else:
        assert (a.xlen, a.ylen) == pytest.approx((b.xlen - 0.2, b.ylen - 0.2), abs=2e-3)


def test_pocket_holes_grow_by_0_1_per_side(scale: float) -> None:
    dims, partset = kit_parts(scale)
    z = dims.fragment_height - dims.pocket_depth / 2
    (face,) = section(partset.fragment_hh, z)
    sizes = inner_wire_sizes(face)
    assert len(sizes) == 2
    for sx, sy in sizes:
        assert sx == pytest.approx(dims.pocket_diameter + 0.2, abs=2e-3)
        assert sy == pytest.approx(dims.pocket_diameter + 0.2, abs=2e-3)
    (middle,) = section(partset.fragment_hh, dims.fragment_height / 2)
    outer = middle.outerWire().BoundingBox()
    assert (outer.xlen, outer.ylen) == pytest.approx(
        (dims.fragment_length - 0.2, dims.fragment_width - 0.2), abs=2e-3
    )


def test_rifts_grow_by_0_1_per_side_and_run_through(scale: float) -> None:
    dims, partset = kit_parts(scale)
    z = dims.board_thickness - dims.rift_depth / 2
    faces = sorted(section(partset.board, z), key=lambda f: f.Center().y)
    assert len(faces) == dims.rifts + 1  # two bases + five ribs: rifts cut right through
    for rift, (below, above) in enumerate(zip(faces, faces[1:]), start=1):
        width = above.BoundingBox().ymin - below.BoundingBox().ymax
        assert width == pytest.approx(dims.fragment_width + 0.2, abs=2e-3), rift
        centre = (above.BoundingBox().ymin + below.BoundingBox().ymax) / 2
        assert centre == pytest.approx(dims.rift_centre_y(rift), abs=1e-6)
    for rib in faces[1:-1]:
        assert rib.BoundingBox().ylen == pytest.approx(dims.rib_width - 0.2, abs=2e-3)


def test_ship_outer_shrinks_and_recess_grows(scale: float) -> None:
    dims, partset = kit_parts(scale)
    (face,) = section(partset.ship, dims.layer_height / 2)
    assert face.outerWire().BoundingBox().xlen == pytest.approx(
        dims.ship_diameter - 0.2 - 2 * dims.elephant_foot_chamfer + dims.layer_height, abs=0.01
    )
    (face,) = section(partset.ship, dims.ship_body_height / 2)
    assert face.outerWire().BoundingBox().xlen == pytest.approx(dims.ship_diameter - 0.2, abs=2e-3)
    (face,) = section(partset.ship, 0.0 + 1e-4)
    ((rx, _),) = inner_wire_sizes(face)
    assert rx == pytest.approx(dims.boss_base_diameter + 0.2, abs=2e-3)


def test_heights_are_the_layer_snapped_design_heights(scale: float) -> None:
    dims, partset = kit_parts(scale)
    assert _get(partset, "board").BoundingBox().zlen == pytest.approx(
        dims.board_thickness, abs=1e-6
    )
    assert _get(partset, "fragment_ha").BoundingBox().zlen == pytest.approx(
        dims.fragment_height, abs=1e-6
    )
    assert _get(partset, "ship").BoundingBox().zlen == pytest.approx(dims.ship_height, abs=1e-6)


@pytest.mark.parametrize("name", ["fragment_ha", "ship"])
def test_engravings_are_exactly_whole_layers_deep(scale: float, name: str) -> None:
    dims, partset = kit_parts(scale)
    solid = _get(partset, name)
    top = solid.BoundingBox().zmax
    depth = dims.engraving_depth
    assert depth == pytest.approx(dims.layer_height)
    # inside the engraved layer the symbol is a hole in the section ...
    engraved = section(solid, top - depth / 2)
    below = section(solid, top - depth - dims.layer_height / 2)
    holes_in = sum(len(f.innerWires()) for f in engraved)
    holes_below = sum(len(f.innerWires()) for f in below)
    expected = 3 if name == "fragment_ha" else 1  # outline ring and two craters / the arrow
    if name == "fragment_ha":  # the pocket of the hole place is a hole at both heights
        assert holes_in - holes_below == expected
    else:
        assert holes_in == expected and holes_below == 0


def test_fragment_kinds_have_their_places(scale: float) -> None:
    dims, partset = kit_parts(scale)
    z = dims.fragment_height - dims.pocket_depth / 2
    hh = sum(len(f.innerWires()) for f in section(partset.fragment_hh, z))
    assert hh == 2
    ha_faces = section(
        partset.fragment_ha,
        dims.fragment_height
        - min(dims.pocket_depth, 3 * dims.engraving_depth) / 2
        - dims.engraving_depth,
    )
    ha_holes = [w.Center().x for f in ha_faces for w in f.innerWires()]
    assert len(ha_holes) == 1 and ha_holes[0] == pytest.approx(-dims.place_pitch / 2, abs=1e-3)
