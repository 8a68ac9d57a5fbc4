"""`kb serve`'s server: no dot-file, no folder listing, a read timeout, quiet resets, a bounded number of workers."""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from kb.site.serve import make_server

from .conftest import write


def site_with_secrets(root: Path) -> Path:
    """A site folder that also holds a kept `.git/` and `.kb/`, a hidden file and a folder without an index."""
    site = root / "site"
    write(site / "index.html", "home")
    write(site / "fr" / "index.html", "accueil")
    write(site / "static" / "site.css", "body{}")
    write(site / "static" / ".hidden", "hidden")
    write(site / ".git" / "config", "[core] secret")
    write(site / ".kb" / "cache" / "x.json", "{}")
    write(site / "fr" / ".git" / "HEAD", "ref: secret")
    write(site / "big.bin", b"\0" * (8 * 1024 * 1024))
    (site / "git").symlink_to(site / ".git")
    return site


@contextmanager
def serving(site: Path, **options) -> Iterator[tuple[int, object]]:
    server = make_server(site, port=0, **options)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], server
    finally:
        server.shutdown()
        server.server_close()


def get(port: int, path: str) -> bytes:
    """The reply to a GET of `path`, sent as is."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(f"GET {path} HTTP/1.0\r\n\r\n".encode())
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def status(reply: bytes) -> int:
    return int(reply.split(b" ", 2)[1])


def test_dot_files_and_folders_are_never_served(tmp_path):
    site = site_with_secrets(tmp_path)
    with serving(site) as (port, _):
        assert status(get(port, "/static/site.css")) == 200
        for path in (
            "/.git/config",
            "/.git/",
            "/.git",
            "/%2egit/config",
            "/.kb/cache/x.json",
            "/static/.hidden",
            "/fr/.git/HEAD",
            "/fr/./.git/HEAD",
            "/git/config",  # a link to .git
        ):
            reply = get(port, path)
            assert status(reply) == 404 and b"secret" not in reply and b"hidden" not in reply, path


def test_folders_are_never_listed(tmp_path):
    site = site_with_secrets(tmp_path)
    with serving(site) as (port, _):
        assert status(get(port, "/static/")) == 404
        assert status(get(port, "/static")) == 404
        assert b"site.css" not in get(port, "/static/")
        assert get(port, "/fr/").endswith(b"accueil")
        assert status(get(port, "/fr")) == 301  # to /fr/, so that the page's relative links work
        assert get(port, "/").endswith(b"home")


def test_a_special_file_in_the_site_is_not_opened(tmp_path):
    import os

    site = site_with_secrets(tmp_path)
    os.mkfifo(site / "pipe.html")
    with serving(site) as (port, _):
        assert status(get(port, "/pipe.html")) == 404


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes `sock` (end of stream or reset) within `seconds`."""
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass  # a 408 or an error page may come first
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    return True


def test_idle_and_half_sent_requests_time_out(tmp_path):
    site = site_with_secrets(tmp_path)
    with serving(site, timeout=0.5) as (port, _):
        idle = socket.create_connection(("127.0.0.1", port))
        half = socket.create_connection(("127.0.0.1", port))
        half.sendall(b"GET /index.html HTTP/1.0\r\nHost: x\r\n")
        start = time.monotonic()
        assert closed_within(idle, 5) and closed_within(half, 5)
        assert time.monotonic() - start < 5
        assert get(port, "/").endswith(b"home")
        idle.close()
        half.close()


def test_a_request_trickled_byte_by_byte_times_out_too(tmp_path):
    site = site_with_secrets(tmp_path)
    with serving(site, timeout=0.6) as (port, _):
        sock = socket.create_connection(("127.0.0.1", port))
        start = time.monotonic()
        try:
            for byte in b"GET /index.html HTTP/1.0\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100:
                sock.sendall(bytes([byte]))
                time.sleep(0.1)
        except OSError:
            pass  # closed by the server, as it should
        assert time.monotonic() - start < 3
        assert closed_within(sock, 2)
        sock.close()


def reset(sock: socket.socket) -> None:
    """Close with a TCP reset (linger 0), as a client that gives up does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def test_client_resets_are_quiet(tmp_path, capfd):
    site = site_with_secrets(tmp_path)
    reported: list[str] = []
    with serving(site, report=reported.append) as (port, _):
        for _ in range(5):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(b"GET /big.bin HTTP/1.0\r\n\r\n")
            sock.recv(1024)
            reset(sock)
            reset(socket.create_connection(("127.0.0.1", port)))
        time.sleep(0.5)
        assert status(get(port, "/")) == 200
    captured = capfd.readouterr()
    assert "Traceback" not in captured.err + captured.out
    assert captured.err == "" and reported == []


def test_connections_are_bounded_and_the_idle_longest_makes_room(tmp_path):
    site = site_with_secrets(tmp_path)
    before = threading.active_count()
    with serving(site, connections=8, timeout=30, idle=30) as (port, _):
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
        time.sleep(0.3)
        assert threading.active_count() <= before + 1 + 8  # the serving thread and 8 connections
        start = time.monotonic()
        assert get(port, "/").endswith(b"home")  # the idle longest was closed for it: no wait
        assert time.monotonic() - start < 2
        assert closed_within(idle[0], 2)
        for sock in idle:
            sock.close()


# Issue 44, item 6: idle sockets starved everyone (70 made a request wait 10 s; 300 during a load, no answer in 30 s).


def test_hundreds_of_idle_sockets_do_not_delay_a_request(tmp_path):
    site = site_with_secrets(tmp_path)
    with serving(site) as (port, _):
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(300)]
        try:
            for _ in range(5):
                start = time.monotonic()
                assert get(port, "/").endswith(b"home")
                # before IDLE (3 s), when a server waiting on idle sockets would first answer; not a speed target (a
                # loaded machine took 1.02 s): bench/bench_serve.py measures the p99 (target under 1 s)
                assert time.monotonic() - start < 2.5
        finally:
            for sock in idle:
                sock.close()


def test_an_idle_connection_is_closed_early_and_deadlines_start_at_accept(tmp_path):
    site = site_with_secrets(tmp_path)
    with serving(site, timeout=3, idle=0.5) as (port, _):
        silent = socket.create_connection(("127.0.0.1", port))
        start = time.monotonic()
        assert closed_within(silent, 3) and time.monotonic() - start < 1.5  # at IDLE, not at the timeout
        slow = socket.create_connection(("127.0.0.1", port))
        slow.sendall(b"GET / HTTP/1.0\r\n")  # begun in time: the whole request still has its deadline
        start = time.monotonic()
        assert closed_within(slow, 6) and 2 < time.monotonic() - start < 4.5
        silent.close()
        slow.close()


@pytest.mark.parametrize(
    "line", [b"GET /\r\n", b"GET / HTTP/0.9\r\n", b"garbage\r\n", b"GET / HTTP/2.0\r\n", b"\x16\x03\x01"]
)
def test_a_malformed_or_http09_request_line_gets_a_400_at_once(tmp_path, line):
    site = site_with_secrets(tmp_path)
    with serving(site) as (port, _), socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        start = time.monotonic()
        sock.sendall(line if line.endswith(b"\n") else line + b"\r\n")
        reply = sock.recv(65536)
        assert reply.startswith(b"HTTP/1.0 400") and time.monotonic() - start < 1, reply[:80]


@pytest.mark.parametrize("path", ["/index.html", "/fr/"])
def test_head_requests_follow_the_same_rules(tmp_path, path):
    site = site_with_secrets(tmp_path)
    with serving(site) as (port, _):
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(f"HEAD {path} HTTP/1.0\r\n\r\n".encode())
            assert sock.recv(65536).startswith(b"HTTP/1.0 200")
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(b"HEAD /.git/config HTTP/1.0\r\n\r\n")
            assert sock.recv(65536).startswith(b"HTTP/1.0 404")


def test_kb_serve_that_cannot_listen_says_why_before_building(tmp_path):
    from click.testing import CliRunner

    from kb.cli import main

    from .conftest import CONTENT

    out = tmp_path / "site"
    args = ["serve", "--content", str(CONTENT), "--out", str(out), "--host", "example.invalid", "--port", "0"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "kb: cannot listen on example.invalid:0" in result.output and "--host" in result.output
    assert "Built" not in result.output and not out.exists()  # nothing built for a server that cannot start
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        busy = CliRunner().invoke(main, ["serve", "--content", str(CONTENT), "--out", str(out), "--port", port])
    assert busy.exit_code == 1 and "try another --port (0: any free port)" in busy.output and not out.exists()


# Issue 41: `/api/v1/search` answers what `kb search --json` prints, from an index opened once, at the first search.


@pytest.fixture(scope="module")
def golden_site(tmp_path_factory):
    """The small bilingual content, its site built."""
    import shutil

    from click.testing import CliRunner

    from kb.cli import main

    from .conftest import CONTENT

    root = tmp_path_factory.mktemp("api")
    content = Path(shutil.copytree(CONTENT.parent / "tests" / "fixtures" / "golden-content", root / "c"))
    result = CliRunner().invoke(main, ["build", "--content", str(content), "--out", str(root / "site")])
    assert result.exit_code == 0, result.output
    return content, root / "site"


def api(port: int, query: str) -> tuple[int, bytes]:
    """Status and body of a GET of the search API."""
    reply = get(port, f"/api/v1/search?{query}")
    head, _, body = reply.partition(b"\r\n\r\n")
    assert b"application/json" in head
    return status(reply), body


@pytest.mark.parametrize(
    ("query", "options"),
    [
        ("q=draw", []),
        ("q=pioche&lang=fr&kind=rule&limit=3", ["--lang", "fr", "--kind", "rule", "--limit", "3"]),
        ("q=120.2", []),
        ("q=%22a+card%22+-library", []),
        ("q=draw&lang=&kind=", []),  # empty filters, as a form's "any" choice sends them: none
    ],
)
def test_the_search_api_answers_what_kb_search_json_prints(golden_site, query, options):
    from urllib.parse import parse_qs

    from click.testing import CliRunner

    from kb.cli import main

    content, site = golden_site
    words = parse_qs(query)["q"][0]
    printed = CliRunner().invoke(main, ["search", words, "--json", "--content", str(content), *options])
    assert printed.exit_code == 0
    with serving(site, content=content) as (port, server):
        assert server.searches._index is None  # opened at the first search, not before
        code, body = api(port, query)
        assert code == 200 and body.decode("utf-8") == printed.stdout
        first = server.searches._index
        assert api(port, query)[1] == body and server.searches._index is first  # once per server


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("", "missing q"),
        ("q=", "missing q"),
        ("lang=fr", "missing q"),
        ("q=draw&lang=xx", "unknown lang"),
        ("q=draw&kind=spell", "unknown kind"),
        ("q=draw&limit=0", "limit"),
        ("q=draw&limit=101", "limit"),
        ("q=draw&limit=ten", "limit"),
        ("q=draw&limit=" + "9" * 5000, "limit"),
        ("q=%22draw", "unbalanced quote"),
        ("q=draw&q=card", "more than once"),
        ("q=" + "a" * 2000, "at most"),
        ("q=%ff", "cannot be read"),
    ],
)
def test_the_search_api_says_what_is_wrong_in_a_json_400(golden_site, query, said):
    import json

    content, site = golden_site
    with serving(site, content=content) as (port, _):
        code, body = api(port, query)
    assert code == 400 and said in json.loads(body)["error"], body


# Issue 44, item 17: `kb serve` checks the site's seal, as `kb build` does (it served a damaged site).


def test_kb_serve_rebuilds_a_site_whose_seal_does_not_hold(golden_site, tmp_path):
    import shutil
    import subprocess
    import sys

    content, built = golden_site
    site = Path(shutil.copytree(built, tmp_path / "site"))
    page = next(site.glob("en/rules/*.html"))
    page.write_text("<p>damaged</p>", encoding="utf-8")
    args = [sys.executable, "-m", "kb", "serve", "--content", str(content), "--out", str(site), "--port", "0"]
    server = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        said = []
        for line in server.stdout:
            said.append(line)
            if line.startswith("Serving"):
                break
    finally:
        server.terminate()
        server.wait(10)
    assert any(line.startswith("Built ") for line in said), said
    assert "damaged" not in page.read_text(encoding="utf-8")
