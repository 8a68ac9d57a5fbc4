"""A rule link as a chat shows it: the OpenGraph tags of a built page drawn as a preview card (the shape Discord and
Slack give an unfurled link: site name, title, description, a coloured edge) and screenshot in headless Chromium.

    .venv/bin/python bench/preview_card.py SITE PAGE [PAGE…] [-o OUT.png] [--width 440]

PAGE is a path under the site (`en/rules/702.html#702.19`; the fragment is ignored, as chats ignore it). Prints
each page's tags, writes the screenshot (one card per page, stacked). Needs Debian's chromium and Playwright.
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
import sys
import tempfile
from pathlib import Path

TAG = re.compile(r'<meta (?:name|property)="([^"]+)" content="([^"]*)"')
CARD = """<div class="card"><div class="site">{site}</div><a class="title" href="#">{title}</a>
<div class="text">{description}</div><div class="url">{url}</div></div>"""
STYLE = """body { margin: 0; padding: 16px; background: #313338; font: 15px/1.35 "DejaVu Sans", sans-serif; }
.card { max-width: 400px; margin: 0 0 16px; padding: 10px 14px 12px; background: #2b2d31; color: #dbdee1;
  border-left: 4px solid #0b5cad; border-radius: 4px; }
.site { font-size: 12px; color: #b5bac1; margin-bottom: 4px; }
.title { display: block; color: #00a8fc; font-weight: 600; text-decoration: none; margin-bottom: 6px; }
.text { font-size: 14px; display: -webkit-box; -webkit-line-clamp: 4; -webkit-box-orient: vertical; overflow: hidden; }
.url { font-size: 11px; color: #949ba4; margin-top: 6px; }"""


def tags(site: Path, page: str) -> dict[str, str]:
    """The page's meta tags by name or property."""
    text = (site / page.split("#", 1)[0]).read_text(encoding="utf-8")
    return {name: html.unescape(value) for name, value in TAG.findall(text)}


def card(found: dict[str, str], page: str) -> str:
    """The card of one page, as a chat draws it from the tags (a chat shows nothing it has no tag for)."""
    shown = {k: html.escape(found.get(k, "")) for k in ("og:site_name", "og:title", "og:description", "og:url")}
    return CARD.format(site=shown["og:site_name"], title=shown["og:title"], description=shown["og:description"],
                       url=shown["og:url"] or html.escape(page))  # fmt: skip


def main() -> int:
    """Print the tags and screenshot the cards."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("pages", nargs="+")
    parser.add_argument("-o", "--out", type=Path, default=Path("preview-card.png"))
    parser.add_argument("--width", type=int, default=440)
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("no chromium: apt-get install chromium", file=sys.stderr)
        return 1
    cards = []
    for page in args.pages:
        found = tags(args.site, page)
        print(page)
        for key in ("og:site_name", "og:title", "og:description", "og:url", "og:locale", "twitter:card"):
            print(f"  {key}: {found.get(key, '(none)')}")
        cards.append(card(found, page))
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as pw:
        sheet = Path(folder) / "cards.html"
        sheet.write_text(f"<!DOCTYPE html><meta charset='utf-8'><style>{STYLE}</style>{''.join(cards)}", "utf-8")
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-background-networking"])
        view = browser.new_page(viewport={"width": args.width, "height": 200})
        view.goto(sheet.as_uri())
        view.screenshot(path=str(args.out), full_page=True)
        browser.close()
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
