"""Every page of the site: one tree per interface language (`fr/…`, `en/…`), a root page choosing between them,
and a 404 page.

The trees hold the same pages at the same paths; only the interface words differ, so a page's switch link
leads to the same page in the other tree. What a page shows beyond the site data is computed here, the card pages'
in `kb.site.cardpages`.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from itertools import zip_longest

from kb.model import Card
from kb.model.langs import ordered_langs
from kb.model.numbers import TYPED_PATTERN, sort_key
from kb.site.cardpages import CardIndexes, CardShared, card_index_jobs, card_indexes, card_job, keyword_index
from kb.site.diffs import changes_label
from kb.site.editions import numbering_of, stale_diffs, today_row
from kb.site.gather import SiteData
from kb.site.labels import UI_LANGS, counted, lang_label, long_date, words
from kb.site.numbering import own_numbers
from kb.site.onepage import whole_glossary, whole_rules
from kb.site.output import Job
from kb.site.parts import part_title, part_words
from kb.site.render import cite_flag
from kb.sources import search_fold as fold
from kb.sources import sort_name


def plan(data: SiteData) -> Plan:
    """Every page of the site, with its template and context."""
    shared = {"default_ui": UI_LANGS[0], "ui_langs": UI_LANGS}
    jobs = [Job("index.html", "choose.html", shared), Job("404.html", "404.html", shared)]
    indexes = card_indexes(data)
    trees = [
        [
            Job(f"{ui}/{job.path}", job.template, {**job.context, "ui": ui}, job.more)
            for job in tree_jobs(data, ui, indexes)
        ]
        for ui in UI_LANGS
    ]
    for same in zip_longest(*trees):  # a page in each interface one after the other: their texts rendered once
        jobs += [job for job in same if job is not None]
    return Plan(jobs, data, full_text_jobs(data))


class Plan:
    """The pages of the site in the order they are written: the pages of both interface trees side by side, then
    the card pages (each in both trees), made one at a time as they are written (tens of thousands of cards: their
    jobs are not held through the build), then the full texts of giant rules."""

    def __init__(self, pages: list[Job], data: SiteData, tail: list[Job]) -> None:
        self._pages, self._data, self._tail = pages, data, tail

    def __len__(self) -> int:
        return len(self._pages) + len(UI_LANGS) * len(self._data.kb.cards) + len(self._tail)

    def __iter__(self) -> Iterator[Job]:
        yield from self._pages
        shared = CardShared(keyword_index(self._data), self._data.kb.lexicon)
        for card in self._data.kb.cards:
            for ui in UI_LANGS:
                yield card_job(self._data, card, shared, ui)
        yield from self._tail


def page_title(data: SiteData, page, ui: str) -> str:
    """A rule page's title (`302. Créatures* · Creatures`): its number, the interface's name for it first when its
    title is in another language (unofficial: marked as the page explains), and its title."""
    shown, lang = page.title_in(ui)
    term = data.rule_labels.get((ui, page.head)) if lang != ui else None
    if term:  # the interface's name first (unofficial: marked), the title after it
        return f"{page.head}. {term}* · {shown}"
    return f"{page.head}. {shown}".rstrip(". ")


def _has_terms(data: SiteData, ui: str) -> bool:
    """Whether the glossary shows printed-card terms or words in the interface's language (and so their legend)."""
    return any(lang == ui for lang, _ in [*data.glossary_labels, *data.glossary_words])


def full_text_jobs(data: SiteData) -> list[Job]:
    """The full text of each rule too long to be shown whole on its page, as a text file at the site's root."""
    jobs = []
    for (lang, row), path in data.full_texts.items():
        rule = data.rule_at(lang, row)
        if rule is not None:
            jobs.append(Job(path, "fulltext.txt", {}, partial(_full_text, rule)))
    return jobs


def _full_text(rule) -> dict:
    """A rule's full text file, made as it is written: `{"text"}` (its number and title, text and examples)."""
    parts = [part for part in (f"{rule.number} {rule.title}".strip(), rule.text, *rule.examples) if part]
    pieces = ["\ufeff"]  # BOM: read as UTF-8
    for i, part in enumerate(parts):
        pieces += ["\n\n", part] if i else [part]
    return {"text": "".join([*pieces, "\n"])}  # one copy of a giant text, not three


def tree_jobs(data: SiteData, ui: str, indexes: CardIndexes | None = None) -> list[Job]:
    """The pages of one interface language but its card pages (`card_job`), paths relative to its tree (`indexes`:
    the card index's lists, made once for both trees)."""
    t = words(ui)
    jobs = [
        Job("index.html", "home.html", {"title": "", "current": "home", "loaded": loaded_items(data, ui)}),
        Job("contents.html", "contents.html", {"title": t["contents"], "current": "contents",
                                               "partial_langs": partial_langs(data),
                                               "terms": any((ui, p.head) in data.rule_labels for p in data.rule_pages
                                                            if ui not in p.titles)}),
        Job("glossary.html", "glossary.html", {"title": t["glossary"], "current": "glossary",
                                               "terms": _has_terms(data, ui)}),
        Job("cr.html", "cr.html", {"title": t["cr_title"], "current": "cr"}, partial(_whole, data, ui)),
        Job("sources.html", "sources.html", {"title": t["sources_title"], "current": "sources",
                                             "loaded": loaded_items(data, ui)}),
        Job("report.html", "report.html", {"title": t["report_title"], "current": "report",
                                           "coverage": coverage(data), "only_groups": only_groups(data),
                                           "stale": stale_diffs(data.kb), "mismatches": mismatches(data, ui)}),
        Job("search.html", "search.html", {"title": t["search"], "current": "search",
                                           "search_langs": data.search_langs,
                                           "search_examples": search_examples(data, ui)}),
    ]  # fmt: skip
    jobs += card_index_jobs(data, ui, indexes or card_indexes(data))
    sections = {section["number"]: section for section in data.sections}
    pages = data.rule_pages
    for i, page in enumerate(pages):
        nav = {"prev": pages[i - 1] if i else None, "next": pages[i + 1] if i + 1 < len(pages) else None}
        title = page_title(data, page, ui)
        if page.parts:
            title = part_title(title, page.part, len(page.parts), ui)
        section = sections[page.head[0]]
        shown = [page.head, *page.numbers, *(other.head for other in section["rules"])]
        ctx = {
            "title": title,
            "current": "contents:item",
            "page": page,
            "section": section,
            **nav,
            "histories": data.histories.get(page.head, []) if page.part == 1 else [],
            "pw": part_words(ui),
            "terms": any((ui, number) in data.rule_labels for number in shown),
        }
        jobs.append(Job(page.path, "rule.html", ctx))
    for changes in data.changes:
        label = changes_label(changes, ui, t, data.kb)
        ctx = {"title": label, "current": "changes", "changes": changes}
        jobs.append(Job(changes.path, "changes.html", ctx))
    for info in data.kb.faqs:
        found = data.faq_parts[info.document]
        total = sum(len(part.cards) for part in found)
        for part in found:
            title = info.title or info.document
            if part.parts:
                title = part_title(title, part.part, len(part.parts), ui)
            by_name = sorted(part.cards, key=lambda card, lang=info.lang: sort_name(data.name(card, lang)))
            ctx = {
                "title": title,
                "current": "faq",
                "info": info,
                "notes": list(part.notes),
                "faq": part,
                "cards": by_name,
                "cards_total": total,
                "pw": part_words(ui),
                "card_rulings": faq_rulings(data, info, by_name),
            }
            jobs.append(Job(part.path, "faq.html", ctx, partial(_quoted, data, part.notes)))
    return jobs  # then the card pages (`Plan`)


def _whole(data: SiteData, ui: str) -> dict:
    """The one-page CR's context, made as it is rendered: every rule, then the glossary (`kb.site.onepage`)."""
    return {"rules": whole_rules(data, ui), "glossary": whole_glossary(data, ui)}


def _quoted(data: SiteData, notes) -> dict:
    """The part of an FAQ page's context made as it is rendered: the rules its notes quote."""
    return {"quoted": quoted_rows(data, notes)}


def partial_langs(data: SiteData) -> list[str]:
    """Languages with text on some rule pages but not all: the contents marks the pages that have it."""
    return [lang for lang in data.langs if not all(lang in page.langs for page in data.rule_pages)]


def only_groups(data: SiteData) -> dict[str, list[dict]]:
    """Language -> its one-language rule numbers grouped by page: `{head, page, numbers, count, whole}`."""
    sizes: dict[str, int] = {}
    for page in data.rule_pages:
        sizes[page.head] = sizes.get(page.head, 0) + len(page.numbers)
    out: dict[str, list[dict]] = {}
    for lang, numbers in data.kb.links.alignment.only_in.items():
        groups: dict[str, list[str]] = {}
        for number in numbers:
            groups.setdefault(number.split(".")[0], []).append(number)
        out[lang] = [
            {
                "head": head,
                "page": f"rules/{head}.html" if head in sizes else f"contents.html#{head[0]}",
                "numbers": found,
                "count": len(found),
                "whole": sizes.get(head) == len(found),
            }
            for head, found in groups.items()
        ]
    return out


def loaded_items(data: SiteData, ui: str) -> list[dict]:
    """What the home and sources pages list as loaded: each rules edition, FAQ and card data, and the lexicon of
    printed cards, with dates and what each is to a reader (`about`), in the interface."""
    t, kb = words(ui), data.kb
    items = []
    editions = sorted(
        kb.links.editions,
        key=lambda ed: (ordered_langs([ed.lang, *data.langs]).index(ed.lang), not ed.current, ed.effective_date or ""),
    )
    for ed in editions:
        lang = lang_label(ed.lang, ui)
        label = t["edition_cr" if ed.complete else "edition_extract"].format(lang=lang)
        detail = [counted(t, "rules_count", len(ed.rules), ui)]
        terms = sum(1 for g in kb.glossary if g.document in ed.documents)
        if terms:
            detail.append(counted(t, "glossary_count", terms, ui))
        numbering = numbering_of(kb, ed.id)
        if ed.effective_date:
            date = t["effective"].format(date=long_date(ed.effective_date, ui))
        else:
            date = t["numbering"].format(year=numbering[:4]) if numbering else t["undated"]
        numbers = [] if ed.complete else extract_links(data, ed)
        if ed.complete:
            about = t["about_cr" if ed.current else "about_cr_older"]
        else:
            about = t["about_extract" if ed.lang == kb.reference else "about_translation"]
        items.append({"label": label, "date": date, "detail": " · ".join(detail), "numbers": numbers, "about": about})
    for info in kb.faqs:
        date = long_date(info.last_modified, ui) if info.last_modified else ""
        label = t["faq_item"].format(lang=lang_label(info.lang, ui))
        items.append(
            {
                "label": label,
                "title": info.title or info.document,
                "title_lang": info.lang,
                "date": date,
                "detail": "",
                "about": t["about_faq"],
            }
        )
    for doc in kb.documents:
        if doc.kind == "cards":
            cards = len(kb.cards_by_document.get(doc.id, ()))
            label = counted(t, "cards_item", cards, ui) + (f" ({doc.title})" if doc.title else "")
            items.append(
                {"label": label, "date": long_date(doc.effective_date, ui), "detail": "", "about": t["about_cards"]}
            )
    lexicon = kb.lexicon
    if lexicon is not None and lexicon.entries:
        detail = counted(t, "lexicon_from", lexicon.cards, ui) if lexicon.cards else ""
        items.append(
            {
                "label": counted(t, "lexicon_item", len(lexicon.entries), ui),
                "date": "",
                "detail": detail,
                "about": t["about_lexicon"],
            }
        )
    return items


def extract_links(data: SiteData, edition) -> list[tuple[str, str, str]]:
    """(number, page showing it, today's number when another) of each rule an extract translates, its heading line
    or else its first rule: French 120 is shown on the page of today's 121, French 703 (no heading line) on 703's."""
    found = []
    for head in dict.fromkeys(n.split(".")[0] for n in sorted(edition.rules, key=sort_key)):
        page, today = data.shown_today(edition.lang, head) or ("", head)
        found.append((head, page, today if today != head else ""))
    return found


def coverage(data: SiteData) -> list[dict]:
    """Per section: rows with text from each language's aligned edition, rows with all of them, total, percentages."""
    rows: dict[str, dict] = {}
    primary = {lang: ed.id for lang, ed in data.kb.primary.items()}
    for number in data.kb.numbers():
        row = rows.setdefault(
            number[0], {"section": number[0], "total": 0, "aligned": 0, "counts": dict.fromkeys(data.langs, 0)}
        )
        row["total"] += 1
        aligned = data.kb.aligned(number)
        present = [lang for lang, rule in aligned.items() if data.kb.edition_of(rule).id == primary.get(lang)]
        for lang in present:
            row["counts"][lang] += 1
        row["aligned"] += len(present) == len(data.langs)
    for lang, orphans in data.kb.orphans.items():  # rows of their own: no counterpart in today's numbering
        for rule in orphans:
            row = rows.setdefault(
                rule.number[0],
                {"section": rule.number[0], "total": 0, "aligned": 0, "counts": dict.fromkeys(data.langs, 0)},
            )
            row["total"] += 1
            row["counts"][lang] += 1
    for row in rows.values():
        row["pct"] = {lang: round(100 * n / row["total"]) for lang, n in row["counts"].items()}
    return [rows[k] for k in sorted(rows)]


def jump_map(data: SiteData) -> tuple[dict, dict[str, str]]:
    """What the search box jumps to: (rule numbers and the typed-number box's data, `jump.json`; folded card names ->
    page, written in shards). Numbers go in `numbers` as `{"pages": {page: [numbers anchored on it]}, "bare":
    {number: page}}` (`kbtext.js`'s `jumpNumbers` reads it back), so each page's path is written once."""
    numbers = {}
    for page in data.rule_pages:
        if page.part == 1:
            numbers[page.head] = page.path + (f"#{page.head}" if page.numbers[0] == page.head else "")
        for number in page.numbers:
            numbers[number] = f"{page.path}#{number}"
    for section in data.sections:
        numbers.setdefault(section["number"], f"contents.html#{section['number']}")
    cards = {}
    for card in data.kb.cards:
        for name in (*data.names(card).values(), *(p.name for p in card.printed if p.name)):  # every printed name
            cards.setdefault(fold(name), data.card_path[card.id])
            for face in name.split(" // "):
                cards.setdefault(fold(face), data.card_path[card.id])
    pages: dict[str, list[str]] = {}
    bare: dict[str, str] = {}
    for number, target in numbers.items():
        path, _, anchor = target.partition("#")
        if anchor == number:
            pages.setdefault(path, []).append(number)
        else:
            bare[number] = target
    encoded = {"pages": pages, "bare": bare}
    return {"numbers": encoded, "pattern": TYPED_PATTERN, **own_numbers(data, numbers)}, cards


def mismatches(data: SiteData, ui: str) -> list[dict]:
    """Aligned rules whose references differ, each number with the row showing it today and, for a number the
    translation cites that its original does not, the flag saying so (`cite_flag`, else ""):
    `{"row", "edition", "cells": {lang: (number, row, [(target, row, flag)])}}`."""
    out = []
    for m in data.kb.links.alignment.reference_mismatches:
        cells = {}
        for lang in data.langs:
            number = m.get("numbers", {}).get(lang, m["number"])
            fixes = data.miscited.get((lang, number), {})
            found = [
                (target, fixes[target].meant.today if fixes[target].meant else None, cite_flag(fixes[target], ui))
                if target in fixes
                else (target, _row_of(data, lang, m.get("edition"), target), "")
                for target in m.get(lang, ())
            ]
            cells[lang] = (number, _row_of(data, lang, m.get("edition"), number), found)
        out.append({"row": m["number"], "edition": m.get("edition"), "cells": cells})
    return out


def _row_of(data: SiteData, lang: str, edition: str | None, number: str) -> str | None:
    """The row showing today a number as `lang` cites it: the reference language's in `edition` (followed through
    lineage), a translation's in its own numbering (else today's number of a rule it cites without having it, else
    the same number in another language, as its text's references are linked)."""
    if lang == data.kb.reference and edition:
        return today_row(data.kb, data.rows, lang, edition, number)
    reading = data.kb.readings.get(lang, {}).get(number)  # as its text links: read in its own edition's numbering
    return data.rows.get(lang, {}).get(number) or (reading.today if reading is not None else number)


def faq_rulings(data: SiteData, info, cards: list[Card]) -> dict[str, list]:
    """Card id -> the FAQ's rulings on it, as the FAQ orders them."""
    rulings = data.kb.ruling
    return {c.id: [r for r in (rulings[i] for i in c.rulings) if r.source_document == info.document] for c in cards}


def quoted_rows(data: SiteData, notes: list) -> dict[tuple[str, str], tuple[str, str]]:
    """(note id, quoted number) -> (row, language) of today's rule an FAQ's quoted rule was found to be
    (`QuotedRule.today`); quotes without one stay dated and unlinked."""
    found = {}
    for note in notes:
        for quote in note.quoted_rules:
            edition = data.kb.editions.get(quote.today_edition or "")
            if quote.today and edition is not None:
                row = today_row(data.kb, data.rows, edition.lang, edition.id, quote.today)
                if row:
                    found[(note.id, quote.number)] = (row, edition.lang)
    return found


EXAMPLES = {
    "fr": ("702.19", "la pile", "mal d'invocation", "qui commence la partie"),
    "en": ("702.19", "trample", "who goes first", "state-based actions"),
}
"""What the empty search page suggests: a rule number, the rules' words, a question (of the English rules)."""


def search_examples(data: SiteData, ui: str) -> list[str]:
    """The search page's examples in the interface's language: a rule number the content has; words and questions
    when the English rules they are about are loaded."""
    numbers = set(data.kb.numbers())
    english = "en" in data.kb.primary
    return [e for e in EXAMPLES.get(ui, EXAMPLES["en"]) if e in numbers or (english and not e[:1].isdigit())]
