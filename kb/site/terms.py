"""French terms for English-only rules and glossary entries, from the lexicon mined from printed cards.

The site shows them beside the English text (`702.19 Trample · Piétinement*`), always marked as terms found
on printed cards, never as the official translation of the rules. Doubtful entries (`Lexicon.unsure`) are
left out: a wrong French name is worse than the English one alone.
"""

from __future__ import annotations

import re

from kb.model.base import KnowledgeBase
from kb.sources import fold

KEYWORD_WORDS = 4
"""A numbered rule whose whole text is this short names a keyword (`702.2 Deathtouch`)."""
KEYWORD_RULE = "702"
"""The rule of keyword abilities: their names are nouns the lexicon translates well (keyword actions, 701,
are verbs it gives in some conjugated form, so they are left unlabelled)."""
TYPE_SECTION = "3"
"""The section of card types: its rules are titled with a type in the plural (`302. Creatures`)."""
HEADWORD_CATEGORIES = ("type", "subtype", "supertype")
"""Lexicon categories whose terms can stand as glossary headwords (beside keyword abilities)."""
WORD_SCORE = 0.9
"""A rules word's translation this sure (and not listed as doubtful) gives a glossary entry its cards' words."""
WORDS_SHOWN = 3
"""Printed wordings of a rules word shown under a glossary entry, the most printed first."""


def _sure(kb: KnowledgeBase) -> dict[tuple[str, str], str] | None:
    """(folded English term, category) -> French term of the lexicon's sure entries (words aside: they are stems
    and inflections); None when there is nothing to label."""
    lexicon = getattr(kb, "lexicon", None)
    if lexicon is None or kb.reference != "en" or "en" not in kb.primary:
        return None
    unsure = {(e.english, e.category) for e in lexicon.unsure()}
    found: dict[tuple[str, str], str] = {}
    for entry in lexicon.entries:
        if entry.category != "word" and entry.french and (entry.english, entry.category) not in unsure:
            found.setdefault((fold(entry.english).strip(), entry.category), _capital(entry.french[0].text))
    return {**found, **_nouns(kb)}


def _capital(term: str) -> str:
    """A term as a heading writes it (`lien de vie` -> `Lien de vie`)."""
    return term[:1].upper() + term[1:]


def keyword_rules(kb: KnowledgeBase) -> dict[str, str]:
    """Number of each keyword-ability rule -> its keyword (`702.19` -> `Trample`)."""
    found = {}
    for number, rule in kb.primary["en"].rules.items():
        text = rule.text.strip()
        if (
            rule.parent == KEYWORD_RULE
            and rule.kind == "numbered"
            and len(text.split()) <= KEYWORD_WORDS
            and not text.endswith(".")
            and "\n" not in text
        ):
            found[number] = text
    return found


def name_labels(kb: KnowledgeBase, concepts: tuple[str, ...]) -> dict[tuple[str, str], str]:
    """(language, number or folded glossary term) -> the name the terminology gives a concept of these kinds (`rule`,
    `section`, `glossary`) in a language its texts lack (`kb.names`: printed names win over curated ones there)."""
    found = {}
    for key, name in getattr(kb, "names", {}).items():
        lang, concept, ident = key.split(":", 2)
        if concept in concepts and name.names:
            found[(lang, ident)] = name.names[0]
    return found


def lexicon_labels(kb: KnowledgeBase) -> dict[tuple[str, str], str]:
    """(language, number) -> the name of a rule or section in a language whose text lacks its title: the
    terminology's (`kb.names`), else for a keyword or card-type rule the French term of the lexicon's sure entries."""
    names = name_labels(kb, ("rule", "section"))
    sure = _sure(kb)
    if sure is None:
        return names
    keywords = keyword_rules(kb)
    types = {
        number: rule.title
        for number, rule in kb.primary["en"].rules.items()
        if number.startswith(TYPE_SECTION) and rule.kind == "rule" and rule.title
    }
    nouns = {
        number: rule.title
        for number, rule in kb.primary["en"].rules.items()
        if rule.kind == "rule" and rule.title and len(rule.title.split()) == 1 and number not in types
    }  # `401. Library`, `120. Damage`: a one-word title the cards print as a noun
    french = kb.primary.get("fr")
    found = {}
    for category, named in (("keyword", keywords), ("type", types), ("word", nouns)):
        for number, english in named.items():
            if french is not None and "fr" in kb.aligned(number):
                continue
            term = _lookup(sure, english, category)
            same = term and term.casefold() in (english.casefold(), english.casefold().rstrip("s"))
            if term and not same:  # `Flash · Flash` would only say the same twice
                found[("fr", number)] = term
    return {**found, **names}


def _nouns(kb: KnowledgeBase) -> dict[tuple[str, str], str]:
    """(folded English word, `word`) -> the French form French cards print for it as a noun, for the lexicon's surest
    rules words: a single word first (`dégâts` rather than `inflige des blessures`), never a verb's imperative
    (`exilez`), a participle (`ciblée`) or a phrase opening on a preposition (`sur le champ de bataille`)."""
    lexicon, found = kb.lexicon, {}
    unsure = {(e.english, e.category) for e in lexicon.unsure()}
    for entry in lexicon.entries:
        if entry.category != "word" or entry.score < WORD_SCORE or (entry.english, entry.category) in unsure:
            continue
        forms = [f for f in dict.fromkeys([entry.best, *(v.text for v in entry.variants)]) if _noun_like(f)]
        forms.sort(key=lambda form: len(form.split()) > 1)  # a single word first, else the first phrase
        if forms:
            found[(fold(entry.english).strip(), "word")] = _capital(forms[0])
    return found


_NOT_NOUNS = re.compile(r"(?:ez|ées?)$|^(?:sur|dans|en|à|au|aux|de|des|du|le|la|les|un|une) ", re.IGNORECASE)


def _noun_like(form: str) -> bool:
    """Whether a printed form can stand as a heading: not an imperative, a participle or a prepositional phrase."""
    return bool(form) and not _NOT_NOUNS.search(form)


def _lookup(sure: dict[tuple[str, str], str], english: str, category: str) -> str | None:
    """The French term of an English one, a plural title taken in the singular (`Sorceries` -> `Sorcery`) for
    card types."""
    key = fold(english).strip()
    found = sure.get((key, category))
    if found or category not in ("type", "word"):
        return found
    for plural, singular in (("ies", "y"), ("s", "")):
        if key.endswith(plural) and (found := sure.get((key[: -len(plural)] + singular, category))):
            return found
    return None


def glossary_labels(kb: KnowledgeBase) -> dict[tuple[str, int], str]:
    """("fr", index in `kb.glossary` of an English entry) -> its French headword: a keyword ability, a card type
    or subtype printed on cards. Only where no French glossary is loaded."""
    if any(entry.lang == "fr" for entry in kb.glossary):
        return {}
    sure = _sure(kb) or {}
    names = name_labels(kb, ("glossary",))
    keywords = {fold(name).strip() for name in keyword_rules(kb).values()} if sure else set()
    found = {}
    for index, entry in enumerate(kb.glossary):
        if entry.lang != "en":
            continue
        key = fold(entry.term).strip()
        categories = (("keyword",) if key in keywords else ()) + HEADWORD_CATEGORIES
        term = names.get(("fr", fold(entry.term))) or next(
            (sure[(key, c)] for c in categories if (key, c) in sure), None
        )
        if term and term.casefold() != entry.term.casefold():
            found[("fr", index)] = term
    return found


def glossary_words(kb: KnowledgeBase) -> dict[tuple[str, int], tuple[str, ...]]:
    """("fr", index in `kb.glossary` of an English entry with no French headword) -> the words French cards print
    for it (`graveyard` -> `cimetière`; `damage` -> `blessures`, `dégâts`): words to search the site with, shown as
    found on printed cards. Only where no French glossary is loaded, from the lexicon's surest rules words."""
    words = _sure_words(kb)
    if not words:
        return {}
    headwords = glossary_labels(kb)
    found = {}
    for index, entry in enumerate(kb.glossary):
        word = words.get(fold(entry.term).strip()) if entry.lang == "en" else None
        if word is None or ("fr", index) in headwords:
            continue
        shown = _printed(word)
        same = {entry.term.casefold()}
        kept = [w for w in dict.fromkeys(shown) if w.casefold() not in same][:WORDS_SHOWN]
        if kept:
            found[("fr", index)] = tuple(kept)
    return found


def glossary_find_words(kb: KnowledgeBase) -> dict[tuple[str, int], tuple[str, ...]]:
    """("fr", index in `kb.glossary` of an English entry of several words) -> the words French cards print for each
    of its words (`Combat Damage` -> `blessures`, `dégâts`…): what the glossary's filter finds it by, never shown as
    its French name. Only where no French glossary is loaded, from the lexicon's surest rules words."""
    words = _sure_words(kb)
    found = {}
    for index, entry in enumerate(kb.glossary):
        parts = fold(entry.term).split() if entry.lang == "en" else []
        printed = [text for p in parts if p in words for text in _printed(words[p])] if len(parts) > 1 else []
        if printed:
            found[("fr", index)] = tuple(dict.fromkeys(printed))
    return found


def _printed(entry) -> list[str]:
    """Every wording the cards print for a lexicon entry (its variants), else its best term."""
    return [v.text for v in entry.variants] or [entry.best]


def _sure_words(kb: KnowledgeBase) -> dict:
    """Folded English word -> the lexicon's entry for it, of its surest rules words (none where a French glossary is
    loaded or the reference is not English)."""
    lexicon = getattr(kb, "lexicon", None)
    if lexicon is None or kb.reference != "en" or any(entry.lang == "fr" for entry in kb.glossary):
        return {}
    unsure = {(e.english, e.category) for e in lexicon.unsure()}
    return {
        fold(e.english).strip(): e
        for e in lexicon.entries
        if e.category == "word" and e.score >= WORD_SCORE and (e.english, e.category) not in unsure
    }
