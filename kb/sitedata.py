"""Gather everything the site shows from a KnowledgeBase, before any page is rendered."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from kb.base import KnowledgeBase
from kb.model import Card, FaqInfo, FaqNote, Rule, Ruling
from kb.render import fold, slug, sort_name

DEPTH = {"section": 0, "rule": 0, "numbered": 1, "subrule": 2}
PREVIEW_CHARS = 500


@dataclass(frozen=True, slots=True)
class Row:
    """One rule number on a rule page, with the rule in each language (None leaves a gap)."""

    number: str
    depth: int
    cells: dict[str, Rule | None]
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


@dataclass
class SiteData:
    """Everything the templates need, computed once."""

    kb: KnowledgeBase
    langs: list[str]
    """Languages of the rules, French first, then English, then the others."""
    anchors: dict[str, set[str]] = field(default_factory=dict)
    texts: dict[tuple[str, str], str] = field(default_factory=dict)
    rule_pages: list[RulePage] = field(default_factory=list)
    sections: list[dict] = field(default_factory=list)
    card_path: dict[str, str] = field(default_factory=dict)
    note_path: dict[str, str] = field(default_factory=dict)
    faq_path: dict[str, str] = field(default_factory=dict)
    glossary: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    """Language -> (anchor, index in kb.glossary), alphabetical."""
    mentions: dict[tuple[str, str], list[tuple[str, str]]] = field(default_factory=dict)
    card_mentions: dict[str, list[tuple[str, str]]] = field(default_factory=dict)


def ordered_langs(langs: list[str]) -> list[str]:
    """French first, then English, then the rest in code order."""
    return sorted(dict.fromkeys(langs), key=lambda lang: (lang != "fr", lang != "en", lang))


def gather(kb: KnowledgeBase) -> SiteData:
    """Compute anchors, page groups, paths and backlinks for the whole site."""
    langs = ordered_langs(kb.langs or [d.lang for d in kb.documents])
    data = SiteData(kb, langs)
    numbers = kb.numbers()
    for number in numbers:
        for lang, rule in kb.aligned(number).items():
            data.anchors.setdefault(lang, set()).add(number)
            data.texts[(lang, number)] = preview_text(rule)
    _paths(data)
    _mentions(data)
    _rule_pages(data, numbers)
    _contents(data, numbers)
    _glossary(data)
    return data


def preview_text(rule: Rule) -> str:
    """The text shown when hovering a reference to the rule."""
    text = " ".join(p for p in (rule.title, rule.text.replace("\n", " ")) if p)
    return text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1].rstrip() + "…"


def _paths(data: SiteData) -> None:
    """Give each card, FAQ and note its page (and anchor), with unique slugs."""
    used: set[str] = set()
    for card in data.kb.cards:
        name = slug(card.id)
        while name in used:
            name += "-2"
        used.add(name)
        data.card_path[card.id] = f"cards/{name}.html"
    for info in data.kb.faqs:
        path = f"faq/{slug(info.document)}.html"
        data.faq_path[info.document] = path
        taken: set[str] = set()
        for note in faq_notes(data.kb, info):
            anchor = "note-" + slug(note.title or note.id.split("#")[-1])
            while anchor in taken:
                anchor += "-2"
            taken.add(anchor)
            data.note_path[note.id] = f"{path}#{anchor}"


def faq_notes(kb: KnowledgeBase, info: FaqInfo) -> list[FaqNote]:
    """The general notes of a FAQ, in source order."""
    return [n for n in kb.notes if n.document == info.document or (not n.document and n.id.startswith(info.document))]


def faq_cards(kb: KnowledgeBase, info: FaqInfo, note_ids: set[str]) -> list[Card]:
    """Cards a FAQ prints or rules on, in source order."""
    by_doc = {r.card for r in kb.rulings if r.source_document == info.document}
    return [c for c in kb.cards if c.id in by_doc or note_ids.intersection(c.notes)]


def _mentions(data: SiteData) -> None:
    """Backlinks from rulings and notes to the rules and cards they cite."""
    kb = data.kb
    for ruling in kb.rulings:
        card = kb.card.get(ruling.card)
        if card is None or ruling.card not in data.card_path:
            continue
        label = card_name(card, ruling.lang)
        for number in ruling.rule_refs:
            data.mentions.setdefault((ruling.lang, number), []).append((label, data.card_path[card.id]))
        for other in ruling.card_refs:
            if other != card.id:
                data.card_mentions.setdefault(other, []).append((label, data.card_path[card.id]))
    for note in kb.notes:
        if note.id not in data.note_path:
            continue
        for number in note.rule_refs:
            data.mentions.setdefault((note.lang, number), []).append((note.title, data.note_path[note.id]))
        for other in note.card_refs:
            data.card_mentions.setdefault(other, []).append((note.title, data.note_path[note.id]))
    for value in [*data.mentions.values(), *data.card_mentions.values()]:
        value[:] = list(dict.fromkeys(value))


def card_name(card: Card, lang: str) -> str:
    """The card's name in a language, else in any language it has."""
    return card.names.get(lang) or next(iter(card.names.values()), card.id)


def _rule_pages(data: SiteData, numbers: list[str]) -> None:
    """Group numbers under their three-digit rule; each group is one page."""
    groups: dict[str, list[str]] = defaultdict(list)
    for number in numbers:
        head = number.split(".")[0]
        if len(head) == 3:
            groups[head].append(number)
    for head, members in groups.items():
        rows = []
        for number in members:
            aligned = data.kb.aligned(number)
            cells = {lang: aligned.get(lang) for lang in data.langs}
            kind = next(r.kind for r in aligned.values())
            cited = {lang: tuple(r.number for r in data.kb.cited_by(rule)) for lang, rule in aligned.items()}
            mentions = tuple(m for lang in data.langs for m in data.mentions.get((lang, number), ()))
            rows.append(Row(number, DEPTH.get(kind, 2), cells, cited, tuple(dict.fromkeys(mentions))))
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
        anchor = f"g-{entry.lang}-{slug(entry.term)}"
        while anchor in taken:
            anchor += "-2"
        taken.add(anchor)
        data.glossary.setdefault(entry.lang, []).append((anchor, index))


def coverage(data: SiteData) -> list[dict]:
    """Per section: rules in each language, aligned rules, total numbers, percentages."""
    rows: dict[str, dict] = {}
    for number in data.kb.numbers():
        row = rows.setdefault(number[0], {"section": number[0], "total": 0, "aligned": 0,
                                          "counts": dict.fromkeys(data.langs, 0)})  # fmt: skip
        row["total"] += 1
        present = [lang for lang in data.langs if number in data.anchors.get(lang, ())]
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
    return sorted(out, key=lambda g: (g[0] != "fr", g[0] != "en", g[0]))


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
    return {"numbers": numbers, "cards": cards}
