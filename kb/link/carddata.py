"""Card data from several files merged: one card per Oracle card, reprints listed, never duplicated.

The same card in two set files (a reprint, or one set file loaded twice) becomes one card: the first file's
faces and ids, every printing, and the Gatherer rulings of all files without repeats.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from kb.model import Card, Diagnostic, Ruling
from kb.parse.cards.mtgjson import CardDataResult
from kb.sources import fold


def _key(card: Card) -> str:
    """What makes two entries the same Oracle card: its Oracle id, else its English name."""
    return card.oracle.get("oracle_id") or "name:" + fold(card.names.get("en") or card.id)


def merge_card_data(results: Sequence[CardDataResult]) -> tuple[list[CardDataResult], list[Diagnostic]]:
    """Keep each card once across the card data files; later files add printings and new rulings only."""
    if len(results) < 2:
        return list(results), []
    seen: dict[str, tuple[int, Card]] = {}
    kept: list[list[Card]] = [[] for _ in results]
    rulings: list[list[Ruling]] = [list(res.rulings) for res in results]
    merged = 0
    for i, res in enumerate(results):
        by_id = {r.id: r for r in res.rulings}
        for card in res.cards:
            found = seen.get(_key(card))
            if found is None:
                seen[_key(card)] = (i, card)
                kept[i].append(card)
                continue
            merged += 1
            home, first = found
            known = {r.text for r in rulings[home] if r.card == first.id}
            extra = [by_id[r] for r in card.rulings if r in by_id and by_id[r].text not in known]
            start = len([r for r in rulings[home] if r.card == first.id])
            moved = [replace(r, id=f"{first.id}/en/{start + n}", card=first.id) for n, r in enumerate(extra, 1)]
            rulings[home] += moved
            printings = tuple(dict.fromkeys((*first.printings, *card.printings)))
            updated = replace(first, printings=printings, rulings=(*first.rulings, *(r.id for r in moved)))
            kept[home] = [updated if c.id == first.id else c for c in kept[home]]
            seen[_key(card)] = (home, updated)
            rulings[i] = [r for r in rulings[i] if r.card != card.id]
    out = [replace(res, cards=tuple(kept[i]), rulings=tuple(rulings[i])) for i, res in enumerate(results)]
    diags = []
    if merged:
        where = results[-1].document.source
        diags.append(Diagnostic("note", where, 0, f"{merged} cards already in another card data file were merged"))
    return out, diags
