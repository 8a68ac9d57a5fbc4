"""Load a content folder: find and decode sources, detect each file's kind, parse (`kb.link.parsing`), link."""

from __future__ import annotations

import functools
import multiprocessing
import os
from collections.abc import Callable
from pathlib import Path

from kb.link import cache
from kb.link.carddata import merge_card_data
from kb.link.cards import link_cards
from kb.link.citations import carry_forward, place_quotes
from kb.link.lexicon import Lexicon
from kb.link.lexicons import combine
from kb.link.parsing import Parsed, parse_content
from kb.link.rules import link_rules
from kb.link.translations import pair_translations
from kb.model import Diagnostic
from kb.model.base import KnowledgeBase
from kb.model.links import Edition, edition_rules
from kb.sources import content_hash, display_path, ignored_entries
from kb.sources.hashing import sha256


def load(content: Path, use_cache: bool = True) -> KnowledgeBase:
    """Parse and link everything under `content/<lang>/` (or read it back from the cache when unchanged)."""
    kb, keep = _loaded(content, use_cache)
    if keep is not None:
        keep()
    return kb


def load_deferred(content: Path, use_cache: bool = True) -> tuple[KnowledgeBase, Callable[[], None] | None]:
    """`load`, the cache written beside the caller's work: the knowledge base, and the call that waits until it is
    kept in the cache (None when it came from the cache, or no cache is wanted).

    The cache is written by a process forked as soon as the content is loaded (call this before starting any
    thread): it pickles the knowledge base as loaded, while the caller goes on. Written by the caller once its own
    work was done, the pickling took its memory in pieces the work had left behind (3 MB more at the end of
    `kb build` on 5 MB of FAQ). Without `fork`, the call writes the cache itself."""
    kb, keep = _loaded(content, use_cache)
    return kb, None if keep is None else _in_background(keep)


def _loaded(content: Path, use_cache: bool) -> tuple[KnowledgeBase, Callable[[], None] | None]:
    """The knowledge base, and the call that keeps it in the cache (None when it came from the cache, or no cache
    is wanted)."""
    if not use_cache:
        return load_fresh(content), None
    where = cache.cache_file(Path(content), content_hash(content))
    kb = cache.read(where)
    if kb is not None and kb.content == str(content):
        return kb, None
    kb = load_fresh(content)

    def keep() -> None:
        """Cache the knowledge base, if the content is still what was loaded."""
        if content_hash(content) == kb.content_hash:
            cache.write(where, kb)

    return kb, keep


def _in_background(call: Callable[[], None]) -> Callable[[], None]:
    """Start `call` in a forked process now; return the call that waits for it to end (without `fork`, `call`)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return call
    process = multiprocessing.get_context("fork").Process(target=_quietly, args=(call,), daemon=False)
    process.start()  # not a daemon: a build that stops early still lets it finish (its exit waits for it)
    return process.join


def _quietly(call: Callable[[], None]) -> None:
    """Run `call` in the forked process: a failure ends it with status 1, without a traceback (a cache not
    written is one the next command writes)."""
    try:
        call()
    except BaseException:
        os._exit(1)


def load_fresh(content: Path) -> KnowledgeBase:
    """Parse and link everything under `content/<lang>/`; problems become diagnostics.

    The files are parsed, and the lexicon mined, in two processes when it pays (`kb.link.parsing`).
    """
    parsed = Parsed()
    for path, why in ignored_entries(content):
        parsed.diags.append(Diagnostic("note", display_path(path, content), 0, why))
    pieces, lexicon = parse_content(content)
    digest = sha256()
    for hashed, piece in pieces:
        if hashed is not None:
            digest.update(hashed)
        for name in Parsed.__slots__:
            getattr(parsed, name).extend(getattr(piece, name))
    return _link(content, digest.hexdigest(), parsed, lexicon)


def _link(content: Path, content_digest: str, parsed: Parsed, mined: Callable[[], Lexicon | None]) -> KnowledgeBase:
    """Link the parse results into a knowledge base."""
    glossary = tuple(g for res in parsed.rules for g in res.glossary)
    lexicon = functools.cache(lambda: combine([*parsed.lexicons, *filter(None, [mined()])]))
    links = link_rules(parsed.rules, glossary, lexicon)  # asked for only to pair an undated translation
    editions = links.editions

    def rule_exists(lang: str, number: str, as_of: str | None = None) -> bool:
        """Whether an edition in force at `as_of` (an FAQ's or ruling's date) has the rule; undated ones count."""
        in_force = [ed for ed in editions if ed.effective_date is None or as_of is None or ed.effective_date <= as_of]
        return any(ed.lang == lang and number in ed.rules for ed in in_force)

    today = _today(links)
    card_data, merge_diags = merge_card_data(parsed.card_data)
    cards = link_cards(parsed.faqs, card_data, rule_exists)
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
        notes=place_quotes(cards.notes, links.editions, links.lineage, today, lexicon()),
        diagnostics=tuple(parsed.diags) + links.diagnostics + tuple(merge_diags) + tuple(cards.diagnostics),
        cards_by_document=dict(cards.cards_by_document),
        lexicon=lexicon(),
    )


def _today(links) -> Edition | None:
    """Today's edition of the reference language."""
    reference = links.alignment.reference
    eid = links.alignment.editions.get(reference) if reference else None
    return next((ed for ed in links.editions if ed.id == eid), None)
