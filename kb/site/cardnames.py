"""Names of split cards the card data leaves without a name in a language, as a set FAQ of that language writes them.

MTGJSON gives the French printing of a split card the English name (`Hit // Run`), while the French FAQ of its set
writes « Coup/Fuite ». A pair `A/B` in an FAQ names a split card that lacks a name in the FAQ's language when the
card's printed text in that language names one of its halves so (« Le Coup inflige… »: a face names itself in its
text, as `Hit deals damage`), and no other card fits; the other half is the pair's word as the FAQ writes it.
"""

from __future__ import annotations

import re

from kb.model import Card
from kb.model.base import KnowledgeBase

_PAIR = re.compile(r"(?<![\w’'-])([^\W\d_][\w’'-]*(?: [\w’'-]+){0,3})/([^\W\d_][\w’'-]*(?: [\w’'-]+){0,3})")
"""`Coup/Fuite`, `Résolu/Déterminé`: up to four words each side of a slash (the names are the pair's ends). A pair
starts where a word starts: a long word is not scanned again from each of its letters."""


def faq_names(kb: KnowledgeBase) -> dict[str, dict[str, tuple[str, ...]]]:
    """Card id -> language -> its faces' names as an FAQ of that language writes them, for split cards the card data
    names in another language only."""
    found: dict[str, dict[str, tuple[str, ...]]] = {}
    for lang, text in _faq_texts(kb):
        lacking = [c for c in kb.cards if len(c.faces) == 2 and lang not in c.names and c.oracle.get(f"{lang}_text")]
        for left, right in _pairs(text):
            fits = [(card, names) for card in lacking if (names := _fit(card, lang, left, right))]
            if len(fits) == 1:
                card, names = fits[0]
                found.setdefault(card.id, {}).setdefault(lang, names)
    return found


def _faq_texts(kb: KnowledgeBase):
    """(language, text) of every FAQ note, bullet and ruling."""
    for note in kb.notes:
        yield from ((note.lang, text) for text in (note.text, *note.bullets))
    faqs = {info.document for info in kb.faqs}
    yield from ((r.lang, r.text) for r in kb.rulings if r.source_document in faqs)


def _pairs(text: str) -> list[tuple[list[str], list[str]]]:
    """Each `A/B` of a text as (the left side's candidate names, shortest first; the right side's, shortest
    first): a name starts with a capital."""
    found = []
    for match in _PAIR.finditer(text):
        left, right = match.group(1).split(" "), match.group(2).split(" ")
        lefts = [" ".join(left[i:]) for i in range(len(left) - 1, -1, -1) if left[i][:1].isupper()]
        rights = [" ".join(right[: i + 1]) for i in range(len(right))] if right[0][:1].isupper() else []
        if lefts and rights:
            found.append((lefts, rights))
    return found


def _fit(card: Card, lang: str, lefts: list[str], rights: list[str]) -> tuple[str, ...] | None:
    """The faces' names a pair gives a split card: a side its printed text in `lang` names (the longest), the other
    side's shortest name; None when neither side is named in the text."""
    texts = card.oracle[f"{lang}_text"].split("\n//\n")
    if len(texts) != 2:
        return None
    named = [
        [n for n in side if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text)]
        for side, text in zip((lefts, rights), texts, strict=True)
    ]
    if not named[0] and not named[1]:
        return None
    return (named[0][-1] if named[0] else lefts[0]), (named[1][-1] if named[1] else rights[0])
