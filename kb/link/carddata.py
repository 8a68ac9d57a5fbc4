"""Card data from several files merged: one card per Oracle card, reprints listed, never duplicated.

The same card in two set files (a reprint, or one set file loaded twice) becomes one card: the first file's
English faces and ids, every printing, every French printing (name, type line, text) of all files with its sets,
and the Gatherer rulings of all files without repeats. Its French name, type line and text are the newest French
printing's, whichever file holds it: a reprint without French text never takes them away.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from kb.model import Card, Diagnostic, Printed, Ruling
from kb.parse.cards.mtgjson import CardDataResult
from kb.sources import fold


def _key(card: Card) -> str:
    """What makes two entries the same Oracle card: its Oracle id, else its English name."""
    return card.oracle.get("oracle_id") or "name:" + fold(card.names.get("en") or card.id)


def merge_printed(first: tuple[Printed, ...], other: tuple[Printed, ...]) -> tuple[Printed, ...]:
    """The printings of both, each distinct one once with the sets of both, newest first."""
    found: dict[tuple[str, str, str, str], Printed] = {}
    for printed in sorted((*first, *other), key=lambda p: p.released or "", reverse=True):
        key = (printed.lang, printed.name, printed.type_line, printed.text)
        if key in found:
            kept = found[key]
            sets = tuple(dict.fromkeys((*kept.sets, *printed.sets)))
            found[key] = replace(kept, sets=sets)
        else:
            found[key] = printed
    return tuple(found.values())


def with_newest_french(card: Card, printed: tuple[Printed, ...]) -> Card:
    """The card with these printings, its French name, type line and text those of the newest named one."""
    newest = next((p for p in printed if p.lang == "fr" and p.name), None)
    if newest is None or card.names.get("fr") == newest.name and card.oracle.get("fr_text") == newest.text:
        return replace(card, printed=printed)
    parts = newest.name.split(" // ")
    faces = card.faces
    if len(parts) == len(faces):
        faces = tuple(replace(f, names={**f.names, "fr": part}) for f, part in zip(faces, parts, strict=True))
    oracle = {**card.oracle, "fr_text": newest.text, "fr_type": newest.type_line}
    return replace(card, names={**card.names, "fr": newest.name}, faces=faces, oracle=oracle, printed=printed)


def merge_card_data(results: Sequence[CardDataResult]) -> tuple[list[CardDataResult], list[Diagnostic]]:
    """Keep each card once across the card data files; later files add printings, French printings and new
    rulings only."""
    if len(results) < 2:
        return list(results), []
    seen: dict[str, tuple[int, str]] = {}  # card key -> (file, id) of the card kept for it
    kept: list[dict[str, Card]] = [{} for _ in results]
    texts: dict[tuple[int, str], list[str]] = {}  # (file, id) -> texts of the kept card's rulings, in order
    for i, res in enumerate(results):
        for r in res.rulings:
            texts.setdefault((i, r.card), []).append(r.text)
    extra: list[list[Ruling]] = [[] for _ in results]
    dropped: list[set[str]] = [set() for _ in results]
    merged = 0
    for i, res in enumerate(results):
        by_id = {r.id: r for r in res.rulings}
        for card in res.cards:
            key = _key(card)
            if key not in seen:
                seen[key] = (i, card.id)
                kept[i][card.id] = card
                continue
            merged += 1
            home, first_id = seen[key]
            first = kept[home][first_id]
            known = texts.setdefault((home, first_id), [])
            new = [by_id[r] for r in card.rulings if r in by_id and by_id[r].text not in known]
            moved = [replace(r, id=f"{first_id}/en/{len(known) + n}", card=first_id) for n, r in enumerate(new, 1)]
            known += [r.text for r in moved]
            extra[home] += moved
            printings = tuple(dict.fromkeys((*first.printings, *card.printings)))
            updated = replace(first, printings=printings, rulings=(*first.rulings, *(r.id for r in moved)))
            if card.printed:
                updated = with_newest_french(updated, merge_printed(first.printed, card.printed))
            kept[home][first_id] = updated
            dropped[i].add(card.id)
    out = [
        replace(
            res,
            cards=tuple(kept[i].values()),
            rulings=(*(r for r in res.rulings if r.card not in dropped[i]), *extra[i]),
        )
        for i, res in enumerate(results)
    ]
    diags = []
    if merged:
        where = results[-1].document.source
        diags.append(Diagnostic("note", where, 0, f"{merged} cards already in another card data file were merged"))
    return out, diags
