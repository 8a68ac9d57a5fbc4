"""The comprehensive-rules parser on the seeds, both official editions, and focused inline cases."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from kb.model import SourceText
from kb.parse.cr.rules import parse_rules, sort_key
from kb.sources import read_source

from .conftest import CONTENT, CR2015, CR2026

SEED_120 = [
    "120.1",
    "120.2",
    "120.2a",
    "120.2b",
    "120.3",
    "120.3a",
    "120.4",
    "120.5",
    "120.6",
    "120.6a",
    "120.6b",
    "120.6c",
    "120.7",
]


def parse_file(path: Path, lang: str):
    source, _ = read_source(path, lang, path.name)
    return parse_rules(source, f"{lang}/{path.stem}")


def parse_text(text: str, lang: str = "en", path: str = "t.txt"):
    lines = tuple(text.split("\n"))
    return parse_rules(SourceText(path, lang, lines, "utf-8", "0"), f"{lang}/t")


def by_number(result):
    return {r.number: r for r in result.rules}


def test_french_120_hard_wrapped():
    res = parse_file(CONTENT / "fr" / "cr-120-piocher-une-carte.txt", "fr")
    assert res.document.layout == "hard-wrapped"
    assert [r.number for r in res.rules] == SEED_120
    rules = by_number(res)
    assert rules["120.2"].text == (
        "Les cartes peuvent uniquement être piochées une par une. Si un joueur doit "
        "piocher plusieurs cartes, ce joueur effectue autant de pioches d’une carte."
    )
    assert rules["120.7"].text.endswith("puis les cartes sont piochées une par une.")
    assert rules["120.4"].references == ("704",)
    assert rules["120.2a"].parent == "120.2" and rules["120.2"].children == ("120.2a", "120.2b")
    assert rules["120.1"].parent == "120"  # the tree holds without a "120." line
    assert not [d for d in res.diagnostics if d.severity != "note"]


def test_english_120_blank_line_layout():
    res = parse_file(CONTENT / "en" / "cr-120-drawing-a-card.txt", "en")
    assert res.document.layout == "blank-line"
    assert res.document.title == ""  # its first line is a French title, not the English document's
    assert [r.number for r in res.rules] == SEED_120
    assert by_number(res)["120.4"].references == ("704",)
    assert not res.diagnostics


def test_french_703():
    res = parse_file(CONTENT / "fr" / "cr-703-actions-obligatoires-du-tour.txt", "fr")
    numbers = [r.number for r in res.rules]
    assert numbers[0] == "703.1" and numbers[-1] == "703.4p"
    assert "703.4l" not in numbers and "703.4o" not in numbers
    assert len([n for n in numbers if n.startswith("703.4") and n != "703.4"]) == 14
    assert res.document.title == "Règles complètes de Magic: The Gathering"
    rules = by_number(res)
    assert rules["703.4d"].references == ("904", "701.21")
    assert rules["703.1a"].references == ("603",)
    assert not res.diagnostics


def independent_counts(path: Path, encoding: str) -> Counter:
    """Count rule lines of the body with plain regexes, from the second '1. Game Concepts' to 'Glossary'."""
    text = path.read_bytes().decode(encoding)
    lines = re.split(r"\r\n|\r|\n", text)
    start = [i for i, line in enumerate(lines) if line.startswith("1. Game Concepts")][1]
    end = [i for i, line in enumerate(lines) if line.strip() == "Glossary"][1]
    kinds = Counter()
    for line in lines[start:end]:
        if re.match(r"\d\. ", line):
            kinds["section"] += 1
        elif re.match(r"\d{3}\. ", line):
            kinds["rule"] += 1
        elif re.match(r"\d{3}\.\d+\.? ", line):
            kinds["numbered"] += 1
        elif re.match(r"\d{3}\.\d+[a-z]\.? ", line):
            kinds["subrule"] += 1
        elif line.startswith("Example:"):
            kinds["example"] += 1
    return kinds


@pytest.mark.parametrize(
    ("path", "encoding", "glossary", "examples", "date"),
    [(CR2015, "cp1252", 506, 226, "2015-09-26"), (CR2026, "utf-8-sig", 725, 276, "2026-01-16")],
)
def test_official_editions(path, encoding, glossary, examples, date):
    res = parse_file(path, "en")
    expected = independent_counts(path, encoding)
    kinds = Counter(r.kind for r in res.rules)
    for kind in ("section", "rule", "numbered", "subrule"):
        assert kinds[kind] == expected[kind], kind
    assert sum(len(r.examples) for r in res.rules) == expected["example"] == examples
    assert len(res.glossary) == glossary
    assert res.document.effective_date == date
    assert res.document.title == "Magic: The Gathering Comprehensive Rules"
    assert res.document.layout == "official"
    assert res.document.introduction.startswith("This document")
    assert "Richard Garfield" in res.document.credits
    assert not [d for d in res.diagnostics if d.severity == "error"]
    numbers = [r.number for r in res.rules]
    assert numbers == sorted(numbers, key=sort_key), "rules come out in order"


def test_2015_rule_120_and_glossary():
    res = parse_file(CR2015, "en")
    rules = by_number(res)
    assert rules["120"].title == "Drawing a Card" and rules["120"].kind == "rule"
    assert rules["1"].title == "Game Concepts" and rules["1"].kind == "section"
    assert rules["120"].children[:2] == ("120.1", "120.2")
    assert rules["120"].parent == "1"
    assert rules["703.4d"].references == ("904", "701.22")
    gloss = {g.term: g for g in res.glossary}
    assert gloss["Abandon"].references == ("701.23",)
    assert gloss["Control, Controller"].aliases == ("Control", "Controller")
    assert gloss["Active Player, Nonactive Player Order"].aliases == ()
    assert gloss["Ability"].definition.startswith("1. Text on an object")
    assert sum(1 for g in res.glossary if g.obsolete) > 0
    assert not any(g.term.endswith("(Obsolete)") for g in res.glossary)


def test_2026_typos_are_warnings_and_rules():
    res = parse_file(CR2026, "en")
    partner = next(g for g in res.glossary if g.term.startswith("Partner, "))
    assert partner.aliases == ("Partner", "Partner—[text]", "Partner with [name]")
    rules = by_number(res)
    assert "119.1d" in rules and "606.5" in rules
    assert rules["121"].title == "Drawing a Card"
    warnings = [d.format() for d in res.diagnostics if d.severity == "warning"]
    assert warnings == [
        "cr-en-20260116.txt:1054: warning: subrule 119.1d. has a dot after its letter; subrules read '119.1d' (kept)",
        "cr-en-20260116.txt:2708: warning: numbered rule 606.5 has no dot after its number; "
        "it should read '606.5.' (kept)",
    ]


def test_examples_and_indented_paragraphs():
    res = parse_text("100.1. First rule.\nExample: One.\nExample: Two.\n\n100.1a Sub rule.\n     Second paragraph.\n")
    rules = by_number(res)
    assert rules["100.1"].examples == ("One.", "Two.")
    assert rules["100.1a"].text == "Sub rule.\nSecond paragraph."


def test_french_example_label():
    res = parse_text("703.1.\n\nTexte.\n\nExemple : Un exemple.\n", "fr")
    assert by_number(res)["703.1"].examples == ("Un exemple.",)


def test_duplicates_and_out_of_order_name_both_lines():
    res = parse_text("100.2. Two.\n\n100.1. One.\n\n100.2. Again.\nExample: Kept too.\n")
    assert [d.format() for d in res.diagnostics] == [
        "t.txt:3: warning: rule 100.1 is out of order: it follows 100.2 (line 1)",
        "t.txt:5: error: duplicate rule 100.2: already at line 1; kept as a paragraph of rule 100.1: check the number",
    ]
    rules = by_number(res)
    assert rules["100.2"].text == "Two."
    assert rules["100.1"].text == "One.\n100.2. Again." and rules["100.1"].examples == ("Kept too.",)


@pytest.mark.parametrize(
    ("line", "number", "text", "message"),
    [
        ("100. 2a Split.", "100.2a", "Split.", "rule '100. 2a' has a space inside its number: read as 100.2a"),
        (
            "100.2.Glued.",
            "100.2",
            "Glued.",
            "rule '100.2.' has no space between its number and its text: read as 100.2",
        ),
        ("100.b Gap.", "100.1b", "Gap.", "rule '100.b' lacks part of its number: read as 100.1b"),
    ],
)
def test_damaged_numbers_are_read_from_their_neighbours(line, number, text, message):
    res = parse_text(f"100.1. One.\n\n100.1a Sub.\n\n{line}\nExample: Its example.\n\n100.3. Three.\n")
    rules = by_number(res)
    assert rules[number].text == text and rules[number].examples == ("Its example.",)
    assert rules["100.1a"].text == "Sub."
    assert [(d.severity, d.line, d.message.split(",")[0]) for d in res.diagnostics] == [("warning", 5, message)]


def test_damaged_number_that_fits_nowhere_is_an_error_and_its_text_is_kept():
    res = parse_text("100.5. Five.\n\n100. 3a Bad.\n\n100.6. Six.\n")
    assert [r.number for r in res.rules] == ["100.5", "100.6"]
    assert by_number(res)["100.5"].text == "Five.\n100. 3a Bad."
    assert [d.format() for d in res.diagnostics] == [
        "t.txt:3: error: rule '100. 3a' has a space inside its number and no reading of it fits after 100.5; "
        "kept as a paragraph of rule 100.5: check the number"
    ]


def test_text_before_any_rule_is_an_error_and_contents_entries_after_credits_are_not():
    long = "A paragraph after the contents that no rule number comes before, so it belongs to no rule."
    res = parse_text(f"Title\n\nContents\n\n1. Game\nCredits\nQuestions?\n\n{long}\n\n1. Game\n\n100.1. One.\n")
    assert [d.format() for d in res.diagnostics] == [
        "t.txt:9: error: text outside any rule (no rule number before it); it is not part of any rule"
    ]
    assert [r.number for r in res.rules] == ["1", "100.1"]


def test_bare_numbers_and_empty_file():
    res = parse_text("100.1.\n100.2.\n100.3.\n")
    assert [r.number for r in res.rules] == ["100.1", "100.2", "100.3"]
    assert all("has no text" in d.message for d in res.diagnostics)
    empty = parse_text("")
    assert empty.rules == ()
    assert [d.severity for d in empty.diagnostics] == ["error"]


def test_table_of_contents_and_credits_give_no_rule():
    text = (
        "Title\n\nThese rules are effective as of March 1, 2020.\n\nIntroduction\n\nIntro text.\n\n"
        "Contents\n\n1. Game Concepts\n100. General\nGlossary\nCredits\n\n"
        "1. Game Concepts\n\n100. General\n\n100.1. Rule text. See rule 100.2.\n\n100.2. Other.\n\n"
        "Glossary\n\nTerm\nA definition. See rule 100.1.\n\nCredits\n\n100.9. Not a rule.\n"
    )
    res = parse_text(text)
    assert [r.number for r in res.rules] == ["1", "100", "100.1", "100.2"]
    assert res.document.effective_date == "2020-03-01"
    assert res.document.introduction == "Intro text."
    assert res.glossary[0].term == "Term" and res.glossary[0].references == ("100.1",)
    assert "100.9. Not a rule." in res.document.credits


def test_hard_wrapped_reference_is_not_a_rule():
    res = parse_text(
        "120.1.\nUn joueur pioche une carte. Cf. règle\n704.5a pour les détails.\n120.2 Les cartes\nsont piochées.\n",
        "fr",
    )
    assert [r.number for r in res.rules] == ["120.1", "120.2"]
    rules = by_number(res)
    assert rules["120.1"].text == "Un joueur pioche une carte. Cf. règle 704.5a pour les détails."
    assert rules["120.1"].references == ("704.5a",)
    assert res.diagnostics == ()


WRAPPED_EN = "120.1. A player draws a card; both players do so at the same time, as in\n103.4 still.\n\n120.2. Two.\n"
WRAPPED_FR = "120.1.\nUn joueur pioche une carte, comme\n103.4 le dit.\n120.2 Les cartes sont piochées.\n"


@pytest.mark.parametrize(("text", "lang", "line"), [(WRAPPED_EN, "en", 2), (WRAPPED_FR, "fr", 3)])
def test_wrapped_number_going_backwards_is_a_continuation(text, lang, line):
    res = parse_text(text, lang)
    assert [r.number for r in res.rules] == ["120.1", "120.2"]
    assert res.rules[0].text.endswith((" as in 103.4 still.", " comme 103.4 le dit."))
    assert [d.format() for d in res.diagnostics] == [
        f"t.txt:{line}: note: '103.4' cannot be the rule after 120.1: read as a wrapped line of it"
    ]


def test_a_number_printed_twice_in_a_hard_wrapped_text_is_a_warning():
    res = parse_text("120.1\nUn joueur pioche.\n120.2 Les cartes.\n120.1 Un joueur qui tente de piocher perd.\n", "fr")
    assert [r.number for r in res.rules] == ["120.1", "120.2"]
    assert [d.format() for d in res.diagnostics] == [
        "t.txt:4: warning: rule 120.1 is printed again (first at line 1): read as a line of 120.2's text, which it "
        "may continue; check it"
    ]


def test_an_official_text_cut_short_says_so():
    from .conftest import CR2026

    text = CR2026.read_bytes()[:400_000].decode("utf-8-sig", errors="ignore").replace("\r\n", "\n")
    res = parse_text(text.replace("\r", "\n"))
    cut = [d.format() for d in res.diagnostics if "cut short" in d.message]
    assert len(cut) == 1 and "its contents list 56 sections and rules it never reaches, 615 to 905" in cut[0]
    assert ": error: the text is cut short" in cut[0]  # a site built from it would lack them: the build stops
    whole = CR2026.read_bytes().decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    assert not [d for d in parse_text(whole).diagnostics if "cut short" in d.message]


def test_wrapped_title_and_suspended_hyphen():
    res = parse_text(
        "215. This section is now empty. See rule 205.4c and rule\n420.5e about legendary permanents.\n\n"
        "418.5b Effects are applied in layer four (type-, subtype-\nand supertype-changing effects), then non-\nstop.\n"
    )
    rules = by_number(res)
    assert (
        rules["215"].title == "This section is now empty. See rule 205.4c and rule 420.5e about legendary permanents."
    )
    assert rules["418.5b"].text == (
        "Effects are applied in layer four (type-, subtype- and supertype-changing effects), then non-stop."
    )
    assert res.diagnostics == ()


@pytest.mark.parametrize("wording", ["current", "effective"])
def test_effective_date_old_and_new_wording(wording):
    res = parse_text(f"Comprehensive Rules\n\nThese rules are {wording} as of October 1, 2004.\n\n100.1. One.\n")
    assert res.document.effective_date == "2004-10-01"


@pytest.mark.parametrize("written", ["12O.2.", "121..2.", "1212.", "121,2.", "l21.2.", "121 .2."])
def test_a_rule_number_damaged_beyond_reading_is_reported_where_it_is_glued(written):
    # The 2026 CR with its "121.2. Cards may only be drawn one at a time." damaged: the line is read as text of
    # 121.1 (nothing is dropped), and a warning names its line and what to do.
    text = CR2026.read_text(encoding="utf-8")
    line = text[: text.index("\n121.2. Cards may")].count("\n") + 2
    result = parse_text(text.replace("\n121.2. Cards may", f"\n{written} Cards may", 1), path="cr.txt")
    said = [d for d in result.diagnostics if d.line == line]
    assert [d.severity for d in said] == ["warning"] and f"'{written}'" in said[0].message
    assert "rule 121.1" in said[0].message and "121.2" not in by_number(result)


@pytest.mark.parametrize("written", ["12O.3.", "1203.", "120,3.", "120.3a", "120.2b"])
def test_a_hard_wrapped_rule_number_that_cannot_be_read_there_is_a_warning(written):
    # French 120, PDF text: "120.3." alone on its line, its text on the next ones.
    text = (CONTENT / "fr" / "cr-120-piocher-une-carte.txt").read_text(encoding="utf-8")
    damaged = re.sub(r"(?m)^120\.3\.$", written, text, count=1)
    result = parse_text(damaged, lang="fr", path="fr.txt")
    said = [d for d in result.diagnostics if f"'{written}'" in d.message]
    assert len(said) == 1 and said[0].severity == "warning" and "120.3" not in by_number(result)
