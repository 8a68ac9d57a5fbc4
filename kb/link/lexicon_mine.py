"""Mine the French-English lexicon from the parallel texts of MTGJSON v5 cards (no word lists): keywords here,
types and rules words in `kb.link.lexicon_words`.

The miners share one idea: count, over distinct cards, how often an English term and a French
n-gram appear together, score the pair with the Dice coefficient ``2·both / (english + french)``,
keep the best French n-gram, then mine the cards it misses for alternative translations (a keyword
printed two ways over the years); every count and threshold is learnt from the cards given.

- keywords (a card's ``keywords``): French n-grams of 1 to MAX_WORDS words inside the clauses of
  the French text (lines cut at punctuation, reminder text dropped, never across a cost or a
  number; words compared by light stems so "Enchanter"/"Enchantez" meet). The Dice score is
  weighted by position (the n-gram sits in the clause where the printed English names the keyword)
  and by shape (followed, like the English, by nothing, a word, a number or a cost), so "Contact
  mortel" beats "Contact" and "Soif de sang" beats "Soif" for "Bloodthirst 1". When the English
  keyword mostly opens its clause (an ability the card has), only n-grams opening a clause count,
  so "... acquiert le vol" on other cards does not dilute "Vol". An n-gram extended by a constant
  word ("Protection contre") yields to the shorter one when the English keyword is also followed by
  a constant word ("Protection from"); each n-gram goes to the keyword that scores it best.
- types, supertypes and subtypes: English ``supertypes``/``types`` against the French type line
  before its ":" or "—", ``subtypes`` against each subtype after it, split at the joining word
  learnt from the lines ("et") and aligned by position when both lines list as many.
- other words: lines of the printed English text and of the French text are aligned when both
  have as many; light stems on both sides; a pair needs WORD_MIN_DICE and WORD_MIN_LINES, and
  the French stem must prefer this English stem over any other. Stems always seen together form
  one phrase ("sur le champ de bataille").

A card reprinted in several sets counts once; each distinct French printing adds its n-grams.
"""

from __future__ import annotations

import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache, partial
from itertools import islice
from typing import Any

from kb.link.lexicon import CATEGORIES, ExampleCard, FrenchTerm, Lexicon, LexiconEntry, Variant, _stem_fr
from kb.sources.text import fold

MAX_WORDS = 5
"""Longest French keyword n-gram ("Recyclage de terrain de base")."""
ALT_MIN_SCORE = 0.4
"""Score an alternative translation needs on the cards the best one misses."""


@dataclass(slots=True)
class _Version:
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
class _Card:
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
    versions: list[_Version] = field(default_factory=list)
    """Distinct French printings."""


def mine(cards: Iterable[dict]) -> Lexicon:
    """Mine keywords, types and rules words from v5 card dicts (reprints count once)."""
    printings = Printings()
    printings.add(cards)
    return printings.mine()


class Printings:
    """The distinct French printings of cards, gathered a file at a time: a pool's card dicts (tens of thousands of
    reprints) are never all held at once."""

    def __init__(self) -> None:
        self.found: dict[tuple[str, str], _Card] = {}
        """(English name, face name) -> the card and its distinct French printings."""
        self.read = 0
        """Card dicts given so far."""

    def add(self, cards: Iterable[Any]) -> None:
        """Group card dicts by name and face; keep each distinct French printing once."""
        found = self.found
        for card in cards:
            self.read += 1
            if not isinstance(card, dict) or not isinstance(card.get("name"), str):
                continue
            face = _text(card.get("faceName")) or card["name"]
            entry = found.get((card["name"], face))
            if entry is None:
                lists = [_strings(card.get(k)) for k in ("keywords", "supertypes", "types", "subtypes")]
                entry = found[(card["name"], face)] = _Card(face, *lists)
            english = _text(card.get("originalText")) or _text(card.get("text"))
            foreigns = card.get("foreignData")
            for foreign in foreigns if isinstance(foreigns, list) else ():
                if isinstance(foreign, dict) and foreign.get("language") == "French":
                    _add_version(entry, english, foreign, _text(card.get("setCode")))

    def mine(self) -> Lexicon:
        """Mine keywords, types and rules words from the printings gathered."""
        from kb.link.lexicon_words import mine_types, mine_words

        distinct = [c for c in self.found.values() if c.versions]
        entries = [*_mine_keywords(distinct), *mine_types(distinct), *mine_words(distinct)]
        entries.sort(key=lambda e: (CATEGORIES.index(e.category), fold(e.english)))
        for cached in (_fold, _clause_tokens, _clause_grams):  # tens of megabytes of a pool's words and clauses
            cached.cache_clear()
        return Lexicon(tuple(entries), len(distinct))


def _add_version(entry: _Card, english: str, foreign: dict, code: str) -> None:
    """Add a French printing to a card, once, with the set printing it."""
    version = _Version(english, _text(foreign.get("faceName")) or _text(foreign.get("name")),
                       _text(foreign.get("text")), _text(foreign.get("type")))  # fmt: skip
    if not (version.french_text or version.french_type):
        return
    if version not in entry.versions:
        entry.versions.append(version)
    kept = entry.versions[entry.versions.index(version)]
    if code and code not in kept.sets:
        kept.sets.append(code)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str) and v.strip()) if isinstance(value, list) else ()


# --- text: lines, clauses, tokens -------------------------------------------------------------

_REMINDER = re.compile(r"\([^()]*\)?")
_CLAUSE = re.compile(r"[,;:.!?—–•«»“”\"()\[\]]|\s-\s")
_TOKEN = re.compile(r"\{[^}]*\}|[+-]?[\dX]+(?:/[+-]?[\dX]+)?(?![^\W\d_])|[^\W\d_]+(?:-[^\W\d_]+)*|[^\s'’]")


Grams = tuple[tuple[str, str, bool, str], ...]
"""The n-grams of a clause: (key: its words' stems space-separated, as printed, whether it opens the clause, the
kind of the next token: word, num, sym or end)."""
Clauses = list[tuple[tuple[int, int], Grams]]
"""A text's clauses, each as ((line, clause), its n-grams)."""


@lru_cache(maxsize=200_000)
def _fold(word: str) -> str:
    return fold(word)


def _clauses(text: str) -> list[tuple[tuple[int, int], str]]:
    """Split a card text into ((line, clause), clause text), reminder text dropped."""
    found = []
    for line_no, line in enumerate(text.splitlines()):
        parts = [p for p in _CLAUSE.split(_REMINDER.sub(" ", line)) if _TOKEN.search(p)]
        found.extend(((line_no, i), part) for i, part in enumerate(parts))
    return found


def _tokens(clause: str, limit: int | None = None) -> list[tuple[str, str, int, int]]:
    """Tokens of a clause (its first `limit`) as (kind, folded, start, end); kind is word, num or sym."""
    found = []
    for m in islice(_TOKEN.finditer(clause), limit):
        piece = m.group()
        kind = "sym" if piece.startswith("{") else "num" if piece[0] in "+-0123456789" or piece == "X" else "word"
        kind = "sym" if kind == "word" and not piece[0].isalpha() else kind
        found.append((kind, _fold(piece) if kind == "word" else piece, m.start(), m.end()))
    return found


@lru_cache(maxsize=256)
def _clause_tokens(text: str) -> tuple[tuple[tuple[int, int], str, list[tuple[str, str, int, int]]], ...]:
    """The clauses of a text with their tokens: ((line, clause), text, tokens)."""
    return tuple((place, clause, _tokens(clause)) for place, clause in _clauses(text))


@lru_cache(maxsize=256)
def _clause_grams(clause: str) -> Grams:
    """Every n-gram of up to MAX_WORDS consecutive words of a clause, those opening it first."""
    return _grams_of(clause, _tokens(clause), False)


def _opening_grams(clause: str) -> Grams:
    """The n-grams opening a clause (the first ones `_clause_grams` gives), from its first tokens only."""
    return _grams_of(clause, _tokens(clause, MAX_WORDS + 1), True)


def _grams_of(clause: str, tokens: list[tuple[str, str, int, int]], opening: bool) -> Grams:
    """The n-grams of a clause's tokens (`opening`: those starting at its first token only)."""
    stems = [_stem_fr(t[1]) if t[0] == "word" else "" for t in tokens]
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


def _text_grams(text: str, opening: bool = False) -> Clauses:
    """The clauses of a text with their n-grams (`opening`: only those opening each clause)."""
    grams = _opening_grams if opening else _clause_grams
    return [(place, grams(clause)) for place, clause in _clauses(text)]


@dataclass(frozen=True, slots=True)
class _Spot:
    """Where an English term sits in its text."""

    place: tuple[int, int]
    """(line, clause) it sits in."""
    start: bool
    """Whether it opens the clause."""
    after: str
    """Kind of the next token: word, num, sym, or end of clause."""
    follower: str
    """The next word, when a word follows."""


def _locate(term: str, text: str) -> _Spot | None:
    """Where an English term first appears in a text: opening a clause, spelt exactly, else more loosely."""
    words = [_fold(w) for w in term.split()]
    for slack, opening in ((0, True), (0, False), (3, True), (3, False)):
        for place, _, tokens in _clause_tokens(text):
            for i in range(min(1, len(tokens)) if opening else len(tokens) - len(words) + 1):
                got = [t[1] for t in tokens[i : i + len(words)]]
                if got[:-1] == words[:-1] and got[-1].startswith(words[-1]) and len(got[-1]) - len(words[-1]) <= slack:
                    end = tokens[i + len(words)] if i + len(words) < len(tokens) else ("end", "", 0, 0)
                    return _Spot(place, i == 0, end[0], end[1] if end[0] == "word" else "")
    return None


# --- scoring ----------------------------------------------------------------------------------

Hits = dict[str, tuple[bool, bool]]
"""Per card: French n-gram -> (seen where the English term is, followed by the same kind of token)."""


@dataclass(slots=True)
class _Evidence:
    """The cards carrying one English term."""

    cards: list[tuple[Hits, bool]]
    """Per card: its hits, and whether the English term was found in its English text."""
    english: str = ""
    """The English term, to break ties in favour of a look-alike French n-gram."""
    shorter: bool = False
    """Prefer an n-gram to its one-word extension seen on as many cards (English "Protection from")."""
    opening: bool = False
    """The English term mostly opens its clause: only n-grams opening a clause count."""


def _ranked(evidence: _Evidence, df: Counter[str]) -> list[tuple[float, str, int]]:
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
    return len(os.path.commonprefix([_fold(english), key])) / max(len(english), len(key), 1)


def _choose(evidence: _Evidence, df: Counter[str], first: str, taken: set[str]) -> list[tuple[str, int, float]]:
    """The first n-gram (the best when ''), then alternatives on the cards it misses: (key, cards, score)."""
    chosen: list[tuple[str, int, float]] = []
    remaining = evidence
    while remaining.cards and len(chosen) < 4:
        ranked = _ranked(remaining, df)
        if first and not chosen:
            best = next((c for c in ranked if c[1] == first), None)
        else:
            best = next((c for c in ranked if not any(_overlaps(c[1], k) for k, _, _ in chosen)), None)
        if best is None or chosen and (best[0] < ALT_MIN_SCORE or best[2] < 2 or best[1] in taken):
            break
        chosen.append((best[1], best[2], best[0]))
        remaining = _Evidence([c for c in remaining.cards if best[1] not in c[0]], *_flags(evidence))
    return chosen


def _flags(evidence: _Evidence) -> tuple[str, bool, bool]:
    return evidence.english, evidence.shorter, evidence.opening


def _assign(ranked: dict[str, list[tuple[float, str, int]]]) -> dict[str, str]:
    """Give each term its best n-gram not already given to a better-scoring term."""
    owner: dict[str, str] = {}
    for term in sorted(ranked, key=lambda t: -ranked[t][0][0] if ranked[t] else 0.0):
        key = next((c[1] for c in ranked[term] if c[1] not in owner), "")
        if key:
            owner[key] = term
    return {term: key for key, term in owner.items()}


def _overlaps(one: str, other: str) -> bool:
    return f" {one} " in f" {other} " or f" {other} " in f" {one} "


def _entry(english: str, category: str, chosen, surfaces, evidence: int, examples, variants=()) -> LexiconEntry:
    """Build an entry from chosen keys, their printed forms, example cards and the wordings printed."""
    terms = []
    for key, count, _ in chosen:
        forms = [form for form, _ in surfaces[key].most_common()]
        terms.append(FrenchTerm(forms[0], count, tuple(forms[1:4])))
    terms.sort(key=lambda t: -t.count)
    return LexiconEntry(english, category, tuple(terms), chosen[0][2], evidence, tuple(examples[:3]), variants)


# --- keywords ---------------------------------------------------------------------------------


def _mine_keywords(cards: list[_Card]) -> list[LexiconEntry]:
    """One entry per English keyword: its French n-gram by weighted Dice, with alternatives.

    A keyword's evidence (every n-gram of its cards) is made when it is scored and again when its entry is made,
    never held for every keyword at once: the pool's n-grams would take hundreds of megabytes. A keyword opening its
    clause reads only the n-grams opening one; its printed forms and examples then read its cards' texts again.
    """
    dfs = _document_frequencies(cards)
    holders: dict[str, list[_Card]] = defaultdict(list)
    for card in cards:
        if any(v.french_text for v in card.versions):
            for keyword in dict.fromkeys(card.keywords):
                holders[keyword].append(card)
    ranked, opening = {}, {}
    for keyword, mine in holders.items():
        evidence = _keyword_evidence(keyword, mine, _spots(keyword, mine))[0]
        opening[keyword] = evidence.opening
        ranked[keyword] = _ranked(evidence, dfs[evidence.opening])[: len(holders)]  # all `_assign` can reach
    firsts = _assign(ranked)
    entries = []
    for keyword, first in firsts.items():
        mine, df, spots = holders[keyword], dfs[opening[keyword]], _spots(keyword, holders[keyword])
        evidence, texts = _keyword_evidence(keyword, mine, spots)
        chosen = _choose(evidence, df, first, set(firsts.values()) - {first})
        whole = partial(_whole, mine) if evidence.opening else partial(iter, texts)
        surfaces, variants = _surfaces({c[0] for c in chosen}, mine, spots, whole())
        examples = _examples(first, mine, whole())
        entries.append(_entry(keyword, "keyword", chosen, surfaces, len(mine), examples, variants))
    return entries


def _document_frequencies(cards: list[_Card]) -> tuple[Counter[str], Counter[str]]:
    """Cards holding each French n-gram anywhere, and opening a clause."""
    anywhere: Counter[str] = Counter()
    opening: Counter[str] = Counter()
    for card in cards:
        found = [g for v in card.versions for _, clause in _clauses(v.french_text) for g in _clause_grams(clause)]
        anywhere.update({g[0] for g in found})
        opening.update({g[0] for g in found if g[2]})
    return anywhere, opening


def _spots(keyword: str, cards: list[_Card]) -> list[list[_Spot | None]]:
    """Where the keyword sits in the printed English text of each French printing of each card."""
    return [[_locate(keyword, v.english_text) for v in card.versions] for card in cards]


def _whole(cards: list[_Card]) -> Iterator[list[Clauses]]:
    """Every n-gram of each French printing of each card, a card at a time (never all held)."""
    return ([_text_grams(v.french_text) for v in card.versions] for card in cards)


def _surfaces(
    keys: set[str], cards: list[_Card], spots: list[list[_Spot | None]], texts: Iterable[list[Clauses]]
) -> tuple[dict[str, Counter[str]], tuple[Variant, ...]]:
    """Printed forms of chosen n-grams, those in the keyword's own clause first; and every wording printed where the
    keyword is (case aside), with its cards and sets, most cards first."""
    surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    wordings: dict[str, tuple[Counter[str], set[int], dict[str, None]]] = {}
    for ci, (card, card_spots, card_texts) in enumerate(zip(cards, spots, texts, strict=True)):
        for version, spot, clauses in zip(card.versions, card_spots, card_texts, strict=True):
            for place, grams in clauses:
                for key, surface, start, _ in grams:
                    if key in keys:
                        placed = spot is not None and place == spot.place and start == spot.start
                        surfaces[key][surface] += 1 + 1000 * placed
                        if placed:
                            forms, held, sets = wordings.setdefault(_fold(surface), (Counter(), set(), {}))
                            forms[surface] += 1
                            held.add(ci)
                            sets.update(dict.fromkeys(version.sets))
    variants = [Variant(forms.most_common(1)[0][0], len(held), tuple(sets)) for forms, held, sets in wordings.values()]
    return surfaces, tuple(sorted(variants, key=lambda v: (-v.count, v.text)))


def _keyword_evidence(
    keyword: str, cards: list[_Card], spots: list[list[_Spot | None]]
) -> tuple[_Evidence, list[list[Clauses]]]:
    """Mark each card's French n-grams by position and shape against the English keyword (`spots`: where it sits
    in each printing's English text); also give each printing's clauses with the n-grams read (those opening a
    clause when the keyword opens its own, else all)."""
    located = [s for per_card in spots for s in per_card if s is not None]
    opening = sum(s.start for s in located) > len(located) / 2
    followers = Counter(s.follower for s in located)
    texts = [[_text_grams(v.french_text, opening) for v in card.versions] for card in cards]
    found = []
    for card_spots, card_texts in zip(spots, texts, strict=True):
        hits: Hits = {}
        for spot, clauses in zip(card_spots, card_texts, strict=True):
            for place, grams in clauses:
                _mark(hits, grams, spot if spot is not None and place == spot.place else None, spot, opening)
        found.append((hits, any(card_spots)))
    common = followers.most_common(1)
    constant = bool(common) and common[0][0] != "" and common[0][1] >= 0.8 * len(located)
    return _Evidence(found, keyword, constant, opening), texts


def _mark(hits: Hits, grams: Grams, here: _Spot | None, spot: _Spot | None, opening: bool) -> None:
    """Add a clause's n-grams to a card's hits (`here`: the keyword's spot when it is in this clause; `opening`:
    only the n-grams opening the clause)."""
    for key, _, start, after in grams:
        if opening and not start:
            break  # the n-grams opening a clause come first
        placed = here is not None and start == here.start
        shaped = spot is not None and after == spot.after
        old = hits.get(key)
        if old is None:
            hits[key] = (placed, shaped)
        elif placed > old[0] or shaped > old[1]:
            hits[key] = (old[0] or placed, old[1] or shaped)


def _examples(key: str, cards: list[_Card], texts: Iterable[list[Clauses]]) -> list[ExampleCard]:
    """Cards whose French text holds the n-gram."""
    found = []
    for card, card_texts in zip(cards, texts, strict=True):
        for version, clauses in zip(card.versions, card_texts, strict=True):
            if any(g[0] == key for _, grams in clauses for g in grams):
                found.append(ExampleCard(card.name, version.french_name))
                break
        if len(found) == 3:
            break
    return found
