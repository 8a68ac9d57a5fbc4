"""Vocabulary tables: a terminology (`# kb-terminology/1`), a paraphrase table (`# kb-paraphrases/1`) and a words
table (`# kb-words/1`).

All three are tab-separated text a person reviews, one line per entry, `#` lines and blank lines aside; the first line
names the format. A terminology line is

    concept<TAB>english<TAB>terms<TAB>provenance<TAB>source

with concept `section:N`, `rule:NUMBER` or `glossary`, the terms separated by ` | ` (the first is the heading), the
provenance `attested` or `curated`. A paraphrase line is

    players<TAB>rules<TAB>kind<TAB>provenance

with the rules' wordings separated by ` | ` and kind one of `kb.model.terms.PARAPHRASE_KINDS`. A words line is

    word<TAB>english<TAB>kind<TAB>provenance

with the word's other printed forms after it and the English alternatives separated by ` | `, kind one of
`kb.model.terms.WORD_KINDS`. A printed-words line (`# kb-printed/1`, written by `kb lexicon --printed`) is

    word<TAB>cards<TAB>example

a folded word printed on that many cards, one of them named. Every problem is a diagnostic naming the line: a line
is kept or left out whole, never half read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kb.model import Diagnostic, SourceRef, SourceText
from kb.model.numbers import is_number
from kb.model.terms import PARAPHRASE_KINDS, TERM_CONCEPTS, WORD_KINDS, Paraphrase, PrintedWord, Term, Word
from kb.sources import fold
from kb.sources.text import stem_en

TERMINOLOGY = "# kb-terminology/1"
PARAPHRASES = "# kb-paraphrases/1"
WORDS = "# kb-words/1"
PRINTED = "# kb-printed/1"
"""The first line of each kind of table."""
KINDS = {TERMINOLOGY: "terminology", PARAPHRASES: "paraphrases", WORDS: "words", PRINTED: "printed"}
SHARED = ("homonym", "same concept")
"""What a source says to let its terms be another line's too: the game's own homonyms, or two glossary terms of
one concept (`APNAP Order`, `Active Player, Nonactive Player Order`)."""
MAX_NAMES = 8
"""Most terms one concept lists."""


@dataclass(slots=True)
class TermsResult:
    """A vocabulary table's entries and what reading it found."""

    terms: list[Term] = field(default_factory=list)
    paraphrases: list[Paraphrase] = field(default_factory=list)
    words: list[Word] = field(default_factory=list)
    printed: list[PrintedWord] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def table_kind(lines: list[str]) -> str | None:
    """`terminology`, `paraphrases`, `words` or `printed` when the first line names that format, else None."""
    first = lines[0].strip().lstrip("\ufeff") if lines else ""
    return KINDS.get(first)


def parse_table(source: SourceText) -> TermsResult:
    """Read a vocabulary table; every malformed line is an error naming it, and is left out."""
    result = TermsResult()
    kind = table_kind(source.lines)
    for number, line in enumerate(source.lines, 1):
        if number == 1 or not line.strip() or line.lstrip().startswith("#"):
            continue
        where = SourceRef(source.path, number)
        try:
            if kind == "terminology":
                result.terms.append(_term(line, source.lang, where))
            elif kind == "words":
                result.words.append(_word(line, source.lang, where))
            elif kind == "printed":
                result.printed.append(_printed(line, source.lang, where))
            else:
                result.paraphrases.append(_paraphrase(line, source.lang, where))
        except ValueError as err:
            result.diagnostics.append(Diagnostic("error", source.path, number, f"{err}; this line is left out"))
    result.terms, repeated = _once(result.terms, lambda t: (t.concept, t.number, fold(t.english)), _term_again)
    result.paraphrases, again = _once(result.paraphrases, lambda p: fold(p.players), _phrasing_again)
    result.words, twice = _once(result.words, lambda w: fold(w.word), _word_again)
    result.words, clashes = word_clashes(result.words)
    result.printed, printed_twice = _once(result.printed, lambda w: w.word, _printed_again)
    result.diagnostics += repeated + again + twice + clashes + printed_twice + term_clashes(result.terms)
    result.diagnostics += heading_clashes(result.terms)
    return result


def _term_again(term: Term, first: int) -> str:
    """What a concept listed twice is told."""
    return f"{term.english} is listed again (first at line {first}); keep one line"


def _phrasing_again(phrasing: Paraphrase, first: int) -> str:
    """What a players' phrasing listed twice is told."""
    return f"'{phrasing.players}' is listed again (first at line {first}); join the wordings in one line"


def _word_again(word: Word, first: int) -> str:
    """What a word listed twice is told."""
    return f"'{word.word}' is listed again (first at line {first}); join the English words in one line"


def _printed_again(word: PrintedWord, first: int) -> str:
    """What a printed word listed twice is told."""
    return f"'{word.word}' is listed again (first at line {first}); keep one line"


def _once(items: list, key, what) -> tuple[list, list[Diagnostic]]:
    """The items with a key seen before left out, each an error naming both lines (`what`: its message)."""
    kept, found, seen = [], [], {}
    for item in items:
        first = seen.setdefault(key(item), item.source.line)
        if first != item.source.line:
            found.append(Diagnostic("error", item.source.path, item.source.line, what(item, first)))
        else:
            kept.append(item)
    return kept, found


def _columns(line: str, count: int, names: str) -> list[str]:
    """The line's columns, stripped; ValueError unless there are `count`, all non-empty."""
    cells = [c.strip() for c in line.rstrip("\r\n").split("\t")]
    if len(cells) != count:
        raise ValueError(f"{len(cells)} columns where {count} are expected ({names}, separated by tabs)")
    empty = [n for n, c in zip(names.split(", "), cells, strict=True) if not c]
    if empty:
        raise ValueError(f"empty column '{empty[0]}'")
    return cells


def _alternatives(cell: str, what: str) -> tuple[str, ...]:
    """The ` | `-separated alternatives of a cell, each once; ValueError for an empty one or too many."""
    found = tuple(dict.fromkeys(part.strip() for part in cell.split("|")))
    if any(not part for part in found):
        raise ValueError(f"an empty {what} between '|'")
    if len(found) > MAX_NAMES:
        raise ValueError(f"{len(found)} {what}s; at most {MAX_NAMES}")
    return found


def _term(line: str, lang: str, where: SourceRef) -> Term:
    """One terminology line."""
    concept, english, names, provenance, note = _columns(line, 5, "concept, english, terms, provenance, source")
    kind, _, number = concept.partition(":")
    if kind not in TERM_CONCEPTS or (kind == "glossary") != (number == ""):
        raise ValueError(f"unknown concept '{concept}': write section:N, rule:NUMBER or glossary")
    if number and not (is_number(number) and (len(number) == 1) == (kind == "section")):
        raise ValueError(f"'{number}' is not a {kind} number")
    if provenance not in ("attested", "curated"):
        raise ValueError(f"unknown provenance '{provenance}': write attested or curated")
    return Term(kind, number or None, english, lang, _alternatives(names, "term"), provenance, note, where)


def _paraphrase(line: str, lang: str, where: SourceRef) -> Paraphrase:
    """One paraphrase line."""
    players, rules, kind, provenance = _columns(line, 4, "players, rules, kind, provenance")
    if kind not in PARAPHRASE_KINDS:
        raise ValueError(f"unknown kind '{kind}': write one of {', '.join(PARAPHRASE_KINDS)}")
    return Paraphrase(lang, players, _alternatives(rules, "wording"), kind, provenance, where)


def _word(line: str, lang: str, where: SourceRef) -> Word:
    """One words line."""
    forms, english, kind, provenance = _columns(line, 4, "word, english, kind, provenance")
    if kind not in WORD_KINDS:
        raise ValueError(f"unknown kind '{kind}': write one of {', '.join(WORD_KINDS)}")
    return Word(lang, _alternatives(forms, "form"), _alternatives(english, "English word"), kind, provenance, where)


def _printed(line: str, lang: str, where: SourceRef) -> PrintedWord:
    """One printed-words line."""
    word, cards, example = _columns(line, 3, "word, cards, example")
    if fold(word) != word or not word.isalpha():
        raise ValueError(f"'{word}' is not a folded word (lower case letters, no accent)")
    if not cards.isdigit() or int(cards) < 1:
        raise ValueError(f"'{cards}' is not a number of cards")
    return PrintedWord(lang, word, int(cards), example, where)


def word_clashes(words: list[Word]) -> tuple[list[Word], list[Diagnostic]]:
    """The words with a line listing a form an earlier line lists left out, each an error naming both lines (which
    English would a reader typing it mean?)."""
    kept, found = [], []
    claims: dict[str, Word] = {}
    for word in words:
        taken = [(form, other) for form in word.forms if (other := claims.get(fold(form))) is not None]
        if taken:
            form, other = taken[0]
            why = f"« {form} » is a form of '{other.word}' at line {other.source.line} too: keep it on one line"
            found.append(Diagnostic("error", word.source.path, word.source.line, f"{why}; this line is left out"))
            continue
        kept.append(word)
        claims.update((fold(form), word) for form in word.forms)
    return kept, found


def heading_clashes(terms: list[Term]) -> list[Diagnostic]:
    """Lines of one English term (a rule's title and the glossary's term: `Web-slinging`) heading it in French
    otherwise (« Lancer de toile », « Lance-toile »): a warning at the later line, unless a line says the English
    names two concepts ('homonym': `Exile`, the zone and the keyword action)."""
    found = []
    first: dict[str, Term] = {}
    for term in terms:
        other = first.setdefault(fold(term.english), term)
        if other is term or fold(other.heading) == fold(term.heading) or _shared(term, other):
            continue
        why = (
            f"« {term.heading} » heads {term.english} here and « {other.heading} » at line {other.source.line}: "
            "give both lines one heading (the other name can follow after ' | '), or say 'homonym' in a line's "
            "source when the English names two concepts"
        )
        found.append(Diagnostic("warning", term.source.path, term.source.line, why))
    return found


def _shared(one: Term, other: Term) -> bool:
    """Whether either of two lines says its word names two concepts on purpose (SHARED)."""
    return any(word in one.note or word in other.note for word in SHARED)


def concept_key(english: str) -> str:
    """What tells two English terms of one concept (`Kindred`, `Kindreds`; `Champion, Championed`; `Restart the
    Game`, `Restarting the Game`) apart from others: the light stems of its first part's words."""
    return " ".join(stem_en(w) for w in fold(english.split(",")[0]).split())


def term_clashes(terms: list[Term]) -> list[Diagnostic]:
    """A term claimed by two concepts: a warning, unless a line says the game uses one word for both."""
    found = []
    claims: dict[str, Term] = {}
    for term in terms:
        for name in term.names:
            other = claims.setdefault(fold(name), term)
            if concept_key(other.english) == concept_key(term.english) or _shared(term, other):
                continue
            why = (
                f"« {name} » names {term.english} here and {other.english} at line {other.source.line}: give each "
                "concept its own term, or say 'homonym' (or 'same concept') in a line's source when one word names both"
            )
            found.append(Diagnostic("warning", term.source.path, term.source.line, why))
    return found
