"""Paper: print-and-play card sheets.

Units: millimetres everywhere; points (``_pt``, 1 mm = 72 / 25.4 pt) only inside the
ReportLab modules (``render``, ``faces``, ``text``, ``qr``, ``calibration``). Page frame:
origin at the bottom-left corner of the page, x to the right, y up (PDF's frame).

Modules: ``layout`` (pure sheet maths), ``deckfile`` (reading deck files and demo decks),
``fonts``, ``text``, ``qr``, ``faces``, ``render`` (PDF), ``calibration``, ``profiles``
(saved printer corrections), ``preview`` (PNG pages).
"""
