"""Relevance: questions a player would ask, each with the rule, glossary entry or card expected in the top 3.

Run on the 2015 English CR plus the French seeds (rules 120 and 703, the Dissension FAQ).
"""

from __future__ import annotations

import pytest

from kb.search.index import open_index

G = "en/cr-en-20150926#"
QUESTIONS = [
    ("que se passe-t-il si je pioche dans une bibliothèque vide", "120.4"),
    ("ordre des blessures", "703.4i"),
    ("APNAP", G + "apnap order"),
    ("state-based actions", "704.1"),
    ("legend rule", "704.5k"),
    ("mulligan", G + "mulligan"),
    ("deathtouch", "702.2"),
    ("trample damage assignment", "702.19b"),
    ("first strike", "702.7"),
    ("summoning sickness", G + "summoning sickness rule"),
    ("maximum hand size", "402.2"),
    ("mana burn", G + "mana burn"),
    ("hexproof", "702.11"),
    ("indestructible", "702.12"),
    ("layers continuous effects", "613.4"),
    ("timestamp order", G + "timestamp order"),
    ("lifelink", "702.15"),
    ("split second", "702.60"),
    ("scry", "701.18"),
    ("commander damage", "903.13a"),
    ("storm copies", "702.39a"),
    ("what happens when a creature has lethal damage", "510.1d"),
    ("how many cards in a deck", "100.2b"),
    ("tout de suite après le début de l'étape de pioche", "703.4c"),
    ("étape de dégagement", "703.4b"),
    ("blessures de combat infligées simultanément", "703.4k"),
    ("piocher plusieurs cartes", "120.2"),
    ("Troll à deux têtes pioche", "120.2b"),
    ("effet de remplacement pioche", "120.6b"),
    ("les actions obligatoires du tour passent-elles par la pile", "703.1"),
    ("priority", G + "priority"),
    ("poison counters", G + "poison counter"),
    ("Isperia", "isperia-l-impenetrable"),
    ("Possession psychique", "possession-psychique"),
    ("pioche bibliothèque vide", "120.4"),
    ("protection from", G + "protection"),
    ("the stack", G + "stack"),
    ("with trample", G + "trample"),
    ('"library with no cards"', "704.5b"),
    ('"no cards in it"', "120.4"),
    ("legend rule", G + "legend rule"),
]


@pytest.fixture(scope="module")
def index(content_2015):
    ix = open_index(content_2015)
    yield ix
    ix.close()


@pytest.mark.parametrize(("question", "expected"), QUESTIONS)
def test_expected_in_top_3(index, question, expected):
    top = [r.id for r in index.search(question, limit=3)]
    assert expected in top, f"{question!r}: {top}"


@pytest.mark.xfail(
    strict=True,
    reason="the 2015 CR says 'a library with no cards in it', never 'empty library': "
    "120.5 and the Draw and Library glossary entries hold all three words and rank before 120.4, "
    "which only the relaxed fallback (never above full matches) brings in",
)
def test_empty_library_in_english(index):
    assert "120.4" in [r.id for r in index.search("draw from an empty library", limit=3)]
