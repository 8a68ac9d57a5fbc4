"""Load a content folder: find and decode sources, detect each file's kind, parse, link."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kb.link import cache
from kb.link.carddata import merge_card_data
from kb.link.cards import link_cards
from kb.link.citations import carry_forward, place_quotes
from kb.link.lexicon import mine_lexicon
from kb.link.lexicons import combine, is_lexicon_file, read_lexicon
from kb.link.rules import link_rules
from kb.link.translations import pair_translations
from kb.model import Diagnostic, SourceText
from kb.model.base import KnowledgeBase
from kb.model.links import Edition
from kb.parse.cards.mtgjson import CardDataResult, looks_like_mtgjson, parse_mtgjson
from kb.parse.cards.mtgjson5 import parse_mtgjson5
from kb.parse.cards.stream import file_sha256, is_mtgjson5
from kb.parse.cr.rules import RulesResult, looks_like_rules, parse_rules
from kb.parse.faq.parse import FaqResult, looks_like_faq, parse_faq
from kb.sources import (
    content_hash,
    display_path,
    find_sources,
    hash_entry,
    ignored_entries,
    read_source,
    shown_name,
)

UNKNOWN_KIND = (
    "cannot tell what this file is (comprehensive rules, set FAQ or card data); "
    "move it out of the content folder or fix its text"
)


@dataclass(slots=True)
class _Parsed:
    """Parse results gathered before linking."""

    rules: list[RulesResult] = field(default_factory=list)
    faqs: list[FaqResult] = field(default_factory=list)
    card_data: list[CardDataResult] = field(default_factory=list)
    diags: list[Diagnostic] = field(default_factory=list)
    lexicon_cards: list[dict] = field(default_factory=list)
    """Slim MTGJSON v5 entries, for mining the French–English lexicon."""
    lexicons: list = field(default_factory=list)
    """Lexicon documents read from the content folder."""


def parse_source(source: SourceText, doc_id: str, parsed: _Parsed) -> None:
    """Detect the kind of one decoded file and parse it."""
    if source.path.lower().endswith(".json"):
        text = "\n".join(source.lines)
        if looks_like_mtgjson(text):
            parsed.card_data.append(parse_mtgjson(source, doc_id))
            parsed.diags += parsed.card_data[-1].diagnostics
            return
    elif looks_like_faq(source.lines):
        parsed.faqs.append(parse_faq(source, doc_id))
        parsed.diags += parsed.faqs[-1].diagnostics
        return
    elif looks_like_rules(source.lines):
        parsed.rules.append(parse_rules(source, doc_id))
        parsed.diags += parsed.rules[-1].diagnostics
        return
    parsed.diags.append(Diagnostic("error", source.path, 0, UNKNOWN_KIND))


def load(content: Path, use_cache: bool = True) -> KnowledgeBase:
    """Parse and link everything under `content/<lang>/` (or read it back from the cache when unchanged)."""
    kb, keep = load_deferred(content, use_cache)
    if keep is not None:
        keep()
    return kb


def load_deferred(content: Path, use_cache: bool = True) -> tuple[KnowledgeBase, Callable[[], None] | None]:
    """`load`, leaving the cache to write: the knowledge base, and the call that keeps it in the cache (None when
    it came from the cache, or no cache is wanted), for a caller that can do it later or in another process."""
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


def load_fresh(content: Path) -> KnowledgeBase:
    """Parse and link everything under `content/<lang>/`; problems become diagnostics.

    The files are parsed in two processes when there are two cores and enough to parse (`_split`): a forked one
    parses its share and sends back what they gave, which is then taken in file order, so the knowledge base is
    the same either way.
    """
    parsed = _Parsed()
    for path, why in ignored_entries(content):
        parsed.diags.append(Diagnostic("note", display_path(path, content), 0, why))
    files = _files(content)
    pieces = _parse_all(files)
    digest = hashlib.sha256()
    for hashed, piece in pieces:
        if hashed is not None:
            digest.update(hashed)
        for name in _Parsed.__slots__:
            getattr(parsed, name).extend(getattr(piece, name))
    return _link(content, digest.hexdigest(), parsed)


@dataclass(frozen=True, slots=True)
class _File:
    """A content file to parse."""

    lang: str
    path: Path
    shown: str
    """Its path as diagnostics show it."""
    doc_id: str | None
    """Its document id (None: a lexicon file, which is no document)."""
    notes: tuple[Diagnostic, ...]
    """What giving it its document id had to say."""


def _files(content: Path) -> list[_File]:
    """The content files in order, with their document ids (unique in the folder)."""
    ids: dict[str, str] = {}
    found = []
    for lang, path in find_sources(content):
        shown = display_path(path, content)
        if is_lexicon_file(path):
            found.append(_File(lang, path, shown, None, ()))
            continue
        notes: list[Diagnostic] = []
        doc_id = _doc_id(lang, path, shown, ids, notes)
        found.append(_File(lang, path, shown, doc_id, tuple(notes)))
    return found


def parse_file(file: _File) -> tuple[bytes | None, _Parsed]:
    """Read and parse one content file: its part of the content hash (None: unreadable) and what it gave."""
    parsed = _Parsed(diags=list(file.notes))
    lang, path, shown = file.lang, file.path, file.shown
    if file.doc_id is None:
        sha256 = file_sha256(path)
        lexicon, found = read_lexicon(path, shown)
        parsed.diags += found
        if lexicon is not None:
            parsed.lexicons.append(lexicon)
        return (None if sha256 is None else hash_entry(lang, path, sha256)), parsed
    if is_mtgjson5(path):  # streamed from the file: never decoded whole
        sha256 = file_sha256(path)
        if sha256 is None:
            parsed.diags.append(Diagnostic("error", shown, 0, "unreadable file; check its permissions"))
            return None, parsed
        result, slim = parse_mtgjson5(path, lang, shown, file.doc_id)
        parsed.card_data.append(result)
        parsed.diags += result.diagnostics
        parsed.lexicon_cards += slim
        return hash_entry(lang, path, sha256), parsed
    source, found = read_source(path, lang, shown)
    parsed.diags += found
    if source is None:
        return None, parsed
    parse_source(source, file.doc_id, parsed)
    return hash_entry(lang, path, source.sha256), parsed


PARALLEL_MIN = 512 * 1024
"""Bytes of content below which a second process is not worth its start."""


def _parse_all(files: list[_File]) -> list[tuple[bytes | None, _Parsed]]:
    """Parse every file, in two processes when it pays; the results in file order."""
    theirs = _split(files)
    if not theirs:
        return [parse_file(f) for f in files]
    context = multiprocessing.get_context("fork")
    ours, child_end = context.Pipe(duplex=False)
    process = context.Process(target=_parse_child, args=([files[k] for k in theirs], child_end), daemon=True)
    process.start()
    child_end.close()
    found = {k: parse_file(f) for k, f in enumerate(files) if k not in theirs}
    try:
        done = ours.recv()
    except (EOFError, OSError):  # the process died
        done = None
    process.join()
    ours.close()
    if isinstance(done, list) and len(done) == len(theirs):
        found.update(zip(theirs, done, strict=True))
    for k in theirs:  # the process failed: its files are parsed here
        if k not in found:
            found[k] = parse_file(files[k])
    return [found[k] for k in range(len(files))]


def _parse_child(files: list[_File], conn) -> None:
    """The forked process: parse its files and send back what they gave (or the error, as text)."""
    try:
        conn.send([parse_file(f) for f in files])
    except BaseException as err:  # the parent parses the files itself
        conn.send(f"{type(err).__name__}: {err}")
    finally:
        conn.close()


def _split(files: list[_File]) -> list[int]:
    """Which files (by position, in order) a second process should parse: about half the work, by size; none
    when there is a single core, no `fork`, a single file or little to parse."""
    if len(files) < 2 or (os.cpu_count() or 1) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return []
    cost = {}
    for k, f in enumerate(files):
        try:
            size = f.path.stat().st_size
        except OSError:
            size = 0
        cost[k] = size if f.path.suffix.lower() == ".txt" else size // 4  # card data streams fast
    if sum(cost.values()) < PARALLEL_MIN:
        return []
    loads, theirs = [0, 0], []
    for k in sorted(cost, key=lambda k: -cost[k]):
        side = 0 if loads[0] <= loads[1] else 1
        loads[side] += cost[k]
        if side:
            theirs.append(k)
    return sorted(theirs)


def _doc_id(lang: str, path: Path, shown: str, ids: dict[str, str], notes: list[Diagnostic]) -> str:
    """A document id unique in the content folder: `<lang>/<stem>`, else `<lang>/<name>`."""
    doc_id = f"{lang}/{shown_name(path.stem)}"  # undecodable bytes of the name as \xff
    if doc_id in ids:  # en/x.txt and en/x.json: keep ids unique
        other = f"{lang}/{shown_name(path.name)}"
        message = f"{ids[doc_id]} has the same name; this file's document id is {other}"
        notes.append(Diagnostic("note", shown, 0, message))
        doc_id = other
    ids[doc_id] = shown
    return doc_id


def _link(content: Path, content_digest: str, parsed: _Parsed) -> KnowledgeBase:
    """Link the parse results into a knowledge base."""
    glossary = tuple(g for res in parsed.rules for g in res.glossary)
    links = link_rules(parsed.rules, glossary)
    editions = links.editions

    def rule_exists(lang: str, number: str, as_of: str | None = None) -> bool:
        """Whether an edition in force at `as_of` (an FAQ's or ruling's date) has the rule; undated ones count."""
        in_force = [ed for ed in editions if ed.effective_date is None or as_of is None or ed.effective_date <= as_of]
        return any(ed.lang == lang and number in ed.rules for ed in in_force)

    today = _today(links)
    card_data, merge_diags = merge_card_data(parsed.card_data)
    cards = link_cards(parsed.faqs, card_data, rule_exists)
    mined = [mine_lexicon(parsed.lexicon_cards)] if parsed.lexicon_cards else []
    lexicon = combine([*parsed.lexicons, *mined])
    documents = tuple(res.document for group in (parsed.rules, parsed.faqs, parsed.card_data) for res in group)
    return KnowledgeBase(
        content=str(content),
        content_hash=content_digest,
        documents=documents,
        rules=tuple(r for ed in links.editions for r in ed.rules.values()),
        glossary=glossary,
        links=links,
        faqs=tuple(f.info for f in parsed.faqs),
        cards=cards.cards,
        rulings=carry_forward(pair_translations(cards.cards, cards.rulings), links.editions, links.lineage, today),
        notes=place_quotes(cards.notes, links.editions, links.lineage, today, lexicon),
        diagnostics=tuple(parsed.diags) + links.diagnostics + tuple(merge_diags) + tuple(cards.diagnostics),
        cards_by_document=dict(cards.cards_by_document),
        lexicon=lexicon,
    )


def _today(links) -> Edition | None:
    """Today's edition of the reference language."""
    reference = links.alignment.reference
    eid = links.alignment.editions.get(reference) if reference else None
    return next((ed for ed in links.editions if ed.id == eid), None)
