"""Load a content folder: find and decode sources, parse each file by its kind (`kb.parse.dispatch`), link."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from hashlib import sha256
from pathlib import Path

from kb.link import cache
from kb.link.cards.linking import link_cards
from kb.link.cards.merge import CardMerger
from kb.link.cards.translations import pair_translations
from kb.link.lexicon.files import combine, is_lexicon_file, read_lexicon
from kb.link.lexicon.mining import Printings, aligned_words
from kb.link.lexicon.parallel import card_units, rule_units, ruling_units
from kb.link.lexicon.records import Lexicon
from kb.link.lexicon.terminology import concepts_of, name_concepts
from kb.link.lexicon.words import checked_words
from kb.link.references.citations import carry_forward, dated_citations, place_quotes
from kb.link.references.readings import every_reading, numbering_years
from kb.link.references.rules import link_rules
from kb.model import Diagnostic
from kb.model.base import KnowledgeBase
from kb.model.bounds import bounded
from kb.model.links import Edition, edition_rules
from kb.parse.dispatch import Parsed, content_file, parse_file
from kb.sources import content_hash, display_path, find_sources, hash_entry, ignored_entries
from kb.sources.digests import file_digest
from kb.sources.files import MAX_BYTES


def load(content: Path, use_cache: bool = True, notices: list[str] | None = None) -> KnowledgeBase:
    """Parse and link everything under `content/<lang>/`, or read it back from the cache when unchanged.

    `notices`: where to say why a cache file that is there was not used (damaged, or not written here).
    """
    if not use_cache:
        return load_fresh(content)
    where = cache.cache_file(Path(content), content_hash(content))
    kb, why = cache.read(where)
    if kb is not None and kb.content == str(content):
        return kb
    if why and notices is not None:
        notices.append(why)
    kb = load_fresh(content)
    if content_hash(content) == kb.content_hash:  # unchanged while it was loaded
        cache.write(where, kb)
    return kb


def load_fresh(content: Path) -> KnowledgeBase:
    """Parse and link everything under `content/<lang>/`; problems become diagnostics."""
    parsed = Parsed(diags=ignored_entries(content))
    digest = sha256()
    lexicons: list[Lexicon] = []
    ids: dict[str, str] = {}
    cards, printings = CardMerger(), Printings()
    for lang, path in find_sources(content):
        if is_lexicon_file(path):
            try:  # as `content_hash` hashes it: a file over the size limit is not read
                hashed = hash_entry(lang, path, file_digest(path, MAX_BYTES))
            except OSError:
                hashed = None
            lexicon, found = read_lexicon(path, display_path(path, content))
            parsed.diags += found
            lexicons += [lexicon] if lexicon is not None else []
        else:
            hashed = parse_file(content_file(lang, path, content, ids), parsed)
            for result in parsed.card_data:  # merged as they are read: a pool's reprints are let go at once
                cards.add(result)
            printings.add(parsed.lexicon_cards)
            parsed.card_data.clear()
            parsed.lexicon_cards.clear()
        if hashed is not None:
            digest.update(hashed)
    mined = printings.mine(words=False) if printings.read else None  # the cards' keywords and types: linking reads them
    parsed.card_data, merged = cards.results()
    lexicon = combine([*lexicons, *filter(None, [mined])])
    return _link(content, digest.hexdigest(), parsed, lexicon, merged, printings)


def _link(
    content: Path,
    content_digest: str,
    parsed: Parsed,
    lexicon: Lexicon | None,
    merged: list[Diagnostic],
    printings: Printings | None = None,
) -> KnowledgeBase:
    """Link the parse results (their card data merged, saying so in `merged`) into a knowledge base; the lexicon
    then gains the words and phrases aligned over the parallel texts (`printings`: the cards' French printings)."""
    glossary = tuple(g for res in parsed.rules for g in res.glossary)
    links = link_rules(parsed.rules, glossary, lambda: lexicon)  # asked for only to pair an undated translation
    editions = links.editions

    def rule_exists(lang: str, number: str, as_of: str | None = None) -> bool:
        """Whether an edition in force at `as_of` (an FAQ's or ruling's date) has the rule; undated ones count."""
        in_force = [ed for ed in editions if ed.effective_date is None or as_of is None or ed.effective_date <= as_of]
        return any(ed.lang == lang and number in ed.rules for ed in in_force)

    today = _today(links)
    cards = link_cards(parsed.faqs, parsed.card_data, rule_exists)
    rulings = pair_translations(cards.cards, cards.rulings)
    lexicon = _with_words(lexicon, printings, rulings, links, glossary)
    terms = tuple(t for table in parsed.tables for t in table.terms)
    english = next((ed for ed in editions if ed.id == links.alignment.editions.get("en")), None)
    concepts = concepts_of(english, glossary) if english is not None else None
    texts = _texts(parsed)
    names, named = name_concepts(terms, concepts, lexicon, lambda path: texts.get(path, ()))
    words, checked = checked_words((w for table in parsed.tables for w in table.words), english, glossary, lexicon)
    documents = tuple(res.document for group in (parsed.rules, parsed.faqs, parsed.card_data) for res in group)
    kb = KnowledgeBase(
        content=str(content),
        content_hash=content_digest,
        documents=documents,
        rules=edition_rules(links.editions),
        glossary=glossary,
        links=links,
        faqs=tuple(f.info for f in parsed.faqs),
        cards=cards.cards,
        rulings=carry_forward(rulings, links.editions, links.lineage, today),
        notes=place_quotes(cards.notes, links.editions, links.lineage, today, lexicon),
        diagnostics=bounded((*parsed.diags, *links.diagnostics, *merged, *cards.diagnostics, *named, *checked)),
        cards_by_document=dict(cards.cards_by_document),
        lexicon=lexicon,
        set_names={code: name for res in parsed.card_data for code, name in sorted(res.set_names.items())},
        terms=terms,
        paraphrases=tuple(p for table in parsed.tables for p in table.paraphrases),
        words=words,
        printed=_printed(parsed),
        names=names,
    )
    return with_readings(kb)


def with_readings(kb: KnowledgeBase) -> KnowledgeBase:
    """The knowledge base with what its texts' numbers read as today: the numbers each translation cites without
    having them, the year of each translation's numbering, the numbers of dated FAQ texts. Linking ends with it;
    call it again on a knowledge base whose records were replaced."""
    facts = {"readings": every_reading(kb), "numbering_years": numbering_years(kb)}
    return replace(kb, **facts, dated_citations=dated_citations(kb))


def _with_words(lexicon: Lexicon | None, printings: Printings | None, rulings, links, glossary) -> Lexicon | None:
    """The lexicon with the words and phrases of the alignment of the parallel texts: the cards' printed lines,
    the French FAQ rulings beside the rulings they translate, the translated rules beside their originals."""
    units = [*ruling_units(rulings), *rule_units(links.editions, links.alignment)]
    if printings is not None:
        units += card_units(printings)
    words = aligned_words(units, [*_terms(links, lexicon), *(g.term for g in glossary if g.lang == "en")])
    return combine([*filter(None, [lexicon]), Lexicon(tuple(words), 0)]) if words else lexicon


def _printed(parsed: Parsed) -> dict[str, frozenset[str]]:
    """Language -> the words its printed-words tables list."""
    found: dict[str, set[str]] = defaultdict(set)
    for table in parsed.tables:
        for word in table.printed:
            found[word.lang].add(word.word)
    return {lang: frozenset(words) for lang, words in sorted(found.items())}


def _terms(links, lexicon: Lexicon | None) -> list[str]:
    """The English terms of the game: the rules' headings of the English editions, the cards' keywords and types."""
    found = [e.english for e in lexicon.entries if e.category != "word"] if lexicon is not None else []
    for edition in links.editions:
        if edition.lang == "en":
            found += [rule.heading for rule in edition.rules.values() if rule.heading]
    return found


def _texts(parsed: Parsed) -> dict[str, list[str]]:
    """The texts of each rules and FAQ file, by the end of its path (`fr/cr-120-piocher-une-carte.txt`): what a
    terminology line citing the file is checked against."""
    found: dict[str, list[str]] = defaultdict(list)
    for res in parsed.rules:
        for rule in res.rules:
            found[_tail(rule.source.path)] += [rule.title, rule.text, *rule.examples]
    for res in parsed.faqs:
        for note in res.notes:
            found[_tail(note.source.path)] += [note.title, note.text, *note.bullets]
        for ruling in res.rulings:
            found[_tail(ruling.source.path)].append(ruling.text)
    return found


def _tail(path: str) -> str:
    """A content path's language folder and file name."""
    return "/".join(path.split("/")[-2:])


def _today(links) -> Edition | None:
    """Today's edition of the reference language."""
    reference = links.alignment.reference
    eid = links.alignment.editions.get(reference) if reference else None
    return next((ed for ed in links.editions if ed.id == eid), None)
