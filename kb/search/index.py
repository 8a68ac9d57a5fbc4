"""Search: the index life cycle and the query entry point, on Whoosh.

One Whoosh document per rule number (every language side by side), glossary entry, card, ruling and note
(`kb.search.writer`), kept under the build folder and reused while the content and kb's code are unchanged. A
query is parsed (`kb.search.query`), its words resolved into slots (`kb.search.lookup`, spelling corrected by
Whoosh's corrector), asked of Whoosh as one query scored with BM25F (`slot_query`), and Whoosh's best hits are
re-ranked by kb (`kb.search.rank`); snippets come from `whoosh.highlight`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from math import log
from pathlib import Path

from whoosh import highlight
from whoosh import index as whoosh_index
from whoosh.filedb.filestore import RamStorage
from whoosh.idsets import BitSet
from whoosh.query import And, ConstantScoreQuery, Every, Not, Or, Phrase, Prefix, Require, Term
from whoosh.scoring import BM25F

from kb.model.numbers import descends, sort_key
from kb.search.analysis import forms_analyzer, lang_text
from kb.search.lookup import FUZZY_FACTOR, Alt, Slot, Tables, slots
from kb.search.query import KINDS, Item, ParsedQuery, SearchError, parse_query
from kb.search.rank import TOP, Hit, rerank
from kb.search.results import LEAD, MARK, SNIPPET, SearchResult, clip
from kb.search.store import IndexNotWritable, current, index_root
from kb.search.store import index_key as _index_key
from kb.search.store import publish as _publish
from kb.search.text import STOP, query_tokens
from kb.search.writer import IndexDamaged, build, own_numbering, read_tables, write_index

__all__ = [
    "IndexNotWritable",
    "Item",
    "ParsedQuery",
    "SearchError",
    "SearchIndex",
    "SearchResult",
    "ensure_index",
    "index_key",
    "index_root",
    "open_index",
    "parse_query",
    "write_index",
]

INDEX_VERSION = 8
"""Bump when the analysis, the schema, the tables or the ranking data change: old indexes are then rebuilt."""
FIELDS = {"title": 3.0, "body": 1.0}
"""Query boost of each field of a language: a title word counts three words of the text."""
B = {"title": 0.5, "body": 0.75}
"""BM25F length normalisation of each field."""
K1 = 1.2
"""BM25 term-frequency saturation."""
EXACT = 1.5
"""Query boost of the word as typed (`words_<lang>`): a document holding `pioche` itself ranks above one holding
only `piochez`, another form of its stem."""
NAME = 1.5
NAME_LIMIT = 50
"""Card-name words looked at for one prefix."""
"""Score of a card whose name has a word starting with a query word (a title word scores about as much)."""


# --- index life cycle -----------------------------------------------------------------------------------


def index_key(content: Path, kb=None) -> str:
    """Hash of the content files (a loaded knowledge base's, when given: the files are not read again), the kb code
    and the index format: the index is reused while it holds."""
    return _index_key(content, f"{INDEX_VERSION} {sys.version_info[:2]}", kb.content_hash if kb is not None else None)


def publish(root: Path, key: str, items: Iterable, lexicon=None, numbering: dict | None = None) -> Path:
    """Build a new index in its own folder, then switch the pointer to it atomically; prune old versions."""
    return _publish(root, key, lambda folder: write_index(folder, items, lexicon, numbering))


def ensure_index(content: Path, kb=None) -> Path:
    """Folder of an up-to-date index for `content`, built (from `kb` or a fresh load) when stale or missing."""
    root, key = index_root(content), index_key(content, kb)
    live = current(root)
    if live and live[0] == key and (root / live[1]).is_dir():
        return root / live[1]
    kb = kb if kb is not None else _load(content)
    return publish(root, key, _entries(kb), kb.lexicon, own_numbering(kb))


def _entries(kb):
    """The search entries of a knowledge base."""
    from kb.search.entries import entries

    return entries(kb)


def _load(content: Path):
    """Load a knowledge base (imported late: `kb.link.load` pulls in every parser)."""
    from kb.link.load import load

    return load(content)


def open_index(content: Path, kb=None) -> SearchIndex:
    """Open the up-to-date index of a content folder, building it if needed (and rebuilding a damaged one, which
    `SearchIndex.notice` then reports); in memory if it cannot be saved."""
    notice = None
    for attempt in range(3):
        try:
            folder = ensure_index(content, kb)
        except IndexNotWritable as err:
            kb = kb if kb is not None else _load(content)
            return memory_index(_entries(kb), kb.lexicon, unsaved=str(err), numbering=own_numbering(kb))
        try:
            index = SearchIndex(whoosh_index.open_dir(str(folder)), read_tables(folder))
        except FileNotFoundError:  # pruned by a concurrent rebuild between reading the pointer and opening it
            continue
        except (IndexDamaged, Exception) as err:  # noqa: BLE001 - any unreadable file: rebuilt
            if attempt == 2:
                raise IndexDamaged(f"the search index in {folder} cannot be read: {err}") from err
            notice = f"the search index in {folder} was damaged ({_one_line(err)}); rebuilt it"
            (index_root(content) / "CURRENT").unlink(missing_ok=True)
            continue
        index.notice = notice
        return index
    raise IndexDamaged(f"the search index of {content} could not be opened")


def _one_line(err: BaseException) -> str:
    """An error as one short line."""
    return (str(err) or type(err).__name__).splitlines()[0][:160]


def memory_index(items: Iterable, lexicon=None, unsaved: str | None = None, numbering=None) -> SearchIndex:
    """An index of some entries (and a lexicon's translation tables), in memory only."""
    ix, info = build(RamStorage(), items, lexicon, numbering)
    index = SearchIndex(ix, info)
    index.unsaved = unsaved
    return index


# --- searching ------------------------------------------------------------------------------------------


class SearchIndex:
    """An open index; keep it for many queries."""

    def __init__(self, ix, info: dict) -> None:
        self.langs: tuple[str, ...] = tuple(info["langs"])
        """Languages the index has, in display order."""
        self.tables = Tables(info, {lang: lang_text(lang).stops for lang in self.langs})
        self.searcher = ix.searcher(weighting=BM25F(B=B["body"], K1=K1, **_field_b(self.langs)))
        self.unsaved: str | None = None
        """Why the index lives in memory only (the build folder cannot be written), else None."""
        self.notice: str | None = None
        """What opening the index had to do (a damaged index rebuilt), else None."""
        eds = info["editions"]
        self.editions: tuple[tuple[str, ...], tuple[str, ...]] = (tuple(eds["current"]), tuple(eds["other"]))
        """(current edition ids, other edition ids) of the rules and glossaries indexed."""
        self._filters: dict[tuple, BitSet] = {}
        self.numbering: dict[str, dict[str, str | None]] = info.get("numbering", {})
        """A translation's rules that today's numbering puts elsewhere: {lang: {its number: today's or None}}."""
        self.last: dict = {}
        """What the last search did: `corrected` (the query with spelling corrections, or None), `editions`,
        `elsewhere` (for a rule number: the translations' own rules of that number, and where they are today)."""

    def close(self) -> None:
        """Release the index files."""
        self.searcher.close()

    def search(
        self, text: str, lang: str | None = None, kind: str | None = None, limit: int = 10, edition: str | None = None
    ) -> list[SearchResult]:
        """Answer the query box; `lang`, `kind`, `edition` add to its filters. Raise SearchError when malformed."""
        parsed = parse_query(text)
        langs = _narrow(parsed.langs, lang, self.langs, "lang")
        kinds = _narrow(parsed.kinds, kind, KINDS, "kind")
        editions = self._editions_of((*parsed.editions, *([edition] if edition else [])))
        allowed = self._allowed(langs, kinds, editions)
        self.last = {"corrected": None, "editions": editions or self.editions[0], "elsewhere": []}
        if parsed.number:
            self.last["elsewhere"] = [
                (x, parsed.number, own[parsed.number]) for x, own in self.numbering.items() if parsed.number in own
            ]
        if parsed.number and "rule" in kinds:
            found = self._numbers(parsed.number, allowed, limit)
            if found:
                return found
        made = slots(parsed, self.tables, langs)
        fixed = [self._correct(s, langs) for s in made if s.missing]
        if any(fixed):
            self.last["corrected"] = _corrected(parsed, made)
        made = [s for s in made if s.alts or s.names]
        if not made:
            return []
        reader = self.searcher.reader()
        terms = [slot_terms(s, reader) for s in made]
        weights = [self.weight(t) for t in terms]
        query = Or([part for s in made for part in slot_parts(s, reader)])
        mask = self._excluded(parsed.excluded, langs)
        phrases = any(a.phrase for s in made for a in s.alts)  # Whoosh's skipping by quality fails on Require
        hits = self.searcher.search(query, limit=TOP, filter=allowed, mask=mask, optimize=not phrases)
        held = _Held(reader)
        ranked = rerank([self._hit(h, terms, held) for h in hits], weights, all(s.stop for s in made))[:limit]
        return [self._result(h.doc, score, made, terms, held, langs, h) for h, score in ranked]

    def _allowed(self, langs: tuple[str, ...], kinds: tuple[str, ...], editions: tuple[str, ...]) -> BitSet:
        """The documents the filters let through (computed once per combination)."""
        key = (langs, kinds, editions)
        if key not in self._filters:
            docs = self.searcher.docs_for_query(_filter(langs, kinds, editions))
            self._filters[key] = BitSet(docs, size=self.searcher.doc_count_all())
        return self._filters[key]

    def weight(self, terms: dict[tuple[str, str], bool]) -> float:
        """How much finding a slot counts: the idf (Whoosh's) of its rarest term, card-name words counting as one."""
        n = self.searcher.doc_count_all()
        reader = self.searcher.reader()
        dfs = [reader.doc_frequency(*t) for t in terms if t[0] != "name" and not t[0].startswith("words_")]
        names = sum(reader.doc_frequency(*t) for t in terms if t[0] == "name")
        return max((_idf(n, df) for df in [*dfs, min(n, names)] if df), default=0.0)

    def _correct(self, slot: Slot, langs: tuple[str, ...]) -> bool:
        """Replace a slot's missing words by their spelling corrections (Whoosh's corrector over the words as
        written: one edit, else two; the most frequent first); whether any was found."""
        reader = self.searcher.reader()
        for word in slot.missing:
            best = None
            for maxdist in (1, 2):
                for lang in langs:
                    field = f"words_{lang}"
                    if field not in reader.schema or len(word) < 3 * maxdist:
                        continue
                    for sug in reader.corrector(field).suggest(word, limit=1, maxdist=maxdist):
                        f = reader.frequency(field, sug)
                        if best is None or (f, -len(sug)) > (best[2], -len(best[1])):
                            best = (lang, sug, f)
                if best:
                    break
            if best is None:
                continue
            slot.fixed = best[1]
            for lang in langs:
                slot.alts += [Alt(lang, (f,), FUZZY_FACTOR) for f in self.tables.forms(lang, best[1])[:1]]
        slot.missing = []
        return slot.fixed is not None

    def _hit(self, hit, terms: list[dict[tuple[str, str], bool]], held: _Held) -> Hit:
        """One of Whoosh's hits with what the re-rank needs: the slots it matches (read in the terms' postings)."""
        found = [{t for t in slot if held(hit.docnum, t)} for slot in terms]
        data = hit["data"]
        typed = any(not s[t] for f, s in zip(found, terms, strict=True) for t in f)
        return Hit(
            hit.docnum,
            hit.score,
            tuple(bool(f) for f in found),
            tuple(frozenset(t[1] for t in f if not s[t] and t[0] != "name") for f, s in zip(found, terms, strict=True)),
            data["boost"],
            tuple(tuple(h) for h in data["heads"]),
            hit["key"],
            tuple(data["cites"]),
            via=any(found) and not typed,
        )

    def result_of(self, doc: int) -> SearchResult:
        """A document as a result of no query (its texts' starts, no score)."""
        return self._result(doc, 0.0, [], [], _Held(self.searcher.reader()), self.langs)

    def _numbers(self, number: str, allowed, limit: int) -> list[SearchResult]:
        """The rule and everything under it, in rule order."""
        hits = self.searcher.search(Prefix("number", number), limit=None, filter=allowed)
        found = [h for h in hits if descends(h["number"], number)]
        found.sort(key=lambda h: (h["key"] != h["number"], sort_key(h["number"]), h.docnum))
        return [self.result_of(h.docnum) for h in found[:limit]]

    def _editions_of(self, asked: tuple[str, ...]) -> tuple[str, ...]:
        """Edition ids matching `edition:` values (an id or a date); SearchError for one not loaded."""
        every = [*self.editions[0], *self.editions[1]]
        found = []
        for value in asked:
            match = [e for e in every if value in (e, e.split(":", 1)[-1])]
            if not match:
                raise SearchError(f"unknown edition '{value}'; loaded: {', '.join(every) or 'none'}")
            found += match
        return tuple(dict.fromkeys(found))

    def _excluded(self, items: tuple[Item, ...], langs: tuple[str, ...]):
        """The query of the documents holding an excluded word or phrase (any of its forms), or None."""
        queries = []
        for item in items:
            words = [w for _, w in query_tokens(item.text)]
            for lang in langs:
                stops = self.tables.stops.get(lang, frozenset())
                forms = [[STOP + w] if w in stops else self.tables.forms(lang, w) for w in words]
                for name in FIELDS:
                    field = f"{name}_{lang}"
                    if item.phrase and len(words) > 1:
                        if all(forms):
                            queries.append(Phrase(field, [f[0] for f in forms]))
                    else:
                        queries += [Term(field, f) for fs in forms for f in fs]
        return Or(queries) if queries else None

    def _result(
        self, doc: int, score: float, made: list[Slot], terms: list[dict], held, langs, hit=None
    ) -> SearchResult:
        """The result of a hit, with a snippet per language (matched and searched languages first) and, when it
        matches only translations of the query's words, the translations it was found through."""
        stored = self.searcher.stored_fields(doc)
        data = stored["data"]
        doc_langs = [x for x in self.langs if x in data["texts"] or x in data["titles"]]
        every = {t for slot in terms for t in slot if t[0] != "name" and not t[0].startswith("words_")}
        matched = [x for x in langs if any(held(doc, t) for t in every if t[0].endswith("_" + x))]
        snippets = {}
        for lang in doc_langs:
            forms = {t[1] for t in every if t[0].endswith("_" + lang)}
            text = data["texts"].get(lang) or data["titles"].get(lang, "")
            marked = _highlight(text, forms, lang) if text and forms and lang in matched else ""
            snippets[lang] = marked or clip(text)
        order = tuple(dict.fromkeys([*matched, *(x for x in langs if x in doc_langs), *doc_langs]))
        names = data["names"] if stored["kind"] == "card" else {}
        title = next((t.get(x) for t in (names, data["titles"]) for x in order if t and t.get(x)), "")
        if not title and data["names"]:
            title = next((data["names"][x] for x in order if data["names"].get(x)), "")
        named = any(held(doc, t) for s in terms for t in s if t[0] == "name")
        via = hit is not None and any(hit.covered) and not any(hit.typed) and not named
        translated = tuple((a, b, c, tuple(d)) for s in made for a, b, c, d in s.translated) if via else ()
        editions = data["editions"] or None
        kind, key = stored["kind"], stored["key"]
        numbers = data.get("numbers") or None
        return SearchResult(
            kind, key, data["number"], title, data["names"], order, snippets, score, editions, translated, numbers
        )


class _Held:
    """Whether a document holds a term, from the term's postings (read once per query)."""

    def __init__(self, reader) -> None:
        self.reader = reader
        self.docs: dict[tuple[str, str], frozenset[int]] = {}

    def __call__(self, doc: int, term: tuple[str, str]) -> bool:
        if term not in self.docs:
            field, text = term
            found = self.reader.postings(field, text).all_ids() if term in self.reader else ()
            self.docs[term] = frozenset(found)
        return doc in self.docs[term]


def _field_b(langs: tuple[str, ...]) -> dict[str, float]:
    """`<field>_B` keyword arguments of BM25F for the fields of these languages."""
    return {f"{name}_{lang}_B": b for lang in langs for name, b in B.items()}


def slot_query(slot: Slot, reader):
    """The Whoosh query of a slot (see `slot_parts`)."""
    parts = slot_parts(slot, reader)
    return parts[0] if len(parts) == 1 else Or(parts)


def slot_parts(slot: Slot, reader) -> list:
    """The Whoosh query of a slot: its alternatives (the word's first form, its translations, a phrase, the words of
    an OR) in each field of their language, the words as typed and card-name words, all summed (Whoosh's Or)."""
    parts = []
    for lang in dict.fromkeys(a.lang for a in slot.alts):
        for name, boost in FIELDS.items():
            parts += [_alt_query(f"{name}_{lang}", a, boost) for a in slot.alts if a.lang == lang]
    parts += [Term(f"words_{lang}", word, boost=EXACT) for lang, word in slot.exact]
    words = _slot_names(reader, slot)
    if words:  # each card holding one scores NAME
        parts.append(ConstantScoreQuery(Or([Term("name", w) for w in words]), score=NAME))
    return parts


def _alt_query(field: str, alt: Alt, boost: float):
    """One alternative in a field: a term, or a phrase (matched whole, stop words included; scored by its other
    words)."""
    words = [Term(field, f, boost=boost * alt.factor) for f in alt.forms]
    if not alt.phrase:
        return words[0]
    return Require(words[0] if len(words) == 1 else And(words), Phrase(field, list(alt.phrase)))


def slot_terms(slot: Slot, reader) -> dict[tuple[str, str], bool]:
    """(field, term) of everything a slot matches -> whether it is a translation: its alternatives' forms (a phrase
    by its words) in each field, the words as typed, its card-name words."""
    found: dict[tuple[str, str], bool] = {}
    for alt in slot.alts:
        for form in alt.forms:
            for name in FIELDS:
                key = (f"{name}_{alt.lang}", form)
                found[key] = found.get(key, True) and alt.via
    for lang, word in slot.exact:
        found[(f"words_{lang}", word)] = False
    for word in _slot_names(reader, slot):
        found[("name", word)] = False
    return found


def _slot_names(reader, slot: Slot) -> list[str]:
    """The card-name words a slot matches: those starting with its prefixes (the words themselves for stop words)."""
    if slot.stop:
        return [w for w in slot.names if ("name", w) in reader]
    return [w for prefix in slot.names for w in _name_terms(reader, prefix)]


def _idf(n: int, df: int) -> float:
    """Whoosh's idf."""

    return log(n / (df + 1)) + 1


def _name_terms(reader, prefix: str) -> list[str]:
    """The card-name words starting with a prefix (at most NAME_LIMIT, in order)."""
    found = []
    for t in reader.expand_prefix("name", prefix):
        found.append(t.decode("utf-8") if isinstance(t, bytes) else t)
        if len(found) == NAME_LIMIT:
            break
    return found


def _filter(langs: tuple[str, ...], kinds: tuple[str, ...], editions: tuple[str, ...]):
    """The Whoosh filter of the query's `lang:`, `kind:` and `edition:` (the current editions by default)."""
    parts = [Or([Term("langs", x) for x in langs]), Or([Term("kind", k) for k in kinds])]
    parts.append(Or([Term("editions", e) for e in editions]) if editions else Not(Term("current", "0")))
    return And(parts) if parts else Every()


class _Marks(highlight.Formatter):
    """Matched words between `MARK`s, the rest as it is."""

    between = " … "

    def format_token(self, text, token, replace=False):
        return f"{MARK[0]}{highlight.get_text(text, token, replace)}{MARK[1]}"


def _highlight(text: str, terms: set[str], lang: str) -> str:
    """The best window of a text around its matched words (Whoosh's highlighter), or '' when none matches."""
    fragmenter = highlight.ContextFragmenter(maxchars=SNIPPET, surround=LEAD)
    found = highlight.highlight(text, frozenset(terms), forms_analyzer(lang), fragmenter, _Marks(), top=1)
    if not found:
        return ""
    body = found.replace("\n", " ").strip()
    start = text.replace("\n", " ").find(body.replace(MARK[0], "").replace(MARK[1], "")[:40])
    return ("…" if start > 0 else "") + body + ("…" if start >= 0 and start + len(body) < len(text) - 4 else "")


def _corrected(parsed: ParsedQuery, made: list[Slot]) -> str:
    """The query's words with their spelling corrections (`tramle` -> `trample`)."""
    fixes = {s.text: s.fixed for s in made if s.fixed}
    words = [w for g in parsed.groups for i in g for _, w in query_tokens(i.text)]
    return " ".join(fixes.get(w, w) for w in words)


def _narrow(from_query: tuple[str, ...], option: str | None, allowed: tuple[str, ...], name: str) -> tuple[str, ...]:
    """Values allowed by the query's filters and the option; a value the index lacks is a SearchError."""
    for value in (*from_query, *([option] if option else [])):
        if value not in allowed:
            raise SearchError(f"unknown {name} '{value}'; use one of {', '.join(allowed)}")
    chosen = set(from_query or allowed) & ({option} if option else set(allowed))
    return tuple(v for v in allowed if v in chosen)
