"""Serve a built site over HTTP, on 127.0.0.1 unless told otherwise, never outside the site folder."""

from __future__ import annotations

import functools
import os
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

DEFAULT_HOST = "127.0.0.1"


class QuietHandler(SimpleHTTPRequestHandler):
    """Static files from the site folder: `..` is dropped and a symlink leading out of the folder is a 404."""

    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".json": "application/json",
        ".wasm": "application/wasm",
    }

    def send_head(self):
        """Refuse (404) any path whose real location, symlinks resolved, is outside the site folder."""
        path = self.translate_path(self.path)
        if os.path.isdir(path) and os.path.exists(os.path.join(path, "index.html")):
            path = os.path.join(path, "index.html")  # what the parent class would send
        if not inside(path, self.directory):
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        return super().send_head()

    def log_message(self, format: str, *args: object) -> None:
        """Keep the terminal quiet: only the CLI prints."""


def inside(path: str, folder: str) -> bool:
    """Whether `path`, every symlink resolved, is `folder` or lies under it (`folder` already resolved)."""
    real = os.path.realpath(path)
    return real == folder or real.startswith(folder.rstrip(os.sep) + os.sep)


def make_server(site: Path, host: str = DEFAULT_HOST, port: int = 8000) -> ThreadingHTTPServer:
    """An HTTP server for the site folder (port 0 picks a free port)."""
    handler = functools.partial(QuietHandler, directory=str(Path(site).resolve()))
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def url_of(server: ThreadingHTTPServer) -> str:
    """The address to open in a browser."""
    host, port = server.server_address[:2]
    return f"http://{host}:{port}/"
