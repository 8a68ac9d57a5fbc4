"""Search entries -> a Whoosh index in a folder, and the tables a query reads from the same entries.

Whoosh holds the documents, their terms, postings and field lengths (what results show and the re-rank reads is the
export's, made from the entries: `kb.search.export`). The tables (`index_tables`) hold what the query box needs
before it can ask for any posting, the same for the CLI and the site: each language's vocabulary (a word as folded
-> its index forms: `piochees` -> `pioche`, `piochee`) and how many documents hold each word (spelling suggestions
prefer the commonest), the lexicon's translation tables, and what the index holds (languages, editions). They are
written into the export (`kb.search.export.write_words`: `core.json` and the vocabulary's, forms' and spellings'
shards), which every query reads.

An index holds the entries of the current editions (what `kb search` asks by default and what the site exports),
or of every edition (`every`: built when a query first asks for another edition).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from whoosh.filedb.filestore import FileStorage

from kb.model.numbers import IN_TEXT, kind_of, parent_of
from kb.search.analysis import body, lang_text, schema
from kb.search.concepts import concepts
from kb.search.entries import Entry
from kb.search.lexicon import lexicon_phrases, tables
from kb.search.rank import KIND_BOOSTS
from kb.search.text import KIND, PLAIN, TEXT, analyse, group_of, tokens

POOL_MB = 64
"""Memory Whoosh's writer may hold postings in before it sorts them through files (its default is 128). On the card
pool (`bench/bench_pool.py`, `--jobs 2`, measured side by side) 512 built in 63 s with a peak of 920 MB, 128 in 72 s
with 603 MB. Later, with the rest of the build's memory cut, Whoosh's half of the pool's index alone (in a forked
process, as `kb build` makes it, alternated twice): 128 took 58.2 and 55.5 s and peaked at 442 MiB, 64 took 62.9
and 56.7 s and peaked at 369 MiB, the whole build under 400 MiB. The bundled content's index never fills it."""


def write_whoosh(folder: Path, entries: list[Entry], vocabulary=None, every: bool = False) -> None:
    """Whoosh's index of the entries, in a folder (created if needed): its documents (see `build`)."""
    folder.mkdir(parents=True, exist_ok=True)
    build(FileStorage(str(folder)), entries, vocabulary, every)


def build(storage, entries: list[Entry], vocabulary=None, every: bool = False):
    """Index the entries of the current editions (of every edition when `every`) into a Whoosh storage (a folder's,
    or memory); return the index (Whoosh's half: `index_tables` gives the other)."""
    kept = entries if every else [e for e in entries if e.current]
    langs = entry_langs(entries)
    ix = storage.create_index(schema(langs, lexicon_phrases(vocabulary, langs)))
    writer = ix.writer(limitmb=POOL_MB)  # one segment: the corrector and the site read the same counts
    try:
        for entry in kept:
            writer.add_document(**_document(entry, langs))
        writer.commit()
    except BaseException:
        writer.cancel()
        raise
    return ix


def index_tables(entries: list[Entry], vocabulary=None, numbering: dict | None = None, every: bool = False) -> dict:
    """The tables of the index of the same entries (written into its export): languages, editions, each language's
    vocabulary and word counts, the lexicon's translation tables, the characteristic terms. They read the entries'
    texts, not Whoosh's index, so they can be made while another process writes it.

    `numbering`: `{lang: {number: today's number or None}}`, a translation's rules that today's numbering puts
    elsewhere (French 120.4 is today's 121.4), so that a number typed says so."""
    kept = entries if every else [e for e in entries if e.current]
    langs = entry_langs(entries)
    vocab: dict[str, dict[str, list[str]]] = {lang: {} for lang in langs}
    counts: dict[str, dict[str, int]] = {lang: {} for lang in langs}
    seen: dict[str, dict[str, str]] = {lang: {} for lang in langs}
    for entry in kept:
        for lang in _doc_langs(entry, langs, named=True):
            named = " ".join(entry.named.get(lang, ()))
            texts = (entry.titles.get(lang, ""), entry.texts.get(lang, ""), entry.context.get(lang, ""), named)
            _add_words(vocab[lang], counts[lang], texts, lang, seen[lang])
    return {
        "langs": list(langs),
        "docs": len(kept),
        "editions": _editions(entries),
        "vocab": vocab,
        "counts": counts,
        "lexicon": tables(vocabulary, vocab, *_rule_counts(kept)),
        "numbering": numbering or {},
        "phrases": {lang: sorted(found) for lang, found in lexicon_phrases(vocabulary, langs).items()},
        "concepts": concepts(kept, langs),
        "known": _known(vocabulary, vocab),
    }


def _known(vocabulary, vocab: dict[str, dict[str, list[str]]]) -> dict[str, list[str]]:
    """Per language, the words printed on its cards that its texts here lack (a word of the game, never
    spelling-corrected: `kb.search.spelling`)."""
    printed = vocabulary.printed if vocabulary is not None else {}
    return {lang: sorted(w for w in printed[lang] if w not in vocab[lang]) for lang in vocab if printed.get(lang)}


def _rule_counts(entries: list[Entry]) -> tuple[dict[str, dict[str, int]], int]:
    """How many English rules and glossary entries hold each word, and how many there are: the lexicon leaves out
    words common in the rules (`card`, `player`), whatever the card data loaded beside them."""
    rules = [e for e in entries if e.kind in ("rule", "glossary") and "en" in e.texts]
    vocab, counts, seen = {}, {}, {}
    for e in rules:
        _add_words(vocab, counts, (e.titles.get("en", ""), e.texts["en"]), "en", seen)
    by_form: dict[str, int] = {}  # every form of a word as common as its commonest (`cards` as `card`)
    for word, count in counts.items():
        form = vocab[word][0]
        by_form[form] = max(by_form.get(form, 0), count)
    return {"en": {word: by_form[vocab[word][0]] for word in counts}}, len(rules)


def own_numbering(kb) -> dict[str, dict[str, str | None]]:
    """Each translation's rules whose number today's reference edition gives to another rule, or to none; and the
    rule numbers an extract holds only the subrules of (French 120.1… are today's 121.1…: its 120 is today's 121)."""
    found: dict[str, dict[str, str | None]] = {}
    for lang, edition in kb.primary.items():
        if lang == kb.reference:
            continue
        mine: dict[str, str | None] = {}
        parents: dict[str, set[str | None]] = {}
        for number in edition.rules:
            pair = kb.pair(lang, number)
            today = pair.ref_number if pair is not None else None
            if today != number:
                mine[number] = today
            up = parent_of(number)
            if up is not None and up not in edition.rules and kind_of(number) == "numbered":
                parents.setdefault(up, set()).add(parent_of(today) if today else None)
        for up, todays in parents.items():
            (today,) = todays if len(todays) == 1 else (None,)
            if today is not None and today != up:
                mine[up] = today
        if mine:
            found[lang] = mine
    return found


def entry_langs(entries: list[Entry]) -> tuple[str, ...]:
    """Languages of the entries, French and English first (an index's languages, in its order)."""
    found = {lang for e in entries for lang in (*e.titles, *e.texts)}
    return tuple(sorted(found, key=lambda lang: ({"fr": 0, "en": 1}.get(lang, 2), lang)))


def _doc_langs(entry: Entry, langs: tuple[str, ...], named: bool = False) -> list[str]:
    """The languages of an entry's texts, in the index's order (`named`: and of its names)."""
    return [lang for lang in langs if lang in entry.texts or lang in entry.titles or named and lang in entry.named]


def _document(entry: Entry, langs: tuple[str, ...]) -> dict:
    """The Whoosh fields of one entry: its id, a card's names, its text in each language, its headwords."""
    fields = {
        "key": entry.id,
        "name": " ".join([*(entry.names or {}).values(), *entry.aliases]) if entry.kind == "card" else None,
    }
    fields = {k: v for k, v in fields.items() if v is not None}
    for lang in _doc_langs(entry, langs, named=True):
        title = entry.titles.get(lang) or "\n".join(entry.named.get(lang, ()))  # a concept's names: its title
        parts = {"name" if entry.kind == "card" else "title": title, "text": entry.texts.get(lang, "")}
        parts["ctx"] = entry.context.get(lang, "")
        fields[f"body_{lang}"] = body(parts)
    words = {f for heads in _headwords(entry) for head in heads for f in head if " " not in f}
    fields["heads"] = " ".join(sorted(words))
    return fields


def rank_data(entry: Entry) -> tuple[float, list, list, list[str], list]:
    """What the re-rank reads of an entry: its kind's factor, its headwords and (a rule's) ancestors' headings as
    the first index form of each word, the ids of the rules it cites, and the names its concept has in languages
    its texts lack (a terminology's), as its headwords."""
    heads, named = _headwords(entry)
    sections = [_head_forms(h, lang) for lang, ctx in entry.context.items() for h in ctx.split("\n") if h]
    return KIND_BOOSTS[entry.kind], heads, sections if entry.kind == "rule" else [], _cited(entry), named


def _headwords(entry: Entry) -> tuple[list, list]:
    """An entry's headwords and its concept's names in languages its texts lack, each as its words' first index
    forms."""
    heads = [_head_forms(h, lang) for lang, hs in entry.heads.items() for h in hs]
    return heads, [_head_forms(h, lang) for lang, hs in sorted(entry.named.items()) for h in hs]


def stored_data(entry: Entry) -> dict:
    """What a result shows of an entry (the export's documents)."""
    return {
        "titles": dict(entry.titles),
        "texts": dict(entry.texts),
        "ctx": dict(entry.context),
        "names": dict(entry.names) if entry.names else None,
        "number": entry.number,
        "numbers": dict(entry.numbers),
        "order": entry.order,
        "editions": dict(entry.editions),
        "current": entry.current,
        "named": {lang: names[0] for lang, names in entry.named.items()},
        "heading_named": dict(entry.heading_named),
    }


def _cited(entry: Entry) -> list[str]:
    """The ids of the rules an entry cites (same edition for a rule of another edition)."""
    if entry.cites is not None:
        return list(entry.cites)
    suffix = "@" + entry.id.split("@", 1)[1] if "@" in entry.id else ""
    cited = {m for text in entry.texts.values() for m in IN_TEXT.findall(text)} - {entry.number}
    return sorted(c + suffix for c in cited)


def _add_words(
    vocab: dict[str, list[str]], counts: dict[str, int], texts: Iterable[str], lang: str, seen: dict
) -> None:
    """Add a document's words (as folded) with their index forms to a language's vocabulary, and count it once for
    each of them; `seen`: each word as written already added -> its folded word ('' for a stop word)."""
    lt = lang_text(lang)
    words = set()
    for written in {w for text in texts for w in PLAIN.findall(text)}:
        word = seen.get(written)
        if word is None:
            kind, word, raw = analyse(group_of(written), written)
            if kind == "word" and lt.is_stop(word):
                word = ""
            else:
                known = vocab.setdefault(word, [])
                known += [f for f in lt.forms((0, 0, kind, word, raw)) if f not in known]
            seen[written] = word
        if word:
            words.add(word)
    for word in words:
        counts[word] = counts.get(word, 0) + 1


def _head_forms(head: str, lang: str) -> list[str]:
    """A headword as the first index form of each of its words, stop words aside."""
    lt = lang_text(lang)
    return [lt.forms(t)[0] for t in tokens(head) if not (t[KIND] == "word" and lt.is_stop(t[TEXT]))]


def _editions(entries: list[Entry]) -> dict[str, list[str]]:
    """Edition ids of the rules and glossary terms: current, other."""
    current, other = set(), set()
    for e in entries:
        (current if e.current else other).update(e.editions.values())
    return {"current": sorted(current), "other": sorted(other - current)}
