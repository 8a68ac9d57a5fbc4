"""Gather everything the site shows from a KnowledgeBase, before any page is rendered."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from kb.model import Card, FaqInfo, FaqNote, Rule, Ruling, card_name
from kb.model.base import KnowledgeBase
from kb.model.langs import lang_key, ordered_langs
from kb.model.numbers import TYPED_PATTERN
from kb.sources import search_fold as fold
from kb.sources import slug, sort_name, unique

DEPTH = {"section": 0, "rule": 0, "numbered": 1, "subrule": 2}
PREVIEW_CHARS = 500


@dataclass(frozen=True, slots=True)
class Row:
    """One rule number on a rule page, with the rule in each language (None leaves a gap)."""

    number: str
    depth: int
    cells: dict[str, Rule | None]
    fallback: dict[str, str]
    """Language -> id of the edition a cell's rule comes from, when it is not that language's aligned edition."""
    cited_by: dict[str, tuple[str, ...]]
    """Language -> numbers of the rules that cite it."""
    mentions: tuple[tuple[str, str], ...]
    """(label, site path) of the rulings' cards and notes that cite it."""


@dataclass(frozen=True, slots=True)
class RulePage:
    """A top-level rule (`120`) and every number under it."""

    head: str
    titles: dict[str, str]
    rows: tuple[Row, ...]

    @property
    def path(self) -> str:
        """Where the page is written."""
        return f"rules/{self.head}.html"

    def label(self, langs: list[str]) -> str:
        """`120 · Piocher une carte · Drawing a Card`: the number and its titles in `langs` order."""
        return " · ".join([self.head, *(self.titles[lang] for lang in langs if lang in self.titles)])


@dataclass
class SiteData:
    """Everything the templates need, computed once."""

    kb: KnowledgeBase
    langs: list[str]
    """Languages of the rules, French first, then English, then the others."""
    search_langs: list[str] = field(default_factory=list)
    """Languages that get a search index (one Pagefind bundle each)."""
    anchors: dict[str, set[str]] = field(default_factory=dict)
    texts: dict[tuple[str, str], str] = field(default_factory=dict)
    rule_pages: list[RulePage] = field(default_factory=list)
    sections: list[dict] = field(default_factory=list)
    card_path: dict[str, str] = field(default_factory=dict)
    note_path: dict[str, str] = field(default_factory=dict)
    faq_path: dict[str, str] = field(default_factory=dict)
    faq_notes: dict[str, list[FaqNote]] = field(default_factory=dict)
    """FAQ document -> its general notes, in source order."""
    card_rulings: dict[str, list[tuple[str, str, list[Ruling]]]] = field(default_factory=dict)
    """Card id -> its rulings grouped by language and source (see `rulings_of`)."""
    fallbacks: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Language -> (number, edition id) of the rules shown from an edition other than the aligned one."""
    glossary: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    """Language -> (anchor, index in kb.glossary), alphabetical."""
    mentions: dict[tuple[str, str], list[tuple[str, str]]] = field(default_factory=dict)
    """(language, rule number) -> (label, site path) of the rulings and notes citing it."""
    card_mentions: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Card id -> (label, site path) of the other cards' rulings and the notes naming it."""

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


def gather(kb: KnowledgeBase) -> SiteData:
    """Compute anchors, page groups, paths and backlinks for the whole site."""
    langs = ordered_langs(kb.langs or [d.lang for d in kb.documents])
    data = SiteData(kb, langs, search_langs(kb, langs))
    numbers = kb.numbers()
    for number in numbers:
        for lang, rule in kb.aligned(number).items():
            data.anchors.setdefault(lang, set()).add(number)
            data.texts[(lang, number)] = preview_text(rule)
    _paths(data)
    data.card_rulings = {card.id: rulings_of(kb, card) for card in kb.cards}
    _mentions(data)
    _rule_pages(data, numbers)
    _contents(data, numbers)
    _glossary(data)
    return data


def search_langs(kb: KnowledgeBase, langs: list[str]) -> list[str]:
    """Languages that get a search index: those of the rules, rulings, notes and card names."""
    found = set(langs) | {r.lang for r in kb.rulings} | {n.lang for n in kb.notes}
    found |= {lang for c in kb.cards for lang in c.names}
    return ordered_langs(list(found))


def preview_text(rule: Rule) -> str:
    """The text shown when hovering a reference to the rule."""
    text = " ".join(p for p in (rule.title, rule.text.replace("\n", " ")) if p)
    return text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1].rstrip() + "…"


def _paths(data: SiteData) -> None:
    """Give each card, FAQ and note its page (and anchor), with unique slugs."""
    used: set[str] = set()
    for card in data.kb.cards:
        data.card_path[card.id] = f"cards/{unique(slug(card.id), used)}.html"
    for note in data.kb.notes:
        data.faq_notes.setdefault(note.document, []).append(note)
    used = set()
    for info in data.kb.faqs:
        path = f"faq/{unique(slug(info.document), used)}.html"
        data.faq_path[info.document] = path
        taken: set[str] = set()
        for note in data.faq_notes.setdefault(info.document, []):
            anchor = unique("note-" + slug(note.title or note.id.split("#")[-1]), taken)
            data.note_path[note.id] = f"{path}#{anchor}"


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


def _rule_pages(data: SiteData, numbers: list[str]) -> None:
    """Group numbers under their three-digit rule; each group is one page."""
    groups: dict[str, list[str]] = defaultdict(list)
    for number in numbers:
        head = number.split(".")[0]
        if len(head) == 3:
            groups[head].append(number)
    primary = {lang: data.kb.primary[lang].id for lang in data.kb.primary}
    for head, members in groups.items():
        rows = []
        for number in members:
            aligned = data.kb.aligned(number)
            cells = {lang: aligned.get(lang) for lang in data.langs}
            fallback = {
                lang: ed for lang, rule in aligned.items() if (ed := data.kb.edition_of(rule).id) != primary.get(lang)
            }
            for lang, ed in fallback.items():
                data.fallbacks.setdefault(lang, []).append((number, ed))
            kind = next(r.kind for r in aligned.values())
            cited = {lang: tuple(r.number for r in data.kb.cited_by(rule)) for lang, rule in aligned.items()}
            mentions = tuple(m for lang in data.langs for m in data.mentions.get((lang, number), ()))
            rows.append(Row(number, DEPTH.get(kind, 2), cells, fallback, cited, tuple(dict.fromkeys(mentions))))
        head_rules = data.kb.aligned(head)
        titles = {lang: r.title for lang, r in head_rules.items() if r.title}
        data.rule_pages.append(RulePage(head, titles, tuple(rows)))


def _contents(data: SiteData, numbers: list[str]) -> None:
    """Sections with their rules' titles, for the contents page."""
    heads = {p.head: p for p in data.rule_pages}
    digits = dict.fromkeys([n for n in numbers if len(n) == 1] + [h[0] for h in heads])
    for digit in sorted(digits):
        titles = {lang: r.title for lang, r in data.kb.aligned(digit).items() if r.title}
        rules = [heads[h] for h in heads if h[0] == digit]
        data.sections.append({"number": digit, "titles": titles, "rules": rules})


def _glossary(data: SiteData) -> None:
    """Glossary entries per language, alphabetical, with unique anchors."""
    taken: set[str] = set()
    for index, entry in sorted(enumerate(data.kb.glossary), key=lambda p: sort_name(p[1].term)):
        anchor = unique(f"g-{entry.lang}-{slug(entry.term)}", taken)
        data.glossary.setdefault(entry.lang, []).append((anchor, index))


def coverage(data: SiteData) -> list[dict]:
    """Per section: rules of each language's aligned edition, rules in all of them, total numbers, percentages."""
    rows: dict[str, dict] = {}
    primary = data.kb.primary
    for number in data.kb.numbers():
        row = rows.setdefault(
            number[0], {"section": number[0], "total": 0, "aligned": 0, "counts": dict.fromkeys(data.langs, 0)}
        )
        row["total"] += 1
        present = [lang for lang in data.langs if lang in primary and number in primary[lang].rules]
        for lang in present:
            row["counts"][lang] += 1
        row["aligned"] += len(present) == len(data.langs)
    for row in rows.values():
        row["pct"] = {lang: round(100 * n / row["total"]) for lang, n in row["counts"].items()}
    return [rows[k] for k in sorted(rows)]


def rulings_of(kb: KnowledgeBase, card: Card) -> list[tuple[str, str, list[Ruling]]]:
    """A card's rulings grouped by (language, source): `(lang, label, rulings)`, FAQ groups first."""
    groups: dict[tuple[str, str], list[Ruling]] = {}
    for rid in card.rulings:
        ruling = kb.ruling.get(rid)
        if ruling is not None:
            groups.setdefault((ruling.lang, ruling.source_document), []).append(ruling)
    out = []
    for (lang, doc_id), rulings in groups.items():
        doc = kb.document.get(doc_id)
        label = doc.title if doc is not None and doc.title else (rulings[0].section or doc_id)
        out.append((lang, label, rulings))
    return sorted(out, key=lambda g: lang_key(g[0]))


def jump_map(data: SiteData) -> dict:
    """Rule numbers and folded card names -> page, for the search box's direct jump."""
    numbers = {}
    for page in data.rule_pages:
        numbers[page.head] = page.path + (f"#{page.head}" if page.rows[0].number == page.head else "")
        for row in page.rows:
            numbers[row.number] = f"{page.path}#{row.number}"
    for section in data.sections:
        numbers.setdefault(section["number"], f"contents.html#{section['number']}")
    cards = {}
    for card in data.kb.cards:
        for name in card.names.values():
            cards.setdefault(fold(name), data.card_path[card.id])
            for face in name.split(" // "):
                cards.setdefault(fold(face), data.card_path[card.id])
    return {"numbers": numbers, "cards": cards, "pattern": TYPED_PATTERN}
