"""Every kit part as a CadQuery object, for makers who remix the pieces (e.g. in CQ-editor).

Units: mm; part frame as in ``cad.parts`` (bed face on Z = 0). The solids are the ones the
kit prints: the same parameters go through the same ``cad.design`` and ``cad.parts`` code, and
the OpenCASCADE shape is only wrapped (``cadquery.Shape.cast``), never built a second time.
CadQuery is imported here, lazily, so ``tablesmith build`` never loads it (it costs seconds).

In CQ-editor::

    from cad.cq import part
    show_object(part("fragment-HA", scale=0.8), name="fragment-HA")
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cad.design import AsteroidsDesign, print_dimensions
from cad.settings import PrintSettings
from games.asteroids import FragmentKind

if TYPE_CHECKING:
    import cadquery

PART_NAMES = ("board", "board-half-a", "board-half-b", "fragment-HH", "fragment-HA", "ship")
"""The parts ``part`` builds (the kit's STL and STEP names)."""


def part(
    name: str,
    *,
    scale: float = 1.0,
    xy_compensation: float = -0.1,
    layer_height: float = 0.2,
    engraving_layers: int = 1,
) -> cadquery.Workplane:
    """One kit part as a CadQuery workplane holding its solid.

    Args:
        name: one of ``PART_NAMES``.
        scale: design scale, 0.5..1.5 (``--scale``, P2).
        xy_compensation: per-side offset of horizontal contours in mm, -0.5..0
            (``--xy-compensation``, P1).
        layer_height: mm, 0.08..0.32 (``--layer-height``, P3).
        engraving_layers: engraving depth in layers, 1..3 (``--engraving-layers``).

    Returns:
        A ``cadquery.Workplane`` with the part's solid on its stack (mm, bed face on Z = 0).

    Raises:
        ValueError: unknown ``name`` (the allowed names are listed).
        cad.settings.SettingsError: a parameter out of range (the option is named).
        ImportError: CadQuery is not installed (the message names the ``remix`` extra).
    """
    try:
        import cadquery
    except ImportError as exc:
        raise ImportError(
            "cad.cq needs CadQuery, which is not installed: pip install 'tablesmith[remix]'"
            "  (from a checkout: pip install -r requirements/remix.txt)"
        ) from exc

    from cad import parts

    if name not in PART_NAMES:
        raise ValueError(f"part: unknown part {name!r}; allowed: {', '.join(PART_NAMES)}")
    settings = PrintSettings(
        scale=scale,
        xy_compensation=xy_compensation,
        layer_height=layer_height,
        engraving_layers=engraving_layers,
    )
    dims = print_dimensions(settings, AsteroidsDesign())
    if name == "ship":
        shape = parts.ship(dims)
    elif name.startswith("fragment-"):
        shape = parts.fragment(dims, FragmentKind(name.removeprefix("fragment-")))
    else:
        board = parts.board(dims)
        shape = board
        if name != "board":
            halves = parts.board_halves(dims, board)
            shape = halves[0] if name == "board-half-a" else halves[1]
    return cadquery.Workplane("XY").add(cadquery.Shape.cast(shape))
