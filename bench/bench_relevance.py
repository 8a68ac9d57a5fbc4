"""Relevance benchmark: hit@1, hit@3, hit@10 and MRR of `kb search`, of the site's search in headless Chromium, and
of the FTS5 BM25 baseline over the same records, computed in one run, per half and language.

Run: `python bench/bench_relevance.py [--content DIR] [--content-2015 DIR] [--no-site] [--misses]`.
The questions are bench/relevance/questions.json (see bench/relevance/README.md); the content folders default to
/tmp/relcontent and /tmp/rel2015/content and are made from the corpus and the bundled content when missing.
The site is built from each content folder, served on 127.0.0.1 and queried through its search page (Debian
chromium driven by Playwright), as a reader would: type, press Enter, read the results or the page jumped to.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "relevance"))

from score import fts5_ranker, kb_ranker, load_questions, misses, result_ids, score, table  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
DEFAULTS = {None: Path("/tmp/relcontent"), "2015-09-26": Path("/tmp/rel2015/content")}
ANSWERED = "q => !location.pathname.endsWith('/search.html') || document.getElementById('results').dataset.query === q"
"""The search page answered a question: it jumped to a page, or its results are this question's."""


def make_content(edition: str | None, folder: Path) -> Path:
    """The benchmark's content folder, copied from the corpus and the bundled French files when missing."""
    if folder.is_dir():
        return folder
    (folder / "en").mkdir(parents=True)
    if edition == "2015-09-26":
        shutil.copy(CORPUS / "cr-en-20150926.txt", folder / "en" / "cr-en-20150926.txt")
        return folder
    shutil.copy(CORPUS / "cr-en-20260116.txt", folder / "en" / "cr-en-20260116.txt")
    shutil.copy(CORPUS / "mtgjson3-DIS.json", folder / "en" / "cards-dissension-mtgjson.json")
    (folder / "fr").mkdir()
    french = ("cr-120-piocher-une-carte.txt", "cr-703-actions-obligatoires-du-tour.txt", "faq-discorde-2006.txt")
    for name in (*french, "lexique-cartes-mtgjson5.json"):
        shutil.copy(ROOT / "content" / "fr" / name, folder / "fr" / name)
    return folder


def add_lexicon(folder: Path) -> Path:
    """Copy the bundled lexicon and vocabulary tables (terminology, paraphrases) into a content folder made before
    the benchmark read them (and again when they changed)."""
    lexicon = ROOT / "content" / "fr" / "lexique-cartes-mtgjson5.json"
    if (folder / "fr").is_dir() and not (folder / "fr" / lexicon.name).exists():
        shutil.copy(lexicon, folder / "fr" / lexicon.name)
    for vocabulary in (ROOT / "content").glob("*/*.tsv"):
        mine = folder / vocabulary.parent.name / vocabulary.name
        if mine.parent.is_dir() and (not mine.exists() or mine.read_bytes() != vocabulary.read_bytes()):
            shutil.copy(vocabulary, mine)
    return folder


class Site:
    """A built site served on 127.0.0.1, searched through its search page in one Chromium tab."""

    def __init__(self, content: Path, workdir: Path, browser) -> None:
        from kb.link.load import load
        from kb.search.build import engine_of
        from kb.site.serve import make_server, url_of
        from kb.site.write import build_site

        kb = load(content)
        out = workdir / f"site-{content.parent.name}-{content.name}"
        build_site(kb, out)
        self.ids = _result_ids(engine_of([e for e in _entries(kb) if e.current]))
        from kb.search.query import KINDS

        runs = json.loads((out / "search" / "core.json").read_text("utf-8"))["kinds"]  # [[kind, how many], …]
        kinds = [KINDS[k] for k, count in runs for _ in range(count)]
        chunks = sorted((out / "search").glob("docs-*.json"), key=lambda p: int(p.stem.split("-")[1]))
        docs = [d for p in chunks for d in json.loads(p.read_text(encoding="utf-8"))]
        pages = zip(kinds, (d[0] for d in docs), (d[1] for d in docs), strict=True)
        self.pages = {url: (kind, key) for kind, key, url in pages if kind in ("rule", "card")}  # jump targets
        self.server = make_server(out, port=0)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = url_of(self.server)
        self.page = browser.new_page()
        self.times: list[float] = []

    def close(self) -> None:
        """Stop serving."""
        self.page.close()
        self.server.shutdown()
        self.server.server_close()

    def rank(self, lang: str):
        """A ranker asking the search page of the `lang` interface."""

        def ask(question: str) -> list[tuple[str, ...]]:
            page = self.page
            if not page.url.endswith(f"/{lang}/search.html") and f"/{lang}/search.html?" not in page.url:
                page.goto(f"{self.base}{lang}/search.html")
            start = time.perf_counter()
            page.fill("#q", question)
            page.press("#q", "Enter")
            page.wait_for_function(ANSWERED, arg=question)
            self.times.append(time.perf_counter() - start)
            if not page.url.split("?")[0].endswith("/search.html"):  # jumped to a rule or a card
                return [self._jumped(page.url)]
            found = page.locator("#results > li[data-id]").evaluate_all(
                "els => els.map(e => [e.dataset.kind, e.dataset.id])"
            )
            return [self.ids.get((kind, key), ()) for kind, key in found][:10]

        return ask

    def _jumped(self, url: str) -> tuple[str, ...]:
        """Benchmark ids of the page a query jumped to."""
        path = url.split(self.base, 1)[1].split("/", 1)[1]
        page, _, anchor = path.partition("#")
        if page.startswith("rules/"):
            number = anchor or page[len("rules/") : -len(".html")]
            return self.ids.get(("rule", number), ())
        return self.ids.get(self.pages.get(page, ("", "")), ())


def _entries(kb):
    from kb.search.entries import entries

    return entries(kb)


def _result_ids(index) -> dict[tuple[str, str], tuple[str, ...]]:
    """(kind, id) -> benchmark ids of every document of an index."""
    found = {}
    for d in range(index.n):
        result = index.result_of(d).to_json()
        found[(result["kind"], result["id"])] = result_ids(result)
    return found


def main(argv: list[str] | None = None) -> None:
    """Print the kb / site / FTS5 table for both halves, per language."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--content", type=Path, default=DEFAULTS[None], help="content for 2026 and French questions")
    parser.add_argument("--content-2015", type=Path, default=DEFAULTS["2015-09-26"], help="content for 2015 questions")
    parser.add_argument("--no-site", action="store_true", help="leave the site out (no Chromium)")
    parser.add_argument("--misses", action="store_true", help="also list kb's questions below rank 1")
    args = parser.parse_args(argv)
    folders = {
        None: add_lexicon(make_content(None, args.content)),
        "2015-09-26": make_content("2015-09-26", args.content_2015),
    }
    questions = load_questions()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        results = {
            "kb": score(questions, {ed: kb_ranker(folder) for ed, folder in folders.items()}),
            "fts5": score(questions, {ed: fts5_ranker(folder, work) for ed, folder in folders.items()}),
        }
        if not args.no_site:
            results["site"], times = _site_scores(questions, folders, work)
    print(table(results))
    if not args.no_site:
        print(f"\nsite: median {statistics.median(times) * 1000:.0f} ms from Enter to results, in Chromium")
    if args.misses:
        print("\nkb below rank 1 (rank per ranker, '-' = not in the top 10):")
        print(misses(questions, results))
        if "site" in results:
            print("\nsite and kb disagree:")
            print(misses([q for q in questions if _differ(q, results)], results, "site"))


def _differ(question: dict, results: dict) -> bool:
    """Whether the site ranks a question's first answer elsewhere than kb does."""
    return results["site"]["ranks"][question["id"]] != results["kb"]["ranks"][question["id"]]


def _site_scores(questions: list[dict], folders: dict, work: Path) -> tuple[dict, list[float]]:
    """Score the site's search page in headless Chromium: each question in the site of its edition, in the
    interface of its language."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("chromium is not installed (apt-get install chromium), or pass --no-site")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-background-networking"])
        sites = {ed: Site(folder, work, browser) for ed, folder in folders.items()}
        try:
            rankers = {}
            for ed, site in sites.items():
                mine = [q for q in questions if (q["edition"] if q["edition"] in sites else None) == ed]
                lang_of = {q["q"]: q["lang"] for q in mine}
                asks = {lang: site.rank(lang) for lang in ("fr", "en")}
                rankers[ed] = lambda text, asks=asks, lang_of=lang_of: asks[lang_of[text]](text)
            found = score(questions, rankers)
        finally:
            for site in sites.values():
                site.close()
            browser.close()
    return found, [t for site in sites.values() for t in site.times]


if __name__ == "__main__":
    main()
