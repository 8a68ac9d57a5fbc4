"""Tests for the set FAQ parser (kb/parse/faq.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kb.model import Diagnostic, QuotedRule, SourceText
from kb.parse.cardtext import parse_type_line
from kb.parse.faq.blocks import line_at
from kb.parse.faq.parse import looks_like_faq, parse_faq
from kb.sources import read_source

ROOT = Path(__file__).resolve().parent.parent
FR = "content/fr/faq-discorde-2006.txt"
EN = "tests/fixtures/faq-en-sample.txt"


def load(rel: str, lang: str):
    source, _ = read_source(ROOT / rel, lang, rel)
    return parse_faq(source, f"{lang}/{Path(rel).stem}")


def inline(text: str, lang: str = "fr", path: str = "content/fr/t.txt"):
    return parse_faq(SourceText(path, lang, tuple(text.split("\n")), "utf-8", ""), "fr/t")


def card(result, name):
    return next(c for c in result.cards if name in c.names.values())


def test_every_card_block_is_one_card():
    lines = (ROOT / FR).read_text(encoding="utf-8").split("\n")
    names = set()
    for i, line in enumerate(lines[1:], start=1):
        if re.fullmatch(r"(\{[^}]+\})+|Terrain", line) and lines[i - 1] and lines[i - 2] != "//":
            names.add(lines[i - 1])
    result = load(FR, "fr")
    assert len(result.cards) == len(names) == 64
    assert {c.names["fr"].split(" // ")[0] for c in result.cards} == names
    assert sum(len(c.faces) == 2 for c in result.cards) == 3


def test_every_bullet_is_one_ruling_or_note_bullet():
    raw = (ROOT / FR).read_text(encoding="utf-8").split("\n")
    bullets = sum(1 for line in raw if line.startswith("* "))
    result = load(FR, "fr")
    assert bullets == 149
    assert len(result.rulings) + sum(len(n.bullets) for n in result.notes) == bullets
    assert len(result.rulings) == 119


def test_header_metadata():
    info = load(FR, "fr").info
    assert info.title == "Foire Aux Questions : Discorde/Dissension"
    assert info.set_names == {"fr": "Discorde", "en": "Dissension"}
    assert info.authors == ("Mark L. Gottlieb", "Laurie Cheers", "Jeff Jordan", "Lee Sharpe")
    assert info.last_modified == "2006-03-17"
    assert info.dates == {
        "prerelease": "2006-04-22",
        "prerelease_end": "2006-04-23",
        "release": "2006-05-05",
        "tournament_legal": "2006-05-20",
    }
    assert info.set_size == 180
    assert info.trailer == ("edit: vf. merci à arcarum.", "[ Dernière modification par lyon4 le 22 avr 2006 à 14h44 ]")
    assert info.unplaced == ()


def test_document_and_no_diagnostics():
    result = load(FR, "fr")
    assert result.document.kind == "faq" and result.document.layout == "faq"
    assert result.document.effective_date == "2006-03-17"
    assert result.diagnostics == ()


def test_general_notes():
    result = load(FR, "fr")
    assert [n.title for n in result.notes] == [
        "Guildes",
        "Prévision",
        "Greffe",
        "Acharnement",
        "Créatures « améliorées »",
        "Multicolore et monocolore",
        "Cartes doubles",
    ]
    forecast = result.notes[1]
    assert forecast.id == "fr/faq-discorde-2006#prevision"
    assert forecast.cards == ("position-de-bravoure",)
    assert forecast.quoted_rules[0] == QuotedRule("502.53", "2006-03-17", "Prévision")
    assert [q.number for q in forecast.quoted_rules] == ["502.53", "502.53a", "502.53b"]
    assert len(forecast.bullets) == 5
    assert "*créature*" in result.notes[4].text


def test_spot_checks():
    result = load(FR, "fr")
    urne = card(result, "Urne de la muse")
    assert len(urne.rulings) == 1
    text = {r.id: r.text for r in result.rulings}[urne.rulings[0]]
    assert "arcarum" not in text and "modification" not in text
    research = card(result, "Recherche // Développement")
    assert [f.names["fr"] for f in research.faces] == ["Recherche", "Développement"]
    new_wording = [r for r in result.rulings if r.card == research.id and "Le nouveau texte" in r.text][0]
    assert new_wording.text.endswith(
        "n'importe quel adversaire ne vous laisse piocher une carte. Répétez ce processus deux fois."
    )
    assert new_wording.id == "fr/faq-discorde-2006#L712"
    assert card(result, "Ghildmage de Rakdos").faces[0].mana_cost == ("{B/R}", "{B/R}")
    novijen = card(result, "Novijen, le Cœur du progrès").faces[0]
    assert novijen.mana_cost == () and novijen.types == ("Terrain",)
    isperia = card(result, "Isperia l'impénétrable").faces[0]
    assert (isperia.supertypes, isperia.types, isperia.subtypes) == (("légendaire",), ("Créature",), ("sphinx",))
    assert (isperia.power, isperia.toughness) == ("3", "6")
    assert card(result, "Messager transguilde").faces[0].types == ("Créature", "Artefact")
    augustin = card(result, "Grand Arbitre Augustin IV").faces[0]
    assert augustin.subtypes == ("humain", "conseiller")
    squirter = card(result, "Gicleur d'hélium").faces[0]
    assert squirter.reminder_text[0].startswith("Cette carte arrive en jeu avec trois marqueurs")


def test_card_in_two_places_is_one_card():
    result = load(FR, "fr")
    bound = [c for c in result.cards if c.names["fr"] == "Résolu // Déterminé"]
    assert len(bound) == 1
    assert bound[0].notes == ("fr/faq-discorde-2006#cartes-doubles",)
    assert bound[0].source.line == 164
    assert len(bound[0].rulings) == 4
    assert {r.section for r in result.rulings if r.card == bound[0].id} == {"NOTES SUR DES CARTES SPÉCIFIQUES"}


def test_english_faq_same_shape():
    result = load(EN, "en")
    assert result.diagnostics == ()
    assert result.info.set_names == {"en": "Dissension"}
    assert result.info.last_modified == "2006-03-17"
    assert result.info.trailer == ("edited: typo in Development fixed.",)
    isperia = card(result, "Isperia the Inscrutable").faces[0]
    assert (isperia.supertypes, isperia.types, isperia.subtypes) == (("Legendary",), ("Creature",), ("Sphinx",))
    assert card(result, "Rakdos Guildmage").faces[0].subtypes == ("Zombie", "Shaman")
    assert card(result, "Novijen, Heart of Progress").faces[0].types == ("Land",)
    research = card(result, "Research // Development")
    assert len(research.faces) == 2 and research.notes == ("en/faq-en-sample#split-cards",)
    assert "lets you draw a card" in result.rulings[3].text
    assert [n.title for n in result.notes] == ["Forecast", "Split Cards"]
    assert result.notes[0].quoted_rules[1].number == "502.53a"


def test_type_lines():
    assert parse_type_line("Créature légendaire : humain et conseiller", "fr") == (
        ("légendaire",),
        ("Créature",),
        ("humain", "conseiller"),
    )
    assert parse_type_line("Enchantement : aura", "fr") == ((), ("Enchantement",), ("aura",))
    assert parse_type_line("Artifact Creature — Golem", "en") == ((), ("Artifact", "Creature"), ("Golem",))
    assert parse_type_line("Enchanter : permanent", "fr") is None


def test_looks_like_faq():
    assert looks_like_faq((ROOT / FR).read_text(encoding="utf-8").split("\n"))
    assert looks_like_faq(["x", "GENERAL NOTES"])
    assert not looks_like_faq(["120. Drawing a Card", "", "120.1. A player draws a card."])


HEAD = "Foire aux questions _Test_\nDocument modifié pour la dernière fois le 17 mars 2006\n-----\n"


def test_truncated_faq():
    result = inline("Foire aux questions _Test_\nCompilée par")
    assert result.diagnostics == (
        Diagnostic(
            "warning",
            "content/fr/t.txt",
            1,
            "no last-modified date in the FAQ header ('Document last "
            "modified March 17, 2006'); quoted rules get no date",
        ),
        Diagnostic(
            "warning",
            "content/fr/t.txt",
            0,
            "no 'NOTES GÉNÉRALES' / 'GENERAL NOTES' or card-notes heading "
            "found; is the FAQ truncated? Everything was kept as its introduction",
        ),
    )
    assert result.info.intro == "Compilée par"


def test_truncated_card_block():
    result = inline(HEAD + "NOTES SUR DES CARTES SPÉCIFIQUES\n\nUrne de la muse\n{4}")
    assert result.cards == ()
    assert [d.format() for d in result.diagnostics] == [
        "content/fr/t.txt:6: warning: card block at line 6 for 'Urne de la muse' is truncated: it has no type line",
        "content/fr/t.txt:7: warning: the FAQ seems truncated at line 7: no card block after its card-notes "
        "heading; restore the end of the file",
    ]
    assert result.info.unplaced == ("content/fr/t.txt:6: Urne de la muse\n{4}",)


def test_card_block_without_name_and_ruling_before_card():
    text = HEAD + "NOTES SUR DES CARTES SPÉCIFIQUES\n\n{4}\nArtefact\n\n* Une règle.\n-----\n\n* Orpheline."
    result = inline(text)
    assert [d.format() for d in result.diagnostics] == [
        "content/fr/t.txt:6: warning: card block at line 6 has no name (it starts with a cost or type line); "
        "add the card name above it",
        "content/fr/t.txt:9: warning: ruling at line 9 comes before any card; put it under a card block",
        "content/fr/t.txt:12: warning: ruling at line 12 comes before any card; put it under a card block",
        "content/fr/t.txt:12: warning: the FAQ seems truncated at line 12: no card block after its card-notes "
        "heading; restore the end of the file",
    ]
    assert result.rulings == ()
    assert result.info.unplaced == (
        "content/fr/t.txt:6: {4}\nArtefact",
        "content/fr/t.txt:9: * Une règle.",
        "content/fr/t.txt:12: * Orpheline.",
    )


def test_text_in_unknown_shape_is_kept():
    text = HEAD + "NOTES SUR DES CARTES SPÉCIFIQUES\n\nRejet\n{X}{W}{U}\nÉphémère\nContrecarrez.\n\nTexte perdu ?"
    result = inline(text)
    assert [d.format() for d in result.diagnostics] == [
        "content/fr/t.txt:11: warning: text at line 11 follows a card block but is not a ruling; start it with '* '",
    ]
    assert result.info.unplaced == ("content/fr/t.txt:11: Texte perdu ?",)
    assert [c.id for c in result.cards] == ["rejet"]


def test_emphasis_is_not_a_bullet():
    text = HEAD + "NOTES GÉNÉRALES\n\nTitre\n\n*créature* et _Discorde_\n\n* Une note."
    result = inline(text)
    assert result.notes[0].text == "*créature* et _Discorde_"
    assert result.notes[0].bullets == ("Une note.",)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(
                [
                    "-----",
                    "NOTES GÉNÉRALES",
                    "GENERAL NOTES",
                    "NOTES ON SPECIFIC CARDS",
                    "* x",
                    "//",
                    "",
                    "{2}{W}",
                    "Créature : esprit",
                    "2/2",
                    "Terrain",
                    "502.53a x",
                    "edit: y",
                    "[ z ]",
                ]
            ),
            st.text(max_size=30),
        ),
        max_size=40,
    )
)
def test_arbitrary_text_never_raises(lines):
    result = parse_faq(SourceText("t.txt", "fr", tuple(lines), "utf-8", ""), "fr/t")
    assert all(d.path == "t.txt" for d in result.diagnostics)
    bullets = sum(1 for line in lines if line.strip().startswith("* ") and line.strip()[2:].strip())
    placed = len(result.rulings) + sum(len(n.bullets) for n in result.notes)
    assert placed <= bullets


def test_forum_edit_line_with_accents_is_trailer():
    text = (
        HEAD + "NOTES SUR DES CARTES SPÉCIFIQUES\n\nRejet\n{X}{W}{U}\nÉphémère\nContrecarrez.\n\n* Une règle.\n\n"
        "Dernière modification par lyon4 le 22 avr 2006 à 14h44"
    )
    result = inline(text)
    assert [r.text for r in result.rulings] == ["Une règle."]
    assert result.info.trailer == ("Dernière modification par lyon4 le 22 avr 2006 à 14h44",)
    assert result.diagnostics == ()


def fr_lines() -> list[str]:
    return (ROOT / FR).read_text(encoding="utf-8").split("\n")


def diagnostics_of(lines: list[str]) -> list[str]:
    return [d.format() for d in parse_faq(SourceText("t.txt", "fr", tuple(lines), "utf-8", ""), "fr/t").diagnostics]


RESTORE = "restore the end of the file"


def test_faq_cut_inside_a_card_block_is_truncated():
    cut = (ROOT / FR).read_bytes()[:20000].decode("utf-8", errors="ignore").split("\n")
    assert cut[-1] == "À chaque fois qu'"
    assert diagnostics_of(cut) == [
        f"t.txt:273: warning: the FAQ seems truncated at line 273: its last card block "
        f"('Coût de la guerre', line 270) has no ruling; {RESTORE}"
    ]


def test_faq_cut_in_its_general_notes_is_truncated():
    expected = (
        "warning: the FAQ seems truncated at line {0}: it has general notes but no card notes ('NOTES SUR "
        f"DES CARTES SPÉCIFIQUES' / 'NOTES ON SPECIFIC CARDS'); {RESTORE}"
    )
    assert diagnostics_of(fr_lines()[:40]) == ["t.txt:39: " + expected.format(39)]
    assert diagnostics_of(fr_lines()[:100]) == ["t.txt:100: " + expected.format(100)]


def test_faq_cut_mid_sentence_or_after_a_separator_is_truncated():
    lines = fr_lines()
    ruling = next(i for i, line in enumerate(lines) if line.startswith("* Si vous ciblez le Quartier fantôme"))
    cut = [*lines[:ruling], lines[ruling][:60]]
    assert diagnostics_of(cut) == [
        f"t.txt:{ruling + 1}: warning: the FAQ seems truncated at line {ruling + 1}: its "
        f"last line does not end a sentence ('Quartier fantôme avec sa propre capacité'); "
        f"{RESTORE}"
    ]
    separator = next(i for i in range(ruling, len(lines)) if lines[i] == "-----")
    assert diagnostics_of(lines[: separator + 1]) == [
        f"t.txt:{separator + 1}: warning: the FAQ seems truncated at line {separator + 1}: it ends with a '-----' "
        f"separator and no card block after it; {RESTORE}"
    ]


@pytest.mark.slow
def test_every_cut_inside_a_card_block_is_reported():
    lines = fr_lines()
    start = next(i for i, line in enumerate(lines) if line == "NOTES SUR DES CARTES SPÉCIFIQUES")
    for end in range(start + 3, len(lines) - 4):
        block_start = max(i for i in range(end) if lines[i] in ("-----", "NOTES SUR DES CARTES SPÉCIFIQUES"))
        if not any(line.startswith("* ") for line in lines[block_start:end]) and lines[end - 1].strip():
            assert diagnostics_of(lines[:end]), f"cut after line {end} is silent"


def test_ruling_and_note_positions():
    text = HEAD + (
        "NOTES GÉNÉRALES\n\nTitre\n\nTexte.\n\n* Une note\nsur deux lignes.\n\nSuite.\n-----\n"
        "NOTES SUR DES CARTES SPÉCIFIQUES\n\nRejet\n{X}{W}{U}\nÉphémère\nContrecarrez.\n\n"
        "* Première ligne\nseconde ligne.\n\nParagraphe suivant."
    )
    result = inline(text)
    assert result.diagnostics == ()
    assert result.rulings[0].text == "Première ligne seconde ligne.\nParagraphe suivant."
    assert result.positions[("fr/t#L22", 0)] == ((0, 22), (15, 23), (30, 25))
    assert result.positions[("fr/t#titre", 1)] == ((0, 10), (9, 11), (26, 13))
    assert line_at(result.positions[("fr/t#L22", 0)], 35, 22) == 25
    assert line_at((), 3, 22) == 22


def test_a_note_keeps_the_faqs_order_and_its_example_cards_printed_text():
    res = load("content/fr/faq-discorde-2006.txt", "fr")
    note = next(n for n in res.notes if n.title == "Prévision")
    kinds = [kind for kind, _ in note.order]
    # the example card stands between the first paragraph and the one introducing the quoted rules
    assert kinds[:4] == ["text", "card", "text", "quoted"] and kinds[-1] == "bullet"
    assert note.text.split("\n")[1].startswith("Les règles officielles de la capacité de prévision")
    card, lines = note.printed[0]
    assert lines[:3] == ("Position de bravoure", "{1}{W}{W}", "Éphémère") and lines[-1].startswith("Prévision —")
    assert len(note.order) == len(note.text.split("\n")) + len(note.printed) + len(note.quoted_rules) + len(
        note.bullets
    )


def test_a_faq_without_its_separator_lines_says_so():
    # The Dissension FAQ with every `-----` line lost (a copy through a tool that drops rules of dashes): its seven
    # general notes run together into one, which a reader would not notice without this warning.
    text = (ROOT / FR).read_text(encoding="utf-8")
    result = inline("\n".join(line for line in text.split("\n") if line.strip() != "-----"))
    said = [d for d in result.diagnostics if "'-----'" in d.message]
    assert len(said) == 1 and said[0].severity == "warning" and "restore the separators" in said[0].message
    assert not [d for d in load(FR, "fr").diagnostics if "no '-----' line" in d.message]
