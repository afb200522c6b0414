"""Generated art for cards without an image: calm vector patterns, one look per card kind.

Styles: ``space`` (PocketModel units: a night sky with a planet), ``rays`` (PocketModel combat
cards: a burst), ``radar`` (PocketModel objectives: target rings), ``circuit`` (Transformers:
brushed metal with circuit traces), ``toy`` (Toy Battle: stripes and toy blocks in the troop
colour). Each style has :data:`VARIANTS` variants picked by the card's id, so neighbouring
cards differ, and each (style, variant, tint, size) is one form XObject drawn once per PDF.
"""

from __future__ import annotations

import hashlib
import math
import random
from typing import TYPE_CHECKING

from reportlab.lib.colors import Color, HexColor

from printables.icons import defined_forms, mix

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

VARIANTS = 4
"""Variants per style."""


def variant_of(key: str) -> int:
    """A stable variant number 0..VARIANTS-1 for a card id."""
    return hashlib.sha1(key.encode()).digest()[0] % VARIANTS


def _gradient(
    c: Canvas, w: float, h: float, colours: tuple[Color, ...], *, vertical: bool = True
) -> None:
    """A gradient as 40 bands of flat colour (shadings inside form XObjects lose their
    resources in ReportLab, so no ``linearGradient`` here)."""
    bands = 40
    for k in range(bands):
        t = k / (bands - 1) * (len(colours) - 1)
        i = min(int(t), len(colours) - 2)
        a, b, f = colours[i], colours[i + 1], t - i
        c.setFillColor(
            Color(
                a.red + (b.red - a.red) * f,
                a.green + (b.green - a.green) * f,
                a.blue + (b.blue - a.blue) * f,
            )
        )
        if vertical:
            c.rect(0, h - (k + 1) * h / bands, w, h / bands + 0.3, stroke=0, fill=1)
        else:
            c.rect(k * w / bands, 0, w / bands + 0.3, h, stroke=0, fill=1)


def _space(c: Canvas, rnd: random.Random, w: float, h: float, tint: str) -> None:
    _gradient(c, w, h, (mix("#0b1026", tint, 0.15), mix("#2a1f5c", tint, 0.25)))
    for _ in range(int(w * h / 90)):
        shade = rnd.uniform(0.55, 1.0)
        c.setFillColorRGB(shade, shade, min(1.0, shade + 0.05))
        c.circle(
            rnd.uniform(0, w),
            rnd.uniform(0, h),
            rnd.choice((0.35, 0.45, 0.6, 0.9)),
            stroke=0,
            fill=1,
        )
    cx, cy, r = rnd.uniform(0.6, 0.85) * w, rnd.uniform(-0.1, 0.25) * h, rnd.uniform(0.28, 0.4) * w
    c.saveState()
    p = c.beginPath()
    p.circle(cx, cy, r)
    c.clipPath(p, stroke=0, fill=0)
    c.translate(cx - r, cy - r)
    _gradient(c, 2 * r, 2 * r, (mix(tint, "#ffffff", 0.45), mix(tint, "#000000", 0.55)))
    c.restoreState()
    c.setStrokeColor(mix(tint, "#ffffff", 0.6))
    c.setLineWidth(0.8)
    c.ellipse(cx - 1.5 * r, cy - 0.25 * r, cx + 1.5 * r, cy + 0.25 * r, stroke=1, fill=0)


def _rays(c: Canvas, rnd: random.Random, w: float, h: float, tint: str) -> None:
    _gradient(c, w, h, (mix(tint, "#ffb74d", 0.35), mix(tint, "#000000", 0.45)))
    cx, cy = rnd.uniform(0.3, 0.7) * w, rnd.uniform(0.3, 0.6) * h
    c.setFillColor(mix(tint, "#ffe082", 0.55))
    n = 18
    p = c.beginPath()
    for k in range(n):
        a0 = (k + rnd.uniform(0, 0.2)) * 2 * math.pi / n
        a1 = a0 + math.pi / n * 0.6
        p.moveTo(cx, cy)
        p.lineTo(cx + 2 * w * math.cos(a0), cy + 2 * w * math.sin(a0))
        p.lineTo(cx + 2 * w * math.cos(a1), cy + 2 * w * math.sin(a1))
        p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.setFillColor(mix(tint, "#fff8e1", 0.8))
    c.circle(cx, cy, 0.12 * min(w, h), stroke=0, fill=1)


def _radar(c: Canvas, rnd: random.Random, w: float, h: float, tint: str) -> None:
    _gradient(c, w, h, (mix(tint, "#000000", 0.55), mix(tint, "#000000", 0.2)))
    cx, cy = rnd.uniform(0.35, 0.65) * w, rnd.uniform(0.35, 0.65) * h
    c.setStrokeColor(mix(tint, "#b2ebf2", 0.6))
    c.setLineWidth(0.7)
    for k in range(1, 9):
        c.circle(cx, cy, k * 0.11 * max(w, h), stroke=1, fill=0)
    c.line(cx, 0, cx, h)
    c.line(0, cy, w, cy)
    c.setFillColor(mix(tint, "#e0f7fa", 0.8))
    for _ in range(4):
        c.circle(rnd.uniform(0, w), rnd.uniform(0, h), 1.4, stroke=0, fill=1)


def _circuit(c: Canvas, rnd: random.Random, w: float, h: float, tint: str) -> None:
    _gradient(
        c, w, h, (HexColor("#37474f"), HexColor("#78909c"), HexColor("#263238")), vertical=False
    )
    c.setStrokeColor(mix("#cfd8dc", tint, 0.25))
    c.setLineWidth(0.35)
    size = 7.0
    for row in range(int(h / (size * 0.87)) + 2):
        for col in range(int(w / (size * 1.5)) + 2):
            x = col * size * 1.5 + (0.75 * size if row % 2 else 0)
            y = row * size * 0.87
            p = c.beginPath()
            for k in range(7):
                a = k * math.pi / 3
                px, py = x + 0.5 * size * math.cos(a), y + 0.5 * size * math.sin(a)
                if k == 0:
                    p.moveTo(px, py)
                else:
                    p.lineTo(px, py)
            c.drawPath(p, stroke=1, fill=0)
    c.setStrokeColor(mix(tint, "#ffffff", 0.35))
    c.setFillColor(mix(tint, "#ffffff", 0.35))
    c.setLineWidth(1.2)
    for _ in range(3):
        x, y = rnd.uniform(0, w), rnd.uniform(0, h)
        p = c.beginPath()
        p.moveTo(x, y)
        for _ in range(3):
            x += rnd.choice((-1, 1)) * rnd.uniform(8, 20)
            y += rnd.uniform(-6, 6) if rnd.random() < 0.5 else 0
            p.lineTo(x, y)
        c.drawPath(p, stroke=1, fill=0)
        c.circle(x, y, 1.6, stroke=0, fill=1)


def _toy(c: Canvas, rnd: random.Random, w: float, h: float, tint: str) -> None:
    _gradient(c, w, h, (mix(tint, "#ffffff", 0.55), mix(tint, "#ffffff", 0.25)))
    c.setFillColor(mix(tint, "#ffffff", 0.7))
    step = 9.0
    p = c.beginPath()
    for k in range(-int(h / step) - 2, int(w / step) + 2):
        x = k * step
        p.moveTo(x, 0)
        p.lineTo(x + step / 2, 0)
        p.lineTo(x + step / 2 + h, h)
        p.lineTo(x + h, h)
        p.close()
    c.drawPath(p, stroke=0, fill=1)
    palette = ("#ffca28", "#66bb6a", "#ef5350", "#42a5f5", "#ab47bc")
    for _ in range(int(w * h / 260)):
        c.setFillColor(rnd.choice(palette))
        x, y, s = rnd.uniform(0, w), rnd.uniform(0, h), rnd.uniform(3, 6)
        if rnd.random() < 0.5:
            c.roundRect(x, y, s, s, 1.0, stroke=0, fill=1)
        else:
            c.circle(x, y, s / 2, stroke=0, fill=1)


STYLES = {"space": _space, "rays": _rays, "radar": _radar, "circuit": _circuit, "toy": _toy}
"""Style name -> drawing function (box (0, 0)-(w, h) in pt)."""


def draw_pattern(
    c: Canvas, style: str, key: str, tint: str, x_pt: float, y_pt: float, w_pt: float, h_pt: float
) -> None:
    """Draw the generated art of ``style`` for card ``key`` into the box (x, y, w, h) in pt.

    Raises:
        KeyError: unknown style.
    """
    variant = variant_of(key)
    form = f"pat-{style}-{variant}-{tint.lstrip('#')}-{w_pt:.1f}x{h_pt:.1f}"
    defined = defined_forms(c)
    if form not in defined:
        c.beginForm(form, 0, 0, w_pt, h_pt)
        p = c.beginPath()
        p.rect(0, 0, w_pt, h_pt)
        c.clipPath(p, stroke=0, fill=0)
        STYLES[style](c, random.Random(f"{style}{variant}"), w_pt, h_pt, tint)
        c.endForm()
        defined.add(form)
    c.saveState()
    c.translate(x_pt, y_pt)
    c.doForm(form)
    c.restoreState()
