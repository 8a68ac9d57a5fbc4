"""The part of the lexicon search needs: words of one language -> words of the other, for sure entries only.

Index time only. The lexicon (`kb.link.lexicon.records`, mined from the French and English printed text of cards) is
French–English: it gives two tables, `fr>en` and `en>fr`, stored with the index (its export's `core.json`, also the
site's `search/core.json`) and read by `kb.search.lookup` and `kbsearch.js` alike; its terms of several words are
indexed as one token each (`lexicon_phrases`).
A table maps a folded word or phrase (`pietinement`, `contact mortel`) to what it translates to, and each term
of the source language's index holding such a word to the same (so `piochees` finds what `pioche` does).
Entries `Lexicon.unsure()` lists (a low score, one card of evidence, conflicting translations) are left out, and
so are words that are stop words on either side (`the` -> `de`). English words in more than COMMON of the
English rules (`turn`, `card`, `player`, `ability`) are not translated into French: they say nothing about what
an English query is about, and would only let the few French texts match its every word. A French query's words
are all translated into English, common ones too (`capacité de mana` -> `mana ability`): the English rules are
the only text most questions of a French reader have an answer in.
"""

from __future__ import annotations

from kb.search.analysis import lang_text
from kb.search.text import LangText, query_tokens

PAIRS = (("fr", "en"), ("en", "fr"))
"""(source, target) languages of the translation tables: the lexicon is French–English."""
REFERENCE = "en"
"""The language of the rules every other language's paraphrases are also translated into (through the lexicon):
most answers to a French question are in the English rules alone."""
COMMON = 0.1
"""An entry whose English term is one word found in more than this share of the English rules and glossary entries
is left out of the English-to-French table (`card`, `player`, not `damage`)."""


def lexicon_phrases(vocabulary, langs: tuple[str, ...]) -> dict[str, frozenset[str]]:
    """Per language, the terms of several words (folded) of the lexicon, of the terminology (a concept's names
    and its English heading), of the words tables and of the paraphrase tables' rules wordings, indexed as one
    token each."""
    found: dict[str, set[str]] = {lang: set() for lang in langs}
    if vocabulary is None:
        return {}
    for lang, names, english in vocabulary.names:
        for text, where in [*((n, lang) for n in names), (english, "en")]:
            key = _folded(text)
            if where in found and " " in key:
                found[where].add(key)
    for lang, forms, words in vocabulary.words:
        for text, where in [*((f, lang) for f in forms), *((w, "en") for w in words)]:
            key = _folded(text)
            if where in found and " " in key:
                found[where].add(key)
    for lang, _, wordings in vocabulary.paraphrases:
        for text in wordings:
            key = _folded(text)
            if lang in found and " " in key:
                found[lang].add(key)
    lexicon = vocabulary.lexicon
    unsure = set(lexicon.unsure()) if lexicon is not None else set()
    for entry in lexicon.entries if lexicon is not None else ():
        if entry in unsure:
            continue
        for lang, texts in (("en", [entry.english]), ("fr", [f for t in entry.french for f in (t.text, *t.forms)])):
            for text in texts:
                key = _folded(text)
                if lang in found and " " in key:
                    found[lang].add(key)
    return {lang: frozenset(v) for lang, v in found.items() if v}


def tables(vocabulary, vocab: dict[str, dict[str, list[str]]], frequency: dict[str, dict[str, int]], docs: int) -> dict:
    """The translation tables of a vocabulary for an index: `{"fr>en": table, "en>fr": table, "en>en": table,
    "fr>fr": table}`, each left out when it has no entry (`vocab`: each language's words -> index forms;
    `frequency`: English words -> rules holding them; `docs`: how many rules). The lexicon's sure entries and the
    terminology's names: a French name is translated as its concept's English heading (`pile` -> `stack`), an
    English heading as the concept's names. A language's paraphrase table maps players' phrasings to the rules'
    wordings in the same language (`go first` -> `starting player`, « tuer » -> « détruire »); a phrasing of
    another language than the reference's is also translated as its wordings are (« tuer » -> `destroy`). A words
    table's everyday word is translated as its English words (« regarder » -> `look at`), but for one-word English
    words COMMON in the rules (`may`), one way only (`kept_words`).

    A table is `{"keys": {key: [shown, more]}, "terms": {form: [shown, more]}, "longest": words}`: `shown` are
    the translations named to the reader (each entry's printed term), `more` the other printed forms searched;
    `terms` maps the first index form of a one-word key, so that another form of the word finds it too.
    """
    lexicon = vocabulary.lexicon if vocabulary is not None else None
    unsure = set(lexicon.unsure()) if lexicon is not None else set()
    english = frequency.get("en", {})
    keys: dict[tuple[str, str], dict[str, list[list[str]]]] = {pair: {} for pair in PAIRS}
    for lang, names, heading in vocabulary.names if vocabulary is not None else ():
        if (lang, "en") in keys:
            _add(keys[lang, "en"], list(names), [(heading, ())], lang_text(lang), lang_text("en"))
            _add(keys["en", lang], [heading], [(names[0], names[1:])], lang_text("en"), lang_text(lang))
    for entry in lexicon.entries if lexicon is not None else ():
        word = _folded(entry.english)
        if entry in unsure:
            continue
        french = [(t.text, t.forms) for t in entry.french]
        variants = [v.text for v in getattr(entry, "variants", ())]  # every wording the cards print
        sources = [f for text, forms in french for f in (text, *forms)] + variants
        _add(keys["fr", "en"], sources, [(entry.english, ())], lang_text("fr"), lang_text("en"))
        if " " in word or english.get(word, 0) <= COMMON * docs:
            _add(keys["en", "fr"], [entry.english], french, lang_text("en"), lang_text("fr"))
    for lang, forms, words in vocabulary.words if vocabulary is not None else ():
        if (lang, "en") in keys:
            telling = [w for w in words if " " in _folded(w) or english.get(_folded(w), 0) <= COMMON * docs]
            _add(keys[lang, "en"], list(forms), [(w, ()) for w in telling], lang_text(lang), lang_text("en"))
    forms_of = {lang: _by_form(keys[lang, REFERENCE], vocab.get(lang, {})) for lang, ref in keys if ref == REFERENCE}
    for lang, players, wordings in vocabulary.paraphrases if vocabulary is not None else ():
        lt = lang_text(lang)
        _add(keys.setdefault((lang, lang), {}), [players], [(w, ()) for w in wordings], lt, lt)
        if lang != REFERENCE and lang in forms_of:
            reached = _reached(keys[lang, REFERENCE], forms_of[lang], wordings, vocab.get(lang, {}))
            _add(keys[lang, REFERENCE], [players], reached, lt, lang_text(REFERENCE))
    found = {}
    for (source, target), table in keys.items():
        if table:
            found[f"{source}>{target}"] = {
                "keys": dict(sorted(table.items())),
                "terms": _terms(table, vocab.get(source, {})),
                "longest": max(len(k.split(" ")) for k in table),
            }
    return found


def kept_words(vocabulary) -> tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]:
    """The words tables' lines the translation tables use: all but a line of several words holding a word the
    lexicon or the terminology translates already (« au début de », `début` being `beginning`; « par tour »): as
    one slot, such a run would hide that word's own translation behind a phrase a document must hold whole."""
    known: dict[str, set[str]] = {}
    unsure = set(vocabulary.lexicon.unsure()) if vocabulary.lexicon is not None else set()
    for entry in vocabulary.lexicon.entries if vocabulary.lexicon is not None else ():
        if entry not in unsure:
            known.setdefault("fr", set()).update(f for t in entry.french for f in (t.text, *t.forms))
    for lang, names, _ in vocabulary.names:
        known.setdefault(lang, set()).update(names)
    firsts = {
        lang: {_first(w, lang) for text in texts for w in _folded(text).split(" ") if w}
        for lang, texts in known.items()
    }
    kept = []
    for lang, forms, words in vocabulary.words:
        parts = [w for w in _folded(forms[0]).split(" ") if not lang_text(lang).is_stop(w)]
        if len(_folded(forms[0]).split(" ")) > 1 and any(_first(w, lang) in firsts.get(lang, ()) for w in parts):
            continue
        kept.append((lang, forms, words))
    return tuple(kept)


def _first(word: str, lang: str) -> str:
    """A folded word's first index form."""
    return lang_text(lang).terms(word)[0]


def _by_form(table: dict, vocab: dict[str, list[str]]) -> dict[str, list[list[str]]]:
    """A translation table's one-word keys by their first index form (the first key of each form)."""
    found: dict[str, list[list[str]]] = {}
    for key, entry in table.items():
        forms = vocab.get(key)
        if forms:
            found.setdefault(forms[0], entry)
    return found


def _reached(table: dict, by_form: dict, wordings, vocab: dict[str, list[str]]) -> list[tuple[str, tuple[str, ...]]]:
    """What a translation table gives the wordings of a paraphrase (each by its folded key, else by the first index
    form of a one-word wording, `by_form`: `détruit` as `détruire`), as (shown, more forms) targets."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for wording in wordings:
        key = _folded(wording)
        forms = vocab.get(key, [])
        entry = table.get(key) or (by_form.get(forms[0]) if forms else None)
        if entry:
            shown, more = entry
            found += [(text, tuple(more) if k == 0 else ()) for k, text in enumerate(shown or more[:1])]
    return found


def _folded(text: str) -> str:
    """A term as the query box reads it: folded words, space-separated."""
    return " ".join(w for _, w in query_tokens(text))


def _stops_only(text: str, lt: LangText) -> bool:
    """Whether a term holds stop words only (or nothing)."""
    return all(lt.is_stop(w) for _, w in query_tokens(text))


def _add(table: dict, sources: list[str], targets: list, source: LangText, target: LangText) -> None:
    """Map each source term to the target terms (each: printed text, other printed forms), stop words aside."""
    good = [(text, forms) for text, forms in targets if not _stops_only(text, target)]
    for term in sources:
        key = _folded(term)
        if not key or _stops_only(term, source):
            continue
        shown, more = table.setdefault(key, [[], []])
        for text, forms in good:
            if _folded(text) == key:  # the same word in both languages finds nothing new
                continue
            _append(shown, more, text.lower())
            for form in forms:
                if not _stops_only(form, target):
                    _append(more, shown, form.lower())
        if not shown and not more:
            del table[key]


def _append(into: list[str], other: list[str], text: str) -> None:
    """Add a term once (by its folded form) to `into`, unless either list has it."""
    if all(_folded(x) != _folded(text) for x in (*into, *other)):
        into.append(text)


def _terms(table: dict, vocab: dict[str, list[str]]) -> dict[str, list[list[str]]]:
    """First index form of each one-word key -> translations of the keys of that form; and, for a key of several
    words, its words' first index forms (a word the vocabulary lacks as written) -> its translations, so that
    `goes first` finds what `go first` does."""
    found: dict[str, list[list[str]]] = {}
    for key, (shown, more) in table.items():
        words = key.split(" ")
        forms = [vocab.get(w, [w])[0] for w in words]
        if len(words) == 1 and words[0] not in vocab:
            continue
        if len(words) > 1 and forms == words:  # found by its key as it is (`kb.search.lookup._spans`)
            continue
        merged = found.setdefault(" ".join(forms), [[], []])
        for text in shown:
            _append(merged[0], merged[1], text)
        for text in more:
            _append(merged[1], merged[0], text)
    return dict(sorted(found.items()))
