"""Words tables (`# kb-words/1`): everyday words of the cards and rules with their English, read and checked (the
English the rules say, the evidence of the parallel texts winning), and found by a French search."""

from __future__ import annotations

import shutil
from pathlib import Path

from kb.link.load import load
from kb.model import SourceText
from kb.parse.terms import parse_table
from kb.search.index import open_index

CR = """Magic: The Gathering Comprehensive Rules

These rules are effective as of January 16, 2026.

4. Zones

402. Hand

402.3. A player may arrange their hand in any convenient fashion and look at it as much as they want. A player can't
look at the cards in another player's hand.

701. Keyword Actions

701.22. Scry

701.22a To scry N means to look at the top N cards of your library.

Glossary

Hand
A zone. See rule 402, "Hand."

Credits
"""
HEADER = "# kb-words/1\n# mots courants\n"


def _table(text: str, path: str = "c/fr/mots.tsv"):
    return parse_table(SourceText(path, "fr", text.split("\n"), "utf-8", "0"))


def _messages(result) -> list[str]:
    return [f"{d.line}: {d.severity}: {d.message}" for d in result.diagnostics]


def test_words_lines_are_read_and_each_problem_names_its_line():
    found = _table(
        HEADER
        + "regarder | regardez\tlook at\tverb\tcartes : Impulse (VIS) « Regardez » / “Look at”\n"
        + "à la place\tinstead\tadverb\tcartes : x\n"
        + "regarder\tlook\tverb\tx\n"  # listed again
        + "regardez\tsee\tverb\tx\n"  # another line's form
        + "mélanger\tshuffle\tverbe\tx\n"  # unknown kind
        + "piocher\tdraw\tverb\n"  # a column short
        + "revenir | \treturn\tverb\tx\n"  # an empty form
    )
    [look, instead] = found.words
    assert (look.word, look.forms, look.english, look.kind, look.lang) == (
        "regarder",
        ("regarder", "regardez"),
        ("look at",),
        "verb",
        "fr",
    )
    assert look.provenance.startswith("cartes : Impulse") and look.source.line == 3
    assert instead.forms == ("à la place",)
    assert _messages(found) == [
        "7: error: unknown kind 'verbe': write one of verb, noun, adjective, adverb, phrase; this line is left out",
        "8: error: 3 columns where 4 are expected (word, english, kind, provenance, separated by tabs); "
        "this line is left out",
        "9: error: an empty form between '|'; this line is left out",
        "5: error: 'regarder' is listed again (first at line 3); join the English words in one line",
        "6: error: « regardez » is a form of 'regarder' at line 3 too: keep it on one line; this line is left out",
    ]


def _content(tmp_path: Path, words: str) -> Path:
    content = tmp_path / "c"
    (content / "en").mkdir(parents=True)
    (content / "fr").mkdir()
    (content / "en" / "cr.txt").write_text(CR, encoding="utf-8")
    (content / "fr" / "mots.tsv").write_text(HEADER + words, encoding="utf-8")
    return content


def _diags(kb) -> list[str]:
    return [f"{d.line}: {d.severity}: {d.message}" for d in kb.diagnostics if d.path.endswith("mots.tsv")]


def test_an_english_word_the_rules_never_say_is_reported_and_left_out(tmp_path):
    words = "regarder\tlook at | glance\tverb\tx\nbidule\tgizmo\tnoun\tx\n"
    kb = load(_content(tmp_path, words), use_cache=False)
    assert [(w.word, w.english) for w in kb.words] == [("regarder", ("look at",))]
    assert _diags(kb) == [
        "3: warning: the English rules of en:2026-01-16 never say 'glance': check its spelling, or drop it",
        "4: warning: the English rules of en:2026-01-16 never say 'gizmo': check its spelling, or drop it",
        "4: warning: no English word of this line is kept: it is left out",
    ]


def test_the_parallel_texts_win_over_a_words_line_they_contradict(tmp_path):
    from kb.link.lexicon.records import FrenchTerm, Lexicon, LexiconEntry
    from kb.link.lexicon.words import checked_words

    [line] = _table(HEADER + "main\tlook at\tnoun\tx\n").words
    mined = LexiconEntry(
        "hand", "word", (FrenchTerm("main", 169, ("mains",)),), 1.0, 172, (), sources=(("cards", 169),)
    )
    kept, found = checked_words([line], None, (), Lexicon((mined,), 0))
    assert kept == ()
    assert [f"{d.line}: {d.severity}: {d.message}" for d in found] == [
        "3: warning: the parallel texts translate « main » as hand, not look at: the evidence is kept and this line "
        "left out; correct or drop it"
    ]
    agreeing = _table(HEADER + "mains\thand\tnoun\tx\n").words
    assert checked_words(agreeing, None, (), Lexicon((mined,), 0)) == (tuple(agreeing), [])


def test_a_french_everyday_word_finds_the_english_rule_saying_it(tmp_path):
    content = _content(tmp_path, "regarder | regardez\tlook at\tverb\tcartes : x\n")
    kb = load(content, use_cache=False)
    assert _diags(kb) == []
    engine = open_index(content, kb)
    found = engine.search("regarder la main d'un adversaire", lang="en")
    assert found.results[0].id == "402.3"
    assert ("fr", "en", "regarder", ("look at",)) in found.results[0].translated
    shutil.rmtree(content / "fr")
    (content / "fr").mkdir()
    bare = open_index(content, load(content, use_cache=False))
    assert not bare.search("regarder", lang="en").results  # without the table, the word is nothing English


def test_a_phrase_holding_a_word_the_lexicon_translates_is_left_to_that_word(tmp_path):
    from kb.search.entries import Vocabulary
    from kb.search.lexicon import kept_words

    words = (
        ("fr", ("au lieu de",), ("instead of",)),
        ("fr", ("au début de",), ("at the beginning of",)),  # « début » is `beginning` already
        ("fr", ("regarder",), ("look at",)),
    )
    names = (("fr", ("Début de combat",), "Beginning of Combat"),)
    kept = kept_words(Vocabulary(None, names, (), words))
    assert [forms[0] for _, forms, _ in kept] == ["au lieu de", "regarder"]


def test_kb_show_says_an_everyday_word_is_no_term_and_how_search_reads_it(tmp_path):
    from click.testing import CliRunner

    from kb.cli import main

    content = _content(tmp_path, "regarder | regardez\tlook at\tverb\tcartes : x\n")
    shown = CliRunner().invoke(main, ["show", "Regardez", "--content", str(content)])
    assert shown.exit_code == 1
    said = " ".join(shown.output.split())
    assert (
        "no rule number, term of the rules or card name matches 'Regardez': « regarder » is an everyday word, which "
        "kb's words table reads as look at (not an official translation; " in said
    )
    assert "mots.tsv:3): kb search 'Regardez' finds the rules saying it" in said
