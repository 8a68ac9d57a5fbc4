"""What the lexicon's miners share: cards' French printings, their texts cut into clauses and n-grams, and the
scoring of candidate translations.

The miners share one idea: count, over distinct cards, how often an English term and a French
n-gram appear together, score the pair with the Dice coefficient ``2·both / (english + french)``,
keep the best French n-gram, then mine the cards it misses for alternative translations (a keyword
printed two ways over the years); every count and threshold is learnt from the cards given.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import islice
from typing import Any

from kb.link.lexicon.records import FrenchTerm, LexiconEntry, stem_fr
from kb.sources.text import fold

MAX_WORDS = 5
"""Longest French keyword n-gram ("Recyclage de terrain de base")."""


ALT_MIN_SCORE = 0.4
"""Score an alternative translation needs on the cards the best one misses."""


@dataclass(slots=True)
class Version:
    """One French printing of a card with the English text printed beside it."""

    english_text: str
    """Printed English text (`originalText`), else the Oracle text."""
    french_name: str
    """French name (of the face, for split cards)."""
    french_text: str
    """French printed text."""
    french_type: str
    """French type line."""
    sets: list[str] = field(default_factory=list, compare=False)
    """Set codes printing it so (not part of what makes two printings the same)."""


@dataclass(slots=True)
class PrintedCard:
    """A distinct card (one face) and its French printings."""

    name: str
    """English name of the face."""
    keywords: tuple[str, ...]
    """English keywords (`keywords`)."""
    supertypes: tuple[str, ...]
    """English supertypes."""
    types: tuple[str, ...]
    """English card types."""
    subtypes: tuple[str, ...]
    """English subtypes, in printed order."""
    versions: list[Version] = field(default_factory=list)
    """Distinct French printings."""


def text_of(value: Any) -> str:
    return value if isinstance(value, str) else ""


def strings(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str) and v.strip()) if isinstance(value, list) else ()


# --- text: lines, clauses, tokens -------------------------------------------------------------


REMINDER = re.compile(r"\([^()]*\)?")


_CLAUSE = re.compile(r"[,;:.!?—–•«»“”\"()\[\]]|\s-\s")


_TOKEN = re.compile(r"\{[^}]*\}|[+-]?[\dX]+(?:/[+-]?[\dX]+)?(?![^\W\d_])|[^\W\d_]+(?:-[^\W\d_]+)*|[^\s'’]")


Grams = tuple[tuple[str, str, bool, str], ...]
"""The n-grams of a clause: (key: its words' stems space-separated, as printed, whether it opens the clause, the
kind of the next token: word, num, sym or end)."""


Clauses = list[tuple[tuple[int, int], Grams]]
"""A text's clauses, each as ((line, clause), its n-grams)."""


@lru_cache(maxsize=200_000)
def fold_word(word: str) -> str:
    return fold(word)


def clauses(text: str) -> list[tuple[tuple[int, int], str]]:
    """Split a card text into ((line, clause), clause text), reminder text dropped."""
    found = []
    for line_no, line in enumerate(text.splitlines()):
        parts = [p for p in _CLAUSE.split(REMINDER.sub(" ", line)) if _TOKEN.search(p)]
        found.extend(((line_no, i), part) for i, part in enumerate(parts))
    return found


def tokens(clause: str, limit: int | None = None) -> list[tuple[str, str, int, int]]:
    """Tokens of a clause (its first `limit`) as (kind, folded, start, end); kind is word, num or sym."""
    found = []
    for m in islice(_TOKEN.finditer(clause), limit):
        piece = m.group()
        kind = "sym" if piece.startswith("{") else "num" if piece[0] in "+-0123456789" or piece == "X" else "word"
        kind = "sym" if kind == "word" and not piece[0].isalpha() else kind
        found.append((kind, fold_word(piece) if kind == "word" else piece, m.start(), m.end()))
    return found


@lru_cache(maxsize=256)
def clause_tokens(text: str) -> tuple[tuple[tuple[int, int], str, list[tuple[str, str, int, int]]], ...]:
    """The clauses of a text with their tokens: ((line, clause), text, tokens)."""
    return tuple((place, clause, tokens(clause)) for place, clause in clauses(text))


@lru_cache(maxsize=256)
def clause_grams(clause: str) -> Grams:
    """Every n-gram of up to MAX_WORDS consecutive words of a clause, those opening it first."""
    return _grams_of(clause, tokens(clause), False)


def _opening_grams(clause: str) -> Grams:
    """The n-grams opening a clause (the first ones `clause_grams` gives), from its first tokens only."""
    return _grams_of(clause, tokens(clause, MAX_WORDS + 1), True)


def _grams_of(clause: str, tokens: list[tuple[str, str, int, int]], opening: bool) -> Grams:
    """The n-grams of a clause's tokens (`opening`: those starting at its first token only)."""
    stems = [stem_fr(t[1]) if t[0] == "word" else "" for t in tokens]
    found = []
    for i, (kind, _, start, _) in enumerate(tokens[:1] if opening else tokens):
        key = ""
        for j in range(i, min(i + MAX_WORDS, len(tokens))) if kind == "word" else ():
            if tokens[j][0] != "word":
                break
            key = f"{key} {stems[j]}" if key else stems[j]
            after = tokens[j + 1][0] if j + 1 < len(tokens) else "end"
            found.append((key, clause[start : tokens[j][3]], i == 0, after))
    return tuple(found)


def text_grams(text: str, opening: bool = False) -> Clauses:
    """The clauses of a text with their n-grams (`opening`: only those opening each clause)."""
    grams = _opening_grams if opening else clause_grams
    return [(place, grams(clause)) for place, clause in clauses(text)]


# --- scoring ----------------------------------------------------------------------------------


Hits = dict[str, tuple[bool, bool]]
"""Per card: French n-gram -> (seen where the English term is, followed by the same kind of token)."""


@dataclass(slots=True)
class Evidence:
    """The cards carrying one English term."""

    cards: list[tuple[Hits, bool]]
    """Per card: its hits, and whether the English term was found in its English text."""
    english: str = ""
    """The English term, to break ties in favour of a look-alike French n-gram."""
    shorter: bool = False
    """Prefer an n-gram to its one-word extension seen on as many cards (English "Protection from")."""
    opening: bool = False
    """The English term mostly opens its clause: only n-grams opening a clause count."""


def ranked(evidence: Evidence, df: Counter[str]) -> list[tuple[float, str, int]]:
    """Candidates as (score, key, cards), best first: weighted Dice, shorter n-gram on ties."""
    n = len(evidence.cards)
    located = max(1, sum(1 for _, found in evidence.cards if found))
    seen: Counter[str] = Counter()
    placed: Counter[str] = Counter()
    shaped: Counter[str] = Counter()
    for hits, _ in evidence.cards:
        for key, (pos, shape) in hits.items():
            seen[key] += 1
            placed[key] += pos
            shaped[key] += shape
    scored = [
        (round(2 * a / (n + df[k]) * (1 + placed[k] / located) / 2 * (1 + shaped[k] / located) / 2, 9), k, a)
        for k, a in seen.items()
        if not (evidence.shorter and _needless(k, a, seen, df))
    ]
    top = max((s[0] for s in scored), default=0.0)
    scored.sort(key=lambda s: (-s[0], s[1].count(" "), -_likeness(evidence.english, s[1]) if s[0] == top else 0, s[1]))
    return scored


def _needless(key: str, count: int, seen: Counter[str], df: Counter[str]) -> bool:
    """Whether an n-gram only extends a shorter one by a word, on the same cards here and nearly all elsewhere."""
    shorter = key.rsplit(" ", 1)[0] if " " in key else ""
    return bool(shorter) and seen[shorter] == count and df[key] >= 0.8 * df[shorter]


def _likeness(english: str, key: str) -> float:
    """How alike an English term and a French key look (cognates: Cascade, Vigilance): shared start, 0..1."""
    return len(os.path.commonprefix([fold_word(english), key])) / max(len(english), len(key), 1)


def choose(evidence: Evidence, df: Counter[str], first: str, taken: set[str]) -> list[tuple[str, int, float]]:
    """The first n-gram (the best when ''), then alternatives on the cards it misses: (key, cards, score)."""
    chosen: list[tuple[str, int, float]] = []
    remaining = evidence
    while remaining.cards and len(chosen) < 4:
        candidates = ranked(remaining, df)
        if first and not chosen:
            best = next((c for c in candidates if c[1] == first), None)
        else:
            best = next((c for c in candidates if not any(_overlaps(c[1], k) for k, _, _ in chosen)), None)
        if best is None or chosen and (best[0] < ALT_MIN_SCORE or best[2] < 2 or best[1] in taken):
            break
        chosen.append((best[1], best[2], best[0]))
        remaining = Evidence([c for c in remaining.cards if best[1] not in c[0]], *_flags(evidence))
    return chosen


def _flags(evidence: Evidence) -> tuple[str, bool, bool]:
    return evidence.english, evidence.shorter, evidence.opening


def assign(ranked: dict[str, list[tuple[float, str, int]]]) -> dict[str, str]:
    """Give each term its best n-gram not already given to a better-scoring term."""
    owner: dict[str, str] = {}
    for term in sorted(ranked, key=lambda t: -ranked[t][0][0] if ranked[t] else 0.0):
        key = next((c[1] for c in ranked[term] if c[1] not in owner), "")
        if key:
            owner[key] = term
    return {term: key for key, term in owner.items()}


def _overlaps(one: str, other: str) -> bool:
    return f" {one} " in f" {other} " or f" {other} " in f" {one} "


def make_entry(english: str, category: str, chosen, surfaces, evidence: int, examples, variants=()) -> LexiconEntry:
    """Build an entry from chosen keys, their printed forms, example cards and the wordings printed."""
    terms = []
    for key, count, _ in chosen:
        forms = [form for form, _ in surfaces[key].most_common()]
        terms.append(FrenchTerm(forms[0], count, tuple(forms[1:4])))
    terms.sort(key=lambda t: -t.count)
    return LexiconEntry(english, category, tuple(terms), chosen[0][2], evidence, tuple(examples[:3]), variants)
