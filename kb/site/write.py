"""Build the static site: gather the data, render every page with Jinja2, index it with Pagefind, swap it in.

The site is written into a new sibling folder and swapped in only when complete, so a failed build
leaves the previous site untouched. A folder that is not a kb site (no `kb-site.json` stamp) is never
replaced, nor the content or project folder.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from kb.model import card_name
from kb.model.base import KnowledgeBase
from kb.model.langs import ordered_langs
from kb.site import render
from kb.site.gather import SiteData, coverage, faq_cards, gather, jump_map
from kb.site.output import STAMP, Job, SiteError, check_out, clean_leftovers, stamp_for, swap
from kb.site.searchpages import run_pagefind, search_jobs
from kb.sources import search_fold, sort_name
from kb.sources.paths import TEMPLATES


@dataclass(frozen=True, slots=True)
class BuildReport:
    """What a build wrote."""

    out: Path
    pages: int
    seconds: float
    search: bool


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
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html", "xml"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(
        lang_name=render.lang_name,
        gap_label=render.gap_label,
        fallback_label=render.fallback_label,
        mana_cost=render.mana_cost,
        with_symbols=render.with_symbols,
        markdown=render.markdown,
        card_name=card_name,
        fold=search_fold,
        ordered_langs=ordered_langs,
    )
    return env


def build_site(kb: KnowledgeBase, out: Path, progress: Callable | None = None, search: bool = True) -> BuildReport:
    """Render the whole site into `out`, atomically; raise SiteError (previous site untouched) on failure."""
    start = time.perf_counter()
    target = check_out(out, Path(kb.content))
    clean_leftovers(target)
    new = target.parent / f".{target.name}.new-{os.getpid()}"
    try:
        data = gather(kb)
        jobs = plan(data)
        langs = data.search_langs if search else []
        bar = progress(length=len(jobs) + len(langs)) if progress else _NoBar()
        with bar:
            write_pages(data, jobs, new, bar)
            for lang in langs:
                run_pagefind(new, lang)
                bar.update(1)
        check_out(out, Path(kb.content))  # again: the folder may have changed during the build
        swap(new, target)
    except SiteError:
        shutil.rmtree(new, ignore_errors=True)
        raise
    except Exception as err:  # a failed build must say why in one line and leave the old site alone
        shutil.rmtree(new, ignore_errors=True)
        raise SiteError(f"site not built ({type(err).__name__}: {err}); the previous site is untouched") from err
    return BuildReport(Path(out), len(jobs), time.perf_counter() - start, bool(langs))


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
    stamp = {**stamp_for(data.kb.content_hash), "langs": data.langs}
    (new / STAMP).write_text(json.dumps(stamp, indent=1, sort_keys=True) + "\n", encoding="utf-8")


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
            {"title": "Recherche · Search", "current": "search", "search_langs": data.search_langs},
        ),
    ]
    pages = data.rule_pages
    for i, page in enumerate(pages):
        nav = {"prev": pages[i - 1] if i else None, "next": pages[i + 1] if i + 1 < len(pages) else None}
        ctx = {"title": page.label(data.langs), "current": "contents", "page": page, **nav}
        jobs.append(Job(page.path, "rule.html", ctx))
    for info in data.kb.faqs:
        notes = data.faq_notes[info.document]
        cards = faq_cards(data.kb, info, {n.id for n in notes})
        ctx = {"title": info.title or info.document, "current": "faq", "info": info, "notes": notes, "cards": cards}
        jobs.append(Job(data.faq_path[info.document], "faq.html", ctx))
    for card in data.kb.cards:
        ctx = {
            "title": " · ".join(dict.fromkeys(card.names.values())) or card.id,
            "current": "cards",
            "card": card,
            "groups": data.card_rulings[card.id],
        }
        jobs.append(Job(data.card_path[card.id], "card.html", ctx))
    jobs += search_jobs(data)
    return jobs


def card_index(data: SiteData) -> dict[str, list[tuple[str, str]]]:
    """Language -> (name, path) of every card, alphabetical."""
    index: dict[str, list[tuple[str, str]]] = {}
    for card in data.kb.cards:
        for lang, name in card.names.items():
            index.setdefault(lang, []).append((name, data.card_path[card.id]))
    return {lang: sorted(index[lang], key=lambda p: sort_name(p[0])) for lang in ordered_langs(index)}
