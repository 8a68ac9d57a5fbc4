"""The part of the lexicon search needs: words of one language -> words of the other, for sure entries only.

Index time only; pure Python (no whoosh). The lexicon (`kb.link.lexicon`, mined from the French and English
printed text of cards) is French–English: it gives two tables, `fr>en` and `en>fr`, stored with the index (in
SQLite for the CLI, in `core.json` for the site) and read by `kb.search.translate` and `kbquery.js` alike.
A table maps a folded word or phrase (`pietinement`, `contact mortel`) to what it translates to, and each term
of the source language's index holding such a word to the same (so `piochees` finds what `pioche` does).
Entries `Lexicon.unsure()` lists (a low score, one card of evidence, conflicting translations) are left out, and
so are words that are stop words on either side (`the` -> `de`) and English words in more than COMMON of the
English documents (`turn`, `card`, `player`): they say nothing about what a query is about, and translating
them would only let the other language's texts match the query's every word.
"""

from __future__ import annotations

from collections.abc import Callable

from kb.search.text import LangText, query_tokens

PAIRS = (("fr", "en"), ("en", "fr"))
"""(source, target) languages of the tables: the lexicon is French–English."""
COMMON = 0.05
"""An entry whose English term is one word found in more than this share of the English documents is left out."""


def tables(lexicon, data, texts: Callable[[str], LangText]) -> dict:
    """The translation tables of a lexicon for an index (`IndexData`): `{"fr>en": table, "en>fr": table}`, empty
    when it has no entry.

    A table is `{"keys": {key: [shown, more]}, "terms": {term: [shown, more]}, "longest": words}`: `shown` are
    the translations named to the reader (each entry's printed term), `more` the other printed forms searched.
    """
    if lexicon is None or not lexicon.entries:
        return {}
    unsure = set(lexicon.unsure())
    common = _common(data)
    keys: dict[tuple[str, str], dict[str, list[list[str]]]] = {pair: {} for pair in PAIRS}
    for entry in lexicon.entries:
        if entry in unsure or common(_folded(entry.english)):
            continue
        french = [(t.text, t.forms) for t in entry.french]
        sources = [f for text, forms in french for f in (text, *forms)]
        _add(keys["fr", "en"], sources, [(entry.english, ())], texts("fr"), texts("en"))
        _add(keys["en", "fr"], [entry.english], french, texts("en"), texts("fr"))
    found = {}
    for (source, target), table in keys.items():
        if table:
            found[f"{source}>{target}"] = {
                "keys": dict(sorted(table.items())),
                "terms": _terms(table, data.lang_index.get(source)),
                "longest": max(len(k.split(" ")) for k in table),
            }
    return found


def _common(data) -> Callable[[str], bool]:
    """Whether a folded English word is in more than COMMON of the English documents (never without English)."""
    li = data.lang_index.get("en")
    n = sum(1 for d in data.docs if "en" in d.langs)
    if li is None or not n:
        return lambda word: False
    return lambda word: word in li.vocab and len(li.terms[li.vocab[word]].docs) > COMMON * n


def _folded(text: str) -> str:
    """A term as the query box reads it: folded words, space-separated."""
    return " ".join(w for _, w in query_tokens(text))


def _stops_only(text: str, lt: LangText) -> bool:
    """Whether a term holds stop words only (or nothing)."""
    return all(lt.is_stop(w) for _, w in query_tokens(text))


def _add(table: dict, sources: list[str], targets: list, source: LangText, target: LangText) -> None:
    """Map each source term to the target terms (each: printed text, other printed forms), stop words aside."""
    good = [(text, forms) for text, forms in targets if not _stops_only(text, target)]
    for term in sources:
        key = _folded(term)
        if not key or _stops_only(term, source):
            continue
        shown, more = table.setdefault(key, [[], []])
        for text, forms in good:
            if _folded(text) == key:  # the same word in both languages finds nothing new
                continue
            _append(shown, more, text.lower())
            for form in forms:
                if not _stops_only(form, target):
                    _append(more, shown, form.lower())
        if not shown and not more:
            del table[key]


def _append(into: list[str], other: list[str], text: str) -> None:
    """Add a term once (by its folded form) to `into`, unless either list has it."""
    if all(_folded(x) != _folded(text) for x in (*into, *other)):
        into.append(text)


def _terms(table: dict, li) -> dict[str, list[list[str]]]:
    """Term of the source language's index -> translations of the one-word keys of that term."""
    if li is None:
        return {}
    found: dict[int, list[list[str]]] = {}
    for key, (shown, more) in table.items():
        term = li.vocab.get(key)
        if term is None:
            continue
        merged = found.setdefault(term, [[], []])
        for text in shown:
            _append(merged[0], merged[1], text)
        for text in more:
            _append(merged[1], merged[0], text)
    return {str(t): found[t] for t in sorted(found)}
