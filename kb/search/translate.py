"""Search across languages: a query's words, through the lexicon mined from printed cards, in the other language.

Pure Python (no whoosh); `templates/static/kbquery.js` does the same, step by step, from the same tables
(`kb.search.lexicon`). Lone words of the query, and runs of them (`contact mortel`), are looked up in each table
whose target language is searched: the longest known term first, then a word by its index term (`piochées` as
`pioche`). The words of a translated term become one slot (several words: a phrase), whose alternatives are the
words as typed plus the translations (`Slot.via`, in the target language, weighing `lookup.TRANSLATED` of a word
as typed); a word the lexicon understands is never "corrected". Ranking then treats every slot alike, so coverage
counts a translated word like any other; a result matched only through translations says so
(`SearchResult.translated`): the lexicon is mined from cards, never an official translation.
"""

from __future__ import annotations

from kb.search.lookup import (
    MAX_WORD,
    STEM_FACTOR,
    Slot,
    Unit,
    finish,
    phrase_slot,
    query_stops,
    stem_prefix,
    unit_slot,
    units,
    weigh,
)
from kb.search.query import ParsedQuery
from kb.search.text import is_stop, query_tokens


def translate(parsed: ParsedQuery, reader, langs: tuple[str, ...]) -> list[Slot]:
    """The slots of a query with their translations into the searched languages (see `kb.search.lookup.resolve`)."""
    found = units(parsed)
    spans: list[tuple[int, int, str, str, list]] = []  # (start, end, source, target, table entry)
    for name, table in sorted(reader.lexicon().items()):
        source, target = name.split(">")
        if target in langs:
            spans += [(a, b, source, target, entry) for a, b, entry in find_spans(found, table, source, reader)]
    stops = query_stops(reader, langs)
    slots: list[Slot | None] = []
    k = 0
    while k < len(found):
        mine = [s for s in spans if s[0] == k]
        if not mine:
            slots.append(weigh(unit_slot(found[k], reader, langs, stops), reader, langs))
            k += 1
            continue
        end = max(s[1] for s in mine)
        if end - k == 1:  # understood: the word as typed, never "corrected", and its translations
            slot = unit_slot(found[k], reader, langs, stops, fuzzy=False)
        else:
            slot = phrase_slot(found[k:end], reader, langs)
        typed = " ".join(u.typed for u in found[k:end])
        for _, _, source, target, entry in mine:
            if _add_translation(slot, entry, reader, target):
                slot.translated.append((source, target, typed, list(entry[0] or entry[1][:1])))
        slots.append(weigh(slot, reader, langs))
        k = end
    return finish(slots, reader, langs)


def find_spans(found: list[Unit], table: dict, source: str, reader) -> list[tuple[int, int, list]]:
    """(start, end, table entry) of the runs of lone words a table translates, left to right, longest first."""
    keys, longest = table["keys"], table["longest"]
    spans, k = [], 0
    while k < len(found):
        if found[k].word is None:
            k += 1
            continue
        end = k
        while end < len(found) and end - k < longest and found[end].word is not None:
            end += 1
        for size in range(end - k, 0, -1):
            key = " ".join(u.word for u in found[k : k + size])
            if key in keys:
                spans.append((k, k + size, keys[key]))
                k += size
                break
        else:
            entry = _by_term(found[k].word, source, table["terms"], reader)
            if entry:
                spans.append((k, k + 1, entry))
            k += 1
    return spans


def _by_term(word: str, source: str, terms: dict, reader) -> list | None:
    """The table entry of a word's index term in the source language (another form of a known word)."""
    if not terms or source not in reader.langs or is_stop(word, "word", reader.stops[source]):
        return None
    term = reader.vocab(source, word)
    if term is None and word.isalpha() and len(word) <= MAX_WORD:
        term = stem_prefix(word, source, reader)
    return terms.get(str(term)) if term is not None else None


def _add_translation(slot: Slot, entry: list, reader, lang: str) -> bool:
    """Add a table entry's translations (shown, then other forms) to a slot; whether any is in the index."""
    found = slot.via.setdefault(lang, [])
    before = len(found)
    for target in [*entry[0], *entry[1]]:
        words = [w for _, w in query_tokens(target)]
        terms, factor = [reader.vocab(lang, w) for w in words], 1.0
        if len(words) == 1 and terms[0] is None and words[0].isalpha() and len(words[0]) <= MAX_WORD:
            terms, factor = [stem_prefix(words[0], lang, reader)], STEM_FACTOR
        if terms and None not in terms and all(t != terms for t, _ in found):
            found.append((terms, factor))
    if not found:
        del slot.via[lang]
    return len(found) > before
