"""Players' words in search: the paraphrase tables lead a query's phrasing to the rules' wording (in its language,
and for another language's players through the lexicon to the reference rules), said so on each result; a
question naming no card asks the rules first."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.commands.search import through
from kb.search import rank as R
from kb.search.index import open_index
from kb.search.lookup import Tables, slots
from kb.search.query import parse_query

CR = """Magic: The Gathering Comprehensive Rules

These rules are effective as of January 16, 2026.

1. Game Concepts

103. Starting the Game

103.1. At the start of a game, the players determine which one of them will choose the starting player.

104. Ending the Game

104.3a A player can concede the game at any time; the game keeps going for the others.

7. Additional Rules

701. Keyword Actions

701.8. Destroy

701.8a To destroy a permanent, move it from the battlefield to its owner's graveyard.

702. Keyword Abilities

702.19. Trample

702.19a Trample is a static ability that modifies the rules for assigning an attacking creature's combat damage.

Glossary

Dies
A creature or planeswalker "dies" if it is put into a graveyard from the battlefield. See rule 700.4.

Credits
"""
PARAPHRASES_EN = """# kb-paraphrases/1
go first\tstarting player\tsynonym\tplayers' usage
"""
PARAPHRASES_FR = """# kb-paraphrases/1
tuer\tdétruire | meurt\tverb\tusage des joueurs
"""
TERMINOLOGY = """# kb-terminology/1
rule:701.8\tDestroy\tDétruire\tcurated\tusual French
glossary\tDies\tMourir\tcurated\tusual French
rule:702.19\tTrample\tPiétinement\tcurated\tusual French
"""
FRENCH = """Règles complètes de Magic: The Gathering

701.8a

Pour détruire un permanent, déplacez-le du champ de bataille vers le cimetière de son propriétaire.
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    content = tmp_path_factory.mktemp("paraphrases") / "content"
    (content / "en").mkdir(parents=True)
    (content / "fr").mkdir()
    (content / "en" / "cr.txt").write_text(CR, encoding="utf-8")
    (content / "en" / "paraphrases-en.tsv").write_text(PARAPHRASES_EN, encoding="utf-8")
    (content / "fr" / "paraphrases-fr.tsv").write_text(PARAPHRASES_FR, encoding="utf-8")
    (content / "fr" / "terminologie.tsv").write_text(TERMINOLOGY, encoding="utf-8")
    (content / "fr" / "cr-701.txt").write_text(FRENCH, encoding="utf-8")
    found = open_index(Path(content))
    yield found
    found.close()


def test_a_players_phrasing_finds_the_rule_in_its_words_inflected_too(engine):
    for query in ("go first", "going first", "who is going first"):
        answer = engine.search(query)
        assert [r.id for r in answer][:1] == ["103.1"], query


def test_a_french_players_word_reaches_the_english_rules_through_the_rules_french_word(engine):
    answer = engine.search("tuer")
    assert "701.8" in [r.id for r in answer][:2]
    via = next(r for r in answer if r.id == "701.8a").translated
    assert ("fr", "fr", "tuer", ("détruire",)) in via  # the paraphrase's wording it holds (not « meurt »), said as such
    assert ("fr", "en", "tuer", ("destroy",)) in via  # and the English it stands for (« meurt » is no name here)
    assert [r.id for r in engine.search("tuer", lang="en")][:2] == [r.id for r in answer if "en" in r.langs][:2]


def test_the_command_line_says_which_words_are_the_rules_and_which_a_translation():
    shown = through([("fr", "fr", "tuer", ("détruire", "meurt")), ("fr", "en", "tuer", ("destroy", "dies"))])
    assert shown == "(dans les mots des règles : tuer → détruire / meurt ; par traduction : tuer → destroy / dies)"
    shown = through([("en", "en", "go first", ("starting player",))])
    assert shown == "(in the rules' words: go first → starting player)"


def test_a_word_of_another_language_than_the_querys_is_not_translated():
    info = {
        "langs": ["en", "fr"],
        "docs": 2,
        "vocab": {
            "en": {"main": ["main"], "phase": ["phase"]},
            "fr": {"main": ["main"], "ma": ["ma"], "principale": ["principal"]},
        },
        "lexicon": {"en>fr": {"keys": {"main": [["principale"], []]}, "terms": {}, "longest": 1}},
    }
    tables = Tables(info, {"en": frozenset(), "fr": frozenset({"ma"})})
    english = slots(parse_query("main phase"), tables, ("en", "fr"))  # `phase`: English alone
    assert english[0].translated == [("en", "fr", "main", ["principale"])]
    french = slots(parse_query("ma main"), tables, ("en", "fr"))  # `ma`: French alone, so the query is French
    assert [s.translated for s in french] == [[]]


def _hit(doc: int, kind: str, score: float) -> R.Hit:
    return R.Hit(doc, score, (1.0,) * 4, R.KIND_BOOSTS[kind], (False,) * 4, kind=kind)


def _about(heads: dict[int, list]):
    def about(doc: int):
        return (str(doc), heads.get(doc, []), [], [], ({"isperia"},) + (frozenset(),) * 3, (frozenset(),) * 4, [])

    return about


def test_a_question_naming_no_card_asks_the_rules_first():
    hits = [_hit(1, "card", 10.0), _hit(2, "rule", 8.0), _hit(3, "ruling", 9.0)]
    weights = [3.0, 0.3, 0.3, 0.3]
    ranked = R.rerank(hits, weights, False, _about({}))
    assert [h.doc for h, _ in ranked] == [2, 1, 3]
    # the same words naming a card (its whole name among its headwords): the card as scored
    named = R.rerank(hits, weights, False, _about({1: [["isperia"]]}))
    assert [h.doc for h, _ in named][0] == 1
    # a keyword of fewer words is no question: kinds as they are
    few = [R.Hit(h.doc, h.score, (1.0,), h.boost, (False,), kind=h.kind) for h in hits]
    short = R.rerank(few, [1.0], False, lambda d: (str(d), [], [], [], (frozenset(),), (frozenset(),), []))
    assert [h.doc for h, _ in short][0] == 1


def test_a_word_cut_by_an_apostrophe_is_shown_as_typed():
    info = {
        "langs": ["en", "fr"],
        "docs": 1,
        "vocab": {
            "en": {"summoning sickness": ["summoning sickness"]},
            "fr": {"mal": ["mal"], "invocation": ["invocation"]},
        },
        "lexicon": {"fr>en": {"keys": {"mal d invocation": [["summoning sickness"], []]}, "terms": {}, "longest": 3}},
    }
    tables = Tables(info, {"en": frozenset(), "fr": frozenset({"d"})})
    [slot] = slots(parse_query("mal d’invocation"), tables, ("en", "fr"))
    assert slot.typed == "mal d’invocation" and slot.translated[0][2] == "mal d’invocation"


def test_two_letters_swapped_in_a_short_word_are_swapped_back(engine):
    answer = engine.search("deis")  # two edits away from `dies`, too many for four letters: a swap is one slip
    assert answer.corrected == "dies" and answer.results[0].id.endswith("#dies")
    assert engine.search("xq").corrected is None
