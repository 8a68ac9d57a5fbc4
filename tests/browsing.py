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
    from kb.site.serve import make_server

    with serving(make_server(site, port=0)) as url:
        yield url + "/"


@contextmanager
def serving(server) -> Iterator[str]:
    """Run an HTTP server listening on 127.0.0.1 on a thread while in the block; its base url (no slash after the
    port), the server closed after."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
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


AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
"""axe-core, vendored."""


def guarded_context(browser, base_url: str, width: int = 1280, scheme: str = "light", locale: str | None = None):
    """A fresh browser context (fresh storage) recording, in `outside` and `errors`, any request leaving the site
    (aborted) and any JavaScript error of its pages (`guard` a page to record them)."""
    options = {"locale": locale} if locale else {}
    context = browser.new_context(
        viewport={"width": width, "height": 900 if width > 700 else 780}, color_scheme=scheme, **options
    )
    context.outside, context.errors = [], []
    context.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith(base_url)
            else (context.outside.append(route.request.url), route.abort())
        ),
    )
    return context


def guard(context, page):
    """Record the JavaScript errors of a page of a `guarded_context`; return the page."""
    page.on("pageerror", lambda err: context.errors.append(str(err)))
    return page


@contextmanager
def guarded_page(browser, base_url: str, **options) -> Iterator:
    """A page of a fresh `guarded_context`; on leaving the block, fail on a request that left the site or a
    JavaScript error."""
    context = guarded_context(browser, base_url, **options)
    try:
        yield guard(context, context.new_page())
    finally:
        context.close()
    assert context.outside == [], "requests left the site"
    assert context.errors == [], "JavaScript errors"


def axe_violations(page) -> list:
    """The serious and critical axe-core violations of the open page: (rule, impact, first targets)."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
