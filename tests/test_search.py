"""Search: query forms on the seeds and on the 2015 edition, ranking behaviours, bad input, editions, index life
cycle, the CLI, and the site's JavaScript ranking exactly as Python does."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.link.load import with_readings
from kb.model import Card, Face, FaqNote, Ruling, SourceRef
from kb.search import index as S
from kb.search.build import engine_of, publish_index
from kb.search.entries import Vocabulary, entries
from kb.search.store import SPARE, current
from kb.sources import fold

from .conftest import CONTENT, ROOT


def make_seeds(root: Path) -> Path:
    """The French seeds (rules 120 and 703, the Dissension FAQ), the English rule 120 and the Dissension cards."""
    content = root / "content"
    (content / "en").mkdir(parents=True)
    (content / "fr").mkdir()
    for path in (CONTENT / "fr").glob("*.txt"):
        shutil.copy(path, content / "fr" / path.name)
    for path in [CONTENT / "en" / "cr-120-drawing-a-card.txt", *(CONTENT / "en").glob("cards-*.json")]:
        shutil.copy(path, content / "en" / path.name)
    return content


@pytest.fixture(scope="module")
def bundled_content(tmp_path_factory) -> Path:
    """The seeds in a temporary folder, so the index is built in a temporary build folder."""
    return make_seeds(tmp_path_factory.mktemp("bundled"))


@pytest.fixture(scope="module")
def lexicon():
    """The bundled French–English lexicon (mined from printed cards)."""
    from kb.link.lexicon.files import read_lexicon

    found, _ = read_lexicon(CONTENT / "fr" / "lexique-cartes-mtgjson5.json", "fr/lexique-cartes-mtgjson5.json")
    return found


@pytest.fixture(scope="module")
def seeds_kb(bundled_content):
    from kb.link.load import load

    return load(bundled_content)


@pytest.fixture(scope="module")
def bundled(bundled_content):
    index = S.open_index(bundled_content)
    yield index
    index.close()


@pytest.fixture(scope="module")
def cr2015(content_2015):
    index = S.open_index(content_2015)
    yield index
    index.close()


def ids(results) -> list[str]:
    return [r.id for r in results]


# --- rule numbers ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("box", ["120.2a", "règle 120.2a", "rule 120.2a", "CR 120.2a", "r120.2a", "R120.2A", "120.2a."])
def test_rule_number_forms(bundled, cr2015, box):
    for index in (bundled, cr2015):
        results = index.search(box)
        assert ids(results) == ["120.2a"]
        assert results[0].kind == "rule" and results[0].number == "120.2a"
        assert results[0].langs == ("fr", "en")


def test_french_rule_number(bundled):
    [result] = bundled.search("règle 703.4k")
    assert result.number == "703.4k" and "blessures de combat" in result.snippets["fr"]


def test_numbered_rule_lists_its_subrules_not_later_numbers(cr2015):
    assert ids(cr2015.search("rule 702.1", limit=50)) == ["702.1"]  # not 702.10 and beyond
    assert ids(cr2015.search("702.19", limit=50))[:2] == ["702.19", "702.19a"]


def test_rule_subtree_in_rule_order(bundled, cr2015):
    assert ids(bundled.search("CR 120", limit=100))[:4] == ["120.1", "120.2", "120.2a", "120.2b"]
    found = ids(cr2015.search("120", limit=100))
    assert found[:3] == ["120", "120.1", "120.2"] and all(n == "120" or n.startswith("120.") for n in found)


def test_section_number(cr2015):
    found = ids(cr2015.search("1", limit=5))
    assert found == ["1", "100", "100.1", "100.1a", "100.1b"]


def test_a_number_the_translation_gives_another_rule_lists_both_readings(full):
    found = full.search("120.4", limit=3)  # today's 120.4 (damage), then the French 120.4 (today's 121.4)
    assert ids(found)[:2] == ["120.4", "121.4"] and found[1].numbers == {"fr": "120.4"}
    assert ids(full.search("règle 120.4", limit=3))[:2] == ["121.4", "120.4"]  # typed with a French word
    assert ids(full.search("rule 120.4", limit=3))[:2] == ["120.4", "121.4"]
    assert ids(full.search("Cf. règle 120.4", limit=3))[:2] == ["121.4", "120.4"]  # copied from a French text
    assert ids(full.search("(See rule 120.4)", limit=3))[:2] == ["120.4", "121.4"]  # copied from an English one
    assert ids(full.search("120,4", limit=3))[:2] == ["120.4", "121.4"]  # a French decimal comma
    assert ids(full.search("120.4 lang:fr")) == ["121.4"]
    assert ids(full.search("CR 120", limit=3)) == ["120", "121", "120.1"]  # the French 120.x are today's 121.x


def test_unknown_rule_number_falls_back_to_keywords(cr2015):
    assert not cr2015.search("999.9z")


# --- keywords -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("box", ["bibliotheque", "bibliothèque", "BIBLIOTHÈQUE"])
def test_accent_and_case_insensitive(bundled, cr2015, box):
    for index in (bundled, cr2015):
        results = index.search(f"{box} vide", kind="rule")
        assert "120.4" in ids(results)[:2]
        assert "**bibliothèque**" in results[0].snippets["fr"]


@pytest.mark.parametrize("box", ["l'etape", "l’étape", "etape", "étape"])
def test_elisions_and_accentless(bundled, cr2015, box):
    assert "703.4c" in ids(bundled.search(f"{box} pioche", kind="rule"))[:3]  # the French text, whatever the form
    found = ids(cr2015.search(f"{box} pioche", kind="rule"))  # beside the English rules: the draw step's first
    assert found[0] == "504" and "703.4c" in found and found == ids(cr2015.search("l’étape pioche", kind="rule"))


@pytest.mark.parametrize("box", ["piochees", "piochées", "piocher", "pioche"])
def test_french_stemming(bundled, box):
    found = ids(bundled.search(box, kind="rule", limit=20))
    assert "120.2" in found and "120.6a" in found


def test_english_stemming(bundled, cr2015):
    for index in (bundled, cr2015):
        results = index.search("drawn", lang="en", limit=30)
        assert "120.2" in ids(results)
        result = next(r for r in results if r.id == "120.2")
        assert result.langs == ("en", "fr") and "**drawn**" in result.snippets["en"]
        assert "**" not in result.snippets["fr"]  # the other language is shown too, unmarked


def _text_of(kb, key: str) -> str:
    """The English text of a rule or glossary entry of a knowledge base, by its result id."""
    if "#" in key:
        return next(g.definition for g in kb.glossary if f"{g.document}#" in key and key.endswith(fold(g.term)))
    return next(r.text + " " + " ".join(r.examples) for r in kb.rules if r.number == key and r.lang == "en")


def test_more_words_rank_higher_in_one_score_order(cr2015, kb_2015):
    found = cr2015.search("trample planeswalker", limit=50)
    assert "702.19d" in ids(found)[:3]
    texts = {r.id: (r.title + " " + _text_of(kb_2015, r.id)).lower() for r in found}
    both = ["trampl" in texts[r.id] and "planeswalker" in texts[r.id] for r in found]
    assert all(both[:3]) and not all(both), ids(found[:3])
    scores = [r.score for r in found]
    assert scores == sorted(scores, reverse=True)


def test_partial_matches_rather_than_nothing(cr2015):
    assert "702.2" in ids(cr2015.search("deathtouch xylophone"))[:3]  # one word unknown, one found
    assert "702.2" in ids(cr2015.search("deathtouch waterskiing"))[:3]


def test_or(cr2015):
    found = ids(cr2015.search("deathtouch OR lifelink", kind="glossary", limit=10))
    assert {"en/cr-en-20150926#deathtouch", "en/cr-en-20150926#lifelink"} <= set(found)


def test_negation(bundled):
    found = ids(bundled.search("pioche -bibliothèque", kind="rule", limit=50))
    assert "120.2" in found and "120.4" not in found and "120.1" not in found


def test_an_excluded_word_leaves_out_its_translations_too(full):
    # `pioche` finds English rules through its translation `draw`: `-pioche` leaves them out as well
    assert ids(full.search("pioche -pioche")) == [] and ids(full.search("draw -draw")) == []
    assert "121.1" in ids(full.search("pioche", limit=20)) and "121.1" not in ids(full.search("pioche -draw", limit=50))


def test_phrase(bundled, cr2015):
    assert ids(bundled.search('"bibliothèque vide"', kind="rule"))[0] == "120.4"
    assert ids(bundled.search('"bibliotheque vide"', kind="rule"))[0] == "120.4"
    found = ids(cr2015.search('"combat damage step"', kind="rule", limit=50))
    assert "510.1" in found or "510" in found
    assert "120.4" not in ids(bundled.search('"vide bibliothèque"', kind="rule"))


def test_a_phrase_runs_over_elisions_and_punctuation_never_over_a_word(bundled):
    """Words in a row are tokens with no word between them, whatever the punctuation (an elision's apostrophe, of
    either kind): the phrase check's first cut (a pattern over the folded text) keeps every such text."""
    for typed in ('"l’étape de pioche"', '"l\'étape de pioche"', '"l etape de pioche"'):
        assert set(ids(bundled.search(typed, lang="fr", kind="rule"))[:2]) == {"703.4c", "120.1"}, typed
    assert "703.4c" not in ids(bundled.search('"début étape"', lang="fr", kind="rule", limit=50))
    assert "703.4c" in ids(bundled.search('"début de l étape"', lang="fr", kind="rule", limit=50))


def test_lang_filter(cr2015):
    assert not cr2015.search("library lang:fr")
    assert not cr2015.search("bibliothèque lang:en")
    assert all("fr" in r.langs for r in cr2015.search("bibliothèque lang:fr"))
    assert not cr2015.search("library", lang="fr")


def test_kind_filter(bundled):
    assert {r.kind for r in bundled.search("kind:ruling bibliothèque")} == {"ruling"}
    assert {r.kind for r in bundled.search("bibliothèque", kind="card")} == {"card"}
    assert {r.kind for r in bundled.search("kind:note,card guilde")} <= {"note", "card"}
    assert not bundled.search("draw kind:rule", kind="card")  # the query's kinds and the option's meet nowhere


def test_number_inside_keywords_matches_references(cr2015):
    assert "120.4" in ids(cr2015.search("704 priority", kind="rule", limit=20))


def test_stop_words_only_gives_nothing(cr2015):
    assert not cr2015.search("the of")


def test_no_result(bundled):
    assert not bundled.search("xyzzy")


# --- cards, rulings, notes ------------------------------------------------------------------------------


@pytest.mark.parametrize("box", ["Isperia", "isperia", "isper", "Isperia the Inscrutable", "impenetrable"])
def test_card_names_both_languages_and_partial(bundled, box):
    results = bundled.search(box)
    assert results[0].kind == "card" and results[0].id == "isperia-the-inscrutable"
    assert results[0].names == {"en": "Isperia the Inscrutable", "fr": "Isperia l'impénétrable"}


def test_card_named_before_cards_that_mention_it(bundled):
    results = bundled.search("Isperia")
    assert [r.kind for r in results[:1]] == ["card"]
    assert any(r.kind == "ruling" for r in results[1:])


def test_note_title(bundled):
    results = bundled.search("prévision", kind="note")
    assert results and results[0].title.lower().startswith("prévision")


SRC = SourceRef("x.txt", 1)


def record_kb(bundled_kb):
    """The bundled rules plus a handful of hand-made cards, rulings and notes."""
    text = "Vol\nQuand le Sphinx de papier arrive, piochez une carte."
    face = Face(
        {"fr": "Sphinx de papier", "en": "Paper Sphinx"},
        ("{U}",),
        "Créature : sphinx",
        (),
        ("Créature",),
        ("sphinx",),
        "1",
        "1",
        text,
        lang="fr",
    )
    halves = (
        Face({"fr": "Haut", "en": "Up"}, (), "Éphémère", (), (), (), None, None, "Piochez.", lang="fr"),
        Face({"fr": "Bas", "en": "Down"}, (), "Éphémère", (), (), (), None, None, "Défaussez.", lang="fr"),
    )
    cards = (
        Card(
            "paper-sphinx",
            dict(face.names),
            (face,),
            ("r1",),
            (),
            SRC,
            oracle={"en_type": "Creature — Sphinx", "en_text": "Flying\nWhen Paper Sphinx enters, draw a card."},
        ),
        Card("up-down", {"fr": "Haut // Bas", "en": "Up // Down"}, halves, (), (), SRC),
    )
    rulings = (
        Ruling(
            "r1",
            "paper-sphinx",
            "fr",
            "Le Sphinx de papier pioche même si la réserve est vide.",
            "NOTES",
            "fr/faq",
            (),
            (),
            (),
            SRC,
        ),
    )
    notes = (FaqNote("n1", "fr", "Surcharge pliable", "Une mécanique imaginaire.", (), (), ("* Un détail.",), SRC),)
    return with_readings(replace(bundled_kb, cards=cards, rulings=rulings, notes=notes))


def test_index_built_from_records(seeds_kb):
    kb = record_kb(seeds_kb)
    index = engine_of(entries(kb))
    assert ids(index.search("paper sphinx"))[0] == "paper-sphinx"
    assert ids(index.search("sphinx papier"))[:2] == ["paper-sphinx", "r1"]
    assert ids(index.search("kind:card flying lang:en")) == ["paper-sphinx"]
    assert ids(index.search("Down")) == ["up-down"]
    assert ids(index.search("réserve", kind="ruling")) == ["r1"]
    [ruling] = index.search("réserve", kind="ruling")
    assert ruling.title == "Sphinx de papier"
    assert ids(index.search("surcharge")) == ["n1"] and ids(index.search("détail")) == ["n1"]
    assert index.search("paper")[0].names == {"fr": "Sphinx de papier", "en": "Paper Sphinx"}
    index.close()


# --- malformed queries ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "box", ['"unbalanced', "lang:xx pioche", "kind:zzz pioche", "OR pioche", "pioche OR", "lang:fr", "-pioche", ""]
)
def test_malformed_queries(bundled, box):
    with pytest.raises(S.SearchError) as err:
        bundled.search(box)
    assert "\n" not in str(err.value) and str(err.value)


def test_parse_query():
    parsed = S.parse_query('pioche OR draw "bibliothèque vide" -carte lang:fr kind:rule,card')
    assert parsed.groups == ((S.Item("pioche"), S.Item("draw")), (S.Item("bibliothèque vide", True),))
    assert parsed.excluded == (S.Item("carte"),)
    assert parsed.langs == ("fr",) and parsed.kinds == ("rule", "card") and parsed.number is None
    assert S.parse_query("règle 703.4k").number == "703.4k"
    assert S.parse_query("12").number is None


# --- index life cycle -----------------------------------------------------------------------------------


def test_index_reused_without_parsing_and_rebuilt_on_change(tmp_path, monkeypatch):
    content = make_seeds(tmp_path)
    first = S.ensure_index(content)
    assert first.parent == S.index_root(content) and first.parent.parent == tmp_path / ".kb" / "index"

    def no_load(_):
        raise AssertionError("content parsed although unchanged")

    monkeypatch.setattr("kb.link.load.load", no_load)
    assert S.ensure_index(content) == first
    monkeypatch.undo()
    path = content / "fr" / "cr-120-piocher-une-carte.txt"
    path.write_text(path.read_text(encoding="utf-8") + "\n120.9 Règle xylophone ajoutée.\n", encoding="utf-8")
    old = time.time() - 120
    os.utime(first, (old, old))  # superseded folders are pruned once a minute old
    second = S.ensure_index(content)
    assert second != first and not first.exists()
    index = S.open_index(content)
    assert ids(index.search("xylophone"))[0].startswith("120.")
    index.close()


def test_concurrent_builds_leave_one_valid_index(tmp_path):
    content = make_seeds(tmp_path)
    errors = []

    def build():
        try:
            publish_index(S.index_root(content), S.index_key(content), kb)
        except Exception as err:  # noqa: BLE001 - collected for the assertion below
            errors.append(err)

    from kb.link.load import load

    kb = load(content)
    threads = [threading.Thread(target=build) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    index = S.open_index(content)
    assert ids(index.search("120.2a")) == ["120.2a"]
    index.close()
    assert not [p for p in S.index_root(content).iterdir() if p.name.startswith(("tmp-", "CURRENT."))]


def test_open_searcher_survives_rebuild(tmp_path):
    content = make_seeds(tmp_path)
    index = S.open_index(content)
    (content / "fr" / "extra.txt").write_text("120.9 Règle ajoutée.\n", encoding="utf-8")
    S.ensure_index(content)
    assert ids(index.search("120.2a")) == ["120.2a"]
    index.close()


# --- CLI ------------------------------------------------------------------------------------------------


def run(*args):
    return CliRunner().invoke(main, ["search", *args], catch_exceptions=False)


def test_cli_no_result_quotes_a_long_query_shortened(bundled_content):
    result = run("xyzzy" * 100, "--content", str(bundled_content))
    assert result.exit_code == 0 and "No result for 'xyzzy" in result.output and "…'" in result.output
    assert len(result.output) < 300


def test_cli_filters_that_meet_nowhere_give_no_result(bundled_content):
    for args in (["draw kind:rule", "--kind", "card"], ["draw lang:fr", "--lang", "en"]):
        result = run(*args, "--content", str(bundled_content))
        assert result.exit_code == 0 and "No result for" in result.output
        payload = json.loads(run(*args, "--json", "--content", str(bundled_content)).stdout)
        assert payload["results"] == [] and payload["editions"]["searched"]


def test_cli_json(bundled_content):
    result = run("règle 120.2a", "--json", "--content", str(bundled_content))
    assert result.exit_code == 0
    payload = json.loads(result.output)
    assert payload["query"] == "règle 120.2a"
    [first] = payload["results"]
    assert set(first) == {"kind", "id", "number", "title", "names", "langs", "snippets", "score", "editions"}
    assert set(payload) == {"query", "results", "did_you_mean", "editions", "elsewhere"}
    assert first["number"] == "120.2a" and first["langs"] == ["fr", "en"] and set(first["snippets"]) == {"fr", "en"}
    cards = json.loads(run("isperia", "--json", "--kind", "card", "--content", str(bundled_content)).output)
    assert cards["results"][0]["names"]["en"] == "Isperia the Inscrutable"


def test_cli_text_output_and_options(bundled_content):
    result = run("bibliotheque", "--lang", "fr", "--kind", "rule", "--limit", "2", "--content", str(bundled_content))
    assert result.exit_code == 0
    assert result.output.count("\n   FR  ") == 2 and "\x1b[" not in result.output
    coloured = CliRunner().invoke(main, ["search", "120.2a", "--content", str(bundled_content)], color=True)
    assert "\x1b[" in coloured.output and "120.2a" in coloured.output


def test_cli_no_result_and_errors(bundled_content):
    empty = run("xyzzy", "--json", "--content", str(bundled_content))
    assert empty.exit_code == 0 and json.loads(empty.output)["results"] == []
    for bad in ('"unbalanced', "lang:xx", "kind:zzz"):
        result = CliRunner().invoke(main, ["search", bad, "--content", str(bundled_content)])
        assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
        assert result.output.startswith("kb: ") and result.output.count("\n") == 1 and "Traceback" not in result.output
    unknown = CliRunner().invoke(main, ["search", "pioche", "--lang", "xx", "--content", str(bundled_content)])
    assert unknown.exit_code == 2 and unknown.output == "kb: unknown lang 'xx'; use one of fr, en\n"


# --- regressions: stop words, relaxed matches, phrases, names, cache folder, other languages ------------


@pytest.mark.parametrize(
    ("box", "expected"),
    [("protection from", "protection"), ("the stack", "stack"), ("with trample", "trample"), ("damage from", "damage")],
)
def test_stop_word_in_two_word_query(cr2015, box, expected):
    assert f"en/cr-en-20150926#{expected}" in ids(cr2015.search(box))[:2]


def test_french_articles_are_stop_words_as_english_ones_are():
    # Whoosh's French list (Snowball's) has « le », « la », « des » but not « les »: every French question asked
    # for « les », found in most French texts and in no English one
    from kb.search.analysis import lang_text

    french, english = lang_text("fr"), lang_text("en")
    assert all(french.is_stop(w) for w in ("les", "le", "la", "des", "lorsque", "quand"))
    assert english.is_stop("the") and not french.is_stop("pile")


def test_a_stop_word_of_one_language_that_is_a_word_of_another_is_searched(full):
    # « aura » (French for "will have") is in the French stop list, and the English Aura is a glossary term: it
    # found nothing, in either language
    found = full.search("aura", limit=3)
    assert found and found[0].title == "Aura" and found[0].kind == "glossary"
    assert ids(full.search("the aura", limit=3))[:1] == ids(found)[:1]  # `the` stays a stop word


def test_in_a_french_question_a_french_stop_word_asks_nothing_of_the_english_word_spelt_so(full):
    # « un », « ma », « son », « en » are English words too (the `un-` of Un-sets, `son`): a French question's
    # « un » was its rarest slot, weighing most and matching nothing it meant; « aura » names the English Aura
    from kb.search import lookup
    from kb.search.query import parse_query

    def asked(query: str) -> list[str]:
        return [s.text for s in lookup.slots(parse_query(query), full.tables, full.tables.langs)]

    assert asked("un jeton a quitté le champ de bataille") == ["jeton", "quitte le champ de bataille"]
    assert asked("son adversaire regarde ma main") == ["adversaire", "regarde", "main"]
    assert asked("une aura attachée à une créature") == ["aura", "attachee", "creature"]
    assert asked("un") == ["un"] and asked("ma main")[0] == "ma"  # their language unknown: searched as before


def test_stop_words_alone_still_find_card_names(seeds_kb):
    index = engine_of(entries(record_kb(seeds_kb)))
    assert ids(index.search("Down")) == ["up-down"] and ids(index.search("up down")) == ["up-down"]
    index.close()


def test_relaxed_matches_come_after_full_matches_and_never_by_name_prefix(bundled):
    results = bundled.search("pioche bibliothèque vide", limit=20)
    assert "120.4" in ids(results)[:3] and "slaughterhouse-bouncer" not in ids(results)  # « Videur des abattoirs »
    full = [
        "**" in r.snippets.get("fr", "") and all(w in r.snippets["fr"].lower() for w in ("pioch", "biblioth", "vide"))
        for r in results
    ]
    assert full == sorted(full, reverse=True)


def test_full_question_ranks_the_rule_first(bundled, cr2015):
    for index in (bundled, cr2015):
        assert "120.4" in ids(index.search("que se passe-t-il si je pioche dans une bibliothèque vide"))[:3]


def test_ordre_des_blessures_gives_the_rules_before_any_card(cr2015):
    found = cr2015.search("ordre des blessures")
    assert {"703.4i", "703.4j", "703.4h"} <= set(ids(found))  # beside the English rules of damage assignment order
    full = [
        i
        for i, r in enumerate(found)
        if "**ordre**" in r.snippets.get("fr", "") and "**blessures**" in r.snippets.get("fr", "")
    ]
    cards = [i for i, r in enumerate(found) if r.kind == "card"]
    assert not cards or max(full) < min(cards)


def test_stem_of_a_card_name_does_not_beat_the_word_in_text(bundled, cr2015):
    for index in (bundled, cr2015):
        first = index.search("piétinement")[0]
        assert first.id not in ("stomp-and-howl", "pietine-et-hurle") and "**piétinement**" in first.snippets["fr"]


def test_phrase_keeps_stop_words_in_order(cr2015):
    assert set(ids(cr2015.search('"library with no cards"'))[:2]) == {"120.4", "704.5b"}
    assert set(ids(cr2015.search('"no cards in it"'))[:2]) == {"120.4", "704.5b"}
    assert "120.4" not in ids(cr2015.search('"library with cards"', limit=50))
    assert "120.4" not in ids(cr2015.search('"cards no with library"', limit=50))


def test_note_title_ranks_high(bundled):
    assert "fr/faq-discorde-2006#guildes" in ids(bundled.search("Guildes"))[:3]


def test_unwritable_build_folder_searches_in_memory(tmp_path, monkeypatch):
    content = make_seeds(tmp_path)
    (tmp_path / ".kb").write_text("a file where the build folder should be")
    (tmp_path / "no-cache").write_text("a file where the user's cache folder should be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "no-cache"))  # no fallback either
    index = S.open_index(content)
    assert index.unsaved.startswith(f"cannot write the search index in {S.index_root(content)}: ")
    assert ids(index.search("120.2a")) == ["120.2a"]
    index.close()
    result = CliRunner().invoke(main, ["search", "120.2a", "--json", "--content", str(content)])
    assert result.exit_code == 0 and result.exception is None
    warning, payload = result.output.split("\n", 1)
    assert warning.startswith("kb: cannot write the search index in ") and "pass --content" in warning
    assert json.loads(payload)["results"][0]["id"] == "120.2a"


def test_unreadable_content_file_is_no_traceback(tmp_path, monkeypatch):
    content = make_seeds(tmp_path)
    real = Path.read_bytes

    def read_bytes(path):
        if path.name == "cr-120-piocher-une-carte.txt":
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    result = CliRunner().invoke(main, ["search", "bibliothèque", "--json", "--content", str(content)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 0 and "Traceback" not in result.output


def test_content_folders_sharing_a_parent_have_their_own_slot(tmp_path, monkeypatch):
    first, second = tmp_path / "c2015", tmp_path / "c2026"
    for folder in (first, second):
        shutil.copytree(make_seeds(folder.parent / f"{folder.name}-src"), folder)
    assert S.index_root(first) != S.index_root(second)
    a, b = S.ensure_index(first), S.ensure_index(second)

    def no_load(_):
        raise AssertionError("rebuilt although unchanged")

    monkeypatch.setattr("kb.link.load.load", no_load)
    assert S.ensure_index(first) == a and S.ensure_index(second) == b


def test_pruning_keeps_index_folders_bounded(tmp_path, seeds_kb):
    root = tmp_path / "index" / "slot"
    for n in range(6):
        publish_index(root, f"{n:064d}", seeds_kb)
    old = time.time() - 120
    for stale in list(root.glob("idx-*"))[:2]:
        os.utime(stale, (old, old))
    live = publish_index(root, "9" * 64, seeds_kb)
    folders = [p for p in root.iterdir() if p.name.startswith("idx-")]
    assert live in folders and len(folders) <= 1 + SPARE


GERMAN = """120. Eine Karte ziehen
120.1. Ein Spieler zieht eine Karte, indem er die oberste Karte seiner Bibliothek auf seine Hand nimmt.
120.2 Karten können nur einzeln gezogen werden.
"""


def test_other_languages_are_searchable(tmp_path):
    content = make_seeds(tmp_path)
    (content / "de").mkdir()
    (content / "de" / "cr-120-karte-ziehen.txt").write_text(GERMAN, encoding="utf-8")
    index = S.open_index(content)
    assert index.langs == ("fr", "en", "de")
    found = index.search("zieht")  # Snowball German: ziehen, zieht and gezogen share no stem
    assert found and found[0].langs[0] == "de" and "**zieht**" in found[0].snippets["de"]
    assert index.search("ziehen")[0].title == "Eine Karte ziehen"
    assert ids(index.search("Bibliothek lang:de")) == ["120.1"]
    assert not index.search("bibliotheque lang:de")
    with pytest.raises(S.SearchError, match="unknown lang 'it'; use one of fr, en, de"):
        index.search("ziehen lang:it")
    index.close()


# --- spelling, symbols, negations, headwords --------------------------------------------------------------


def test_misspelt_word_is_corrected_and_said(cr2015, content_2015):
    found = cr2015.search("tramle")
    assert ids(found)[:2] == ["702.19", "en/cr-en-20150926#trample"]
    assert found.corrected == "trample"
    assert "702.12" in ids(cr2015.search("indestructable"))[:3]
    assert "702.7" in ids(cr2015.search("first stirke"))[:3]  # two letters swapped
    text = run("tramle", "--limit", "1", "--content", str(content_2015))
    assert text.exit_code == 0 and "Did you mean: trample" in text.output
    payload = json.loads(run("tramle", "--json", "--content", str(content_2015)).stdout)
    assert payload["did_you_mean"] == "trample"
    assert cr2015.search("trample") and cr2015.search("trample").corrected is None


def test_inflection_missing_from_the_texts_found_by_its_stem(cr2015):
    found = cr2015.search("shuffler")
    assert ids(found)[0] == "701.16" and found.corrected is None  # `shuffl`, the stem of shuffle


@pytest.mark.parametrize(
    ("box", "token"), [("{T}", "{T}"), ("+1/+1", "+1/+1"), ("-1/-1 counters", "-1/-1"), ("2/2", "2/2")]
)
def test_symbols_and_stats_are_words_of_their_own(cr2015, box, token):
    found = cr2015.search(box)  # a language's own: the first result marks it whole, in the text it is in
    assert found and any(f"**{token}**" in snippet for snippet in found[0].snippets.values())


def test_a_letter_never_matches_a_symbol(cr2015):
    assert "107.5" in ids(cr2015.search("{T}"))[:3] and "en/cr-en-20150926#tap symbol" in ids(cr2015.search("{T}"))
    for r in cr2015.search("pioche tap", limit=30):
        assert "**{" not in "".join(r.snippets.values()) and "{**" not in "".join(r.snippets.values())


def test_rule_title_then_glossary_headword(cr2015):
    assert ids(cr2015.search("trample"))[:2] == ["702.19", "en/cr-en-20150926#trample"]
    assert "en/cr-en-20150926#summoning sickness rule" in ids(cr2015.search("summoning sickness"))[:3]


# --- bad input --------------------------------------------------------------------------------------------

NASTY = [
    "\x00\x01\x02",
    "pioche\x00\x1b[31m",
    "a" * 10_000,
    " ".join(["draw", "card", "pioche", "zzqx"] * 2_500),
    "OR",
    "OR OR",
    "-",
    "--",
    '""',
    '"',
    '"""',
    '-""',
    "lang:",
    "kind:",
    "edition:",
    "lang:fr,en,fr pioche",
    "((((",
    "*",
    "\u202e\u200b",
    "é" * 5_000,
    "{" * 3_000,
    "1/" * 3_000,
    "🂡 pioche",
]


@pytest.mark.parametrize("box", NASTY, ids=range(len(NASTY)))
def test_any_string_gives_results_or_one_clear_error(cr2015, box):
    try:
        found = cr2015.search(box)
    except S.SearchError as err:
        assert str(err) and "\n" not in str(err)
    else:
        assert all(isinstance(r, S.SearchResult) for r in found)


def test_bad_input_in_the_cli_is_exit_status_2_or_results(content_2015):
    for box in ('"', "OR", "-x", "kind:zzz x", "edition:1999-01-01 x", '""', "\x00"):
        result = CliRunner().invoke(main, ["search", box, "--content", str(content_2015)])
        assert result.exit_code == 2 and result.output.startswith("kb: ") and result.output.count("\n") == 1
        assert "Traceback" not in result.output
    long = CliRunner().invoke(main, ["search", "pioche " * 3_000, "--json", "--content", str(content_2015)])
    assert long.exit_code == 0 and json.loads(long.stdout)["results"]


def test_snippet_of_a_long_text_is_bounded():
    from kb.search.results import LEAD, SNIPPET
    from kb.search.results import highlight as _highlight

    found = _highlight("trample " * 4_000 + "end", {"trampl"}, "en")
    assert "**trample**" in found and len(found.replace("**", "")) <= SNIPPET + 2 * LEAD
    assert "**trample**" in _highlight("x" * 20_000 + " trample", {"trampl"}, "en")


# --- editions -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def two_editions(tmp_path_factory):
    """The 2015 and 2026 English CRs together: 2026 is current (the most rules)."""
    from .conftest import CR2015, CR2026

    content = tmp_path_factory.mktemp("editions") / "content"
    (content / "en").mkdir(parents=True)
    shutil.copy(CR2015, content / "en" / CR2015.name)
    shutil.copy(CR2026, content / "en" / CR2026.name)
    return content


def test_current_edition_by_default_another_on_request(two_editions):
    index = S.open_index(two_editions)
    assert index.editions == (("en:2026-01-16",), ("en:2015-09-26",))
    found = index.search("storm")
    assert found[0].id in ("702.40", "en/cr-en-20260116#storm") and found.editions == ("en:2026-01-16",)
    assert all("2015" not in r.id for r in index.search("storm", limit=50))
    assert not S.index_root(two_editions, every=True).exists()  # the index of every edition: built when asked
    old = index.search("storm edition:2015-09-26")
    assert current(S.index_root(two_editions, every=True)) is not None
    assert old[0].id in ("702.39@en:2015-09-26", "en/cr-en-20150926#storm")
    assert old[0].editions == {"en": "en:2015-09-26"}
    assert index.search("storm", edition="en:2015-09-26")[0].id == old[0].id
    assert ids(index.search("702.39", edition="2015-09-26"))[0] == "702.39@en:2015-09-26"
    with pytest.raises(S.SearchError, match="unknown edition '1999'; loaded: en:2026-01-16, en:2015-09-26"):
        index.search("storm edition:1999")
    index.close()


def test_cli_says_which_edition_it_searched(two_editions):
    result = CliRunner().invoke(main, ["search", "storm", "--limit", "1", "--content", str(two_editions)])
    assert result.exit_code == 0
    assert "Searched the English rules of 2026-01-16; other editions loaded: add edition:2015-09-26." in result.output
    payload = json.loads(run("storm", "--json", "--edition", "2015-09-26", "--content", str(two_editions)).stdout)
    assert payload["editions"] == {"searched": ["en:2015-09-26"], "others": ["en:2026-01-16"]}  # loaded, not searched
    older = CliRunner().invoke(main, ["search", "storm edition:2015-09-26", "--content", str(two_editions)])
    assert "Searched the English rules of 2015-09-26; other editions loaded: add edition:2026-01-16." in older.output


def test_cli_results_are_numbered_their_labels_in_one_language_and_wrapped_on_a_terminal(full_content):
    from kb.commands.search import _wrapped, status_line

    text = run("blessures mortelles", "--limit", "12", "--content", str(full_content)).output
    numbered = [line for line in text.splitlines() if re.match(r"^ ?\d+\. ", line)]
    assert [int(line.split(".")[0]) for line in numbered] == list(range(1, 13))
    assert " 1. " in text and "(by translation: blessures mortelles → lethal damage)" in text  # English by default
    assert "par traduction" not in text and "\x1b[" not in text  # piped: no colour, labels in one language
    french = run("tuer", "--limit", "3", "--lang", "fr", "--content", str(full_content)).output
    assert "(dans les mots des règles : tuer → détruire)" in french  # --lang fr: the labels in French
    lines = _wrapped("EN  " + "word " * 40 + "**trample** end", 60, "   ", "       ")
    assert len(lines) > 2 and all(len(line) < 60 for line in lines) and lines[1].startswith("       w")
    assert any("**trample**" in line for line in lines)  # a marked word kept whole, its marks with it
    assert _wrapped("EN  text", 0, "   ", "       ") == ["   EN  text"]  # piped: one line
    assert status_line(["en:2026-01-16", "fr:undated"], ["en:2015-09-26"]) == (
        "Searched the English rules of 2026-01-16 and the French texts (undated); other editions loaded: add "
        "edition:2015-09-26."
    )


# --- across languages, through the lexicon mined from printed cards ----------------------------------------


@pytest.fixture(scope="module")
def full_content(tmp_path_factory) -> Path:
    """The bundled content (2015 and 2026 CRs, French extracts, FAQ, cards, lexicon) in a temporary folder."""
    content = tmp_path_factory.mktemp("full") / "content"
    shutil.copytree(CONTENT, content)
    return content


@pytest.fixture(scope="module")
def full(full_content):
    index = S.open_index(full_content)
    yield index
    index.close()


def bridged(result) -> bool:
    """Whether a result was found across languages: through a translation of the query's words, or by the name its
    concept has in the query's language (a terminology's, shown marked as unofficial)."""
    return bool(result.translated or result.named)


def test_french_keyword_finds_the_english_rule_by_its_french_name_marked_unofficial(full_content):
    payload = json.loads(run("piétinement", "--json", "--limit", "20", "--content", str(full_content)).output)
    results = payload["results"]
    rule = results[0]
    assert rule["id"] == "702.19" and rule["langs"] == ["en"] and rule["named"] == {"fr": "Piétinement"}
    direct = [r for r in results if "fr" in r["langs"] and "**piétinement**" in r["snippets"]["fr"].lower()]
    assert direct and all("via" not in r and "translated" not in r for r in direct)  # found as typed
    text = run("piétinement", "--limit", "3", "--content", str(full_content)).output
    assert "702.19  Trample · FR Piétinement*\n" in text
    translated = next(r for r in results if r.get("via") == "lexicon")  # an English text, through the lexicon
    assert translated["translated"] == [{"from": "fr", "to": "en", "source": "piétinement", "targets": ["trample"]}]
    assert "**trample**" in translated["snippets"]["en"].lower()


def test_an_untitled_rule_shows_its_headings_unofficial_name(full, full_content):
    # 704.5g is titled by its heading, State-Based Actions: the terminology's French name of 704 goes with it, marked
    found = full.search("704.5g")
    assert found[0].title == "State-Based Actions" and found[0].named is None
    assert found[0].heading_named == {"fr": "Actions basées sur un état"}
    assert full.search("704")[0].heading_named is None  # a titled rule: its own name (`named`) only
    text = run("704.5g", "--limit", "1", "--content", str(full_content)).output
    assert "704.5g  State-Based Actions · FR Actions basées sur un état*\n" in text
    payload = json.loads(run("704.5g", "--limit", "1", "--json", "--content", str(full_content)).output)
    assert payload["results"][0]["heading_named"] == {"fr": "Actions basées sur un état"}
    # a rule naming a concept of its own shows that name, not its heading's (302.6 defines summoning sickness)
    sick = next(r for r in full.search("summoning sickness") if r.number == "302.6")
    assert sick.named == {"fr": "Règle du mal d’invocation"} and sick.title == "Creatures"
    shown = run("302.6", "--content", str(full_content)).output  # its section's name first: no translation of it
    assert "302.6  Creatures · FR Créatures* › Règle du mal d’invocation*\n" in shown


def test_a_result_names_only_the_translations_it_was_found_by(full):
    # « la pile »: 405 Stack by its French name; the English texts printing `pile` (a cognate: a pile of cards) were
    # not found through `stack`, and say no translation
    answer = full.search("la pile", limit=50)
    assert answer[0].id == "405"
    cognates = [r for r in answer if r.langs == ("en",) and "**pile**" in r.snippets["en"].lower()]
    assert cognates and all(r.translated == () for r in cognates)
    through = [r for r in answer if r.translated]
    assert through and all(targets == ("stack",) for r in through for *_, targets in r.translated)


def test_two_french_keywords_find_both_english_rules(full):
    found = full.search("piétinement contact mortel", limit=10)
    numbers = [r.number or "" for r in found]
    assert any(n.startswith("702.19") for n in numbers) and any(n.startswith("702.2") for n in numbers)
    assert {"702.2", "702.19"} <= set(numbers[:5])  # each named by its French name
    assert "702.2c" in numbers  # deathtouch's damage is lethal: what trample is about (its characteristic terms)
    assert all(bridged(r) for r in found if r.langs == ("en",))
    both = next(r for r in found if r.number == "122.1b")  # the rule listing both keywords
    assert {t[2] for t in both.translated} == {"piétinement", "contact mortel"}
    assert found.corrected is None  # `contact` and `mortel` are understood, never "corrected"


def test_a_french_word_misspelt_or_inflected_is_translated_once_corrected(full):
    found = full.search("pietinnement", limit=5)  # a letter doubled: searched as the stem of « piétinement »
    assert found[0].number == "702.19" and bridged(found[0])
    assert any(r.translated == (("fr", "en", "pietinnement", ("trample",)),) for r in found)
    found = full.search("declaration des bloquers", limit=5)  # « bloquer » is one edit away: searched as its stem
    assert found.corrected is None and found[0].number == "509" and bridged(found[0])  # Declare Blockers Step
    lifelink = full.search("lifelnk")
    assert lifelink[0].number == "702.15" and lifelink.corrected == "lifelink"  # a typo, not a stem
    assert full.search("pietinnement lang:en")[0].number == "702.19"  # French read as French, English searched
    found = full.search("défausserions")[0]  # the stem `defauss` of « défausse », one letter short
    assert found.number == "701.9" and bridged(found)


def test_a_word_as_typed_outranks_its_translation(full):
    found = full.search("pioche")
    assert found[0].number == "121" and found[0].named == {"fr": "Piocher une carte"}  # the rule of drawing, by name
    french = [r for r in found if "fr" in r.langs]  # after the concepts it names, the French text printing the word
    assert french and not french[0].translated and "**pioch" in french[0].snippets["fr"].lower()
    found = full.search("prevision")  # the rule of the keyword, by its French name, then the FAQ's note of that title
    assert found[0].id == "702.57" and bridged(found[0])
    assert "fr/faq-discorde-2006#prevision" in ids(found)[:5]


def test_a_typo_is_corrected_before_a_shorter_word_stands_for_it(full):
    deathtouch, shuffler = full.search("deathtuch"), full.search("shuffler")
    assert ids(deathtouch)[0] == "702.2" and deathtouch.corrected == "deathtouch"  # not `death`
    assert ids(shuffler)[0] == "701.24" and shuffler.corrected is None  # shuffles: its stem


def test_the_query_language_tells_a_word_from_its_false_friend(full):
    french = full.search("la main", limit=3)  # « main »: a hand (found through the lexicon), not the main phase
    assert french[0].title == "Hand" and bridged(french[0]) and not any(r.title == "Main Phase" for r in french)
    assert all(r.title == "Main Phase" for r in full.search("main phase", limit=2))


def test_english_words_reach_the_french_faq(full):
    found = full.search("forecast upkeep", limit=50)
    note = next(r for r in found if r.id == "fr/faq-discorde-2006#prevision")
    assert note.translated == (("en", "fr", "forecast", ("prévision",)), ("en", "fr", "upkeep", ("entretien",)))
    assert "**prévision**" in note.snippets["fr"]
    assert ids(full.search("forecast upkeep kind:note"))[0] == "fr/faq-discorde-2006#prevision"
    ruling = full.search("haste kind:ruling")[0]  # a French FAQ ruling with the Gatherer ruling it translates
    assert ruling.langs == ("en", "fr") and not ruling.translated
    assert "**haste**" in ruling.snippets["en"] and "**célérité**" in ruling.snippets["fr"]


def test_translation_only_into_searched_languages(full):
    assert all("fr" in r.langs and not r.translated for r in full.search("piétinement lang:fr"))
    assert ids(full.search("piétinement lang:en"))[0] == "702.19"


def test_lexicon_tables_keep_sure_entries_and_meaningful_words(seeds_kb):
    from kb.link.lexicon.records import ExampleCard, FrenchTerm, Lexicon, LexiconEntry

    card = (ExampleCard("Assault Zeppelid", "Zeppelide d'assaut"),)

    def entry(english, french, evidence=20, category="keyword"):
        return LexiconEntry(english, category, tuple(FrenchTerm(f, evidence) for f in french), 1.0, evidence, card)

    lexicon = Lexicon((
        entry("Trample", ["Piétinement"]),
        entry("Deathtouch", ["Contact mortel"], evidence=1),  # one card: unsure
        entry("random", ["hasard", "aléatoire"], category="word"),  # conflicting: unsure
        entry("discard", ["défaussez-vous", "défausse"], category="word"),  # two forms of one verb: sure
        entry("the", ["de"], category="word"),  # stop words
        entry("player", ["joueur"], category="word"),  # in over 10% of these English texts: not into French
        entry("shuffle", ["mélangez"], category="word"),
    ))  # fmt: skip
    items = [e for e in entries(seeds_kb) if e.current]
    index = engine_of(items, Vocabulary(lexicon))
    tables = index.tables.lexicon
    assert set(tables["fr>en"]["keys"]) == {"pietinement", "melangez", "joueur", "defaussez vous", "defausse"}
    assert tables["en>fr"]["keys"] == {
        "discard": [["défaussez-vous", "défausse"], []],
        "shuffle": [["mélangez"], []],
        "trample": [["piétinement"], []],
    }
    melange = index.tables.forms("fr", "melange")[0]  # another form of `mélangez`, through its first index form
    assert tables["fr>en"]["terms"][melange] == [["shuffle"], []]
    found = index.search("mélange", lang="en")
    assert found and all(r.translated == (("fr", "en", "mélange", ("shuffle",)),) for r in found)
    assert not any(r.translated for r in index.search("contact mortel", lang="en"))  # an unsure entry
    assert not any(r.translated for r in index.search("hasard", lang="en"))
    index.close()
    assert engine_of(items).tables.lexicon == {}  # no lexicon, no translation


def test_rules_without_counterpart_today_are_searchable(full, full_content):
    found = full.search("ordre d'assignation des blessures", limit=3)
    assert {"703.4h@fr:undated", "703.4i@fr:undated"} & set(ids(found))
    orphan = next(r for r in full.search("703.4h") if r.id == "703.4h@fr:undated")
    assert orphan.number == "703.4h" and orphan.langs == ("fr",) and orphan.editions == {"fr": "fr:undated"}
    assert "ordre d'assignation" in orphan.snippets["fr"]


def test_the_site_links_a_rule_without_counterpart_to_its_own_row(bundled_kb):
    from kb.site.gather import gather
    from kb.site.searchpages import page_of, pages_of

    pages = pages_of(gather(bundled_kb))
    rules = {
        key: {"kind": "rule", "key": key, "number": key.split("@")[0]}
        for key in ("703.4h@fr:undated", "703.4h", "121.2")
    }
    assert page_of(pages, rules["703.4h@fr:undated"]) == "rules/703.html#fr-703.4h"
    assert page_of(pages, rules["703.4h"]) == "rules/703.html#703.4h"  # today's 703.4h: French 703.4e
    assert page_of(pages, rules["121.2"]) == "rules/121.html#121.2"  # French 120.2 sits in today's 121.2


# --- the site's JavaScript ranks as Python does ------------------------------------------------------------

JS_QUESTIONS = [
    "pioche",
    "bibliotheque vide",
    "que se passe-t-il si je pioche dans une bibliothèque vide",
    "piochees",
    "l'etape pioche",
    '"bibliothèque vide"',
    "pioche -bibliothèque",
    "pioche OR draw",
    "lang:en draw",
    "kind:card isper",
    "isper",
    "Down",
    "the of",
    "tramle",
    "trample planeswalker",
    "deathtouch trample",
    "{T}",
    "+1/+1 counter",
    "2/2 token",
    "can a tapped creature block",
    "why can't my new creature attack this turn",
    "-1/-1 counters",
    "120.2a",
    "règle 703.4k",
    "CR 120",
    "shuffler",
    "shufflings",
    "summoning sickness",
    "xyzzy",
    "piétinement",
    "piétinement contact mortel",
    "contact mortel trample",
    "forecast upkeep",
    "kind:note forecast",
    "piochées",
    "lang:en pioche",
    "vol initiative",
    "sur le champ de bataille",
    "graft -greffe",
    "protecton of the library",
    "créatures bloqueuses assignées",
    "deathtuch",
    "règle 120.4",
    "voir règle 120.4",
    "pioche -draw",
    "draw -pioche",
    "bibliothèque -library",
    "(See rule 704)",
    "703,4k",
    "la pile",
    "who goes first",
    "going first",
    "tuer une créature",
    "mal d'invocation",
    "hsate",
    "sotrm",
    "can I respond to a triggered ability naming no card at all",
]
PARAPHRASES = (
    ("en", "go first", ("starting player",)),
    ("en", "kill", ("destroy", "dies")),
    ("fr", "tuer", ("détruire", "meurt")),
    ("fr", "mal d'invoc", ("mal d'invocation",)),
)
"""Lines of paraphrase tables, for the JavaScript to follow as the Python does."""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
@pytest.mark.parametrize("top", [None, 3])
def test_javascript_ranks_exactly_as_python(tmp_path, seeds_kb, kb_2015, lexicon, monkeypatch, top):
    # The index's export, read by kbsearch.js in Node as the site reads it: the same results, scores and corrections;
    # also when the best hits are few (3), where the documents the query names come from beyond them.
    from kb.search import rank

    if top is not None:
        monkeypatch.setattr(rank, "TOP", top)

    index, folder = _site_export(tmp_path, seeds_kb, kb_2015, lexicon)
    module = (ROOT / "templates" / "static" / "kbsearch.js").as_uri()
    script = tmp_path / "run.mjs"
    script.write_text(JS_RUNNER.replace("MODULE", json.dumps(module)), encoding="utf-8")
    (tmp_path / "q.json").write_text(json.dumps(JS_QUESTIONS), encoding="utf-8")
    done = subprocess.run(
        ["node", str(script), str(folder), str(tmp_path / "q.json")],
        capture_output=True,
        text=True,
        check=True,
    )
    for question, js in zip(JS_QUESTIONS, json.loads(done.stdout), strict=True):
        answer = index.search(question)
        python = [
            {
                "id": r.id,
                "score": round(r.score, 9),
                "langs": list(r.langs),
                "translated": [[a, b, c, list(d)] for a, b, c, d in r.translated],
                "marked": sorted(lang for lang, text in r.snippets.items() if "**" in text),
            }
            for r in answer
        ]
        assert js["results"] == python, question
        assert js["corrected"] == answer.corrected, question


def _site_export(tmp_path: Path, seeds_kb, kb_2015, lexicon):
    """The engine over the seeds and the 2015 CR with a lexicon, and its export as the site holds it."""
    from kb.search.export import write_documents
    from kb.search.writer import entry_langs

    items = [e for e in entries(seeds_kb) if e.current]
    items += [e for e in entries(kb_2015) if e.current and e.kind in ("rule", "glossary")]
    items = list({e.id: e for e in items}.values())
    index = engine_of(items, Vocabulary(lexicon, (), PARAPHRASES))
    folder = shutil.copytree(Path(index.keep.name) / "export", tmp_path / "search")  # the site's copy
    write_documents(folder, items, entry_langs(items), lambda stored: f"page-{stored['key']}")  # with its pages
    return index, folder


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_site_fetches_each_step_s_files_at_once(tmp_path, seeds_kb, kb_2015, lexicon):
    # Every fetch of kbsearch.js is answered 5 ms later; a fetch's round is one more than the highest round of the
    # fetches answered before it was made. A question's words, their translations' and postings, the rank data and
    # the results' documents come in a few rounds (core.json is the first), each file once; a misspelt word asks
    # its corrections' files after the spelling's, a phrase looked for in the texts their documents before the rank
    # data (one round more). The answers are those fetched one at a time.
    index, folder = _site_export(tmp_path, seeds_kb, kb_2015, lexicon)
    module = (ROOT / "templates" / "static" / "kbsearch.js").as_uri()
    script = tmp_path / "rounds.mjs"
    script.write_text(ROUNDS_RUNNER.replace("MODULE", json.dumps(module)), encoding="utf-8")
    questions = ["can a tapped creature block", "que se passe-t-il si je pioche dans une bibliothèque vide",
                 "dégâts de combat", "702.19", "tramle", "pioche -bibliothèque", '"combat damage step"']  # fmt: skip
    (tmp_path / "q.json").write_text(json.dumps(questions), encoding="utf-8")
    done = subprocess.run(
        ["node", str(script), str(folder), str(tmp_path / "q.json")], capture_output=True, text=True, check=True
    )
    found = dict(zip(questions, json.loads(done.stdout), strict=True))
    for question, (rounds, names, ids, alone) in found.items():
        assert len(names) == len(set(names)), question  # no file fetched twice
        assert ids == alone, question
        assert ids == [r.id for r in index.search(question)], question
        assert rounds <= (6 if question in ("tramle", '"combat damage step"') else 5), (question, rounds)
    assert len(found["can a tapped creature block"][1]) > 20  # many files, a few rounds
    rounds, names = found["702.19"][:2]
    assert rounds <= 3  # core, the numbers, the documents: no word of « 702.19 » looked up
    assert {n.split("-")[0].removesuffix(".json") for n in names} == {"core", "numbers", "docs"}


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_a_failed_fetch_is_tried_again_by_the_next_search(tmp_path, seeds_kb, kb_2015, lexicon):
    # A file the network lost fails that search (its error, not a wrong answer) and is fetched again by the next.
    _, folder = _site_export(tmp_path, seeds_kb, kb_2015, lexicon)
    first, second = _node(
        tmp_path,
        folder,
        """let lose = 1;
const index = await Index.open(async (name) => {
  if (name.startsWith("terms-") && lose) { lose -= 1; throw new Error(`lost ${name}`); }
  return JSON.parse(readFileSync(`${process.argv[2]}/${name}`, "utf8"));
});
let first;
try { await index.search("trample"); first = "answered"; } catch (err) { first = err.message; }
const second = await index.search("trample");
console.log(JSON.stringify([first, second.results.map((r) => r.id)]));
""",
    )
    assert first.startswith("lost terms-")
    assert second and second[0].startswith("702.19")


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_words_typed_whole_are_fetched_before_the_search(tmp_path, seeds_kb, kb_2015, lexicon):
    # While the reader types « can a tapped creature », the site fetches those words' files (their lookups and
    # postings, never rank data or documents); the search of the whole question then fetches fewer files and
    # answers as a fresh index does. A prefetch of something malformed or unknown fails silently.
    _, folder = _site_export(tmp_path, seeds_kb, kb_2015, lexicon)
    ahead, after, fresh, ids, fresh_ids = _node(
        tmp_path,
        folder,
        """const names = [];
const read = (name) => JSON.parse(readFileSync(`${process.argv[2]}/${name}`, "utf8"));
const load = async (name) => { names.push(name); return read(name); };
const index = await Index.open(load);
await index.prefetch("can a tapped creature");
const ahead = names.splice(0);
await index.prefetch('lang:xx "unclosed -');
const found = await index.search("can a tapped creature block");
const after = names.splice(0);
const fresh = await (await Index.open(load)).search("can a tapped creature block");
const ids = (answer) => answer.results.map((r) => r.id);
console.log(JSON.stringify([ahead, after, names.length, ids(found), ids(fresh)]));
""",
    )
    assert any(n.startswith("vocab-") for n in ahead) and any(n.startswith("terms-") for n in ahead)
    assert not any(n.startswith(("rank-", "docs-")) for n in ahead)
    assert len(after) < fresh - 1  # the fresh index read core.json too
    assert ids == fresh_ids and ids


def _node(tmp_path: Path, folder: Path, body: str):
    """What a Node script prints (JSON): `body`, with kbsearch.js's `Index` and node:fs's `readFileSync` imported, and
    the export's folder as `process.argv[2]`."""
    module = (ROOT / "templates" / "static" / "kbsearch.js").as_uri()
    script = tmp_path / "run-node.mjs"
    head = f'import {{ readFileSync }} from "node:fs";\nconst {{ Index }} = await import({json.dumps(module)});\n'
    script.write_text(head + body, encoding="utf-8")
    done = subprocess.run(["node", str(script), str(folder)], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


ROUNDS_RUNNER = """import { readFileSync } from "node:fs";
const { Index } = await import(MODULE);
const [dir, questions] = process.argv.slice(2);
const read = (name) => JSON.parse(readFileSync(`${dir}/${name}`, "utf8"));
const out = [];
for (const q of JSON.parse(readFileSync(questions, "utf8"))) {
  let answered = 0, rounds = 0;
  const names = [];
  const late = async (name) => {
    const mine = answered + 1;
    names.push(name);
    await new Promise((r) => setTimeout(r, 5));
    answered = Math.max(answered, mine);
    rounds = Math.max(rounds, mine);
    return read(name);
  };
  const found = await (await Index.open(late)).search(q, 10);
  const alone = await (await Index.open(async (name) => read(name))).search(q, 10);
  out.push([rounds, names, found.results.map((r) => r.id), alone.results.map((r) => r.id)]);
}
console.log(JSON.stringify(out));
"""


JS_RUNNER = """import { readFileSync } from "node:fs";
const { Index } = await import(MODULE);
const [dir, questions] = process.argv.slice(2);
const index = await Index.open(async (name) => JSON.parse(readFileSync(`${dir}/${name}`, "utf8")));
const out = [];
for (const q of JSON.parse(readFileSync(questions, "utf8"))) {
  const { results, corrected } = await index.search(q, 10);
  const text = (parts) => parts.map((p) => (p.mark ? `**${p.text}**` : p.text)).join("");
  out.push({ corrected, results: results.map((r) => ({ id: r.id, score: Math.round(r.score * 1e9) / 1e9,
    langs: r.langs, translated: r.translated,
    marked: Object.entries(r.snippets).filter(([, p]) => text(p).includes("**")).map(([l]) => l).sort() })) });
}
console.log(JSON.stringify(out));
"""


def _small_content(root: Path) -> Path:
    (root / "en").mkdir(parents=True)
    text = "".join(f"100.{i}. A player draws a card in step {i}. See rule 100.1.\n\n" for i in range(1, 40))
    (root / "en" / "cr-en.txt").write_text(f"1. Game Concepts\n\n100. General\n\n{text}", encoding="utf-8")
    return root


def _concept_index(index: bool = True):
    """A small English index: trample's rules speak of lethal and excess damage, deathtouch's 702.2c of lethal
    damage; 120 other rules make those words rare."""
    from kb.search.entries import Entry

    def rule(number, text, title="", section=""):
        heads = {"en": (title,)} if title else {}
        return Entry("rule", number, {"en": title} if title else {}, {"en": text}, number, context={"en": section},
                     heads=heads, editions={"en": "en:2026-01-16"})  # fmt: skip

    items = [
        rule("702.19", "Trample", "Trample"),
        rule("702.19a", "Trample assigns lethal damage to its blockers, the excess to the player.", section="Trample"),
        rule("702.19b", "Trample assigns the excess beyond lethal damage.", section="Trample"),
        rule("702.19e", "Trample excess wizardry.", section="Trample"),
        rule("702.19f", "Trample goblin wizardry.", section="Trample"),
        rule("702.2", "Deathtouch", "Deathtouch"),
        rule("702.2c", "Damage from a source with deathtouch is lethal damage.", section="Deathtouch"),
        rule("702.2d", "Deathtouch works from any zone of the game.", section="Deathtouch"),
        rule("510.1", "Blockers are assigned lethal damage, the excess goes on."),
    ]
    items += [rule(f"800.{k}", f"Filler number {k} about sorcerer{'x' * k} and golems.") for k in range(1, 121)]
    return engine_of(items) if index else items


def test_a_one_word_headword_has_the_characteristic_terms_of_its_subtree():
    index = _concept_index()
    trample = dict(index.tables.concepts["en"]["trampl"])
    assert {"excess", "assign"} <= set(trample) and len(trample) == 4 and max(trample.values()) == 1.0
    assert "trampl" not in trample  # itself
    assert not {"the", "to", "a", "golem"} & set(trample)  # stop words; a word in over 5% of the documents
    index.close()


def test_a_keyword_beside_another_finds_what_its_characteristic_terms_say():
    index = _concept_index()
    found = index.search("deathtouch trample", limit=20)
    order = [r.number for r in found]
    assert order.index("702.2c") < order.index("702.2d")  # lethal damage: what trample is about
    near = {r.number: r.score for r in found}
    assert near["702.19e"] == pytest.approx(near["702.19f"])  # they hold `trample`: `excess` adds nothing there
    assert "510.1" not in near  # trample's terms alone, no word of the query: not a match
    assert "702.2c" not in [r.number for r in index.search("trample", limit=20)]  # a word alone: as such
    index.close()


def test_characteristic_terms_ignore_the_cards_loaded():
    from kb.search.entries import Entry

    items = _concept_index(index=False)
    cards = [Entry("card", f"beast-{k}", {"en": f"Beast {k}"}, {"en": "Trample. Excess is lethal."}) for k in range(99)]
    alone, beside = engine_of(items), engine_of(items + cards)
    assert alone.tables.concepts == beside.tables.concepts and "trampl" in alone.tables.concepts["en"]
    alone.close()
    beside.close()
