"""Searching an open index: a query parsed (`kb.search.query`), its words resolved into slots (`kb.search.lookup`,
spelling corrected by Whoosh's corrector), asked of Whoosh as one query scored with BM25F (`query_of`), Whoosh's best
hits re-ranked by kb (`kb.search.rank`), snippets from `whoosh.highlight`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from math import log

from whoosh import highlight
from whoosh.idsets import BitSet
from whoosh.query import And, ConstantScoreQuery, Every, Or, Phrase, Prefix, Require, Term
from whoosh.query.compound import DefaultOr
from whoosh.scoring import BM25F
from whoosh.spelling import ListCorrector

from kb.model.numbers import descends, sort_key
from kb.search.analysis import lang_text, mark_analyzer
from kb.search.lookup import CORRECT_PREFIX, FUZZY_FACTOR, Alt, Slot, Tables, slots, translate_missing
from kb.search.query import KINDS, ParsedQuery, SearchError, parse_query
from kb.search.rank import CONCEPT_CREDIT, KIND_BOOSTS, NAMED, TOP, Hit, rerank
from kb.search.results import BREAK, LEAD, MARK, SNIPPET, SearchResult, clip
from kb.search.text import EXACT as EXACT_MARK
from kb.search.text import STOP, query_tokens

B = 0.75
"""BM25F length normalisation."""
K1 = 1.2
"""BM25 term-frequency saturation."""
NAME = 1.5
"""Score of a card whose name has a word starting with a query word (a title word scores about as much)."""
NAME_LIMIT = 50
"""Card-name words looked at for one prefix."""
UNION_PARTS = 8
"""Most terms a query's Or is summed with Whoosh's tree of unions (`DefaultOr`); a longer one as Whoosh chooses on a
small index, its parts' scores loaded into arrays first (`Or`): the tree is faster for short queries (median of the
natural questions 5.1 -> 4.8 ms), the arrays for long ones (their p95 12.1 ms, 14.3 with the tree for all)."""
SLOW_SKIP = """Whoosh's skipping by block quality (`optimize`) is off: over a small index Whoosh preloads a query's
postings in an array whose best score it takes again for each hit kept, which costs more than it skips; without it
Whoosh scores every match, so all of them are asked for (the named documents beyond the best are among them)."""


def weighting() -> BM25F:
    """Whoosh's scoring of kb's indexes: BM25F with kb's saturation and length normalisation (what `kb search`
    ranks with, and what the site's postings are scored with)."""
    return BM25F(B=B, K1=K1)


def tables_of(info: dict) -> Tables:
    """The query tables of an index's `tables.json` data, with each language's stop words."""
    return Tables(info, {lang: lang_text(lang).stops for lang in info["langs"]})


class SearchIndex:
    """An open index; keep it for many queries."""

    def __init__(self, ix, info: dict, others: Callable[[], SearchIndex] | None = None) -> None:
        self.langs: tuple[str, ...] = tuple(info["langs"])
        """Languages the index has, in display order."""
        self.tables = tables_of(info)
        self.searcher = ix.searcher(weighting=weighting())
        reader = self.searcher.reader()
        held = reader.doc_count_all() > 0  # an index of no document is Whoosh's empty reader, which has no column
        self._kinds, self._keys, self._number_of, self._rank = (
            reader.column_reader(name) if held else () for name in ("kind", "key", "number", "rank")
        )
        self.unsaved: str | None = None
        """Why the index lives in memory only (the build folder cannot be written), else None."""
        self.notice: str | None = None
        """What opening the index had to do (a damaged index rebuilt), else None."""
        eds = info["editions"]
        self.editions: tuple[tuple[str, ...], tuple[str, ...]] = (tuple(eds["current"]), tuple(eds["other"]))
        """(current edition ids, other edition ids) of the rules and glossaries loaded."""
        self._others = others
        self._filters: dict[tuple, BitSet] = {}
        self._correctors: dict[str, ListCorrector] = {}
        self.numbering: dict[str, dict[str, str | None]] = info.get("numbering", {})
        """A translation's rules that today's numbering puts elsewhere: {lang: {its number: today's or None}}."""
        self.last: dict = {}
        """What the last search did: `corrected` (the query with spelling corrections, or None), `editions`,
        `elsewhere` (for a rule number: the translations' own rules of that number, and where they are today)."""

    def close(self) -> None:
        """Release the index files."""
        self.searcher.close()

    def search(
        self, text: str, lang: str | None = None, kind: str | None = None, limit: int = 10, edition: str | None = None
    ) -> list[SearchResult]:
        """Answer the query box; `lang`, `kind`, `edition` add to its filters. Raise SearchError when malformed."""
        parsed = parse_query(text)
        editions = self._editions_of((*parsed.editions, *([edition] if edition else [])))
        if editions and self._others is not None:  # another edition: the index of every edition answers
            index = self._others()
            found = index.search(text, lang, kind, limit, edition)
            self.last = index.last
            return found
        langs = _narrow(parsed.langs, lang, self.langs, "lang")
        kinds = _narrow(parsed.kinds, kind, KINDS, "kind")
        self.last = {"corrected": None, "editions": editions or self.editions[0], "elsewhere": []}
        if not langs or not kinds:  # `kind:rule` typed and --kind card asked: nothing is both
            return []
        allowed = self._allowed(langs, kinds, editions)
        if parsed.number:
            self.last["elsewhere"] = [
                (x, parsed.number, own[parsed.number]) for x, own in self.numbering.items() if parsed.number in own
            ]
        if parsed.number and "rule" in kinds:
            found = self._numbers(parsed, langs, allowed, limit)
            if found:
                return found
        made = slots(parsed, self.tables, langs)
        fixed = [self._correct(s, langs) for s in made if s.missing]
        if any(fixed):
            self.last["corrected"] = _corrected(parsed, made)
        made = [s for s in made if s.alts or s.names]
        if not made:
            return []
        reader = self.searcher.reader()
        terms = [slot_terms(s, reader) for s in made]
        weights = [self.weight(t) for t in terms]
        mask = self._excluded(parsed, langs)
        query = query_of(made, reader)
        every = self.searcher.search(query, limit=None, filter=allowed, mask=mask, optimize=False)  # see SLOW_SKIP
        scored = list(every.items())  # Whoosh scores every match anyway: all of them, best first
        held = _Held(reader)
        named = self._named(made, allowed, held)
        hits = scored[:TOP] + [pair for pair in scored[TOP:] if pair[0] in named][:NAMED]
        exacts = [{(f"body_{lang}", term) for lang, term in s.exact} for s in made]
        concepts = [concept_terms(s) for s in made]
        groups = held.matched([d for d, _ in hits], [*terms, *exacts, *concepts])
        found = [self._hit(d, score, terms, concepts, [g.get(d, ()) for g in groups]) for d, score in hits]
        matched = groups[: len(terms)]

        def about(doc: int) -> tuple:
            """What the re-rank reads of its best hits alone: their columns, and the forms they match."""
            return (*self.about(doc), *_forms(terms, [g.get(doc, ()) for g in matched]))

        ranked = rerank(found, weights, all(s.stop for s in made), about, named)[:limit]
        return [self._result(h.doc, score, made, terms, held, langs, h) for h, score in ranked]

    def _named(self, made: list[Slot], allowed, held: _Held) -> frozenset[int]:
        """The documents whose headwords hold a form of a query word or of its translations (each form's postings:
        a Whoosh `Or` run over them costs 0.4 ms more a question)."""
        forms = {f for s in made for a in s.alts if not a.phrase for f in a.forms}
        named = frozenset().union(*(held.of(("heads", f)) for f in forms))
        return frozenset(d for d in named if allowed is None or d in allowed)

    def _allowed(self, langs: tuple[str, ...], kinds: tuple[str, ...], editions: tuple[str, ...]) -> BitSet | None:
        """The documents the filters let through (computed once per combination); None: every one."""
        if langs == self.langs and kinds == KINDS and not editions:
            return None
        key = (langs, kinds, editions)
        if key not in self._filters:
            docs = self.searcher.docs_for_query(_filter(langs, kinds, editions))
            self._filters[key] = BitSet(docs, size=self.searcher.doc_count_all())
        return self._filters[key]

    def weight(self, terms: dict[tuple[str, str], bool]) -> float:
        """How much finding a slot counts: the idf (Whoosh's) of its rarest term, card-name words counting as one."""
        n = self.searcher.doc_count_all()
        reader = self.searcher.reader()
        dfs = [reader.doc_frequency(*t) for t in terms if t[0] != "name" and not t[1].startswith(EXACT_MARK)]
        names = sum(reader.doc_frequency(*t) for t in terms if t[0] == "name")
        return max((_idf(n, df) for df in [*dfs, min(n, names)] if df), default=0.0)

    def _correct(self, slot: Slot, langs: tuple[str, ...]) -> bool:
        """Replace a slot's missing words by their spelling corrections (Whoosh's corrector over the vocabulary:
        words sharing the first CORRECT_PREFIX letters, the most common first) at one edit, else by their longest
        known stems (also when the one-edit correction is a form of that stem), else at two edits; whether a
        correction was made."""
        searched, langs = langs, (slot.lang,) if slot.lang else langs
        for word in slot.missing:
            best, near = self._suggestion(word, langs, 1), None
            if best and slot.stems and any(word.startswith(f) for x in langs for f in self.tables.forms(x, best)[:1]):
                best, near = None, best  # another form of its stem (`shuffler`, `shuffles`): an inflection, not a typo
            if best is None and slot.stems:
                slot.alts += slot.stems
                translate_missing(slot, word, near, self.tables, searched)  # translated as that form, else its stem
                continue
            best = best or self._suggestion(word, langs, 2)
            if best is None:
                continue
            slot.fixed = best
            for lang in langs:
                slot.alts += [Alt(lang, (f,), FUZZY_FACTOR) for f in self.tables.forms(lang, best)[:1]]
            translate_missing(slot, word, best, self.tables, searched)
        slot.missing = []
        return slot.fixed is not None

    def _suggestion(self, word: str, langs: tuple[str, ...], maxdist: int) -> str | None:
        """The commonest word of the vocabularies within `maxdist` edits of a word (then the shortest, then the
        first in alphabetical order), or None."""
        if len(word) < 3 * maxdist:
            return None
        best = None
        for lang in langs:
            if not self.tables.vocab.get(lang):  # no word to suggest (Whoosh's list corrector fails on an empty list)
                continue
            counts = self.tables.counts.get(lang, {})
            for sug in self._corrector(lang).suggest(word, limit=1 << 30, maxdist=maxdist, prefix=CORRECT_PREFIX):
                found = (counts.get(sug, 0), -len(sug), [-ord(c) for c in sug])
                if best is None or found > best[0]:
                    best = (found, sug)
        return best[1] if best else None

    def _corrector(self, lang: str) -> ListCorrector:
        """Whoosh's corrector over a language's vocabulary (words as folded)."""
        if lang not in self._correctors:
            self._correctors[lang] = ListCorrector(sorted(self.tables.vocab.get(lang, {})))
        return self._correctors[lang]

    def _hit(self, doc: int, score: float, terms: list[dict], concepts: list[dict], held: list) -> Hit:
        """One of Whoosh's hits with what the re-rank needs: how much of each slot it matches; `held`: per slot, then
        per slot's words as typed, then per slot's characteristic terms, the terms of each the document holds
        (`_Held.matched`)."""
        n = len(terms)
        found, exact, near = held[:n], held[n : 2 * n], held[2 * n :]
        typed = any(not s[t] for f, s in zip(found, terms, strict=True) for t in f)
        kind = self._kinds[doc]
        return Hit(
            doc,
            score,
            tuple(
                1.0 if f else min(CONCEPT_CREDIT, sum(c[t] for t in h))
                for f, h, c in zip(found, near, concepts, strict=True)
            ),
            KIND_BOOSTS[kind],
            kind == "card",
            tuple(bool(e) for e in exact),
            via=any(found) and not typed,
        )

    def about(self, doc: int) -> tuple[str, list, list, list]:
        """(id, headwords, ancestors' headings, cited rules) of a document, from its columns."""
        _, heads, sections, cites = self._rank[doc]
        return self._keys[doc], heads, sections, cites

    def result_of(self, doc: int) -> SearchResult:
        """A document as a result of no query (its texts' starts, no score)."""
        return self._result(doc, 0.0, [], [], _Held(self.searcher.reader()), self.langs)

    def _numbers(self, parsed: ParsedQuery, langs: tuple[str, ...], allowed, limit: int) -> list[SearchResult]:
        """The rule and everything under it, in rule order; and the rule a translation numbers so (French 120.4,
        today's 121.4): first when the number was typed in that language's words (`règle 120.4`) or only that
        language is searched, else second."""
        number, numbers = parsed.number, self._number_of
        found = [d for d in self.searcher.docs_for_query(Prefix("number", number)) if allowed is None or d in allowed]
        found = [d for d in found if descends(numbers[d], number)]
        found.sort(key=lambda d: (self._keys[d] != numbers[d], sort_key(numbers[d]), d))
        docs = found[:limit]
        for lang, own in self.numbering.items():
            today = own.get(number)
            if not today or lang not in langs:
                continue
            there = [d for d in self.searcher.docs_for_query(Term("key", today)) if d not in docs]
            there = [d for d in there if allowed is None or d in allowed]
            at = 0 if parsed.number_lang == lang or langs == (lang,) else min(1, len(docs))
            docs[at:at] = there
        return [self.result_of(d) for d in docs[:limit]]

    def _editions_of(self, asked: tuple[str, ...]) -> tuple[str, ...]:
        """Edition ids matching `edition:` values (an id or a date); SearchError for one not loaded."""
        every = [*self.editions[0], *self.editions[1]]
        found = []
        for value in asked:
            match = [e for e in every if value in (e, e.split(":", 1)[-1])]
            if not match:
                raise SearchError(f"unknown edition '{value}'; loaded: {', '.join(every) or 'none'}")
            found += match
        return tuple(dict.fromkeys(found))

    def _excluded(self, parsed: ParsedQuery, langs: tuple[str, ...]):
        """The query of the documents holding an excluded word or phrase (any of its forms), or a translation of an
        excluded word (`pioche -remplacement` leaves out the English rules on replacement too), or None."""
        queries = []
        for item in parsed.excluded:
            words = [w for _, w in query_tokens(item.text)]
            if not (item.phrase and len(words) > 1):
                alone = replace(parsed, number=None, groups=((item,),), excluded=())
                alts = [a for slot in slots(alone, self.tables, langs) for a in slot.alts if a.via and not a.phrase]
                queries += [Term(f"body_{a.lang}", a.forms[0]) for a in alts]
            for lang in langs:
                stops = self.tables.stops.get(lang, frozenset())
                forms = [[STOP + w] if w in stops else self.tables.forms(lang, w) for w in words]
                field = f"body_{lang}"
                if item.phrase and len(words) > 1:
                    if all(forms):
                        queries.append(Phrase(field, [f[0] for f in forms]))
                else:
                    queries += [Term(field, f) for fs in forms for f in fs]
        return Or(queries) if queries else None

    def _result(
        self, doc: int, score: float, made: list[Slot], terms: list[dict], held, langs, hit=None
    ) -> SearchResult:
        """The result of a hit, with a snippet per language (matched and searched languages first) and, when it
        matches only translations of the query's words, the translations it was found through."""
        stored = self.searcher.stored_fields(doc)
        data = stored["data"]
        doc_langs = [x for x in self.langs if x in data["texts"] or x in data["titles"]]
        every = {t for slot in terms for t in slot if t[0] != "name"}
        typed = {t for slot in terms for t, via in slot.items() if t[0] != "name" and not via}
        matched = [x for x in langs if any(held(doc, t) for t in every if t[0] == f"body_{x}")]
        matched.sort(key=lambda x: not any(held(doc, t) for t in typed if t[0] == f"body_{x}"))  # as typed first
        snippets = {}
        for lang in doc_langs:
            forms = {t[1] for t in every if t[0] == f"body_{lang}"}
            text = data["texts"].get(lang) or data["titles"].get(lang, "")
            marked = _highlight(text, forms, lang) if text and forms and lang in matched else ""
            snippets[lang] = marked or clip(text)
        order = tuple(dict.fromkeys([*matched, *(x for x in langs if x in doc_langs), *doc_langs]))
        names = data["names"] if stored["kind"] == "card" else {}
        heading = {x: c.split("\n")[0] for x, c in data["ctx"].items()} if stored["kind"] == "rule" else {}
        shown = (names, data["titles"], data["names"] or {}, heading)  # an untitled rule: its nearest heading
        title = next((t[x] for t in shown for x in order if t.get(x)), "")
        named = any(held(doc, t) for s in terms for t in s if t[0] == "name")
        via = hit is not None and hit.via and not named
        translated = tuple((a, b, c, tuple(d)) for s in made for a, b, c, d in s.translated) if via else ()
        editions = data["editions"] or None
        kind, key = stored["kind"], stored["key"]
        numbers = data.get("numbers") or None
        return SearchResult(
            kind, key, data["number"], title, data["names"], order, snippets, score, editions, translated, numbers
        )


def _forms(terms: list[dict], found: list) -> tuple[tuple, tuple]:
    """Per slot, the index forms a document matches of the words as typed (card-name words aside), and of their
    translations; `found`: per slot, the slot's terms it holds (`_Held.matched`)."""
    pairs = list(zip(found, terms, strict=True))
    return (
        tuple(frozenset(t[1] for t in f if not s[t] and t[0] != "name") for f, s in pairs),
        tuple(frozenset(t[1] for t in f if s[t]) for f, s in pairs),
    )


class _Held:
    """Whether a document holds a term, from the term's postings (read once per query)."""

    def __init__(self, reader) -> None:
        self.reader = reader
        self.docs: dict[tuple[str, str], frozenset[int]] = {}

    def __call__(self, doc: int, term: tuple[str, str]) -> bool:
        return doc in self.of(term)

    def of(self, term: tuple[str, str]) -> frozenset[int]:
        """The documents holding a term."""
        if term not in self.docs:
            field, text = term
            found = self.reader.postings(field, text).all_ids() if term in self.reader else ()
            self.docs[term] = frozenset(found)
        return self.docs[term]

    def matched(self, docs: list[int], groups: list) -> list[dict[int, list]]:
        """Per group of terms, each document that holds some -> the terms of the group it holds (a set intersection
        per term, not a test per document and term)."""
        wanted = frozenset(docs)
        found: list[dict[int, list]] = [{} for _ in groups]
        for k, group in enumerate(groups):
            mine = found[k]
            for term in group:
                for d in self.of(term) & wanted:
                    mine.setdefault(d, []).append(term)
        return found


def query_of(made: list[Slot], reader):
    """The Whoosh query of the slots: one Or summing every slot's parts (`slot_parts`), a term asked twice once
    with its boosts added."""
    boosts: dict[tuple[str, str], float] = {}
    others = []
    for slot in made:
        for part in slot_parts(slot, reader):
            if isinstance(part, Term):
                key = (part.fieldname, part.text)
                boosts[key] = boosts.get(key, 0.0) + part.boost
            else:
                others.append(part)
    parts = [Term(field, text, boost=b) for (field, text), b in boosts.items()] + others
    return (DefaultOr if len(parts) <= UNION_PARTS else Or)(parts)


def slot_parts(slot: Slot, reader) -> list:
    """The Whoosh query of a slot: its alternatives (the word's first form, its translations, a phrase, the words of
    an OR) in the text field of their language and its card-name words, all summed (Whoosh's Or)."""
    parts = [_alt_query(f"body_{a.lang}", a) for a in slot.alts]
    words = _slot_names(reader, slot)
    if words:  # each card holding one scores NAME
        parts.append(ConstantScoreQuery(Or([Term("name", w) for w in words]), score=NAME))
    return parts


def _alt_query(field: str, alt: Alt):
    """One alternative in a field: a term, or a phrase (matched whole, stop words included; scored by its other
    words)."""
    words = [Term(field, f, boost=alt.factor) for f in alt.forms]
    if not alt.phrase:
        return words[0]
    return Require(words[0] if len(words) == 1 else And(words), Phrase(field, list(alt.phrase)))


def slot_terms(slot: Slot, reader) -> dict[tuple[str, str], bool]:
    """(field, term) of everything a slot matches -> whether it is a translation: its alternatives' forms (a phrase
    by its words), the words as typed, its card-name words."""
    found: dict[tuple[str, str], bool] = {}
    for alt in slot.alts:
        for form in alt.forms:
            key = (f"body_{alt.lang}", form)
            found[key] = found.get(key, True) and alt.via
    for lang, term in slot.exact:
        found[(f"body_{lang}", term)] = False
    for word in _slot_names(reader, slot):
        found[("name", word)] = False
    return found


def concept_terms(slot: Slot) -> dict[tuple[str, str], float]:
    """(field, term) of a slot's characteristic terms (`Slot.near`) -> the share of the slot each covers."""
    return {(f"body_{lang}", term): share for lang, term, share in slot.near}


def _slot_names(reader, slot: Slot) -> list[str]:
    """The card-name words a slot matches: those starting with its prefixes (the words themselves for stop words)."""
    if slot.stop:
        return [w for w in slot.names if ("name", w) in reader]
    return [w for prefix in slot.names for w in _name_terms(reader, prefix)]


def _idf(n: int, df: int) -> float:
    """Whoosh's idf."""
    return log(n / (df + 1)) + 1


def _name_terms(reader, prefix: str) -> list[str]:
    """The card-name words starting with a prefix (at most NAME_LIMIT, in order)."""
    found = []
    for t in reader.expand_prefix("name", prefix):
        found.append(t.decode("utf-8") if isinstance(t, bytes) else t)
        if len(found) == NAME_LIMIT:
            break
    return found


def _filter(langs: tuple[str, ...], kinds: tuple[str, ...], editions: tuple[str, ...]):
    """The Whoosh filter of the query's `lang:`, `kind:` and `edition:`."""
    parts = [Or([Term("langs", x) for x in langs]), Or([Term("kind", k) for k in kinds])]
    if editions:
        parts.append(Or([Term("editions", e) for e in editions]))
    return And(parts) if parts else Every()


class _Marks(highlight.Formatter):
    """Matched words between `MARK`s, the rest as it is."""

    between = " … "

    def format_token(self, text, token, replace=False):
        return f"{MARK[0]}{highlight.get_text(text, token, replace)}{MARK[1]}"


def _highlight(text: str, terms: set[str], lang: str) -> str:
    """The best window of a text around its matched words (Whoosh's highlighter), or '' when none matches."""
    fragmenter = highlight.ContextFragmenter(maxchars=SNIPPET, surround=LEAD)
    asked = frozenset(terms)
    found = highlight.highlight(text, asked, mark_analyzer(lang, asked), fragmenter, _Marks(), top=1)
    if not found:
        return ""
    flat = found.replace("\n", BREAK).strip()
    start = text.replace("\n", BREAK).find(flat.replace(MARK[0], "").replace(MARK[1], "")[:40])
    return ("…" if start > 0 else "") + flat + ("…" if start >= 0 and start + len(flat) < len(text) - 4 else "")


def _corrected(parsed: ParsedQuery, made: list[Slot]) -> str:
    """The query's words with their spelling corrections (`tramle` -> `trample`)."""
    fixes = {s.text: s.fixed for s in made if s.fixed}
    words = [w for g in parsed.groups for i in g for _, w in query_tokens(i.text)]
    return " ".join(fixes.get(w, w) for w in words)


def _narrow(from_query: tuple[str, ...], option: str | None, allowed: tuple[str, ...], name: str) -> tuple[str, ...]:
    """Values allowed by the query's filters and the option; a value the index lacks is a SearchError."""
    for value in (*from_query, *([option] if option else [])):
        if value not in allowed:
            raise SearchError(f"unknown {name} '{value}'; use one of {', '.join(allowed)}")
    chosen = set(from_query or allowed) & ({option} if option else set(allowed))
    return tuple(v for v in allowed if v in chosen)
