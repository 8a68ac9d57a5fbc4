"""The parallel texts the lexicon's words are aligned over, and the word entries their alignment gives.

Three sources, each a list of aligned units (`kb.link.lexicon.align.Unit`):
- `cards`: a card's French printing beside its English text, line by line when both have as many lines;
- `rulings`: a French FAQ ruling beside the English Gatherer ruling it translates (`kb.link.cards.translations`);
- `rules`: a translated rule beside its original, the rule of the same number in the edition the translation is
  numbered like (today's rule it is paired with when that edition is not loaded).

An entry is a word, or a term of the game of several words (a glossary term, a rule's heading, a keyword, a type:
`first strike`, `activated ability`), and its French words that many units link and that each side mostly links to
the other (`MIN_UNITS`, `MIN_FRENCH_SHARE`, `MIN_ENGLISH_SHARE`): a word seen once, or translated many ways, makes
none, and words that only happen to stand together (`hand pay`) make no term.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator

from kb.link.lexicon.align import Phrases, Unit, keys, words
from kb.link.lexicon.records import ExampleCard, FrenchTerm, LexiconEntry
from kb.sources.text import stem_en

MIN_UNITS = 3
"""Units a phrase pair needs."""
MIN_FRENCH_SHARE = 0.5
"""Share of the units linking the French phrase to anything that link it to this English phrase."""
MIN_ENGLISH_SHARE = 0.25
"""Share of the units linking the English phrase to anything that link it to this French phrase."""
ALT_SHARE = 0.35
"""A second French phrase of an English one needs this share of the first's units."""
MAX_FRENCH = 3
"""French phrases kept per English phrase."""


def card_units(printings) -> Iterator[Unit]:
    """The lines of each French printing beside the lines of its English text (printings with as many lines):
    `printings`, a `kb.link.lexicon.mining.Printings`."""
    for card in printings.found.values():
        for version in card.versions:
            english = [line for line in version.english_text.splitlines() if line.strip()]
            french = [line for line in version.french_text.splitlines() if line.strip()]
            if english and len(english) == len(french):
                for en, fr in zip(english, french, strict=True):
                    yield Unit("cards", card.name, en, fr)


def ruling_units(rulings: Iterable) -> Iterator[Unit]:
    """Each French ruling beside the English ruling it translates."""
    by_id = {r.id: r for r in rulings}
    for ruling in by_id.values():
        other = by_id.get(ruling.translation_of) if ruling.translation_of else None
        if other is not None and ruling.lang == "fr" and other.lang == "en":
            yield Unit("rulings", ruling.id, other.text, ruling.text)


def rule_units(editions: Iterable, alignment) -> Iterator[Unit]:
    """Each translated rule beside its original: the English rule of its number in the edition it is numbered like,
    else the English rule it is paired with today."""
    by_id = {ed.id: ed for ed in editions}
    english = by_id.get(alignment.editions.get("en", ""))
    for lang, edition_id in alignment.editions.items():
        edition = by_id.get(edition_id)
        if lang != "fr" or edition is None or english is None:
            continue
        counterpart = alignment.counterparts.get(lang)
        original = by_id.get(counterpart[0]) if counterpart and counterpart[2] != "content" else None
        paired = {p.number: p.ref_number for p in alignment.pairs if p.lang == lang}
        for number, rule in edition.rules.items():
            source = original.rules.get(number) if original is not None else None
            if source is None and number in paired:
                source = english.rules.get(paired[number])
            if source is not None and rule.text and source.text:
                yield Unit("rules", number, source.text, rule.text)


def term_keys(terms: Iterable[str]) -> frozenset[str]:
    """The alignment's keys of some English terms of several words (`first strike`: `first strike`)."""
    found = (" ".join(keys(words(term), stem_en)) for term in terms)
    return frozenset(k for k in found if " " in k)


def word_entries(phrases: Phrases, terms: frozenset[str] = frozenset()) -> list[LexiconEntry]:
    """The lexicon's word entries of an alignment: for each English word, or term of several words (`terms`: their
    keys, `term_keys`), the French words it is linked to surely, most units first."""
    chosen: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for (english, french), count in phrases.pairs.items():
        if count < MIN_UNITS or " " in english and english not in terms:
            continue
        if count >= MIN_FRENCH_SHARE * phrases.french[french] and count >= MIN_ENGLISH_SHARE * phrases.english[english]:
            chosen[english].append((french, count))
    entries = []
    for english, found in chosen.items():
        found.sort(key=lambda x: (-x[1], x[0]))
        kept = [f for f in found if f[1] >= ALT_SHARE * found[0][1] and not _inside(f[0], found[0][0])][:MAX_FRENCH]
        terms = []
        for french, count in kept:
            text, forms = _forms(phrases, "fr:" + french)
            terms.append(FrenchTerm(text, count, forms))
        first = kept[0]
        sources = phrases.sources[(english, first[0])]
        where = phrases.example[(english, first[0])]
        entries.append(
            LexiconEntry(
                _forms(phrases, "en:" + english)[0],
                "word",
                tuple(terms),
                round(first[1] / phrases.french[first[0]], 9),
                phrases.english[english],
                (ExampleCard(where, ""),),
                sources=tuple(sorted(sources.items())),
            )
        )
    return entries


def _inside(part: str, whole: str) -> bool:
    """Whether a French phrase is only a piece of another (`champ` of `champ de bataille`)."""
    return part != whole and f" {part} " in f" {whole} "


def _forms(phrases: Phrases, key: str) -> tuple[str, tuple[str, ...]]:
    """A phrase's most printed form, and its other forms (at most three)."""
    forms = [text for text, _ in phrases.forms[key].most_common(4)]
    return forms[0], tuple(forms[1:])
