"""Search: Whoosh schema and analyzers, the index life cycle, query parsing; the only module importing whoosh.

One index document per rule number (every language side by side), glossary entry, card, ruling and note.
Each language has its own fields: a stemmed-then-folded form and a folded-then-stemmed one, so `piochées`,
`piochees` and `pioche` meet. Analyzers are pickled into the index: any custom class must stay in this module.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
import time
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import whoosh
import whoosh.index
from whoosh import query as Q
from whoosh.analysis import CharsetFilter, Filter, LowercaseFilter, NgramFilter, RegexTokenizer, StopFilter
from whoosh.fields import ID, KEYWORD, NUMERIC, STORED, TEXT, Schema
from whoosh.lang import stemmer_for_language, stopwords_for_language
from whoosh.support.charset import accent_map

from kb.paths import build_dir
from kb.search_entries import LANGS, Entry, entries
from kb.search_query import KINDS, Item, ParsedQuery, SearchError, parse_query
from kb.sources import find_sources

INDEX_VERSION = 3
"""Bump when the schema, analyzers or document layout change: old indexes are then rebuilt."""
TOKEN = r"\w+(\.?\w+)*"
WORD = re.compile(TOKEN)
RULE_NUMBER = re.compile(r"\d{3}(?:\.\d+[a-z]?)?")
FRENCH_EXTRA = {"l", "d", "j", "m", "n", "s", "t", "c", "qu", "jusqu", "lorsqu", "puisqu", "quoiqu", "presqu",
                "si", "quand", "comment", "quoi", "quel", "quelle", "quels", "quelles", "dont", "où", "cet", "cette",
                "ceci", "cela", "ça", "est-ce", "alors", "donc", "car", "ni"}
MARK = ("**", "**")
"""Highlight markers put around matched words in snippets."""
SNIPPET = 220
PROXIMITY_WORDS, PROXIMITY_SLOP, PROXIMITY_BONUS, RERANK = 5, 3, 0.5, 40
RELAX_WORDS = 3
NAME_BOOST = 3.0
"""A card whose name holds every query word ranks before the rulings and cards that merely mention it."""
"""From this many words, a query whose words never all meet is answered by the documents matching most of them."""
FIELD_BOOSTS = {"title": 3.0, "text": 1.0, "ctx": 0.6, "name": 2.0}
KIND_BOOSTS = {"rule": 1.0, "glossary": 1.3, "card": 1.2, "ruling": 0.8, "note": 1.0}
_FOLD_MAP = {**accent_map, ord("œ"): "oe", ord("æ"): "ae", ord("Œ"): "oe", ord("Æ"): "ae"}


class _Or(Q.Or):
    """An OR that walks its sub-matchers instead of preloading every posting (much faster for common words)."""

    matcher_type = Q.Or.DEFAULT_MATCHER


def _stops(lang: str) -> frozenset[str]:
    """Stop words of a language, French elisions and question words included, in accented and folded forms."""
    words = set(stopwords_for_language(lang)) | (FRENCH_EXTRA if lang == "fr" else set())
    return frozenset(words | {w.translate(_FOLD_MAP) for w in words})


@lru_cache(maxsize=200_000)
def word_forms(lang: str, word: str) -> tuple[str, ...]:
    """Index forms of a lowercase word: stemmed then folded, and folded then stemmed when that differs."""
    stem = _STEMMERS[lang]
    first, second = stem(word).translate(_FOLD_MAP), stem(word.translate(_FOLD_MAP))
    return (first,) if first == second else (first, second)


class FoldStemFilter(Filter):
    """Replace each token by its forms from `word_forms`, at the same position (pickled: keep this path)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __call__(self, tokens):
        for token in tokens:
            forms = word_forms(self.lang, token.text)
            for form in forms:
                token.text = form
                yield token


def analyzer(lang: str):
    """Letters/digits tokens (`120.2a` stays whole), lower case, stop words, then both stemmed forms."""
    return RegexTokenizer(TOKEN) | LowercaseFilter() | StopFilter(_stops(lang), minsize=2) | FoldStemFilter(lang)


_STEMMERS = {lang: stemmer_for_language(lang) for lang in LANGS}
STOPS = {lang: _stops(lang) for lang in LANGS}
ANALYZERS = {lang: analyzer(lang) for lang in LANGS}
NAME_PREFIXES = RegexTokenizer(TOKEN) | LowercaseFilter() | CharsetFilter(_FOLD_MAP) | NgramFilter(3, 24, at="start")


def make_schema() -> Schema:
    """The index schema: ids, kind, languages, rule order, stored payload and the per-language fields."""
    fields = {"id": ID(unique=True, stored=True), "kind": ID(stored=True), "number": ID(stored=True),
              "langs": KEYWORD(stored=True), "order": NUMERIC(sortable=True), "data": STORED()}  # fmt: skip
    for lang, analyzer_ in ANALYZERS.items():
        for part in ("title", "text", "ctx"):
            fields[f"{part}_{lang}"] = TEXT(analyzer=analyzer_, field_boost=FIELD_BOOSTS[part])
        fields[f"name_{lang}"] = TEXT(analyzer=NAME_PREFIXES, field_boost=FIELD_BOOSTS["name"], phrase=False)
    return Schema(**fields)


def positions(lang: str, text: str) -> list[tuple[str, ...]]:
    """The forms of each non-stop word of a text, in order (how the index sees it)."""
    words = (m.group().lower() for m in WORD.finditer(text))
    return [word_forms(lang, w) for w in words if len(w) >= 2 and w not in STOPS[lang]]


def _document(e: Entry) -> dict:
    """The Whoosh document of an entry."""
    langs = [lang for lang in LANGS if lang in e.texts or lang in e.titles]
    doc = {"id": e.id, "kind": e.kind, "langs": " ".join(langs), "order": e.order, "_boost": KIND_BOOSTS[e.kind],
           "data": {"kind": e.kind, "id": e.id, "number": e.number, "names": e.names, "titles": e.titles,
                    "texts": e.texts, "context": e.context, "langs": langs}}  # fmt: skip
    if e.number:
        doc["number"] = e.number
    for lang in langs:
        for part, value in (("title", e.titles.get(lang)), ("text", e.texts.get(lang)), ("ctx", e.context.get(lang))):
            if value:
                doc[f"{part}_{lang}"] = value
    if e.kind == "card":
        for lang, title in e.titles.items():
            if lang in LANGS:
                doc[f"name_{lang}"] = title
    return doc


def write_index(folder: Path, items: Iterable[Entry]) -> None:
    """Create a Whoosh index in an empty folder and add the entries."""
    folder.mkdir(parents=True, exist_ok=True)
    ix = whoosh.index.create_in(str(folder), make_schema())
    writer = ix.writer(limitmb=256)
    for item in items:
        writer.add_document(**_document(item))
    writer.commit()


# --- index life cycle -----------------------------------------------------------------------------------


def index_key(content: Path) -> str:
    """Hash of the raw content files, the kb code and the schema: the index is reused while it is unchanged."""
    digest = hashlib.sha256(f"{INDEX_VERSION} {whoosh.versionstring()}\0".encode())
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        stat = path.stat()
        digest.update(f"{path.name} {stat.st_size} {stat.st_mtime_ns}\0".encode())
    for lang, path in find_sources(content):
        digest.update(f"{lang}/{path.name}\0".encode() + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def index_root(content: Path) -> Path:
    """The folder holding the index versions and the `CURRENT` pointer."""
    return build_dir(content) / "index"


def _current(root: Path) -> tuple[str, str] | None:
    """(key, folder name) of the live index, from the pointer file."""
    try:
        key, name = (root / "CURRENT").read_text().split()
    except (OSError, ValueError):
        return None
    return key, name


def ensure_index(content: Path, kb=None) -> Path:
    """Folder of an up-to-date index for `content`, built (from `kb` or a fresh load) when stale or missing."""
    root, key = index_root(content), index_key(content)
    live = _current(root)
    if live and live[0] == key and (root / live[1]).is_dir():
        return root / live[1]
    if kb is None:
        from kb.load import load

        kb = load(content)
    return publish(root, key, entries(kb))


def publish(root: Path, key: str, items: Iterable[Entry]) -> Path:
    """Build a new index in its own folder, then switch the pointer to it atomically; prune old versions."""
    tag = f"{key[:12]}-{os.getpid()}-{secrets.token_hex(3)}"
    tmp, final = root / f"tmp-{tag}", root / f"idx-{tag}"
    write_index(tmp, items)
    os.replace(tmp, final)
    pointer = root / f"CURRENT.{tag}"
    pointer.write_text(f"{key} {final.name}\n")
    os.replace(pointer, root / "CURRENT")
    _prune(root, final.name)
    return final


def _prune(root: Path, keep: str) -> None:
    """Remove superseded index folders (after a minute) and builds abandoned for an hour."""
    live = _current(root)
    for child in root.iterdir():
        if child.name in (keep, live[1] if live else keep):
            continue
        try:
            age = time.time() - child.stat().st_mtime
        except FileNotFoundError:  # removed by a concurrent prune
            continue
        # A young idx- folder may be another process's build about to be pointed to: leave it a minute.
        stale = (child.name.startswith("idx-") and age > 60) or age > 3600
        if stale and child.is_dir():
            shutil.rmtree(child, ignore_errors=True)
        elif stale and child.name.startswith("CURRENT."):
            child.unlink(missing_ok=True)


def open_index(content: Path, kb=None) -> SearchIndex:
    """Open the up-to-date index of a content folder (building it if needed)."""
    for attempt in range(3):
        folder = ensure_index(content, kb)
        try:
            return SearchIndex(whoosh.index.open_dir(str(folder)))
        except (OSError, whoosh.index.IndexError):
            if attempt == 2:  # pruned by a concurrent rebuild between reading the pointer and opening it
                raise
    raise AssertionError("unreachable")


# --- queries --------------------------------------------------------------------------------------------


def _item_query(lang: str, item: Item) -> Q.Query | None:
    """Match one word or phrase in a language's fields (None when it is only stop words there)."""
    found = positions(lang, item.text)
    alts = []
    for part in ("title", "text", "ctx") if found else ():
        fieldname = f"{part}_{lang}"
        if len(found) == 1:
            alts += [Q.Term(fieldname, form) for form in found[0]]
        elif item.phrase:
            variants = {tuple(forms[i % len(forms)] for forms in found) for i in range(2)}
            alts += [Q.Phrase(fieldname, list(words)) for words in variants]
        else:
            alts.append(Q.And([_Or([Q.Term(fieldname, f) for f in forms]) for forms in found]))
    names = [m.group().lower().translate(_FOLD_MAP) for m in WORD.finditer(item.text)]
    if names and not item.phrase and all(len(n) >= 3 for n in names):
        alts.append(Q.And([Q.Term(f"name_{lang}", n[:24]) for n in names]))
    number = item.text.lower().rstrip(".")
    if RULE_NUMBER.fullmatch(number):
        alts.append(Q.Term("number", number, boost=4.0))
    return _Or(alts) if alts else None


def keyword_query(parsed: ParsedQuery, langs: Iterable[str], relaxed: bool = False) -> Q.Query | None:
    """The Whoosh query: per language, every group (or, relaxed, any item), languages OR-ed; minus exclusions."""
    per_lang = []
    for lang in langs:
        groups = []
        for group in parsed.groups:
            alts = [q for q in (_item_query(lang, item) for item in group) if q is not None]
            if alts:
                groups.append(_Or(alts) if len(alts) > 1 else alts[0])
        if groups:
            per_lang.append(_Or(groups) if relaxed else Q.And(groups))
    if not per_lang:
        return None
    positive = _Or(per_lang)
    negative = [q for q in (_item_query(lang, item) for item in parsed.excluded for lang in LANGS) if q is not None]
    return Q.AndNot(positive, _Or(negative)) if negative else positive


def closeness(lang: str, text: str, words: list[frozenset[str]]) -> tuple[float, float]:
    """(Share of query words found in `text`, share of word pairs found in order within PROXIMITY_SLOP words)."""
    if not words or not text:
        return 0.0, 0.0
    seen: dict[int, list[int]] = {}
    for pos, forms in enumerate(positions(lang, text)):
        for k, wanted in enumerate(words):
            if not wanted.isdisjoint(forms):
                seen.setdefault(k, []).append(pos)
    pairs = [(i, j) for i in range(len(words)) for j in range(i + 1, len(words))]
    close = sum(1 for i, j in pairs if any(0 < q - p <= PROXIMITY_SLOP + 1 for p in seen.get(i, ()) for q in
                                           seen.get(j, ())))  # fmt: skip
    return len(seen) / len(words), close / len(pairs) if pairs else 0.0


def _query_words(parsed: ParsedQuery) -> dict[str, list[frozenset[str]]]:
    """Per language, the forms of each plain query word, in order (for proximity)."""
    found = {}
    for lang in LANGS:
        words = [frozenset(forms) for g in parsed.groups if len(g) == 1 and not g[0].phrase
                 for forms in positions(lang, g[0].text)]  # fmt: skip
        found[lang] = words[:PROXIMITY_WORDS]
    return found


def subtree_query(number: str) -> Q.Query:
    """The rule and everything under it, by regex on the exact number (a prefix would take 120.20 for 120.2)."""
    if len(number) == 1:
        return Q.Regex("number", rf"{number}(\d\d(\.\d+[a-z]?)?)?$")
    if "." not in number:
        return Q.Regex("number", rf"{number}(\.\d+[a-z]?)?$")
    if number[-1].isdigit():
        return Q.Regex("number", re.escape(number) + "[a-z]?$")
    return Q.Term("number", number)


# --- results --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SearchResult:
    """One result: a rule in every language, a glossary entry, a card, a ruling or a note."""

    kind: str
    """`rule`, `glossary`, `card`, `ruling` or `note`."""
    id: str
    """Rule number, card id, ruling id, note id or glossary `<document>#<term>`."""
    number: str | None
    """Rule number (rules only)."""
    title: str
    """Heading to show (the nearest ancestor's heading for an untitled rule, the card name for a ruling)."""
    names: dict[str, str] | None
    """Card names per language (cards and rulings)."""
    langs: tuple[str, ...]
    """Languages of the result, matched ones first."""
    snippets: dict[str, str]
    """Text per language with matched words between `MARK`s; the start of the text when none matched."""
    score: float
    """Relevance score (0 for rule-number lookups, which list in rule order)."""

    def to_json(self) -> dict:
        """The result as a JSON-ready dict."""
        return {"kind": self.kind, "id": self.id, "number": self.number, "title": self.title, "names": self.names,
                "langs": list(self.langs), "snippets": self.snippets, "score": round(self.score, 4)}  # fmt: skip


class SearchIndex:
    """An open index; keep it for many queries (a searcher is reused)."""

    def __init__(self, ix) -> None:
        self.ix = ix
        self.searcher = ix.searcher()
        self._filters: dict[tuple, set[int]] = {}

    def close(self) -> None:
        """Release the searcher."""
        self.searcher.close()

    def search(self, text: str, lang: str | None = None, kind: str | None = None,
               limit: int = 10) -> list[SearchResult]:  # fmt: skip
        """Answer the query box; `lang` and `kind` add to its filters. Raise SearchError when malformed."""
        parsed = parse_query(text)
        langs = _narrow(parsed.langs, lang, LANGS, "lang")
        kinds = _narrow(parsed.kinds, kind, KINDS, "kind")
        if parsed.number and "rule" in kinds:
            found = self._hits(subtree_query(parsed.number), langs, ("rule",), limit, parsed, sort=True)
            if found:
                return found
        found = self._hits(keyword_query(parsed, langs), langs, kinds, limit, parsed)
        explicit_or = any(len(g) > 1 for g in parsed.groups)
        if len(found) < limit and len(parsed.groups) >= RELAX_WORDS and not explicit_or:
            seen = {r.id for r in found}
            more = self._hits(keyword_query(parsed, langs, relaxed=True), langs, kinds, limit + len(found), parsed,
                              relaxed=True)  # fmt: skip
            found += [r for r in more if r.id not in seen][: limit - len(found)]
        return found

    def _hits(self, query, langs, kinds, limit, parsed, sort=False, relaxed=False) -> list[SearchResult]:
        """Run a query under the filters and turn its hits into results."""
        if query is None:
            return []
        words = {} if sort else _query_words(parsed)
        rerank = not sort
        hits = self.searcher.search(query, filter=self._filter(langs, kinds), limit=max(limit, RERANK) if rerank
                                    else limit, sortedby="order" if sort else None)  # fmt: skip
        scored = [(hit["data"], 0.0 if sort else hit.score) for hit in hits]
        if rerank:
            scored = sorted(((d, s * _rerank_factor(d, words, langs, relaxed)) for d, s in scored),
                            key=lambda pair: -pair[1])[:limit]  # fmt: skip
        terms = _highlight_terms([] if sort else [i for g in parsed.groups for i in g])
        return [_result(data, score, terms, langs) for data, score in scored]


    def _filter(self, langs: tuple[str, ...], kinds: tuple[str, ...]) -> set[int] | None:
        """Document numbers allowed by the filters (None when everything is), computed once per combination."""
        if langs == LANGS and kinds == KINDS:
            return None
        if (langs, kinds) not in self._filters:
            flt = Q.And([_Or([Q.Term("langs", lang) for lang in langs]), _Or([Q.Term("kind", k) for k in kinds])])
            self._filters[(langs, kinds)] = set(self.searcher.docs_for_query(flt))
        return self._filters[(langs, kinds)]


def _rerank_factor(data: dict, words: dict, langs: tuple[str, ...], relaxed: bool) -> float:
    """Score factor: a bonus for query words close together; relaxed, a penalty for each word missing."""
    best = 0.0
    for lang in langs:
        if not words[lang]:
            continue
        text = "\n".join(data[key].get(lang, "") for key in ("titles", "texts", "context"))
        coverage, close = closeness(lang, text, words[lang]) if len(words[lang]) > 1 or relaxed else (1.0, 0.0)
        named = data["kind"] == "card" and closeness(lang, data["titles"].get(lang, ""), words[lang])[0] == 1.0
        factor = (1 + PROXIMITY_BONUS * close) * (coverage**2 if relaxed else 1.0) * (NAME_BOOST if named else 1.0)
        best = max(best, factor)
    return best or 1.0


def _narrow(from_query: tuple[str, ...], option: str | None, allowed: tuple[str, ...], name: str) -> tuple[str, ...]:
    """Values allowed by the query's filters and the option; an unknown option value is a SearchError."""
    chosen = set(from_query or allowed)
    if option:
        if option not in allowed:
            raise SearchError(f"unknown {name} '{option}'; use one of {', '.join(allowed)}")
        chosen &= {option}
    return tuple(v for v in allowed if v in chosen)


def _result(data: dict, score: float, terms: dict, langs: tuple[str, ...]) -> SearchResult:
    """Build a result from the stored payload, with a snippet per language."""
    snippets, matched = {}, []
    for lang in data["langs"]:
        text = data["texts"].get(lang) or data["titles"].get(lang, "")
        snippets[lang], hit = snippet(lang, text, terms)
        hit = hit or bool(_matches(lang, data["titles"].get(lang, ""), terms))
        if hit and lang in langs:
            matched.append(lang)
    order = tuple(dict.fromkeys([*matched, *(lang for lang in langs if lang in data["langs"]), *data["langs"]]))
    names = data["names"] if data["kind"] == "card" else {}
    title = next((t.get(lang) for t in (names, data["titles"]) for lang in order if t and t.get(lang)), "")
    if not title:
        title = next((data["context"][lang].partition("\n")[0] for lang in order if data["context"].get(lang)), "")
    return SearchResult(data["kind"], data["id"], data["number"], title, data["names"], order, snippets, score)


def _highlight_terms(items: list[Item]) -> dict[str, set[str]]:
    """Per language, the index forms of the query words, for highlighting."""
    return {lang: {f for item in items for forms in positions(lang, item.text) for f in forms} for lang in LANGS}


def snippet(lang: str, text: str, terms: dict) -> tuple[str, bool]:
    """A window of `text` around the most matched words, marked; (the start of the text, False) if none match."""
    spans = _matches(lang, text, terms)
    if not spans:
        return _clip(text), False
    best = max(range(len(spans)), key=lambda i: sum(1 for s in spans[i:] if s[1] - spans[i][0] <= SNIPPET))
    start = max(0, spans[best][0] - 60)
    start = text.rfind(" ", 0, start) + 1 if start else 0
    end = min(len(text), start + SNIPPET)
    parts, pos = [], start
    for a, b in spans:
        if a >= pos and b <= end:
            parts += [text[pos:a], MARK[0], text[a:b], MARK[1]]
            pos = b
    parts.append(text[pos:end])
    body = "".join(parts).replace("\n", " ")
    return ("…" if start else "") + body + ("…" if end < len(text) else ""), True


def _matches(lang: str, text: str, terms: dict) -> list[tuple[int, int]]:
    """Character spans of the words of `text` that match the query terms of a language, in order."""
    wanted = terms.get(lang)
    if not wanted or not text:
        return []
    stops = STOPS[lang]
    return [m.span() for m in WORD.finditer(text) if (w := m.group().lower()) not in stops and len(w) >= 2
            and not wanted.isdisjoint(word_forms(lang, w))]  # fmt: skip


def _clip(text: str) -> str:
    """The first SNIPPET characters of a text, cut at a space."""
    flat = text.replace("\n", " ")
    if len(flat) <= SNIPPET:
        return flat
    cut = flat.rfind(" ", 0, SNIPPET)
    return flat[: cut if cut > 0 else SNIPPET] + "…"


def search(content: Path, text: str, lang: str | None = None, kind: str | None = None,
           limit: int = 10) -> list[SearchResult]:  # fmt: skip
    """Open (or build) the index of a content folder and answer one query."""
    index = open_index(content)
    try:
        return index.search(text, lang=lang, kind=kind, limit=limit)
    finally:
        index.close()
