"""Printed card blocks (FAQ card text): name, mana cost, type line, power/toughness, rules text.

Grammar of one face (split halves are separated by a `//` line):

    face      := name-line [cost-line] type-line [pt-line] text-line*
    cost-line := ({symbol})+                      `{2}{W}{U}`, hybrid `{G/U}`, `{X}`, `{T}`
    type-line := (supertype | type)+ [sep subtypes]   `Créature légendaire : humain et conseiller`,
                                                      `Legendary Creature -- Sphinx`
    pt-line   := power / toughness                `3/6`, `*/*`, `0/2`
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kb.model import Face
from kb.sources import fold

BULLET = re.compile(r"^\*\s+(?=\S)")
SPLIT_LINE = re.compile(r"^\s*//\s*$")
COST_LINE = re.compile(r"^(?:\{[^{}\s]+\})+$")
SYMBOL = re.compile(r"\{[^{}\s]+\}")
PT_LINE = re.compile(r"^([0-9*X+\-½]+)\s*/\s*([0-9*X+\-½]+)$")
REMINDER = re.compile(r"\(([^()]+)\)")
TYPE_SPLIT = re.compile(r"(?<!\s)\s*(?:—|–|--|:|\s-\s)\s*")  # from a run's start: linear over long runs
CARD_TYPES = {
    "creature",
    "artefact",
    "artifact",
    "enchantement",
    "enchantment",
    "ephemere",
    "instant",
    "rituel",
    "sorcery",
    "terrain",
    "land",
    "planeswalker",
    "tribal",
    "kindred",
    "bataille",
    "battle",
}
ENGLISH_TYPES = {
    "artefact": "artifact",
    "enchantement": "enchantment",
    "ephemere": "instant",
    "rituel": "sorcery",
    "terrain": "land",
    "bataille": "battle",
    "kindred": "tribal",
}
"""Card types in English, by their folded French name (and `Kindred`, `Tribal`'s new name); the others are the
same word in both languages (`créature`, `planeswalker`)."""
SUPERTYPES = {"legendaire", "legendary", "base", "basic", "neigeux", "neigeuse", "snow", "world", "mondial", "ongoing"}
TYPE_FILLERS = {"de"}


def english_type(word: str) -> str:
    """A card type in English, folded (`Éphémère` -> `instant`, `Creature` -> `creature`)."""
    folded = fold(word)
    return ENGLISH_TYPES.get(folded, folded)


def reminders(text: str) -> tuple[str, ...]:
    """Return the parenthesised reminder texts of a rules text."""
    return tuple(m.group(1).strip() for m in REMINDER.finditer(text))


def parse_type_line(text: str, lang: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] | None:
    """Split a type line into (supertypes, types, subtypes); None when it is not a type line."""
    parts = TYPE_SPLIT.split(text.strip(), maxsplit=1)
    left, right = parts[0], parts[1] if len(parts) > 1 else ""
    words = [w for w in re.split(r"[\s\-]+", left) if w]
    supertypes: list[str] = []
    types: list[str] = []
    for word in words:
        folded = fold(word)
        if folded in SUPERTYPES:
            supertypes.append(word)
        elif folded in CARD_TYPES:
            types.append(word[:1].upper() + word[1:])
        elif folded not in TYPE_FILLERS:
            return None
    if not types:
        return None
    if " et " in right or lang == "fr" or "," in right:
        subtypes = [s.strip() for s in re.split(r",| et ", right)]
    else:
        subtypes = right.split()
    return tuple(supertypes), tuple(types), tuple(s for s in subtypes if s)


def card_shape(lines: Sequence[str], lang: str) -> str:
    """Classify a paragraph: `card`, `nameless` (starts with a cost or type line) or `text`."""
    if any(SPLIT_LINE.match(line) for line in lines):
        return "card"
    if not lines or BULLET.match(lines[0]):
        return "text"
    if COST_LINE.match(lines[0]) or (len(lines) > 1 and parse_type_line(lines[0], lang) and PT_LINE.match(lines[1])):
        return "nameless"
    if len(lines) > 1 and (COST_LINE.match(lines[1]) or parse_type_line(lines[1], lang)):
        return "card"
    return "text"


def parse_face_lines(lines: Sequence[str], lang: str) -> tuple[Face | None, str | None]:
    """Parse one face (name, cost, type line, P/T, text); return it or a problem phrase."""
    if not lines or not lines[0].strip():
        return None, "is empty; remove the stray '//' or separator"
    if COST_LINE.match(lines[0]) or parse_type_line(lines[0], lang):
        return None, "has no name (it starts with a cost or type line); add the card name above it"
    index = 1
    cost: tuple[str, ...] = ()
    if index < len(lines) and COST_LINE.match(lines[index]):
        cost = tuple(symbol.upper() for symbol in SYMBOL.findall(lines[index]))
        index += 1
    if index >= len(lines):
        return None, f"for {lines[0]!r} is truncated: it has no type line"
    parts = parse_type_line(lines[index], lang)
    if parts is None:
        return None, f"for {lines[0]!r} has no type line (found {lines[index]!r}); put the type line after the cost"
    type_line = lines[index]
    index += 1
    power = toughness = None
    if index < len(lines) and (pt := PT_LINE.match(lines[index])):
        power, toughness = pt.group(1), pt.group(2)
        index += 1
    text = "\n".join(lines[index:])
    face = Face({lang: lines[0]}, cost, type_line, *parts, power, toughness, text, reminders(text), lang)
    return face, None


def split_faces(lines: Sequence[str]) -> list[list[str]]:
    """Cut a card block's lines into faces at `//` lines."""
    groups: list[list[str]] = [[]]
    for text in lines:
        if SPLIT_LINE.match(text):
            groups.append([])
        else:
            groups[-1].append(text)
    return groups
