"""Results: what a hit shows (title, languages, snippets with the query's words marked).

Pure Python (no whoosh). Snippets come from the positions and character spans stored at index time, never
from re-reading the text: the window holding the most matches is found in one pass over them.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

MARK = ("**", "**")
"""Highlight markers put around matched words in snippets."""
SNIPPET = 220
"""Snippet length, in characters."""
LEAD = 60
"""Characters shown before the first match of the window."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """One result: a rule in every language, a glossary entry, a card, a ruling or a note."""

    kind: str
    """`rule`, `glossary`, `card`, `ruling` or `note`."""
    id: str
    """Rule number (`702.19@en:2015-09-26` in another edition), card id, ruling id, note id or glossary
    `<document>#<term>`."""
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
    editions: dict[str, str] | None = None
    """Edition id per language (rules and glossary terms)."""
    translated: tuple[tuple[str, str, str, tuple[str, ...]], ...] = ()
    """(source language, target language, words as typed, their translations) when the result was found through
    the lexicon mined from printed cards (its score comes from the query's translation), else empty."""

    def to_json(self) -> dict:
        """The result as a JSON-ready dict."""
        found = {
            "kind": self.kind,
            "id": self.id,
            "number": self.number,
            "title": self.title,
            "names": self.names,
            "langs": list(self.langs),
            "snippets": self.snippets,
            "score": round(self.score, 4),
        }
        if self.editions:
            found["editions"] = self.editions
        if self.translated:
            found["via"] = "lexicon"
            found["translated"] = [
                {"from": source, "to": target, "source": text, "targets": list(targets)}
                for source, target, text, targets in self.translated
            ]
        return found


def make_result(reader, d: int, score: float, terms: dict[str, set[int]], langs: tuple[str, ...]) -> SearchResult:
    """Build a result from a document, with a snippet per language (matched and searched languages first)."""
    payload = reader.payload(d)
    bounds = reader.info(d)[0]
    snippets, matched = {}, []
    for lang in reader.doc_langs[d]:
        text = payload.texts.get(lang) or ""
        spans = _matched_spans(reader, d, lang, terms.get(lang, set()), bounds.get(lang), payload.spans.get(lang, []))
        snippets[lang] = snippet(text, spans) if text else _clip(payload.titles.get(lang, ""))
        title_hit = lang in bounds and _in_title(reader, d, lang, terms.get(lang, set()), bounds[lang])
        if (spans or title_hit) and lang in langs:
            matched.append(lang)
    order = tuple(dict.fromkeys([*matched, *(x for x in langs if x in reader.doc_langs[d]), *reader.doc_langs[d]]))
    kind = reader.kinds[d]
    names = payload.names if kind == "card" else {}
    title = next((t.get(lang) for t in (names, payload.titles) for lang in order if t and t.get(lang)), "")
    if not title:
        title = next((payload.context[x].partition("\n")[0] for x in order if payload.context.get(x)), "")
    editions = reader.editions[d] or None
    return SearchResult(kind, reader.keys[d], reader.numbers[d], title, payload.names, order, snippets, score, editions)


def _positions(reader, d: int, lang: str, term: int) -> list[int]:
    """Stored positions of a term in a document (empty when absent)."""
    p = reader.term(lang, term)
    i = bisect_left(p.docs, d)
    return p.positions[i] if i < len(p.docs) and p.docs[i] == d else []


def _matched_spans(reader, d, lang, terms, bounds, spans) -> list[tuple[int, int]]:
    """Character spans, in order, of the text tokens holding a query term."""
    if not terms or not bounds:
        return []
    lo, hi = bounds[2], bounds[3]
    found = sorted({x - lo for t in terms for x in _positions(reader, d, lang, t) if lo <= x < hi})
    return [(spans[2 * k], spans[2 * k + 1]) for k in found]


def _in_title(reader, d, lang, terms, bounds) -> bool:
    """Whether a query term is in the document's title in a language."""
    return any(bounds[0] <= x < bounds[1] for t in terms for x in _positions(reader, d, lang, t))


def snippet(text: str, spans: list[tuple[int, int]]) -> str:
    """A window of `text` around the most matched words, marked; the start of the text if none match."""
    if not spans:
        return _clip(text)
    best, count, j = 0, 0, 0
    for i in range(len(spans)):  # two pointers: the window [i, j) fits in SNIPPET characters
        j = max(j, i)
        while j < len(spans) and spans[j][1] - spans[i][0] <= SNIPPET - LEAD:
            j += 1
        if j - i > count:
            best, count = i, j - i
    start = max(0, spans[best][0] - LEAD)
    cut = text.rfind(" ", max(0, start - LEAD), start) if start else -1
    start = cut + 1 if cut >= 0 else start  # at a word's start when one is near
    end = min(len(text), start + SNIPPET)
    parts, pos = [], start
    for a, b in spans[bisect_left(spans, (start, -1)) : best + count]:
        if a >= pos and b <= end:
            parts += [text[pos:a], MARK[0], text[a:b], MARK[1]]
            pos = b
    parts.append(text[pos:end])
    body = "".join(parts).replace("\n", " ")
    return ("…" if start else "") + body + ("…" if end < len(text) else "")


def _clip(text: str) -> str:
    """The first SNIPPET characters of a text, cut at a space."""
    flat = text[: SNIPPET * 2].replace("\n", " ")
    if len(flat) <= SNIPPET:
        return flat
    cut = flat.rfind(" ", 0, SNIPPET)
    return flat[: cut if cut > 0 else SNIPPET] + "…"
