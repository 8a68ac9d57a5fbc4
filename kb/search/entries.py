"""Records -> search entries: what the index holds for each rule, glossary term, card, ruling and note.

Pure Python (no whoosh): `kb.search.index` turns these entries into Whoosh documents.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from kb.model import card_name
from kb.sources import fold

ORACLE_KEY = re.compile(r"([a-z]{2})_(?:type|text)")
"""Card data keys giving another language's Oracle type line or text (`en_type`, `en_text`)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """What the index holds for one result: texts per language and display data."""

    kind: str
    """`rule`, `glossary`, `card`, `ruling` or `note`."""
    id: str
    """Rule number, card id, ruling id, note id or `<document>#<term>` for glossary entries."""
    titles: dict[str, str]
    """Title per language (rule heading, glossary term, card name, note title)."""
    texts: dict[str, str]
    """Searchable and displayed text per language."""
    number: str | None = None
    """Rule number (rules only)."""
    names: dict[str, str] | None = None
    """Card name per language (cards only; the card's names for its rulings)."""
    context: dict[str, str] = field(default_factory=dict)
    """Ancestor rule headings per language, searched with a low weight."""
    order: int = 0
    """Rank in rule order (rules), so a subtree lists in order."""


def rule_entries(kb) -> Iterator[Entry]:
    """One entry per rule number, every language's text side by side."""
    for order, number in enumerate(kb.numbers()):
        per = kb.aligned(number)
        titles = {lang: r.title for lang, r in per.items() if r.title}
        texts = {lang: "\n".join((r.text, *r.examples)).strip() for lang, r in per.items()}
        context = {lang: "\n".join(_ancestor_titles(kb, r)) for lang, r in per.items()}
        yield Entry("rule", number, titles, texts, number=number, context=context, order=order)


def _ancestor_titles(kb, rule) -> list[str]:
    """Headings of the rule's ancestors within its edition, nearest first."""
    rules = kb.edition_of(rule).rules
    found, parent = [], rule.parent
    while parent is not None and parent in rules:
        if rules[parent].title:
            found.append(rules[parent].title)
        parent = rules[parent].parent
    return found


def glossary_entries(glossary: Iterable) -> Iterator[Entry]:
    """One entry per glossary term and language."""
    for g in glossary:
        title = " ".join(dict.fromkeys((g.term, *g.aliases)))
        yield Entry("glossary", f"{g.document}#{fold(g.term)}", {g.lang: title}, {g.lang: g.definition})


def card_entries(cards: Iterable) -> Iterator[Entry]:
    """One entry per card: names in every language, type lines and texts of every face."""
    for card in cards:
        names = dict(card.names)
        for face in card.faces:
            for lang, name in face.names.items():
                names.setdefault(lang, name)
        texts: dict[str, list[str]] = {}
        for face in card.faces:
            texts.setdefault(face.lang, []).extend(t for t in (face.type_line, face.text) if t)
        oracle: dict[str, list[str]] = {}
        for key in sorted(card.oracle, key=lambda k: (k[:2], k.endswith("_text"))):  # type line, then text
            if ORACLE_KEY.fullmatch(key) and card.oracle[key]:
                oracle.setdefault(key[:2], []).append(card.oracle[key])
        for lang, extra in oracle.items():
            texts.setdefault(lang, extra)
        faces = {lang: " ".join(f.names[lang] for f in card.faces if lang in f.names) for lang in names}
        yield Entry(
            "card",
            card.id,
            names,
            {k: "\n".join(v) for k, v in texts.items()},
            names=names,
            context={k: v for k, v in faces.items() if len(card.faces) > 1},
        )


def ruling_entries(rulings: Iterable, cards: dict) -> Iterator[Entry]:
    """One entry per ruling, titled by its card's name."""
    for r in rulings:
        card = cards.get(r.card)
        names = dict(card.names) if card else {}
        name = card_name(card, r.lang) if card else r.card
        yield Entry("ruling", r.id, {}, {r.lang: r.text}, names=names or None, context={r.lang: name})


def note_entries(notes: Iterable) -> Iterator[Entry]:
    """One entry per general note of an FAQ."""
    for n in notes:
        yield Entry("note", n.id, {n.lang: n.title}, {n.lang: "\n".join((n.text, *n.bullets)).strip()})


def entries(kb) -> Iterator[Entry]:
    """Every index entry of a knowledge base."""
    yield from rule_entries(kb)
    yield from glossary_entries(kb.glossary)
    yield from card_entries(kb.cards)
    yield from ruling_entries(kb.rulings, kb.card)
    yield from note_entries(kb.notes)
