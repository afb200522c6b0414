"""QR encoding: the batch encoder and the background prefetch give exactly the codes that
one-by-one encoding gives."""

from __future__ import annotations

import random

import pytest

from games.cards.deck import card_url
from printables import qr

pytestmark = pytest.mark.skipif(
    qr.libqrencode() is None, reason="needs libqrencode (Debian libqrencode4)"
)


def _one_by_one(data: str) -> qr.Matrix:
    lib = qr.libqrencode()
    assert lib is not None
    return qr._encode(lib, data.encode("utf-8"), qr.ERROR_LEVEL_M)


def test_batch_encoding_matches_one_by_one_for_every_length_and_script() -> None:
    rng = random.Random(10)
    alphabet = "abcXYZ019:/.-_ äöüß★→Жж漢"
    data = [
        card_url("http://tablesmith.local:8765", "pocketmodel", "bench", f"c{i:04d}")
        for i in range(50)
    ]
    data += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 400))) for _ in range(250)]
    batch = qr.encode_batch(data)
    assert batch is not None and len(batch) == len(data)
    assert batch == [_one_by_one(item) for item in data]
    # Versions from 1 (21 modules) up to well beyond the card URLs' 4 (33 modules).
    assert min(map(len, batch)) == 21 and max(map(len, batch)) >= 57


def test_a_batch_with_an_item_too_long_gives_none_and_qr_matrix_names_it() -> None:
    too_long = "x" * 3000
    assert qr.encode_batch(["fine", too_long]) is None
    with pytest.raises(ValueError, match="3000 bytes is too long"):
        qr.qr_matrix(too_long)


def test_prefetched_codes_are_the_ones_encoded_one_by_one() -> None:
    data = [card_url("http://10.9.8.7:8765", "toy-battle", "prefetch", f"t{i}") for i in range(40)]
    with qr.Prefetch(data + data[:5]) as prefetch:
        taken = {item: prefetch.take(item) for item in data}  # waits for each batch
        assert taken == {item: _one_by_one(item) for item in data}
        assert prefetch.take(data[0]) is None  # handed out once
    assert not any(item in qr._scheduled for item in data)


def test_qr_matrix_takes_a_prefetched_code_and_encodes_a_too_long_one_itself() -> None:
    fine = card_url("http://10.9.8.8:8765", "toy-battle", "prefetch", "fine")
    with qr.Prefetch([fine, "y" * 3000]):
        assert qr.qr_matrix(fine) == _one_by_one(fine)
        with pytest.raises(ValueError, match="3000 bytes is too long"):
            qr.qr_matrix("y" * 3000)


def test_finder_form_and_runs_cover_exactly_the_dark_modules_of_every_size() -> None:
    """The drawing splits a symbol into its three finder patterns (one shared form per
    size) and the runs of the rest: together exactly the dark modules, no overlap."""
    widths = set()
    for length in (1, 20, 54, 100, 200, 400, 800, 1500):
        matrix = qr.qr_matrix("q" * length)
        width = len(matrix)
        widths.add(width)
        covered = [
            (c + k, r) for c, r, n in qr.dark_runs(matrix, without_finders=True) for k in range(n)
        ]
        covered += [(c + k, r) for c, r, n in qr.finder_runs(width) for k in range(n)]
        dark = [(c, r) for r, row in enumerate(matrix) for c, on in enumerate(row) if on]
        assert sorted(covered) == sorted(dark), width
    assert min(widths) == 21 and max(widths) > 100


def test_the_drawn_module_path_covers_exactly_the_dark_modules_outside_the_finders() -> None:
    """The page's path (chunked rows, the row number filled in) draws every dark module
    outside the three finder patterns once, offset by the quiet zone, at every size."""
    import re

    q = qr.QUIET_ZONE_MODULES
    for length in (1, 20, 54, 100, 400, 1500):
        data = "q" * length
        matrix = qr.qr_matrix(data)
        drawn = []
        for c, r, n in re.findall(r"(\d+) (\d+) (\d+) 1 re ", qr._module_path.__wrapped__(data)):
            drawn += [(int(c) - q + k, int(r) - q) for k in range(int(n))]
        expected = [
            (c + k, r) for c, r, n in qr.dark_runs(matrix, without_finders=True) for k in range(n)
        ]
        assert sorted(drawn) == sorted(expected), length
        assert len(drawn) == len(set(drawn)) > 50
