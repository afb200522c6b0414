"""Toy Battle printables: a one-page player aid per terrain and a sheet of
spare troop tiles in both colours.

Lengths in mm (converted to points only when drawing); page frame: origin at the bottom-left
corner, x right, y up. The terrain drawing uses :mod:`games.toybattle.terrains` (node
positions in 0..1 with y down, blue's H.Q. at the bottom), mapped by :func:`graph_frame` into a
box on the page with the phone's aspect (100 x 118).

* Player aid (one A4/Letter/A3 page per terrain, portrait or landscape, in the order of the
  digest): the terrain's
  name and objective, the graph (path sections, regions with their medals, bases with their
  ids, the H.Q.s in their colours, special bases ringed and starred, Tropical Pool values),
  what its special bases do, the troop effects (TB-20), the placement rule (TB-11/12) and the
  end (TB-40/41). English or German.
* Troop tiles: 3 of each of the 8 types in blue, then in red (48, TB-1), square, side
  ``tile_size`` mm, on the card sheet grid of :mod:`printables.layout` with its crop marks,
  heading, 100 % note and ruler (:func:`printables.render.draw_furniture`); the empty slots
  of a last page that is not full get no crop marks (:func:`printables.cropmarks.marks_for_cards`).
  :data:`DEFAULT_TILE_SIZE` is 30 mm; our sources do not give the published tiles' size, so
  measure one of your tiles and pass its side.

Source: shared/rules/toy-battle.md (TB-1, TB-2, TB-11, TB-12, TB-20, TB-30..TB-37, TB-40,
TB-41). The publisher's names are used only to refer to the game the player owns; no art.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from games.toybattle.rules import COPIES, JOKER_MARK, TROOPS, troop_mark
from games.toybattle.terrains import TERRAINS, Region, Terrain
from printables.cropmarks import marks_for_cards
from printables.duplex import Duplex
from printables.fonts import BOLD, REGULAR
from printables.icons import colour_of
from printables.layout import PAPER_SIZES, CardSize, Rect, SettingError, SheetSpec, layout_sheet
from printables.outputs import atomic_outputs
from printables.render import draw_furniture, new_canvas
from printables.text import fit_paragraph
from printables.units import MM

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

DEFAULT_TILE_SIZE = 30.0
"""Side of a square troop tile, mm (a default to change: measure your own tiles)."""
TILE_SIZE_RANGE = (15.0, 60.0)
"""Allowed tile sides, mm."""
MIN_TILE_TEXT_PT = 6.0
"""Smallest text on a tile, pt (the troop's name on a 15 mm tile)."""
LANGUAGES = ("en", "de")
ASPECT = 118 / 100
"""Height / width of the terrain drawing (the phone's SVG viewBox)."""
COLOURS = {"blue": "#2563eb", "red": "#dc2626"}
SHORT = tuple(troop_mark(troop) for troop in TROOPS)
"""Tile labels in TROOPS order: Kwak is the joker (``J``, as the printed cards show it:
:data:`games.toybattle.rules.JOKER_MARK`), the others their strength."""

TEXT: Mapping[str, Mapping[str, str]] = {
    "en": {
        "aid": "player aid",
        "objective": "Win at once: {n} medals (of {total} on the board) or a troop placed on an "
        "enemy H.Q. (TB-40).",
        "turn": "Your turn, one of: draw 2 troops (1 with 7 on the rack; none with 8) (TB-10), "
        "or place 1 troop: on an empty base, your own troop, a weaker enemy troop or an enemy "
        "H.Q., linked to your H.Q. by bases you top (TB-11, TB-12). Kwak may cover any enemy "
        "and be covered by any. Then its effect, then the special base's (TB-13); every effect "
        "is optional.",
        "capture": "Top every base around a region: take its medals for good (TB-14).",
        "end": "Nobody can draw nor place: most medals wins; on a tie the player who could not "
        "move loses (TB-41).",
        "troops": f"Troops (TB-20): {JOKER_MARK} Kwak: joker, no effect. 1 Skully: draw 2. 2 Cap'n: place 1 "
        "more troop (its effect too). 3 Jumbo: discard 1 visible enemy next to it. 4 Hook: no "
        "connection needed (except to an H.Q.). 5 XB-42: discard 1 random troop of the "
        "opponent's rack. 6 Star: draw 1. 7 Roxy: no effect.",
        "legend": "Legend: squares = H.Q.s; ringed bases with a star = special bases; gold "
        "discs = medals of the region around them; small numbers under a base = the only "
        "strengths allowed there.",
        "tiles": "Toy Battle spare troop tiles, {size} mm",
        "castle": "Special bases (TB-30): return 1 of your other visible troops from the board "
        "to your rack.",
        "pool": "Tropical Pool (TB-31): only the printed strengths may be placed on the marked "
        "bases and H.Q.s.",
        "clouds": "Special bases (TB-32): draw 1 troop.",
        "jungle": "Special bases (TB-33): move 1 enemy troop next to this base onto a base next "
        "to its start, ignoring the placement rules.",
        "cemetery": "Special bases (TB-34): take 1 of your discarded troops back to your rack.",
        "caribbean": "Caribbean Sea (TB-35): no special bases; blue has 2 H.Q.s, red 1.",
        "station": "Special bases (TB-36): troop effects are not applied on these bases.",
        "battlefield": "Special bases (TB-37): point at 1 troop on the opponent's rack; it "
        "cannot be placed during their next turn (it still counts toward the 8).",
    },
    "de": {
        "aid": "Spielhilfe",
        "objective": "Sofort gewonnen: {n} Medaillen (von {total} auf dem Spielplan) oder eine "
        "Truppe auf einem gegnerischen Hauptquartier (TB-40).",
        "turn": "Dein Zug, eins von beiden: 2 Truppen ziehen (1 bei 7 auf dem Bänkchen, keine "
        "bei 8) (TB-10) oder 1 Truppe einsetzen: auf eine leere Basis, eine eigene Truppe, eine "
        "schwächere gegnerische Truppe oder ein gegnerisches Hauptquartier, verbunden mit "
        "deinem Hauptquartier über Basen, auf denen du oben liegst (TB-11, TB-12). Kwak darf "
        "auf jede gegnerische Truppe und jede darf auf Kwak. Dann ihr Effekt, dann der der "
        "Spezialbasis (TB-13); jeder Effekt ist freiwillig.",
        "capture": "Liegst du auf allen Basen um eine Region oben, nimm ihre Medaillen für "
        "immer (TB-14).",
        "end": "Kann niemand ziehen oder einsetzen: die meisten Medaillen gewinnen; bei "
        "Gleichstand verliert, wer nicht ziehen konnte (TB-41).",
        "troops": f"Truppen (TB-20): {JOKER_MARK} Kwak: Joker, kein Effekt. 1 Skully: ziehe 2. 2 Cap'n: "
        "setze 1 weitere Truppe ein (mit Effekt). 3 Jumbo: lege 1 sichtbare gegnerische Truppe "
        "neben ihm ab. 4 Hook: keine Verbindung nötig (außer zu einem Hauptquartier). 5 XB-42: "
        "lege 1 zufällige Truppe vom gegnerischen Bänkchen ab. 6 Star: ziehe 1. 7 Roxy: kein "
        "Effekt.",
        "legend": "Legende: Quadrate = Hauptquartiere; umrandete Basen mit Stern = "
        "Spezialbasen; goldene Scheiben = Medaillen der Region um sie; kleine Zahlen unter einer "
        "Basis = nur diese Stärken erlaubt.",
        "tiles": "Toy Battle Ersatz-Truppenplättchen, {size} mm",
        "castle": "Spezialbasen (TB-30): nimm 1 deiner anderen sichtbaren Truppen vom "
        "Spielplan zurück auf dein Bänkchen.",
        "pool": "Tropischer Pool (TB-31): auf die markierten Basen und Hauptquartiere dürfen "
        "nur die aufgedruckten Stärken.",
        "clouds": "Spezialbasen (TB-32): ziehe 1 Truppe.",
        "jungle": "Spezialbasen (TB-33): ziehe 1 gegnerische Truppe neben dieser Basis auf eine "
        "Basis neben ihrem Start, ohne Einsetzregeln.",
        "cemetery": "Spezialbasen (TB-34): nimm 1 deiner abgelegten Truppen zurück auf dein "
        "Bänkchen.",
        "caribbean": "Karibisches Meer (TB-35): keine Spezialbasen; Blau hat 2 Hauptquartiere, "
        "Rot 1.",
        "station": "Spezialbasen (TB-36): auf diesen Basen gelten keine Truppeneffekte.",
        "battlefield": "Spezialbasen (TB-37): zeige auf 1 Truppe auf dem gegnerischen "
        "Bänkchen; sie darf im nächsten Zug nicht eingesetzt werden (zählt aber zu den 8).",
    },
}
"""Every text a player reads on the printables, in English and German."""


class AidError(SettingError):
    """A bad printables setting (names the setting, the allowed values and the value)."""


@dataclass(frozen=True, kw_only=True)
class AidsResult:
    """What :func:`render_aids` wrote.

    Attributes:
        path: the PDF.
        aid_pages: player aid pages (one per terrain).
        tile_pages: troop tile pages.
        tiles_per_page: tiles that fit on one page.
        tiles: tiles printed (48, TB-1), fewer than ``tile_pages * tiles_per_page`` when the
            last page is not full (its empty slots get no crop marks).
        overflows: texts that did not fit at the smallest font size (should stay empty).
    """

    path: Path
    aid_pages: int
    tile_pages: int
    tiles_per_page: int
    overflows: tuple[str, ...]
    tiles: int = 0


def graph_frame(box: Rect) -> tuple[float, float, float]:
    """Where the terrain drawing goes in ``box`` (mm, page frame, y up): ``(x0, y_top,
    width)`` of the largest area with the phone's aspect (:data:`ASPECT`), centred in the
    box. A node at (x, y) in 0..1 (y down) lands at ``(x0 + x * width, y_top - y * width *
    ASPECT)``."""
    width = min(box.width, box.height / ASPECT)
    x0 = box.x + (box.width - width) / 2
    y_top = box.top - (box.height - width * ASPECT) / 2
    return x0, y_top, width


def node_points(terrain: Terrain, box: Rect, inset: float) -> dict[int, tuple[float, float]]:
    """node -> (x, y) in mm on the page: :func:`graph_frame` of ``box`` shrunk by ``inset``
    mm on every side (room for the H.Q. squares)."""
    x0, y_top, width = graph_frame(box.inset(inset))
    return {
        n: (x0 + x * width, y_top - y * width * ASPECT) for n, (x, y) in terrain.positions.items()
    }


def medal_point(terrain: Terrain, region: Region, box: Rect, inset: float) -> tuple[float, float]:
    """A region's medal position in mm on the page (:meth:`Terrain.medal_position` mapped as
    :func:`node_points` maps the nodes)."""
    x0, y_top, width = graph_frame(box.inset(inset))
    x, y = terrain.medal_position(region)
    return x0 + x * width, y_top - y * width * ASPECT


def tile_items() -> list[tuple[str, int]]:
    """The 48 tiles in print order: (colour, type index), 3 of each type, blue then red (TB-1)."""
    return [(c, t) for c in ("blue", "red") for t in range(len(TROOPS)) for _ in range(COPIES)]


def _check(tile_size: float, paper: str, language: str) -> None:
    low, high = TILE_SIZE_RANGE
    if not (isinstance(tile_size, (int, float)) and low <= tile_size <= high):
        raise AidError(
            setting="tile_size", allowed=f"{low:g}..{high:g} mm", found=tile_size, unit="mm"
        )
    if paper not in PAPER_SIZES:
        raise AidError(setting="paper", allowed="one of " + ", ".join(PAPER_SIZES), found=paper)
    if language not in LANGUAGES:
        raise AidError(setting="language", allowed="one of " + ", ".join(LANGUAGES), found=language)


def render_aids(
    out: Path,
    *,
    tile_size: float = DEFAULT_TILE_SIZE,
    paper: str = "a4",
    language: str = "en",
    landscape: bool = False,
) -> AidsResult:
    """Write the eight player aids and the troop tile sheet(s) into one PDF.

    Args:
        out: the PDF to write.
        tile_size: side of a square troop tile, mm (:data:`TILE_SIZE_RANGE`).
        paper: ``a4``, ``letter`` or ``a3``.
        language: ``en`` or ``de``.
        landscape: landscape pages (a player aid then has the terrain on the left and the
            rules on the right).

    Raises:
        AidError: a setting out of range (names it).
        printables.layout.DoesNotFitError: tiles too big for the paper.
        printables.outputs.OutputError: ``out`` cannot be written (nothing is left behind).
    """
    _check(tile_size, paper, language)
    with atomic_outputs([out]) as temps:
        return _render_aids(
            out, temps[0], tile_size=tile_size, paper=paper, language=language, landscape=landscape
        )


def _render_aids(
    out: Path, temp: Path, *, tile_size: float, paper: str, language: str, landscape: bool
) -> AidsResult:
    """:func:`render_aids` into the temporary file ``temp`` (moved to ``out`` on success)."""
    words = TEXT[language]
    c = new_canvas(temp, "Toy Battle player aids", Duplex.NONE)
    tile = CardSize(width=tile_size, height=tile_size, min_side=TILE_SIZE_RANGE[0])
    layout = layout_sheet(SheetSpec(card=tile, paper=paper, gutter=2.0, landscape=landscape))
    page_width, page_height = layout.page_width, layout.page_height
    c.setPageSize((page_width * MM, page_height * MM))  # kept for every page that follows
    overflows: list[str] = []
    for terrain in TERRAINS.values():
        overflows += _aid_page(c, terrain, words, page_width, page_height)
        c.showPage()
    items = tile_items()
    per_page = layout.per_page
    pages = 0
    for start in range(0, len(items), per_page):
        chunk = items[start : start + per_page]
        heading = words["tiles"].format(size=f"{tile_size:g}")
        draw_furniture(c, marks_for_cards(layout, range(len(chunk))), heading)
        for slot, (colour, troop) in zip(layout.slots, chunk, strict=False):
            _tile(c, slot.trim, colour, troop)
        c.showPage()
        pages += 1
    c.save()
    return AidsResult(
        path=out,
        aid_pages=len(TERRAINS),
        tile_pages=pages,
        tiles_per_page=per_page,
        overflows=tuple(overflows),
        tiles=len(items),
    )


def _tile(c: Canvas, box: Rect, colour: str, troop: int) -> None:
    """One troop tile: the colour, the big label (K, 1..7) and the name."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    side = box.width
    c.saveState()
    c.setFillColor(colour_of(COLOURS[colour]))
    c.setStrokeColor(colour_of("#111111"))
    c.setLineWidth(0.4)
    c.roundRect(box.x * MM, box.y * MM, side * MM, side * MM, side * 0.12 * MM, stroke=1, fill=1)
    c.setFillColor(colour_of("#ffffff"))
    c.setFont(BOLD, side * 0.5 * MM)
    c.drawCentredString((box.x + side / 2) * MM, (box.y + side * 0.38) * MM, SHORT[troop])
    name = TROOPS[troop]
    # 13 % of the side, but never under 6 pt (readable at arm's length) nor wider than the tile
    size = max(MIN_TILE_TEXT_PT, side * 0.13 * MM)
    size = min(size, side * 0.84 * MM / max(stringWidth(name, BOLD, 1.0), 1e-6))
    c.setFont(BOLD, size)
    c.drawCentredString((box.x + side / 2) * MM, (box.y + side * 0.12) * MM, name)
    c.restoreState()


def _aid_page(
    c: Canvas, terrain: Terrain, words: Mapping[str, str], page_width: float, page_height: float
) -> list[str]:
    """One terrain's player aid; returns the texts that did not fit. Portrait: the rules texts
    under the terrain; landscape: the terrain on the left, the texts on the right."""
    margin = 12.0
    wide = page_width > page_height
    width = page_width - 2 * margin
    top = page_height - margin
    c.setFillColor(colour_of("#111111"))
    c.setFont(BOLD, 20)
    c.drawString(margin * MM, (top - 7) * MM, f"Toy Battle · {terrain.name}")
    c.setFont(REGULAR, 11)
    c.drawRightString((page_width - margin) * MM, (top - 7) * MM, words["aid"])
    overflows: list[str] = []
    text_x, text_width = margin, width
    if wide:  # the drawing fills the left part, the texts a column on the right
        text_width = min(0.45 * width, 150.0)
        text_x = page_width - margin - text_width
    y = top - 12.0

    def block(text: str, height: float, size: float = 10.5, bold: bool = False) -> None:
        nonlocal y
        para, _, problem = fit_paragraph(
            text, text_width * MM, height * MM, max_pt=size, min_pt=6.5, bold=bold
        )
        if para is None:
            overflows.append(f"{terrain.slug}: {problem}")
            return
        _, used = para.wrap(text_width * MM, height * MM)
        para.drawOn(c, text_x * MM, y * MM - used)
        y -= used / MM + 2.0

    block(words["objective"].format(n=terrain.objective, total=terrain.medal_total), 12, 12, True)
    block(words[terrain.slug], 14, 11)
    if wide:
        graph_box = Rect(
            x=margin, y=margin, width=text_x - 6.0 - margin, height=top - 12.0 - margin
        )
    else:
        text_height = 78.0  # reserved under the drawing for the rules texts
        graph_box = Rect(
            x=margin, y=margin + text_height, width=width, height=y - margin - text_height
        )
        y = margin + text_height - 2
    _graph(c, terrain, graph_box)
    for key in ("legend", "turn", "capture", "troops", "end"):
        block(words[key], 24, 9)
    return overflows


def _graph(c: Canvas, terrain: Terrain, box: Rect) -> None:
    """The terrain: regions, paths, medals, bases with ids, H.Q.s, specials, values."""
    pts = node_points(terrain, box, inset=7.0)
    _, _, width = graph_frame(box.inset(7.0))
    r = max(3.2, width * 0.035)  # base radius, mm
    c.saveState()
    c.setFillColor(colour_of("#f3efe2"))
    c.setStrokeColor(colour_of("#b9ab83"))
    c.roundRect(box.x * MM, box.y * MM, box.width * MM, box.height * MM, 4 * MM, stroke=1, fill=1)
    for region in terrain.regions:
        path = c.beginPath()
        x, y = pts[region.cycle[0]]
        path.moveTo(x * MM, y * MM)
        for n in region.cycle[1:]:
            path.lineTo(pts[n][0] * MM, pts[n][1] * MM)
        path.close()
        c.setFillColor(colour_of("#e4dcc3"))
        c.drawPath(path, stroke=0, fill=1)
    c.setStrokeColor(colour_of("#6b5a2e"))
    c.setLineWidth(2.2)
    c.setLineCap(1)
    for a, b in terrain.edges:
        c.line(pts[a][0] * MM, pts[a][1] * MM, pts[b][0] * MM, pts[b][1] * MM)
    for region in terrain.regions:
        cx, cy = medal_point(terrain, region, box, inset=7.0)
        c.setFillColor(colour_of("#f2c14e"))
        c.setStrokeColor(colour_of("#7a5b10"))
        c.setLineWidth(0.8)
        c.circle(cx * MM, cy * MM, r * 0.72 * MM, stroke=1, fill=1)
        c.setFillColor(colour_of("#2b2000"))
        c.setFont(BOLD, r * 1.1 * MM)
        c.drawCentredString(cx * MM, (cy - r * 0.38) * MM, str(region.medals))
    for n, (x, y) in pts.items():
        colour = terrain.hq_colour(n)
        if colour is not None:
            s = r * 1.25
            c.setFillColor(colour_of(COLOURS[colour]))
            c.setStrokeColor(colour_of("#111111"))
            c.setLineWidth(0.8)
            c.roundRect(
                (x - s) * MM, (y - s) * MM, 2 * s * MM, 2 * s * MM, 1.2 * MM, stroke=1, fill=1
            )
            c.setFillColor(colour_of("#ffffff"))
            c.setFont(BOLD, r * 0.75 * MM)
            c.drawCentredString(x * MM, (y - r * 0.25) * MM, "H.Q.")
        else:
            special = n in terrain.specials
            c.setFillColor(colour_of("#ffffff"))
            c.setStrokeColor(colour_of("#d4a017" if special else "#6b5a2e"))
            c.setLineWidth(2.4 if special else 0.9)
            c.circle(x * MM, y * MM, r * MM, stroke=1, fill=1)
            c.setFillColor(colour_of("#333333"))
            c.setFont(REGULAR, r * 0.85 * MM)
            c.drawCentredString(x * MM, (y - r * 0.3) * MM, str(n))
            if special:
                c.setFillColor(colour_of("#b8860b"))
                c.setFont(REGULAR, r * 1.1 * MM)
                c.drawCentredString((x - r) * MM, (y + r * 0.6) * MM, "★")
        allowed = terrain.allowed.get(n)
        if allowed:
            c.setFillColor(colour_of("#8a2be2"))
            c.setFont(BOLD, r * 0.8 * MM)
            label = "/".join(map(str, sorted(allowed)))
            if colour is not None:
                c.drawString((x + r * 1.5) * MM, (y - r * 0.3) * MM, label)
            else:
                c.drawCentredString(x * MM, (y - r * 1.9) * MM, label)
    c.restoreState()
