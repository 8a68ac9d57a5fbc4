"""Card data from several files merged: one card per Oracle card, reprints listed, never duplicated.

The same card in two set files (a reprint, or one set file loaded twice) becomes one card: the first file's
English faces and ids, every printing, every French printing (name, type line, text) of all files with its sets,
and the Gatherer rulings of all files without repeats. Its French name, type line and text are the newest French
printing's, whichever file holds it: a reprint without French text never takes them away.
"""

from __future__ import annotations

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


class CardMerger:
    """Card data files merged one at a time, as they are read: a reprint's card and rulings are let go at once
    (a pool's files repeat a third of their cards)."""

    def __init__(self) -> None:
        self.files: list[CardDataResult] = []
        """Each file's result, its cards and rulings left out once a second file came (`kept`, `rulings`)."""
        self.seen: dict[str, tuple[int, str]] = {}
        """Card key -> (file, id) of the card kept for it."""
        self.kept: list[dict[str, Card]] = []
        """Per file: id -> the card it holds as kept, with what later files added."""
        self.texts: dict[tuple[int, str], list[str]] = {}
        """(file, id) -> texts of the kept card's rulings, in order."""
        self.rulings: list[list[Ruling]] = []
        """Per file: its rulings of the cards it keeps, then those later files added to them."""
        self.merged = 0

    def add(self, res: CardDataResult) -> None:
        """Merge one more file's cards and rulings."""
        i = len(self.files)
        for r in res.rulings:
            self.texts.setdefault((i, r.card), []).append(r.text)
        self.kept.append({})
        self.rulings.append([])
        by_id = {r.id: r for r in res.rulings}
        dropped: set[str] = set()
        for card in res.cards:
            key = _key(card)
            if key not in self.seen:
                self.seen[key] = (i, card.id)
                self.kept[i][card.id] = card
            else:
                self._fold(card, by_id)
                dropped.add(card.id)
        self.rulings[i][:0] = [r for r in res.rulings if r.card not in dropped]
        self.files.append(res if i == 0 else replace(res, cards=(), rulings=()))
        if i == 1:  # a second file: the first one's cards and rulings are now in `kept` and `rulings`
            self.files[0] = replace(self.files[0], cards=(), rulings=())

    def _fold(self, card: Card, by_id: dict[str, Ruling]) -> None:
        """Add a card already kept from another file: its printings, French printings and new rulings."""
        self.merged += 1
        home, first_id = self.seen[_key(card)]
        first = self.kept[home][first_id]
        known = self.texts.setdefault((home, first_id), [])
        new = [by_id[r] for r in card.rulings if r in by_id and by_id[r].text not in known]
        moved = [replace(r, id=f"{first_id}/en/{len(known) + n}", card=first_id) for n, r in enumerate(new, 1)]
        known += [r.text for r in moved]
        self.rulings[home] += moved
        printings = tuple(dict.fromkeys((*first.printings, *card.printings)))
        updated = replace(first, printings=printings, rulings=(*first.rulings, *(r.id for r in moved)))
        if card.printed:
            updated = with_newest_french(updated, merge_printed(first.printed, card.printed))
        self.kept[home][first_id] = updated

    def results(self) -> tuple[list[CardDataResult], list[Diagnostic]]:
        """Each file's result with the cards it keeps and their rulings; a note counting the cards merged."""
        if len(self.files) < 2:
            return list(self.files), []
        out = [
            replace(res, cards=tuple(kept.values()), rulings=tuple(rulings))
            for res, kept, rulings in zip(self.files, self.kept, self.rulings, strict=True)
        ]
        diags = []
        if self.merged:
            where = self.files[-1].document.source
            message = f"{self.merged} cards already in another card data file were merged"
            diags.append(Diagnostic("note", where, 0, message))
        return out, diags
