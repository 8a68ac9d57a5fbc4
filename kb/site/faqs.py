"""An FAQ's general note as the FAQ writes it: its paragraphs, example cards, quoted rules and notes in order."""

from __future__ import annotations

import re
from typing import Any

from kb.model import FaqNote

COST = re.compile(r"^(\{[^{}]+\})+$")
"""A mana cost line of a printed card block (`{1}{W}{W}`)."""


def printed_card(lines: tuple[str, ...]) -> tuple[str, str, tuple[str, ...]]:
    """A printed card block as (name, mana cost or "", the lines after them: type, text)."""
    if len(lines) > 1 and COST.match(lines[1].strip()):
        return lines[0], lines[1].strip(), lines[2:]
    return lines[0], "", lines[1:]


def note_blocks(note: FaqNote) -> list[tuple[str, list[Any]]]:
    """The note's blocks in the FAQ's order, neighbours of a kind together: (`text`, [paragraph]), (`card`,
    [(card id, (name, cost, lines) as printed, or None)]), (`quoted`, [QuotedRule]), (`bullet`, [text]).

    A note without a recorded order shows its text, cards, quoted rules and notes in that order."""
    paragraphs = note.text.split("\n") if note.text else []
    parsed = list(dict.fromkeys(card for card, _ in note.printed))
    # the parser's card ids, each replaced since by the id of the card it was matched with, in the same order
    today = dict(zip(parsed, note.cards, strict=True)) if len(parsed) == len(note.cards) else {}
    items = {
        "text": paragraphs,
        "card": [(today.get(card, card), printed_card(lines)) for card, lines in note.printed],
        "quoted": list(note.quoted_rules),
        "bullet": list(note.bullets),
    }
    order = list(note.order)
    if not order:
        items["card"] = [(card, None) for card in note.cards]
        order = [(kind, i) for kind in ("text", "card", "quoted", "bullet") for i in range(len(items[kind]))]
    blocks: list[tuple[str, list[Any]]] = []
    for kind, i in order:
        if i >= len(items[kind]):
            continue
        if blocks and blocks[-1][0] == kind:
            blocks[-1][1].append(items[kind][i])
        else:
            blocks.append((kind, [items[kind][i]]))
    return blocks
