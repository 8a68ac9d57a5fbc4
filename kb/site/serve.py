"""Serve a built site over HTTP, on 127.0.0.1 unless told otherwise, never outside the site folder."""

from __future__ import annotations

import functools
import os
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

DEFAULT_HOST = "127.0.0.1"
NOT_FOUND = "404.html"
"""The page the site shows for an address it does not have (written by `kb build`)."""


class QuietHandler(SimpleHTTPRequestHandler):
    """Static files from the site folder: `..` is dropped and a symlink leading out of the folder is a 404."""

    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".json": "application/json",
        ".wasm": "application/wasm",
    }

    def send_head(self):
        """Refuse (404) any path whose real location, symlinks resolved, is outside the site folder; 400 a bad one."""
        try:
            path = self.translate_path(self.path)
            if "\0" in path:
                raise ValueError("NUL in the path")
            if os.path.isdir(path) and os.path.exists(os.path.join(path, "index.html")):
                path = os.path.join(path, "index.html")  # what the parent class would send
            outside = not inside(path, self.directory)
        except (ValueError, OSError):  # a path no file can have: a NUL byte, a name too long for the system
            self.send_error(HTTPStatus.BAD_REQUEST, None, "The path cannot name a file.")
            return None
        if outside:
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        return super().send_head()

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


def inside(path: str, folder: str) -> bool:
    """Whether `path`, every symlink resolved, is `folder` or lies under it (`folder` already resolved)."""
    real = os.path.realpath(path)
    return real == folder or real.startswith(folder.rstrip(os.sep) + os.sep)


class SiteServer(ThreadingHTTPServer):
    """One thread per request, with a listen backlog sized for a page's burst of requests (5 by default)."""

    request_queue_size = 128
    daemon_threads = True


def make_server(site: Path, host: str = DEFAULT_HOST, port: int = 8000) -> ThreadingHTTPServer:
    """An HTTP server for the site folder (port 0 picks a free port)."""
    handler = functools.partial(QuietHandler, directory=str(Path(site).resolve()))
    return SiteServer((host, port), handler)


def url_of(server: ThreadingHTTPServer) -> str:
    """The address to open in a browser."""
    host, port = server.server_address[:2]
    return f"http://{host}:{port}/"
