"""Search: Whoosh schema and analyzers, the index life cycle, query parsing; the only module importing whoosh.

One index document per rule number (every language side by side), glossary entry, card, ruling and note.
Each language of the content has its own fields, indexed with a stemmed-then-folded form and a
folded-then-stemmed one, so `piochées`, `piochees` and `pioche` meet. Stop words stay in the index (a
quoted phrase matches them in order) and are dropped from keyword queries. Analyzers are pickled into the
index: any custom class must stay in this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path

import whoosh
import whoosh.index
from whoosh import query as Q
from whoosh.analysis import Filter, LowercaseFilter, NgramFilter, RegexTokenizer
from whoosh.fields import ID, KEYWORD, NUMERIC, STORED, TEXT, Schema
from whoosh.filedb.filestore import RamStorage
from whoosh.lang import has_stemmer, has_stopwords, stemmer_for_language, stopwords_for_language

from kb.model.langs import ordered_langs
from kb.model.numbers import is_number
from kb.search.entries import Entry, entries
from kb.search.query import KINDS, Item, ParsedQuery, SearchError, parse_query
from kb.search.rank import SearchResult, cited_boost, highlight_terms, make_result, query_words, rerank_factor
from kb.search.store import IndexNotWritable, current, index_root
from kb.search.store import index_key as _index_key
from kb.search.store import publish as _publish
from kb.search.text import TOKEN, LangText, fold, stop_words, words

__all__ = [
    "Entry",
    "IndexNotWritable",
    "Item",
    "ParsedQuery",
    "SearchError",
    "SearchIndex",
    "SearchResult",
    "entries",
    "ensure_index",
    "index_key",
    "index_root",
    "open_index",
    "parse_query",
    "publish",
    "write_index",
]

INDEX_VERSION = 4
"""Bump when the schema, analyzers or document layout change: old indexes are then rebuilt."""
RERANK = 40
"""Hits rescored in Python (proximity, word quality, card names) before keeping the first `limit`."""
RELAX_WORDS = 3
"""From this many words, a query whose words never all meet is answered by the documents matching most of them."""
RELAX_POOL = 100
"""Hits of the relaxed query examined for the words they hold."""
FIELD_BOOSTS = {"title": 3.0, "stitle": 1.0, "text": 1.0, "ctx": 0.6, "name": 2.0}
"""`title` holds the title's words as typed (folded), `stitle` their stems: a title matched through a stem
only (`piétinement` for the card Piétine et hurle) weighs no more than a text."""
STEMMED = ("stitle", "text", "ctx")
KIND_BOOSTS = {"rule": 1.0, "glossary": 1.3, "card": 1.2, "ruling": 0.8, "note": 1.0}


class _Or(Q.Or):
    """An OR that walks its sub-matchers instead of preloading every posting (much faster for common words)."""

    matcher_type = Q.Or.DEFAULT_MATCHER


def _same(word: str) -> str:
    """No stemming (a language Snowball does not know)."""
    return word


@cache
def lang_text(lang: str) -> LangText:
    """Analysis of a language: Snowball stemmer and stop words when whoosh has them, else folding alone."""
    stem = stemmer_for_language(lang) if has_stemmer(lang) else _same
    return LangText(lang, stem, stop_words(lang, stopwords_for_language(lang) if has_stopwords(lang) else ()))


class FoldStemFilter(Filter):
    """Replace each token by its `LangText.forms`, at the same position (pickled: keep this path)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __call__(self, tokens):
        forms = lang_text(self.lang).forms
        for token in tokens:
            for form in forms(token.text):
                token.text = form
                yield token


class FoldFilter(Filter):
    """Fold accents and ligatures as `kb.search.text.fold` does (pickled: keep this path)."""

    def __call__(self, tokens):
        for token in tokens:
            token.text = fold(token.text)
            yield token


def analyzer(lang: str):
    """Words (`120.2a` stays whole), lower case, then both stemmed forms; stop words kept for phrases."""
    return RegexTokenizer(TOKEN) | LowercaseFilter() | FoldStemFilter(lang)


EXACT = RegexTokenizer(TOKEN) | LowercaseFilter() | FoldFilter()
NAME_PREFIXES = EXACT | NgramFilter(3, 24, at="start")


def make_schema(langs: Iterable[str]) -> Schema:
    """The index schema: ids, kind, languages, rule order, stored payload and the fields of each language."""
    fields = {
        "id": ID(unique=True, stored=True),
        "kind": ID(stored=True),
        "number": ID(stored=True),
        "langs": KEYWORD(stored=True),
        "order": NUMERIC(sortable=True),
        "data": STORED(),
    }
    for lang in langs:
        fields[f"title_{lang}"] = TEXT(analyzer=EXACT, field_boost=FIELD_BOOSTS["title"])
        for part in STEMMED:
            fields[f"{part}_{lang}"] = TEXT(analyzer=analyzer(lang), field_boost=FIELD_BOOSTS[part])
        fields[f"name_{lang}"] = TEXT(analyzer=NAME_PREFIXES, field_boost=FIELD_BOOSTS["name"], phrase=False)
    return Schema(**fields)


def schema_langs(schema: Schema) -> tuple[str, ...]:
    """The languages an index has fields for, in display order."""
    return tuple(ordered_langs(name[5:] for name in schema.names() if name.startswith("text_")))


def _document(e: Entry) -> dict:
    """The Whoosh document of an entry."""
    langs = ordered_langs([*e.texts, *e.titles])
    doc = {
        "id": e.id,
        "kind": e.kind,
        "langs": " ".join(langs),
        "order": e.order,
        "_boost": KIND_BOOSTS[e.kind],
        "data": {
            "kind": e.kind,
            "id": e.id,
            "number": e.number,
            "names": e.names,
            "titles": e.titles,
            "texts": e.texts,
            "context": e.context,
            "langs": langs,
        },
    }
    if e.number:
        doc["number"] = e.number
    for lang in langs:
        for part, value in (("title", e.titles.get(lang)), ("text", e.texts.get(lang)), ("ctx", e.context.get(lang))):
            if value:
                doc[f"{part}_{lang}"] = value
        if e.titles.get(lang):
            doc[f"stitle_{lang}"] = e.titles[lang]
    if e.kind == "card":
        for lang, title in e.titles.items():
            doc[f"name_{lang}"] = title
    return doc


def _fill(storage_or_folder, items: Iterable[Entry]):
    """Create an index (in a folder, or in memory) holding the entries; return it."""
    items = list(items)
    schema = make_schema(tuple(ordered_langs(lang for e in items for lang in (*e.texts, *e.titles))))
    if isinstance(storage_or_folder, Path):
        ix = whoosh.index.create_in(str(storage_or_folder), schema)
    else:
        ix = storage_or_folder.create_index(schema)
    writer = ix.writer(limitmb=256)
    for item in items:
        writer.add_document(**_document(item))
    writer.commit()
    return ix


def write_index(folder: Path, items: Iterable[Entry]) -> None:
    """Create a Whoosh index in a folder (created if needed) and add the entries."""
    folder.mkdir(parents=True, exist_ok=True)
    _fill(folder, items)


# --- index life cycle -----------------------------------------------------------------------------------


def index_key(content: Path) -> str:
    """Hash of the content files, the kb code and the schema: the index is reused while it is unchanged."""
    return _index_key(content, f"{INDEX_VERSION} {whoosh.versionstring()}")


def publish(root: Path, key: str, items: Iterable[Entry]) -> Path:
    """Build a new index in its own folder, then switch the pointer to it atomically; prune old versions."""
    items = list(items)
    return _publish(root, key, lambda folder: write_index(folder, items))


def ensure_index(content: Path, kb=None) -> Path:
    """Folder of an up-to-date index for `content`, built (from `kb` or a fresh load) when stale or missing."""
    root, key = index_root(content), index_key(content)
    live = current(root)
    if live and live[0] == key and (root / live[1]).is_dir():
        return root / live[1]
    return publish(root, key, entries(kb if kb is not None else _load(content)))


def _load(content: Path):
    """Load a knowledge base (imported late: `kb.link.load` pulls in every parser)."""
    from kb.link.load import load

    return load(content)


def open_index(content: Path, kb=None) -> SearchIndex:
    """Open the up-to-date index of a content folder, building it if needed; in memory if it cannot be saved."""
    for attempt in range(3):
        try:
            folder = ensure_index(content, kb)
        except IndexNotWritable as err:
            items = entries(kb if kb is not None else _load(content))
            return SearchIndex(_fill(RamStorage(), items), unsaved=str(err))
        try:
            return SearchIndex(whoosh.index.open_dir(str(folder)))
        except (OSError, whoosh.index.IndexError):
            if attempt == 2:  # pruned by a concurrent rebuild between reading the pointer and opening it
                raise
    raise AssertionError("unreachable")


# --- queries --------------------------------------------------------------------------------------------


def _item_query(lang: str, item: Item, names: str = "words") -> Q.Query | None:
    """Match a word or phrase in a language's fields (None when it is only stop words there).

    `names`: "words" adds card-name prefixes for the item's non-stop words, "stops" for its stop words too
    (a query made only of stop words, like `Down`), "" none (the relaxed query).
    """
    lt = lang_text(lang)
    tokens = words(item.text)
    kept = tokens if item.phrase else [w for w in tokens if not lt.is_stop(w)]  # a phrase keeps its stop words
    alts = [_words_query(f"title_{lang}", [(fold(w),) for w in kept], item.phrase)] if kept else []
    alts += [_words_query(f"{part}_{lang}", [lt.forms(w) for w in kept], item.phrase) for part in STEMMED if kept]
    named = [fold(w) for w in tokens if names == "stops" or (names and not lt.is_stop(w))]
    if named and not item.phrase and all(len(n) >= 3 for n in named):
        alts.append(Q.And([Q.Term(f"name_{lang}", n[:24]) for n in named]))
    number = item.text.lower().rstrip(".")
    if len(number) >= 3 and is_number(number):
        alts.append(Q.Term("number", number, boost=4.0))
    return _Or(alts) if alts else None


def _words_query(fieldname: str, found: list[tuple[str, ...]], phrase: bool) -> Q.Query:
    """Every word (any of its forms) in a field; in order and side by side for a phrase."""
    if len(found) == 1:
        alts = [Q.Term(fieldname, form) for form in found[0]]
    elif phrase:  # stemmed-then-folded forms throughout, or folded-then-stemmed throughout
        variants = {tuple(forms[i % len(forms)] for forms in found) for i in range(2)}
        alts = [Q.Phrase(fieldname, list(variant)) for variant in variants]
    else:
        return Q.And(
            [
                _Or([Q.Term(fieldname, f) for f in forms]) if len(forms) > 1 else Q.Term(fieldname, forms[0])
                for forms in found
            ]
        )
    return _Or(alts) if len(alts) > 1 else alts[0]


def _lang_groups(parsed: ParsedQuery, lang: str, names: str) -> list[Q.Query]:
    """The query of each group of items (OR-ed alternatives) that means something in a language."""
    groups = []
    for group in parsed.groups:
        alts = [q for q in (_item_query(lang, item, names) for item in group) if q is not None]
        if alts:
            groups.append(_Or(alts) if len(alts) > 1 else alts[0])
    return groups


def keyword_query(parsed: ParsedQuery, langs: Iterable[str], relaxed: bool = False) -> Q.Query | None:
    """Per language, every group (or, relaxed, any group, names aside); languages OR-ed; minus exclusions."""
    per_lang = []
    for lang in langs:
        groups = _lang_groups(parsed, lang, "" if relaxed else "words")
        if not groups and not relaxed:  # only stop words: look for them in card names
            groups = _lang_groups(parsed, lang, "stops")
        if groups:
            per_lang.append(_Or(groups) if relaxed else Q.And(groups))
    if not per_lang:
        return None
    positive = _Or(per_lang)
    negative = [q for q in (_item_query(lang, item) for item in parsed.excluded for lang in langs) if q is not None]
    return Q.AndNot(positive, _Or(negative)) if negative else positive


def subtree_query(number: str) -> Q.Query:
    """The rule and everything under it, by regex on the exact number (a prefix would take 120.20 for 120.2)."""
    if len(number) == 1:
        return Q.Regex("number", rf"{number}(\d\d(\.\d+[a-z]?)?)?$")
    if "." not in number:
        return Q.Regex("number", rf"{number}(\.\d+[a-z]?)?$")
    if number[-1].isdigit():
        return Q.Regex("number", number.replace(".", r"\.") + "[a-z]?$")
    return Q.Term("number", number)


# --- searching ------------------------------------------------------------------------------------------


class SearchIndex:
    """An open index; keep it for many queries (a searcher is reused)."""

    def __init__(self, ix, unsaved: str | None = None) -> None:
        self.ix = ix
        self.searcher = ix.searcher()
        self.langs = schema_langs(ix.schema)
        """Languages the index has fields for, in display order."""
        self.unsaved = unsaved
        """Why the index lives in memory only (the build folder cannot be written), else None."""
        self._texts = {lang: lang_text(lang) for lang in self.langs}
        self._filters: dict[tuple, set[int]] = {}

    def close(self) -> None:
        """Release the searcher."""
        self.searcher.close()

    def search(
        self, text: str, lang: str | None = None, kind: str | None = None, limit: int = 10
    ) -> list[SearchResult]:
        """Answer the query box; `lang` and `kind` add to its filters. Raise SearchError when malformed."""
        parsed = parse_query(text)
        langs = _narrow(parsed.langs, lang, self.langs, "lang")
        kinds = _narrow(parsed.kinds, kind, KINDS, "kind")
        if parsed.number and "rule" in kinds:
            found = self._hits(subtree_query(parsed.number), langs, ("rule",), limit, parsed, sort=True)
            if found:
                return found
        found = self._hits(keyword_query(parsed, langs), langs, kinds, limit, parsed)
        plain = all(len(g) == 1 and not g[0].phrase for g in parsed.groups)
        if len(found) < limit and len(parsed.groups) >= RELAX_WORDS and plain:
            seen = {r.id for r in found}
            more = self._hits(
                keyword_query(parsed, langs, relaxed=True), langs, kinds, limit + len(found), parsed, relaxed=True
            )
            found += [r for r in more if r.id not in seen][: limit - len(found)]  # after every full match
        return found

    def _hits(self, query, langs, kinds, limit, parsed, sort=False, relaxed=False) -> list[SearchResult]:
        """Run a query under the filters and turn its hits into results (rescored unless sorted by number)."""
        if query is None:
            return []
        texts = {lang: self._texts[lang] for lang in langs}
        pool = limit if sort else max(limit, RELAX_POOL if relaxed else RERANK)
        hits = self.searcher.search(
            query, filter=self._filter(langs, kinds), limit=pool, sortedby="order" if sort else None
        )
        scored = [(hit["data"], 0.0 if sort else hit.score) for hit in hits]
        if not sort:
            qwords = query_words(parsed, texts)
            scored = cited_boost([(d, s * rerank_factor(d, qwords, texts, relaxed)) for d, s in scored])
            scored = sorted((pair for pair in scored if pair[1] > 0), key=lambda pair: -pair[1])[:limit]
        terms = highlight_terms([] if sort else [i for g in parsed.groups for i in g], texts)
        return [make_result(data, score, terms, langs, self._texts) for data, score in scored]

    def _filter(self, langs: tuple[str, ...], kinds: tuple[str, ...]) -> set[int] | None:
        """Document numbers allowed by the filters (None when everything is), computed once per combination."""
        if langs == self.langs and kinds == KINDS:
            return None
        if (langs, kinds) not in self._filters:
            flt = Q.And([_Or([Q.Term("langs", lang) for lang in langs]), _Or([Q.Term("kind", k) for k in kinds])])
            self._filters[(langs, kinds)] = set(self.searcher.docs_for_query(flt))
        return self._filters[(langs, kinds)]


def _narrow(from_query: tuple[str, ...], option: str | None, allowed: tuple[str, ...], name: str) -> tuple[str, ...]:
    """Values allowed by the query's filters and the option; a value the index lacks is a SearchError."""
    for value in (*from_query, *([option] if option else [])):
        if value not in allowed:
            raise SearchError(f"unknown {name} '{value}'; use one of {', '.join(allowed)}")
    chosen = set(from_query or allowed) & ({option} if option else set(allowed))
    return tuple(v for v in allowed if v in chosen)
