"""Records -> search entries: what the index holds for each rule, glossary term, card, ruling and note.

Pure Python (no whoosh). Rules of the current edition of each language share one entry per number; a rule or
glossary term of another loaded edition gets its own entry, searched only when asked for (`edition:`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from kb.link.references.readings import cited_today
from kb.model import card_name
from kb.sources import fold

ORACLE_KEY = re.compile(r"([a-z]{2})_(?:type|text)")
"""Card data keys giving another language's Oracle type line or text (`en_type`, `en_text`)."""
DEFINES_SYMBOL = re.compile(r"\bsymbol(?:e|s|es)?\s+(?:is\s+|est\s+)?(\{[^{}\s]{1,8}\})", re.I)
"""`The tap symbol is {T}`, `The energy symbol {E}`: the text defines that symbol, which becomes a headword."""
EMPHASIS = re.compile(r"(?<![\w*_])([*_]{1,2})(?=\S)(.+?)(?<=\S)\1(?![\w*_])")
"""Markdown emphasis in FAQ prose (`_Ravnica_`, `*créature*`): results show the words, not the marks."""


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """What a query's words are also looked for as: the lexicon mined from the parallel texts, the terminology's
    names of today's concepts, the paraphrase tables' rules wordings, the words tables' English."""

    lexicon: object | None
    """The knowledge base's lexicon (`kb.link.lexicon.records.Lexicon`), or None."""
    names: tuple[tuple[str, tuple[str, ...], str], ...] = ()
    """(language, names, English heading) of each concept a terminology names."""
    paraphrases: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    """(language, players' phrasing, the rules' wordings) of each line of the paraphrase tables."""
    words: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = ()
    """(language, the word and its forms, its English words) of each line of the words tables the translation
    tables use (`kb.search.lexicon.kept_words`)."""
    printed: dict[str, frozenset[str]] = field(default_factory=dict)
    """Language -> the words printed on its cards (folded): never spelling-corrected."""


def vocabulary(kb) -> Vocabulary:
    """The vocabulary of a knowledge base."""
    names = tuple((n.lang, n.names, n.english) for _, n in sorted(kb.names.items()))
    from kb.search.lexicon import kept_words

    paraphrases = tuple((p.lang, p.players, p.rules) for p in kb.paraphrases)
    every = Vocabulary(kb.lexicon, names, paraphrases, tuple((w.lang, w.forms, w.english) for w in kb.words))
    return replace(every, words=kept_words(every), printed=dict(kb.printed))


@dataclass(frozen=True, slots=True)
class Entry:
    """What the index holds for one result: texts per language and display data."""

    kind: str
    """`rule`, `glossary`, `card`, `ruling` or `note`."""
    id: str
    """Rule number (`702.19@en:2015-09-26` in another edition), card id, ruling id, note id or
    `<document>#<term>` for glossary entries."""
    titles: dict[str, str]
    """Title per language (rule heading, glossary term, card name, note title)."""
    texts: dict[str, str]
    """Searchable and displayed text per language."""
    number: str | None = None
    """Rule number (rules only)."""
    names: dict[str, str] | None = None
    """Card name per language (cards only; the card's names for its rulings)."""
    context: dict[str, str] = field(default_factory=dict)
    """Ancestor rule headings per language (the card's name for a ruling), searched with a low weight."""
    order: int = 0
    """Rank in rule order (rules), so a subtree lists in order."""
    heads: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Headwords per language: a glossary term and its aliases, a rule's title, a card's names, a note's
    title. A query that is exactly a headword ranks its entry high."""
    editions: dict[str, str] = field(default_factory=dict)
    """Edition id per language (rules and glossary terms)."""
    current: bool = True
    """False for a rule or glossary term of an edition other than its language's current one."""
    aliases: tuple[str, ...] = ()
    """Other names a card was printed with (searched as its names are)."""
    numbers: dict[str, str] = field(default_factory=dict)
    """A rule's own number in each language whose rule has another number than the row's (French 120.4 in
    today's row 121.4)."""
    cites: tuple[str, ...] | None = None
    """Today's numbers of the rules a current rule's texts cite (a translation's citations read in its own
    numbering); None: read from the texts."""
    named: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Names per language of a concept its texts in that language lack (a terminology's, never official: `Pile` for
    405 Stack): searched as a title, shown marked as such."""
    heading_named: dict[str, str] = field(default_factory=dict)
    """An untitled rule's heading (its nearest titled ancestor's title) named in each language its texts lack, as
    `named` names a titled rule (« Actions basées sur un état » beside 704.5g's heading State-Based Actions): shown
    only, never searched (a rule is not about its section's every word)."""


def current_editions(kb) -> dict:
    """The edition searched by default in each language: its current one (the one aligned through lineage)."""
    return dict(kb.primary)


def rule_entries(kb) -> Iterator[Entry]:
    """One entry per rule number of the current editions, every language side by side; then the others."""
    current = current_editions(kb)
    named = rule_names(kb, concept_names(kb))
    for order, number in enumerate(kb.numbers()):
        # The row's rule in each language (a translation's own number may differ: French 120.2 is today's 121.2);
        # only current editions are searched by default.
        ids = {ed.id for ed in current.values()}
        per = {lang: rule for lang, rule in kb.aligned(number).items() if kb.edition_of(rule).id in ids}
        if per:
            entry = _rule_entry(kb, number, number, per, order, True)
            mine = {lang: n for lang, n in named.get(number, {}).items() if lang not in entry.titles}
            above = _heading_number(kb, number) if not entry.titles else None
            over = {lang: n[0] for lang, n in named.get(above, {}).items() if lang not in entry.context and n}
            if mine or over:
                entry = replace(entry, named=mine, heading_named=over)
            yield entry
    yield from orphan_entries(kb)
    others = [ed for ed in kb.links.editions if ed.id not in {e.id for e in current.values()}]
    base = len(kb.numbers())
    for ed in others:
        for k, (number, rule) in enumerate(ed.rules.items()):
            yield _rule_entry(kb, f"{number}@{ed.id}", number, {ed.lang: rule}, base + k, False)
        base += len(ed.rules)


def orphan_entries(kb) -> Iterator[Entry]:
    """A translation's rules with no counterpart today whose number today's numbering gives to another rule (French
    703.4h): entries of their own, `703.4h@fr:undated`, searched by default (the site shows them as rows
    `fr-703.4h` of their rule's page)."""
    order = {number: k for k, number in enumerate(kb.numbers())}
    for lang, rules in kb.orphans.items():
        for rule in rules:
            key = f"{rule.number}@{kb.edition_of(rule).id}"
            yield _rule_entry(kb, key, rule.number, {lang: rule}, order.get(rule.number, 0), True)


def concept_names(kb) -> dict[tuple[str, str], dict[str, tuple[str, ...]]]:
    """(concept, id) -> language -> the names a terminology gives a concept of today's rules (`kb.names`):
    `("rule", "405")`, `("glossary", "stack")`."""
    found: dict[tuple[str, str], dict[str, tuple[str, ...]]] = {}
    for key, name in kb.names.items():
        lang, concept, ident = key.split(":", 2)
        found.setdefault((concept, ident), {})[lang] = name.names
    return found


def rule_names(kb, named: dict) -> dict[str, dict[str, tuple[str, ...]]]:
    """Today's rule number -> language -> the names a terminology gives it (`named`: `concept_names`): its own (a
    section's, a rule's title), then those of the glossary terms it defines (the first rule a definition cites:
    302.6 for Summoning Sickness Rule)."""
    found = {ident: dict(n) for (concept, ident), n in named.items() if concept in ("rule", "section")}
    today = kb.primary["en"].id if "en" in kb.primary else None
    for g in kb.glossary:
        names = named.get(("glossary", fold(g.term)))
        if names and g.references and kb.links.edition_of.get(g.document) == today:
            mine = found.setdefault(g.references[0], {})
            for lang, more in names.items():
                mine[lang] = tuple(dict.fromkeys((*mine.get(lang, ()), *more)))
    return found


def heading(rule) -> str:
    """A rule's heading (`Rule.heading`)."""
    return rule.heading


def defined_symbols(text: str) -> list[str]:
    """The symbols a text defines (`The tap symbol is {T}.` defines `{T}`)."""
    return DEFINES_SYMBOL.findall(text)


def _rule_entry(kb, key: str, number: str, per: dict, order: int, current: bool) -> Entry:
    """The entry of one rule number in some languages."""
    titles = {lang: h for lang, r in per.items() if (h := heading(r))}
    texts = {lang: "\n".join((r.text, *r.examples)).strip() for lang, r in per.items()}
    context = {lang: "\n".join(_ancestor_titles(kb, r)) for lang, r in per.items()}
    heads = {lang: (*([titles[lang]] if lang in titles else []), *defined_symbols(r.text)) for lang, r in per.items()}
    for lang, r in per.items():  # the rule opening a titled rule defines its topic (121.1 under Drawing a Card)
        opened = _opened(kb, r)
        if opened and lang not in titles:
            heads[lang] = (*heads[lang], opened)
    heads = {lang: h for lang, h in heads.items() if h}
    editions = {lang: kb.edition_of(r).id for lang, r in per.items()}
    own = {lang: r.number for lang, r in per.items() if r.number != number}
    cites = tuple(sorted({c for r in per.values() for c in _cites(kb, r) if c and c != number})) if current else None
    return Entry(
        "rule", key, titles, texts, number, None, context, order, heads, editions, current, numbers=own, cites=cites
    )


def _cites(kb, rule) -> list[str | None]:
    """Today's numbers of the rules a rule cites (a translation's, read in its text's numbering)."""
    found = cited_today(kb, rule)
    return list(rule.references) if found is None else [today for _, _, _, today, _ in found]


def _opened(kb, rule) -> str:
    """The heading of the rule's parent when the rule is its first child, else ''."""
    parent = kb.edition_of(rule).rules.get(rule.parent) if rule.parent else None
    return heading(parent) if parent is not None and parent.children[:1] == (rule.number,) else ""


def _heading_number(kb, number: str) -> str | None:
    """The number of the rule whose title an untitled rule of today's numbering shows as its heading: its nearest
    titled ancestor in the reference language's current edition (None without one)."""
    edition = kb.primary.get(kb.reference) if kb.reference else None
    if edition is None or number not in edition.rules:
        return None
    return next((n for n, _ in _titled_ancestors(edition.rules, edition.rules[number])), None)


def _ancestor_titles(kb, rule) -> list[str]:
    """Headings of the rule's ancestors within its edition, nearest first."""
    return [h for _, h in _titled_ancestors(kb.edition_of(rule).rules, rule)]


def _titled_ancestors(rules: dict, rule) -> Iterator[tuple[str, str]]:
    """(number, heading) of a rule's titled ancestors among `rules` (its edition's), nearest first."""
    parent = rule.parent
    while parent is not None and parent in rules:
        if h := heading(rules[parent]):
            yield parent, h
        parent = rules[parent].parent


def glossary_entries(kb) -> Iterator[Entry]:
    """One entry per glossary term and language; terms of a non-current edition are marked so; a term of today's
    English glossary with its names in other languages (a terminology's)."""
    current = {ed.id for ed in current_editions(kb).values()}
    today = kb.primary["en"].id if "en" in kb.primary else None
    names = concept_names(kb)
    for g in kb.glossary:
        edition = kb.links.edition_of.get(g.document)
        heads = tuple(dict.fromkeys((g.term, *g.aliases, *defined_symbols(g.definition))))
        named = names.get(("glossary", fold(g.term)), {}) if edition is not None and edition == today else {}
        yield Entry(
            "glossary",
            f"{g.document}#{fold(g.term)}",
            {g.lang: g.term},
            {g.lang: g.definition},
            heads={g.lang: heads},
            editions={g.lang: edition} if edition else {},
            current=edition is None or edition in current,
            named=named,
        )


def card_entries(cards: Iterable) -> Iterator[Entry]:
    """One entry per card: names in every language, type lines and texts of every face."""
    for card in cards:
        names = dict(card.names)
        for face in card.faces:
            for lang, name in face.names.items():
                names.setdefault(lang, name)
        texts: dict[str, list[str]] = {}
        for face in card.faces:
            texts.setdefault(face.lang, []).extend(t for t in (face.type_line, face.text) if t)
            if face.power is not None and face.toughness is not None:
                texts[face.lang].append(f"{face.power}/{face.toughness}")
        oracle: dict[str, list[str]] = {}
        for key in sorted(card.oracle, key=lambda k: (k[:2], k.endswith("_text"))):  # type line, then text
            if ORACLE_KEY.fullmatch(key) and card.oracle[key]:
                oracle.setdefault(key[:2], []).append(card.oracle[key])
        for lang, extra in oracle.items():
            texts.setdefault(lang, extra)
        faces = {lang: [f.names[lang] for f in card.faces if lang in f.names] for lang in names}
        heads = {lang: tuple(dict.fromkeys([names[lang], *faces[lang]])) for lang in names}
        printed = [p for p in getattr(card, "printed", ()) if p.name and p.name != names.get(p.lang)]
        for p in printed:  # every name the card was printed with finds it
            heads[p.lang] = tuple(dict.fromkeys([*heads.get(p.lang, ()), p.name, *p.name.split(" // ")]))
        yield Entry(
            "card",
            card.id,
            names,
            {k: "\n".join(v) for k, v in texts.items()},
            names=names,
            context={k: " ".join(v) for k, v in faces.items() if len(card.faces) > 1},
            heads=heads,
            aliases=tuple(dict.fromkeys(p.name for p in printed)),
        )


def ruling_entries(rulings: Iterable, cards: dict) -> Iterator[Entry]:
    """One entry per ruling, titled by its card's name; a ruling and the ruling it translates (a French FAQ ruling
    and the English Gatherer ruling) are one entry, both texts side by side, as a rule's languages are."""
    rulings = list(rulings)
    by_id = {r.id: r for r in rulings}
    done: set[str] = set()
    for r in rulings:
        if r.id in done:
            continue
        other = by_id.get(r.translation_of) if r.translation_of else None
        both = [r, other] if other is not None and other.id not in done and other.lang != r.lang else [r]
        done.update(x.id for x in both)
        card = cards.get(r.card)
        names = dict(card.names) if card else {}
        texts = {x.lang: plain(x.text) for x in both}
        context = {x.lang: card_name(card, x.lang) if card else x.card for x in both}
        yield Entry("ruling", r.id, {}, texts, names=names or None, context=context)


def plain(text: str) -> str:
    """FAQ prose without its Markdown emphasis marks."""
    return EMPHASIS.sub(r"\2", text)


def note_entries(notes: Iterable) -> Iterator[Entry]:
    """One entry per general note of an FAQ."""
    for n in notes:
        text = plain("\n".join((n.text, *n.bullets)).strip())
        yield Entry("note", n.id, {n.lang: n.title}, {n.lang: text}, heads={n.lang: (n.title,)})


def entries(kb) -> Iterator[Entry]:
    """Every index entry of a knowledge base."""
    yield from rule_entries(kb)
    yield from glossary_entries(kb)
    yield from card_entries(kb.cards)
    yield from ruling_entries(kb.rulings, kb.card)
    yield from note_entries(kb.notes)
