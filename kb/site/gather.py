"""Gather everything the site shows from a KnowledgeBase, before any page is rendered."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from kb.model import Card, FaqInfo, FaqNote, Rule, Ruling, card_name
from kb.model.base import KnowledgeBase
from kb.model.langs import lang_key, ordered_langs
from kb.model.links import Miscitation
from kb.model.numbers import sort_key
from kb.site import parts
from kb.site.cardnames import faq_names
from kb.site.editions import ChangesPage, PageHistory, changes_pages, word_diffs
from kb.site.glossary import Letter, glossary_entries, named_letters, see_links
from kb.site.render import number_page
from kb.site.rulepages import RulePage, rule_pages
from kb.site.terms import glossary_find_words, glossary_labels, glossary_words, lexicon_labels
from kb.sources import file_slug, slug, unique

PREVIEW_CHARS = 500


@dataclass(frozen=True)
class SiteData:
    """Everything the templates need, computed once (`gather`), before any page is rendered."""

    kb: KnowledgeBase
    langs: list[str]
    """Languages of the rules, French first, then English, then the others."""
    search_langs: list[str]
    """Languages that get a search index."""
    rows: dict[str, dict[str, str]]
    """Language -> its own rule number -> the row (reference number, the page anchor) showing it."""
    row_parts: dict[str, str]
    """Row -> its page, for the rows of a cut rule that are not on its first page (`rules/702-2.html`)."""
    texts: Mapping[tuple[str, str], tuple[str, str]]
    """(language, row number) -> (the rule's own number, the text shown when a reference to it is hovered)."""
    miscited: dict[tuple[str, str], dict[str, Miscitation]]
    """(language, a translated rule's own number) -> the numbers it cites that its original does not, each read as
    the number its original cites in its place (`kb.link.references.citecheck`): linked so, and flagged."""
    rule_pages: tuple[RulePage, ...]
    sections: list[dict]
    card_path: dict[str, str]
    note_path: dict[str, str]
    faq_path: dict[str, str]
    faq_notes: dict[str, list[FaqNote]]
    """FAQ document -> its general notes, in source order."""
    faq_parts: dict[str, list[parts.FaqPart]]
    """FAQ document -> its page, or the parts of an FAQ too large for one page."""
    card_rulings: dict[str, list[tuple[str, str, list[Ruling], bool]]]
    """Card id -> its rulings grouped by language and source (see `rulings_of`)."""
    fallbacks: dict[str, list[tuple[str, str]]]
    """Language -> (number, edition id) of the rules shown from an edition other than the aligned one."""
    glossary: dict[str, list[tuple[str, int]]]
    """Language -> (anchor, index in kb.glossary), alphabetical."""
    mentions: dict[tuple[str, str], list[tuple[str, str]]]
    """(language, rule number) -> (item, site path) of the rulings' cards and the notes citing it (`mention_label`)."""
    card_mentions: dict[str, list[tuple[str, str]]]
    """Card id -> (item, site path) of the other cards whose rulings name it and the notes naming it."""
    letters: dict[str, list[Letter]]
    """Language -> its glossary entries under their letters, for the page and its A–Z bar."""
    named_letters: dict[tuple[str, str], list[Letter]]
    """(interface language, glossary language) -> the entries under the letters of kb's names for them in the
    interface's language (`kb.site.glossary.named_letters`): that interface's page lists them so, names first."""
    glossary_see: dict[int, tuple[tuple[int, int, str], ...]]
    """Index in kb.glossary -> (start, end, anchor) of the terms its definition sends to (`See Damage.`)."""
    rule_labels: dict[tuple[str, str], str]
    """(language, number) -> a label for a rule in a language that lacks its text (`("fr", "702.2")` ->
    `Contact mortel`), shown in lists and titles; filled from a lexicon when one is given to `gather`."""
    glossary_labels: dict[tuple[str, int], str]
    """(language, index in kb.glossary) -> a headword in a language whose glossary is not loaded (printed cards)."""
    glossary_find: dict[tuple[str, int], tuple[str, ...]]
    """(interface, glossary index) -> words the filter finds an entry by, beyond its own (`glossary_find_words`)."""
    glossary_words: dict[tuple[str, int], tuple[str, ...]]
    """(language, index in kb.glossary) -> words the cards of a language whose glossary is not loaded print for the
    term (`terms.glossary_words`)."""
    histories: dict[str, list[PageHistory]]
    """Rule page head -> the history of its rules in each language with several editions."""
    changes: list[ChangesPage]
    """A changes page per pair of consecutive editions of each language."""
    stale: frozenset[str]
    """Rows whose translation was made from an edition whose text changed since."""
    full_texts: dict[tuple[str, str], str]
    """(language, row) -> file of the full text (from the site's root) of a rule too long to be shown whole."""
    faq_names: dict[str, dict[str, tuple[str, ...]]]
    """Card id -> language -> its faces' names as an FAQ of that language writes them, where the card data has none
    (`cardnames.faq_names`: « Coup/Fuite »)."""
    own_rows: dict[str, tuple[str, Rule]]
    """Key of a translation's row of its own (`fr-703.4h`) -> (its language, its rule)."""

    def rule_at(self, lang: str, number: str) -> Rule | None:
        """The rule a row shows in a language."""
        return rule_at(self.kb, self.own_rows, lang, number)

    def shown_today(self, lang: str, head: str) -> tuple[str, str] | None:
        """(page, today's number of its rule) where a language's text numbered `head` is shown today (its heading
        line, else its first numbered rule, says where: the French 120 of the 2015 numbering is on the page of
        today's 121), or None when the site shows it nowhere."""
        rows = self.rows.get(lang, {})
        own = head if head in rows else min((n for n in rows if n.startswith(head + ".")), key=sort_key, default=None)
        row = rows[own] if own else None
        page = (self.row_parts.get(row) or number_page(row)) if row else None
        return (page, row.split(".")[0]) if page else None

    def names(self, card: Card) -> Mapping[str, str]:
        """A card's full name per language: the card data's, and the names an FAQ gives it (`cardnames`)."""
        extra = self.faq_names.get(card.id)
        if not extra:
            return card.names
        return {**card.names, **{lang: " // ".join(faces) for lang, faces in extra.items() if lang not in card.names}}

    def name(self, card: Card, lang: str) -> str:
        """A card's name in a language, else its first name (`card_name`, with the names an FAQ gives it)."""
        names = self.names(card)
        return names.get(lang) or next(iter(names.values()), card.id)

    def face_name(self, card: Card, index: int, lang: str) -> str:
        """A split card's face name in a language (the FAQ's when the card data has none), else its first name."""
        face = card.faces[index]
        extra = self.faq_names.get(card.id, {}).get(lang)
        return face.names.get(lang) or (extra[index] if extra else card_name(face, lang))

    def card_links(self, card_ids, lang: str, skip: str | None = None) -> dict[str, str]:
        """Names (in `lang`, and of each face) -> page of the given cards and of the cards an FAQ names (`Coup/Fuite`),
        for linking them in FAQ prose."""
        links: dict[str, str] = {}
        for cid in dict.fromkeys([*card_ids, *self.faq_names]):
            card = self.kb.card.get(cid)
            if card is None or cid == skip or cid not in self.card_path:
                continue
            name = self.name(card, lang)
            faces = [self.face_name(card, i, lang) for i in range(len(card.faces))] + name.split(" // ")
            for each in dict.fromkeys([name, *faces]):
                links.setdefault(each, self.card_path[cid])
        return links


def gather(kb: KnowledgeBase, rule_labels: dict[tuple[str, str], str] | None = None) -> SiteData:
    """Compute anchors, page groups, paths and backlinks for the whole site, once.

    `rule_labels` ((language, number) -> label) names rules in a language that lacks their text; by default
    the French terms of keyword and card-type rules from the knowledge base's lexicon (`terms.lexicon_labels`).
    """
    langs = site_langs(kb)
    numbers = kb.numbers()
    rows: dict[str, dict[str, str]] = {}
    for number in numbers:
        for lang, rule in kb.aligned(number).items():
            rows.setdefault(lang, {})[rule.number] = number
    paths = _paths(kb)
    mentions, card_mentions = _mentions(kb, paths)
    changes = changes_pages(kb)
    plan = rule_pages(kb, langs, numbers, mentions, rows, word_diffs(changes))
    glossary, letters = glossary_entries(kb)
    labels = glossary_labels(kb)
    return SiteData(
        kb=kb,
        langs=langs,
        search_langs=search_langs(kb, langs),
        rows=rows,
        row_parts=plan.row_parts,
        texts=previews(kb, numbers, plan.own_rows),
        miscited={(m.lang, m.number): kb.miscited(m.lang, m.number) for m in kb.links.alignment.miscitations},
        rule_pages=plan.pages,
        sections=_contents(kb, plan.pages, numbers),
        card_path=paths.cards,
        note_path=paths.notes,
        faq_path=paths.faqs,
        faq_notes=paths.faq_notes,
        faq_parts=paths.faq_parts,
        card_rulings={card.id: rulings_of(kb, card) for card in kb.cards},
        fallbacks=plan.fallbacks,
        glossary=glossary,
        mentions=mentions,
        card_mentions=card_mentions,
        letters=letters,
        named_letters=named_letters(kb.glossary, glossary, labels),
        glossary_see=see_links(kb, glossary),
        rule_labels=lexicon_labels(kb) if rule_labels is None else dict(rule_labels),
        glossary_labels=labels,
        glossary_find=glossary_find_words(kb),
        glossary_words=glossary_words(kb),
        histories=plan.histories,
        changes=changes,
        stale=frozenset(s.ref_number for s in kb.links.alignment.stale),
        full_texts=plan.full_texts,
        faq_names=faq_names(kb),
        own_rows=plan.own_rows,
    )


def site_langs(kb: KnowledgeBase) -> list[str]:
    """Languages of the rules (of the documents when there are none), French first, then English, then the others."""
    return ordered_langs(kb.langs or [d.lang for d in kb.documents])


def search_langs(kb: KnowledgeBase, langs: list[str]) -> list[str]:
    """Languages that get a search index: those of the rules, rulings, notes and card names."""
    found = set(langs) | {r.lang for r in kb.rulings} | {n.lang for n in kb.notes}
    found |= {lang for c in kb.cards for lang in c.names}
    return ordered_langs(list(found))


def rule_at(kb: KnowledgeBase, own_rows: Mapping[str, tuple[str, Rule]], lang: str, number: str) -> Rule | None:
    """The rule a row (a number, or the key of a translation's row of its own) shows in a language."""
    own = own_rows.get(number)
    if own is not None:
        return own[1] if own[0] == lang else None
    return kb.aligned(number).get(lang)


def previews(
    kb: KnowledgeBase, numbers: list[str], own_rows: Mapping[str, tuple[str, Rule]]
) -> dict[tuple[str, str], tuple[str, str]]:
    """(language, row) -> (the rule's own number, the text shown when a reference to it is hovered), for every rule
    the rule pages show."""
    keys = [(lang, number) for number in numbers for lang in kb.aligned(number)]
    keys += [(lang, key) for key, (lang, _rule) in own_rows.items()]
    found = {}
    for lang, row in keys:
        rule = rule_at(kb, own_rows, lang, row)
        if rule is None:
            continue
        if not rule.text and rule.children:  # a whole rule (704): its title, then the start of its first rules
            firsts = (rule_at(kb, own_rows, lang, child) for child in rule.children[:2])
            shown = "\n".join(f"{c.number} {c.text}" for c in firsts if c is not None and c.text)
            found[(lang, row)] = (rule.number, preview_text(replace(rule, text=shown)))
        else:
            found[(lang, row)] = (rule.number, preview_text(rule))
    return found


def preview_text(rule: Rule) -> str:
    """The text shown when hovering a reference to the rule: its title and its text, line by line."""
    if not rule.title and "\n" not in rule.text and len(rule.text) <= PREVIEW_CHARS:
        return rule.text  # most rules: their text itself, not a copy
    body = rule.text[:PREVIEW_CHARS]  # all a preview shows (a giant text is never copied whole)
    text = "\n".join(p for p in (rule.title, body) if p)
    if len(rule.text) <= PREVIEW_CHARS and len(text) <= PREVIEW_CHARS:
        return text
    return text[: PREVIEW_CHARS - 1].rstrip() + "…"


@dataclass(frozen=True, slots=True)
class Paths:
    """Where the site shows each card, FAQ and note."""

    cards: dict[str, str]
    """Card id -> its page."""
    faqs: dict[str, str]
    """FAQ document -> its page."""
    notes: dict[str, str]
    """Note id -> its page and anchor."""
    faq_notes: dict[str, list[FaqNote]]
    """FAQ document -> its general notes, in source order."""
    faq_parts: dict[str, list[parts.FaqPart]]
    """FAQ document -> its page, or the parts of an FAQ too large for one page."""


def _paths(kb: KnowledgeBase) -> Paths:
    """Give each card, FAQ and note its page (and anchor), with unique slugs."""
    found = Paths({}, {}, {}, {}, {})
    used: set[str] = set()
    for card in kb.cards:
        found.cards[card.id] = f"cards/{unique(file_slug(card.id), used)}.html"
    for note in kb.notes:
        found.faq_notes.setdefault(note.document, []).append(note)
    used = set()
    for info in kb.faqs:
        path = f"faq/{unique(file_slug(info.document), used)}.html"
        found.faqs[info.document] = path
        notes = found.faq_notes.setdefault(info.document, [])
        cut = parts.faq_parts(path, notes, faq_cards(kb, info, {n.id for n in notes}), info.lang)
        found.faq_parts[info.document] = cut
        where = {note.id: part.path for part in cut for note in part.notes}
        taken: set[str] = set()
        for note in notes:
            anchor = unique("note-" + slug(note.title or note.id.split("#")[-1]), taken)
            found.notes[note.id] = f"{where[note.id]}#{anchor}"
    return found


def faq_cards(kb: KnowledgeBase, info: FaqInfo, note_ids: set[str]) -> list[Card]:
    """Cards a FAQ prints or rules on, in source order."""
    by_doc = {r.card for r in kb.rulings if r.source_document == info.document}
    return [c for c in kb.cards if c.id in by_doc or note_ids.intersection(c.notes)]


def _mentions(
    kb: KnowledgeBase, paths: Paths
) -> tuple[dict[tuple[str, str], list[tuple[str, str]]], dict[str, list[tuple[str, str]]]]:
    """Backlinks from rulings and notes to the rules and to the cards they cite, as (item, site path): one per page
    linked to (a card ruled on in French and in English is one link), named as each interface names it
    (`mention_label`)."""
    rules = {key: _unique_paths(_mention(kb, paths, i) for i in ids) for key, ids in kb.rule_mentions.items()}
    cards = {card: _unique_paths(_mention(kb, paths, i) for i in ids) for card, ids in kb.card_mentions.items()}
    return rules, cards


def _unique_paths(found) -> list[tuple[str, str]]:
    """The (item, path) pairs found, the first for each path."""
    paths: dict[str, str] = {}
    for item in found:
        if item is not None:
            paths.setdefault(item[1], item[0])
    return [(item, path) for path, item in paths.items()]


def _mention(kb: KnowledgeBase, paths: Paths, item_id: str) -> tuple[str, str] | None:
    """(`card:<id>` or `note:<id>`, site path) of a ruling (its card's page) or a note (its anchor on the FAQ page)."""
    ruling = kb.ruling.get(item_id)
    if ruling is not None:
        card = kb.card.get(ruling.card)
        if card is None or card.id not in paths.cards:
            return None
        return f"card:{card.id}", paths.cards[card.id]
    note = kb.note.get(item_id)
    if note is None or note.id not in paths.notes:
        return None
    return f"note:{note.id}", paths.notes[note.id]


def mention_label(data: SiteData, item: str, ui: str) -> tuple[str, str]:
    """(label, its language) of a mention (`card:<id>`, `note:<id>`): a card by its name in the interface's language
    when it has one, a note by its title."""
    kind, _, key = item.partition(":")
    if kind == "card":
        names = data.names(data.kb.card[key])
        lang = ui if names.get(ui) else next(iter(names), ui)
        return names.get(lang, key), lang
    note = data.kb.note[key]
    return note.title, note.lang


def _contents(kb: KnowledgeBase, pages: tuple[RulePage, ...], numbers: list[str]) -> list[dict]:
    """Sections with their rules' titles, for the contents page."""
    heads = {p.head: p for p in pages if p.part == 1}
    digits = dict.fromkeys([n for n in numbers if len(n) == 1] + [h[0] for h in heads])
    sections = []
    for digit in sorted(digits):
        titles = {lang: r.title for lang, r in kb.aligned(digit).items() if r.title}
        rules = [heads[h] for h in heads if h[0] == digit]
        sections.append({"number": digit, "titles": titles, "rules": rules})
    return sections


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
