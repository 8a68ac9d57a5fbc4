"""French FAQ rulings paired with the English Gatherer rulings they translate, card by card.

Each card's French rulings and English rulings go through the sentence aligner (`ruling_pairs`), with every
card's French and English names as anchors; a paired ruling records which ruling it translates and how sure
the pairing is (`Ruling.translation_of`, `translation_confidence`), in both directions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from kb.link.cards.ruling_pairs import NameIndex, align_rulings
from kb.model import Card, Ruling


def _names(cards: Sequence[Card]) -> dict[str, str]:
    """French name -> English name of every card and face that has both."""
    found: dict[str, str] = {}
    for card in cards:
        for item in (card, *card.faces):
            if "fr" in item.names and "en" in item.names:
                found.setdefault(item.names["fr"], item.names["en"])
    return found


def pair_translations(cards: Sequence[Card], rulings: Sequence[Ruling]) -> tuple[Ruling, ...]:
    """Return the rulings with each French ruling and its English counterpart pointing at each other."""
    by_id = {r.id: r for r in rulings}
    names = NameIndex(_names(cards))
    paired: dict[str, tuple[str, float]] = {}
    for card in cards:
        own = [by_id[r] for r in card.rulings if r in by_id and by_id[r].card == card.id]
        fr = [r for r in own if r.lang == "fr"]
        en = [r for r in own if r.lang == "en"]
        if not fr or not en:
            continue
        for pair in align_rulings([r.text for r in fr], [r.text for r in en], names):
            if pair.fr is not None and pair.en is not None:
                confidence = round(pair.confidence, 3)
                paired[fr[pair.fr].id] = (en[pair.en].id, confidence)
                paired[en[pair.en].id] = (fr[pair.fr].id, confidence)
    return tuple(
        replace(r, translation_of=paired[r.id][0], translation_confidence=paired[r.id][1]) if r.id in paired else r
        for r in rulings
    )
