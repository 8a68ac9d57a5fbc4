"""Results: what a hit shows (title, languages, snippets with the query's words marked).

The snippets are Whoosh's highlights (`highlight`: Whoosh is imported only when a result is shown).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from kb.search.text import query_tokens

MARK = ("**", "**")
"""Highlight markers put around matched words in snippets."""
SNIPPET = 220
"""Snippet length, in characters."""
LEAD = 60
"""Characters shown before the first match of the window."""
BREAK = " · "
"""What a line break of the text is shown as in a snippet (a card's type line, then its text)."""


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
    numbers: dict[str, str] | None = None
    """A rule's own number in each language whose rule is numbered otherwise than the row (`{"fr": "120.4"}` in
    today's 121.4), else None."""
    named: dict[str, str] | None = None
    """The concept's name in each language its texts lack (a terminology's, never official: `{"fr": "Pile"}` for
    405 Stack), else None."""
    heading_named: dict[str, str] | None = None
    """An untitled rule's heading (its `title`) named so (`{"fr": "Actions basées sur un état"}` for 704.5g, under
    State-Based Actions), else None."""

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
        if self.numbers:
            found["numbers"] = self.numbers
        if self.named:
            found["named"] = self.named
        if self.heading_named:
            found["heading_named"] = self.heading_named
        if self.translated:
            found["via"] = "lexicon"
            found["translated"] = [
                {"from": source, "to": target, "source": text, "targets": list(targets)}
                for source, target, text, targets in self.translated
            ]
        return found


def make_result(
    doc: list, kind: str, doc_langs: list[str], score: float, translations: list, langs: tuple[str, ...], found, asked
) -> SearchResult:
    """The result of a hit: its stored fields (`doc`, as the export holds them), with a snippet per language (matched
    and searched languages first) and, when it matches only translations of the query's words (`translations`:
    `translations_of`), those it was found through. `found`: per slot, the terms (`kb.search.engine`) the document
    holds (None: a result of no query); `asked`: every term the query asks of the texts."""
    key, _, titles, names, texts, editions, ctx, numbers, number, named, heading_named = doc
    every = [t for mine in found or () for t in mine if t.field != "name"]
    matched = _matched(every, langs, doc_langs)
    snippets = {lang: _snippet(texts.get(lang) or titles.get(lang, ""), asked, lang, matched) for lang in doc_langs}
    order = tuple(dict.fromkeys([*matched, *(x for x in langs if x in doc_langs), *doc_langs]))
    by_name = any(t.field == "name" for mine in found or () for t in mine)
    via = bool(every) and all(t.via for t in every) and not by_name
    return SearchResult(
        kind, key, number, _title(kind, order, titles, names or {}, ctx), names, order, snippets, score,
        editions or None, _translated(translations, found) if via else (), numbers or None, named or None,
        heading_named,
    )  # fmt: skip


def _matched(every: list, langs: tuple[str, ...], doc_langs: list[str]) -> list[str]:
    """The searched languages a document matched in: those matching words as typed, then those matching only
    their translations."""

    def held(lang: str, typed: bool) -> bool:
        return any(t.field == f"body_{lang}" and (not typed or not t.via) for t in every)

    matched = [x for x in langs if x in doc_langs and held(x, True)]
    return matched + [x for x in langs if x in doc_langs and held(x, False) and x not in matched]


def _snippet(text: str, asked: list, lang: str, matched: list[str]) -> str:
    """A language's snippet: its best window with the words asked of it marked, else the text's start."""
    forms = {t.term for t in asked if t.field == f"body_{lang}"}
    marked = highlight(text, forms, lang) if text and forms and lang in matched else ""
    return marked or clip(text)


def _title(kind: str, order: tuple[str, ...], titles: dict, names: dict, ctx: dict) -> str:
    """A result's heading in the first of its languages (`order`) that has one: a card's name first, then a title,
    a name, an untitled rule's nearest heading."""
    heading = {x: c.split("\n")[0] for x, c in ctx.items()} if kind == "rule" else {}
    shown = (names if kind == "card" else {}, titles, names, heading)
    return next((t[x] for t in shown for x in order if t.get(x)), "")


def translations_of(made: list, tables) -> list[list[tuple]]:
    """Per slot (`kb.search.lookup.Slot`), its translations, each with the index terms its every target may be held
    as (its words' first forms, and the words together: a term of several words indexed as one): worked out once
    per query, read for each result found through translations (`_translated`)."""
    found = []
    for slot in made:
        mine = []
        for source, target, typed, targets in slot.translated:
            forms = []
            for text in targets:
                words = [w for kind, w in query_tokens(text) if kind == "word"]
                forms.append({" ".join(words), *((tables.forms(target, w)[:1] or [w])[0] for w in words)})
            mine.append((source, target, typed, tuple(targets), forms))
        found.append(mine)
    return found


def _translated(translations: list[list[tuple]], found: list[list]) -> tuple:
    """The translations a result found only through them was found by: per slot, those whose index terms the result
    holds among its translated terms (« pile » found as the English word `pile`, a cognate, was not found through
    `stack`: no translation to name); and a paraphrase table's wordings when a translation of the same words was
    kept (« tuer » -> « détruire », the way to `destroy`)."""
    shown = []
    for mine, held_terms in zip(translations, found, strict=False):
        held = {t.term for t in held_terms if t.via}
        each = [
            (source, target, typed, targets, tuple(x for x, f in zip(targets, forms, strict=True) if f & held))
            for source, target, typed, targets, forms in mine
        ]
        through = {typed for _, _, typed, _, kept in each if kept}
        for source, target, typed, targets, kept in each:
            if kept or (source == target and typed in through):
                shown.append((source, target, typed, kept or targets))
    return tuple(shown)


def clip(text: str) -> str:
    """The first SNIPPET characters of a text, cut at a space."""
    flat = text[: SNIPPET * 2].replace("\n", BREAK)
    if len(flat) <= SNIPPET:
        return flat
    cut = flat.rfind(" ", 0, SNIPPET)
    return flat[: cut if cut > 0 else SNIPPET] + "…"


def highlight(text: str, terms: set[str], lang: str) -> str:
    """The best window of a text around its matched words (Whoosh's highlighter), or '' when none matches."""
    from whoosh import highlight as whoosh_highlight

    from kb.search.analysis import mark_analyzer

    fragmenter = whoosh_highlight.ContextFragmenter(maxchars=SNIPPET, surround=LEAD)
    asked = frozenset(terms)
    found = whoosh_highlight.highlight(text, asked, mark_analyzer(lang, asked), fragmenter, _marks(), top=1)
    if not found:
        return ""
    flat = found.replace("\n", BREAK).strip()
    start = text.replace("\n", BREAK).find(flat.replace(MARK[0], "").replace(MARK[1], "")[:40])
    return ("…" if start > 0 else "") + flat + ("…" if start >= 0 and start + len(flat) < len(text) - 4 else "")


@cache
def _marks():
    """Whoosh's formatter of matched words between `MARK`s, the rest as it is (one: it keeps no state)."""
    from whoosh import highlight as whoosh_highlight

    class Marks(whoosh_highlight.Formatter):
        between = " … "

        def format_token(self, text, token, replace=False):
            return f"{MARK[0]}{whoosh_highlight.get_text(text, token, replace)}{MARK[1]}"

    return Marks()
