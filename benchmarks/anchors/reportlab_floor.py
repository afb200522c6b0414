"""Anchor: the floor of plain ReportLab for 1,000 cards (a sheet of 3x3 TCG cards per A4 page,
frame + 6 lines of wrapped text with an embedded TTF + one shared image per card, a back page
per front page with one shared back). Any card tool built on ReportLab pays at least this."""

import tempfile
import time
from pathlib import Path

from PIL import Image
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas
from reportlab.platypus import Paragraph

t0 = time.perf_counter()
font = next(p for p in ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"] if Path(p).exists())
pdfmetrics.registerFont(TTFont("DejaVu", font))
tmp = Path(tempfile.mkdtemp())
Image.new("RGB", (600, 400), (40, 90, 160)).save(tmp / "art.png")
style = ParagraphStyle("t", fontName="DejaVu", fontSize=8, leading=9.6)
c = canvas.Canvas(str(tmp / "out.pdf"), pagesize=A4)
W, H = 63 * mm, 88 * mm
n = 0
while n < 1000:
    for i in range(9):
        if n >= 1000:
            break
        x, y = 10 * mm + (i % 3) * W, 20 * mm + (i // 3) * H
        c.roundRect(x, y, W, H, 3 * mm)
        c.drawImage(str(tmp / "art.png"), x + 3 * mm, y + 45 * mm, 57 * mm, 38 * mm)
        c.setFont("DejaVu", 11)
        c.drawString(x + 4 * mm, y + 40 * mm, f"Card {n} Comet Lancer")
        p = Paragraph("Play on a unit of 3★ or less. It gets +3 Defense this battle. " * 2, style)
        w, h = p.wrap(W - 8 * mm, 30 * mm)
        p.drawOn(c, x + 4 * mm, y + 36 * mm - h)
        n += 1
    c.showPage()
    for i in range(9):
        x, y = 10 * mm + (i % 3) * W, 20 * mm + (i // 3) * H
        c.setFillColorRGB(0.1, 0.2, 0.35)
        c.roundRect(x, y, W, H, 3 * mm, fill=1)
    c.showPage()
c.save()
print(
    f"{n} cards in {time.perf_counter() - t0:.2f} s, {(tmp / 'out.pdf').stat().st_size / 1e6:.2f} MB"
)
