"""Tests for card linking (kb/cardlink.py) and card lookup and display (kb/cardview.py)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from kb.export.json import card_to_json, faq_to_json, note_to_json, ruling_to_json
from kb.export.text import format_card
from kb.link.cards.linking import link_cards
from kb.link.cards.lookup import display_name, find_cards, suggest_cards
from kb.model import SourceText, card_name
from kb.parse.cards.mtgjson import parse_mtgjson
from kb.parse.faq.parse import parse_faq
from kb.sources import read_source

ROOT = Path(__file__).resolve().parent.parent
FR = "content/fr/faq-discorde-2006.txt"
EN = "tests/fixtures/faq-en-sample.txt"
DATA = "tests/fixtures/mtgjson3-DIS.json"


def source(rel: str, lang: str) -> SourceText:
    return read_source(ROOT / rel, lang, rel)[0]


@pytest.fixture(scope="module")
def fr_faq():
    return parse_faq(source(FR, "fr"), "fr/faq-discorde-2006")


@pytest.fixture(scope="module")
def en_faq():
    return parse_faq(source(EN, "en"), "en/faq-en-sample")


@pytest.fixture(scope="module")
def data():
    return parse_mtgjson(source(DATA, "en"), "en/cards-dissension-mtgjson")


@pytest.fixture(scope="module")
def links(fr_faq, data):
    return link_cards([fr_faq], [data], lambda lang, number, as_of=None: True)


def by_name(links, name):
    return find_cards(links.cards, name)[0]


def test_every_faq_card_has_an_english_name(links, fr_faq):
    assert len(links.cards) == 180
    for faq_card in fr_faq.cards:
        merged = by_name(links, faq_card.names["fr"])
        assert merged.names["en"]
        assert all("en" in face.names and "fr" in face.names for face in merged.faces)
    assert by_name(links, "Résonnance élémentaire").oracle["faq_name_fr"] == "Résonnance élémentaire"
    assert by_name(links, "Résolu // Déterminé").names == {"en": "Bound // Determined", "fr": "Résolu // Déterminé"}


def test_matching_diagnostics_are_exact(links):
    assert [d.format() for d in links.diagnostics] == [
        "content/fr/faq-discorde-2006.txt:164: note: split card 'Résolu // Déterminé' matched en 'Bound // "
        "Determined' by its mana costs (the card data has no French name for it, "
        "tests/fixtures/mtgjson3-DIS.json:14805)",
        "content/fr/faq-discorde-2006.txt:235: note: split card 'Bouts // Restes' matched en 'Odds // Ends' by its "
        "mana costs (the card data has no French name for it, tests/fixtures/mtgjson3-DIS.json:15601)",
        "content/fr/faq-discorde-2006.txt:700: note: split card 'Recherche // Développement' matched en 'Research // "
        "Development' by its mana costs (the card data has no French name for it, "
        "tests/fixtures/mtgjson3-DIS.json:15995)",
        "content/fr/faq-discorde-2006.txt:749: note: 'Résonnance élémentaire' matched en 'Elemental Resonance' / fr "
        "'Résonance élémentaire' by close spelling, its mana cost, types and P/T agreeing "
        "(tests/fixtures/mtgjson3-DIS.json:8077)",
    ]


def test_rulings_in_both_languages(links):
    isperia = by_name(links, "Isperia the Inscrutable")
    langs = [r.lang for r in links.rulings if r.card == isperia.id]
    assert langs == ["fr", "en"]
    assert isperia.rulings == ("fr/faq-discorde-2006#L483", "isperia-the-inscrutable/en/1")
    gatherer = next(r for r in links.rulings if r.id == "isperia-the-inscrutable/en/1")
    assert gatherer.section == "Gatherer" and gatherer.date == "2006-05-01"


def test_ruling_links(links):
    rulings = {r.id: r for r in links.rulings}
    phyto = rulings["fr/faq-discorde-2006#L615"]
    assert phyto.card == "sprouting-phytohydra"
    assert phyto.card_refs == ("cytoshape", "sprouting-phytohydra")
    assert rulings["fr/faq-discorde-2006#L220"].card_refs == ("azorius-aethermage",)
    assert rulings["fr/faq-discorde-2006#L845"].mentions == ("Clone",)
    assert rulings["fr/faq-discorde-2006#L843"].card_refs == ("voidslime",)  # « le Vide gluant » is a DIS card
    notes = {n.title: n for n in links.notes}
    split = notes["Cartes doubles"]
    assert split.cards == ("bound-determined",)
    assert split.card_refs == ("bound-determined",)
    assert split.mentions == ("Vide", "Obscur confident", "Persécution", "Forgeur de soleil")
    assert split.rule_refs == ()
    assert notes["Prévision"].quoted_rules[0].number == "502.53"


def test_vide_gluant_is_a_mention_without_card_data(fr_faq):
    links = link_cards([fr_faq], [], lambda lang, number, as_of=None: True)
    assert links.diagnostics == ()
    assert len(links.cards) == 64
    ruling = next(r for r in links.rulings if r.id == "fr/faq-discorde-2006#L843")
    assert (ruling.card_refs, ruling.mentions) == ((), ("Vide gluant",))


def test_french_and_english_faqs_make_one_card(fr_faq, en_faq, data):
    links = link_cards([fr_faq, en_faq], [data], lambda lang, number, as_of=None: number == "502.53")
    isperia = by_name(links, "Isperia the Inscrutable")
    assert [links_r.lang for links_r in links.rulings if links_r.card == isperia.id] == ["fr", "en", "en"]
    research = by_name(links, "Research // Development")
    assert research.notes == ("en/faq-en-sample#split-cards",)
    assert [r.lang for r in links.rulings if r.card == research.id] == ["fr"] * 4 + ["en"] * 6
    cited = next(r for r in links.rulings if r.id == "en/faq-en-sample#L98")
    assert cited.rule_refs == ("502.53",) and cited.card_refs == ("cytoshape",)
    forecast = next(n for n in links.notes if n.id == "en/faq-en-sample#forecast")
    assert forecast.rule_refs == ()  # quoted 2006 rules are never linked


def test_unresolved_rule_is_a_note_with_the_faq_date(en_faq):
    links = link_cards([en_faq], [], lambda lang, number, as_of=None: False)
    assert [d.format() for d in links.diagnostics] == [
        "tests/fixtures/faq-en-sample.txt:98: note: ruling cites rule 502.53 (rules as of 2006-03-17), not among the "
        "loaded rules; load the comprehensive rules of that date to link it"
    ]


def faq_of(text: str, path: str = "content/fr/x.txt", doc: str = "fr/x"):
    lang = path.split("/")[1]
    return parse_faq(SourceText(path, lang, tuple(text.split("\n")), "utf-8", ""), doc)


def test_unresolved_rule_is_reported_on_the_line_that_holds_it():
    faq = faq_of(
        "Foire aux questions _X_\nDocument modifié pour la dernière fois le 17 mars 2006\n-----\n"
        "NOTES GÉNÉRALES\n\nTitre\n\nTexte.\n\n* Une note.\n\nSuite, voir règle 502.53.\n-----\n"
        "NOTES SUR DES CARTES SPÉCIFIQUES\n\nRejet\n{X}{W}{U}\nÉphémère\nContrecarrez.\n\n"
        "* Première ligne\nseconde ligne, voir règle 502.53a.\n\nParagraphe suivant, voir règle 502.53b."
    )
    assert faq.diagnostics == ()
    links = link_cards([faq], [], lambda lang, number, as_of=None: number == "502.53b")
    tail = "not among the loaded rules; load the comprehensive rules of that date to link it"
    assert [d.format() for d in links.diagnostics] == [
        f"content/fr/x.txt:22: note: ruling cites rule 502.53a (rules as of 2006-03-17), {tail}",
        f"content/fr/x.txt:12: note: note cites rule 502.53 (rules as of 2006-03-17), {tail}",
    ]
    assert links.rulings[0].rule_refs == ("502.53b",)


def test_a_ruling_on_one_line_stores_no_positions_and_is_reported_on_its_line():
    faq = faq_of(
        "Foire aux questions _X_\nDocument modifié pour la dernière fois le 17 mars 2006\n-----\n"
        "NOTES SUR DES CARTES SPÉCIFIQUES\n\nRejet\n{X}{W}{U}\nÉphémère\nContrecarrez.\n\n"
        "* Une seule ligne, voir règle 502.53a.\n\n* Première ligne\nseconde, voir règle 502.53b."
    )
    one, two = faq.rulings
    assert (one.id, 0) not in faq.positions and faq.positions[(two.id, 0)] == ((0, 13), (15, 14))
    links = link_cards([faq], [], lambda lang, number, as_of=None: False)
    lines = [d.line for d in links.diagnostics]
    assert lines == [one.source.line, 14] == [11, 14]


def test_cost_mismatch_and_unknown_name(data, tmp_path):
    text = (
        "Foire aux questions _X_\n-----\nNOTES SUR DES CARTES SPÉCIFIQUES\n\nCarambolage\n{2}{W}\nÉphémère\n"
        "Texte.\n\n* Un.\n-----\n\nCarte inconnue\n{1}\nArtefact\n\n* Deux.\n-----\n\nGhildmage de Rakdoss\n"
        "{B/R}{B/R}\nCréature : zombie\n2/2\n"
    )
    faq = parse_faq(SourceText("content/fr/x.txt", "fr", tuple(text.split("\n")), "utf-8", ""), "fr/x")
    links = link_cards([faq], [data], lambda lang, number, as_of=None: True)
    assert [d.format() for d in links.diagnostics] == [
        "content/fr/x.txt:5: warning: mana cost of Carambolage is {2}{W} here but {1}{W} for Carom in "
        "tests/fixtures/mtgjson3-DIS.json:566; check the FAQ or the card data",
        "content/fr/x.txt:13: warning: no card named 'Carte inconnue' in the card data; it keeps no English name: "
        "check the spelling against the printed card",
        "content/fr/x.txt:20: note: 'Ghildmage de Rakdoss' matched en 'Rakdos Guildmage' / fr 'Ghildmage de Rakdos' "
        "by close spelling, its mana cost, types and P/T agreeing (tests/fixtures/mtgjson3-DIS.json:14389)",
    ]


@pytest.mark.parametrize(
    "cost, type_line, pt, why",
    [
        ("{2}{R}", "Créature : zombie", "2/2", "mana cost {B/R}{B/R}, not {2}{R}"),
        ("{B/R}{B/R}", "Enchantement", "", "types Creature, not Enchantement"),
        ("{B/R}{B/R}", "Créature : zombie", "3/3", "power/toughness 2/2, not 3/3"),
    ],
)
def test_a_close_spelling_is_refused_when_the_card_differs(data, cost, type_line, pt, why):
    head = "Foire aux questions _X_\n-----\nNOTES SUR DES CARTES SPÉCIFIQUES\n\n"
    text = f"{head}Ghildmage de Rakdoss\n{cost}\n{type_line}\n"
    faq = parse_faq(SourceText("content/fr/x.txt", "fr", tuple((text + pt).split("\n")), "utf-8", ""), "fr/x")
    links = link_cards([faq], [data], lambda lang, number, as_of=None: True)
    (diag,) = links.diagnostics
    assert diag.severity == "warning" and "no card named 'Ghildmage de Rakdoss'" in diag.message
    assert f"'Ghildmage de Rakdos' (Rakdos Guildmage, 97%: {why})" in diag.message, diag.message
    assert "en" not in find_cards(links.cards, "Ghildmage de Rakdoss")[0].names


def test_inputs_are_not_mutated(fr_faq, data):
    before = copy.deepcopy((fr_faq, data))
    link_cards([fr_faq], [data], lambda lang, number, as_of=None: True)
    assert (fr_faq, data) == before


def test_find_cards(links):
    assert [c.id for c in find_cards(links.cards, "cytoforme")] == ["cytoshape"]
    assert [c.id for c in find_cards(links.cards, "CYTOSHAPE")] == ["cytoshape"]
    assert [c.id for c in find_cards(links.cards, "aethermage d'azorius")] == ["azorius-aethermage"]
    assert [c.id for c in find_cards(links.cards, "determine")] == ["bound-determined"]
    assert [c.id for c in find_cards(links.cards, "isperia")] == ["isperia-the-inscrutable"]
    assert {c.id for c in find_cards(links.cards, "cyto")} >= {"cytoshape", "cytoplast-manipulator"}
    assert find_cards(links.cards, "   ") == []


def test_json_contract(links, fr_faq):
    card = card_to_json(by_name(links, "Résolu // Déterminé"))
    assert {"id", "names", "faces", "rulings", "notes", "source"} <= set(card)
    assert card["names"]["fr"] == " // ".join(face["names"]["fr"] for face in card["faces"])
    assert set(card["faces"][0]) >= {
        "names",
        "mana_cost",
        "type_line",
        "supertypes",
        "types",
        "subtypes",
        "power",
        "toughness",
        "text",
    }
    assert card["source"] == {"path": FR, "line": 164}
    ruling = ruling_to_json(links.rulings[0])
    assert set(ruling) >= {
        "id",
        "card",
        "lang",
        "text",
        "section",
        "source_document",
        "rule_refs",
        "card_refs",
        "mentions",
        "source",
    }
    note = note_to_json(links.notes[1])
    assert note["quoted_rules"][0] == {"number": "502.53", "as_of": "2006-03-17", "text": "Prévision", "today": None}
    assert set(note) >= {"id", "lang", "title", "text", "cards", "quoted_rules", "bullets", "source"}
    faq = faq_to_json(fr_faq.info)
    assert faq["set_names"] == {"fr": "Discorde", "en": "Dissension"} and faq["set_size"] == 180
    assert set(faq) >= {"document", "lang", "set_names", "authors", "last_modified", "dates", "set_size"}


def test_format_card(links):
    rulings = {r.id: r for r in links.rulings}
    notes = {n.id: n for n in links.notes}
    text = format_card(by_name(links, "Phytohydre bourgeonnante"), rulings, notes, 80)
    assert text.startswith("Phytohydre bourgeonnante [fr] | Sprouting Phytohydra [en]\n")
    assert "{4}{G}" in text and "0/2" in text
    assert "Rulings [fr]:" in text and "Rulings [en]:" in text
    assert "Linked cards: cytoshape" in text  # without the cards, ids
    named = format_card(by_name(links, "Phytohydre bourgeonnante"), rulings, notes, 80, {c.id: c for c in links.cards})
    assert "Linked cards: Cytoforme / Cytoshape" in named
    assert all(len(line) <= 80 for line in text.splitlines()[2:])


def test_find_cards_takes_exact_or_prefix_and_suggests_the_rest(links):
    assert find_cards(links.cards, "rule") == []
    assert [c.names["en"] for c in suggest_cards(links.cards, "rule")] == ["Overrule"]
    assert [c.id for c in suggest_cards(links.cards, "cytoshpae")] == ["cytoshape"]
    assert [c.id for c in find_cards(links.cards, "la cyto")] == [c.id for c in find_cards(links.cards, "cyto")]
    assert suggest_cards(links.cards, " ") == []


def test_french_faces_are_kept_with_english_faq_loaded_first(fr_faq, en_faq, data):
    links = link_cards([en_faq, fr_faq], [data], lambda lang, number, as_of=None: True)
    research = by_name(links, "Research // Development")
    assert [(f.lang, f.type_line, f.names) for f in research.faces] == [
        ("fr", "Éphémère", {"en": "Research", "fr": "Recherche"}),
        ("fr", "Éphémère", {"en": "Development", "fr": "Développement"}),
    ]
    assert research.faces[0].text.startswith("Choisissez jusqu'à quatre cartes")
    assert research.oracle["en_type"] == "Instant // Instant"
    assert research.oracle["en_text"].startswith("Choose up to four cards you own")
    assert research.source.path == FR
    assert [r.lang for r in links.rulings if r.card == research.id] == ["fr"] * 4 + ["en"] * 6


def test_english_faq_text_is_kept_beside_french_faces_without_card_data():
    block = (
        "Foire aux questions _X_\n-----\nNOTES SUR DES CARTES SPÉCIFIQUES\n\nRakdos\n{{B}}{{R}}\n{}\n2/2\n{}\n\n* {}"
    )
    fr = faq_of(block.format("Créature : démon", "Vol.", "Une règle."))
    en = faq_of(block.format("Creature -- Demon", "Flying.", "A ruling."), "content/en/x.txt", "en/x")
    links = link_cards([en, fr], [], lambda lang, number, as_of=None: True)
    (rakdos,) = links.cards
    assert [(f.lang, f.type_line, f.text) for f in rakdos.faces] == [("fr", "Créature : démon", "Vol.")]
    assert rakdos.oracle == {"en_type": "Creature -- Demon", "en_text": "Flying."}
    assert [r.lang for r in links.rulings] == ["fr", "en"]


def test_cards_by_document(fr_faq, en_faq, data, links):
    assert len(links.cards_by_document["fr/faq-discorde-2006"]) == 64
    assert len(links.cards_by_document["en/cards-dissension-mtgjson"]) == 180
    both = link_cards([fr_faq, en_faq], [data], lambda lang, number, as_of=None: True)
    assert both.cards_by_document["en/faq-en-sample"] == (
        "steeling-stance",
        "research-development",
        "isperia-the-inscrutable",
        "novijen-heart-of-progress",
        "rakdos-guildmage",
        "sprouting-phytohydra",
    )


def card_file(path: str, doc: str, *rulings: str):
    entries = ", ".join(f'{{"name": "Plains", "type": "Basic Land", "rulings": [{{"text": "{r}"}}]}}' for r in rulings)
    text = '{"name": "X", "cards": [' + entries + "]}"
    return parse_mtgjson(SourceText(path, "en", (text,), "utf-8", ""), doc)


def test_same_name_cards_keep_their_own_rulings_across_files():
    first, second = card_file("en/a.json", "en/a", "One", "Two"), card_file("en/b.json", "en/b", "Three")
    links = link_cards([], [first, second], lambda lang, number, as_of=None: True)
    assert [(c.id, c.rulings) for c in links.cards] == [
        ("plains", ("plains/en/1",)),
        ("plains-2", ("plains-2/en/1",)),
        ("plains-3", ("plains-3/en/1",)),
    ]
    assert [(r.id, r.card, r.text) for r in links.rulings] == [
        ("plains/en/1", "plains", "One"),
        ("plains-2/en/1", "plains-2", "Two"),
        ("plains-3/en/1", "plains-3", "Three"),
    ]
    assert links.cards_by_document == {"en/a": ("plains", "plains-2"), "en/b": ("plains-3",)}


def test_card_names(links):
    cytoshape = by_name(links, "Cytoforme")
    assert (card_name(cytoshape), card_name(cytoshape, "fr"), card_name(cytoshape, "de")) == (
        "Cytoshape",
        "Cytoforme",
        "Cytoshape",
    )
    assert display_name(cytoshape) == "Cytoforme / Cytoshape"


def test_faq_citations_resolve_only_against_rules_in_force(tmp_path):
    """A 2006 FAQ citing rule 502.53 is not linked to a later edition's rule of that number."""
    from kb.link.load import load

    content = tmp_path / "c"
    (content / "en").mkdir(parents=True)
    sample = (Path(__file__).parent / "fixtures" / "faq-en-sample.txt").read_bytes()
    (content / "en" / "faq.txt").write_bytes(sample)
    (content / "en" / "cr.txt").write_text(
        "These rules are effective as of September 26, 2015.\n\n502.53. A later rule.\n", encoding="utf-8"
    )
    later = load(content)
    cited = [r for r in later.rulings if "502.53" in r.text]
    assert cited and all(r.rule_refs == () for r in cited)
    assert any("cites rule 502.53 (rules as of" in d.message for d in later.diagnostics)
    (content / "en" / "cr.txt").write_text("502.53. An undated extract.\n", encoding="utf-8")
    undated = load(content)
    assert all(r.rule_refs == ("502.53",) for r in undated.rulings if "502.53" in r.text)
