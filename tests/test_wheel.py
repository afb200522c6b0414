"""The wheel works outside the checkout (issue 26, point 2).

Builds the sdist and, from it, the wheel (``python -m build``), installs the wheel with the
kit's lock (``requirements/kit.txt``) into a fresh venv, and from a folder outside the checkout
builds a kit, prints a demo deck, and starts ``tablesmith serve`` and loads a table page, its
static files and a card page in German. An audit hook (``sys.addaudithook``, put into the
fresh venv as ``sitecustomize``) records every file each of those processes opens: none may
lie in the checkout, and every template, static file, translation, demo deck and font they
read must come from the installed package. The wheel must also carry every data file the
checkout tracks inside the packages.

Slow (a minute or two: the build, the venv, the kit) and it needs the package index for the
build backend and the lock's wheels (pip's cache serves them after ``.ci/run``'s install).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from pypdf import PdfReader

from tests.companion.servers import Serve, wait_until

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("cad", "companion", "games", "printables", "shop")

pytestmark = pytest.mark.slow

AUDIT = '''\
"""Test-only: record every file this process opens (tests/test_wheel.py)."""
import os
import sys

_dir = os.environ.get("TABLESMITH_AUDIT_DIR")
if _dir:
    _fd = os.open(os.path.join(_dir, f"{os.getpid()}.txt"), os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    _seen = set()

    def _hook(event, args):
        if event == "open" and args and isinstance(args[0], (str, bytes)):
            path = os.fsdecode(args[0])
            if path not in _seen:
                _seen.add(path)
                os.write(_fd, (os.path.abspath(path) + "\\n").encode("utf-8", "surrogateescape"))

    sys.addaudithook(_hook)
'''


def run(command: list[str], cwd: Path, env: dict[str, str], timeout: float = 600) -> str:
    """Run ``command``; its output, or a failure showing it."""
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{command} exit {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def tracked_data_files() -> set[str]:
    """Every file the checkout tracks inside the packages that is not Python source, a
    message-extraction config or a game's test data (``games/<game>/testdata/``: the fixture
    tests' states and logs, not shipped), as paths inside the wheel."""
    listed = subprocess.run(
        ["git", "ls-files", *PACKAGES], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return {
        p
        for p in listed
        if not p.endswith(".py") and not p.endswith("babel.cfg") and "/testdata/" not in p
    }


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """(the fresh venv, the built wheel)."""
    if not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout (the tracked files are the reference)")
    tmp = tmp_path_factory.mktemp("wheel")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    # a copy of what git sees (tracked, and new files not ignored): a checkout's leftover
    # *.egg-info (from pip install .) would otherwise feed the sdist files pyproject forgot
    source = tmp / "source"
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split("\0")  # fmt: skip
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    run([sys.executable, "-m", "build", "--outdir", str(tmp / "dist"), str(source)], tmp, env)
    wheels = sorted((tmp / "dist").glob("tablesmith-*.whl"))
    sdists = sorted((tmp / "dist").glob("tablesmith-*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, sorted((tmp / "dist").iterdir())
    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", str(venv)], tmp, env)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
    run([*pip, "--require-hashes", "-r", str(ROOT / "requirements" / "kit.txt")], tmp, env)
    run([*pip, "--no-deps", str(wheels[0])], tmp, env)
    site = Path(
        run(
            [
                str(venv / "bin" / "python"),
                "-c",
                "import sysconfig; print(sysconfig.get_paths()['purelib'])",
            ],
            tmp,
            env,
        ).strip()
    )
    (site / "sitecustomize.py").write_text(AUDIT, encoding="utf-8")
    yield venv, wheels[0]


def audited_env(venv: Path, audit: Path, home: Path) -> dict[str, str]:
    """The environment of a user of the fresh venv: its bin first, no PYTHONPATH, the audit
    on, a home of its own (the server's data folder and caches)."""
    audit.mkdir()
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(
        PATH=f"{venv / 'bin'}:{env.get('PATH', '')}",
        TABLESMITH_AUDIT_DIR=str(audit),
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CACHE_HOME=str(home / "cache"),
        PYTHONSAFEPATH="1",
    )
    env.pop("TABLESMITH_FONT_DIR", None)
    return env


def opened(audit: Path) -> set[Path]:
    """Every file the audited processes opened."""
    paths: set[Path] = set()
    for log in audit.glob("*.txt"):
        paths.update(Path(line) for line in log.read_text(encoding="utf-8").splitlines())
    return paths


def from_package(paths: set[Path], site: Path, pattern: str) -> set[Path]:
    """The opened ``paths`` matching ``pattern`` (a regex on the path), each checked to lie
    in the installed package."""
    matching = {p for p in paths if re.search(pattern, str(p))}
    for path in matching:
        assert path.is_relative_to(site), f"{path} was read from outside the installed package"
    return matching


def test_the_wheel_carries_every_data_file(installed: tuple[Path, Path]) -> None:
    _, wheel = installed
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    missing = tracked_data_files() - names
    assert not missing, f"the wheel lacks {sorted(missing)} (pyproject's package-data)"
    assert "tablesmith.py" in names


def test_the_installed_wheel_works_outside_the_checkout(
    installed: tuple[Path, Path], tmp_path: Path
) -> None:
    venv, _ = installed
    site = next((venv / "lib").glob("python3*/site-packages"))
    env = audited_env(venv, tmp_path / "audit", tmp_path / "home")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    # a kit
    out = run(["tablesmith", "build", "asteroids", "--out", "kit"], elsewhere, env)
    manifest = elsewhere / "kit" / "manifest.json"
    assert manifest.is_file(), out
    assert len(list((elsewhere / "kit" / "stl").glob("*.stl"))) >= 4
    assert list((elsewhere / "kit").rglob("*.3mf"))

    # a demo deck
    run(["tablesmith", "cards", "demo:pocketmodel", "--out", "cards.pdf"], elsewhere, env)
    reader = PdfReader(elsewhere / "cards.pdf")
    assert len(reader.pages) >= 2
    fonts = {
        str(font.get_object()["/BaseFont"])
        for page in reader.pages[:1]
        for font in page["/Resources"]["/Font"].values()
    }
    assert any("DejaVuSans" in name for name in fonts), fonts

    # the companion: a table page with its static files and a card page, in German
    log = tmp_path / "serve.log"
    with open(log, "wb") as out_file:
        process = subprocess.Popen(
            ["tablesmith", "serve", "--host", "127.0.0.1", "--port", "0", "--no-mdns", "--no-qr",
             "--db", str(tmp_path / "tables.sqlite")],
            cwd=elsewhere, env=env, stdout=out_file, stderr=subprocess.STDOUT,
        )  # fmt: skip
    serve = Serve(process, "")
    try:
        found: list[str] = []

        def started() -> bool:
            assert process.poll() is None, log.read_text(encoding="utf-8")
            match = re.search(r"open (http\S+)/ (?:on a phone|in a browser)", log.read_text())
            if match:
                found.append(match.group(1))
            return bool(found)

        wait_until(started, 60, "serve did not start")
        base = found[0]
        phone = requests.Session()
        phone.headers["Accept-Language"] = "de"
        home = phone.get(base + "/", timeout=10)
        assert home.status_code == 200 and 'lang="de"' in home.text
        table = phone.post(base + "/tables", data={"game": "pocketmodel"}, timeout=10)
        assert table.status_code == 200 and "/t/" in table.url, table.text[:300]
        assert 'lang="de"' in table.text
        statics = set(re.findall(r'(?:src|href)="(/static/[^"?]+)', table.text))
        assert len(statics) >= 3, statics
        for path in statics:
            assert phone.get(base + path, timeout=10).status_code == 200, path
        card = phone.get(base + "/card/toy-battle/troops/kwak", timeout=10)
        assert card.status_code == 200 and 'lang="de"' in card.text
    finally:
        serve.stop()

    paths = opened(tmp_path / "audit")
    inside = sorted(p for p in paths if p.is_relative_to(ROOT))
    assert not inside, f"read from the checkout: {inside[:5]}"
    assert from_package(paths, site, r"/companion/templates/[^/]+\.html$")
    assert from_package(paths, site, r"/companion/static/[^/]+$") >= {
        site / p.lstrip("/").replace("static/", "companion/static/", 1) for p in statics
    }
    translations = from_package(paths, site, r"/translations/de/LC_MESSAGES/messages\.po$")
    assert any("views" in str(p) for p in translations) and len(translations) >= 2
    assert any("/games/cards/" in str(p) for p in translations), translations
    assert from_package(paths, site, r"/games/[^/]+/demo/[^/]+\.yaml$")
    assert len(from_package(paths, site, r"DejaVuSans(-Bold)?\.ttf$")) == 2
    assert from_package(paths, site, r"/companion/views/[^/]+/view\.(html|js)$")
