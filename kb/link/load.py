"""Load a content folder: find and decode sources, parse each file by its kind (`kb.parse.dispatch`), link."""

from __future__ import annotations

from hashlib import sha256
from pathlib import Path

from kb.link import cache
from kb.link.cards.linking import link_cards
from kb.link.cards.merge import CardMerger
from kb.link.cards.translations import pair_translations
from kb.link.lexicon.files import combine, is_lexicon_file, read_lexicon
from kb.link.lexicon.mining import Printings
from kb.link.lexicon.records import Lexicon
from kb.link.references.citations import carry_forward, place_quotes
from kb.link.references.rules import link_rules
from kb.model import Diagnostic
from kb.model.base import KnowledgeBase
from kb.model.bounds import bounded
from kb.model.links import Edition, edition_rules
from kb.parse.dispatch import Parsed, content_file, parse_file
from kb.sources import content_hash, display_path, find_sources, hash_entry, ignored_entries
from kb.sources.files import MAX_BYTES, file_digest


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
    mined = printings.mine() if printings.read else None
    parsed.card_data, merged = cards.results()
    return _link(content, digest.hexdigest(), parsed, combine([*lexicons, *filter(None, [mined])]), merged)


def _link(
    content: Path, content_digest: str, parsed: Parsed, lexicon: Lexicon | None, merged: list[Diagnostic]
) -> KnowledgeBase:
    """Link the parse results (their card data merged, saying so in `merged`) into a knowledge base."""
    glossary = tuple(g for res in parsed.rules for g in res.glossary)
    links = link_rules(parsed.rules, glossary, lambda: lexicon)  # asked for only to pair an undated translation
    editions = links.editions

    def rule_exists(lang: str, number: str, as_of: str | None = None) -> bool:
        """Whether an edition in force at `as_of` (an FAQ's or ruling's date) has the rule; undated ones count."""
        in_force = [ed for ed in editions if ed.effective_date is None or as_of is None or ed.effective_date <= as_of]
        return any(ed.lang == lang and number in ed.rules for ed in in_force)

    today = _today(links)
    cards = link_cards(parsed.faqs, parsed.card_data, rule_exists)
    documents = tuple(res.document for group in (parsed.rules, parsed.faqs, parsed.card_data) for res in group)
    return KnowledgeBase(
        content=str(content),
        content_hash=content_digest,
        documents=documents,
        rules=edition_rules(links.editions),
        glossary=glossary,
        links=links,
        faqs=tuple(f.info for f in parsed.faqs),
        cards=cards.cards,
        rulings=carry_forward(pair_translations(cards.cards, cards.rulings), links.editions, links.lineage, today),
        notes=place_quotes(cards.notes, links.editions, links.lineage, today, lexicon),
        diagnostics=bounded((*parsed.diags, *links.diagnostics, *merged, *cards.diagnostics)),
        cards_by_document=dict(cards.cards_by_document),
        lexicon=lexicon,
        set_names={code: name for res in parsed.card_data for code, name in sorted(res.set_names.items())},
    )


def _today(links) -> Edition | None:
    """Today's edition of the reference language."""
    reference = links.alignment.reference
    eid = links.alignment.editions.get(reference) if reference else None
    return next((ed for ed in links.editions if ed.id == eid), None)
