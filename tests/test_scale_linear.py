"""`kb check` stays linear at scale: work counted (never timed) for an input of size N and 2N.

Each test reproduces a place that was quadratic (issue: reliability and scale) and counts what grew with the
square of the input there: elements put into sets, passes over a list, characters folded or copied, Python calls.
`bench/bench_scale.py` measures the times and memory these counts stand for.
"""

from __future__ import annotations

import sys
import tracemalloc
from pathlib import Path

import kb.link.rules as link_rules_module
import kb.parse.faq.parse as faq_parse
from kb.link import cache
from kb.link.cards import _Names, scan_names
from kb.link.lineage import match_edition
from kb.link.load import load_fresh
from kb.model import Rule, SourceRef
from kb.model.records import FrozenMap
from kb.parse.faq.blocks import Para, TextBuilder
from kb.parse.faq.parse import HEAD_CHARS, looks_like_faq

from .conftest import write

DOUBLING = 2.3
"""Doubling the input may at most multiply the work by this (the benchmark's target for time)."""


def rules_content(root: Path, n: int) -> Path:
    """A French and an English CR of `n` numbered rules each (the French one is aligned to the English)."""
    for lang, word in (("fr", "règle"), ("en", "rule")):
        parts = ["1. Section one\n\n"]
        for k in range(n):
            head, sub = 100 + k // 10, k % 10 + 1
            if sub == 1:
                parts.append(f"{head}. Title {head}\n\n")
            parts.append(f"{head}.{sub}. The player draws {k} cards. See {word} {head}.1.\n\n")
        write(root / lang / f"cr-{lang}.txt", "".join(parts))
    return root


def faq_content(root: Path, n: int) -> Path:
    """A French FAQ of `n` card blocks, each with a ruling naming an earlier card."""
    head = (
        "Foire aux questions : Synthèse\n\nDocument modifié pour la dernière fois le 17 mars 2006\n-----\n\n"
        "NOTES GÉNÉRALES\n\nMécanique\n\nUne note générale.\n-----\n\nNOTES SUR DES CARTES SPÉCIFIQUES\n\n"
    )
    blocks = [head]
    for i in range(n):
        blocks.append(
            f"\nCarte Numéro {i}\n{{{1 + i % 5}}}{{G}}\nCréature : elfe\n2/2\nQuand elle arrive, piochez.\n\n"
            f"* Si la Carte Numéro {i // 2} quitte le jeu, piochez une carte. Voir la règle 120.1.\n-----\n"
        )
    write(root / "fr" / "faq-synthese.txt", "".join(blocks))
    return root


def traced(call):
    """`call()`'s result, with the memory it left allocated and its peak (tracemalloc)."""
    tracemalloc.start()
    try:
        found = call()
        return found, *tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()


def python_calls(content: Path) -> int:
    """Python function calls (generator steps included) made while loading `content`."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(profile)
    try:
        load_fresh(content)
    finally:
        sys.setprofile(None)
    return count


def test_alignment_builds_its_sets_once_not_per_rule(tmp_path, monkeypatch):
    built = [0]

    def counting_set(*args):
        found = frozenset(*args)  # not `set`: that name is the one being counted
        built[0] += len(found)
        return {*found}

    monkeypatch.setattr(link_rules_module, "set", counting_set, raising=False)
    sizes = {}
    for n in (200, 400):
        built[0] = 0
        kb = load_fresh(rules_content(tmp_path / str(n), n))
        assert len(kb.links.alignment.aligned) >= n  # the French rules were aligned: the sets were used
        sizes[n] = built[0]
    assert sizes[400] <= DOUBLING * sizes[200], sizes


def test_faq_card_ids_are_made_unique_against_one_growing_set(tmp_path, monkeypatch):
    seen: list[set[str]] = []
    original = faq_parse.unique

    def recording_unique(base: str, taken: set[str]) -> str:
        seen.append(taken)  # kept alive, so that two sets cannot share an id()
        return original(base, taken)

    monkeypatch.setattr(faq_parse, "unique", recording_unique)
    kb = load_fresh(faq_content(tmp_path, 50))
    assert len(kb.cards) == 50 and len(seen) == 50
    assert all(taken is seen[0] for taken in seen)
    assert len(seen[0]) == 50


def test_looks_like_faq_folds_only_the_start_of_a_giant_line(monkeypatch):
    folded = [0]
    original = faq_parse.fold

    def counting_fold(text: str) -> str:
        folded[0] += len(text)
        return original(text)

    monkeypatch.setattr(faq_parse, "fold", counting_fold)
    giant = "100.1. " + "le joueur pioche une carte " * 40_000
    assert not looks_like_faq(["100. Title", "", giant, "", "100.2. Another rule."])
    assert folded[0] <= 5 * HEAD_CHARS
    assert looks_like_faq(["Foire aux questions : Dissension", "", "x" * 10_000])


class CountingList(list):
    """A list that counts the passes made over it."""

    passes = 0

    def __iter__(self):
        CountingList.passes += 1
        return super().__iter__()


def _rule(number: str, parent: str) -> Rule:
    return Rule("en/x", "en", number, "numbered", "", f"Text of {number}.", (), parent, (), (), SourceRef("x", 1))


def test_match_edition_groups_an_extract_without_headings_in_one_pass():
    # An extract of numbered rules only: each parent it lacks is scored once, from rules grouped in one pass.
    extract = CountingList(_rule(f"{100 + k}.1", f"{100 + k}") for k in range(300))
    edition = [_rule(f"{100 + k}.1", f"{100 + k}") for k in range(300)]
    CountingList.passes = 0
    ranked = match_edition(extract, [("en:2020", edition)])
    assert ranked[0][0] == "en:2020"
    assert CountingList.passes <= 3


def test_a_card_mention_is_checked_against_its_own_names_only():
    class NoScan(dict):
        """Card names that must be looked up, never scanned whole per mention."""

        def values(self):
            raise AssertionError("scanned every card name")

        def items(self):
            raise AssertionError("scanned every card name")

    ids = NoScan({"ombre rampante": "ombre-rampante", "kalo mirta": "kalo-mirta"})
    names = _Names(ids, {"ombre": 2, "kalo": 2}, {"ombre-rampante": ["ombre rampante"], "kalo-mirta": ["kalo mirta"]})
    refs, mentions = scan_names("Si l'Ombre quitte le jeu, son contrôleur pioche.", names, own="ombre-rampante")
    assert refs == ["ombre-rampante"] and mentions == []


def test_a_long_faq_ruling_is_built_without_copying_its_text_per_line():
    copied = [0]

    class Line(str):
        """A source line that counts the characters copied when text is added to it with `+`."""

        def __radd__(self, other: str) -> str:
            copied[0] += len(other)
            return str.__add__(other, self)

    lines = tuple(Line(f"la ligne {i} de la décision") for i in range(5_000))
    builder = TextBuilder()
    builder.add(Para(1, lines, False, False))
    assert builder.text == " ".join(lines)
    assert builder.pairs()[1] == (len(lines[0]) + 1, 2)
    assert copied[0] <= 2 * len(builder.text)


def test_the_cache_pickles_frozen_maps_without_a_dict_copy_of_each(tmp_path, monkeypatch):
    kb = load_fresh(faq_content(tmp_path / "content", 20))

    def copying_reduce(self):
        raise AssertionError("a dict copy of a FrozenMap, held by the pickler until it ends")

    monkeypatch.setattr(FrozenMap, "__reduce__", copying_reduce)
    cache.write(tmp_path / "kb.pickle", kb)
    back = cache.read(tmp_path / "kb.pickle")
    assert back == kb
    assert type(back.cards[0].names) is FrozenMap and back.cards[0].names == kb.cards[0].names


def test_the_cache_writes_its_parts_apart_and_reads_back_the_same_knowledge_base(tmp_path):
    # One pickler for the whole knowledge base held as much again as the knowledge base until it ended.
    kb = load_fresh(rules_content(tmp_path / "content", 3000))
    cache.write(tmp_path / "kb.pickle", kb)
    tracemalloc.start()
    try:
        back = cache.read(tmp_path / "kb.pickle")
        size = tracemalloc.get_traced_memory()[0]  # the knowledge base, as read
        tracemalloc.reset_peak()
        cache.write(tmp_path / "again.pickle", back)
        overhead = tracemalloc.get_traced_memory()[1] - size
    finally:
        tracemalloc.stop()
    assert back == kb and back.links == kb.links
    editions = [r for ed in back.links.editions for r in ed.rules.values()]
    assert all(a is b for a, b in zip(back.rules, editions, strict=True))  # one object per rule, as loaded
    # 0.17x when the alignment (a pair per rule) was one piece and a piece 1,024 items: 0.05x now
    assert overhead <= size / 8, f"writing took {overhead / size:.2f}x the knowledge base"


def test_loading_makes_a_linear_number_of_python_calls(tmp_path):
    for make, n in ((rules_content, 300), (faq_content, 150)):
        small = python_calls(make(tmp_path / f"{make.__name__}-{n}", n))
        large = python_calls(make(tmp_path / f"{make.__name__}-{2 * n}", 2 * n))
        assert large <= DOUBLING * small, (make.__name__, small, large)


def test_one_giant_rule_is_parsed_and_linked_in_a_few_copies_of_its_text(tmp_path):
    # A rule whose text is the whole file: one line, with a ’ (so two bytes a character once decoded).
    body = " ".join(f"le joueur pioche l’étape {i}." for i in range(40_000))
    path = write(tmp_path / "en" / "cr-giant.txt", f"100.1. A rule.\n\n100.2. {body}\n\n100.3. See rule 100.2.\n")
    size = path.stat().st_size
    tracemalloc.start()
    try:
        kb = load_fresh(tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(kb.rules) == 3
    assert peak <= 8 * size, f"peak {peak / size:.1f}x the file"


def _index_held(root: Path):
    """The search index data of a content folder, and what building it holds (tracemalloc): close its payloads."""
    from kb.search.index import build_data, entries

    kb = load_fresh(root)
    build_data(list(entries(kb))[:50], kb.lexicon).payloads.close()  # the analysis' modules imported first
    tracemalloc.start()
    try:
        data = build_data(entries(kb), kb.lexicon)
        return data, tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()


def test_the_search_index_holds_neither_the_entries_nor_their_payloads(tmp_path):
    # The index kept every entry and every document's payload (texts, token spans) in memory until it was written:
    # 48x this content. Now the entries are read one at a time and the payloads go to a temporary file.
    root = rules_content(tmp_path / "content", 3000)
    size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
    data, held = _index_held(root)
    try:
        assert len(data.payloads) == len(data.docs) == 1 + 300 + 3000  # a document per rule number (section, titles)
        first = next(iter(data.payloads))
        assert first.texts and set(first.spans) == set(data.docs[0].langs)
        assert held <= 38 * size, f"the index holds {held / size:.1f}x the content"
    finally:
        data.payloads.close()


def test_the_site_index_writes_a_giant_text_without_a_list_of_its_token_spans(tmp_path):
    # Its token spans (two numbers a token) became one list of Python ints to be written as JSON: 36 bytes a number.
    from kb.search.index import build_data, entries
    from kb.search.static import write_static

    body = " ".join(f"le joueur pioche l’étape {i}." for i in range(40_000))
    path = write(tmp_path / "en" / "cr-giant.txt", f"100.1. A rule.\n\n100.2. {body}\n\n100.3. See rule 100.2.\n")
    size = path.stat().st_size
    data = build_data(entries(load_fresh(tmp_path)))
    tracemalloc.start()
    try:
        write_static(tmp_path / "search", data, lambda n: f"page-{n}")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        data.payloads.close()
    # 37.8x with a list of its spans, 11.9x with its text copied whole three times (JSON, then sliced), 8.4x now
    assert peak <= 10 * size, f"peak {peak / size:.1f}x the file"


def test_the_site_plan_leaves_each_card_page_s_rulings_to_be_made_as_it_is_rendered(tmp_path, monkeypatch):
    # Every card page's sides, rulings and keywords were made when the site was planned and held to the end of the
    # build: 35 MB for 5 MB of FAQ, more than the pages' rendering (30.8x this content). Then a job and its small
    # context per page were still held (7.6x). Now a card page's job is made as it is written.
    import kb.site.pages as pages
    from kb.site.gather import gather

    root = faq_content(tmp_path / "content", 1500)
    size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
    made = []
    rows = pages.ruling_rows
    monkeypatch.setattr(pages, "ruling_rows", lambda data, card: made.append(card.id) or rows(data, card))
    data = gather(load_fresh(root))
    tracemalloc.start()
    try:
        jobs = pages.plan(data)
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert not made
    cards = [job for job in jobs if job.template == "card.html"]
    assert len(cards) == 2 * 1500  # each card in both interface trees
    context = cards[0].values()
    assert made == [context["card"].id] and {"sides", "rulings", "keywords"} <= set(context)
    assert held <= 2 * size, f"the plan holds {held / size:.1f}x the content"  # the card index and FAQ pages
    assert len(jobs) == sum(1 for _ in jobs)  # counted without being made


def test_an_faq_is_loaded_without_a_string_per_line_or_a_second_copy_of_its_cards(tmp_path):
    # Its lines were all held as strings while it was parsed, its paragraphs as a list; the merge's working copy of
    # every card was kept while the rulings were linked; every card held two equal maps of its name, every record
    # its own empty map. Loading this FAQ held 15.8x it and peaked at 30.7x; now 10.1x and 22.7x.
    root = faq_content(tmp_path / "content", 3000)
    size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
    load_fresh(root)  # the modules imported first
    tracemalloc.start()
    try:
        kb = load_fresh(root)
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(kb.cards) == 3000 and len(kb.rulings) == 3000
    card = kb.cards[0]
    assert card.names is card.faces[0].names and card.oracle is kb.rulings[0].citations
    assert held <= 12 * size and peak <= 26 * size, f"held {held / size:.1f}x, peak {peak / size:.1f}x the content"


def test_a_giant_text_s_postings_are_made_without_a_python_int_per_word(tmp_path):
    # Each word's places in a document were found by sorting every place as a Python int (36 bytes each), and a
    # document's token spans copied to bytes before being spilled: building this index peaked at 10.5x the file.
    # Now the places go to an array per word and the spans are spilled from their array: 6.1x.
    from kb.search.index import build_data, entries

    words = "le joueur pioche une carte de sa bibliothèque pendant l’étape de pioche puis défausse"
    body = " ".join(words for _ in range(200_000 // 14))
    path = write(tmp_path / "en" / "cr-giant.txt", f"100.1. A rule.\n\n100.2. {body}.\n\n100.3. See rule 100.2.\n")
    size = path.stat().st_size
    kb = load_fresh(tmp_path)
    build_data(entries(kb)).payloads.close()  # the analysis' modules imported first
    tracemalloc.start()
    try:
        data = build_data(entries(kb))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    try:
        (doc,) = [d for d in data.docs if d.key.endswith("100.2")]
        assert data.lang_index["en"].terms and doc.bounds["en"][3] - doc.bounds["en"][2] > 200_000
    finally:
        data.payloads.close()
    assert peak <= 8 * size, f"peak {peak / size:.1f}x the file"


def test_the_search_index_of_many_cards_holds_one_array_of_field_bounds(tmp_path):
    # Each document held a dict and an array of its field bounds, and an empty list when it cites no rule: the index
    # of this FAQ held 20.0x it. Now one array holds every document's bounds: 16.6x.
    root = faq_content(tmp_path / "content", 3000)
    size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
    data, held = _index_held(root)
    data.payloads.close()
    first, second = data.docs[0], data.docs[1]
    assert first.fields is second.fields and second.at == first.at + 6 * len(first.langs)
    assert held <= 18 * size, f"the index holds {held / size:.1f}x the content"


def test_a_giant_rule_s_short_label_reads_only_its_first_words():
    # The label of a rule without a title (the contents of a long page) split the whole text into words: a giant
    # rule's 5 MB made a list of 900,000 strings (50 MB) to show eight of them.
    from kb.site.gather import short_label

    body = " ".join(f"le joueur pioche l’étape {i}." for i in range(40_000))
    rule = Rule("d", "fr", "100.2", "numbered", "", body, (), "100", (), (), SourceRef("cr.txt", 3))
    label, _, peak = traced(lambda: short_label(rule))
    assert label == "le joueur pioche l’étape 0. le joueur pioche…"
    assert peak < len(body) / 20, f"peak {peak / len(body):.2f}x the text"
    one_line = Rule("d", "fr", "100.3", "numbered", "", "  Court texte.\nSuite ici.", (), "100", (), (),
                    SourceRef("cr.txt", 5))  # fmt: skip
    assert short_label(one_line) == "Court texte."
    assert short_label(one_line, words=1) == "Court…"
    assert short_label(Rule("d", "fr", "100.4", "numbered", "", "", (), "100", (), (), SourceRef("cr.txt", 7))) == ""


def test_writing_the_cache_leaves_the_texts_as_they_were(tmp_path):
    # Pickling a string that is not ASCII gives it a UTF-8 copy that it keeps for as long as it lives: after the
    # cache was written, every French text of the knowledge base took half as much memory again (5 MB more for 5 MB
    # of French in `kb build`, which writes the cache once the pages are written).
    kb = load_fresh(rules_content(tmp_path / "content", 200))
    texts = [t for r in kb.rules for t in (r.text, r.title, *r.examples) if not t.isascii()]
    assert len(texts) >= 200
    sizes = [sys.getsizeof(t) for t in texts]
    cache.write(tmp_path / "kb.pickle", kb)
    assert [sys.getsizeof(t) for t in texts] == sizes
    back = cache.read(tmp_path / "kb.pickle")
    assert back == kb and back.links == kb.links
    assert [r.text for r in back.rules] == [r.text for r in kb.rules]


def test_the_site_data_holds_no_rule_page_s_rows(tmp_path):
    # Every rule page's rows (a row per number: its cells, who cites it), each number's preview and each page's table
    # of contents were made when the site was gathered and held to the end of the build: 19 MB for 5 MB of rules.
    # Now a page's rows are made as it is rendered and a preview when a reference asks for it.
    from kb.site.gather import Row, gather

    root = rules_content(tmp_path / "content", 3000)
    size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
    kb = load_fresh(root)
    gather(kb)  # the site's modules imported first
    data, held, _ = traced(lambda: gather(kb))
    assert held <= 3 * size, f"the site data holds {held / size:.1f}x the content"  # maps of the numbers
    page = next(p for p in data.rule_pages if p.head == "105")
    assert page.numbers == ("105", *(f"105.{k}" for k in range(1, 11)))
    assert all(type(row) is Row for row in page.rows) and [row.number for row in page.rows] == list(page.numbers)
    assert page.rows[2].cited_by == {"fr": (), "en": ()} and page.rows[1].cited_by["en"][:2] == ("105.2", "105.3")
    assert page.rows[0].langs == ("fr", "en")
    assert data.texts[("fr", "105.2")] == ("105.2", "The player draws 51 cards. See règle 105.1.")


def test_references_are_stored_once_per_target_and_not_at_all_for_a_rule_citing_nothing(tmp_path):
    # Every rule had an entry in the references (a key and an empty tuple for one citing nothing) and a record per
    # reference: 2.9 MB for 5 MB of rules, where most references cite the same few rules.
    kb = load_fresh(rules_content(tmp_path / "content", 300))
    en = [r for r in kb.rules if r.lang == "en"]
    cited = [ref for r in en for ref in kb.references(r)]
    assert len(cited) == 300 - 30  # every numbered rule but the first of each head cites it
    assert len({id(ref) for ref in cited}) == len({ref.target for ref in cited}) == 30
    silent = next(r for r in en if not r.references)
    assert kb.references(silent) == () and (kb.edition_of(silent).id, silent.number) not in kb.links.references


def test_the_site_index_writes_a_common_word_s_postings_without_lists_of_them(tmp_path):
    # A shard of postings was made whole as lists of Python numbers, then as one JSON text: a word of every card
    # (`piochez`) made the index's process 8 MB larger for 5 MB of FAQ (11.5x this content at the peak).
    from kb.search.index import build_data, entries
    from kb.search.static import write_static

    root = faq_content(tmp_path / "content", 3000)
    size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
    data = build_data(entries(load_fresh(root)))
    try:
        _, _, peak = traced(lambda: write_static(tmp_path / "search", data, lambda n: f"page-{n}"))
    finally:
        data.payloads.close()
    assert peak <= 9 * size, f"peak {peak / size:.1f}x the content"  # 7.4x now


def test_rule_numbers_and_equal_lists_of_them_are_kept_once(tmp_path):
    # Each citing rule, each child list and each language held its own copy of a number: twenty copies of `500.1`
    # in 5 MB of rules, 2 MB in all; and the French and English rules each their own equal tuple of children.
    kb = load_fresh(rules_content(tmp_path / "content", 300))
    fr = {r.number: r for r in kb.rules if r.lang == "fr"}
    en = {r.number: r for r in kb.rules if r.lang == "en"}
    assert all(fr[n].number is en[n].number for n in en)
    assert fr["105"].children is en["105"].children and fr["105.3"].parent is en["105"].number
    citing = [r for r in en.values() if r.references == ("105.1",)]
    assert len(citing) == 9 and all(r.references is citing[0].references for r in citing)
    assert citing[0].references[0] is en["105.1"].number


def test_the_pages_addresses_are_sent_as_they_are_made(tmp_path):
    # The feeding thread made every address of the site (a map of them per kind) and pickled them in one message,
    # in the pages' process, while the pages rendered: 4.7 MB at its peak for 5 MB of rules. Now each address is
    # made as it is sent, a batch at a time, and the index's process makes the maps.
    import pickle

    from kb.search.feed import received_rows, send_rows
    from kb.site.gather import gather
    from kb.site.searchpages import Pages, page_items, pages_of

    data = gather(load_fresh(rules_content(tmp_path / "content", 3000)))

    class Conn:
        def __init__(self, kept: list | None = None) -> None:
            self.kept = kept

        def send_bytes(self, message: bytes) -> None:
            if self.kept is not None:
                self.kept.append(message)

    _, _, peak = traced(lambda: send_rows(Conn(), page_items(data)))
    _, _, whole = traced(lambda: pickle.dumps(pages_of(data)))
    assert peak <= whole / 5, f"sending took {peak} bytes, the maps pickled {whole}"  # 1/9.5 here
    sent: list[bytes] = []
    send_rows(Conn(sent), page_items(data))

    class Received:
        def recv_bytes(self) -> bytes:
            return sent.pop(0)

    pages = Pages.of(received_rows(Received(), "not sent"))
    assert pages == pages_of(data) and len(pages.rules) >= 1 + 300 + 3000
    assert pages.rules["105.2"] == "rules/105.html#105.2" and pages.rules["1"] == "contents.html#1"


def test_the_build_s_cache_is_written_by_a_process_forked_once_the_content_is_loaded(tmp_path, monkeypatch):
    # Written by the pages' process once the pages were, the cache's pickling took memory in pieces the rendering
    # had left behind: the build's peak (3 MB more on 5 MB of FAQ). Now a process forked after the load writes it.
    import os

    from kb.link.load import load_deferred
    from kb.sources import content_hash

    content = rules_content(tmp_path / "content", 30)
    writers = tmp_path / "writers"
    writing = cache.write

    def write_and_say(path: Path, kb) -> None:
        writing(path, kb)
        with writers.open("a") as f:
            f.write(f"{os.getpid()}\n")

    monkeypatch.setattr(cache, "write", write_and_say)
    kb, keep = load_deferred(content)
    assert keep is not None
    keep()
    assert writers.read_text().split() != [str(os.getpid())] and len(writers.read_text().split()) == 1
    assert cache.read(cache.cache_file(content, content_hash(content))) == kb
    assert load_deferred(content)[1] is None  # read back: nothing to write


def test_writing_the_search_index_runs_no_full_collection_per_common_term(tmp_path):
    # A common term's postings become a list per document when written: with the collector on, every few thousand of
    # them made it scan every live object again (40 MB of rules: 66 full passes, 12 s of a 58 s index, against 33 and
    # 3.4 s at 20 MB). The lists hold only numbers, so the index is written with the collector paused.
    import gc

    from kb.search import db
    from kb.search.index import build_data, entries

    kb = load_fresh(rules_content(tmp_path / "content", 6000))
    data = build_data(entries(kb), kb.lexicon)
    full = []

    def count(phase, info):
        if phase == "start" and info["generation"] == 2:
            full.append(1)

    gc.collect()
    before = gc.get_threshold()
    gc.set_threshold(700, 1, 1)  # a full pass as often as the collector allows: a few thousand lists are enough
    gc.callbacks.append(count)
    try:
        db.write(tmp_path / "search.sqlite", data).close()
    finally:
        gc.callbacks.remove(count)
        gc.set_threshold(*before)
        data.payloads.close()
    assert gc.isenabled()
    assert not full, f"{len(full)} full collections while the index was written"
