"""MTGJSON v3 set files (`{"name", "code", "cards": [...]}`): English cards, French names, Gatherer rulings.

Split cards are stored as two entries (`layout: split`, numbers `149a`/`149b`, `names: [A, B]`); they become one
card with two faces. MTGJSON's French `foreignNames` of split halves repeat the English name: they are dropped.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from kb.model import Card, Diagnostic, Document, Face, Ruling, SourceRef, SourceText
from kb.parse.faq import REMINDER, SYMBOL, slugify

ID_FIELD = re.compile(r'"id"\s*:\s*"([^"]+)"')


@dataclass(frozen=True, slots=True)
class CardDataResult:
    """Everything read from one card data file."""

    document: Document
    """The file as a document (kind `cards`, layout `mtgjson`)."""
    cards: tuple[Card, ...]
    """English cards (French names when known), split cards as one card."""
    rulings: tuple[Ruling, ...]
    """English Gatherer rulings (section `Gatherer`, dated)."""
    diagnostics: tuple[Diagnostic, ...]
    """Problems found while reading."""


def looks_like_mtgjson(raw_text: str) -> bool:
    """Tell whether a text is an MTGJSON set file."""
    head = raw_text.lstrip("\ufeff \t\r\n")[:200_000]
    return head.startswith("{") and '"cards"' in head and ('"manaCost"' in head or '"multiverseid"' in head)


def _french_name(entry: dict) -> str | None:
    """Return the French name of an entry, or None (split halves only repeat the English name)."""
    for foreign in entry.get("foreignNames") or ():
        if isinstance(foreign, dict) and foreign.get("language") == "French" and foreign.get("name"):
            name = str(foreign["name"])
            if entry.get("layout") == "split" and name == entry.get("name"):
                return None
            return name
    return None


def _face(entry: dict) -> Face:
    """Build the English face of an entry."""
    names = {"en": str(entry["name"])}
    if french := _french_name(entry):
        names["fr"] = french
    text = str(entry.get("text") or "")
    return Face(
        names=names, mana_cost=tuple(SYMBOL.findall(str(entry.get("manaCost") or ""))),
        type_line=str(entry.get("type") or ""), supertypes=tuple(entry.get("supertypes") or ()),
        types=tuple(entry.get("types") or ()), subtypes=tuple(entry.get("subtypes") or ()),
        power=entry.get("power"), toughness=entry.get("toughness"), text=text,
        reminder_text=tuple(m.group(1).strip() for m in REMINDER.finditer(text)), lang="en",
    )


def _group(entries: list[dict], path: str, lines: dict[str, int]) -> tuple[list[list[dict]], list[Diagnostic]]:
    """Group split halves into one list per card, in file order."""
    groups: list[list[dict]] = []
    by_names: dict[tuple[str, ...], list[dict]] = {}
    diags = []
    for entry in entries:
        if not isinstance(entry, dict) or not entry.get("name"):
            line = lines.get(str(entry.get("id")), 0) if isinstance(entry, dict) else 0
            diags.append(Diagnostic("warning", path, line, "card entry without a name; skipped"))
            continue
        names = tuple(entry.get("names") or ()) if entry.get("layout") == "split" else ()
        if names and names in by_names:
            by_names[names].append(entry)
            continue
        group = [entry]
        groups.append(group)
        if names:
            by_names[names] = group
    for names, group in by_names.items():
        order = {name: i for i, name in enumerate(names)}
        group.sort(key=lambda e: order.get(e["name"], len(order)))
        if len(group) != len(names):
            line = lines.get(str(group[0].get("id")), 0)
            diags.append(Diagnostic("warning", path, line, f"split card {' // '.join(names)}: "
                                    f"{len(group)} of {len(names)} halves found; kept what is there"))
    return groups, diags


def _card(group: list[dict], source: SourceText, doc_id: str, line: int) -> tuple[Card, list[Ruling]]:
    """Build one card and its Gatherer rulings from its entries."""
    faces = tuple(_face(entry) for entry in group)
    names = {"en": " // ".join(face.names["en"] for face in faces)}
    if all("fr" in face.names for face in faces):
        names["fr"] = " // ".join(face.names["fr"] for face in faces)
    card_id = slugify(names["en"])
    oracle = {
        "en_text": "\n//\n".join(face.text for face in faces), "en_type": " // ".join(f.type_line for f in faces),
        "number": "/".join(str(e.get("number", "")) for e in group), "layout": str(group[0].get("layout", "")),
        "multiverseid": "/".join(str(e.get("multiverseid", "")) for e in group),
    }
    texts: dict[str, str | None] = {}
    for entry in group:
        for item in entry.get("rulings") or ():
            if isinstance(item, dict) and item.get("text"):
                texts.setdefault(str(item["text"]), item.get("date"))
    ref = SourceRef(source.path, line)
    rulings = [
        Ruling(f"{card_id}/en/{n}", card_id, "en", text, "Gatherer", doc_id, (), (), (), ref, date)
        for n, (text, date) in enumerate(texts.items(), start=1)
    ]
    card = Card(card_id, names, faces, tuple(r.id for r in rulings), (), ref, oracle)
    return card, rulings


def parse_mtgjson(source: SourceText, doc_id: str) -> CardDataResult:
    """Read an MTGJSON set file into cards, rulings and diagnostics; malformed JSON is one error."""
    document = Document(doc_id, source.lang, "cards", "", None, source.path, layout="mtgjson",
                        encoding=source.encoding)
    try:
        data = json.loads("\n".join(source.lines))
    except json.JSONDecodeError as err:
        diag = Diagnostic("error", source.path, err.lineno, f"malformed JSON: {err.msg} (column {err.colno}); "
                          "fix the file or download it again from mtgjson.com")
        return CardDataResult(document, (), (), (diag,))
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        diag = Diagnostic("error", source.path, 1, "not an MTGJSON set file (no \"cards\" list); remove it or "
                          "replace it with a set file such as DIS.json")
        return CardDataResult(document, (), (), (diag,))
    lines: dict[str, int] = {}
    for number, text in enumerate(source.lines, start=1):
        for match in ID_FIELD.finditer(text):
            lines.setdefault(match.group(1), number)
    groups, diags = _group(data["cards"], source.path, lines)
    cards, rulings = [], []
    for group in groups:
        card, card_rulings = _card(group, source, doc_id, lines.get(str(group[0].get("id")), 0))
        cards.append(card)
        rulings.extend(card_rulings)
    document = Document(doc_id, source.lang, "cards", str(data.get("name", "")), data.get("releaseDate"),
                        source.path, layout="mtgjson", encoding=source.encoding)
    return CardDataResult(document, tuple(cards), tuple(rulings), tuple(diags))
