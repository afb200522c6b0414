"""Card faces and generated backs, drawn with ReportLab onto a card's box on the page.

Every face follows one anatomy (``standard_face``) filled per game from the rules digests:

* PocketModel (PM-1, PM-2, PM-3): name; type and icons (green, silver, gold); stats Attack red,
  Damage yellow, Defense blue, Shields green (units) or the combat bonus +N in the same
  colours (cards); ability text; build stars at the bottom; the objective defense value in
  the bottom-right corner (QR then bottom-left).
* Transformers (TF-1, TF-2): characters: name, the side's subtitle and traits, faction and
  mode, Attack orange, Health red, Defense blue, text, stars on the alt side only (bottom
  left); battle cards: name, Action or Upgrade type, 0-2 battle icons as coloured discs in the
  top-right corner, optional stars, text.
* Toy Battle (TB-1, TB-20): troop name, strength (``J`` for Kwak, the joker - decision: a 0
  would read as "weakest", which Kwak is not, TB-11), colour, effect text.

Coordinates inside a face are mm from the card's trim bottom-left corner; the content stays
inside ``SAFE_MARGIN``; the frame colour runs into the bleed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.cards import GAMES
from games.cards.fields import ValidatedCard
from games.cards.pocketmodel import GOLD_ICONS, GREEN_ICONS, PocketModelCard, PocketModelUnit
from games.cards.toy_battle import ToyBattleTroop
from games.cards.transformers import TransformersBattleCard, TransformersCharacter
from printables.fonts import BOLD, REGULAR, missing_glyphs
from printables.layout import Rect
from printables.qr import MIN_MODULE_MM, draw_qr, qr_size_mm
from printables.text import Overflow, fit_line, fit_paragraph

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

MM = 72 / 25.4
"""Points per millimetre."""
SAFE_MARGIN = 3.0
"""Distance of all content from the trim line, mm."""
MIN_TEXT_PT = 6.0
"""Smallest font size for ability text, pt."""
MAX_TEXT_PT = 9.0
"""Starting font size for ability text, pt."""

STAT_COLOURS = {
    "attack": "#c62828",
    "damage": "#f9a825",
    "defense": "#1565c0",
    "shields": "#2e7d32",
    "tf_attack": "#ef6c00",
    "health": "#c62828",
}
"""Stat colours: PocketModel PM-1/PM-3 (Attack red, Damage yellow, Defense blue, Shields
green); Transformers TF-1 (Attack orange, Health red, Defense blue)."""
ICON_COLOURS = {"green": "#2e7d32", "silver": "#8d99a6", "gold": "#c9a227"}
"""PocketModel icon colours (PM-2)."""
BATTLE_ICON_COLOURS = {
    "orange": "#ef6c00",
    "blue": "#1565c0",
    "white": "#ffffff",
    "black": "#111111",
    "green": "#2e7d32",
}
"""Transformers battle icon colours (TF-2)."""
GROUND_BAR_COLOUR = "#6d4c41"
"""The ground-unit bar of a PocketModel unit (PM-1), drawn as a brown ``GROUND`` pill."""
FRAME_COLOURS = {
    "unit": "#37474f",
    "combat": "#7b3f00",
    "objective": "#34495e",
    "Autobot": "#b71c1c",
    "Decepticon": "#4a148c",
    "action": "#e65100",
    "upgrade": "#00695c",
    "blue": "#1e6fd9",
    "red": "#d32f2f",
}
"""Frame (bleed) colours by card kind, faction or troop colour."""


@dataclass(kw_only=True)
class Painter:
    """Draws on one card box; collects text problems instead of clipping.

    Attributes:
        canvas: the ReportLab canvas.
        trim: the card's trim box on the page, mm.
        bleed: bleed width, mm.
        card_name: for problem reports.
        problems: shared list that collects :class:`Overflow` items.
    """

    canvas: Canvas
    trim: Rect
    bleed: float
    card_name: str
    problems: list[Overflow] = field(default_factory=list)

    @property
    def bleed_box(self) -> Rect:
        """The card's bleed box in face mm (the trim box grown by the bleed)."""
        return Rect(x=0, y=0, width=self.trim.width, height=self.trim.height).inset(-self.bleed)

    def pt(self, x: float, y: float) -> tuple[float, float]:
        """Face mm -> page pt."""
        return (self.trim.x + x) * MM, (self.trim.y + y) * MM

    def _check(self, text: str, font: str, field_name: str) -> bool:
        missing = missing_glyphs(text, font)
        if missing:
            listed = ", ".join(f"U+{ord(ch):04X} {ch!r}" for ch in missing)
            self.problems.append(
                Overflow(
                    card=self.card_name,
                    field=field_name,
                    reason=f"glyph(s) not in the font: {listed}",
                )
            )
        return not missing

    def fill(
        self,
        box: Rect,
        colour: str,
        *,
        radius: float = 0.0,
        stroke: str | None = None,
        width_pt: float = 0.6,
    ) -> None:
        """Fill (and optionally stroke) a face-relative rectangle, mm."""
        c = self.canvas
        c.setFillColor(colour)
        if stroke:
            c.setStrokeColor(stroke)
            c.setLineWidth(width_pt)
        x, y = self.pt(box.x, box.y)
        if radius:
            c.roundRect(
                x, y, box.width * MM, box.height * MM, radius * MM, stroke=int(bool(stroke)), fill=1
            )
        else:
            c.rect(x, y, box.width * MM, box.height * MM, stroke=int(bool(stroke)), fill=1)

    def frame(self, colour: str) -> Rect:
        """Fill the bleed box with ``colour`` and a white rounded panel inside the safe margin.

        Returns:
            The panel, face mm.
        """
        self.fill(self.bleed_box, colour)
        panel = Rect(x=0, y=0, width=self.trim.width, height=self.trim.height).inset(SAFE_MARGIN)
        self.fill(panel, "#ffffff", radius=1.5)
        return panel

    def line(
        self,
        text: str,
        x: float,
        y: float,
        width: float,
        *,
        max_pt: float,
        min_pt: float,
        field_name: str,
        bold: bool = False,
        colour: str = "#111111",
        align: str = "left",
    ) -> float:
        """One line of text with its baseline at (x, y) mm, shrunk to fit ``width`` mm.

        Returns:
            The font size used, pt (0 when nothing was drawn).
        """
        font = BOLD if bold else REGULAR
        if not text or not self._check(text, font, field_name):
            return 0.0
        size, problem = fit_line(text, width * MM, max_pt=max_pt, min_pt=min_pt, bold=bold)
        if problem:
            self.problems.append(Overflow(card=self.card_name, field=field_name, reason=problem))
            return 0.0
        c = self.canvas
        c.setFillColor(colour)
        c.setFont(font, size)
        if align == "centre":
            c.drawCentredString(*self.pt(x + width / 2, y), text)
        elif align == "right":
            c.drawRightString(*self.pt(x + width, y), text)
        else:
            c.drawString(*self.pt(x, y), text)
        return size

    def box(
        self,
        text: str,
        area: Rect,
        *,
        field_name: str,
        max_pt: float = MAX_TEXT_PT,
        min_pt: float = MIN_TEXT_PT,
        align: int = 0,
        bold: bool = False,
    ) -> None:
        """Wrapped text fitted into ``area`` (mm, face-relative), top-aligned."""
        if not text or not self._check(text, BOLD if bold else REGULAR, field_name):
            return
        para, _, problem = fit_paragraph(
            text,
            area.width * MM,
            area.height * MM,
            max_pt=max_pt,
            min_pt=min_pt,
            align=align,
            bold=bold,
        )
        if para is None:
            self.problems.append(
                Overflow(card=self.card_name, field=field_name, reason=problem or "does not fit")
            )
            return
        x, _ = self.pt(area.x, area.y)
        _, top = self.pt(area.x, area.top)
        para.drawOn(self.canvas, x, top - para.height)

    def disc(
        self,
        cx: float,
        cy: float,
        diameter: float,
        colour: str,
        label: str,
        *,
        text_colour: str = "#ffffff",
        size_pt: float = 11.0,
    ) -> None:
        """A filled circle with a centred bold label; centre (cx, cy) mm."""
        c = self.canvas
        c.setFillColor(colour)
        c.setStrokeColor("#222222")
        c.setLineWidth(0.5)
        c.circle(*self.pt(cx, cy), diameter / 2 * MM, stroke=1, fill=1)
        c.setFillColor(text_colour)
        c.setFont(BOLD, size_pt)
        px, py = self.pt(cx, cy)
        c.drawCentredString(px, py - size_pt * 0.35, label)

    def pills(
        self, words: list[tuple[str, str]], right: float, y: float, height: float = 3.6
    ) -> float:
        """Coloured word pills right-aligned at ``right`` mm, bottom at ``y`` mm.

        Returns:
            The x (mm) where the leftmost pill starts.
        """
        from reportlab.pdfbase.pdfmetrics import stringWidth

        size = 5.5
        x = right
        for word, colour in reversed(words):
            width = stringWidth(word, BOLD, size) / MM + 2.0
            x -= width
            self.fill(Rect(x=x, y=y, width=width, height=height), colour, radius=height / 2)
            c = self.canvas
            c.setFillColor("#ffffff")
            c.setFont(BOLD, size)
            c.drawCentredString(*self.pt(x + width / 2, y + height / 2 - size * 0.35 / MM), word)
            x -= 0.8
        return x

    def image(self, path: Path, area: Rect) -> None:
        """Draw an image file scaled into ``area`` (aspect kept, centred). ReportLab embeds
        each distinct file once however often it is drawn."""
        x, y = self.pt(area.x, area.y)
        self.canvas.drawImage(
            str(path),
            x,
            y,
            area.width * MM,
            area.height * MM,
            preserveAspectRatio=True,
            anchor="c",
            mask="auto",
        )


@dataclass(frozen=True, kw_only=True)
class FaceContent:
    """What a standard face shows, in drawing order from top to bottom.

    Attributes:
        frame: frame colour ``#RRGGBB``.
        title: the card's name.
        type_line: small grey line under the title (type, subtitle, traits).
        pills: (word, colour) pills right-aligned on the type line (icons, faction, mode).
        corner_discs: colours of small discs in the top-right corner (TF-2 battle icons).
        stats: (label, value, colour) discs in a row.
        text: ability text and its field name.
        stars: build stars to print (0 = none) and where: ``left`` or ``centre``.
        defense_corner: objective defense value for the bottom-right corner (PM-3), or None.
        image: an image file for the art box, or None.
        qr_url: the QR code's URL, or None.
    """

    frame: str
    title: str
    type_line: str = ""
    pills: tuple[tuple[str, str], ...] = ()
    corner_discs: tuple[str, ...] = ()
    stats: tuple[tuple[str, str, str], ...] = ()
    text: tuple[str, str] = ("", "text")
    stars: tuple[int, str] = (0, "left")
    defense_corner: int | None = None
    image: Path | None = None
    qr_url: str | None = None


def standard_face(p: Painter, face: FaceContent) -> None:
    """Draw ``face`` on the painter's card (see the module docstring for the anatomy)."""
    panel = p.frame(face.frame)
    # Larger cards (tarot, Transformers characters) start their text larger: sizes scale with
    # the card width relative to a 63 mm standard card, up to 1.4x (minimum sizes stay).
    scale = min(max(p.trim.width / 63.0, 1.0), 1.4)
    pad = 1.5
    left, right, top = panel.x + pad, panel.right - pad, panel.top
    # Title row (with TF-2 battle icons in the top-right corner).
    disc = 4.2
    title_right = right - len(face.corner_discs) * (disc + 0.6)
    for i, colour in enumerate(face.corner_discs):
        cx = right - disc / 2 - i * (disc + 0.6)
        p.disc(cx, top - 3.4, disc, colour, "")
    p.line(
        face.title,
        left,
        top - 5.0,
        title_right - left,
        max_pt=11 * scale,
        min_pt=6.5,
        field_name="name",
        bold=True,
    )
    # Type line with pills.
    y = top - 10.2
    pill_left = p.pills(list(face.pills), right, y) if face.pills else right
    p.line(
        face.type_line,
        left,
        y + 0.9,
        pill_left - left - 0.5,
        max_pt=7,
        min_pt=5,
        field_name="type line",
        colour="#555555",
    )
    # Stats row.
    y -= 1.0
    if face.stats:
        diameter = 7.2
        y -= diameter + 3.2
        slot = (right - left) / len(face.stats)
        for i, (label, value, colour) in enumerate(face.stats):
            cx = left + slot * (i + 0.5)
            dark = "#111111" if colour in ("#f9a825", "#ffffff") else "#ffffff"
            p.disc(cx, y + 2.6 + diameter / 2, diameter, colour, value, text_colour=dark)
            p.line(
                label,
                cx - slot / 2,
                y,
                slot,
                max_pt=5.5,
                min_pt=4.5,
                field_name="stats",
                colour="#333333",
                align="centre",
            )
    # Footer: QR, stars, defense corner.
    qr_edge = qr_size_mm(face.qr_url) if face.qr_url else 0.0
    footer = max(qr_edge, 7.0)
    bottom = panel.y
    corner = 10.0
    if face.defense_corner is not None:
        box = Rect(x=panel.right - corner, y=bottom, width=corner, height=corner)
        p.fill(box, STAT_COLOURS["defense"], radius=1.2)
        p.line(
            str(face.defense_corner),
            box.x,
            box.y + 3.2,
            corner,
            max_pt=13,
            min_pt=8,
            field_name="defense",
            bold=True,
            colour="#ffffff",
            align="centre",
        )
        p.line(
            "DEF",
            box.x,
            box.y + 0.9,
            corner,
            max_pt=5,
            min_pt=4,
            field_name="defense",
            colour="#ffffff",
            align="centre",
        )
    if face.qr_url:
        qx = panel.x if face.defense_corner is not None else panel.right - qr_edge
        draw_qr(p.canvas, face.qr_url, p.trim.x + qx, p.trim.y + bottom, MIN_MODULE_MM)
    count, where = face.stars
    if count:
        stars = "★" * count
        if where == "centre":
            p.line(
                stars,
                left,
                bottom + 2.0,
                right - left,
                max_pt=10,
                min_pt=6,
                field_name="stars",
                colour="#b8860b",
                align="centre",
            )
        else:
            p.line(
                stars,
                left,
                bottom + 2.0,
                max(right - left - qr_edge, 10.0),
                max_pt=10,
                min_pt=6,
                field_name="stars",
                colour="#b8860b",
            )
    # Art and ability text fill what is left.
    text_top = y - 1.0
    text_bottom = bottom + footer + 1.0
    if face.image is not None:
        art_h = min(0.3 * p.trim.height, max(text_top - text_bottom - 12.0, 0))
        if art_h > 5:
            p.image(face.image, Rect(x=left, y=text_top - art_h, width=right - left, height=art_h))
            text_top -= art_h + 1.0
    text, field_name = face.text
    p.box(
        text,
        Rect(x=left, y=text_bottom, width=right - left, height=text_top - text_bottom),
        field_name=field_name,
        max_pt=MAX_TEXT_PT * scale,
    )


def _icon_colour(icon: str) -> str:
    if icon in GREEN_ICONS:
        return ICON_COLOURS["green"]
    return ICON_COLOURS["gold" if icon in GOLD_ICONS else "silver"]


def _pm_unit(card: PocketModelUnit, common: dict[str, Any]) -> FaceContent:
    stats = (
        ("ATTACK", str(card.attack), STAT_COLOURS["attack"]),
        ("DAMAGE", str(card.damage), STAT_COLOURS["damage"]),
        ("DEFENSE", str(card.defense), STAT_COLOURS["defense"]),
        ("SHIELDS", str(card.shields), STAT_COLOURS["shields"]),
    )
    return FaceContent(
        frame=FRAME_COLOURS["unit"],
        type_line="Ground unit" if card.ground else "Unit",
        pills=tuple((i, _icon_colour(i)) for i in card.icons)
        + ((("GROUND", GROUND_BAR_COLOUR),) if card.ground else ()),
        stats=stats,
        text=(card.text or "", "text"),
        stars=(card.stars, "centre"),
        **common,
    )


def _pm_card(card: PocketModelCard, common: dict[str, Any]) -> FaceContent:
    bonus = (
        ("ATTACK", card.bonus_attack, "attack"),
        ("DAMAGE", card.bonus_damage, "damage"),
        ("DEFENSE", card.bonus_defense, "defense"),
    )
    stats = tuple((label, f"+{value}", STAT_COLOURS[key]) for label, value, key in bonus if value)
    return FaceContent(
        frame=FRAME_COLOURS[card.type],
        type_line=f"{card.type.title()} card",
        pills=tuple((i, _icon_colour(i)) for i in card.icons),
        stats=stats,
        text=(card.text, "text"),
        stars=(card.stars, "centre"),
        defense_corner=card.defense,
        **common,
    )


def _tf_side(card: TransformersCharacter, mode: str, common: dict[str, Any]) -> FaceContent:
    side = card.side(mode)
    stats = (
        ("ATTACK", str(side.attack), STAT_COLOURS["tf_attack"]),
        ("HEALTH", str(card.health), STAT_COLOURS["health"]),
        ("DEFENSE", str(side.defense), STAT_COLOURS["defense"]),
    )
    return FaceContent(
        frame=FRAME_COLOURS[card.faction],
        type_line=" · ".join(part for part in (side.subtitle, side.traits) if part),
        pills=((card.faction, FRAME_COLOURS[card.faction]), (f"{mode.upper()} MODE", "#455a64")),
        stats=stats,
        text=(side.text, f"{mode}_text"),
        stars=(card.stars if mode == "alt" else 0, "left"),
        **common,
    )


def _tf_battle(card: TransformersBattleCard, common: dict[str, Any]) -> FaceContent:
    kind = "Action" if card.type == "action" else f"Upgrade — {(card.upgrade or '').title()}"
    return FaceContent(
        frame=FRAME_COLOURS[card.type],
        type_line=kind,
        corner_discs=tuple(BATTLE_ICON_COLOURS[i] for i in card.icons),
        text=(card.text, "text"),
        stars=(card.stars, "left"),
        **common,
    )


def _troop(card: ToyBattleTroop, common: dict[str, Any]) -> FaceContent:
    strength = "J" if card.troop == "Kwak" else str(card.strength)
    label = "JOKER" if card.troop == "Kwak" else "STRENGTH"
    return FaceContent(
        frame=FRAME_COLOURS[card.colour],
        type_line=f"{card.troop} · {card.colour} troop",
        stats=((label, strength, FRAME_COLOURS[card.colour]),),
        text=(card.text or "", "text"),
        **common,
    )


def face_content(
    card: ValidatedCard, *, side: str = "front", image: Path | None, qr_url: str | None
) -> FaceContent:
    """The :class:`FaceContent` of a card's front (or of a character's ``bot`` side).

    Raises:
        TypeError: not a known card class.
    """
    common: dict[str, Any] = {"title": card.name, "image": image, "qr_url": qr_url}
    if isinstance(card, TransformersCharacter):
        return _tf_side(card, "bot" if side == "bot" else "alt", common)
    if isinstance(card, PocketModelUnit):
        return _pm_unit(card, common)
    if isinstance(card, PocketModelCard):
        return _pm_card(card, common)
    if isinstance(card, TransformersBattleCard):
        return _tf_battle(card, common)
    if isinstance(card, ToyBattleTroop):
        return _troop(card, common)
    raise TypeError(f"no face for {type(card).__name__}")


def draw_generated_back(p: Painter, *, colour: str, text: str, subtitle: str) -> None:
    """A generated back: ``colour`` over the bleed, a thin inner frame, centred words."""
    p.fill(p.bleed_box, colour)
    c = p.canvas
    c.setStrokeColor("#ffffff")
    c.setLineWidth(1.2)
    inner = Rect(x=0, y=0, width=p.trim.width, height=p.trim.height).inset(SAFE_MARGIN + 1.0)
    c.roundRect(
        *p.pt(inner.x, inner.y), inner.width * MM, inner.height * MM, 2 * MM, stroke=1, fill=0
    )
    mid = p.trim.height / 2
    p.line(
        text,
        inner.x + 2,
        mid,
        inner.width - 4,
        max_pt=16,
        min_pt=7,
        field_name="back.text",
        bold=True,
        colour="#ffffff",
        align="centre",
    )
    p.line(
        subtitle,
        inner.x + 2,
        mid - 6,
        inner.width - 4,
        max_pt=8,
        min_pt=5,
        field_name="deck title",
        colour="#ffffff",
        align="centre",
    )


def game_title(game: str) -> str:
    """Display title of a game slug."""
    return GAMES[game].title
