"""Mine the lexicon's keywords (a card's ``keywords``; the shared method: `kb.link.lexicon.evidence`).

French n-grams of 1 to MAX_WORDS words inside the clauses of the French text (lines cut at punctuation,
reminder text dropped, never across a cost or a number; words compared by light stems so
"Enchanter"/"Enchantez" meet). The Dice score is weighted by position (the n-gram sits in the clause
where the printed English names the keyword) and by shape (followed, like the English, by nothing, a
word, a number or a cost), so "Contact mortel" beats "Contact" and "Soif de sang" beats "Soif" for
"Bloodthirst 1". When the English keyword mostly opens its clause (an ability the card has), only
n-grams opening a clause count, so "... acquiert le vol" on other cards does not dilute "Vol". An
n-gram extended by a constant word ("Protection contre") yields to the shorter one when the English
keyword is also followed by a constant word ("Protection from"); each n-gram goes to the keyword that
scores it best.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache, partial

from kb.link.lexicon.evidence import (
    Clauses,
    Evidence,
    Grams,
    Hits,
    PrintedCard,
    assign,
    choose,
    clause_grams,
    clause_tokens,
    clauses,
    fold_word,
    make_entry,
    ranked,
    text_grams,
)
from kb.link.lexicon.records import ExampleCard, LexiconEntry, Variant


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
    words = [fold_word(w) for w in term.split()]
    for slack, opening in ((0, True), (0, False), (3, True), (3, False)):
        for place, _, tokens in clause_tokens(text):
            for i in range(min(1, len(tokens)) if opening else len(tokens) - len(words) + 1):
                got = [t[1] for t in tokens[i : i + len(words)]]
                if got[:-1] == words[:-1] and got[-1].startswith(words[-1]) and len(got[-1]) - len(words[-1]) <= slack:
                    end = tokens[i + len(words)] if i + len(words) < len(tokens) else ("end", "", 0, 0)
                    return _Spot(place, i == 0, end[0], end[1] if end[0] == "word" else "")
    return None


def mine_keywords(cards: list[PrintedCard]) -> list[LexiconEntry]:
    """One entry per English keyword: its French n-gram by weighted Dice, with alternatives.

    A keyword's evidence (every n-gram of its cards) is made when it is scored and again when its entry is made,
    never held for every keyword at once: the pool's n-grams would take hundreds of megabytes. A keyword opening its
    clause reads only the n-grams opening one; its printed forms and examples then read its cards' texts again.
    """
    dfs = _document_frequencies(cards)
    holders: dict[str, list[PrintedCard]] = defaultdict(list)
    for card in cards:
        if any(v.french_text for v in card.versions):
            for keyword in dict.fromkeys(card.keywords):
                if prints_keyword(keyword, card):
                    holders[keyword].append(card)
    scored, opening = {}, {}
    for keyword, mine in holders.items():
        evidence = _keyword_evidence(keyword, mine, _spots(keyword, mine))[0]
        opening[keyword] = evidence.opening
        scored[keyword] = ranked(evidence, dfs[evidence.opening])[: len(holders)]  # all `assign` can reach
    firsts = assign(scored)
    entries = []
    for keyword, first in firsts.items():
        mine, df, spots = holders[keyword], dfs[opening[keyword]], _spots(keyword, holders[keyword])
        evidence, texts = _keyword_evidence(keyword, mine, spots)
        chosen = choose(evidence, df, first, set(firsts.values()) - {first})
        whole = partial(_whole, mine) if evidence.opening else partial(iter, texts)
        surfaces, variants = _surfaces({c[0] for c in chosen}, mine, spots, whole())
        examples = _examples(first, mine, whole())
        entries.append(make_entry(keyword, "keyword", chosen, surfaces, len(mine), examples, variants))
    return entries


def prints_keyword(keyword: str, card: PrintedCard) -> bool:
    """Whether the card's printed English names the keyword on its own (else its French names it nowhere either).
    MTGJSON lists a card's keywords from today's wording, so an old printing may not print it (Plaxmanta's `You may
    play Plaxmanta any time you could play an instant`: Flash); and a family's name is printed only inside a longer
    keyword, glued to a word before it (Landwalk in `Islandwalk`) or after a single word opening its line
    (Landcycling in `Basic landcycling`), whose French would give the family a piece of it (« des îles », « de
    terrain de base »)."""
    pattern = _keyword_pattern(keyword)
    for version in card.versions:
        for line in version.english_text.splitlines():
            if any(not _qualified(line[: found.start()]) for found in pattern.finditer(line)):
                return True
    return False


QUALIFIER = re.compile(r"[\w'-]+")
"""A word that may open a longer keyword (`Basic`, `Artifact`)."""


def _qualified(before: str) -> bool:
    """Whether what stands before a keyword is a single word opening the line, then a space (`Basic `): the keyword
    is then printed inside a longer one. Read without a pattern over the spaces, which would backtrack on a long
    run of them."""
    return before[-1:].isspace() and QUALIFIER.fullmatch(before.strip()) is not None


@lru_cache(maxsize=1024)
def _keyword_pattern(keyword: str) -> re.Pattern[str]:
    """A keyword as a word of its own, inflected or not (`mills`, `goaded`), never glued to another word."""
    return re.compile(rf"(?<![\w-]){re.escape(keyword)}(?:s|es|ed|d|ing)?(?!\w)", re.IGNORECASE)


def _document_frequencies(cards: list[PrintedCard]) -> tuple[Counter[str], Counter[str]]:
    """Cards holding each French n-gram anywhere, and opening a clause."""
    anywhere: Counter[str] = Counter()
    opening: Counter[str] = Counter()
    for card in cards:
        found = [g for v in card.versions for _, clause in clauses(v.french_text) for g in clause_grams(clause)]
        anywhere.update({g[0] for g in found})
        opening.update({g[0] for g in found if g[2]})
    return anywhere, opening


def _spots(keyword: str, cards: list[PrintedCard]) -> list[list[_Spot | None]]:
    """Where the keyword sits in the printed English text of each French printing of each card."""
    return [[_locate(keyword, v.english_text) for v in card.versions] for card in cards]


def _whole(cards: list[PrintedCard]) -> Iterator[list[Clauses]]:
    """Every n-gram of each French printing of each card, a card at a time (never all held)."""
    return ([text_grams(v.french_text) for v in card.versions] for card in cards)


def _surfaces(
    keys: set[str], cards: list[PrintedCard], spots: list[list[_Spot | None]], texts: Iterable[list[Clauses]]
) -> tuple[dict[str, Counter[str]], tuple[Variant, ...]]:
    """Printed forms of chosen n-grams, those in the keyword's own clause first; and every wording printed where the
    keyword is (case aside), with its cards and sets, most cards first."""
    surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    wordings: dict[str, tuple[Counter[str], set[int], dict[str, None]]] = {}
    for ci, (card, card_spots, card_texts) in enumerate(zip(cards, spots, texts, strict=True)):
        for version, spot, parts in zip(card.versions, card_spots, card_texts, strict=True):
            for place, grams in parts:
                for key, surface, start, _ in grams:
                    if key in keys:
                        placed = spot is not None and place == spot.place and start == spot.start
                        surfaces[key][surface] += 1 + 1000 * placed
                        if placed:
                            forms, held, sets = wordings.setdefault(fold_word(surface), (Counter(), set(), {}))
                            forms[surface] += 1
                            held.add(ci)
                            sets.update(dict.fromkeys(version.sets))
    variants = [Variant(forms.most_common(1)[0][0], len(held), tuple(sets)) for forms, held, sets in wordings.values()]
    return surfaces, tuple(sorted(variants, key=lambda v: (-v.count, v.text)))


def _keyword_evidence(
    keyword: str, cards: list[PrintedCard], spots: list[list[_Spot | None]]
) -> tuple[Evidence, list[list[Clauses]]]:
    """Mark each card's French n-grams by position and shape against the English keyword (`spots`: where it sits
    in each printing's English text); also give each printing's clauses with the n-grams read (those opening a
    clause when the keyword opens its own, else all)."""
    located = [s for per_card in spots for s in per_card if s is not None]
    opening = sum(s.start for s in located) > len(located) / 2
    followers = Counter(s.follower for s in located)
    texts = [[text_grams(v.french_text, opening) for v in card.versions] for card in cards]
    found = []
    for card_spots, card_texts in zip(spots, texts, strict=True):
        hits: Hits = {}
        for spot, parts in zip(card_spots, card_texts, strict=True):
            for place, grams in parts:
                _mark(hits, grams, spot if spot is not None and place == spot.place else None, spot, opening)
        found.append((hits, any(card_spots)))
    common = followers.most_common(1)
    constant = bool(common) and common[0][0] != "" and common[0][1] >= 0.8 * len(located)
    return Evidence(found, keyword, constant, opening), texts


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


def _examples(key: str, cards: list[PrintedCard], texts: Iterable[list[Clauses]]) -> list[ExampleCard]:
    """Cards whose French text holds the n-gram."""
    found = []
    for card, card_texts in zip(cards, texts, strict=True):
        for version, parts in zip(card.versions, card_texts, strict=True):
            if any(g[0] == key for _, grams in parts for g in grams):
                found.append(ExampleCard(card.name, version.french_name))
                break
        if len(found) == 3:
            break
    return found
