"""Build the static site: gather the data, render every page with Jinja2, index it with Pagefind, swap it in.

The site is written into a new sibling folder and swapped in only when complete, so a failed build
leaves the previous site untouched.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from kb import render
from kb.base import KnowledgeBase
from kb.paths import PROJECT
from kb.sitedata import SiteData, card_name, coverage, faq_cards, faq_notes, gather, jump_map, ordered_langs, rulings_of

TEMPLATES = PROJECT / "templates"
STAMP = "kb-site.json"
SEARCH_SRC = "index-src"


class SiteError(Exception):
    """The site could not be built; the message says why in one line."""


@dataclass(frozen=True, slots=True)
class BuildReport:
    """What a build wrote."""

    out: Path
    pages: int
    seconds: float
    search: bool


@dataclass(frozen=True, slots=True)
class Job:
    """One file to render."""

    path: str
    template: str
    context: dict


class _NoBar:
    """Stands in for a progress bar when none is wanted."""

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int) -> None:
        """Ignore progress."""


def environment() -> Environment:
    """The Jinja2 environment: `.html` templates autoescaped, undefined names are errors."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "xml"]),
        undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
    )  # fmt: skip
    env.globals.update(
        lang_name=render.lang_name, gap_label=render.gap_label, mana_cost=render.mana_cost,
        with_symbols=render.with_symbols, markdown=render.markdown, card_name=card_name, fold=render.fold,
        ordered_langs=ordered_langs,
    )  # fmt: skip
    return env


def site_hash(out: Path) -> str | None:
    """The content hash a built site was made from, or None when there is no readable site."""
    try:
        return json.loads((out / STAMP).read_text(encoding="utf-8"))["content_hash"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def build_site(kb: KnowledgeBase, out: Path, progress: Callable | None = None, search: bool = True) -> BuildReport:
    """Render the whole site into `out`, atomically; raise SiteError (previous site untouched) on failure."""
    start = time.perf_counter()
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise SiteError(f"{out} exists and is not a folder; pass another --out")
    new = out.parent / f".{out.name}.new-{os.getpid()}"
    try:
        data = gather(kb)
        jobs = plan(data)
        langs = search_langs(data) if search else []
        bar = progress(length=len(jobs) + len(langs)) if progress else _NoBar()
        with bar:
            write_pages(data, jobs, new, bar)
            for lang in langs:
                run_pagefind(new, lang)
                bar.update(1)
        _swap(new, out)
    except SiteError:
        shutil.rmtree(new, ignore_errors=True)
        raise
    except Exception as err:  # a failed build must say why in one line and leave the old site alone
        shutil.rmtree(new, ignore_errors=True)
        raise SiteError(f"site not built ({type(err).__name__}: {err}); the previous site is untouched") from err
    return BuildReport(out, len(jobs), time.perf_counter() - start, bool(langs))


def write_pages(data: SiteData, jobs: list[Job], new: Path, bar) -> None:
    """Render every job into the new folder, copy the static files, write the stamp and jump map."""
    if new.exists():
        shutil.rmtree(new)
    new.mkdir(parents=True)
    env = environment()
    for job in jobs:
        target = new / job.path
        target.parent.mkdir(parents=True, exist_ok=True)
        root = "../" * job.path.count("/")
        linker = render.Linker(root, data.anchors, data.texts)
        html = env.get_template(job.template).render(**job.context, root=root, ln=linker, data=data, kb=data.kb)
        target.write_text(html, encoding="utf-8")
        bar.update(1)
    shutil.copytree(TEMPLATES / "static", new / "static")
    (new / "jump.json").write_text(json.dumps(jump_map(data), ensure_ascii=False, sort_keys=True), encoding="utf-8")
    stamp = {"content_hash": data.kb.content_hash, "langs": data.langs}
    (new / STAMP).write_text(json.dumps(stamp, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def _swap(new: Path, out: Path) -> None:
    """Move the new site in place of the old one, then delete the old one."""
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    if out.exists():
        out.rename(old)
    try:
        new.rename(out)
    except OSError:
        if old.exists():
            old.rename(out)
        raise
    shutil.rmtree(old, ignore_errors=True)


def search_langs(data: SiteData) -> list[str]:
    """Languages that get a search index (one Pagefind bundle each)."""
    found = set(data.langs) | {r.lang for r in data.kb.rulings} | {n.lang for n in data.kb.notes}
    found |= {lang for c in data.kb.cards for lang in c.names}
    return ordered_langs(list(found))


def run_pagefind(site: Path, lang: str) -> None:
    """Index the language's search sources into `pagefind-<lang>/`."""
    if not (site / SEARCH_SRC / lang).is_dir():
        return
    command = [sys.executable, "-m", "pagefind", "--site", str(site), "--glob", f"{SEARCH_SRC}/{lang}/**/*.html",
               "--output-subdir", f"pagefind-{lang}", "--force-language", lang, "--silent"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not (site / f"pagefind-{lang}" / "pagefind.js").exists():
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise SiteError(f"pagefind failed for {lang}: {detail[-1] if detail else 'no output'}")


def plan(data: SiteData) -> list[Job]:
    """Every page of the site, with its template and context."""
    jobs = [
        Job("index.html", "home.html", {"title": "", "current": "home"}),
        Job("contents.html", "contents.html", {"title": "Sommaire · Contents", "current": "contents"}),
        Job("glossary.html", "glossary.html", {"title": "Glossaire · Glossary", "current": "glossary"}),
        Job("cards.html", "cards.html", {"title": "Cartes · Cards", "current": "cards", "index": card_index(data)}),
        Job(
            "report.html",
            "report.html",
            {"title": "Translation report", "current": "report", "coverage": coverage(data)},
        ),
        Job(
            "search.html",
            "search.html",
            {"title": "Recherche · Search", "current": "search", "search_langs": search_langs(data)},
        ),
    ]
    pages = data.rule_pages
    for i, page in enumerate(pages):
        nav = {"prev": pages[i - 1] if i else None, "next": pages[i + 1] if i + 1 < len(pages) else None}
        title = " · ".join([page.head, *(page.titles[lang] for lang in data.langs if lang in page.titles)])
        jobs.append(Job(page.path, "rule.html", {"title": title, "current": "contents", "page": page, **nav}))
    for info in data.kb.faqs:
        notes = faq_notes(data.kb, info)
        cards = faq_cards(data.kb, info, {n.id for n in notes})
        ctx = {"title": info.title or info.document, "current": "faq", "info": info, "notes": notes, "cards": cards}
        jobs.append(Job(data.faq_path[info.document], "faq.html", ctx))
    for card in data.kb.cards:
        ctx = {"title": " · ".join(dict.fromkeys(card.names.values())) or card.id, "current": "cards", "card": card,
               "groups": rulings_of(data.kb, card)}  # fmt: skip
        jobs.append(Job(data.card_path[card.id], "card.html", ctx))
    jobs += search_jobs(data)
    return jobs


def card_index(data: SiteData) -> dict[str, list[tuple[str, str]]]:
    """Language -> (name, path) of every card, alphabetical."""
    index: dict[str, list[tuple[str, str]]] = {}
    for card in data.kb.cards:
        for lang, name in card.names.items():
            index.setdefault(lang, []).append((name, data.card_path[card.id]))
    return {lang: sorted(index[lang], key=lambda p: render.sort_name(p[0])) for lang in ordered_langs(index)}


def search_jobs(data: SiteData) -> list[Job]:
    """Per-language source pages for Pagefind: real text plus a folded copy, pointing at the real page."""
    jobs = []
    for doc in search_docs(data):
        path = f"{SEARCH_SRC}/{doc['lang']}/{doc['name']}.html"
        jobs.append(Job(path, "search-doc.html", {"title": doc["title"], "current": "", "doc": doc}))
    return jobs


def search_docs(data: SiteData) -> Iterator[dict]:
    """One search document per page and language: `{lang, name, title, url, kind, blocks}`."""
    kb = data.kb
    for page in data.rule_pages:
        for lang in data.langs:
            blocks = [(row.number, row.number, _rule_words(row.cells[lang])) for row in page.rows if row.cells[lang]]
            if blocks:
                title = " · ".join([page.head, *(page.titles[t] for t in data.langs if t in page.titles)])
                yield _doc(lang, f"rules-{page.head}", title, page.path, "rule", blocks)
    for lang, entries in data.glossary.items():
        blocks = [(a, kb.glossary[i].term, f"{kb.glossary[i].term}\n{kb.glossary[i].definition}") for a, i in entries]
        yield _doc(lang, "glossary", "Glossaire · Glossary", "glossary.html", "glossary", blocks)
    for card in kb.cards:
        yield from _card_docs(data, card)
    for info in kb.faqs:
        blocks = []
        for note in faq_notes(kb, info):
            anchor = data.note_path[note.id].split("#")[1]
            blocks.append((anchor, note.title, "\n".join([note.title, note.text, *note.bullets])))
        if blocks:
            name = "faq-" + render.slug(info.document)
            yield _doc(info.lang, name, info.title or info.document, data.faq_path[info.document], "note", blocks)


def _card_docs(data: SiteData, card) -> Iterator[dict]:
    """A card's search documents, one per language it has a name, text or rulings in."""
    path = data.card_path[card.id]
    for lang in ordered_langs([*card.names, *(r.lang for g in rulings_of(data.kb, card) for r in g[2])]):
        texts = [card.names.get(lang, "")]
        texts += [f.text for f in card.faces if f.lang == lang]
        texts += [r.text for g in rulings_of(data.kb, card) if g[0] == lang for r in g[2]]
        if lang == "en":
            texts += [v for k, v in sorted(card.oracle.items()) if k.startswith("en_")]
        name = card.names.get(lang) or card_name(card, lang)
        yield _doc(lang, "card-" + path.split("/")[-1][:-5], name, path, "card", [("main", name, "\n".join(texts))])


def _doc(lang: str, name: str, title: str, url: str, kind: str, blocks: list) -> dict:
    """A search document with a folded copy of each block."""
    return {"lang": lang, "name": name, "title": title, "url": url, "kind": kind,
            "blocks": [(a, h, t, render.fold(t)) for a, h, t in blocks]}  # fmt: skip


def _rule_words(rule) -> str:
    """The searchable text of a rule."""
    return "\n".join([rule.number, rule.title, rule.text, *rule.examples])
