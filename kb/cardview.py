"""Find cards by name and present cards, rulings, notes and FAQ headers (JSON contract and plain text)."""

from __future__ import annotations

import difflib
import re
import textwrap
from collections.abc import Mapping, Sequence

from kb.export import source_json
from kb.langs import ordered_langs
from kb.model import Card, Face, FaqInfo, FaqNote, Ruling
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
    return names + [value for key, value in card.oracle.items() if key.startswith("faq_name_")]


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


def _face_to_json(face: Face) -> dict:
    """Serialise one face."""
    return {
        "names": dict(face.names), "mana_cost": list(face.mana_cost), "type_line": face.type_line,
        "supertypes": list(face.supertypes), "types": list(face.types), "subtypes": list(face.subtypes),
        "power": face.power, "toughness": face.toughness, "text": face.text,
        "reminder_text": list(face.reminder_text), "lang": face.lang,
    }


def card_to_json(card: Card) -> dict:
    """Serialise a card following the export contract."""
    return {
        "id": card.id, "names": dict(card.names), "faces": [_face_to_json(face) for face in card.faces],
        "rulings": list(card.rulings), "notes": list(card.notes), "source": source_json(card.source),
        "oracle": dict(card.oracle),
    }


def ruling_to_json(r: Ruling) -> dict:
    """Serialise a ruling following the export contract."""
    return {
        "id": r.id, "card": r.card, "lang": r.lang, "text": r.text, "section": r.section,
        "source_document": r.source_document, "rule_refs": list(r.rule_refs), "card_refs": list(r.card_refs),
        "mentions": list(r.mentions), "source": source_json(r.source), "date": r.date,
    }


def note_to_json(n: FaqNote) -> dict:
    """Serialise a general note following the export contract."""
    return {
        "id": n.id, "lang": n.lang, "title": n.title, "text": n.text, "cards": list(n.cards),
        "quoted_rules": [{"number": q.number, "as_of": q.as_of, "text": q.text} for q in n.quoted_rules],
        "bullets": list(n.bullets), "source": source_json(n.source), "document": n.document,
        "card_refs": list(n.card_refs), "rule_refs": list(n.rule_refs), "mentions": list(n.mentions),
    }


def faq_to_json(info: FaqInfo) -> dict:
    """Serialise an FAQ header following the export contract."""
    return {
        "document": info.document, "lang": info.lang, "title": info.title, "set_names": dict(info.set_names),
        "authors": list(info.authors), "last_modified": info.last_modified, "dates": dict(info.dates),
        "set_size": info.set_size, "intro": info.intro, "trailer": list(info.trailer),
        "unplaced": list(info.unplaced), "source": source_json(info.source),
    }


def _wrap(text: str, width: int, indent: str) -> list[str]:
    """Wrap each paragraph of a text to the width."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines += textwrap.wrap(paragraph, max(width, 20), initial_indent=indent, subsequent_indent=indent) or [""]
    return lines


def _face_lines(face: Face, width: int) -> list[str]:
    """Render one face: name, cost, type, P/T, text."""
    name = " / ".join(face.names[lang] for lang in ordered_langs(face.names)) or "?"
    head = f"  {name}  {''.join(face.mana_cost)}".rstrip()
    lines = [head, f"  {face.type_line}"]
    if face.power is not None:
        lines.append(f"  {face.power}/{face.toughness}")
    return lines + _wrap(face.text, width, "    ")


def format_card(card: Card, rulings_by_id: Mapping[str, Ruling], notes_by_id: Mapping[str, FaqNote],
                width: int, cards_by_id: Mapping[str, Card] | None = None) -> str:
    """Render a card as plain text: names, faces, FAQ and Gatherer rulings, linked cards (by name) and rules."""
    names = [f"{card.names[lang]} [{lang}]" for lang in ordered_langs(card.names)]
    lines = [" | ".join(dict.fromkeys(names)), f"  ({card.source})", ""]
    for face in card.faces:
        lines += _face_lines(face, width) + [""]
    if card.oracle.get("en_text") and all(face.lang != "en" for face in card.faces):
        lines += ["Oracle (en):", *_wrap(card.oracle["en_text"], width, "    "), ""]
    linked_cards: dict[str, None] = {}
    linked_rules: dict[str, None] = {}
    for lang in ordered_langs(r.lang for r in rulings_by_id.values()):
        mine = [rulings_by_id[i] for i in card.rulings if i in rulings_by_id and rulings_by_id[i].lang == lang]
        if not mine:
            continue
        lines.append(f"Rulings [{lang}]:")
        for r in mine:
            dated = f" ({r.date})" if r.date else ""
            lines += _wrap(f"* {r.text}{dated}", width, "  ")
            linked_cards.update(dict.fromkeys(c for c in r.card_refs if c != card.id))
            linked_rules.update(dict.fromkeys(r.rule_refs))
        lines.append("")
    notes = [notes_by_id[i] for i in card.notes if i in notes_by_id]
    if notes:
        lines.append("General notes: " + ", ".join(f"{n.title} ({n.source})" for n in notes))
    if linked_cards:
        named = [display_name(cards_by_id[c]) if cards_by_id and c in cards_by_id else c for c in linked_cards]
        lines.append("Linked cards: " + ", ".join(named))
    if linked_rules:
        lines.append("Rules cited: " + ", ".join(linked_rules))
    return "\n".join(lines).rstrip() + "\n"
