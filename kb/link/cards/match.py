"""Match an FAQ's printed card to its card-data card: an exact printed name first, then a close spelling that the
card's mana cost, types and power/toughness confirm, then a split card's mana costs; otherwise none.

An exact name is any name a card-data card was printed with (every printing, every language, split halves). A
close spelling alone never decides: « Ghildmage de Rakdos » is close to « Augermage de Rakdos », but the costs
differ, so it is no match. An FAQ card left unmatched is reported with the nearest names the card data has, and
why each was refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kb.link.cards.lookup import printed_names
from kb.model import Card, Diagnostic, Face, card_name
from kb.parse.cardtext import english_type
from kb.sources import fold

CLOSE_MATCH = 80.0
"""Similarity (rapidfuzz ratio, 0-100) from which a name is a close spelling of another."""
NEAREST = 3
"""How many of the nearest card-data names an unmatched FAQ card's report lists."""
NEAREST_FLOOR = 60.0
"""Similarity under which a name is too far to be listed as a nearest one."""


def names_in(card: Card, lang: str | None = None) -> set[str]:
    """The folded names a card answers to (every language, or only `lang`): full names, halves, printed names."""
    names = [name for key, name in card.names.items() if lang is None or key == lang]
    names += [name for face in card.faces for key, name in face.names.items() if lang is None or key == lang]
    for printed in card.printed:
        if printed.name and (lang is None or printed.lang == lang):
            names += printed_names(printed.name)
    return {key for key in map(fold, names) if key}


def _types(face: Face) -> frozenset[str]:
    """A face's card types in English, folded (`Créature` -> `creature`)."""
    return frozenset(english_type(t) for t in face.types)


def refusal(faq: Card, data: Card) -> str:
    """Why a card-data card cannot be the FAQ card whatever their names ('' when costs, types and P/T agree)."""
    if len(faq.faces) != len(data.faces):
        return f"{len(data.faces)} face(s), not {len(faq.faces)}"
    for mine, theirs in zip(faq.faces, data.faces, strict=True):
        if mine.mana_cost != theirs.mana_cost:
            return f"mana cost {''.join(theirs.mana_cost) or '(none)'}, not {''.join(mine.mana_cost) or '(none)'}"
        if mine.types and _types(mine) != _types(theirs):
            return f"types {' '.join(theirs.types) or '(none)'}, not {' '.join(mine.types)}"
        if (mine.power, mine.toughness) != (None, None) and (mine.power, mine.toughness) != (
            theirs.power,
            theirs.toughness,
        ):
            return f"power/toughness {theirs.power}/{theirs.toughness}, not {mine.power}/{mine.toughness}"
    return ""


@dataclass(frozen=True, slots=True)
class Match:
    """What the card data holds for an FAQ card."""

    index: int | None
    """Position of the matched card in the card data, or None."""
    how: str
    """`exact`, `close` (a close spelling, cost, types and P/T agreeing), `cost` (a split card's costs) or ''."""
    nearest: tuple[str, ...] = ()
    """For an unmatched card: the nearest card-data names, each with why it was refused."""


@dataclass(slots=True)
class CardMatcher:
    """The card data indexed once for matching FAQ cards."""

    cards: Sequence[Card]
    names: dict[str, list[int]] = field(default_factory=dict)
    """Every folded name of a card-data card -> the cards answering to it, in card data order."""
    by_lang: dict[str, tuple[list[str], list[list[int]]]] = field(default_factory=dict)
    """Language -> its folded names and the cards of each, built when first asked for (close spellings)."""

    def __post_init__(self) -> None:
        for i, card in enumerate(self.cards):
            for key in names_in(card):
                self.names.setdefault(key, []).append(i)

    def match(self, card: Card, keys: set[str]) -> Match:
        """Find the card-data card of an FAQ card (`keys`: its folded names)."""
        full = fold(next(iter(card.names.values()), ""))
        for key in dict.fromkeys([full, *sorted(keys)]):
            if key in self.names:
                found = self.names[key]
                return Match(next((i for i in found if not refusal(card, self.cards[i])), found[0]), "exact")
        lang = card.faces[0].lang if card.faces else ""
        close = self._close(full, lang)
        for _, i in close:
            if not refusal(card, self.cards[i]):
                return Match(i, "close")
        if len(card.faces) > 1:
            costs = [f.mana_cost for f in card.faces]
            same = [i for i, c in enumerate(self.cards) if [f.mana_cost for f in c.faces] == costs]
            if len(same) == 1:
                return Match(same[0], "cost")
        return Match(None, "", tuple(self._nearest(card, full, lang)))

    def _in_lang(self, lang: str) -> tuple[list[str], list[list[int]]]:
        """The folded names in `lang` and the cards of each."""
        if lang not in self.by_lang:
            table: dict[str, list[int]] = {}
            for i, card in enumerate(self.cards):
                for key in names_in(card, lang):
                    table.setdefault(key, []).append(i)
            self.by_lang[lang] = (list(table), list(table.values()))
        return self.by_lang[lang]

    def _close(self, full: str, lang: str, cutoff: float = CLOSE_MATCH, limit: int = 10) -> list[tuple[float, int]]:
        """(similarity, card) of the names in `lang` closest to `full`, best first."""
        from rapidfuzz import fuzz, process  # here: a load without FAQ never needs it

        names, cards = self._in_lang(lang)
        found = process.extract(full, names, scorer=fuzz.ratio, score_cutoff=cutoff, limit=limit)
        return [(score, i) for _, score, at in found for i in cards[at]]

    def _nearest(self, card: Card, full: str, lang: str) -> list[str]:
        """The nearest card-data names of an unmatched card, each with why it is not the card."""
        out = []
        for score, i in self._close(full, lang, NEAREST_FLOOR, NEAREST)[:NEAREST]:
            data = self.cards[i]
            why = refusal(card, data) or "a different spelling"
            out.append(f"{card_name(data, lang)!r} ({data.names.get('en', data.id)}, {score:.0f}%: {why})")
        return out


def match_diagnostics(card: Card, data: Card | None, match: Match, has_data: bool) -> list[Diagnostic]:
    """Say how an FAQ card was matched to the card data, when not exactly."""
    where, name = (card.source.path, card.source.line), card_name(card)
    if data is None:
        if not has_data:
            return []
        nearest = f" (nearest: {'; '.join(match.nearest)})" if match.nearest else ""
        return [
            Diagnostic(
                "warning",
                *where,
                f"no card named {name!r} in the card data{nearest}; it keeps no English "
                "name: check the spelling against the printed card",
            )
        ]
    shown = " / ".join(f"{k} {v!r}" for k, v in data.names.items())
    if match.how == "close":
        return [
            Diagnostic(
                "note",
                *where,
                f"{name!r} matched {shown} by close spelling, its mana cost, types and P/T agreeing ({data.source})",
            )
        ]
    if match.how == "cost":
        return [
            Diagnostic(
                "note",
                *where,
                f"split card {name!r} matched {shown} by its mana costs (the card "
                f"data has no French name for it, {data.source})",
            )
        ]
    return []
