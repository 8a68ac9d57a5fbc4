"""Serve a built site over HTTP, on 127.0.0.1 unless told otherwise, never outside the site folder."""

from __future__ import annotations

import functools
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

DEFAULT_HOST = "127.0.0.1"


class QuietHandler(SimpleHTTPRequestHandler):
    """Static files from the site folder; `translate_path` drops `..` so no path escapes it."""

    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".json": "application/json",
        ".wasm": "application/wasm",
    }

    def log_message(self, format: str, *args: object) -> None:
        """Keep the terminal quiet: only the CLI prints."""


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
