"""What the browser tests share: a built site served on 127.0.0.1, and headless Debian Chromium."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
"""Debian's Chromium (never a downloaded browser build); None when it is not installed."""


@contextmanager
def served(site: Path) -> Iterator[str]:
    """Serve a built site with `kb serve`'s server on 127.0.0.1 (a free port) while in the block; its base url."""
    from kb.site.serve import make_server, url_of

    server = make_server(site, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield url_of(server)
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def chromium(sync_api) -> Iterator:
    """Headless Debian Chromium, no network beyond 127.0.0.1 (`sync_api`: Playwright's, imported by the caller)."""
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-background-networking"])
        try:
            yield browser
        finally:
            browser.close()
