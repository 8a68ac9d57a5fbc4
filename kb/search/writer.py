"""Search entries -> a Whoosh index in a folder, with the tables a query reads beside it (`tables.json`).

Whoosh holds the documents, their terms, postings, field lengths and stored data. `tables.json` holds what the
query box needs before it can ask Whoosh anything, the same for the CLI and the site: each language's vocabulary
(a word as folded -> its index forms: `piochees` -> `pioche`, `piochee`), the lexicon's translation tables, and
what the index holds (languages, editions, document count). It ends with its own SHA-256, checked when read: a
damaged index is detected and rebuilt.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

from whoosh.filedb.filestore import FileStorage

from kb.model.numbers import IN_TEXT
from kb.search.analysis import body, lang_text, schema
from kb.search.entries import Entry
from kb.search.lexicon import lexicon_phrases, tables
from kb.search.text import KIND, TEXT, tokens

TABLES = "tables.json"
KIND_BOOSTS = {"rule": 1.0, "glossary": 0.95, "card": 0.85, "ruling": 0.7, "note": 1.0}
"""Score factor of each kind of result."""


class IndexDamaged(ValueError):
    """An index folder whose files do not read back as written."""


def write_index(folder: Path, items: Iterable[Entry], lexicon=None, numbering: dict | None = None) -> None:
    """Create an index in a folder (created if needed) holding the entries (and a lexicon's tables; `numbering`:
    see `build`)."""
    folder.mkdir(parents=True, exist_ok=True)
    write_tables(folder, build(FileStorage(str(folder)), items, lexicon, numbering)[1])


def build(storage, items: Iterable[Entry], lexicon=None, numbering: dict | None = None):
    """Index the entries into a Whoosh storage (a folder's, or memory); return the index and its tables.

    `numbering`: `{lang: {number: today's number or None}}`, a translation's rules that today's numbering puts
    elsewhere (French 120.4 is today's 121.4), so that a number typed says so."""
    entries = list(items)
    langs = _langs(entries)
    phrases = lexicon_phrases(lexicon, langs)
    ix = storage.create_index(schema(langs, phrases))
    vocab: dict[str, dict[str, list[str]]] = {lang: {} for lang in langs}
    writer = ix.writer()  # one segment: several (procs=2, multisegment) would give the corrector their own counts
    try:
        for entry in entries:
            writer.add_document(**_document(entry, langs, vocab))
        writer.commit()
    except BaseException:
        writer.cancel()
        raise
    with ix.searcher() as searcher:
        doc_count = searcher.doc_count_all()
        frequency = {"en": _doc_frequency(searcher, "en")}  # the lexicon leaves out English words too common
    info = {
        "langs": list(langs),
        "docs": doc_count,
        "editions": _editions(entries),
        "vocab": vocab,
        "lexicon": tables(lexicon, vocab, frequency, doc_count),
        "numbering": numbering or {},
        "phrases": {lang: sorted(found) for lang, found in phrases.items()},
    }
    return ix, info


def own_numbering(kb) -> dict[str, dict[str, str | None]]:
    """Each translation's rules whose number today's reference edition gives to another rule, or to none."""
    found: dict[str, dict[str, str | None]] = {}
    for lang, edition in kb.primary.items():
        if lang == kb.reference:
            continue
        for number in edition.rules:
            pair = kb.pair(lang, number)
            today = pair.ref_number if pair is not None else None
            if today != number:
                found.setdefault(lang, {})[number] = today
    return found


def _langs(entries: list[Entry]) -> tuple[str, ...]:
    """Languages of the entries, French and English first."""
    found = {lang for e in entries for lang in (*e.titles, *e.texts)}
    return tuple(sorted(found, key=lambda lang: ({"fr": 0, "en": 1}.get(lang, 2), lang)))


def _document(entry: Entry, langs: tuple[str, ...], vocab: dict) -> dict:
    """The Whoosh fields of one entry (its words added to the vocabulary)."""
    doc_langs = [lang for lang in langs if lang in entry.texts or lang in entry.titles]
    fields = {
        "key": entry.id,
        "kind": entry.kind,
        "number": entry.number or "",
        "editions": " ".join(sorted(set(entry.editions.values()))),
        "current": "1" if entry.current else "0",
        "langs": " ".join(doc_langs),
        "name": " ".join([*(entry.names or {}).values(), *entry.aliases]),
    }
    for lang in doc_langs:
        parts = {"text": entry.texts.get(lang, ""), "ctx": entry.context.get(lang, "")}
        if entry.titles.get(lang):
            fields[f"title_{lang}"] = entry.titles[lang]
        fields[f"body_{lang}"] = body(parts)
        fields[f"words_{lang}"] = "\n".join(p for p in (entry.titles.get(lang, ""), *parts.values()) if p)
        _add_words(vocab[lang], fields[f"words_{lang}"], lang)
    fields["data"] = {
        "titles": dict(entry.titles),
        "texts": dict(entry.texts),
        "ctx": dict(entry.context),
        "names": dict(entry.names) if entry.names else None,
        "number": entry.number,
        "numbers": dict(entry.numbers),
        "order": entry.order,
        "editions": dict(entry.editions),
        "heads": [_head_forms(h, lang) for lang, heads in entry.heads.items() for h in heads],
        "cites": _cited(entry),
        "boost": KIND_BOOSTS[entry.kind],
        "current": entry.current,
    }
    return fields


def _cited(entry: Entry) -> list[str]:
    """The ids of the rules an entry's texts cite (same edition for a rule of another edition)."""
    suffix = "@" + entry.id.split("@", 1)[1] if "@" in entry.id else ""
    cited = {m for text in entry.texts.values() for m in IN_TEXT.findall(text)} - {entry.number}
    return sorted(c + suffix for c in cited)


def _add_words(vocab: dict[str, list[str]], text: str, lang: str) -> None:
    """Add a text's words (as folded) and their index forms to a language's vocabulary."""
    lt = lang_text(lang)
    for token in tokens(text):
        word = token[TEXT]
        if token[KIND] == "word" and lt.is_stop(word):
            continue
        known = vocab.setdefault(word, [])
        for form in lt.forms(token):
            if form not in known:
                known.append(form)


def _head_forms(head: str, lang: str) -> list[str]:
    """A headword as the first index form of each of its words, stop words aside."""
    lt = lang_text(lang)
    return [lt.forms(t)[0] for t in tokens(head) if not (t[KIND] == "word" and lt.is_stop(t[TEXT]))]


def _doc_frequency(searcher, lang: str) -> dict[str, int]:
    """Folded word -> how many documents hold it (the `words_<lang>` field)."""
    field = f"words_{lang}"
    if field not in searcher.schema:
        return {}
    reader = searcher.reader()
    return {text: reader.doc_frequency(field, text) for text in reader.field_terms(field)}


def _editions(entries: list[Entry]) -> dict[str, list[str]]:
    """Edition ids of the indexed rules and glossary terms: current, other."""
    current, other = set(), set()
    for e in entries:
        (current if e.current else other).update(e.editions.values())
    return {"current": sorted(current), "other": sorted(other - current)}


def write_tables(folder: Path, info: dict) -> None:
    """Write `tables.json`, its SHA-256 on its last line."""
    body = json.dumps(info, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
    (folder / TABLES).write_bytes(body + b"\n" + hashlib.sha256(body).hexdigest().encode() + b"\n")


def read_tables(folder: Path) -> dict:
    """Read `tables.json` back; IndexDamaged when it is missing, cut or altered."""
    try:
        blob = (folder / TABLES).read_bytes()
    except OSError as err:
        raise IndexDamaged(f"cannot read {TABLES}: {err.strerror}") from err
    body, _, digest = blob.rstrip(b"\n").rpartition(b"\n")
    if hashlib.sha256(body).hexdigest().encode() != digest:
        raise IndexDamaged(f"{TABLES} does not match its checksum")
    return json.loads(body)
