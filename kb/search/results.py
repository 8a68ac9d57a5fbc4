"""Results: what a hit shows (title, languages, snippets with the query's words marked).

The snippets are Whoosh's highlights (`highlight`: Whoosh is imported only when a result is shown).
"""

from __future__ import annotations

from dataclasses import dataclass

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


def _marks():
    """Whoosh's formatter of matched words between `MARK`s, the rest as it is."""
    from whoosh import highlight as whoosh_highlight

    class Marks(whoosh_highlight.Formatter):
        between = " … "

        def format_token(self, text, token, replace=False):
            return f"{MARK[0]}{whoosh_highlight.get_text(text, token, replace)}{MARK[1]}"

    return Marks()
