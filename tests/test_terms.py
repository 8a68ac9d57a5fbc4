"""Vocabulary tables: the terminology and the paraphrase tables read, checked and placed on today's rules."""

from __future__ import annotations

import pytest

from kb.link.load import load
from kb.model import SourceText
from kb.parse.terms import parse_table

CR = """Magic: The Gathering Comprehensive Rules

These rules are effective as of January 16, 2026.

1. Game Concepts

121. Drawing a Card

121.1. A player draws a card by putting the top card of their library into their hand.

405. Stack

405.1. When a spell is cast, the physical card is put on the stack.

702. Keyword Abilities

702.19. Trample

702.19a Trample is a static ability that modifies the rules for assigning an attacking creature's combat damage.

Glossary

Stack
A zone. See rule 405, "Stack."

Trample
A keyword ability that lets an attacking creature assign excess combat damage. See rule 702.19.

Mana Burn (Obsolete)
Older rules caused unspent mana to deal damage. See rule 106.4.

Credits
"""
FRENCH = """Règles complètes de Magic: The Gathering

121.1.

Un joueur pioche une carte en mettant la carte du dessus de sa bibliothèque dans sa main. Cela ne passe pas par la pile.
"""
HEADER = "# kb-terminology/1\n# a comment\n\n"


def _table(text: str, lang: str = "fr", path: str = "c/fr/t.tsv"):
    return parse_table(SourceText(path, lang, text.split("\n"), "utf-8", "0"))


def _messages(result) -> list[str]:
    return [f"{d.line}: {d.severity}: {d.message}" for d in result.diagnostics]


def test_a_terminology_line_gives_a_concept_its_terms_the_first_its_heading():
    found = _table(HEADER + "rule:405\tStack\tPile | la pile\tcurated\tusual French of the game\n")
    [term] = found.terms
    assert (term.concept, term.number, term.english, term.names, term.heading) == (
        "rule",
        "405",
        "Stack",
        ("Pile", "la pile"),
        "Pile",
    )
    assert (term.lang, term.provenance, str(term.source)) == ("fr", "curated", "c/fr/t.tsv:4")
    assert found.diagnostics == []


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "rule:405\tStack\tPile\tcurated",
            "4 columns where 5 are expected (concept, english, terms, provenance, source",
        ),
        ("rule:405\tStack\t\tcurated\tx", "empty column 'terms'"),
        ("rul:405\tStack\tPile\tcurated\tx", "unknown concept 'rul:405': write section:N, rule:NUMBER or glossary"),
        ("glossary:3\tStack\tPile\tcurated\tx", "unknown concept 'glossary:3'"),
        ("section:12\tStack\tPile\tcurated\tx", "'12' is not a section number"),
        ("rule:4x5\tStack\tPile\tcurated\tx", "'4x5' is not a rule number"),
        ("rule:405\tStack\tPile\tofficial\tx", "unknown provenance 'official': write attested or curated"),
        ("rule:405\tStack\tPile | \tcurated\tx", "an empty term between '|'"),
    ],
)
def test_a_malformed_line_is_an_error_naming_it_and_is_left_out(line, message):
    found = _table(HEADER + line + "\nrule:121\tDrawing a Card\tPiocher une carte\tcurated\tx\n")
    [diag] = found.diagnostics
    assert (diag.severity, diag.path, diag.line) == ("error", "c/fr/t.tsv", 4)
    assert message in diag.message and diag.message.endswith("this line is left out")
    assert [t.english for t in found.terms] == ["Drawing a Card"]


def test_a_concept_listed_twice_is_an_error_naming_both_lines():
    found = _table(HEADER + "glossary\tStack\tPile\tcurated\tx\nglossary\tstack\tLa pile\tcurated\tx\n")
    assert _messages(found) == ["5: error: stack is listed again (first at line 4); keep one line"]


def test_a_term_two_concepts_claim_is_a_warning_unless_the_game_uses_one_word_for_both():
    two = _table(
        HEADER + "glossary\tFirst Strike\tInitiative\tcurated\tx\nglossary\tInitiative\tInitiative\tcurated\tx\n"
    )
    assert _messages(two) == [
        "5: warning: « Initiative » names Initiative here and First Strike at line 4: give each concept its own "
        "term, or say 'homonym' (or 'same concept') in a line's source when one word names both"
    ]
    homonyms = HEADER + "glossary\tFirst Strike\tInitiative\tcurated\thomonym of Initiative\n"
    assert _table(homonyms + "glossary\tInitiative\tInitiative\tcurated\thomonym\n").diagnostics == []
    forms = HEADER + "rule:308\tKindreds\tClans\tcurated\tx\nglossary\tKindred\tClans\tcurated\tx\n"
    forms += (
        "glossary\tRestart the Game\tRecommencer\tcurated\tx\nglossary\tRestarting the Game\tRecommencer\tcurated\tx\n"
    )
    assert _table(forms).diagnostics == []  # one concept's forms


def test_paraphrase_lines_read_and_checked():
    found = _table(
        "# kb-paraphrases/1\nkill\tdestroy | dies\tverb\tplayers' usage\nkill\tsacrifice\tverb\tx\nx\ty\tslang\tz\n",
        "en",
        "c/en/p.tsv",
    )
    [kill] = found.paraphrases
    assert (kill.players, kill.rules, kill.kind, kill.lang) == ("kill", ("destroy", "dies"), "verb", "en")
    assert _messages(found) == [
        "4: error: unknown kind 'slang': write one of verb, opposite, nickname, old-wording, anglicism, synonym; "
        "this line is left out",
        "3: error: 'kill' is listed again (first at line 2); join the wordings in one line",
    ]


def _content(tmp_path, table: str, french: bool = True):
    (tmp_path / "c" / "en").mkdir(parents=True)
    (tmp_path / "c" / "fr").mkdir()
    (tmp_path / "c" / "en" / "cr.txt").write_text(CR, encoding="utf-8")
    if french:
        (tmp_path / "c" / "fr" / "cr-121.txt").write_text(FRENCH, encoding="utf-8")
    (tmp_path / "c" / "fr" / "terminologie.tsv").write_text(HEADER + table, encoding="utf-8")
    return tmp_path / "c"


def _diags(kb, path="c/fr/terminologie.tsv"):
    return [f"{d.line}: {d.severity}: {d.message}" for d in kb.diagnostics if d.path == path]


def test_terms_are_placed_on_todays_rules_and_glossary(tmp_path):
    table = "rule:405\tStack\tPile\tcurated\tx\n"
    table += "glossary\tMana Burn (Obsolete)\tBrûlure de mana\tcurated\tx\n"
    table += "section:1\tGame Concepts\tConcepts du jeu\tcurated\tx\n"
    kb = load(_content(tmp_path, table), use_cache=False)
    assert kb.names["fr:rule:405"].heading == "Pile"
    assert kb.names["fr:glossary:mana burn"].heading == "Brûlure de mana"  # the glossary's retired term
    assert kb.names["fr:section:1"].names == ("Concepts du jeu",)
    assert _diags(kb) == []


def test_a_renumbered_rule_is_found_by_its_heading_and_a_missing_one_is_reported_never_guessed(tmp_path):
    table = "rule:120\tDrawing a Card\tPiocher une carte\tcurated\tx\n"
    table += "".join(f"glossary\tGone {k}\tParti {k}\tcurated\tx\n" for k in range(7))
    kb = load(_content(tmp_path, table), use_cache=False)
    assert kb.names["fr:rule:121"].heading == "Piocher une carte"
    assert _diags(kb) == [
        "4: warning: Drawing a Card is rule 121 in en:2026-01-16, not 120; write rule:121",
        "5: warning: 7 lines name concepts en:2026-01-16 lacks, and are not used: Gone 0 (line 5), Gone 1 (line 6), "
        "Gone 2 (line 7), Gone 3 (line 8), Gone 4 (line 9) and 2 more",
    ]


def test_a_name_a_cited_french_text_prints_is_attested_and_a_false_claim_is_reported(tmp_path):
    table = "rule:405\tStack\tPile\tcurated\tfrench extract c/fr/cr-121.txt:5\n"
    table += "glossary\tStack\tPile\tcurated\tusual French\n"  # one concept, one heading: attested alike
    table += "rule:121\tDrawing a Card\tPiocher une carte\tattested\tc/fr/cr-121.txt:5\n"  # « pioche une carte »
    table += "glossary\tTrample\tPiétinement\tattested\tc/fr/cr-121.txt:5\n"
    kb = load(_content(tmp_path, table), use_cache=False)
    stack, drawing, trample = kb.names["fr:rule:405"], kb.names["fr:rule:121"], kb.names["fr:glossary:trample"]
    assert (stack.provenance, [(e.source, e.french, e.example) for e in stack.evidence]) == (
        "attested",
        [("file", "Pile", "fr/cr-121.txt:5")],
    )
    assert kb.names["fr:glossary:stack"].provenance == "attested"
    assert drawing.provenance == "attested"
    assert trample.provenance == "curated"  # the claim is checked, not taken on trust
    assert _diags(kb) == [
        "7: warning: attested by fr/cr-121.txt, but that file prints none of « Piétinement »: say curated, or fix it"
    ]


def test_without_english_rules_the_terminology_is_not_used_and_kb_says_so(tmp_path):
    content = _content(tmp_path, "rule:405\tStack\tPile\tcurated\tx\n")
    (content / "en" / "cr.txt").unlink()
    (content / "fr" / "cr-121.txt").write_text(FRENCH, encoding="utf-8")
    kb = load(content, use_cache=False)
    assert kb.names == {}
    assert "4: note: no English rules are loaded: the terminology names their concepts, and is not used" in _diags(kb)


def test_a_tsv_file_that_is_no_vocabulary_table_is_an_error(tmp_path):
    content = _content(tmp_path, "")
    (content / "fr" / "autre.tsv").write_text("a\tb\n", encoding="utf-8")
    kb = load(content, use_cache=False)
    [message] = _diags(kb, "c/fr/autre.tsv")
    assert message.startswith("1: error: a .tsv file must be a vocabulary table: its first line '# kb-terminology/1'")


def test_the_bundled_terminology_names_every_concept_of_todays_rules_and_checks_clean(bundled_kb):
    en = bundled_kb.primary["en"]
    glossary = {g.term for g in bundled_kb.glossary if g.document in en.documents}
    titled = {
        n for n, r in en.rules.items() if r.heading and (r.kind in ("section", "rule") or n[:3] in ("701", "702"))
    }
    named = {k.split(":", 2)[2] for k in bundled_kb.names if not k.startswith("fr:glossary:")}
    assert titled - named == set()
    assert len([k for k in bundled_kb.names if k.startswith("fr:glossary:")]) == len(glossary)
    assert not [
        d for d in bundled_kb.diagnostics if d.path.endswith("terminologie-regles.tsv") and d.severity != "note"
    ]
    assert bundled_kb.names["fr:glossary:stack"].provenance == "attested"
    assert bundled_kb.names["fr:rule:702.19"].evidence[0].source == "cards"


def _show(content, *args):
    from click.testing import CliRunner

    from kb.cli import main

    return CliRunner().invoke(main, ["show", *args, "--content", str(content)])


def test_kb_show_a_term_in_either_language_gives_its_entry_names_and_defining_rule(tmp_path):
    table = "glossary\tStack\tPile\tcurated\tusual French\nrule:405\tStack\tPile\tcurated\tusual French\n"
    table += "glossary\tTrample\tPiétinement\tcurated\tusual French\n"
    content = _content(tmp_path, table)
    unknown = _show(content, "la", "PIOCHE")  # no term, with its article or without, and no card
    assert unknown.exit_code == 1
    assert "no rule number, term of the rules or card name matches 'la PIOCHE'" in unknown.output
    shown = _show(content, "pile")
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    assert lines[0] == "Stack · FR Pile*"
    assert lines[1].startswith("glossary [en] c/en/cr.txt:") and lines[2] == 'A zone. See rule 405, "Stack."'
    said = " ".join(shown.output.split())  # as wrapped to the terminal's width
    assert lines[3].startswith("* FR Pile: ")
    assert "* FR Pile: kb's terminology, the usual term of the game, not an official translation" in said
    assert "terminologie.tsv:4, c/fr/terminologie.tsv:5)" in said  # the glossary's line and the rule's: one line
    assert "405 [en] c/en/cr.txt:" in shown.output and "Subrules: 405.1" in shown.output
    assert _show(content, "Piétinement").output.splitlines()[0] == "Trample · FR Piétinement*"
    assert _show(content, "trample").output.splitlines()[0] == "Trample · FR Piétinement*"


def _piles(tmp_path):
    """Content whose glossary has both Pile (French « Tas ») and Stack (French « Pile »), and Trample."""
    table = "glossary\tStack\tPile\tcurated\tusual French\nglossary\tPile\tTas\tcurated\tusual French\n"
    table += "glossary\tTrample\tPiétinement\tcurated\tusual French\n"
    content = _content(tmp_path, table)
    piles = CR.replace("Stack\nA zone.", "Pile\nA temporary grouping of cards.\n\nStack\nA zone.")
    (content / "en" / "cr.txt").write_text(piles, encoding="utf-8")
    return content


def test_kb_show_reads_past_a_leading_article_and_a_french_one_reads_the_words_as_french_first(tmp_path):
    content = _piles(tmp_path)

    def first(*words: str) -> str:
        shown = _show(content, *words)
        assert shown.exit_code == 0, shown.output
        return shown.output.splitlines()[0]

    assert first("pile") == "Pile · FR Tas*"  # as typed, the glossary's own term comes first
    assert "Also: FR « pile » names Stack" in _show(content, "pile").output
    assert first("la", "PILE") == first("la pile") == "Stack · FR Pile*"  # a French article: the French name
    assert first("the", "stack") == first("THE  Stack") == "Stack · FR Pile*"
    assert first("a pile") == "Pile · FR Tas*"  # an English article: the English term
    assert first("le piétinement") == first("du Piétinement") == "Trample · FR Piétinement*"
    for words in (["la"], ["lapile"], ["les", "la", "pile"]):  # an article alone, glued, or two: no term
        assert _show(content, *words).exit_code == 1


def test_kb_show_suggests_the_terms_spelt_closest_to_words_that_name_none(tmp_path):
    content = _piles(tmp_path)

    def said(*words: str) -> str:
        shown = _show(content, *words)
        assert shown.exit_code == 1
        return " ".join(shown.output.split())

    unofficial = "(*: kb's terminology, not an official translation)"
    assert said("piétinements").endswith(f"did you mean the term: Piétinement* (Trample)? {unofficial}")
    assert said("tramplee").endswith("matches 'tramplee'; did you mean the term: Trample?")  # English: official
    assert "did you mean the term: Pile; Pile* (Stack)?" in said("la", "piles")  # one spelling, two terms
    assert "did you mean" not in said("xyzzy") and "did you mean" not in said("trampoline")  # not another word


def test_kb_show_a_term_as_json_says_its_names_are_not_official(tmp_path):
    import json

    content = _content(tmp_path, "glossary\tStack\tPile\tcurated\tusual French\n")
    payload = json.loads(_show(content, "pile", "--json").output)
    assert payload["term"]["term"] == "Stack" and payload["number"] == "405"
    assert payload["names"] == [
        {
            "lang": "fr",
            "english": "Stack",
            "names": ["Pile"],
            "provenance": "curated",
            "official": False,
            "source": {"path": "c/fr/terminologie.tsv", "line": 4},
        }
    ]
    assert payload["rules"]["en"]["number"] == "405" and payload["also"] == []


def test_one_english_term_headed_two_ways_is_reported_unless_a_homonym():
    table = HEADER + "rule:702.188\tWeb-slinging\tLancer de toile\tcurated\tx\n"
    table += "glossary\tWeb-slinging\tLance-toile\tcurated\tx\n"
    table += "rule:406\tExile\tExil\tcurated\thomonym: the zone\nrule:701.13\tExile\tExiler\tcurated\tx\n"
    table += "rule:702.19\tTrample\tPiétinement\tcurated\tx\nglossary\tTrample\tPiétinement | Piétine\tcurated\tx\n"
    assert _messages(_table(table)) == [
        "5: warning: « Lance-toile » heads Web-slinging here and « Lancer de toile » at line 4: give both lines one "
        "heading (the other name can follow after ' | '), or say 'homonym' in a line's source when the English "
        "names two concepts"
    ]
