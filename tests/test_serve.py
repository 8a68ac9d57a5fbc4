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


def test_workers_are_bounded_and_the_rest_wait_in_the_backlog(tmp_path):
    site = site_with_secrets(tmp_path)
    before = threading.active_count()
    with serving(site, workers=4, timeout=1) as (port, server):
        assert server.request_queue_size >= 128
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(12)]
        time.sleep(0.3)
        assert threading.active_count() <= before + 1 + 4  # the serving thread and 4 workers
        start = time.monotonic()
        assert get(port, "/").endswith(b"home")  # answered once the idle ones time out
        assert time.monotonic() - start < 8
        for sock in idle:
            sock.close()


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
