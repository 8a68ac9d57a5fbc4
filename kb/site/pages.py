"""Every page of the site: one tree per interface language (`fr/…`, `en/…`), a root page choosing between them,
and a 404 page.

The trees hold the same pages at the same paths; only the interface words differ, so a page's switch link
leads to the same page in the other tree. What a page shows beyond the site data is computed here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, partial
from itertools import zip_longest

from markupsafe import Markup, escape

from kb.model import Card, card_name
from kb.model.langs import ordered_langs
from kb.model.numbers import TYPED_PATTERN, sort_key
from kb.site.diffs import changes_label
from kb.site.editions import numbering_of, stale_diffs, today_row
from kb.site.gather import SiteData
from kb.site.labels import UI_LANGS, counted, lang_label, long_date, words
from kb.site.numbering import own_numbers
from kb.site.output import Job
from kb.site.parts import index_parts, part_title, part_words
from kb.site.render import cite_flag, mana_cost
from kb.site.terms import keyword_rules
from kb.sources import file_slug, sort_name
from kb.sources import search_fold as fold


def plan(data: SiteData) -> Plan:
    """Every page of the site, with its template and context."""
    shared = {"default_ui": UI_LANGS[0], "ui_langs": UI_LANGS}
    jobs = [Job("index.html", "choose.html", shared), Job("404.html", "404.html", shared)]
    indexes = card_indexes(data)
    trees = [[Job(f"{ui}/{job.path}", job.template, {**job.context, "ui": ui}, job.more)
              for job in tree_jobs(data, ui, indexes)] for ui in UI_LANGS]  # fmt: skip
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
    """A rule page's title (`302. Creatures · Créature*`): its number, its title, and the interface's printed-card
    term when the title is in another language (marked as the page explains)."""
    shown, lang = page.title_in(ui)
    term = data.rule_labels.get((ui, page.head)) if lang != ui else None
    return f"{page.head}. {shown}".rstrip(". ") + (f" · {term}*" if term else "")


def _has_terms(data: SiteData, ui: str) -> bool:
    """Whether the glossary shows printed-card terms or words in the interface's language (and so their legend)."""
    return any(lang == ui for lang, _ in [*data.glossary_labels, *data.glossary_words])


class CardShared:
    """What tens of thousands of card pages look up alike, made once: keyword abilities' rules and French names,
    mana costs drawn."""

    def __init__(self, rows: dict[str, str], lexicon) -> None:
        self.rows = rows
        """Folded keyword ability -> the row of its rule (`keyword_index`)."""
        self.lexicon = lexicon
        self._french: dict[str, tuple[str, ...]] = {}
        self._costs: dict[tuple[tuple[str, ...], str], Markup] = {}

    def french(self, name: str) -> tuple[str, ...]:
        """The lexicon's French names of a keyword ability, best first (none without a lexicon)."""
        if name not in self._french:
            self._french[name] = self.lexicon.french_for(name, "keyword") if self.lexicon is not None else ()
        return self._french[name]

    def cost(self, symbols: tuple[str, ...], lang: str) -> Markup:
        """A mana cost drawn (`render.mana_cost`)."""
        key = (symbols, lang)
        if key not in self._costs:
            self._costs[key] = mana_cost(symbols, lang)
        return self._costs[key]


def card_job(data: SiteData, card: Card, keywords: CardShared, ui: str) -> Job:
    """A card's page in an interface tree."""
    name = data.name(card, ui)
    ctx = {"title": name, "current": "cards:item", "card": card, "ui": ui}
    return Job(f"{ui}/{data.card_path[card.id]}", "card.html", ctx, partial(_card_context, data, card, keywords, ui))


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
        Job("sources.html", "sources.html", {"title": t["sources_title"], "current": "sources",
                                             "loaded": loaded_items(data, ui)}),
        Job("report.html", "report.html", {"title": t["report_title"], "current": "report",
                                           "coverage": coverage(data), "only_groups": only_groups(data),
                                           "stale": stale_diffs(data.kb), "mismatches": mismatches(data, ui)}),
        Job("search.html", "search.html", {"title": t["search"], "current": "search",
                                           "search_langs": data.search_langs}),
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
        ctx = {"title": title, "current": "contents:item", "page": page, "section": section, **nav,
               "histories": data.histories.get(page.head, []) if page.part == 1 else [], "pw": part_words(ui),
               "terms": any((ui, number) in data.rule_labels for number in shown)}  # fmt: skip
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
            ctx = {"title": title, "current": "faq", "info": info, "notes": list(part.notes), "faq": part,
                   "cards": by_name, "cards_total": total, "pw": part_words(ui),
                   "card_rulings": faq_rulings(data, info, by_name)}  # fmt: skip
            jobs.append(Job(part.path, "faq.html", ctx, partial(_quoted, data, part.notes)))
    return jobs  # then the card pages (`Plan`)


def _quoted(data: SiteData, notes) -> dict:
    """The part of an FAQ page's context made as it is rendered: the rules its notes quote."""
    return {"quoted": quoted_rows(data, notes)}


def _card_context(data: SiteData, card: Card, shared: CardShared, ui: str) -> dict:
    """The part of a card page's context made as it is rendered: its sides (the interface's language first, each
    face's cost drawn, `cost_html`), rulings and keywords (`lexicon_marked`: some named through the lexicon)."""
    sides = sorted(card_sides(card, data), key=lambda side: side["lang"] != ui)  # the interface's language first
    for side in sides:
        for face in side["faces"]:
            face["cost_html"] = shared.cost(face["cost"], side["lang"])
    text = "\n".join(face["text"] for side in sides if side["lang"] == ui for face in side["faces"])
    found = card_keywords(shared, card, text, ui)
    for side in sides:
        side["said"] = side_said(data.kb, card, side["source"], ui)
        printed_by = next((d.id for d in data.kb.documents if d.source == card.source.path), None)
        side["faq_href"] = faq_card_href(data, card, printed_by) if side["source"][0] == "faq" else None
    rulings, printed = ruling_rows(data, card, ui), other_printed_names(card)
    named = [lang for lang in data.faq_names.get(card.id, {}) if lang not in card.names]
    return {"sides": sides, "rulings": rulings, "keywords": found, "printed": printed, "names": data.names(card),
            "faq_named": named, "lexicon_marked": any(k["how"] == "lexicon" for k in found)}  # fmt: skip


def side_said(kb, card: Card, source: tuple[str, tuple[str, ...], str | None], ui: str) -> str:
    """Where a card side's text comes from, with its date, in the interface's words."""
    t, (kind, sets, date) = words(ui), source
    if kind == "printed":
        key = "text_printed_dated" if date else "text_printed"
        return t[key].format(sets=", ".join(sets), date=long_date(date, ui))
    if kind == "faq":
        document = next((d.id for d in kb.documents if d.source == card.source.path), None)
        date = next((f.last_modified for f in kb.faqs if f.document == document), None)
        return t["text_faq_dated" if date else "text_faq"].format(date=long_date(date, ui))
    return t["text_oracle"]


def faq_card_href(data: SiteData, card: Card, document: str | None) -> str | None:
    """Where an FAQ (its document id) lists a card (`faq/x.html#card-<id>`, the part of a cut FAQ holding it), from
    the tree's root; None when it does not."""
    for part in data.faq_parts.get(document or "", ()):
        if any(listed.id == card.id for listed in part.cards):
            return f"{part.path}#card-{card.id}"
    return None


def other_printed_names(card: Card) -> list[tuple[str, str, tuple[str, ...]]]:
    """(language, name, sets) of every name the card was printed with but the one it is shown under, newest first."""
    found: dict[tuple[str, str], tuple[str, ...]] = {}
    for printed in card.printed:
        if printed.name and printed.name != card.names.get(printed.lang):
            key = (printed.lang, printed.name)
            found[key] = tuple(dict.fromkeys((*found.get(key, ()), *printed.sets)))
    return [(lang, name, sets) for (lang, name), sets in found.items()]


Index = dict[str, list[tuple[str, str]]]
"""Language -> (name, path) of each card listed, alphabetical."""


@dataclass(frozen=True, slots=True)
class CardIndexes:
    """The lists of the card index's pages and of each set's page, each with its links (`<li>…</li>` by language,
    the same in both interface trees: made once)."""

    parts: list[tuple[Index, dict[str, Markup]]]
    """The card index, or its parts when it is too large for one page."""
    sets: dict[str, tuple[Index, dict[str, Markup]]]
    """Set code -> its cards, sets by code."""


def card_indexes(data: SiteData) -> CardIndexes:
    """The card index's lists and each set's, every name's collation key made once."""
    collate = cache(sort_name)

    def key(pair: tuple[str, str]) -> str:
        return collate(pair[0])

    parts = [(index, _links(index)) for index in index_parts(card_index(data, key))]
    return CardIndexes(parts, {code: (index, _links(index)) for code, index in set_index(data, key).items()})


def _links(index: Index) -> dict[str, Markup]:
    """Language -> the links of a card list, as the card index shows them."""
    return {
        lang: Markup("".join(f'<li><a href="{escape(path)}">{escape(name)}</a></li>\n' for name, path in names))
        for lang, names in index.items()
    }


def card_index_jobs(data: SiteData, ui: str, indexes: CardIndexes) -> list[Job]:
    """The card index: one page, or its parts (`cards.html`, `cards-2.html`…) when it is too large for one; then
    one page per set (`cards-set-dis.html`), each linked from every page of the index."""
    t = words(ui)
    found = [(ui_first(index, ui), links) for index, links in indexes.parts]  # the interface's language first
    files = ["cards.html"] + [f"cards-{i}.html" for i in range(2, len(found) + 1)]
    listed = [(file, _first_last(part[0])) for file, part in zip(files, found, strict=True)] if len(found) > 1 else []
    by_set = {code: (ui_first(index, ui), links) for code, (index, links) in indexes.sets.items()}
    sets = [(set_file(code), code) for code in by_set]
    named = data.kb.set_names
    jobs = []
    for i, (file, (index, links)) in enumerate(zip(files, found, strict=True)):
        title = t["card_index"]
        if listed:
            title = part_title(title, i + 1, len(listed), ui)
        ctx = {"title": title, "current": "cards", "index": index, "links": links, "part": i + 1, "parts": listed,
               "pw": part_words(ui), "sets": sets, "set_code": "", "set_name": "",
               "set_links": set_links(sets, "", named)}  # fmt: skip
        jobs.append(Job(file, "cards.html", ctx))
    for (file, code), (index, links) in zip(sets, by_set.values(), strict=True):
        shown = f"{named[code]} ({code})" if code in named else code
        ctx = {"title": f"{t['card_index']} — {shown}", "current": "cards", "index": index, "links": links, "part": 1,
               "parts": [], "pw": part_words(ui), "sets": sets, "set_code": code, "set_name": named.get(code, ""),
               "set_links": set_links(sets, code, named)}  # fmt: skip
        jobs.append(Job(file, "cards.html", ctx))
    return jobs


def set_links(sets: list[tuple[str, str]], current: str, names: Mapping[str, str]) -> Markup:
    """The links to every set's page (a pool has hundreds, on each page of the index), each by its code and, when a
    card data file gave it, its name (`DIS` Dissension); the current one marked."""
    marks = {current: ' aria-current="page"'}
    return Markup(
        "".join(
            f'<li><a href="{escape(file)}"{marks.get(code, "")}><span class="set-code">{escape(code)}</span>'
            + (f' <span class="set-name" lang="en">{escape(names[code])}</span>' if code in names else "")
            + "</a></li>"
            for file, code in sets
        )
    )


def ui_first(by_lang: dict, ui: str) -> dict:
    """A mapping by language with the interface's language first (its names head each interface's lists)."""
    return dict(sorted(by_lang.items(), key=lambda item: item[0] != ui))


def set_file(code: str) -> str:
    """The page of a set's cards (`DIS` -> `cards-set-dis.html`)."""
    return f"cards-set-{file_slug(code, 'set')}.html"


def set_index(data: SiteData, key: Callable[[tuple[str, str]], str] = lambda p: sort_name(p[0])) -> dict[str, Index]:
    """Set code -> language -> (name, path) of each card printed in it, alphabetical (`key`: a name's collation
    key); sets by code."""
    found: dict[str, dict[str, list[tuple[str, str]]]] = {}
    for card in data.kb.cards:
        for code in card.printings:
            index = found.setdefault(code, {})
            for lang, name in data.names(card).items():
                index.setdefault(lang, []).append((name, data.card_path[card.id]))
    return {
        code: {lang: sorted(found[code][lang], key=key) for lang in ordered_langs(found[code])}
        for code in sorted(found, key=str.casefold)
    }


def _first_last(index: dict[str, list[tuple[str, str]]]) -> str:
    """`Abc – Xyz`: the first and last names of a part of the card index (its first language's)."""
    names = next((names for names in index.values() if names), [])
    return f"{names[0][0]} – {names[-1][0]}" if names else ""


def card_index(data: SiteData, key: Callable[[tuple[str, str]], str] = lambda p: sort_name(p[0])) -> Index:
    """Language -> (name, path) of every card, alphabetical (`key`: a name's collation key)."""
    index: dict[str, list[tuple[str, str]]] = {}
    for card in data.kb.cards:
        for lang, name in data.names(card).items():
            index.setdefault(lang, []).append((name, data.card_path[card.id]))
    return {lang: sorted(index[lang], key=key) for lang in ordered_langs(index)}


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
    editions = sorted(kb.links.editions, key=lambda ed: (ordered_langs([ed.lang, *data.langs]).index(ed.lang),
                                                         not ed.current, ed.effective_date or ""))  # fmt: skip
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
        items.append({"label": label, "date": date, "detail": " · ".join(detail), "numbers": numbers,
                      "about": about})  # fmt: skip
    for info in kb.faqs:
        date = long_date(info.last_modified, ui) if info.last_modified else ""
        label = t["faq_item"].format(lang=lang_label(info.lang, ui))
        items.append({"label": label, "title": info.title or info.document, "title_lang": info.lang, "date": date,
                      "detail": "", "about": t["about_faq"]})  # fmt: skip
    for doc in kb.documents:
        if doc.kind == "cards":
            cards = len(kb.cards_by_document.get(doc.id, ()))
            label = counted(t, "cards_item", cards, ui) + (f" ({doc.title})" if doc.title else "")
            items.append({"label": label, "date": long_date(doc.effective_date, ui), "detail": "",
                          "about": t["about_cards"]})  # fmt: skip
    lexicon = kb.lexicon
    if lexicon is not None and lexicon.entries:
        detail = counted(t, "lexicon_from", lexicon.cards, ui) if lexicon.cards else ""
        items.append({"label": counted(t, "lexicon_item", len(lexicon.entries), ui), "date": "", "detail": detail,
                      "about": t["about_lexicon"]})  # fmt: skip
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
    reading = data.today.get(lang, {}).get(number)  # as its text links: read in its own edition's numbering
    return data.rows.get(lang, {}).get(number) or (reading.today if reading is not None else number)


def faq_rulings(data: SiteData, info, cards: list[Card]) -> dict[str, list]:
    """Card id -> the FAQ's rulings on it, as the FAQ orders them."""
    rulings = data.kb.ruling
    return {c.id: [r for r in (rulings[i] for i in c.rulings) if r.source_document == info.document] for c in cards}


def card_sides(card: Card, data: SiteData | None = None) -> list[dict]:
    """The card's text in each language, French first: `[{lang, faces: [{name, name_lang, cost, type, text, power,
    toughness}], source}]` (`name_lang`: the name's own language, another where the side's has none), from the
    printed text of card data (`oracle`: `fr_text`, `en_type`…), else its faces'; `source` says where the text comes
    from (`_side_source`)."""
    langs = {face.lang for face in card.faces} | {key[:-5] for key in card.oracle if key.endswith("_text")}
    sides = []
    for lang in ordered_langs(list(langs)):
        texts = _split(card.oracle.get(f"{lang}_text"), "\n//\n", len(card.faces))
        types = _split(card.oracle.get(f"{lang}_type"), " // ", len(card.faces))
        faces = []
        for i, face in enumerate(card.faces):
            own = face.lang == lang
            if texts is None and not own:
                continue
            name = face.names.get(lang) or (card_name(card, lang) if len(card.faces) == 1 else card_name(face, lang))
            if data is not None and len(card.faces) > 1:
                name = data.face_name(card, i, lang)  # the FAQ's « Coup » where the card data names none
            names = {**card.names, **face.names} if len(card.faces) == 1 else face.names
            named = lang if name == names.get(lang) else next((x for x, n in names.items() if n == name), lang)
            faces.append({
                "name": name, "name_lang": named, "cost": face.mana_cost, "power": face.power,
                "toughness": face.toughness,
                "type": types[i] if types else (face.type_line if own else ""),
                "text": texts[i] if texts else face.text,
            })  # fmt: skip
        if faces:
            sides.append({"lang": lang, "faces": faces, "source": _side_source(card, lang, texts is not None)})
    return sides


def _side_source(card: Card, lang: str, from_data: bool) -> tuple[str, tuple[str, ...], str | None]:
    """Where a side's text comes from: (`oracle`, (), None) for the card data's own language (today's reference
    wording), (`printed`, sets, release date) for a printing in another language, (`faq`, (), None) for a text only
    an FAQ prints."""
    if not from_data:
        return "faq", (), None
    printed = [p for p in card.printed if p.lang == lang]
    if not printed:
        return "oracle", (), None
    shown = card.oracle.get(f"{lang}_text")
    found = next((p for p in printed if p.text == shown), printed[0])
    return "printed", found.sets, found.released


def _split(value: str | None, separator: str, count: int) -> list[str] | None:
    """A card-data field cut into its faces' parts (`A // B`), or None when absent or cut otherwise."""
    if not value:
        return None
    parts = value.split(separator) if count > 1 else [value]
    return parts if len(parts) == count else None


def ruling_rows(data: SiteData, card: Card, ui: str = "") -> dict:
    """A card's rulings, each with the ruling of the other language saying the same (`translation_of`):
    `{"langs", "rows": [{lang: ruling}], "plain": {id: bool}, "source": {id: label}, "heads": {lang: labels},
    "where": {lang: card-data label or ""}, "dates": {id: its date, else its FAQ's}, "others": {id: [the other cards
    it names that have a page]}, "at": {id: where its FAQ lists the card, or None}}`, FAQ rulings first in their
    order, then the rest; the interface's language's column first."""
    groups = data.card_rulings[card.id]
    plain = {r.id: group[3] for group in groups for r in group[2]}
    source = {r.id: group[1] for group in groups for r in group[2]}
    langs = sorted(ordered_langs(list(dict.fromkeys(group[0] for group in groups))), key=lambda lang: lang != ui)
    placed: set[str] = set()
    rows = []
    for ruling in (r for group in groups for r in group[2]):
        if ruling.id in placed:
            continue
        row = {ruling.lang: ruling}
        partner = data.kb.ruling.get(ruling.translation_of or "")
        if partner is not None and partner.id in plain and partner.id not in placed and partner.lang != ruling.lang:
            row[partner.lang] = partner
        placed.update(r.id for r in row.values())
        rows.append(row)
    heads: dict[str, str] = {}
    where: dict[str, str] = {}
    for lang, label, _rulings, is_plain in groups:
        heads[lang] = f"{heads[lang]}, {label}" if lang in heads else label
        where.setdefault(lang, label if is_plain else "")
    faq_dates = {info.document: info.last_modified for info in data.kb.faqs}
    dates = {r.id: r.date or faq_dates.get(r.source_document) for group in groups for r in group[2]}
    paths = data.card_path
    others = {r.id: [c for c in r.card_refs if c != card.id and c in paths] for row in rows for r in row.values()}
    at = {r.id: faq_card_href(data, card, r.source_document) for row in rows for r in row.values() if not plain[r.id]}
    return {"langs": langs, "rows": rows, "plain": plain, "source": source, "heads": heads, "where": where,
            "dates": dates, "others": others, "at": at}  # fmt: skip


def keyword_index(data: SiteData) -> dict[str, str]:
    """Folded keyword ability -> the row of its rule (`flying` -> `702.9`)."""
    return {fold(name): number for number, name in keyword_rules(data.kb).items()} if data.kb.reference == "en" else {}


def card_keywords(keywords: CardShared, card: Card, text: str, ui: str) -> list[dict]:
    """The card's keyword abilities named in the interface's language: `name`, its `lang`, the `row` of its rule
    (or None) and `how` the name was found (`printed`: in `text`, the card's printed text in that language;
    `lexicon`: from the printed-card lexicon; `""`: the keyword's own English name)."""
    found = []
    for name in card.keywords:
        shown, lang, how = name, "en", ""
        if ui != "en" and keywords.lexicon is not None:
            candidates = keywords.french(name) if ui == "fr" else ()
            printed = next((_printed(c, text) for c in candidates if _printed(c, text)), None)
            if printed:
                shown, lang, how = printed, ui, "printed"
            elif candidates:
                shown, lang, how = candidates[0], ui, "lexicon"
        found.append({"name": shown, "lang": lang, "row": keywords.rows.get(fold(name)), "how": how})
    return found


def _printed(term: str, text: str) -> str | None:
    """`term` as the card's text prints it (a whole word or words, any case), capitalised; None when absent."""
    match = re.search(rf"(?<!\w){re.escape(term)}(?!\w)", text, re.IGNORECASE)
    return match.group(0)[:1].upper() + match.group(0)[1:] if match else None


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
