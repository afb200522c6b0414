"""Any file, any path: every deck input ends in exit 0 or one error line with exit 2.

A fixed list of nasty inputs (control characters, deep nesting, huge files, devices, FIFOs,
symlink loops, folders, unreadable files, invalid UTF-8, YAML tags, ...) plus a few hundred
Hypothesis-generated ones: random bytes, random text, and demo decks with random damage.
Every run must end within a few seconds with either exit 0 (a PDF was written) or exactly one
line ``Error: ...`` on the output and exit code 2; never a traceback.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards.deck import MAX_CARD_ENTRIES, MAX_DECK_BYTES
from games.demos import demo_resource
from tablesmith import cli

ROOT = Path(__file__).resolve().parents[2]
DEMO = {
    name: demo_resource(name).read_text(encoding="utf-8")
    for name in ("pocketmodel", "toy-battle", "transformers")
}
CSV = (
    "game,kind,name,troop,colour,copies,text\n"
    'toy-battle,troop,Skully,Skully,blue,3,"Draw 2 troops."\n'
    "toy-battle,troop,Star,Star,red,3,Draw 1.\n"
)
TIME_LIMIT = 10.0
"""Seconds one run may take before the test calls it a hang."""


class Hang(Exception):
    """A run took longer than TIME_LIMIT."""


def _alarm(signum: int, frame: object) -> None:
    raise Hang(f"no answer within {TIME_LIMIT} s")


def run_cards(tmp_path: Path, deck: str, *extra: str) -> tuple[int, str]:
    """Run ``tablesmith cards DECK`` in-process with a time limit; (exit code, output)."""
    out = tmp_path / "out.pdf"
    out.unlink(missing_ok=True)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
    try:
        result = CliRunner().invoke(
            cli, ["cards", deck, "--out", str(out), "--no-qr", "--duplex", "none", *extra]
        )
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{deck}: exception {result.exception!r}\n{result.output}")
    return result.exit_code, result.output


def assert_clean(code: int, output: str, out: Path) -> str:
    """Exit 0 with a PDF, or exit 2 with exactly one ``Error:`` line; returns that line."""
    assert "Traceback" not in output, output
    lines = [line for line in output.splitlines() if not line.startswith("warning: ")]
    if code == 0:
        assert out.read_bytes().startswith(b"%PDF-")
        return ""
    assert code == 2, output
    errors = [line for line in lines if line.startswith("Error: ")]
    assert len(errors) == 1 and len(lines) == 1, output
    assert not out.exists()
    return errors[0]


def check(tmp_path: Path, data: bytes | str, suffix: str) -> str:
    path = tmp_path / f"deck{suffix}"
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8", errors="surrogatepass")
    else:
        path.write_bytes(data)
    code, output = run_cards(tmp_path, str(path))
    return assert_clean(code, output, tmp_path / "out.pdf")


TB = DEMO["toy-battle"]
FIXED_TEXTS: list[tuple[str, str, str]] = [
    (
        "bell in a name",
        TB.replace("name: Kwak,", 'name: "Kw\\aak",', 1),
        "control character U+0007",
    ),
    ("escape in text", TB.replace("Draw 1 troop.", "Draw\\x1b[31m 1.", 1), "control character"),
    ("raw control char", TB.replace("Star, colour", "Star\x01, colour", 1), "U+0001"),
    (
        "bell in the title",
        TB.replace("title: Toy Battle troops", 'title: "Toy\\a Battle"', 1),
        "line 5: field 'title': control character U+0007 at character 4",
    ),
    (
        "escape in the back text",
        TB.replace("title: Toy", 'back: {colour: "#123456",\n  text: "a\\x1bb"}\ntitle: Toy', 1),
        "line 6: field 'back.text': control character U+001B at character 2",
    ),
    ("NUL in yaml", TB.replace("Kwak", "Kw\x00ak", 1), "U+0000"),
    ("zero width space", TB.replace("Draw 1 troop.", "Draw\u200b 1.", 1), "U+200B"),
    ("bidi override", TB.replace("Draw 1 troop.", "\u202eDraw 1.", 1), "U+202E"),
    ("line break in a name", TB.replace("name: Kwak,", 'name: "Kw\\nak",', 1), "line break"),
    (
        "too many lines",
        TB.replace('text: "Draw 1 troop."', 'text: "' + "a\\n" * 9 + '"', 1),
        "lines",
    ),
    ("deep flow nesting", "game: toy-battle\ncards: " + "[" * 5000 + "]" * 5000, "nesting"),
    ("deep block nesting", "".join(" " * i + "- \n" for i in range(200)) + "x", "nesting"),
    ("deep mapping nesting", "a: {" * 3000 + "}" * 3000, "nesting"),
    ("yaml python tag", "game: !!python/object:os.system [ls]\ncards: []\n", "tags"),
    ("yaml local tag", "game: toy-battle\ncards:\n  - !card {troop: Star}\n", "tags"),
    ("yaml str tag", "game: !!str toy-battle\ncards: []\n", "tags"),
    ("alias bomb", "a: &a [x, x]\nb: &b [*a, *a]\ngame: toy-battle\ncards: [*b]\n", "aliases"),
    ("two documents", TB + "\n---\n" + TB, "one YAML document"),
    ("tab indentation", "game: toy-battle\ncards:\n\t- {troop: Star}\n", "valid YAML"),
    ("key is a list", "[a]: 1\n", "key"),
    ("scalar document", "just text\n", "mapping"),
    ("list document", "- a\n- b\n", "mapping"),
    ("cards is text", "game: toy-battle\ncards: many\n", "cards"),
    ("card is text", "game: toy-battle\ncards: [hello]\n", "cards"),
    ("unknown game", "game: chess\ncards: [{name: a}]\n", "game"),
    (
        "huge copies",
        "game: toy-battle\ncards: [{troop: Star, name: a, colour: red, copies: 99999999999999999999}]\n",
        "copies",
    ),
    (
        "negative copies",
        "game: toy-battle\ncards: [{troop: Star, name: a, colour: red, copies: -1}]\n",
        "copies",
    ),
    (
        "nan stars",
        "game: pocketmodel\ncards: [{kind: unit, name: a, stars: .nan, attack: 1, damage: 1, defense: 1, shields: 1, icons: Droid}]\n",
        "stars",
    ),
    (
        "icons as mapping",
        "game: pocketmodel\ncards: [{kind: unit, name: a, stars: 1, attack: 1, damage: 1, defense: 1, shields: 1, icons: {a: b}}]\n",
        "icons",
    ),
    (
        "name as list",
        "game: toy-battle\ncards: [{troop: Star, name: [a, b], colour: red}]\n",
        "name",
    ),
    (
        "image is a folder",
        "game: toy-battle\ncards: [{troop: Star, name: a, colour: red, image: .}]\n",
        "image",
    ),
    (
        "image is a device",
        "game: toy-battle\ncards: [{troop: Star, name: a, colour: red, image: /dev/zero}]\n",
        "image",
    ),
    (
        "image with NUL",
        'game: toy-battle\ncards: [{troop: Star, name: a, colour: red, image: "a\\0.png"}]\n',
        "image",
    ),
    (
        "back image device",
        "game: toy-battle\nback: {image: /dev/null}\ncards: [{troop: Star, name: a, colour: red}]\n",
        "back.image",
    ),
    ("only a BOM", "\ufeff", "empty"),
    (
        "surrogate escape",
        TB.replace("Draw 1 troop.", "Draw \\ud800 1.", 1),
        "unicode character escape",
    ),
]


@pytest.mark.parametrize(("label", "text", "expect"), FIXED_TEXTS, ids=[t[0] for t in FIXED_TEXTS])
def test_fixed_bad_yaml_gives_one_line(tmp_path: Path, label: str, text: str, expect: str) -> None:
    line = check(tmp_path, text, ".yaml")
    assert line.startswith("Error: "), label
    assert expect.lower() in line.lower(), line
    assert "deck.yaml" in line


FIXED_CSV: list[tuple[str, str, str]] = [
    (
        "bell in a cell",
        CSV.replace("Draw 1.", "Draw\x07 1."),
        "line 3: field 'text': control character U+0007 at character 5",
    ),
    ("NUL in a cell", CSV.replace("Skully,Skully", "Sk\x00ully,Skully"), "U+0000"),
    ("unterminated quote", CSV.replace('"Draw 2 troops."', '"Draw 2 troops.'), "unterminated"),
    ("huge cell", "game,name\ntoy-battle," + "x" * 200_000 + "\n", "csv"),
    ("only header", "game,kind,name\n", "no cards"),
    ("columns beyond header", CSV + "toy-battle,troop,a,Star,red,1,x,y,z\n", "columns"),
]


@pytest.mark.parametrize(("label", "text", "expect"), FIXED_CSV, ids=[t[0] for t in FIXED_CSV])
def test_fixed_bad_csv_gives_one_line(tmp_path: Path, label: str, text: str, expect: str) -> None:
    line = check(tmp_path, text, ".csv")
    assert expect.lower() in line.lower(), line


def test_invalid_utf8_names_the_line(tmp_path: Path) -> None:
    line = check(tmp_path, b"game: toy-battle\ncards:\n  - {name: \xff\xfe}\n", ".yaml")
    assert line.endswith(
        "deck.yaml: line 3: field 'encoding': allowed UTF-8 text; found 'byte 0xff'"
    )


def test_a_file_over_the_size_limit_is_refused_before_parsing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.yaml"
    with path.open("wb") as handle:  # 11 MB, the size that hung before
        handle.write(b"game: toy-battle\ncards:\n")
        handle.write(b"  - {troop: Star, name: a, colour: red}\n" * 280_000)

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the deck was parsed")

    monkeypatch.setattr("printables.deckfile.parse_deck_text", never)
    code, output = run_cards(tmp_path, str(path))
    line = assert_clean(code, output, tmp_path / "out.pdf")
    assert "it is 11,200,024 bytes (10.7 MiB); the limit is 1,048,576 bytes (1.0 MiB)" in line


@pytest.mark.parametrize("suffix", [".yaml", ".csv"])
def test_too_many_cards_stop_at_once(tmp_path: Path, suffix: str) -> None:
    n = MAX_CARD_ENTRIES + 1
    if suffix == ".yaml":
        text = "game: toy-battle\ncards:\n" + "  - {troop: Star, name: a, colour: red}\n" * n
    else:
        text = "game,kind,name,troop,colour\n" + "toy-battle,troop,a,Star,red\n" * n
    assert len(text) < MAX_DECK_BYTES
    line = check(tmp_path, text, suffix)  # times: benchmarks/deck_errors.py
    assert f"more than {MAX_CARD_ENTRIES} cards in one deck file" in line


def test_a_big_csv_full_of_errors_is_reported_in_one_line(tmp_path: Path) -> None:
    rows = "toy-battle,troop,N,Zap,green,0,\n" * (MAX_CARD_ENTRIES - 1)
    text = "game,kind,name,troop,colour,copies,text\n" + rows
    line = check(tmp_path, text, ".csv")  # its time: benchmarks/deck_errors.py
    assert line.startswith("Error: 7996 problems: deck.csv: line 2: field 'id'") or (
        "problems" in line and line.endswith("more (--all-problems lists every one)")
    )


def test_printed_card_limit(tmp_path: Path) -> None:
    rows = "".join(
        f"  - {{troop: Star, name: s{i}, colour: red, copies: 99}}\n" for i in range(102)
    )
    line = check(tmp_path, "game: toy-battle\ncards:\n" + rows, ".yaml")
    assert "at most 10000 printed cards, copies included" in line and "10098" in line


def _special_paths(tmp_path: Path) -> list[tuple[str, str]]:
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    locked = tmp_path / "locked.yaml"
    locked.write_text(TB, encoding="utf-8")
    locked.chmod(0)
    dangling = tmp_path / "dangling.yaml"
    dangling.symlink_to(tmp_path / "nowhere.yaml")
    return [
        (str(folder), "it is a folder, not a file"),
        (str(fifo), "it is a FIFO (named pipe), not a file"),
        (str(loop), "symlink loop"),
        ("/dev/zero", "it is a device, not a file"),
        ("/dev/null", "it is a device, not a file"),
        ("/dev/stdin", "not a file"),
        (str(dangling), "No such file or directory"),
        (str(tmp_path / "missing.yaml"), "No such file or directory"),
        ("", "the deck path is empty"),
        (str(tmp_path / ("x" * 300 + ".yaml")), "File name too long"),
        (str(tmp_path / "new\nline.yaml"), "new\\nline.yaml"),
        (str(locked), "Permission denied" if os.geteuid() != 0 else ""),
    ]


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs, devices and modes are POSIX")
def test_special_files_and_paths(tmp_path: Path) -> None:
    paths = _special_paths(tmp_path)
    assert len(paths) >= 5 and any(reason for _, reason in paths)
    for path, reason in paths:
        code, output = run_cards(tmp_path, path)
        if code == 0:  # root can read a mode-000 file
            assert reason == "", path
            continue
        line = assert_clean(code, output, tmp_path / "out.pdf")
        assert reason in line, (path, line)


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs are POSIX")
def test_a_fifo_does_not_hang_the_real_command(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tablesmith.py"),
            "cards",
            str(fifo),
            "--out",
            str(tmp_path / "o.pdf"),
        ],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=20,
        cwd=tmp_path,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.strip().endswith("it is a FIFO (named pipe), not a file")
    assert result.stderr.count("\n") == 1 and result.stdout == ""


# --- generated inputs ------------------------------------------------------------------------

NASTY = st.sampled_from(
    [
        "\x00",
        "\x07",
        "\x1b",
        "\x7f",
        "\u0085",
        "\u200b",
        "\u202e",
        "\ufeff",
        "\ud800",
        "\t",
        "\r",
        "\n",
        "{",
        "}",
        "[",
        "]",
        ":",
        "&a ",
        "*a",
        "!t ",
        "'",
        '"',
        "#",
        "- ",
        "★",
        "漢",
        "\\",
        "%",
        "|",
        ">",
        ",",
        ";",
        "  ",
        "99999999999999999999",
        "-1",
        "..",
        "/dev/zero",
    ]
)


@st.composite
def damaged_text(draw: st.DrawFn) -> tuple[str, str]:
    """A demo deck (YAML) or the sample CSV with a few random edits."""
    suffix = draw(st.sampled_from([".yaml", ".csv"]))
    text = draw(st.sampled_from(list(DEMO.values()))) if suffix == ".yaml" else CSV
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "cut"]))
        if action == "insert":
            text = text[:at] + "".join(draw(st.lists(NASTY, min_size=1, max_size=4))) + text[at:]
        elif action == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 20)) :]
        else:
            text = text[:at]
    return text, suffix


SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)


@SETTINGS
@given(case=damaged_text())
def test_damaged_demo_decks(tmp_path: Path, case: tuple[str, str]) -> None:
    text, suffix = case
    check(tmp_path, text, suffix)


@settings(SETTINGS, max_examples=100)
@given(data=st.binary(max_size=300), suffix=st.sampled_from([".yaml", ".csv", ".yml"]))
def test_random_bytes(tmp_path: Path, data: bytes, suffix: str) -> None:
    check(tmp_path, data, suffix)


@settings(SETTINGS, max_examples=100)
@given(text=st.text(max_size=200), suffix=st.sampled_from([".yaml", ".csv"]))
def test_random_text(tmp_path: Path, text: str, suffix: str) -> None:
    check(tmp_path, text, suffix)
