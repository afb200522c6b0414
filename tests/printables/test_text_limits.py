"""The text limits of the cards guide (docs/print-cards.md, *Limits*) agree with what the text
fitting can set: on each card size, a name and a rules text of the documented lengths fit every
card kind (and are printed whole, read back from the PDF), and a text up to the field's own
limit either fits whole or is reported with the card and the field - never clipped."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from games.cards.deck import parse_deck_text
from games.registry import CARD_GAMES
from printables.duplex import Duplex
from printables.layout import CARD_SIZES, CardSize
from printables.render import RenderError, RenderOptions, render_deck

ROOT = Path(__file__).resolve().parents[2]
SENTENCE = "Play on a unit of 3 stars or less. It gets +3 Defense and draws 1 card this battle. "
LONG_NAME = "Commander Ilsabeth of the Northern Harbour Watch"
KINDS = ("pm-unit", "pm-combat", "pm-objective", "tf-character", "tf-action", "tf-upgrade", "tb")
FIELD_LIMIT = dict.fromkeys(KINDS, 1000)
"""The fields' own limit (characters): a sanity cap; the text fitting decides what fits."""
MINI_KINDS = ("pm-objective", "tf-action", "tf-upgrade", "tb")
"""Kinds a mini card can hold at all (units, combat cards and characters need a stats row
that a 44 mm card has no room for)."""

DOCUMENTED = {
    # size: (name length that fits every kind, text length that fits every kind, exceptions)
    "poker": (22, 500, {"pm-combat": 380}),
    "tcg": (22, 500, {"pm-combat": 380}),
    "mini": (12, 130, {}),
    "tarot": (26, 800, {}),
    "tf-character": (35, 1000, {}),
}
"""Keep in step with the *Limits* table of docs/print-cards.md (checked below)."""


def words(length: int) -> str:
    """Ordinary rules text of exactly ``length`` characters."""
    text = (SENTENCE * 20)[:length]
    return text[:-1] + "." if text.endswith(" ") else text


def card_yaml(kind: str, name: str, text: str) -> tuple[str, str]:
    """(game, one card as a YAML flow mapping) of ``kind`` with ``name`` and ``text``."""
    n, t = f'"{name}"', f'"{text}"'
    cards = {
        "pm-unit": (
            "pocketmodel",
            f"{{kind: unit, name: {n}, stars: 4, attack: 4, damage: 2, defense: 9, shields: 3,"
            f" icons: Torpedo Leader, text: {t}}}",
        ),
        "pm-combat": (
            "pocketmodel",
            f"{{kind: combat, name: {n}, stars: 1, defense: 6, bonus_defense: 3, text: {t}}}",
        ),
        "pm-objective": (
            "pocketmodel",
            f"{{kind: objective, name: {n}, stars: 2, defense: 7, text: {t}}}",
        ),
        "tf-character": (
            "transformers",
            f"{{kind: character, name: {n}, faction: Autobot, stars: 9, health: 12,"
            " alt_attack: 2, alt_defense: 2, bot_attack: 4, bot_defense: 2,"
            " alt_subtitle: Heavy Hauler, alt_traits: Truck, bot_subtitle: Harbour Guardian,"
            f" bot_traits: Leader Melee, alt_text: {t}, bot_text: {t}}}",
        ),
        "tf-action": (
            "transformers",
            f"{{kind: action, name: {n}, stars: 1, icons: orange blue, text: {t}}}",
        ),
        "tf-upgrade": (
            "transformers",
            f"{{kind: upgrade, name: {n}, upgrade: weapon, stars: 1, icons: orange, text: {t}}}",
        ),
        "tb": ("toy-battle", f"{{troop: Star, name: {n}, colour: blue, text: {t}}}"),
    }
    return cards[kind]


def render(tmp_path: Path, kind: str, size: str, name: str, text: str) -> str | RenderError:
    """The text of the rendered page (whitespace collapsed), or the RenderError."""
    game, card = card_yaml(kind, name, text)
    deck = parse_deck_text(
        f"game: {game}\ncards:\n  - {card}\n", games=CARD_GAMES, source="limits.yaml"
    )
    width, height = CARD_SIZES[size]
    card_size = CardSize(width=width, height=height, name=size)
    options = RenderOptions(
        paper="a3", duplex=Duplex.NONE, card_size=card_size, character_size=card_size
    )
    out = tmp_path / "limits.pdf"
    try:
        render_deck(deck, options, out)
    except RenderError as exc:
        return exc
    page = pdfium.PdfDocument(str(out))[0]
    return " ".join(page.get_textpage().get_text_range().split())


def kinds_of(size: str) -> tuple[str, ...]:
    return MINI_KINDS if size == "mini" else KINDS


CASES = [(size, kind) for size in DOCUMENTED for kind in kinds_of(size)]


@pytest.mark.parametrize(("size", "kind"), CASES, ids=[f"{s}-{k}" for s, k in CASES])
def test_the_documented_lengths_fit_and_print_whole(tmp_path: Path, size: str, kind: str) -> None:
    name_length, text_length, exceptions = DOCUMENTED[size]
    text_length = min(exceptions.get(kind, text_length), FIELD_LIMIT[kind])
    name = LONG_NAME[:name_length]
    assert len(name) == name_length
    page = render(tmp_path, kind, size, name, "Go.")
    assert isinstance(page, str), f"{name!r}: {page}"
    assert " ".join(name.split()) in page  # a name cut at a space prints without it
    text = words(text_length)
    page = render(tmp_path, kind, size, "Lancer", text)
    assert isinstance(page, str), f"{text_length} characters: {page}"
    assert " ".join(text.split()) in page  # every word printed, in order


@pytest.mark.parametrize(("size", "kind"), CASES, ids=[f"{s}-{k}" for s, k in CASES])
def test_longer_texts_fit_whole_or_are_reported_with_card_and_field(
    tmp_path: Path, size: str, kind: str
) -> None:
    for name, text, field in (
        (LONG_NAME[:40], "Go.", "name"),  # the field limit: 40 characters
        ("Lancer", words(FIELD_LIMIT[kind]), "text"),
    ):
        page = render(tmp_path, kind, size, name, text)
        if isinstance(page, str):
            assert name in page and " ".join(text.split()) in page
            continue
        fields = {problem.field for problem in page.problems}
        assert {problem.card for problem in page.problems} == {name}
        assert fields and fields <= {field, "alt_text", "bot_text"}, page
        for problem in page.problems:
            assert str(problem).startswith(f"card '{name}', field '{problem.field}': "), problem
            assert " pt" in problem.reason and " mm" in problem.reason, problem


def test_a_mini_card_cannot_hold_a_stats_row_and_says_so(tmp_path: Path) -> None:
    for kind in sorted(set(KINDS) - set(MINI_KINDS) - {"pm-combat"}):
        problem = render(tmp_path, kind, "mini", "Lancer", "Go.")
        assert isinstance(problem, RenderError), kind
        assert {p.field for p in problem.problems} & {"stats", "subtitle"}, kind
    # A combat card's one-stat row fits beside a short text set to its height (issue 29)
    assert isinstance(render(tmp_path, "pm-combat", "mini", "Lancer", words(80)), str)
    problem = render(tmp_path, "pm-combat", "mini", "Lancer", words(130))
    assert isinstance(problem, RenderError) and {p.field for p in problem.problems} == {"text"}


def test_the_guide_limits_table_matches() -> None:
    guide = (ROOT / "docs" / "print-cards.md").read_text(encoding="utf-8")
    limits = guide.split("\n## Limits\n", 1)[1].split("\n## ", 1)[0]
    assert len(DOCUMENTED) >= 3 and limits.count("\n| `") >= len(DOCUMENTED)
    for size, (name_length, text_length, exceptions) in DOCUMENTED.items():
        row = re.search(rf"^\| `{re.escape(size)}`[^|]*\|([^|]*)\|([^|]*)\|", limits, re.M)
        assert row, f"docs/print-cards.md, Limits: no row for {size}"
        assert re.search(rf"\b{name_length}\b", row.group(1)), row.group(0)
        assert re.search(rf"\b{text_length}\b", row.group(2)), row.group(0)
        for kind, length in exceptions.items():
            assert str(length) in row.group(2), (kind, row.group(0))


def test_a_90_word_ability_is_set_smaller_not_refused(tmp_path: Path) -> None:
    import pypdfium2.raw as pdfium_c

    ability = (
        "Carrier power: once per round, before the battle, deploy reserve squadrons worth up "
        "to three stars from your hangar into the zone of this carrier; they may not attack "
        "this round, but each of them adds one to the defense of every friendly unit nearby. "
    )
    text = " ".join((ability * 3).split()[:90]) + "."
    assert len(text.split()) == 90 and len(text) > 500
    page = render(tmp_path, "pm-unit", "tcg", "Lancer", text)
    assert isinstance(page, str), page
    assert " ".join(text.split()) in page
    textpage = pdfium.PdfDocument(str(tmp_path / "limits.pdf"))[0].get_textpage()
    first = textpage.get_text_range().index("once per round")
    size = pdfium_c.FPDFText_GetFontSize(textpage.raw, first + 5)
    assert 6.0 - 0.01 <= size < 7.0  # shrunk from 8.5 pt, not below 6 pt


def test_a_text_too_long_even_at_6_pt_says_so_plainly(tmp_path: Path) -> None:
    problem = render(tmp_path, "pm-combat", "tcg", "Lancer", words(900))
    assert isinstance(problem, RenderError)
    (only,) = problem.problems
    assert only.field == "text"
    assert only.reason.startswith("does not fit: at 6 pt, the smallest size allowed, it needs ")
