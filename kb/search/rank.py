"""Ranking and display of search hits: how well a document matches the query words, snippets, results.

Pure Python (no whoosh): works on the payload stored with each document and on `LangText` analysis.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kb.model.numbers import IN_TEXT
from kb.search.query import Item, ParsedQuery
from kb.search.text import WORD, LangText, fold, words

MARK = ("**", "**")
"""Highlight markers put around matched words in snippets."""
SNIPPET = 220
"""Snippet length, in characters."""
MAX_WORDS = 8
"""Query words looked at for coverage, quality and proximity (the rest still filter through the index)."""
WINDOW = 8
"""Two query words further apart than this many words (stop words included) are not close."""
PROXIMITY_BONUS = 2.0
"""Score factor up to 1 + this for consecutive query words found next to each other, in order."""
QUALITY_POWER = 2
"""How much a word matched as typed beats one matched through its stem only (`piétinement` vs `piétine`)."""
CITED_BONUS = 0.3
"""Score factor up to 1 + this for a rule cited by the other hits (weighted by their scores): the rule a
glossary entry or a cross-reference points to is where the answer is defined."""
NAME_BOOST = 3.0
"""A card whose name holds every query word, as whole words, ranks before the documents that mention it."""


@dataclass(frozen=True, slots=True)
class Word:
    """A plain query word in one language."""

    folded: str
    """The word as typed, lower case and without accents."""
    forms: frozenset[str]
    """Its index forms (stemmed and folded)."""


@dataclass(frozen=True, slots=True)
class Match:
    """How a document matches the query words of one language."""

    matched: int
    """Number of query words found (text, title, context or card name)."""
    quality: float
    """Mean closeness (0-1) of the matched words to the words as typed: 1 when typed as in the text."""
    proximity: float
    """Mean over consecutive found query words of 1/distance when in order (half that reversed)."""
    named: bool
    """A card whose name holds every query word as a whole word."""


def query_words(parsed: ParsedQuery, texts: Mapping[str, LangText]) -> dict[str, list[Word]]:
    """Per language, the plain words of the query (not phrases nor OR alternatives), in order."""
    found = {}
    for lang, lt in texts.items():
        plain = [w for g in parsed.groups if len(g) == 1 and not g[0].phrase for w in words(g[0].text)]
        found[lang] = [Word(fold(w), frozenset(lt.forms(w))) for w in plain if not lt.is_stop(w)][:MAX_WORDS]
    return found


def similarity(typed: str, found: str) -> float:
    """Shared leading letters over the longer length: 1 for the same word, lower as the endings differ."""
    n = 0
    for a, b in zip(typed, found, strict=False):
        if a != b:
            break
        n += 1
    return n / max(len(typed), len(found), 1)


def match(lt: LangText, data: dict, qwords: list[Word]) -> Match:
    """Find the query words in a document's title, text, context and card name, in one language."""
    lang, found = lt.lang, [[] for _ in qwords]
    quality = [0.0] * len(qwords)
    base = 0
    for part in ("titles", "texts", "context"):
        tokens = words(data[part].get(lang, ""))
        for pos, w in enumerate(tokens):
            if lt.is_stop(w):
                continue
            forms = lt.forms(w)
            for k, q in enumerate(qwords):
                if not q.forms.isdisjoint(forms):
                    found[k].append(base + pos)
                    quality[k] = max(quality[k], similarity(q.folded, fold(w)))
        base += len(tokens) + WINDOW + 1  # parts are never close to each other
    named = False
    if data["kind"] == "card" and (name := (data.get("names") or {}).get(lang)):
        folded = [fold(w) for w in words(name)]
        for k, q in enumerate(qwords):  # partial names: `isper` for Isperia
            prefix = max(
                (similarity(q.folded, n) for n in folded if len(q.folded) >= 3 and n.startswith(q.folded)), default=0.0
            )
            quality[k] = max(quality[k], prefix)
        named = all(q.folded in folded for q in qwords)
    hit = [k for k in range(len(qwords)) if found[k] or quality[k]]
    mean = sum(quality[k] for k in hit) / len(hit) if hit else 0.0
    return Match(len(hit), mean, _proximity(found), named)


def _proximity(found: list[list[int]]) -> float:
    """Mean over consecutive found query words of 1/distance in order, 0.5/distance reversed, 0 beyond WINDOW."""
    found = [positions for positions in found if positions]
    if len(found) < 2:
        return 0.0
    total = 0.0
    for first, second in zip(found, found[1:], strict=False):
        best = 0.0
        for p in first[:50]:
            for q in second[:50]:
                d = q - p
                if 0 < d <= WINDOW:
                    best = max(best, 1 / d)
                elif 0 < -d <= WINDOW:
                    best = max(best, 0.5 / -d)
        total += best
    return total / (len(found) - 1)


def rerank_factor(data: dict, qwords: dict[str, list[Word]], texts: Mapping[str, LangText], relaxed: bool) -> float:
    """Score factor, best over languages; 0 when a relaxed hit misses most query words."""
    best = None
    for lang, lt in texts.items():
        wanted = qwords.get(lang)
        if not wanted:
            continue
        m = match(lt, data, wanted)
        if not m.matched or (relaxed and m.matched < len(wanted) // 2 + 1):
            continue
        coverage = m.matched / len(wanted)
        factor = (1 + PROXIMITY_BONUS * m.proximity) * m.quality**QUALITY_POWER * (NAME_BOOST if m.named else 1.0)
        factor *= coverage**2 if relaxed else 1.0
        best = factor if best is None else max(best, factor)
    if best is None:  # no plain word found: matched through a phrase, a rule number or OR alternatives
        return 0.0 if relaxed else 1.0
    return best


def cited_boost(scored: list[tuple[dict, float]]) -> list[tuple[dict, float]]:
    """Raise the rules that the other hits cite, in proportion to the citing hits' scores."""
    top = max((score for _, score in scored), default=0.0)
    if top <= 0:
        return scored
    citing: dict[str, float] = {}
    for data, score in scored:
        cited = {n for text in data["texts"].values() for n in IN_TEXT.findall(text)} - {data["number"]}
        for number in cited:
            citing[number] = citing.get(number, 0.0) + score / top
    return [
        (d, s * (1 + CITED_BONUS * min(1.0, citing.get(d["number"], 0.0))) if d["number"] else s) for d, s in scored
    ]


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
        return {
            "kind": self.kind,
            "id": self.id,
            "number": self.number,
            "title": self.title,
            "names": self.names,
            "langs": list(self.langs),
            "snippets": self.snippets,
            "score": round(self.score, 4),
        }


def highlight_terms(items: list[Item], texts: Mapping[str, LangText]) -> dict[str, set[str]]:
    """Per language, the index forms of the query words, for highlighting."""
    return {lang: {f for i in items for forms in lt.keywords(i.text) for f in forms} for lang, lt in texts.items()}


def make_result(
    data: dict, score: float, terms: dict, langs: tuple[str, ...], texts: Mapping[str, LangText]
) -> SearchResult:
    """Build a result from the stored payload, with a snippet per language (searched languages first)."""
    snippets, matched = {}, []
    for lang in data["langs"]:
        lt = texts.get(lang)
        text = data["texts"].get(lang) or data["titles"].get(lang, "")
        snippets[lang], hit = snippet(lt, text, terms) if lt else (_clip(text), False)
        hit = hit or bool(lt and matches(lt, data["titles"].get(lang, ""), terms))
        if hit and lang in langs:
            matched.append(lang)
    order = tuple(dict.fromkeys([*matched, *(lang for lang in langs if lang in data["langs"]), *data["langs"]]))
    names = data["names"] if data["kind"] == "card" else {}
    title = next((t.get(lang) for t in (names, data["titles"]) for lang in order if t and t.get(lang)), "")
    if not title:
        title = next((data["context"][lang].partition("\n")[0] for lang in order if data["context"].get(lang)), "")
    return SearchResult(data["kind"], data["id"], data["number"], title, data["names"], order, snippets, score)


def snippet(lt: LangText, text: str, terms: dict) -> tuple[str, bool]:
    """A window of `text` around the most matched words, marked; (the start of the text, False) if none match."""
    spans = matches(lt, text, terms)
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


def matches(lt: LangText, text: str, terms: dict) -> list[tuple[int, int]]:
    """Character spans of the words of `text` that match the query terms of a language, in order."""
    wanted = terms.get(lt.lang)
    if not wanted or not text:
        return []
    return [
        m.span()
        for m in WORD.finditer(text)
        if not lt.is_stop(w := m.group().lower()) and not wanted.isdisjoint(lt.forms(w))
    ]


def _clip(text: str) -> str:
    """The first SNIPPET characters of a text, cut at a space."""
    flat = text.replace("\n", " ")
    if len(flat) <= SNIPPET:
        return flat
    cut = flat.rfind(" ", 0, SNIPPET)
    return flat[: cut if cut > 0 else SNIPPET] + "…"
