"""Real browser (Debian chromium via Playwright, two 390x844 phones): counters of your own.
Phone A adds "Victory points" and taps + twice, phone B sees 2 live; B adds its own counter;
A undoes its last tap past B's counter; the log names each change; a reload keeps them all;
the panel in German."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.companion.phones import shot, shots_folder, two_phones


def value_of(seat: str, name: str) -> str:
    return f'.own-counter[data-seat="{seat}"][data-name="{name}"] .own-counter-value'


def reads(page: Any, seat: str, name: str, text: str) -> None:
    """Wait (4 s at most) until ``seat``'s counter ``name`` shows ``text`` on ``page``."""
    selector = value_of(seat, name)
    page.wait_for_function(
        "([s, t]) => { const n = document.querySelector(s); return !!n && n.textContent === t; }",
        arg=[selector, text],
        timeout=4000,
    )


def add(page: Any, name: str) -> None:
    if not page.eval_on_selector("#counters", "d => d.open"):
        page.click("#counters summary")
    page.fill("#counter-name", name)
    page.click("#counter-add")


def tap(page: Any, seat: str, name: str, sign: str, then: str) -> None:
    """Tap ``sign`` ("plus"/"minus") on the counter and wait for ``then``; then wait out the
    shell's double-tap guard (0.4 s) so that the next tap counts."""
    page.click(f'.own-counter[data-seat="{seat}"][data-name="{name}"] .own-counter-{sign}')
    reads(page, seat, name, then)
    page.wait_for_timeout(450)


@pytest.mark.slow
def test_two_phones_keep_their_own_counters_live_undoable_and_after_a_reload(
    browser: Any, live_server: tuple[str, Flask], tmp_path: Path
) -> None:
    base, app = live_server
    folder = shots_folder(tmp_path)
    phone_a, phone_b = two_phones(browser, base, "asteroids")
    phone_a.wait_for_selector("#random-setup")
    phone_a.click("#random-setup")
    for phone in (phone_a, phone_b):
        phone.wait_for_selector("#c-0-0")

    add(phone_a, "  Victory points ")  # trimmed on the phone and on the server
    reads(phone_a, "A", "Victory points", "0")
    # the field is cleared once the counter is in
    phone_a.wait_for_function("document.getElementById('counter-name').value === ''", timeout=2000)
    tap(phone_a, "A", "Victory points", "plus", "1")
    tap(phone_a, "A", "Victory points", "plus", "2")
    reads(phone_b, "A", "Victory points", "2")  # live on the other phone, panel opened by itself
    assert phone_b.eval_on_selector("#counters", "d => d.open")
    # B sees A's counter but cannot change it: no controls on the other seat's row
    assert phone_b.locator('.own-counter[data-seat="A"] button').count() == 0

    add(phone_b, "Gold")
    reads(phone_b, "B", "Gold", "0")
    tap(phone_b, "B", "Gold", "plus", "1")
    reads(phone_a, "B", "Gold", "1")
    # B's own counters come first on B's phone, A's first on A's
    assert phone_b.locator(".own-counter-group").first.get_attribute("id") == "counters-B"
    assert phone_a.locator(".own-counter-group").first.get_attribute("id") == "counters-A"
    shot(phone_b, folder, "counters-b")

    # A's last tap is undone past B's counter taps, on both phones; B's Gold stays
    phone_a.wait_for_selector("#undo:not([hidden])")
    phone_a.click("#undo")
    reads(phone_a, "A", "Victory points", "1")
    reads(phone_b, "A", "Victory points", "1")
    reads(phone_a, "B", "Gold", "1")
    table = app.extensions["tablesmith.tables"].table(phone_a.url.rsplit("/", 1)[1])
    assert table.view()["counters"] == [
        {"seat": "A", "name": "Victory points", "value": 1},
        {"seat": "B", "name": "Gold", "value": 1},
    ]

    # the log names each change; the undone tap is struck out
    phone_a.click("#log summary")
    phone_a.wait_for_selector("#log-list li.undone")
    lines = phone_a.locator("#log-list li").all_inner_texts()
    assert any("New counter Victory points: 0" in line for line in lines)
    assert any("Gold +1 → 1" in line and "Player B" in line for line in lines)
    struck = phone_a.locator("#log-list li.undone").inner_text()
    assert "Victory points +1 → 2" in struck and "Player A (you)" in struck
    shot(phone_a, folder, "counters-a-log")

    # minus counts down
    phone_a.click('.own-counter[data-seat="A"][data-name="Victory points"] .own-counter-minus')
    reads(phone_a, "A", "Victory points", "0")
    phone_a.wait_for_timeout(450)

    # a reload keeps them (the table is folded from its log); remove one, B sees it go
    phone_b.reload()
    reads(phone_b, "A", "Victory points", "0")
    reads(phone_b, "B", "Gold", "1")
    phone_b.click('.own-counter[data-seat="B"][data-name="Gold"] .own-counter-remove')
    phone_a.wait_for_function(
        "!document.querySelector('.own-counter[data-seat=\"B\"]')", timeout=4000
    )
    assert phone_a.locator(".own-counter").count() == 1
    # a second counter of the same name (ignoring case) is refused, saying why
    add(phone_a, "VICTORY POINTS")
    phone_a.wait_for_function(
        "document.getElementById('toast').textContent.includes("
        "'you have a counter of that name already')",
        timeout=4000,
    )
    assert phone_a.locator(".own-counter").count() == 1


@pytest.mark.slow
def test_the_counters_panel_speaks_german(
    browser: Any, live_server: tuple[str, Flask], tmp_path: Path
) -> None:
    base, _ = live_server
    phone_a, phone_b = two_phones(browser, base, "toy-battle", locale="de-DE")
    phone_a.wait_for_selector("#counters")
    assert "Zähler" in phone_a.inner_text("#counters summary")
    add(phone_a, "Siegpunkte")
    reads(phone_b, "A", "Siegpunkte", "0")
    assert phone_a.locator("#counter-add").inner_text() == "Zähler anlegen"
    assert phone_a.locator(".own-counter-remove").inner_text() == "Entfernen"
    phone_a.click("#log summary")
    phone_a.wait_for_selector("#log-list li")
    assert "Neuer Zähler Siegpunkte: 0" in phone_a.inner_text("#log-list")


FITS = """() => [...document.querySelectorAll('.own-counter')].map((row) => {
  const box = row.getBoundingClientRect();
  const name = row.querySelector('.own-counter-name');
  const range = document.createRange();
  range.selectNodeContents(name);
  const buttons = [...row.querySelectorAll('button')];
  return {
    name: name.textContent,
    lines: range.getClientRects().length,
    out: buttons.filter((b) => b.getBoundingClientRect().right > box.right + 0.5
      || b.scrollWidth > b.clientWidth + 1).map((b) => b.textContent),
  };
})"""
"""Per counter row: its name, how many lines the name takes, the buttons sticking out of the
row or their own box."""


@pytest.mark.slow
def test_german_counter_rows_fit_a_390_px_phone_without_breaking_a_word(
    browser: Any, live_server: tuple[str, Flask], tmp_path: Path
) -> None:
    base, _ = live_server
    phone_a, _ = two_phones(browser, base, "toy-battle", locale="de-DE")
    phone_a.wait_for_selector("#counters")
    for name in ("Siegpunkte", "Lebenspunkte des Drachen", "Rohstoffe"):
        add(phone_a, name)
        reads(phone_a, "A", name, "0")
    shot(phone_a, shots_folder(tmp_path), "counters-de-390")
    rows = phone_a.evaluate(FITS)
    assert [row["name"] for row in rows] == ["Siegpunkte", "Lebenspunkte des Drachen", "Rohstoffe"]
    assert [row["out"] for row in rows] == [[], [], []]  # "Entfernen" inside its button
    assert rows[0]["lines"] == 1 and rows[2]["lines"] == 1  # one word is never cut in two
