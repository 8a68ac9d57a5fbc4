"""Query words -> slots: each word, phrase or OR group of the query with the index terms it may match.

Pure Python (no whoosh): `templates/static/kbsearch.js` resolves words the same way from the same tables (the index's
export: `core.json` and its shards, which the site copies), so the CLI and the site ask the index the same thing.

A word is looked up in each searched language's vocabulary (as folded) and stands for that word's index forms;
a word the vocabulary lacks is corrected by the caller: by one edit (`deathtuch` -> `deathtouch`), else it stands
for its longest prefix that is an index form (`shuffling` -> `shuffl`), else by two edits. A word
of the lexicon mined from printed cards (or a run of them: `contact mortel`) also stands for its translations,
each weighing TRANSLATED of the word as typed. A word found nowhere is corrected by the caller (`Slot.missing`),
from the index's spelling (Whoosh's corrector). Stop words are left out unless the query has nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kb.search.query import ParsedQuery
from kb.search.text import EXACT, STOP, is_stop, query_tokens

MAX_SLOTS = 16
"""Query words and phrases looked at (a longer query keeps its first ones)."""
MAX_WORD = 40
"""Longer words are taken as written only (never stemmed or corrected)."""
STEM_MIN = 4
"""Shortest stem prefix a word not in the vocabulary stands for."""
STEM_FACTOR = 0.9
"""Weight of a word found through its stem prefix only."""
FUZZY_FACTOR = 0.7
"""Weight of a spelling correction."""
CORRECT_PREFIX = 1
"""Letters a spelling correction shares with the word at its start (most misspellings keep the first letter, and
the corrector then looks at far fewer words)."""
TRANSLATED = 0.3
"""Weight of a match through a translation against a match of the word as typed."""
NAME_MIN = 3
"""Shortest card-name prefix matched (`isp` finds Isperia)."""
CONCEPT_SLOTS = 3
"""Most slots of a query whose translations' characteristic terms are added: the terms of every word of a longer
question in another language would drown the few texts in its own."""
CONCEPT_FACTOR = 0.3
"""The share of a slot a term characterising its word covers (`kb.search.concepts`), times the term's weight (at
most 1); a document's terms add up, to at most `kb.search.rank.CONCEPT_CREDIT`."""


@dataclass(frozen=True, slots=True)
class Alt:
    """One alternative of a slot: index forms of one language, as one word (one form) or a phrase (several)."""

    lang: str
    forms: tuple[str, ...]
    """One form, or the first form of each word of a phrase that is not a stop word (what it scores with)."""
    factor: float = 1.0
    via: bool = False
    """A translation (through the lexicon)."""
    phrase: tuple[str, ...] = ()
    """A phrase's words in order, stop words included (`~word`): what a document must hold to match it."""


@dataclass(slots=True)
class Slot:
    """One word, phrase or OR group of the query, resolved in each searched language."""

    text: str
    """What the user typed (folded)."""
    stop: bool = False
    """Only stop words: left out unless the query has nothing else."""
    alts: list[Alt] = field(default_factory=list)
    exact: list[tuple[str, str]] = field(default_factory=list)
    """(language, term) of the words as typed that the vocabulary has (`=word`, or its first form when that is the
    word itself): a document holding the word itself, not only another form of its stem, scores a little more."""
    names: list[str] = field(default_factory=list)
    """Card-name prefixes (a word of a card's name starting with it matches)."""
    missing: list[str] = field(default_factory=list)
    """Words the vocabulary lacks: the caller corrects their spelling."""
    stems: list[Alt] = field(default_factory=list)
    """The longest known stem of each missing word, where one-edit corrections find nothing."""
    fixed: str | None = None
    """The spelling correction used, if any."""
    lang: str | None = None
    """The query's language, when its words say it (corrections are then words of that language)."""
    translated: list[tuple[str, str, str, list[str]]] = field(default_factory=list)
    """(source language, target language, words as typed, translations shown) of the slot's translations."""
    typed: str = ""
    """Its words as typed (accents and all)."""
    near: list[tuple[str, str, float]] = field(default_factory=list)
    """(language, term, share of the slot) of the terms characterising its word (`kb.search.concepts`): never asked
    of Whoosh, they cover part of the slot in a document holding none of its words (`kb.search.rank.CONCEPT_CREDIT`)."""


@dataclass(frozen=True, slots=True)
class Unit:
    """What becomes one slot: a word of the query, or a phrase or OR group."""

    tokens: tuple[tuple[str, str, bool], ...]
    """(kind, folded text, is a phrase) of each alternative."""
    word: str | None
    """The folded word when the unit is a lone word (one the lexicon may translate), else None."""
    typed: str
    item: int = -1
    """The query item it is a token of (`d'invocation` gives two units of one item), -1 for a group."""
    whole: str = ""
    """That item as typed (`d'invocation`), when it gives several units."""
    size: int = 1
    """How many units that item gives."""


class Tables:
    """The query tables of an index: vocabularies, stop words, translation tables."""

    def __init__(self, info: dict, stops: dict[str, frozenset[str]]) -> None:
        self.langs: tuple[str, ...] = tuple(info["langs"])
        self.docs: int = info["docs"]
        """How many documents the index holds."""
        self.vocab: dict[str, dict[str, list[str]]] = info["vocab"]
        self.counts: dict[str, dict[str, int]] = info.get("counts", {})
        """Per language, how many documents hold each word (as folded)."""
        self.lexicon: dict = info["lexicon"]
        self.phrases: dict[str, frozenset[str]] = {lang: frozenset(p) for lang, p in info.get("phrases", {}).items()}
        """Per language, the lexicon's terms of several words, each indexed as one token."""
        self.known: dict[str, list[str]] = info.get("known", {})
        """Per language, the words printed on its cards that its texts lack (`kb.search.writer._known`)."""
        self.concepts: dict[str, dict[str, list]] = info.get("concepts", {})
        """Per language, a one-word headword's first form -> its characteristic terms, [term, weight] best first."""
        self.stops = stops
        self._forms: dict[str, set[str]] = {}

    def forms(self, lang: str, word: str) -> list[str]:
        """Index forms of a folded word in a language (empty: not in the vocabulary)."""
        return self.vocab.get(lang, {}).get(word, [])

    def stem_prefix(self, lang: str, word: str) -> str | None:
        """The longest prefix of a word (at least STEM_MIN letters) that is an index form of the language."""
        if lang not in self._forms:
            self._forms[lang] = {f for forms in self.vocab.get(lang, {}).values() for f in forms}
        known = self._forms[lang]
        for end in range(len(word) - 1, STEM_MIN - 1, -1):
            if word[:end] in known:
                return word[:end]
        return None


def units(parsed: ParsedQuery) -> list[Unit]:
    """The units of a query, in order: each token of a lone item, or a whole OR group or phrase."""
    found = []
    for k, group in enumerate(parsed.groups):
        if len(group) == 1 and not group[0].phrase:
            tokens = query_tokens(group[0].text)
            whole = group[0].text if len(tokens) > 1 else ""
            for kind, text in tokens:
                typed = group[0].text if len(tokens) == 1 else text
                found.append(
                    Unit(((kind, text, False),), text if kind == "word" else None, typed, k, whole, len(tokens))
                )
            continue
        alts = []
        for item in group:
            if item.phrase:
                alts.append(("word", " ".join(w for _, w in query_tokens(item.text)), True))
            else:
                alts += [(k, w, False) for k, w in query_tokens(item.text)]
        found.append(Unit(tuple(alts), None, " OR ".join(w for _, w, _ in alts)))
    return found


def slots(parsed: ParsedQuery, tables: Tables, langs: tuple[str, ...]) -> list[Slot]:
    """The slots of a query in the searched languages, translations included; stop words aside unless only they
    are left (then only card names can match them, all of them: `Up // Down`)."""
    found = units(parsed)
    spans = _spans(found, tables, langs)
    stops = frozenset().union(*(tables.stops.get(lang, frozenset()) for lang in langs))
    own = query_lang(found, tables, langs)
    made: list[Slot] = []
    k = 0
    while k < len(found):
        mine = [s for s in spans if s[0] == k]
        end = max((s[1] for s in mine), default=k + 1)
        if end - k > 1:  # a run of words the lexicon knows as one term: one slot
            words = " ".join(u.word or "" for u in found[k:end])
            slot = Slot(words, lang=own)
            _add_phrase(slot, words, tables, langs)
        else:
            slot = _unit_slot(found[k], tables, langs, stops, own)
        typed = slot.typed = typed_text(found[k:end])
        for _, stop, source, target, entry in mine:
            if stop != end:  # a shorter run translated by another table (`main` of `main phase`): not this slot's
                continue
            if own not in (None, source):  # a French question's `main` is no English word to translate
                continue
            if _add_translation(slot, entry, tables, target):
                slot.translated.append((source, target, typed, list(entry[0] or entry[1][:1])))
        if slot.translated:  # understood by the lexicon: never "corrected"
            slot.alts += slot.stems
            slot.missing.clear()
        made.append(slot)
        k = end
    kept = [s for s in made if not s.stop][:MAX_SLOTS]
    if len(kept) > 1:  # a word alone is looked for as such; beside others, what it names helps tell them apart
        asked = frozenset(f for slot in kept for a in slot.alts for f in a.forms)
        for slot in kept:
            add_concepts(slot, tables, langs, asked, len(kept) <= CONCEPT_SLOTS)
    if kept:
        return kept
    named = [Slot(s.text, True, names=[s.text]) for s in made[:MAX_SLOTS]]
    return named


def typed_text(run: list[Unit]) -> str:
    """A run of units as typed: an item cut into several units shown whole when the run holds all of them
    (« mal d'invocation », not « mal d invocation »)."""
    shown: list[str] = []
    for k, unit in enumerate(run):
        whole = unit.whole and sum(u.item == unit.item for u in run) == unit.size
        if not whole:
            shown.append(unit.typed)
        elif k == 0 or run[k - 1].item != unit.item:
            shown.append(unit.whole)
    return " ".join(shown)


def add_concepts(
    slot: Slot, tables: Tables, langs: tuple[str, ...], asked: frozenset[str], translated: bool = True
) -> None:
    """Add the characteristic terms of a slot's one word, where it is a one-word headword (`trample`: assign,
    block, combat…), as terms covering part of it (`Slot.near`); of its one translation, where it has no word of
    its own in a language (unless not `translated`); never a term the query asks already (`asked`: `layers
    continuous effects` asks `continu` and `effect` once, not again as what `layer` names)."""
    for lang in langs:
        table = tables.concepts.get(lang, {})
        alts = [a for a in slot.alts if a.lang == lang and not a.phrase]
        own = [a for a in alts if not a.via and a.factor == 1.0]
        via = [a for a in alts if a.via and a.factor == TRANSLATED] if translated else []
        base = own if own else via
        if len(base) != 1 or base[0].forms[0] not in table:
            continue
        slot.near += [(lang, term, CONCEPT_FACTOR * w) for term, w in table[base[0].forms[0]] if term not in asked]


def query_lang(found: list[Unit], tables: Tables, langs: tuple[str, ...]) -> str | None:
    """The language the query's words say it is written in: the one language whose vocabulary or stop words alone
    hold some of them (`la pile`: French), when no other language's alone do; else None (`pile`)."""
    votes = set()
    for unit in found:
        for kind, text, _ in unit.tokens:
            for word in text.split(" ") if kind == "word" else ():
                inside = [x for x in langs if word in tables.stops.get(x, ()) or tables.forms(x, word)]
                votes.update(inside if len(inside) == 1 else ())
    return next(iter(votes)) if len(votes) == 1 else None


def _stopped(word: str, kind: str, tables: Tables, langs: tuple[str, ...], stops, own: str | None = None) -> bool:
    """Whether a word of the query is a stop word: one of some searched language that no other searched language
    holds as a word of its own (« aura », the French "will have", is the English Aura: a slot, not a stop word); in
    a query whose words say its language (`own`), any stop word of that language but one another language's rules
    have as a one-word headword (« un jeton » asks nothing of the English `un`, « une aura » still asks Aura)."""
    if not is_stop(word, kind, stops):
        return False
    others = [
        (lang, forms[0])
        for lang in langs
        if word not in tables.stops.get(lang, ()) and (forms := tables.forms(lang, word))
    ]
    if own is not None and word in tables.stops.get(own, ()):
        return not any(first in tables.concepts.get(lang, {}) for lang, first in others)
    return not others


def _unit_slot(unit: Unit, tables: Tables, langs: tuple[str, ...], stops, own: str | None) -> Slot:
    """The slot of one unit; `own`: the query's language, when known (the other languages' texts holding its words
    as typed count as translations: `pile` in English is not the French `pile`)."""
    stop = all(not p and _stopped(w, k, tables, langs, stops, own) for k, w, p in unit.tokens)
    slot = Slot(" OR ".join(w for _, w, _ in unit.tokens), stop, lang=own)
    for kind, text, phrase in unit.tokens:
        if phrase:
            _add_phrase(slot, text, tables, langs)
            continue
        found = False
        for lang in langs:  # as written, in any language
            forms = tables.forms(lang, text)
            if forms and own not in (None, lang):  # a word of the query's language, in another: as a translation
                slot.alts.append(Alt(lang, (forms[0],), TRANSLATED, True))
                found = True
            elif forms:  # its first form: the one every inflection of the word shares (see kb.search.analysis)
                slot.alts.append(Alt(lang, (forms[0],)))
                slot.exact.append((lang, text if forms[0] == text else EXACT + text))
                found = True
        if kind == "word" and len(text) >= NAME_MIN:
            slot.names.append(text)
        if not found and kind == "word" and text.isalpha() and len(text) <= MAX_WORD:
            slot.missing.append(text)  # corrected by one edit, else by its longest known stem, else by two edits
            mine = [lang for lang in langs if own in (None, lang)]  # the query's language's stems only
            slot.stems += [Alt(lang, (stem,), STEM_FACTOR) for lang in mine if (stem := tables.stem_prefix(lang, text))]
    return slot


def _add_phrase(slot: Slot, text: str, tables: Tables, langs: tuple[str, ...]) -> None:
    """A phrase's alternatives: the one token a lexicon term is indexed as, else its words' first forms in order
    (stop words aside, as the index leaves them out)."""
    for lang in langs:
        stops = tables.stops.get(lang, frozenset())
        words = [(w, is_stop(w, k, stops)) for k, w in query_tokens(text)]
        forms = [[STOP + w] if stop else tables.forms(lang, w) for w, stop in words]
        if text in tables.phrases.get(lang, ()):  # indexed as one token
            slot.alts.append(Alt(lang, (text,)))
        elif forms and all(forms) and not all(stop for _, stop in words):
            scored = tuple(f[0] for f, (_, stop) in zip(forms, words, strict=True) if not stop)
            slot.alts.append(Alt(lang, scored, phrase=tuple(f[0] for f in forms)))


def _spans(found: list[Unit], tables: Tables, langs: tuple[str, ...]) -> list[tuple[int, int, str, str, list]]:
    """(start, end, source, target, table entry) of the runs of lone words a table translates into a searched
    language, left to right, longest first (as typed, else by their words' first index forms: `goes first` as
    `go first`); else a word by its first index form (another form of a known word)."""
    spans = []
    firsts: dict[str, list[str | None]] = {}  # per source language, each unit's word's first index form (once)
    for name, table in sorted(tables.lexicon.items()):
        source, target = name.split(">")
        if target not in langs:
            continue
        if source not in firsts:
            firsts[source] = [(tables.forms(source, u.word) or [None])[0] if u.word else None for u in found]
        first = firsts[source]
        k = 0
        while k < len(found):
            if found[k].word is None:
                k += 1
                continue
            end = k
            while end < len(found) and end - k < table["longest"] and found[end].word is not None:
                end += 1
            for size in range(end - k, 0, -1):
                words = [u.word or "" for u in found[k : k + size]]
                key = " ".join(words)
                forms = " ".join(first[j] or w for j, w in enumerate(words, k)) if size > 1 else ""
                entry = table["keys"].get(key) or table["terms"].get(forms) or table["keys"].get(forms)
                if entry:
                    spans.append((k, k + size, source, target, entry))
                    k += size
                    break
            else:
                entry = table["terms"].get(first[k]) if first[k] else None
                if entry and not is_stop(found[k].word or "", "word", tables.stops.get(source, frozenset())):
                    spans.append((k, k + 1, source, target, entry))
                k += 1
    return spans


def translate_missing(slot: Slot, word: str, known: str | None, tables: Tables, langs: tuple[str, ...]) -> None:
    """Add the translations of a word the vocabularies lack, once its correction is known: of `known`, the word it
    is corrected to or another form of its stem (`pietinnement`, searched as the stem of `piétinement`, is
    translated as `piétinement` is), else of its longest known stem in the table's language, searched or not, or
    that stem but its last letter (`defausse`, a form of `défaussée`, then `defauss`, the stem `défausse` shares)."""
    stems = {a.lang: a.forms[0] for a in slot.stems}
    for name, table in sorted(tables.lexicon.items()):
        source, target = name.split(">")
        if target not in langs or target == source or slot.lang not in (None, source):
            continue
        if known is not None:
            forms = tables.forms(source, known)
            entry = table["keys"].get(known) or (table["terms"].get(forms[0]) if forms else None)
        else:
            stem = stems.get(source) or tables.stem_prefix(source, word) or ""
            shorter = (stem, stem[:-1])
            entry = next((table["terms"][x] for x in shorter if len(x) >= STEM_MIN and x in table["terms"]), None)
        if entry and _add_translation(slot, entry, tables, target):
            shown = slot.typed if len(slot.missing) == 1 and slot.typed else word  # as typed: « défausserions »
            slot.translated.append((source, target, shown, list(entry[0] or entry[1][:1])))


def _add_translation(slot: Slot, entry: list, tables: Tables, lang: str) -> bool:
    """Add a table entry's translations (shown, then other forms) to a slot; whether any is in the index."""
    added = False
    for target in [*entry[0], *entry[1]]:
        words = [w for _, w in query_tokens(target)]
        key = " ".join(words)
        if len(words) > 1:
            alt = Alt(lang, (key,), TRANSLATED, True)
        elif forms := tables.forms(lang, key):
            alt = Alt(lang, (forms[0],), TRANSLATED, True)
        elif key.isalpha() and (stem := tables.stem_prefix(lang, key)):
            alt = Alt(lang, (stem,), TRANSLATED * STEM_FACTOR, True)
        else:
            continue
        if all(a.forms != alt.forms or a.lang != lang for a in slot.alts):
            slot.alts.append(alt)
            added = True
    return added
