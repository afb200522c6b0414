"""What every kit test checks first: the manifest holds the whole Asteroids kit, so that a
test looping over its parts or plates cannot pass on an empty or partial kit (issue 28)."""

from __future__ import annotations

from typing import Any

KIT_PIECES = {"fragment-HH": 14, "fragment-HA": 14, "ship": 18}
"""The pieces besides the board and how many of each (ASTEROIDS component spec: 28 fragments,
9 ships per player)."""
PLATE_GROUPS = ["board", "board", "fragments", "ships-A", "ships-B"]
"""The plate groups of a kit with the board in halves (one board plate when it is whole); the
fragments may take more than one plate on a small bed."""


def assert_whole_kit(manifest: dict[str, Any]) -> None:
    """Fail unless ``manifest`` lists every part of the kit by name and count (the board whole
    or, ``board_split``, as two halves) and its plates carry every copy once, in the plate
    groups of :data:`PLATE_GROUPS`."""
    board = {"board-half-a": 1, "board-half-b": 1} if manifest["board_split"] else {"board": 1}
    counts = {p["name"]: p["count"] for p in manifest["parts"]}
    assert counts == {**board, **KIT_PIECES}, counts
    on_plates: dict[str, int] = {}
    for plate in manifest["plates"]:
        for name, n in plate["parts"].items():
            on_plates[name] = on_plates.get(name, 0) + n
    assert on_plates == counts
    groups = sorted(dict.fromkeys(p["group"] for p in manifest["plates"]))
    assert groups == sorted(set(PLATE_GROUPS)), groups
    boards = [p for p in manifest["plates"] if p["group"] == "board"]
    assert len(boards) == len(board)
    assert len(manifest["plates"]) >= len(board) + 3
