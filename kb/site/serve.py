"""Serve a built site over HTTP, on 127.0.0.1 unless told otherwise, never outside the site folder.

The standard library's threading server (`http.server.ThreadingHTTPServer`: a thread per connection), made careful:
no dot-file or dot-folder (`.git`, `.kb`) at any depth, no folder listing, no special file opened (a FIFO would hold
a thread), a bounded number of connections (past it, the one idle longest is closed, else the new one is refused),
deadlines that start when a connection is accepted (a connection idle for IDLE seconds is closed, a request must
arrive whole within TIMEOUT), a 400 at once for a malformed or HTTP/0.9 request line, silence when a client resets
its connection. `/api/v1/search` answers what `kb search --json` prints (`kb.site.api`).
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
import socket
import sys
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from kb.site.api import API_PATH, Searches, answer
from kb.sources.bounded import read_regular

DEFAULT_HOST = "127.0.0.1"
NOT_FOUND = "404.html"
"""The page the site shows for an address it does not have (written by `kb build`)."""
CONNECTIONS = 1024
"""Connections open at once (one thread each); past it, the one idle longest is closed for the new one."""
TIMEOUT = 10.0
"""Seconds, from its acceptance, for a request to arrive whole (else its connection is closed); and for each write
of the reply."""
IDLE = 3.0
"""Seconds, from its acceptance, for a connection to send the first byte of its request (else it is closed)."""
MAX_PAGE = 16 << 20
"""Largest `404.html` served."""
REQUEST_LINE = re.compile(r"[A-Z]+ \S+ HTTP/1\.[01]")
"""What a request line must be: a method, a path, HTTP/1.0 or 1.1 (an HTTP/0.9 line has no version and no headers
follow it: the parent class would wait for them)."""


class QuietHandler(SimpleHTTPRequestHandler):
    """Static files from the site folder: `..` is dropped, and a dot-name, a symlink leading out of the folder, a
    folder without `index.html` and a special file are a 404; `/api/v1/search` is the search's JSON."""

    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".json": "application/json",
        ".wasm": "application/wasm",
    }

    def setup(self) -> None:
        """Give the connection its deadlines, counted from its acceptance: a first byte within IDLE seconds, the whole
        request within the server's timeout; each write of the reply within the timeout too."""
        self.timeout = getattr(self.server, "request_timeout", TIMEOUT)
        super().setup()
        accepted, idle = self.server.accepted(self.request)
        self.rfile.close()  # the parent's reader, replaced by one that keeps the deadlines
        self.rfile = io.BufferedReader(_Deadline(self.connection, accepted, self.timeout, idle, self.server))

    def parse_request(self) -> bool:
        """Refuse a malformed or HTTP/0.9 request line at once (400); read the headers (before the deadline), then
        give the reply's writes the full timeout again."""
        line = str(self.raw_requestline, "iso-8859-1").rstrip("\r\n")
        if not REQUEST_LINE.fullmatch(line):
            self.requestline, self.request_version, self.command = line[:200], "HTTP/1.0", None
            self.close_connection = True
            self.send_error(HTTPStatus.BAD_REQUEST, "Bad request line")
            return False
        parsed = super().parse_request()
        self.connection.settimeout(self.timeout)
        return parsed

    def do_GET(self) -> None:
        """The search's JSON at API_PATH, else a file."""
        if self.path.split("?", 1)[0] == API_PATH:
            status, body = answer(self.path, self.server.searches)
            self._send(status, "application/json; charset=utf-8", body, "no-store")
            return
        super().do_GET()

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
        try:
            body = read_regular(os.path.join(self.directory, NOT_FOUND), MAX_PAGE) if code == 404 else None
        except OSError:
            body = None
        if body is None:
            super().send_error(code, message, explain)
            return
        self._send(code, "text/html; charset=utf-8", body)

    def _send(self, code: int, kind: str, body: bytes, cache: str | None = None) -> None:
        """A whole reply (no body for HEAD)."""
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        if cache:
            self.send_header("Cache-Control", cache)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Keep the terminal quiet: only the CLI prints."""


class _Deadline(io.RawIOBase):
    """A socket's reading end that gives up at its deadlines, however slowly the bytes trickle in (a timeout per read
    alone lets a client hold a connection forever with a byte every few seconds): the first byte by `idle` seconds
    after the connection was accepted, the whole request by `seconds`."""

    def __init__(self, sock: socket.socket, accepted: float, seconds: float, idle: float, server: SiteServer) -> None:
        super().__init__()
        self._sock = sock
        self._first = accepted + min(idle, seconds)
        self._deadline = accepted + seconds
        self._server = server
        self._started = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        left = (self._deadline if self._started else self._first) - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request did not arrive in time")
        self._sock.settimeout(left)
        got = self._sock.recv_into(buffer)
        if got and not self._started:
            self._started = True
            self._server.busy(self._sock)
        return got


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


class SiteServer(ThreadingHTTPServer):
    """The threading server with a bound on its connections, counted from their acceptance.

    Each open connection is noted with the time it was accepted, and as idle until its first byte comes; past
    `connections` open ones, the one idle longest is closed for the new one (an idle socket costs a thread, not a
    place), else the new one is refused. A client that resets its connection or stops reading is no error of the
    server's: nothing is said; any other failure is one line given to `report` (the CLI prints it). The dictionaries
    are changed by one call each, which the interpreter makes whole: no lock is needed.
    """

    daemon_threads = True
    block_on_close = False  # closing waits for no connection: each ends by its deadline
    request_queue_size = 1024  # past the backlog a connection is dropped, and its client retries after 1 s, then 3 s

    def __init__(
        self,
        address: tuple[str, int],
        handler: Callable,
        connections: int = CONNECTIONS,
        timeout: float = TIMEOUT,
        report: Callable[[str], None] | None = None,
        idle: float = IDLE,
        searches: Searches | None = None,
    ) -> None:
        self.request_timeout = timeout
        self.idle = idle
        self.connections = connections
        self.report = report or (lambda message: None)
        self.searches = searches or Searches(None)
        self._open: dict[socket.socket, float] = {}
        self._idle: dict[socket.socket, float] = {}
        super().__init__(address, handler)

    def process_request(self, request, client_address) -> None:
        """Note the connection's acceptance and start its thread, making room for it first."""
        if len(self._open) >= self.connections and not self._evict():
            self._refuse(request)
            return
        now = time.monotonic()
        self._open[request] = now
        self._idle[request] = now
        super().process_request(request, client_address)

    def process_request_thread(self, request, client_address) -> None:
        """Answer one connection in its thread, then forget it."""
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._idle.pop(request, None)
            self._open.pop(request, None)

    def accepted(self, request) -> tuple[float, float]:
        """When a connection was accepted, and how long it may stay idle."""
        return self._open.get(request, time.monotonic()), self.idle

    def busy(self, request) -> None:
        """A connection sent its first byte: it is no longer idle."""
        self._idle.pop(request, None)

    def _evict(self) -> bool:
        """Close the connection idle longest (its thread then ends); whether there was one."""
        waiting = list(self._idle.items())  # a copy made in one call
        if not waiting:
            return False
        oldest = min(waiting, key=lambda item: item[1])[0]
        self._idle.pop(oldest, None)
        with contextlib.suppress(OSError):
            oldest.shutdown(socket.SHUT_RDWR)  # its thread's read returns at once
        return True

    def _refuse(self, request) -> None:
        """Tell a connection there is no room (503), without waiting for it."""
        with contextlib.suppress(OSError):
            request.setblocking(False)
            request.send(b"HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\nRetry-After: 1\r\n\r\n")
        self.shutdown_request(request)

    def server_close(self) -> None:
        """Stop listening and searching; open connections end by their deadlines."""
        super().server_close()
        self.searches.close()

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
    connections: int = CONNECTIONS,
    timeout: float = TIMEOUT,
    report: Callable[[str], None] | None = None,
    idle: float = IDLE,
    content: Path | None = None,
) -> ThreadingHTTPServer:
    """An HTTP server for the site folder (port 0 picks a free port); `report` receives its failures, one line
    each; `content`: the content folder the site was built from, whose index `/api/v1/search` searches."""
    handler = functools.partial(QuietHandler, directory=str(Path(site).resolve()))
    return SiteServer((host, port), handler, connections, timeout, report, idle, Searches(content))


def url_of(server: ThreadingHTTPServer) -> str:
    """The address to open in a browser."""
    host, port = server.server_address[:2]
    return f"http://{host}:{port}/"
