"""Find cards by the names people type, in any language (prefix, accents and articles optional)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from kb.model import Card
from kb.model.langs import ordered_langs
from kb.sources import fold

SUGGESTIONS = 10
"""How many suggestions `suggest_cards` gives at most."""
CLOSE_SPELLING = 0.75
"""Similarity (difflib ratio) from which a name is suggested as a close spelling."""
ARTICLE = re.compile(r"^(?:l'|le |la |les |du |des |de la |de l'|the )")
"""A leading article people type before a card name (folded text)."""


def _all_names(card: Card) -> list[str]:
    """Return every name a card answers to (full names, halves, the FAQ's own spellings)."""
    names = list(card.names.values())
    names += [name for face in card.faces for name in face.names.values()]
    names += [name for printed in card.printed if printed.name for name in printed_names(printed.name)]
    return names + [value for key, value in card.oracle.items() if key.startswith("faq_name_")]


def printed_names(name: str) -> list[str]:
    """A printed name and, for a split card (`A // B`), each half."""
    halves = name.split(" // ")
    return [name, *halves] if len(halves) > 1 else [name]


def display_name(card: Card) -> str:
    """Return a card's names, French first (`Cytoforme / Cytoshape`)."""
    return " / ".join(dict.fromkeys(card.names[lang] for lang in ordered_langs(card.names))) or card.id


def _query(query: str) -> list[str]:
    """Fold a query; also without its leading article (« la Cytoforme », « l'Æthermage », "the …")."""
    wanted = fold(" ".join(query.split()))
    if not wanted:
        return []
    bare = ARTICLE.sub("", wanted)
    return [wanted, bare] if bare not in ("", wanted) else [wanted]


def find_cards(cards: Sequence[Card], query: str) -> list[Card]:
    """Find the cards a name designates in any language: exact matches, else every prefix match.

    One card is an answer; several are an ambiguity to list; none means `suggest_cards` may help.
    """
    folded = [(card, [fold(name) for name in _all_names(card)]) for card in cards]
    for wanted in _query(query):
        exact = [card for card, names in folded if wanted in names]
        if exact:
            return exact
        prefix = [card for card, names in folded if any(name.startswith(wanted) for name in names)]
        if prefix:
            return prefix
    return []


def suggest_cards(cards: Sequence[Card], query: str) -> list[Card]:
    """Suggest cards for a name that designates none: names containing it, then close spellings."""
    wanted = _query(query)
    if not wanted:
        return []
    folded = [(card, [fold(name) for name in _all_names(card)]) for card in cards]
    found = [card for card, names in folded if any(w in name for w in wanted for name in names)]
    scored = []
    for card, names in folded:
        ratio = max(difflib.SequenceMatcher(None, w, name).ratio() for w in wanted for name in names)
        if ratio >= CLOSE_SPELLING and card not in found:
            scored.append((-ratio, len(scored), card))
    return (found + [card for *_, card in sorted(scored)])[:SUGGESTIONS]
