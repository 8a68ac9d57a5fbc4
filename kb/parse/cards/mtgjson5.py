"""MTGJSON v5 card data: set files (`{"meta", "data": {…, "cards": [...]}}`) and `AllPrintings.json`.

Read as a stream (`stream.py`), one card at a time, so a 400 MB file never sits in memory. One card per
Oracle card: the entries of a card (its faces, `side` a/b…, and its reprints in other sets of the same file)
become one `Card` with its faces, French names where the French printing has its own, keywords, printings and
English Gatherer rulings. The French printed text and type line stay beside the English (`oracle`: `fr_text`,
`fr_type`), and a slim copy of each entry is kept for mining the French–English lexicon.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.model import Card, Diagnostic, Document, Face, Ruling, SourceRef
from kb.parse.cards.mtgjson import CardDataResult
from kb.parse.cards.stream import iter_cards
from kb.parse.cardtext import SYMBOL, reminders
from kb.sources import slug, unique

LEXICON_FIELDS = ("name", "faceName", "keywords", "supertypes", "types", "subtypes", "originalText", "text")
"""Fields of an entry the lexicon miner reads (plus the French `foreignData`)."""
HINT = "fix the file or download it again from mtgjson.com"


@dataclass(slots=True)
class _Draft:
    """The entries of one card gathered from the stream."""

    name: str
    faces: dict[str, dict] = field(default_factory=dict)
    printings: dict[str, None] = field(default_factory=dict)
    rulings: dict[str, str | None] = field(default_factory=dict)
    index: int = 0


def _text(value: object) -> str:
    """A string field, '' when absent or of another type."""
    return value if isinstance(value, str) else ""


def _strings(value: object) -> tuple[str, ...]:
    """A list of strings, () when absent or of another type."""
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def _french(entry: dict) -> dict:
    """The entry's French printing (`foreignData` item), or {}."""
    for item in entry.get("foreignData") or ():
        if isinstance(item, dict) and item.get("language") == "French":
            return item
    return {}


def _face(entry: dict) -> Face:
    """The English face of an entry, with its French name when the French printing has its own."""
    english = _text(entry.get("faceName")) or _text(entry.get("name"))
    names = {"en": english}
    french = _french(entry)
    fr_name = _text(french.get("faceName")) or _text(french.get("name"))
    if fr_name.strip() and fr_name not in (english, _text(entry.get("name"))):
        names["fr"] = fr_name
    text = _text(entry.get("text"))
    pt = entry.get("power"), entry.get("toughness")
    return Face(
        names=names,
        mana_cost=tuple(SYMBOL.findall(_text(entry.get("manaCost")))),
        type_line=_text(entry.get("type")),
        supertypes=_strings(entry.get("supertypes")),
        types=_strings(entry.get("types")),
        subtypes=_strings(entry.get("subtypes")),
        power=str(pt[0]) if pt[0] is not None else None,
        toughness=str(pt[1]) if pt[1] is not None else None,
        text=text,
        reminder_text=reminders(text),
        lang="en",
    )


def slim(entry: dict) -> dict:
    """What the lexicon miner needs of an entry: English fields and the French printing."""
    kept: dict[str, Any] = {k: entry[k] for k in LEXICON_FIELDS if k in entry}
    french = _french(entry)
    if french:
        kept["foreignData"] = [{k: french.get(k) for k in ("language", "name", "faceName", "text", "type")}]
    return kept


def _card(draft: _Draft, card_id: str, ref: SourceRef, doc_id: str) -> tuple[Card, list[Ruling]]:
    """Build one card from its gathered entries."""
    entries = [draft.faces[side] for side in sorted(draft.faces)]
    faces = tuple(_face(e) for e in entries)
    names = {"en": " // ".join(f.names["en"] for f in faces)}
    if all("fr" in f.names for f in faces):
        names["fr"] = " // ".join(f.names["fr"] for f in faces)
    frenches = [_french(e) for e in entries]
    oracle = {
        "en_text": "\n//\n".join(f.text for f in faces),
        "en_type": " // ".join(f.type_line for f in faces),
        "layout": _text(entries[0].get("layout")),
        "number": "/".join(_text(e.get("number")) for e in entries),
        "oracle_id": _text((entries[0].get("identifiers") or {}).get("scryfallOracleId")),
    }
    if any(fr.get("text") or fr.get("type") for fr in frenches):
        oracle["fr_text"] = "\n//\n".join(_text(fr.get("text")) for fr in frenches)
        oracle["fr_type"] = " // ".join(_text(fr.get("type")) for fr in frenches)
    rulings = [
        Ruling(f"{card_id}/en/{n}", card_id, "en", text, "Gatherer", doc_id, (), (), (), ref, date)
        for n, (text, date) in enumerate(draft.rulings.items(), start=1)
    ]
    keywords = tuple(dict.fromkeys(k for e in entries for k in _strings(e.get("keywords"))))
    card = Card(card_id, names, faces, tuple(r.id for r in rulings), (), ref, oracle, tuple(draft.printings), keywords)
    return card, rulings


def _gather(draft: _Draft, set_code: str, entry: dict) -> None:
    """Add one entry (a face, or a reprint) to its card."""
    side = _text(entry.get("side")) or "a"
    draft.faces.setdefault(side, entry)
    for code in (set_code, *_strings(entry.get("printings"))):
        if code:
            draft.printings.setdefault(code, None)
    for item in entry.get("rulings") or ():
        if isinstance(item, dict) and _text(item.get("text")).strip():
            draft.rulings.setdefault(item["text"], _text(item.get("date")) or None)


def parse_mtgjson5(path: Path, lang: str, shown: str, doc_id: str) -> tuple[CardDataResult, tuple[dict, ...]]:
    """Read a v5 file as a stream into cards, rulings and diagnostics, and the slim entries for the lexicon."""
    problems: list[str] = []
    drafts: dict[str, _Draft] = {}
    lexicon: list[dict] = []
    for set_code, entry in iter_cards(path, problems):
        name = entry["name"]
        draft = drafts.get(name)
        if draft is None:
            draft = drafts[name] = _Draft(name, index=len(drafts) + 1)
        _gather(draft, set_code, entry)
        lexicon.append(slim(entry))
    taken: set[str] = set()
    cards, rulings = [], []
    for draft in drafts.values():
        card_id = unique(slug(draft.name, "") or f"card-{draft.index}", taken)
        card, found = _card(draft, card_id, SourceRef(shown, 1), doc_id)
        cards.append(card)
        rulings += found
    diags = tuple(Diagnostic("error", shown, 0, f"{problem}; {HINT}") for problem in problems)
    document = Document(doc_id, lang, "cards", "", None, shown, layout="mtgjson5", encoding="utf-8")
    return CardDataResult(document, tuple(cards), tuple(rulings), diags), tuple(lexicon)
