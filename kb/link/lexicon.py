"""A French-English lexicon mined from the parallel texts of MTGJSON v5 cards (no word lists).

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

import itertools
import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from kb.sources.text import fold

CATEGORIES = ("keyword", "type", "supertype", "subtype", "word")
"""Entry categories, in lookup priority order."""
MAX_WORDS = 5
"""Longest French keyword n-gram ("Recyclage de terrain de base")."""
UNSURE_SCORE = 0.5
"""Entries scoring below this are listed by `Lexicon.unsure`."""
WORD_MIN_LINES = 6
"""Aligned lines a word pair needs."""
WORD_MIN_DICE = 0.6
"""Dice score a word pair needs."""
ALT_WORD_RATIO = 0.75
"""A word's second French stem needs this share of the first one's Dice score."""
ALT_MIN_SCORE = 0.4
"""Score an alternative translation needs on the cards the best one misses."""


@dataclass(frozen=True, slots=True)
class ExampleCard:
    """A card showing a translation."""

    english: str
    """English card name."""
    french: str
    """French card name as printed (MTGJSON gives the English one for some split cards)."""


@dataclass(frozen=True, slots=True)
class FrenchTerm:
    """One French translation of an English term."""

    text: str
    """The form printed most often."""
    count: int
    """Distinct cards (lines, for words) where it translates the term."""
    forms: tuple[str, ...] = ()
    """Other printed forms matched with it (case, inflections of a word's stem)."""


@dataclass(frozen=True, slots=True)
class LexiconEntry:
    """An English term and its French translations."""

    english: str
    """English term as printed (`Flying`, `Creature`, `draw`)."""
    category: str
    """One of CATEGORIES."""
    french: tuple[FrenchTerm, ...]
    """Translations, most cards first; more than one means conflicting translations."""
    score: float
    """Confidence in the first translation, 0..1 (weighted Dice coefficient)."""
    evidence: int
    """Distinct cards (aligned lines, for words) carrying the English term."""
    examples: tuple[ExampleCard, ...]
    """Up to three cards showing the first translation."""

    @property
    def best(self) -> str:
        """The first French translation ('' when none)."""
        return self.french[0].text if self.french else ""


@dataclass(frozen=True, slots=True)
class Lexicon:
    """Mined entries with lookups both ways (case-, accent- and apostrophe-insensitive)."""

    entries: tuple[LexiconEntry, ...]
    """Entries by category (CATEGORIES order), then English term."""
    cards: int = 0
    """Distinct cards with French text the entries were mined from."""

    def lookup(self, english: str, category: str | None = None) -> tuple[LexiconEntry, ...]:
        """Entries for an English term (a word also by its stem: `tap` finds `tapped`), by category priority."""
        key = fold(english).strip()
        return tuple(
            e
            for e in self.entries
            if category in (None, e.category)
            and (fold(e.english) == key or e.category == "word" and _stem_en(fold(e.english)) == _stem_en(key))
        )

    def french_for(self, english: str, category: str | None = None) -> tuple[str, ...]:
        """French translations of an English term, best first."""
        return tuple(dict.fromkeys(t.text for e in self.lookup(english, category) for t in e.french))

    def english_for(self, french: str, category: str | None = None) -> tuple[str, ...]:
        """English terms one of whose translations is this French term (or, for words, shares its stem)."""
        key = fold(french).strip()
        found = []
        for entry in self.entries:
            if category not in (None, entry.category):
                continue
            for term in entry.french:
                forms = {fold(f) for f in (term.text, *term.forms)}
                stems = {_stem_fr(f) for f in forms} if entry.category == "word" else set()
                if key in forms or _stem_fr(key) in stems:
                    found.append(entry.english)
        unique: dict[str, str] = {}
        for english in found:
            unique.setdefault(fold(english), english)
        return tuple(unique.values())

    def unsure(self) -> tuple[LexiconEntry, ...]:
        """Entries with a low score, a single card of evidence or conflicting translations."""
        return tuple(e for e in self.entries if e.score < UNSURE_SCORE or e.evidence < 2 or len(e.french) > 1)

    def by_category(self) -> dict[str, int]:
        """Number of entries per category."""
        return {c: sum(1 for e in self.entries if e.category == c) for c in CATEGORIES}


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


def mine_lexicon(cards: Iterable[dict]) -> Lexicon:
    """Mine keywords, types and rules words from v5 card dicts (reprints count once)."""
    distinct = [c for c in _collect(cards) if c.versions]
    entries = [*_mine_keywords(distinct), *_mine_types(distinct), *_mine_words(distinct)]
    entries.sort(key=lambda e: (CATEGORIES.index(e.category), fold(e.english)))
    return Lexicon(tuple(entries), len(distinct))


def _collect(cards: Iterable[Any]) -> list[_Card]:
    """Group card dicts by name and face; keep each distinct French printing once."""
    found: dict[tuple[str, str], _Card] = {}
    for card in cards:
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
                version = _Version(english, _text(foreign.get("faceName")) or _text(foreign.get("name")),
                                   _text(foreign.get("text")), _text(foreign.get("type")))  # fmt: skip
                if (version.french_text or version.french_type) and version not in entry.versions:
                    entry.versions.append(version)
    return list(found.values())


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str) and v.strip()) if isinstance(value, list) else ()


# --- text: lines, clauses, tokens -------------------------------------------------------------

_REMINDER = re.compile(r"\([^()]*\)?")
_CLAUSE = re.compile(r"[,;:.!?—–•«»“”\"()\[\]]|\s-\s")
_TOKEN = re.compile(r"\{[^}]*\}|[+-]?[\dX]+(?:/[+-]?[\dX]+)?(?![^\W\d_])|[^\W\d_]+(?:-[^\W\d_]+)*|[^\s'’]")


class _Gram(NamedTuple):
    """One occurrence of a French n-gram inside a clause."""

    key: str
    """Stems of its words, space-separated."""
    surface: str
    """As printed."""
    place: tuple[int, int]
    """(line, clause) it sits in."""
    start: bool
    """Whether it opens the clause."""
    after: str
    """Kind of the next token: word, num, sym, or end of clause."""


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


def _tokens(clause: str) -> list[tuple[str, str, int, int]]:
    """Tokens of a clause as (kind, folded, start, end); kind is word, num or sym."""
    found = []
    for m in _TOKEN.finditer(clause):
        piece = m.group()
        kind = "sym" if piece.startswith("{") else "num" if piece[0] in "+-0123456789" or piece == "X" else "word"
        kind = "sym" if kind == "word" and not piece[0].isalpha() else kind
        found.append((kind, _fold(piece) if kind == "word" else piece, m.start(), m.end()))
    return found


@lru_cache(maxsize=4096)
def _clause_tokens(text: str) -> tuple[tuple[tuple[int, int], str, list[tuple[str, str, int, int]]], ...]:
    """The clauses of a text with their tokens: ((line, clause), text, tokens)."""
    return tuple((place, clause, _tokens(clause)) for place, clause in _clauses(text))


@lru_cache(maxsize=4096)
def _clause_grams(clause: str) -> tuple[tuple[str, str, bool, str], ...]:
    """Every n-gram of up to MAX_WORDS consecutive words of a clause: (key, printed, opening, next kind)."""
    tokens = _tokens(clause)
    stems = [_stem_fr(t[1]) if t[0] == "word" else "" for t in tokens]
    found = []
    for i, (kind, _, start, _) in enumerate(tokens):
        key = ""
        for j in range(i, min(i + MAX_WORDS, len(tokens))) if kind == "word" else ():
            if tokens[j][0] != "word":
                break
            key = f"{key} {stems[j]}" if key else stems[j]
            after = tokens[j + 1][0] if j + 1 < len(tokens) else "end"
            found.append((key, clause[start : tokens[j][3]], i == 0, after))
    return tuple(found)


def _grams(text: str) -> list[_Gram]:
    """Every n-gram of consecutive words inside the clauses of a text."""
    return [_Gram(*g[:2], place, *g[2:]) for place, clause in _clauses(text) for g in _clause_grams(clause)]


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


def _entry(english: str, category: str, chosen, surfaces, evidence: int, examples) -> LexiconEntry:
    """Build an entry from chosen keys, their printed forms and example cards."""
    terms = []
    for key, count, _ in chosen:
        forms = [form for form, _ in surfaces[key].most_common()]
        terms.append(FrenchTerm(forms[0], count, tuple(forms[1:4])))
    terms.sort(key=lambda t: -t.count)
    return LexiconEntry(english, category, tuple(terms), chosen[0][2], evidence, tuple(examples[:3]))


# --- keywords ---------------------------------------------------------------------------------


def _mine_keywords(cards: list[_Card]) -> list[LexiconEntry]:
    """One entry per English keyword: its French n-gram by weighted Dice, with alternatives."""
    dfs = _document_frequencies(cards)
    grams = [[_grams(v.french_text) for v in c.versions] if c.keywords else [] for c in cards]
    holders: dict[str, list[int]] = defaultdict(list)
    for ci, card in enumerate(cards):
        if any(v.french_text for v in card.versions):
            for keyword in dict.fromkeys(card.keywords):
                holders[keyword].append(ci)
    evidence = {kw: _keyword_evidence(kw, [cards[ci] for ci in idx], [grams[ci] for ci in idx])
                for kw, idx in holders.items()}  # fmt: skip
    firsts = _assign({kw: _ranked(ev, dfs[ev.opening]) for kw, ev in evidence.items()})
    entries = []
    for keyword, first in firsts.items():
        chosen = _choose(evidence[keyword], dfs[evidence[keyword].opening], first, set(firsts.values()) - {first})
        mine = [cards[ci] for ci in holders[keyword]], [grams[ci] for ci in holders[keyword]]
        surfaces = _surfaces(keyword, {c[0] for c in chosen}, *mine)
        entries.append(_entry(keyword, "keyword", chosen, surfaces, len(mine[0]), _examples(first, *mine)))
    return entries


def _document_frequencies(cards: list[_Card]) -> tuple[Counter[str], Counter[str]]:
    """Cards holding each French n-gram anywhere, and opening a clause."""
    anywhere: Counter[str] = Counter()
    opening: Counter[str] = Counter()
    for card in cards:
        grams = [g for v in card.versions for _, clause in _clauses(v.french_text) for g in _clause_grams(clause)]
        anywhere.update({g[0] for g in grams})
        opening.update({g[0] for g in grams if g[2]})
    return anywhere, opening


def _surfaces(keyword: str, keys: set[str], cards: list[_Card], grams: list[list[list[_Gram]]]):
    """Printed forms of chosen n-grams, those in the keyword's own clause first."""
    surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    for card, per_version in zip(cards, grams, strict=True):
        for version, occurrences in zip(card.versions, per_version, strict=True):
            spot = _locate(keyword, version.english_text)
            for g in occurrences:
                if g.key in keys:
                    placed = spot is not None and g.place == spot.place and g.start == spot.start
                    surfaces[g.key][g.surface] += 1 + 1000 * placed
    return surfaces


def _keyword_evidence(keyword: str, cards: list[_Card], grams: list[list[list[_Gram]]]) -> _Evidence:
    """Mark each card's French n-grams by position and shape against the English keyword."""
    spots = [[_locate(keyword, v.english_text) for v in card.versions] for card in cards]
    located = [s for per_card in spots for s in per_card if s is not None]
    opening = sum(s.start for s in located) > len(located) / 2
    followers = Counter(s.follower for s in located)
    found = []
    for card_spots, per_version in zip(spots, grams, strict=True):
        hits: Hits = {}
        for spot, occurrences in zip(card_spots, per_version, strict=True):
            for g in occurrences if not opening else (g for g in occurrences if g.start):
                placed = spot is not None and g.place == spot.place and g.start == spot.start
                shaped = spot is not None and g.after == spot.after
                old = hits.get(g.key, (False, False))
                hits[g.key] = (old[0] or placed, old[1] or shaped)
        found.append((hits, any(card_spots)))
    common = followers.most_common(1)
    constant = bool(common) and common[0][0] != "" and common[0][1] >= 0.8 * len(located)
    return _Evidence(found, keyword, constant, opening)


def _examples(key: str, cards: list[_Card], grams: list[list[list[_Gram]]]) -> list[ExampleCard]:
    """Cards whose French text holds the n-gram."""
    found = []
    for card, per_version in zip(cards, grams, strict=True):
        for version, occurrences in zip(card.versions, per_version, strict=True):
            if any(g.key == key for g in occurrences):
                found.append(ExampleCard(card.name, version.french_name))
                break
        if len(found) == 3:
            break
    return found


# --- types ------------------------------------------------------------------------------------

_TYPE_SPLIT = re.compile(r"\s*(?::|—|–|\s-\s)\s*")
_TYPE_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


@dataclass(slots=True)
class _TypeLine:
    """The French type n-grams of a card (all printings), key -> printed form."""

    left: dict[str, str] = field(default_factory=dict)
    """N-grams before ':' or '—' (types and supertypes)."""
    right: dict[str, str] = field(default_factory=dict)
    """N-grams of each subtype after it."""
    aligned: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    """English subtype -> the French subtype at its position, when both lines list as many."""


def _type_words(french_type: str) -> tuple[list[str], list[str]]:
    """Printed words of a French type line: types before ':' or '—' (hyphens split), subtypes after."""
    left, _, right = _TYPE_SPLIT.sub("\x00", french_type, count=1).partition("\x00")
    return _TYPE_WORD.findall(left.replace("-", " ")), _TYPE_WORD.findall(right)


def _separators(cards: list[_Card]) -> set[str]:
    """Words joining subtypes ("et"): in half the lines listing several subtypes, never in a line of one."""
    single: Counter[str] = Counter()
    multi: Counter[str] = Counter()
    for card in cards:
        for version in card.versions:
            words = {_fold(w) for w in _type_words(version.french_type)[1]}
            (multi if len(card.subtypes) > 1 else single).update(words)
    lines = sum(len(c.versions) for c in cards if len(c.subtypes) > 1)
    return {w for w, n in multi.items() if n >= max(2, lines / 2) and not single[w]}


def _items(words: list[str], separators: set[str]) -> list[list[str]]:
    """Split words at separators into items (one subtype each)."""
    items: list[list[str]] = [[]]
    for word in words:
        if _fold(word) in separators:
            items.append([])
        else:
            items[-1].append(word)
    return [item for item in items if item]


def _item_grams(items: list[list[str]]) -> dict[str, str]:
    """N-grams of up to three words inside each item: folded key -> printed form."""
    return {
        " ".join(_fold(w) for w in item[i:j]): " ".join(item[i:j])
        for item in items
        for i in range(len(item))
        for j in range(i + 1, min(i + 3, len(item)) + 1)
    }


def _type_line(card: _Card, separators: set[str]) -> _TypeLine:
    line = _TypeLine()
    for version in card.versions:
        left, right = _type_words(version.french_type)
        line.left.update(_item_grams([left]))
        items = _items(right, separators)
        line.right.update(_item_grams(items))
        if len(items) == len(card.subtypes):
            for english, item in zip(card.subtypes, items, strict=True):
                line.aligned[english].add(" ".join(_fold(w) for w in item))
    return line


def _mine_types(cards: list[_Card]) -> list[LexiconEntry]:
    """Entries for supertypes and types (French text before ':') and subtypes (after it)."""
    separators = _separators(cards)
    lines = [_type_line(card, separators) for card in cards]
    df = Counter(k for line in lines for k in line.left), Counter(k for line in lines for k in line.right)
    holders: dict[tuple[str, str], list[int]] = defaultdict(list)
    for ci, card in enumerate(cards):
        terms = [("supertype", t) for t in card.supertypes] + [("type", t) for t in card.types]
        for term in dict.fromkeys(terms + [("subtype", t) for t in card.subtypes]):
            holders[term].append(ci)
    entries = []
    for (category, english), indices in holders.items():
        mine = [lines[ci] for ci in indices]
        side = 1 if category == "subtype" else 0
        evidence = _Evidence([_type_hits(english, line, side) for line in mine], english)
        chosen = _choose(evidence, df[side], "", set())
        if not chosen:
            continue
        surfaces: dict[str, Counter[str]] = defaultdict(Counter)
        for line in mine:
            for key, form in (line.right if side else line.left).items():
                surfaces[key][form] += 1
        examples = [_type_example(cards[ci], chosen[0][0], side, separators) for ci in indices]
        entries.append(_entry(english, category, chosen, surfaces, len(indices), [e for e in examples if e]))
    return entries


def _type_hits(english: str, line: _TypeLine, side: int) -> tuple[Hits, bool]:
    """A card's type n-grams; for a subtype, the one at its position is marked as placed."""
    if not side:
        return dict.fromkeys(line.left, (True, True)), True
    aligned = line.aligned.get(english, set())
    return {k: (k in aligned, k in aligned) for k in line.right}, bool(aligned)


def _type_example(card: _Card, key: str, side: int, separators: set[str]) -> ExampleCard | None:
    for version in card.versions:
        left, right = _type_words(version.french_type)
        if key in _item_grams(_items(right, separators) if side else [left]):
            return ExampleCard(card.name, version.french_name)
    return None


# --- rules words ------------------------------------------------------------------------------

_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


@lru_cache(maxsize=200_000)
def _stem_en(word: str) -> str:
    """A light English stem: plural, -ed and -ing endings and a final e removed."""
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith(("ss", "us")) and len(word) > 3:
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            if len(word) > 3 and word[-1] == word[-2]:
                word = word[:-1]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


@lru_cache(maxsize=200_000)
def _stem_fr(word: str) -> str:
    """A light French stem of a folded word: plural, then -ée, -er, -ez, -e endings removed."""
    if word.endswith(("s", "x")) and len(word) > 3:
        word = word[:-1]
    for suffix in ("ee", "er", "ez", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


@dataclass(slots=True)
class _Lines:
    """Aligned lines of English and French text: stems per line, French lines as printed, line owners."""

    english: list[set[str]] = field(default_factory=list)
    """English stems of each line."""
    french: list[set[str]] = field(default_factory=list)
    """French stems of each line."""
    printed: list[list[tuple[str, list[tuple[str, int, int]]]]] = field(default_factory=list)
    """Per line: its printings, each as (text, [(stem, start, end) of each word])."""
    owner: list[int] = field(default_factory=list)
    """Index of the card each line belongs to."""
    english_forms: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    """English stem -> its printed forms."""


def _line_words(text: str) -> list[list[str]]:
    """Words of each non-empty line, reminder text dropped."""
    lines = (_REMINDER.sub(" ", line) for line in text.splitlines())
    return [words for words in ([w for w in _WORD.findall(line) if len(w) > 1] for line in lines) if words]


def _aligned_lines(cards: list[_Card]) -> _Lines:
    """Pair the lines of printings whose English and French texts have as many lines."""
    lines = _Lines()
    index: dict[tuple[int, int], int] = {}
    for ci, card in enumerate(cards):
        for version in card.versions:
            english = _line_words(version.english_text)
            french_lines = [line for line in version.french_text.splitlines() if _line_words(line)]
            if len(english) != len(french_lines) or not english:
                continue
            for li, (en, fr) in enumerate(zip(english, french_lines, strict=True)):
                if (ci, li) not in index:
                    index[(ci, li)] = len(lines.owner)
                    lines.english.append(set())
                    lines.french.append(set())
                    lines.printed.append([])
                    lines.owner.append(ci)
                unit = index[(ci, li)]
                for word in en:
                    key = _stem_en(_fold(word))
                    lines.english[unit].add(key)
                    lines.english_forms[key][word.lower()] += 1
                fr = _REMINDER.sub(" ", fr)
                words = [
                    (_stem_fr(_fold(m.group())), m.start(), m.end())
                    for m in _WORD.finditer(fr)
                    if m.end() - m.start() > 1
                ]
                lines.french[unit].update(w[0] for w in words)
                lines.printed[unit].append((fr, words))
    return lines


def _mine_words(cards: list[_Card]) -> list[LexiconEntry]:
    """Entries for words of aligned lines whose stems pair up strongly (Dice over lines)."""
    lines = _aligned_lines(cards)
    df = Counter(k for u in lines.english for k in u), Counter(k for u in lines.french for k in u)
    pairs: Counter[tuple[str, str]] = Counter()
    for en, fr in zip(lines.english, lines.french, strict=True):
        en_kept = [k for k in en if df[0][k] >= WORD_MIN_LINES]
        pairs.update(itertools.product(en_kept, [k for k in fr if df[1][k] >= WORD_MIN_LINES]))
    best_english: dict[str, tuple[float, int, str]] = {}
    for (e, f), both in pairs.items():
        candidate = (2 * both / (df[0][e] + df[1][f]), both, e)
        best_english[f] = max(candidate, best_english.get(f, candidate))
    grouped: dict[str, list[tuple[str, int, float]]] = defaultdict(list)
    for f, (dice, both, e) in sorted(best_english.items()):
        if dice >= WORD_MIN_DICE and both >= WORD_MIN_LINES:
            grouped[e].append((f, both, round(dice, 9)))
    holding: dict[str, set[int]] = defaultdict(set)
    for unit, stems in enumerate(lines.french):
        for stem in stems:
            holding[stem].add(unit)
    entries = []
    for e, chosen in grouped.items():
        chosen.sort(key=lambda c: (-c[2], c[0]))
        english = lines.english_forms[e].most_common(1)[0][0]
        terms = _word_terms(chosen, lines, holding, e)
        units = [u for u in sorted(holding[chosen[0][0]]) if e in lines.english[u]]
        examples = [ExampleCard(cards[ci].name, cards[ci].versions[0].french_name) for ci in _first(units, lines)]
        entries.append(LexiconEntry(english, "word", terms, chosen[0][2], df[0][e], tuple(examples)))
    return entries


def _first(units: list[int], lines: _Lines, count: int = 3) -> list[int]:
    return list(dict.fromkeys(lines.owner[u] for u in units))[:count]


def _word_terms(chosen, lines: _Lines, holding: dict[str, set[int]], english: str) -> tuple[FrenchTerm, ...]:
    """French terms of a word: the best stem as a phrase with the stems always beside it, then strong others."""
    first = chosen[0][0]
    mates = [c[0] for c in chosen[1:] if _together(first, c[0], holding)]
    units = [u for u in holding[first] if english in lines.english[u] and all(u in holding[m] for m in mates)]
    phrases = Counter(p for u in units for line in lines.printed[u] for p in _phrase(*line, {first, *mates}))
    if not phrases:
        mates, phrases = [], _stem_forms(first, units, lines)
    texts = [text for text, _ in phrases.most_common(4)]
    terms = [FrenchTerm(texts[0], chosen[0][1], tuple(texts[1:]))]
    for stem, count, dice in chosen[1:]:
        if stem not in mates and dice >= ALT_WORD_RATIO * chosen[0][2]:
            forms = _stem_forms(stem, [u for u in holding[stem] if english in lines.english[u]], lines)
            texts = [text for text, _ in forms.most_common(4)]
            terms.append(FrenchTerm(texts[0], count, tuple(texts[1:])))
    return tuple(sorted(terms, key=lambda t: -t.count))


def _stem_forms(stem: str, units: list[int], lines: _Lines) -> Counter[str]:
    """How the words with a stem are printed in some lines."""
    words = (text[a:b].lower() for u in units for text, words in lines.printed[u] for key, a, b in words if key == stem)
    return Counter(words) or Counter({stem: 1})


def _together(one: str, other: str, holding: dict[str, set[int]]) -> bool:
    """Whether two French stems share at least 80% of their lines (parts of one phrase)."""
    return len(holding[one] & holding[other]) >= 0.8 * min(len(holding[one]), len(holding[other]))


def _phrase(line: str, words: list[tuple[str, int, int]], stems: set[str]) -> list[str]:
    """The printed spans of a line running from the first to the last word with one of the stems."""
    spots = [(a, b) for key, a, b in words if key in stems]
    if not spots:
        return []
    if len(stems) == 1:
        return [line[a:b].lower() for a, b in spots]
    text = line[spots[0][0] : spots[-1][1]]
    return [text.lower()] if len(_WORD.findall(text)) <= len(stems) + 2 else []


# --- JSON -------------------------------------------------------------------------------------

FORMAT = "kb-lexicon/1"
"""Value of the `format` field of a lexicon JSON document."""


def lexicon_to_json(lexicon: Lexicon) -> dict[str, Any]:
    """The lexicon as a JSON-ready dict (see `lexicon_from_json`)."""
    return {
        "format": FORMAT,
        "cards": lexicon.cards,
        "entries": [
            {
                "english": e.english,
                "category": e.category,
                "score": e.score,
                "evidence": e.evidence,
                "french": [{"text": t.text, "count": t.count, "forms": list(t.forms)} for t in e.french],
                "examples": [{"english": x.english, "french": x.french} for x in e.examples],
            }
            for e in lexicon.entries
        ],
    }


def lexicon_from_json(data: Any) -> Lexicon:
    """Rebuild a lexicon from `lexicon_to_json` output; raise ValueError naming the first bad field."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a lexicon document: 'format' must be {FORMAT!r}")
    entries = data.get("entries")
    if not isinstance(entries, list):
        raise ValueError("'entries' must be a list")
    return Lexicon(tuple(_entry_from_json(e, i) for i, e in enumerate(entries)), _field(data, "cards", int, "document"))


def _entry_from_json(data: Any, index: int) -> LexiconEntry:
    where = f"entry {index}"
    if not isinstance(data, dict):
        raise ValueError(f"{where} must be an object")
    category = _field(data, "category", str, where)
    if category not in CATEGORIES:
        raise ValueError(f"{where}: unknown category {category!r}")
    french = tuple(
        FrenchTerm(_field(t, "text", str, where), _field(t, "count", int, where), tuple(_strings(t.get("forms"))))
        for t in _objects(data.get("french"), where)
    )
    examples = tuple(
        ExampleCard(_field(x, "english", str, where), _field(x, "french", str, where))
        for x in _objects(data.get("examples"), where)
    )
    score = _field(data, "score", (int, float), where)
    return LexiconEntry(_field(data, "english", str, where), category, french, float(score),
                        _field(data, "evidence", int, where), examples)  # fmt: skip


def _objects(value: Any, where: str) -> list[dict]:
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ValueError(f"{where}: expected a list of objects")
    return value


def _field(data: dict, name: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ValueError(f"{where}: '{name}' is missing or has the wrong type")
    return value
