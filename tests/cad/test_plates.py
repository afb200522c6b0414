import pytest

from cad.plates import Footprint, PlateError, TowerRoom, arrange, pack_box
from cad.settings import BED_PRESETS


def _inside(plate, sizes, bed, margin):
    for p in plate.placements:
        sx, sy = sizes[p.part]
        if p.rotated:
            sx, sy = sy, sx
        assert margin - 1e-9 <= p.x - sx / 2 and p.x + sx / 2 <= bed.x - margin + 1e-9
        assert margin - 1e-9 <= p.y - sy / 2 and p.y + sy / 2 <= bed.y - margin + 1e-9


def _apart(a, b, spacing) -> bool:
    """Two (x0, y0, x1, y1) boxes at least ``spacing`` apart along x or y."""
    return (
        a[2] + spacing <= b[0] + 1e-9
        or b[2] + spacing <= a[0] + 1e-9
        or a[3] + spacing <= b[1] + 1e-9
        or b[3] + spacing <= a[1] + 1e-9
    )


def _no_overlap(plate, sizes, spacing):
    boxes = []
    for p in plate.placements:
        sx, sy = sizes[p.part][::-1] if p.rotated else sizes[p.part]
        boxes.append((p.x - sx / 2, p.y - sy / 2, p.x + sx / 2, p.y + sy / 2))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert _apart(a, b, spacing), (a, b)


def _off_keep_out(plate, sizes, bed, spacing, brim=0.0) -> None:
    """Every part and the tower's brim keep ``spacing`` from the bed's excluded areas."""
    boxes = []
    for p in plate.placements:
        sx, sy = sizes[p.part][::-1] if p.rotated else sizes[p.part]
        boxes.append((p.x - sx / 2, p.y - sy / 2, p.x + sx / 2, p.y + sy / 2))
    if plate.tower is not None:
        x, y, width, depth = plate.tower
        boxes.append((x - brim, y - brim, x + width + brim, y + depth + brim))
    for box in boxes:
        for area in bed.keep_out:
            assert _apart(area, box, spacing), (plate.name, area, box)


@pytest.mark.parametrize("bed", list(BED_PRESETS.values()), ids=list(BED_PRESETS))
def test_fragments_fill_plates_inside_the_bed_without_overlap(bed) -> None:
    fps = [
        Footprint(part="fragment-HH", x=47.4, y=23.4, z=4, count=14, group="fragments"),
        Footprint(part="fragment-HA", x=47.4, y=23.4, z=4, count=14, group="fragments"),
    ]
    plates = arrange(fps, bed, spacing=6, margin=3)
    sizes = {"fragment-HH": (47.4, 23.4), "fragment-HA": (47.4, 23.4)}
    assert sum(len(p.placements) for p in plates) == 28
    for plate in plates:
        _inside(plate, sizes, bed, 3)
        _no_overlap(plate, sizes, 6)
        _off_keep_out(plate, sizes, bed, 6)
    assert len(plates) == (2 if bed.name == "mini" else 1)


def test_groups_never_share_a_plate_and_are_numbered_in_order() -> None:
    fps = [
        Footprint(part="ship", x=18.8, y=18.8, z=6.6, count=9, group="ships-A"),
        Footprint(part="ship", x=18.8, y=18.8, z=6.6, count=9, group="ships-B"),
    ]
    plates = arrange(fps, BED_PRESETS["a1"], spacing=6)
    assert [p.name for p in plates] == ["plate-1-ships-A", "plate-2-ships-B"]
    assert all(len(p.placements) == 9 for p in plates)


def test_a_long_part_is_turned_to_fit() -> None:
    (plate,) = arrange(
        [Footprint(part="board", x=190.2, y=243.4, z=5, count=1, group="board")],
        BED_PRESETS["mk4"],
        spacing=6,
        margin=3,
    )
    assert plate.placements[0].rotated


def test_too_large_part_names_part_size_and_bed() -> None:
    with pytest.raises(
        PlateError, match=r"board \(190.2 x 243.4 mm\) does not fit the bed 180 x 180 mm"
    ):
        arrange(
            [Footprint(part="board", x=190.2, y=243.4, z=5, count=1, group="board")],
            BED_PRESETS["mini"],
            spacing=6,
        )


def test_box_layers_add_up() -> None:
    fps = [
        Footprint(part="board", x=152.2, y=194.8, z=4, count=1, group="board"),
        Footprint(part="ship", x=15, y=15, z=5.2, count=18, group="ships"),
    ]
    packing = pack_box(fps, (200, 200, 70))
    assert packing.layers == (("board", 4), ("ships", 5.2))
    assert packing.height == pytest.approx(9.2) and packing.fits
    assert not pack_box(fps, (200, 200, 9)).fits


def _tower_clear(plate, sizes, bed, margin, spacing, room) -> None:
    """The tower and its brim lie inside the bed border, ``spacing`` from every part, and the
    tower is as deep as its width needs."""
    x, y, width, depth = plate.tower
    assert depth == pytest.approx(room.depth(width)) and width >= room.narrowest
    outer = (x - room.brim, y - room.brim, x + width + room.brim, y + depth + room.brim)
    assert margin - 1e-9 <= outer[0] and outer[2] <= bed.x - margin + 1e-9
    assert margin - 1e-9 <= outer[1] and outer[3] <= bed.y - margin + 1e-9
    for p in plate.placements:
        sx, sy = sizes[p.part][::-1] if p.rotated else sizes[p.part]
        box = (p.x - sx / 2, p.y - sy / 2, p.x + sx / 2, p.y + sy / 2)
        assert _apart(outer, box, spacing), (plate.name, outer, box)


@pytest.mark.parametrize("bed", list(BED_PRESETS.values()), ids=list(BED_PRESETS))
def test_every_multi_material_plate_keeps_room_for_its_wipe_tower(bed) -> None:
    # the kit's parts at scale 0.8 (the Mini's case); 386 mm³ at 0.2 mm: Bambu's grey to white
    sizes = {"fragment-HH": (37.9, 18.7), "fragment-HA": (37.9, 18.7), "ship": (15.0, 15.0)}
    fps = [
        Footprint(part="fragment-HH", x=37.9, y=18.7, z=3.2, count=14, group="fragments"),
        Footprint(part="fragment-HA", x=37.9, y=18.7, z=3.2, count=14, group="fragments"),
        Footprint(part="ship", x=15.0, y=15.0, z=5.2, count=9, group="ships-A"),
    ]
    room = TowerRoom(area=1.3 * 386 / 0.2, extra=4.0, brim=3.0)
    plates = arrange(fps, bed, 6, 5, {"fragments": room, "ships-A": room})
    assert sum(len(p.placements) for p in plates) == 37
    for plate in plates:
        _inside(plate, sizes, bed, 5)
        _no_overlap(plate, sizes, 6)
        _tower_clear(plate, sizes, bed, 5, 6, room)
        _off_keep_out(plate, sizes, bed, 6, room.brim)
    without = arrange(fps, bed, 6, 5)
    assert all(p.tower is None for p in without)
    # the Mini has no room beside 28 fragments: they take a second plate, every other bed not
    assert len(plates) - len(without) == (1 if bed.name == "mini" else 0)


def test_a_bed_too_small_for_the_tower_says_so() -> None:
    fps = [Footprint(part="ship", x=15.0, y=15.0, z=5.2, count=9, group="ships-A")]
    huge = TowerRoom(area=30000.0, extra=4.0, brim=3.0)  # 304 mm deep at 100 mm wide
    with pytest.raises(PlateError, match=r"no room for a 100 x \d+ mm wipe tower"):
        arrange(fps, BED_PRESETS["mini"], 6, 5, {"ships-A": huge})


def test_the_x1_and_p1_corner_stays_clear_the_plate_moving_as_little_as_it_must() -> None:
    """The Bambu X1/P1 beds exclude their 18 x 28 mm front-left corner (the profiles'
    ``bed_exclude_area``). A 226 x 220 mm part centred on the 256 mm bed starts at (15, 18),
    inside it, as it stays on the A1; on the X1 and P1S the plate moves right by 9 mm, to
    spacing (6 mm) past the corner, as the smaller of the two moves (back would be 16 mm)."""
    board = [Footprint(part="board", x=226, y=220, z=5, count=1, group="board")]
    (on_a1,) = arrange(board, BED_PRESETS["a1"], spacing=6, margin=5)
    assert (on_a1.placements[0].x - 113, on_a1.placements[0].y - 110) == (15, 18)
    for name in ("x1", "p1s"):
        bed = BED_PRESETS[name]
        assert bed.keep_out == ((0.0, 0.0, 18.0, 28.0),) and (bed.x, bed.y, bed.z) == (
            256,
            256,
            250,
        )
        (plate,) = arrange(board, bed, spacing=6, margin=5)
        p = plate.placements[0]
        assert (p.x - 113, p.y - 110) == pytest.approx((24, 18))
        assert plate.used == pytest.approx((on_a1.used[0] + 9, on_a1.used[1]))
        _inside(plate, {"board": (226, 220)}, bed, 5)
        _off_keep_out(plate, {"board": (226, 220)}, bed, 6)


def test_a_full_plate_is_packed_again_beside_the_corner() -> None:
    """28 fragments at scale 1.2 fill the X1's plate edge to edge: no move clears the corner,
    so the group is packed again on the bed less a 19 mm strip (the corner and the spacing
    past the 5 mm border) and moved right by it: one plate more, none in the corner."""
    sizes = {"fragment-HH": (56.9, 28.1), "fragment-HA": (56.9, 28.1)}
    fps = [
        Footprint(part=name, x=56.9, y=28.1, z=4.8, count=14, group="fragments") for name in sizes
    ]
    on_a1 = arrange(fps, BED_PRESETS["a1"], spacing=6, margin=5)
    assert len(on_a1) == 1
    first = on_a1[0].placements
    assert min(p.x - 56.9 / 2 for p in first) < 18 and min(p.y - 28.1 / 2 for p in first) < 28
    bed = BED_PRESETS["x1"]
    plates = arrange(fps, bed, spacing=6, margin=5)
    assert sum(len(p.placements) for p in plates) == 28 and len(plates) == 2
    for plate in plates:
        _inside(plate, sizes, bed, 5)
        _no_overlap(plate, sizes, 6)
        _off_keep_out(plate, sizes, bed, 6)
    assert min(p.x - 56.9 / 2 for p in plates[0].placements) >= 24 - 1e-9


def test_a_part_that_cannot_leave_the_corner_says_what_to_do() -> None:
    board = [Footprint(part="board", x=246, y=240, z=5, count=1, group="board")]
    assert arrange(board, BED_PRESETS["a1"], spacing=6, margin=5)  # it fits the A1
    with pytest.raises(
        PlateError,
        match=r"board lies in the excluded area 0\.\.18 x 0\.\.28 mm of the bed x1, .*"
        r"--printer 238x256x250",
    ):
        arrange(board, BED_PRESETS["x1"], spacing=6, margin=5)


def test_a_wide_border_counts_towards_the_room_past_the_corner() -> None:
    """With a 10 mm border and 2 mm spacing, a 227.8 x 226 mm part fits beside the corner
    (turned, from x 20: the corner's 18 mm and the spacing), not 8 mm further right."""
    part = [Footprint(part="p", x=227.8, y=226.0, z=5, count=1, group="g")]
    bed = BED_PRESETS["x1"]
    (plate,) = arrange(part, bed, spacing=2, margin=10)
    p = plate.placements[0]
    assert p.rotated and p.x - 226.0 / 2 == pytest.approx(20.0)
    _inside(plate, {"p": (227.8, 226.0)}, bed, 10)
    _off_keep_out(plate, {"p": (227.8, 226.0)}, bed, 2)
