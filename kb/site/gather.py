"""Gather everything the site shows from a KnowledgeBase, before any page is rendered."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace

from kb.link.citations import in_force
from kb.link.readings import numbering_of, read, readings
from kb.model import Card, FaqInfo, FaqNote, Rule, Ruling, card_name
from kb.model.base import KnowledgeBase
from kb.model.langs import lang_key, ordered_langs
from kb.model.links import Reading
from kb.model.numbers import sort_key
from kb.parse.refs import find_references
from kb.site import parts
from kb.site.editions import ChangesPage, PageHistory, changes_pages, page_history, word_diffs
from kb.site.terms import glossary_labels, lexicon_labels
from kb.sources import file_slug, slug, sort_name, unique

DEPTH = {"section": 0, "rule": 0, "numbered": 1, "subrule": 2}
PREVIEW_CHARS = 500


@dataclass(frozen=True, slots=True)
class Row:
    """One rule number on a rule page, with the rule in each language (None where a language lacks it)."""

    number: str
    """The row's number: the reference language's (a cell's own number may differ, see `Rule.number`)."""
    depth: int
    cells: dict[str, Rule | None]
    fallback: dict[str, str]
    """Language -> id of the edition a cell's rule comes from, when it is not that language's aligned edition."""
    cited_by: dict[str, tuple[str, ...]]
    """Language -> numbers of the rules that cite it."""
    mentions: tuple[tuple[str, str], ...]
    """(label, site path) of the rulings' cards and notes that cite it."""
    label: str = ""
    """The number shown, when it is not the row's key (a translated rule with no counterpart today: `703.4h`)."""

    @property
    def langs(self) -> tuple[str, ...]:
        """Languages that have text for this row, in display order."""
        return tuple(lang for lang, rule in self.cells.items() if rule is not None)


@dataclass(frozen=True, slots=True)
class Run:
    """Consecutive rows of a rule page that have text in the same languages: a grid, or one column."""

    langs: tuple[str, ...]
    """Languages with text in every row of the run (one: the run is shown as a single column)."""
    missing: tuple[str, ...]
    """Languages of the site with no text in the run."""
    rows: tuple[Row, ...]
    inline: bool = False
    """A short one-language run among aligned rows: kept in its language's column of the grid, not widened."""

    @property
    def span(self) -> str:
        """`702.1–702.190`, or the one number."""
        first, last = self.rows[0].label or self.rows[0].number, self.rows[-1].label or self.rows[-1].number
        return first if first == last else f"{first}–{last}"


@dataclass(frozen=True, slots=True)
class RulePage:
    """A top-level rule (`120`) and every number under it."""

    head: str
    titles: dict[str, str]
    numbers: tuple[str, ...]
    """The page's rows, in order: each row's number (its key: `fr-703.4h` for a translation's row of its own)."""
    langs: tuple[str, ...] = ()
    """Languages with text somewhere on the page."""
    part: int = 1
    """Which part of its rule the page is, from 1 (a rule too large for one page is cut, see `kb.site.parts`)."""
    parts: tuple[tuple[str, str], ...] = ()
    """(file name, first–last row) of every part of a cut rule, in order; empty for a rule on one page."""
    made: Callable[[RulePage], tuple[tuple[Row, ...], tuple[Run, ...]]] | None = field(
        default=None, compare=False, repr=False
    )
    """Makes the page's rows and runs (`SiteData.page_rows`): they are made as the page is rendered, not held for
    every page through the build."""

    @property
    def rows(self) -> tuple[Row, ...]:
        """Every number of the page, with its rule in each language."""
        return self.made(self)[0] if self.made else ()

    @property
    def runs(self) -> tuple[Run, ...]:
        """The rows cut where the languages present change."""
        return self.made(self)[1] if self.made else ()

    @property
    def toc(self) -> tuple[tuple[str, dict[str, str]], ...]:
        """(number, language -> short label) of the page's numbered rules, for the list at the top of long pages
        (made as the page is rendered, not held for every page through the build)."""
        return _toc(self.rows)

    @property
    def file(self) -> str:
        """The page's file name in `rules/`: `702.html`, then `702-2.html`… for the parts of a cut rule."""
        return f"{self.head}.html" if self.part == 1 else f"{self.head}-{self.part}.html"

    @property
    def path(self) -> str:
        """Where the page is written, in each interface tree."""
        return f"rules/{self.file}"

    def label(self, langs: list[str]) -> str:
        """`120 · Piocher une carte · Drawing a Card`: the number and its titles in `langs` order."""
        return " · ".join([self.head, *(self.titles[lang] for lang in langs if lang in self.titles)])

    def title_in(self, ui: str) -> tuple[str, str]:
        """(title, its language) to show in an interface: its own, else another language's."""
        if ui in self.titles:
            return self.titles[ui], ui
        lang = next(iter(self.titles), ui)
        return self.titles.get(lang, ""), lang


@dataclass
class SiteData:
    """Everything the templates need, computed once."""

    kb: KnowledgeBase
    langs: list[str]
    """Languages of the rules, French first, then English, then the others."""
    search_langs: list[str] = field(default_factory=list)
    """Languages that get a search index."""
    rows: dict[str, dict[str, str]] = field(default_factory=dict)
    """Language -> its own rule number -> the row (reference number, the page anchor) showing it."""
    row_parts: dict[str, str] = field(default_factory=dict)
    """Row -> its page, for the rows of a cut rule that are not on its first page (`rules/702-2.html`)."""
    texts: Mapping[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    """(language, row number) -> (the rule's own number, the text shown when a reference to it is hovered)."""
    today: dict[str, dict[str, Reading]] = field(default_factory=dict)
    """Language -> a number it cites but does not have -> how it reads today (`kb.link.readings.read`)."""
    numbering_years: dict[str, str] = field(default_factory=dict)
    """Translation -> the year of the numbering its text uses ('' when that edition is not loaded), for the
    translations numbered otherwise than today's rules (the note saying so on the home and rule pages)."""
    note_citations: dict[str, tuple[dict[str, str], str]] = field(default_factory=dict)
    """FAQ note id -> (cited number -> today's number, the FAQ's date), for reading a note's numbers as dated."""
    rule_pages: list[RulePage] = field(default_factory=list)
    sections: list[dict] = field(default_factory=list)
    card_path: dict[str, str] = field(default_factory=dict)
    note_path: dict[str, str] = field(default_factory=dict)
    faq_path: dict[str, str] = field(default_factory=dict)
    faq_notes: dict[str, list[FaqNote]] = field(default_factory=dict)
    """FAQ document -> its general notes, in source order."""
    faq_parts: dict[str, list[parts.FaqPart]] = field(default_factory=dict)
    """FAQ document -> its page, or the parts of an FAQ too large for one page."""
    card_rulings: dict[str, list[tuple[str, str, list[Ruling], bool]]] = field(default_factory=dict)
    """Card id -> its rulings grouped by language and source (see `rulings_of`)."""
    fallbacks: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Language -> (number, edition id) of the rules shown from an edition other than the aligned one."""
    glossary: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    """Language -> (anchor, index in kb.glossary), alphabetical."""
    mentions: dict[tuple[str, str], list[tuple[str, str]]] = field(default_factory=dict)
    """(language, rule number) -> (label, site path) of the rulings and notes citing it."""
    card_mentions: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Card id -> (label, site path) of the other cards' rulings and the notes naming it."""
    letters: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Language -> (letter, anchor of its first glossary entry), for the A–Z bar."""
    rule_labels: dict[tuple[str, str], str] = field(default_factory=dict)
    """(language, number) -> a label for a rule in a language that lacks its text (`("fr", "702.2")` ->
    `Contact mortel`), shown in lists and titles; filled from a lexicon when one is given to `gather`."""
    glossary_labels: dict[tuple[str, int], str] = field(default_factory=dict)
    """(language, index in kb.glossary) -> a headword in a language whose glossary is not loaded (printed cards)."""
    histories: dict[str, list[PageHistory]] = field(default_factory=dict)
    """Rule page head -> the history of its rules in each language with several editions."""
    changes: list[ChangesPage] = field(default_factory=list)
    """A changes page per pair of consecutive editions of each language."""
    stale: frozenset[str] = frozenset()
    """Rows whose translation was made from an edition whose text changed since."""
    full_texts: dict[tuple[str, str], str] = field(default_factory=dict)
    """(language, row) -> file of the full text (from the site's root) of a rule too long to be shown whole."""
    own_rows: dict[str, tuple[str, Rule]] = field(default_factory=dict)
    """Key of a translation's row of its own (`fr-703.4h`) -> (its language, its rule)."""
    _made: dict[tuple[str, int], tuple[tuple[Row, ...], tuple[Run, ...]]] = field(default_factory=dict, repr=False)
    """The rows and runs of the pages last asked for (a page is rendered in both interfaces, one after the other)."""

    def page_rows(self, page: RulePage) -> tuple[tuple[Row, ...], tuple[Run, ...]]:
        """A rule page's rows and runs, made from the knowledge base (the last two pages' kept)."""
        key = (page.head, page.part)
        found = self._made.get(key)
        if found is None:
            rows = tuple(self.row(number) for number in page.numbers)
            found = (rows, _runs(rows, self.langs))
            while len(self._made) >= 2:
                del self._made[next(iter(self._made))]
            self._made[key] = found
        return found

    def row(self, number: str) -> Row:
        """The row of a number (or the key of a translation's row of its own)."""
        own = self.own_rows.get(number)
        if own is not None:
            return _own_row(self, number, *own)
        return _row(self, number)

    def rule_at(self, lang: str, number: str) -> Rule | None:
        """The rule a row shows in a language."""
        own = self.own_rows.get(number)
        if own is not None:
            return own[1] if own[0] == lang else None
        return self.kb.aligned(number).get(lang)

    def card_links(self, card_ids, lang: str, skip: str | None = None) -> dict[str, str]:
        """Names (in `lang`, and of each face) -> page of the given cards, for linking them in FAQ prose."""
        links: dict[str, str] = {}
        for cid in card_ids:
            card = self.kb.card.get(cid)
            if card is None or cid == skip or cid not in self.card_path:
                continue
            name = card_name(card, lang)
            faces = [card_name(face, lang) for face in card.faces] + name.split(" // ")
            for each in dict.fromkeys([name, *faces]):
                links.setdefault(each, self.card_path[cid])
        return links


def gather(kb: KnowledgeBase, rule_labels: dict[tuple[str, str], str] | None = None) -> SiteData:
    """Compute anchors, page groups, paths and backlinks for the whole site.

    `rule_labels` ((language, number) -> label) names rules in a language that lacks their text; by default
    the French terms of keyword and card-type rules from the knowledge base's lexicon (`terms.lexicon_labels`).
    """
    langs = site_langs(kb)
    labels = lexicon_labels(kb) if rule_labels is None else dict(rule_labels)
    data = SiteData(kb, langs, search_langs(kb, langs), rule_labels=labels)
    numbers = kb.numbers()
    for number in numbers:
        for lang, rule in kb.aligned(number).items():
            data.rows.setdefault(lang, {})[rule.number] = number
    data.texts = Previews(data, numbers)
    data.today = _today(kb)
    data.note_citations = _note_citations(kb)
    data.numbering_years = _numbering_years(kb)
    _paths(data)
    data.card_rulings = {card.id: rulings_of(kb, card) for card in kb.cards}
    _mentions(data)
    data.changes = changes_pages(kb)
    _rule_pages(data, numbers, word_diffs(data.changes))
    _contents(data, numbers)
    _glossary(data)
    data.glossary_labels = glossary_labels(kb)
    data.stale = frozenset(s.ref_number for s in kb.links.alignment.stale)
    return data


def _today(kb: KnowledgeBase) -> dict[str, dict[str, Reading]]:
    """Language -> each number its text cites without having it -> that number read in the numbering of the
    text's edition and followed to today (`kb.link.readings`): never today's rule of the same number by default."""
    return {lang: readings(kb, lang) for lang in kb.langs if lang != kb.reference}


def _numbering_years(kb: KnowledgeBase) -> dict[str, str]:
    """Translation -> year of the numbering its text uses ('' unknown), when it is not today's reference edition."""
    today = kb.primary.get(kb.reference) if kb.reference else None
    found = {}
    for lang in kb.langs:
        if lang == kb.reference or today is None:
            continue
        edition = numbering_of(kb, lang)
        if edition != today.id:
            found[lang] = (kb.editions[edition].effective_date or "")[:4] if edition else ""
    return found


def _note_citations(kb: KnowledgeBase) -> dict[str, tuple[dict[str, str], str]]:
    """FAQ note id -> (each number its text and bullets cite -> today's number, the FAQ's date): read in the
    edition in force at the FAQ's date (`in_force`), left out when no loaded edition was (shown as cited)."""
    out = {}
    dates = {info.document: info.last_modified for info in kb.faqs}
    for note in kb.notes:
        date = dates.get(note.document) or ""
        cited = {ref.targets[0] for text in (note.text, *note.bullets) for ref in find_references(text, note.lang)}
        if not cited or not date:
            continue
        edition = in_force(kb.links.editions, kb.reference or note.lang, date)
        found = {n: r.today for n in cited if (r := read(kb, edition.id if edition else None, n)).today}
        out[note.id] = (found, date)
    return out


def site_langs(kb: KnowledgeBase) -> list[str]:
    """Languages of the rules (of the documents when there are none), French first, then English, then the others."""
    return ordered_langs(kb.langs or [d.lang for d in kb.documents])


def search_langs(kb: KnowledgeBase, langs: list[str]) -> list[str]:
    """Languages that get a search index: those of the rules, rulings, notes and card names."""
    found = set(langs) | {r.lang for r in kb.rulings} | {n.lang for n in kb.notes}
    found |= {lang for c in kb.cards for lang in c.names}
    return ordered_langs(list(found))


class Previews(Mapping[tuple[str, str], tuple[str, str]]):
    """(language, row number) -> (the rule's own number, the text shown when a reference to it is hovered), made
    when asked for (`SiteData.rule_at`) rather than a preview held for every rule through the build."""

    def __init__(self, data: SiteData, numbers: list[str]) -> None:
        self._data, self._numbers = data, frozenset(numbers)

    def _rule(self, key: object) -> Rule | None:
        if not isinstance(key, tuple) or len(key) != 2:
            return None
        lang, row = key
        if row not in self._numbers and row not in self._data.own_rows:
            return None
        return self._data.rule_at(lang, row)

    def __getitem__(self, key: tuple[str, str]) -> tuple[str, str]:
        rule = self._rule(key)
        if rule is None:
            raise KeyError(key)
        return rule.number, preview_text(rule)

    def __contains__(self, key: object) -> bool:
        return self._rule(key) is not None

    def __iter__(self) -> Iterator[tuple[str, str]]:
        for number in sorted(self._numbers, key=sort_key):
            for lang in self._data.kb.aligned(number):
                yield lang, number
        for key, (lang, _rule) in self._data.own_rows.items():
            yield lang, key

    def __len__(self) -> int:
        return sum(1 for _ in self)


def preview_text(rule: Rule) -> str:
    """The text shown when hovering a reference to the rule."""
    if not rule.title and "\n" not in rule.text and len(rule.text) <= PREVIEW_CHARS:
        return rule.text  # most rules: their text itself, not a copy
    body = rule.text[:PREVIEW_CHARS]  # all a preview shows (a giant text is never copied whole)
    text = " ".join(p for p in (rule.title, body.replace("\n", " ")) if p)
    if len(rule.text) <= PREVIEW_CHARS and len(text) <= PREVIEW_CHARS:
        return text
    return text[: PREVIEW_CHARS - 1].rstrip() + "…"


def _paths(data: SiteData) -> None:
    """Give each card, FAQ and note its page (and anchor), with unique slugs."""
    used: set[str] = set()
    for card in data.kb.cards:
        data.card_path[card.id] = f"cards/{unique(file_slug(card.id), used)}.html"
    for note in data.kb.notes:
        data.faq_notes.setdefault(note.document, []).append(note)
    used = set()
    for info in data.kb.faqs:
        path = f"faq/{unique(file_slug(info.document), used)}.html"
        data.faq_path[info.document] = path
        notes = data.faq_notes.setdefault(info.document, [])
        found = parts.faq_parts(path, notes, faq_cards(data.kb, info, {n.id for n in notes}), info.lang)
        data.faq_parts[info.document] = found
        where = {note.id: part.path for part in found for note in part.notes}
        taken: set[str] = set()
        for note in notes:
            anchor = unique("note-" + slug(note.title or note.id.split("#")[-1]), taken)
            data.note_path[note.id] = f"{where[note.id]}#{anchor}"


def faq_cards(kb: KnowledgeBase, info: FaqInfo, note_ids: set[str]) -> list[Card]:
    """Cards a FAQ prints or rules on, in source order."""
    by_doc = {r.card for r in kb.rulings if r.source_document == info.document}
    return [c for c in kb.cards if c.id in by_doc or note_ids.intersection(c.notes)]


def _mentions(data: SiteData) -> None:
    """Backlinks from rulings and notes to the rules and cards they cite, as (label, site path)."""
    for key, ids in data.kb.rule_mentions.items():
        found = [_mention(data, item_id, key[0]) for item_id in ids]
        data.mentions[key] = list(dict.fromkeys(m for m in found if m is not None))
    for card_id, ids in data.kb.card_mentions.items():
        found = [_mention(data, item_id, None) for item_id in ids]
        data.card_mentions[card_id] = list(dict.fromkeys(m for m in found if m is not None))


def _mention(data: SiteData, item_id: str, lang: str | None) -> tuple[str, str] | None:
    """(label, site path) of a ruling (its card's page) or a note (its anchor on the FAQ page)."""
    ruling = data.kb.ruling.get(item_id)
    if ruling is not None:
        card = data.kb.card.get(ruling.card)
        if card is None or card.id not in data.card_path:
            return None
        return card_name(card, lang or ruling.lang), data.card_path[card.id]
    note = data.kb.note.get(item_id)
    if note is None or note.id not in data.note_path:
        return None
    return note.title, data.note_path[note.id]


def _rule_pages(data: SiteData, numbers: list[str], diffs: dict) -> None:
    """Group numbers under their three-digit rule; each group is one page (or its parts)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for number in numbers:
        head = number.split(".")[0]
        if len(head) == 3:
            groups[head].append(number)
    for head, members in groups.items():
        rows = []
        for number in members:
            row = _row(data, number)
            for lang, ed in row.fallback.items():
                data.fallbacks.setdefault(lang, []).append((number, ed))
            rows.append(row)
        _add_orphans(data, head, rows)
        head_rules = data.kb.aligned(head)
        titles = {lang: r.title for lang, r in head_rules.items() if r.title}
        data.rule_pages += _parts(data, head, titles, rows)
        followed = [page_history(data.kb, lang, _cells(rows, lang), diffs) for lang in data.langs]
        data.histories[head] = [found for found in followed if found is not None]


def _row(data: SiteData, number: str) -> Row:
    """A number's row: its rule in each language, where each comes from, who cites it."""
    aligned = data.kb.aligned(number)
    cells = {lang: aligned.get(lang) for lang in data.langs}
    fallback = {}
    for lang, rule in aligned.items():
        edition = data.kb.primary.get(lang)
        if (ed := data.kb.edition_of(rule).id) != (edition.id if edition else None):
            fallback[lang] = ed
    kind = next(r.kind for r in aligned.values())
    cited = {lang: tuple(r.number for r in data.kb.cited_by(rule)) for lang, rule in aligned.items()}
    mentions = tuple(m for lang in data.langs for m in data.mentions.get((lang, number), ()))
    return Row(number, DEPTH.get(kind, 2), cells, fallback, cited, tuple(dict.fromkeys(mentions)))


def _own_row(data: SiteData, key: str, lang: str, rule: Rule) -> Row:
    """The row of its own of a translation's rule with no counterpart today."""
    cells = {other: (rule if other == lang else None) for other in data.langs}
    cited = {lang: tuple(r.number for r in data.kb.cited_by(rule))}
    return Row(key, DEPTH.get(rule.kind, 2), cells, {}, cited, (), rule.number)


def _parts(data: SiteData, head: str, titles: dict[str, str], rows: list[Row]) -> list[RulePage]:
    """A rule's page, or its parts when it is too large for one (cut between numbered rules when it can be);
    rows not on the first part are recorded in `data.row_parts`, texts too long to be shown whole in
    `data.full_texts`."""
    for row in rows:
        for lang, rule in row.cells.items():
            if rule is not None and _too_long(rule):
                data.full_texts[(lang, row.number)] = f"text/{lang}/{file_slug(row.number)}.txt"
    spans = parts.cut([_row_chars(row) for row in rows], [row.depth <= 1 for row in rows], parts.PAGE_CHARS)
    pages, listed = [], []
    for i, span in enumerate(spans):
        found = rows[span.start : span.stop]
        langs = tuple(dict.fromkeys(lang for row in found for lang in row.langs))
        numbers = tuple(row.number for row in found)
        pages.append(RulePage(head, titles, numbers, langs, i + 1, made=data.page_rows))
        listed.append((pages[-1].file, _span(found)))
    if len(pages) == 1:
        return pages
    for page in pages[1:]:
        data.row_parts.update(dict.fromkeys(page.numbers, page.path))
    return [replace(page, parts=tuple(listed)) for page in pages]


def _span(rows: list[Row] | tuple[Row, ...]) -> str:
    """`702.1–702.19b`: the first and last numbers of rows."""
    first, last = rows[0].label or rows[0].number, rows[-1].label or rows[-1].number
    return first if first == last else f"{first}–{last}"


def _too_long(rule: Rule) -> bool:
    """Whether a rule's text or one of its examples is too long to be shown whole."""
    return any(len(text) > parts.TEXT_CHARS for text in (rule.text, *rule.examples))


def _row_chars(row: Row) -> int:
    """The estimated characters a row takes on its page: its texts as shown, their links, the markup."""
    size = parts.ITEM_CHARS + parts.LINK_CHARS * min(len(row.mentions), parts.LINKS_SHOWN)
    for lang, rule in row.cells.items():
        if rule is not None:
            texts = (rule.title, rule.text, *rule.examples)
            size += parts.ITEM_CHARS + sum(parts.text_chars(text) for text in texts)
            size += parts.LINK_CHARS * min(len(row.cited_by.get(lang, ())), parts.LINKS_SHOWN)
    return size


def _cells(rows: list[Row], lang: str) -> list[tuple[str, Rule]]:
    """(row number, rule) of a language's cells, orphan rows aside (they have no counterpart to follow)."""
    return [(row.number, cell) for row in rows if not row.label and (cell := row.cells.get(lang)) is not None]


def _add_orphans(data: SiteData, head: str, rows: list[Row]) -> None:
    """Put a translation's rules that have no counterpart today (and whose number today's numbering gives to
    another rule) on their rule's page, after the row of the rule before them, as rows of their own."""
    for lang, orphans in data.kb.orphans.items():
        for rule in orphans:
            if rule.number.split(".")[0] != head:
                continue
            key = f"{lang}-{rule.number}"
            before = [
                i
                for i, row in enumerate(rows)
                if (cell := row.cells.get(lang)) and sort_key(cell.number) < sort_key(rule.number)
            ]
            at = before[-1] + 1 if before else len(rows)
            data.own_rows[key] = (lang, rule)
            rows.insert(at, _own_row(data, key, lang, rule))
            data.rows.setdefault(lang, {})[rule.number] = key


INLINE_ROWS = 8
"""A one-language run this short, on a page with aligned rows, stays in its column of the grid."""


def _runs(rows: list[Row], langs: list[str]) -> tuple[Run, ...]:
    """Cut the rows where the set of languages with text changes."""
    runs: list[Run] = []
    for row in rows:
        if runs and runs[-1].langs == row.langs:
            runs[-1] = Run(row.langs, runs[-1].missing, (*runs[-1].rows, row))
        else:
            runs.append(Run(row.langs, tuple(lang for lang in langs if lang not in row.langs), (row,)))
    if any(len(run.langs) > 1 for run in runs):
        runs = [replace(run, inline=len(run.langs) == 1 and len(run.rows) <= INLINE_ROWS) for run in runs]
    return tuple(runs)


def _toc(rows: list[Row]) -> tuple[tuple[str, dict[str, str]], ...]:
    """The numbered rules of a page with a short label in each language (a title, or the start of the text)."""
    toc = []
    for row in rows:
        if row.depth != 1:
            continue
        names = {lang: short_label(rule) for lang, rule in row.cells.items() if rule is not None}
        toc.append((row.number, names))
    return tuple(toc)


_WORD_OR_LINE = re.compile(r"[^\s]+|\n")


def short_label(rule: Rule, words: int = 8) -> str:
    """A rule's title, its text when short (`Deathtouch`), or the first words of its text."""
    if rule.title:
        return rule.title
    found = []  # the first line's words, up to one more than shown (a giant text is never split whole)
    for match in _WORD_OR_LINE.finditer(rule.text):
        if match[0] == "\n" or len(found) > words:
            break
        found.append(match)
    if len(found) <= words:
        return rule.text[found[0].start() : found[-1].end()] if found else ""
    return " ".join(m[0] for m in found[:words]) + "…"


def _contents(data: SiteData, numbers: list[str]) -> None:
    """Sections with their rules' titles, for the contents page."""
    heads = {p.head: p for p in data.rule_pages if p.part == 1}
    digits = dict.fromkeys([n for n in numbers if len(n) == 1] + [h[0] for h in heads])
    for digit in sorted(digits):
        titles = {lang: r.title for lang, r in data.kb.aligned(digit).items() if r.title}
        rules = [heads[h] for h in heads if h[0] == digit]
        data.sections.append({"number": digit, "titles": titles, "rules": rules})


def _glossary(data: SiteData) -> None:
    """Glossary entries per language (of its aligned edition when it has one), alphabetical, unique anchors."""
    taken: set[str] = set()
    shown = _glossary_documents(data.kb)
    for index, entry in sorted(enumerate(data.kb.glossary), key=lambda p: sort_name(p[1].term)):
        if entry.document not in shown:
            continue
        anchor = unique(f"g-{entry.lang}-{slug(entry.term)}", taken)
        data.glossary.setdefault(entry.lang, []).append((anchor, index))
        letter = (sort_name(entry.term)[:1] or "#").upper()
        letter = letter if letter.isalpha() else "#"
        letters = data.letters.setdefault(entry.lang, [])
        if not letters or letters[-1][0] != letter:
            letters.append((letter, anchor))


def _glossary_documents(kb: KnowledgeBase) -> set[str]:
    """Documents whose glossary the site shows: each language's aligned edition, else all of that language."""
    shown = set()
    for lang in {entry.lang for entry in kb.glossary}:
        docs = {e.document for e in kb.glossary if e.lang == lang}
        edition = kb.primary.get(lang)
        own = docs.intersection(edition.documents) if edition else set()
        shown |= own or docs
    return shown


def rulings_of(kb: KnowledgeBase, card: Card) -> list[tuple[str, str, list[Ruling], bool]]:
    """A card's rulings grouped by (language, source): `(lang, label, rulings, plain)`, FAQ groups first.

    `plain` is true for rulings from card data (Gatherer): plain text, never markdown.
    """
    groups: dict[tuple[str, str], list[Ruling]] = {}
    for rid in card.rulings:
        ruling = kb.ruling.get(rid)
        if ruling is not None:
            groups.setdefault((ruling.lang, ruling.source_document), []).append(ruling)
    out = []
    for (lang, doc_id), rulings in groups.items():
        doc = kb.document.get(doc_id)
        label = doc.title if doc is not None and doc.title else (rulings[0].section or doc_id)
        out.append((lang, label, rulings, doc is not None and doc.kind == "cards"))
    return sorted(out, key=lambda g: (g[3], lang_key(g[0])))
