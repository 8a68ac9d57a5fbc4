"""Search sources for Pagefind: one hidden page per page and language, then one Pagefind run per language."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from kb.model import card_name
from kb.model.langs import ordered_langs
from kb.site.gather import SiteData
from kb.site.output import Job, SiteError
from kb.sources import search_fold

SEARCH_SRC = "index-src"


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
