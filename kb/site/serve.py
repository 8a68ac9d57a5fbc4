"""Serve a built site over HTTP, on 127.0.0.1 unless told otherwise, never outside the site folder.

A careful static server: no dot-file or dot-folder (`.git`, `.kb`) at any depth, no folder listing, no special
file opened (a FIFO would hold a worker), a read timeout for idle and half-sent requests, silence when a client
resets its connection, and a bounded number of workers (the other connections wait in the listen backlog).
"""

from __future__ import annotations

import functools
import io
import os
import socket
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from http.server import HTTPServer, SimpleHTTPRequestHandler
from pathlib import Path

DEFAULT_HOST = "127.0.0.1"
NOT_FOUND = "404.html"
"""The page the site shows for an address it does not have (written by `kb build`)."""
WORKERS = 64
"""Requests answered at once; more than a browser opens, so that a few idle sockets do not stall a page."""
TIMEOUT = 10.0
"""Seconds for a request to arrive whole (else its connection is closed), and for each write of the reply."""


class QuietHandler(SimpleHTTPRequestHandler):
    """Static files from the site folder: `..` is dropped, and a dot-name, a symlink leading out of the folder, a
    folder without `index.html` and a special file are a 404."""

    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".json": "application/json",
        ".wasm": "application/wasm",
    }

    def setup(self) -> None:
        """Give the connection the server's timeout: the whole request must arrive within it, each write too."""
        self.timeout = getattr(self.server, "request_timeout", TIMEOUT)
        super().setup()
        self.rfile.close()  # the parent's reader, replaced by one that keeps the deadline
        self.rfile = io.BufferedReader(_Deadline(self.connection, self.timeout))

    def parse_request(self) -> bool:
        """Read the headers (before the deadline), then give the reply's writes the full timeout again."""
        parsed = super().parse_request()
        self.connection.settimeout(self.timeout)
        return parsed

    def send_head(self):
        """Refuse (404) what the site does not publish; 400 a path no file can have; else what the parent sends."""
        try:
            path = self.translate_path(self.path)
            if "\0" in path:
                raise ValueError("NUL in the path")
            published = servable(path, self.directory)
        except (ValueError, OSError):  # a path no file can have: a NUL byte, a name too long for the system
            self.send_error(HTTPStatus.BAD_REQUEST, None, "The path cannot name a file.")
            return None
        if not published:
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        return super().send_head()

    def list_directory(self, path):
        """Never list a folder (`servable` already refuses one without `index.html`)."""
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """A missing page gets the site's own `404.html` (it chooses its language), when the site has one."""
        page = os.path.join(self.directory, NOT_FOUND)
        if code != HTTPStatus.NOT_FOUND or not os.path.isfile(page):
            super().send_error(code, message, explain)
            return
        with open(page, "rb") as f:
            body = f.read()
        self.send_response(code, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Keep the terminal quiet: only the CLI prints."""


class _Deadline(io.RawIOBase):
    """A socket's reading end that gives up at a deadline, however slowly the bytes trickle in (a timeout per read
    alone lets a client hold a worker forever with a byte every few seconds)."""

    def __init__(self, sock: socket.socket, seconds: float) -> None:
        super().__init__()
        self._sock = sock
        self._deadline = time.monotonic() + seconds

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request did not arrive in time")
        self._sock.settimeout(left)
        return self._sock.recv_into(buffer)


def servable(path: str, folder: str) -> bool:
    """Whether the site publishes `path`: a regular file (or a folder's `index.html`) inside `folder`, with no
    dot-name on the way, before or after its symlinks are resolved (`folder` already resolved)."""
    if os.path.isdir(path):
        path = os.path.join(path, "index.html")  # what the parent class sends for a folder
    real = os.path.realpath(path)
    if not inside(real, folder) or not os.path.isfile(real):  # isfile: a FIFO or a device is never opened
        return False
    names = (*os.path.relpath(path, folder).split(os.sep), *os.path.relpath(real, folder).split(os.sep))
    return not any(name.startswith(".") for name in names)


def inside(path: str, folder: str) -> bool:
    """Whether `path`, every symlink resolved, is `folder` or lies under it (`folder` already resolved)."""
    real = os.path.realpath(path)
    return real == folder or real.startswith(folder.rstrip(os.sep) + os.sep)


class SiteServer(HTTPServer):
    """Requests answered by a pool of `workers` (`concurrent.futures`); past that, accepted connections wait their
    turn. A pool is what a server needs: one idle or slow client must not hold every other one (`bench_serve.py`).

    A request that does not arrive within `request_timeout` seconds is dropped. A client that resets its
    connection or stops reading is no error of the server's: nothing is said; any other failure is one line
    given to `report` (the CLI prints it).
    """

    request_queue_size = 1024  # past the backlog a connection is dropped, and its client retries after 1 s, then 3 s

    def __init__(
        self,
        address: tuple[str, int],
        handler: Callable,
        workers: int = WORKERS,
        timeout: float = TIMEOUT,
        report: Callable[[str], None] | None = None,
    ) -> None:
        self.request_timeout = timeout
        self.report = report or (lambda message: None)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="kb-serve")
        super().__init__(address, handler)

    def process_request(self, request, client_address) -> None:
        """Hand the connection to the pool."""
        self._pool.submit(self._answer, request, client_address)

    def _answer(self, request, client_address) -> None:
        """Answer one connection in a worker."""
        try:
            self.finish_request(request, client_address)
        except Exception:
            self.handle_error(request, client_address)
        finally:
            self.shutdown_request(request)

    def server_close(self) -> None:
        """Stop listening; connections not begun are dropped, those begun end within the request timeout."""
        super().server_close()
        self._pool.shutdown(wait=False, cancel_futures=True)

    def handle_error(self, request, client_address) -> None:
        """Say nothing of a client that went away or fell silent; one line for anything else."""
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError | TimeoutError):
            return
        self.report(f"error answering {client_address[0]}: {type(error).__name__}: {error}")


def make_server(
    site: Path,
    host: str = DEFAULT_HOST,
    port: int = 8000,
    workers: int = WORKERS,
    timeout: float = TIMEOUT,
    report: Callable[[str], None] | None = None,
) -> HTTPServer:
    """An HTTP server for the site folder (port 0 picks a free port); `report` receives its failures, one line
    each."""
    handler = functools.partial(QuietHandler, directory=str(Path(site).resolve()))
    return SiteServer((host, port), handler, workers, timeout, report)


def url_of(server: HTTPServer) -> str:
    """The address to open in a browser."""
    host, port = server.server_address[:2]
    return f"http://{host}:{port}/"
