"""Two phones at one table for the whole-game browser tests (issue 31, point 3): phone A in
English, phone B in German, both 390 x 844 CSS px, every move tapped on the phone whose turn it
is, and at each tap what a player meets checked on the page as it stands:

* the control the game asks for next is on the screen without scrolling (the page brought it
  into view; nothing sticky lies over it): :meth:`Duel.tap` checks before it taps;
* every tap target on the screen is at least 44 x 44 CSS px (:func:`small_targets`; an inline
  link in a sentence is exempt, as WCAG 2.5.8 exempts it, and so is a checkbox whose label is
  the target);
* no empty card (the join card once seat B is taken), no stale toast, no stale refusal pill
  (:meth:`Duel.calm`).

Screenshots of both phones are taken at each new phase into ``test-artefacts/phones/<game>/``
(gitignored; ``TABLESMITH_SHOTS`` names another folder).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask

from games import registry
from tests.companion.conftest import Seats
from tests.companion.phones import PHONE

ROOT = Path(__file__).resolve().parents[2]
ARTEFACTS = Path(os.environ.get("TABLESMITH_SHOTS") or ROOT / "test-artefacts" / "phones")
"""Where the screenshots go (a gitignored folder of the checkout)."""

RAW_NAMES = frozenset(["setup"]).union(*(game.action_types for game in registry.GAMES.values()))
"""The action types of every game, and the setup: a log line that is one of them fell back to
the raw name (Transformers' card_icons did, in 164 of about 300 lines)."""

MIN_TARGET = 44
"""The smallest tap target, CSS px (Apple HIG, WCAG 2.5.5)."""

SMALL_TARGETS = """(min) => {
  const small = [];
  const targets = document.querySelectorAll(
    "button, a[href], select, input, summary, #tb-svg .node");
  for (const node of targets) {
    if (node.disabled) continue;
    let box = node.getBoundingClientRect();
    if (!box.width || !box.height) continue; // not shown
    if (node.matches("p a, .link a")) continue; // a link inside a sentence (WCAG 2.5.8)
    if (node.matches("input[type=checkbox], input[type=radio]") && node.closest("label")) {
      box = node.closest("label").getBoundingClientRect(); // the label is the target
    }
    if (node.matches(".node")) box = node.querySelector(".hit").getBoundingClientRect();
    if (box.width < min - 0.5 || box.height < min - 0.5) {
      small.push((node.id || node.className || node.tagName) + " " + Math.round(box.width) + "x"
        + Math.round(box.height));
    }
  }
  return small;
}"""

IN_SIGHT = """(selector) => {
  const node = document.querySelector(selector);
  if (!node) return "missing";
  const box = node.getBoundingClientRect();
  if (box.top < 0 || box.bottom > innerHeight || box.left < 0 || box.right > innerWidth) {
    return "off screen: top " + Math.round(box.top) + ", bottom " + Math.round(box.bottom);
  }
  const x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  if (hit && (hit === node || node.contains(hit) || hit.contains(node))) return "";
  return "covered by " + (hit ? hit.id || hit.className || hit.tagName : "nothing");
}"""


def small_targets(page: Any) -> list[str]:
    """The tap targets on ``page`` smaller than :data:`MIN_TARGET` (id or class, size)."""
    found: list[str] = page.evaluate(SMALL_TARGETS, MIN_TARGET)
    return found


@dataclass
class Duel:
    """A table of ``game`` on the live server, phone A (English) and phone B (German)."""

    browser: Any
    base: str
    app: Flask
    game: str
    phones: dict[str, Any] = field(default_factory=dict)
    seats: Seats | None = None
    shots: Path = ARTEFACTS
    phases: list[str] = field(default_factory=list)
    taps: int = 0

    def open(self) -> None:
        """Phone A starts the table on the start page, phone B joins by the link."""
        self.shots = ARTEFACTS / self.game
        self.shots.mkdir(parents=True, exist_ok=True)
        for old in self.shots.glob("*.png"):
            old.unlink()
        for seat, locale in (("A", "en-GB"), ("B", "de-DE")):
            self.phones[seat] = self.browser.new_context(**{**PHONE, "locale": locale}).new_page()
        a, b = self.phones["A"], self.phones["B"]
        a.goto(self.base + "/")
        a.click(f"#new-table-{self.game}")
        a.wait_for_selector("#invite[open] #join-link")  # the join card, while seat B is free
        self.shot("join")
        b.goto(a.locator("#join-link").get_attribute("href"))
        b.click("#take-seat")
        for page in (a, b):
            page.wait_for_function("document.getElementById('app').dataset.revision !== undefined")
        a.wait_for_selector("#invite", state="hidden")  # no empty join card for the game
        table = a.evaluate("document.getElementById('app').dataset.table")
        tokens = {
            s: p.evaluate("document.getElementById('app').dataset.token")
            for s, p in self.phones.items()
        }
        self.seats = Seats(table, tokens["A"], tokens["B"], "", "")

    def close(self) -> None:
        for page in self.phones.values():
            page.context.close()

    def view(self, seat: str = "A") -> dict[str, Any]:
        """The table view of ``seat`` from the server."""
        assert self.seats is not None
        client = self.app.test_client()
        data: dict[str, Any] = client.get(
            self.seats.api + "/state", headers=self.seats.headers(seat)
        ).get_json()
        return data

    def synced(self, revision: int) -> None:
        """Wait until both phones show ``revision`` (or later)."""
        for page in self.phones.values():
            page.wait_for_function(
                f"Number(document.getElementById('app').dataset.revision) >= {revision}",
                timeout=8000,
            )

    def shot(self, name: str) -> None:
        """Screenshots of both phones' screens (what the player sees, not the whole page)."""
        for seat, page in self.phones.items():
            page.screenshot(path=str(self.shots / f"{len(self.phases):02d}-{name}-{seat}.png"))

    def phase(self, name: str) -> None:
        """At a phase seen for the first time: screenshots, and every tap target >= 44 px."""
        if name in self.phases:
            return
        self.phases.append(name)
        self.shot(name)
        for seat, page in self.phones.items():
            small = small_targets(page)
            assert small == [], f"{self.game} {name}, phone {seat}: {small}"

    def in_sight(self, page: Any, selector: str) -> None:
        """``selector`` is on the screen and not covered, before any scrolling by the test."""
        problem = page.evaluate(IN_SIGHT, selector)
        assert problem == "", f"{self.game}: {selector} {problem} (phase {self.phases[-1:]})"

    def tap(self, seat: str, selector: str, *, sight: bool = True) -> None:
        """Tap ``selector`` on ``seat``'s phone; with ``sight``, it must be in sight first."""
        page = self.phones[seat]
        page.wait_for_selector(selector, state="visible", timeout=8000)
        if sight:
            self.in_sight(page, selector)
        page.click(selector)
        self.taps += 1

    def act(self, seat: str, taps: Callable[[], None]) -> dict[str, Any]:
        """Do the taps of one action on ``seat``'s phone; both phones show its result."""
        revision = self.view()["revision"]
        taps()
        page = self.phones[seat]
        page.wait_for_function(
            f"Number(document.getElementById('app').dataset.revision) > {revision}"
            " || !document.getElementById('confirm-end').hidden",
            timeout=8000,
        )
        if page.locator("#confirm-end").is_visible():  # the tap that ends the game asks first
            self.shot("confirm-end")
            self.tap(seat, "#confirm-end-yes")
        self.synced(revision + 1)
        view = self.view(seat)
        self.calm()
        return view

    def calm(self) -> None:
        """No stale refusal pill and no refusal toast after an applied action."""
        for page in self.phones.values():
            state = page.get_attribute("#outbox", "data-state")
            assert state != "refused", page.inner_text("#outbox")

    def ended(self) -> dict[str, Any]:
        """Both phones show the end; nobody's turn in the title any more."""
        view = self.view()
        assert view["outcome"], view.get("state")
        self.synced(view["revision"])
        for page in self.phones.values():
            page.wait_for_function("!document.title.startsWith('●')", timeout=3000)
        for page in self.phones.values():  # the result is in sight
            page.wait_for_function(
                "document.getElementById('who').getBoundingClientRect().top >= 0"
            )
            self.in_sight(page, "#who")
        self.phase("over")
        for seat, page in self.phones.items():
            # "your turn" reached the phone: vibration (allowed after a tap) and the tone
            signals = page.evaluate("Tablesmith.signals()")
            assert signals["vibrated"] >= 1 and signals["chimed"] >= 1, (seat, signals)
            # the log says what happened in the game's words, never an action's raw name
            page.click("#log summary")
            page.wait_for_selector("#log-list li")
            lines = page.locator("#log-list li > span:last-child").all_inner_texts()
            assert not RAW_NAMES & set(lines), (seat, sorted(RAW_NAMES & set(lines)))
            assert not any("_" in line for line in lines), (seat, lines)
        return view

    def dice_in_sight(self, faces: list[int]) -> None:
        """A roll is shown large on both phones: its faces and, for more dice, their sum."""
        for page in self.phones.values():
            page.wait_for_selector("#dice-show:not([hidden]) .die", timeout=4000)
            shown = page.locator("#dice-show .die").all_inner_texts()[-len(faces) :]
            assert shown == [str(f) for f in faces]
            if len(faces) > 1:
                assert f"= {sum(faces)}" in page.inner_text("#dice-show")
