"""Build the static site: gather the data, render every page with Jinja2, index it with Pagefind, swap it in.

The site is written into a new sibling folder and swapped in only when complete, so a failed build
leaves the previous site untouched. A folder that is not a kb site (no `kb-site.json` stamp) is never
replaced, nor the content or project folder.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from kb import __version__
from kb.model import card_name
from kb.model.base import KnowledgeBase
from kb.model.langs import ordered_langs
from kb.site import render
from kb.site.gather import SiteData, coverage, faq_cards, gather, jump_map
from kb.sources import search_fold, sort_name
from kb.sources.paths import PROJECT, TEMPLATES

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


def site_hash(out: Path) -> str | None:
    """The content hash a built site was made from, or None when there is no readable site."""
    return _stamp(out).get("content_hash")


def _stamp(out: Path) -> dict:
    """The site's stamp, or {} when there is none or it is unreadable."""
    try:
        stamp = json.loads((Path(out) / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return stamp if isinstance(stamp, dict) else {}


def templates_hash() -> str:
    """Hash of every template and static file (names and bytes): a change means the site must be rebuilt."""
    digest = hashlib.sha256()
    for path in sorted(p for p in TEMPLATES.rglob("*") if p.is_file()):
        digest.update(f"{path.relative_to(TEMPLATES).as_posix()}\0".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def stamp_for(content_hash: str) -> dict:
    """What a site built now from content with this hash records, the languages aside."""
    return {"content_hash": content_hash, "kb_version": __version__, "templates_hash": templates_hash()}


def site_is_current(out: Path, content_hash: str) -> bool:
    """Whether the site in `out` was built from this content by this kb version with these templates."""
    stamp = _stamp(out)
    return all(stamp.get(key) == value for key, value in stamp_for(content_hash).items())


def check_out(out: Path, content: Path | None = None) -> Path:
    """The resolved output folder, or SiteError when building there could destroy something."""
    target = Path(out).resolve()
    protected = [("the project folder", PROJECT)]
    if content is not None:
        protected.insert(0, ("the content folder", Path(content).resolve()))
    for label, folder in protected:
        if target == folder or target in folder.parents:
            what = label if target == folder else f"a folder holding {label} ({folder})"
            raise SiteError(f"refusing to build into {out}: it is {what}; pass another --out, such as site/")
    if target.exists() and not target.is_dir():
        raise SiteError(f"refusing to build into {out}: it exists and is not a folder; pass another --out")
    if target.is_dir() and not (target / STAMP).is_file() and any(target.iterdir()):
        raise SiteError(
            f"refusing to build into {out}: it is not empty and is not a kb site (no {STAMP}); "
            "pass a new or empty folder to --out"
        )
    return target


def build_site(kb: KnowledgeBase, out: Path, progress: Callable | None = None, search: bool = True) -> BuildReport:
    """Render the whole site into `out`, atomically; raise SiteError (previous site untouched) on failure."""
    start = time.perf_counter()
    target = check_out(out, Path(kb.content))
    _clean_leftovers(target)
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
        _swap(new, target)
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


def _swap(new: Path, out: Path) -> None:
    """Put the new site in place of the old one (atomically where the system can), then delete the old one."""
    if out.exists() and _exchange(new, out):
        shutil.rmtree(new, ignore_errors=True)  # `new` now holds the previous site
        return
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    if out.exists():
        out.rename(old)
    try:
        new.rename(out)  # the site is missing only between these two renames
    except OSError:
        if old.exists():
            old.rename(out)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux `renameat2(RENAME_EXCHANGE)`); False when the system cannot."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    return renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0


def _clean_leftovers(out: Path) -> None:
    """Delete the `.NAME.new-PID` and `.NAME.old-PID` folders of builds that died before cleaning up."""
    pattern = re.compile(rf"\.{re.escape(out.name)}\.(?:new|old)-(\d+)")
    for path in out.parent.glob(f".{out.name}.*-*") if out.parent.is_dir() else ():
        m = pattern.fullmatch(path.name)
        if m and path.is_dir() and not path.is_symlink() and not _alive(int(m.group(1))):
            shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    """Whether another process with this id runs (a build that may still use its temporary folders)."""
    if pid == os.getpid():
        return False  # left by an earlier build of this very process
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def run_pagefind(site: Path, lang: str) -> None:
    """Index the language's search sources into `pagefind-<lang>/`."""
    if not (site / SEARCH_SRC / lang).is_dir():
        return
    command = [
        sys.executable,
        "-m",
        "pagefind",
        "--site",
        str(site),
        "--glob",
        f"{SEARCH_SRC}/{lang}/**/*.html",
        "--output-subdir",
        f"pagefind-{lang}",
        "--force-language",
        lang,
        "--silent",
    ]
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
                yield _doc(lang, f"rules-{page.head}", page.label(data.langs), page.path, "rule", blocks)
    for lang, entries in data.glossary.items():
        blocks = [(a, kb.glossary[i].term, f"{kb.glossary[i].term}\n{kb.glossary[i].definition}") for a, i in entries]
        yield _doc(lang, "glossary", "Glossaire · Glossary", "glossary.html", "glossary", blocks)
    for card in kb.cards:
        yield from _card_docs(data, card)
    for info in kb.faqs:
        blocks = []
        for note in data.faq_notes[info.document]:
            anchor = data.note_path[note.id].split("#")[1]
            blocks.append((anchor, note.title, "\n".join([note.title, note.text, *note.bullets])))
        if blocks:
            name = "faq-" + data.faq_path[info.document].split("/")[-1][:-5]
            yield _doc(info.lang, name, info.title or info.document, data.faq_path[info.document], "note", blocks)


def _card_docs(data: SiteData, card) -> Iterator[dict]:
    """A card's search documents, one per language it has a name, text or rulings in."""
    path = data.card_path[card.id]
    groups = data.card_rulings[card.id]
    for lang in ordered_langs([*card.names, *(r.lang for g in groups for r in g[2])]):
        texts = [card.names.get(lang, "")]
        texts += [f.text for f in card.faces if f.lang == lang]
        texts += [r.text for g in groups if g[0] == lang for r in g[2]]
        texts += [v for k, v in sorted(card.oracle.items()) if k.startswith(f"{lang}_")]  # card data: en_text…
        name = card_name(card, lang)
        yield _doc(lang, "card-" + path.split("/")[-1][:-5], name, path, "card", [("main", name, "\n".join(texts))])


def _doc(lang: str, name: str, title: str, url: str, kind: str, blocks: list) -> dict:
    """A search document with a folded copy of each block."""
    return {
        "lang": lang,
        "name": name,
        "title": title,
        "url": url,
        "kind": kind,
        "blocks": [(a, h, t, search_fold(t)) for a, h, t in blocks],
    }


def _rule_words(rule) -> str:
    """The searchable text of a rule."""
    return "\n".join([rule.number, rule.title, rule.text, *rule.examples])
