"""Plain-text views for the terminal: a card with its rulings and notes."""

from __future__ import annotations

from collections.abc import Mapping

from kb.link.cards.lookup import display_name
from kb.model import Card, Face, FaqNote, Ruling
from kb.model.langs import ordered_langs
from kb.sources.text import wrap


def _wrap(text: str, width: int, indent: str) -> list[str]:
    """Wrap each paragraph of a text to the width."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines += wrap(paragraph, max(width, 20), initial_indent=indent, subsequent_indent=indent) or [""]
    return lines


def _face_lines(face: Face, width: int) -> list[str]:
    """Render one face: name, cost, type, P/T, text."""
    name = " / ".join(face.names[lang] for lang in ordered_langs(face.names)) or "?"
    head = f"  {name}  {''.join(face.mana_cost)}".rstrip()
    lines = [head, f"  {face.type_line}"]
    if face.power is not None:
        lines.append(f"  {face.power}/{face.toughness}")
    return lines + _wrap(face.text, width, "    ")


def format_card(
    card: Card,
    rulings_by_id: Mapping[str, Ruling],
    notes_by_id: Mapping[str, FaqNote],
    width: int,
    cards_by_id: Mapping[str, Card] | None = None,
) -> str:
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
