"""The lines ``tablesmith cards`` prints after writing a deck: cards per sheet, sheets and
pages, and what crop marks or a cutter cost (warnings and notes, meant for stderr)."""

from __future__ import annotations

from typing import Any

from printables.layout import crop_mark_notes


def sheet_summary(result: Any, options: Any) -> list[tuple[str, bool]]:
    """The summary of a rendered deck as ``(line, to_stderr)`` pairs.

    Args:
        result: the :func:`printables.render.render_deck` result (layouts, placements, pages).
        options: the :class:`printables.render.RenderOptions` it was rendered with.

    Returns:
        Cards per sheet and sheets per card size (with ``--layout single``: the page size
        and card count per card size), the page count (stdout); crop marks
        shortened or moved to keep an exact fit's column or a column they cost, what a
        print-then-cut area costs, and the Cricut duplex caveat (stderr).
    """
    lines: list[tuple[str, bool]] = []
    for layout in result.layouts:
        lines += [(f"warning: {note}", True) for note in crop_mark_notes(layout)]
        size = layout.spec.card
        count = sum(
            1
            for p in result.placements
            if p.side != "back" and (p.trim.width, p.trim.height) == (size.width, size.height)
        )
        sheets = -(-count // layout.per_page)
        lines.append(
            (
                f"{size.width:g} x {size.height:g} mm: {layout.columns} x {layout.rows} = "
                f"{layout.per_page} cards per sheet, {count} cards on {sheets} sheet(s)",
                False,
            )
        )
        lost_c, lost_r = layout.lost_to_cutter
        if lost_c or lost_r:
            lines.append(
                (
                    f"note: the {options.cutter} print-then-cut area costs "
                    f"{lost_c} column(s) and {lost_r} row(s) of {size.width:g} x "
                    f"{size.height:g} mm cards on each sheet",
                    True,
                )
            )
    if options.layout != "sheet":
        sizes: dict[tuple[float, float], int] = {}
        for p in result.placements:
            if p.side != "back":
                key = (p.trim.width, p.trim.height)
                sizes[key] = sizes.get(key, 0) + 1
        grow = 2 * options.bleed
        lines += [
            (
                f"{w:g} x {h:g} mm: one card per page, {w + grow:g} x {h + grow:g} mm with "
                f"{options.bleed:g} mm bleed, {count} cards",
                False,
            )
            for (w, h), count in sizes.items()
        ]
    lines.append((f"pages: {' + '.join(str(n) for n in result.pages)}", False))
    if options.cutter == "cricut" and options.duplex.value in ("long-edge", "short-edge"):
        lines.append(
            (
                "note: Design Space prints the fronts itself, so duplex backs from this PDF "
                "will not line up with them; print backs separately (--duplex separate) and "
                "glue, or use --cutter silhouette",
                True,
            )
        )
    return lines
