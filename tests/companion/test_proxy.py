"""``serve --trusted-proxy`` (companion/proxy.py), issue 31.4: the address a limit counts is
the one the configured proxy saw, and a client's own ``X-Forwarded-For`` never lifts a limit.

Behind real nginx (Debian's; skipped where it is missing): a bare proxy (``proxy_pass`` alone,
which passes a client's ``X-Forwarded-For`` on unchanged) in front of a process without the
option, under both servers: all phones share one limit, forged headers or not (before, 12 of
12 creates with forged addresses passed under uvicorn, which believed 127.0.0.1 by default);
the guide's block with TLS in front of the guide's serve command: the seat cookies are
``Secure`` (X-Forwarded-Proto), and a client sending that header itself gets none.
"""

from __future__ import annotations

import http.client
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from companion import DEFAULTS
from companion.proxy import parse_trusted_proxies
from tests.companion.servers import ROOT, free_port, serve_process
from tests.companion.test_gamestore import (
    nginx_program,
    post_from,
    proxy_config,
    self_signed,
    serve_options,
    start_nginx,
)

JSON = {"Content-Type": "application/json"}
LIMIT = DEFAULTS["JOIN_RATE_LIMIT"][0]


def test_trusted_proxy_values_parse_and_bad_ones_name_the_option() -> None:
    assert not parse_trusted_proxies(None) and not parse_trusted_proxies(" ")
    proxies = parse_trusted_proxies("127.0.0.1, ::1,10.0.0.7/24,127.0.0.1")
    assert proxies.entries == ("127.0.0.1", "::1", "10.0.0.0/24")
    assert proxies.uvicorn_options() == {
        "proxy_headers": True,
        "forwarded_allow_ips": ["127.0.0.1", "::1", "10.0.0.0/24"],
    }
    assert parse_trusted_proxies(None).uvicorn_options() == {"proxy_headers": False}
    assert parse_trusted_proxies("").waitress_options() == {}
    assert parse_trusted_proxies("10.1.2.3").waitress_options()["trusted_proxy"] == "10.1.2.3"
    for bad, words in (
        ("*", "got '*'"),
        ("0.0.0.0/0", "'0.0.0.0/0' is every address"),
        ("127.0.0.1, ::/0", "'::/0' is every address"),
        ("nginx.lan", "got 'nginx.lan'"),
        ("127.0.0.1,", "got ''"),
        (",".join(f"10.0.0.{n}" for n in range(33)), "at most 32"),
    ):
        with pytest.raises(ValueError, match="^--trusted-proxy: ") as caught:
            parse_trusted_proxies(bad)
        assert words in str(caught.value)
    with pytest.raises(ValueError, match="waitress trusts one proxy address, got 127.0.0.1,::1"):
        parse_trusted_proxies("127.0.0.1,::1").waitress_options()


def test_serve_refuses_a_bad_trusted_proxy_in_one_line(tmp_path: Path) -> None:
    for extra, words in (
        (["--trusted-proxy", "*"], "--trusted-proxy: must be IP addresses or networks"),
        (["--trusted-proxy", "10.0.0.0/8", "--server", "waitress"], "waitress trusts one"),
    ):
        done = subprocess.run(
            [sys.executable, str(ROOT / "tablesmith.py"), "serve", "--db"]
            + [str(tmp_path / "db.sqlite"), "--no-mdns", "--no-qr", "--port", "0", *extra],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode != 0 and words in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def form_from(address: str, base: str, headers: dict[str, str]) -> tuple[int, str]:
    """The start page's form (a new Asteroids table) sent from the loopback ``address`` with
    ``headers``: the status and the Set-Cookie headers, joined."""
    host, port = base.split("//")[1].split(":")
    connection = http.client.HTTPConnection(host, int(port), 10, source_address=(address, 0))
    form = {"Content-Type": "application/x-www-form-urlencoded", **headers}
    try:
        connection.request("POST", "/tables", body=b"game=asteroids", headers=form)
        answer = connection.getresponse()
        return answer.status, ", ".join(answer.headers.get_all("Set-Cookie") or [])
    finally:
        connection.close()


BARE = """server {{
    listen 127.0.0.1:{port};
    location / {{
        proxy_pass http://{upstream};
        proxy_http_version 1.1;
        proxy_buffering off;
    }}
}}"""
"""A bare reverse proxy: no X-Forwarded-For of its own, a client's passes through."""


@pytest.mark.slow
@pytest.mark.parametrize("server", ["uvicorn", "waitress"])
def test_behind_a_bare_proxy_all_phones_share_one_limit_whatever_they_send(
    tmp_path: Path, server: str
) -> None:
    if nginx_program() is None:
        pytest.skip("nginx not found: Debian package nginx")
    options = ["--db", str(tmp_path / "db.sqlite"), "--host", "127.0.0.1", "--port", "0"]
    serve = serve_process([*options, "--server", server, "--no-mdns", "--no-qr"], tmp_path / "log")
    port = free_port()
    upstream = serve.base.split("//")[1]
    try:
        proxy = start_nginx(tmp_path / "nginx", BARE.format(port=port, upstream=upstream), port)
        try:
            statuses = [
                post_from("127.0.0.2", proxy.base, "/api/tables", {**JSON, "X-Forwarded-For": ip})
                for ip in (f"198.51.100.{n}" for n in range(12))
            ]
            assert statuses == [400] * LIMIT + [429] * (12 - LIMIT)  # not 12 of 12
            # another phone behind the same proxy shares the proxy's limit (documented)
            assert post_from("127.0.0.3", proxy.base, "/api/tables", JSON) == 429
        finally:
            proxy.stop()
    finally:
        serve.stop()


@pytest.mark.slow
@pytest.mark.parametrize("server", ["uvicorn", "waitress"])
def test_behind_the_guide_https_proxy_the_seat_cookies_are_secure(
    tmp_path: Path, server: str
) -> None:
    """The guide's serve command (SQLite and one process in place of its PostgreSQL and
    Redis) behind the guide's block with TLS: the seat cookies carry ``Secure``; reached
    directly over http with a forged ``X-Forwarded-Proto: https`` the process sets no
    ``Secure`` (it believes nginx only)."""
    if nginx_program() is None:
        pytest.skip("nginx not found: Debian package nginx")
    certificate, key = self_signed(tmp_path)
    port, upstream_port = free_port(), free_port()
    base = f"https://127.0.0.1:{port}"
    options = serve_options(upstream_port, base, str(tmp_path / "db.sqlite"), "local")
    direct = f"http://127.0.0.1:{upstream_port}"
    serve = serve_process([*options, "--server", server], tmp_path / "log", base=direct)
    try:
        block = proxy_config([direct.split("//")[1]], port, (certificate, key))
        proxy = start_nginx(tmp_path / "nginx", block, port, certificate)
        try:
            form = {"game": "asteroids"}  # the start page's form: a seat and its cookies
            made = requests.post(
                base + "/tables",
                data=form,
                timeout=10,
                verify=str(certificate),
                allow_redirects=False,
            )
            assert made.status_code == 303 and made.headers["Location"].startswith("/t/")
            cookies = made.headers["Set-Cookie"]
            assert "ts_seat_" in cookies and "ts_key_" in cookies
            assert cookies.count("Secure") == 2, cookies
            forged = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
            status, cookies = form_from("127.0.0.2", direct, forged)  # not the proxy
            assert status == 303 and "ts_seat_" in cookies and "Secure" not in cookies
        finally:
            proxy.stop()
    finally:
        serve.stop()
