"""MTGJSON v5 card data: set files (`{"meta", "data": {…, "cards": [...]}}`) and `AllPrintings.json`.

Read as a stream (`stream.py`), one card at a time, so a 400 MB file never sits in memory. One card per
Oracle card: the entries of a card (its faces, `side` a/b…, and its reprints in other sets of the same file)
become one `Card` with its faces, French names where the French printing has its own, keywords, printings and
English Gatherer rulings. The French printed text and type line stay beside the English (`oracle`: `fr_text`,
`fr_type`), and a slim copy of each entry is kept for mining the French–English lexicon.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.model import Card, Diagnostic, Document, Face, Printed, Ruling, SourceRef
from kb.parse.cards.fields import checked
from kb.parse.cards.mtgjson import CardDataResult
from kb.parse.cards.stream import MAX_CODE, MAX_REPORTED, iter_cards
from kb.parse.cardtext import SYMBOL, reminders
from kb.sources import slug, unique

LEXICON_FIELDS = ("name", "faceName", "keywords", "supertypes", "types", "subtypes", "originalText", "text")
"""Fields of an entry the lexicon miner reads (plus the French `foreignData`)."""
HINT = "fix the file or download it again from mtgjson.com"
MAX_SETS = 5_000
"""Most distinct set codes a file's cards are printed in (MTGJSON's AllPrintings has under a thousand sets): each
set has a page, so the site grows with them."""
CARD_FIELDS = frozenset(
    (*LEXICON_FIELDS, "foreignData", "identifiers", "layout", "manaCost", "number", "power", "printings", "rulings")
    + ("setCode", "side", "toughness", "type")
)
"""Fields of an entry read; the others (legalities, prices, artist…) are skipped as the file is streamed."""


@dataclass(slots=True)
class _Draft:
    """The entries of one card gathered from the stream."""

    name: str
    faces: dict[str, dict] = field(default_factory=dict)
    printings: dict[str, None] = field(default_factory=dict)
    rulings: dict[str, str | None] = field(default_factory=dict)
    index: int = 0
    french: dict[str, dict[str, dict]] = field(default_factory=dict)
    """Set code -> side -> that printing's French `foreignData` item (sets without French are left out)."""


def _text(value: object) -> str:
    """A string field, '' when absent or of another type."""
    return value if isinstance(value, str) else ""


def _shared(value: object) -> str:
    """A short string field that many cards repeat (a set code, a type, a cost symbol), one object for all of them:
    a pool repeats each hundreds of thousands of times, in memory and in the load cache."""
    return sys.intern(value) if isinstance(value, str) else ""


def _words(value: object) -> tuple[str, ...]:
    """A list of short strings (types, keywords, set codes), shared as `_shared` does."""
    return tuple(sys.intern(v) for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def _french(entry: dict) -> dict:
    """The entry's French printing (`foreignData` item), or {}."""
    for item in entry.get("foreignData") or ():
        if isinstance(item, dict) and item.get("language") == "French":
            return item
    return {}


def _french_name(entry: dict, french: dict) -> str:
    """The French name of an entry's face in a French printing: '' when it repeats the English one on a card of
    several faces (the card data gives the English names there, not the French printing's), the same name on a
    card of one face printed in French (« Drekavac »)."""
    fr_name = _text(french.get("faceName")) or _text(french.get("name"))
    english = _text(entry.get("faceName")) or _text(entry.get("name"))
    if not fr_name.strip():
        return ""
    if fr_name not in (english, _text(entry.get("name"))):
        return fr_name
    printed = _text(french.get("text")) or _text(french.get("type"))
    return fr_name if printed and not entry.get("faceName") and " // " not in fr_name else ""


def _face(entry: dict, french: dict) -> Face:
    """The English face of an entry, with its name in the given French printing when that has its own."""
    english = _text(entry.get("faceName")) or _text(entry.get("name"))
    names = {"en": english}
    if fr_name := _french_name(entry, french):
        names["fr"] = fr_name
    text = _text(entry.get("text"))
    pt = entry.get("power"), entry.get("toughness")
    return Face(
        names=names,
        mana_cost=tuple(sys.intern(symbol) for symbol in SYMBOL.findall(_text(entry.get("manaCost")))),
        type_line=_shared(entry.get("type")),
        supertypes=_words(entry.get("supertypes")),
        types=_words(entry.get("types")),
        subtypes=_words(entry.get("subtypes")),
        power=sys.intern(str(pt[0])) if pt[0] is not None else None,
        toughness=sys.intern(str(pt[1])) if pt[1] is not None else None,
        text=text,
        reminder_text=reminders(text),
        lang="en",
    )


def slim(entry: dict, set_code: str = "") -> dict:
    """What the lexicon miner needs of an entry: English fields, the French printing and the set printing them."""
    kept: dict[str, Any] = {k: entry[k] for k in LEXICON_FIELDS if k in entry}
    if set_code:
        kept["setCode"] = set_code
    french = _french(entry)
    if french:
        kept["foreignData"] = [{k: french.get(k) for k in ("language", "name", "faceName", "text", "type")}]
    return kept


def _printed(draft: _Draft, sides: list[str], dates: dict[str, str]) -> tuple[Printed, ...]:
    """Every distinct French printing of a card (name, type line, text) with its sets, newest first."""
    found: dict[tuple[str, str, str], list[str]] = {}
    for code, by_side in draft.french.items():
        items = [by_side.get(side, {}) for side in sides]
        names = [_french_name(draft.faces[side], item) for side, item in zip(sides, items, strict=True)]
        name = " // ".join(names) if all(names) else ""
        type_line = sys.intern(" // ".join(_text(item.get("type")) for item in items))
        text = "\n//\n".join(_text(item.get("text")) for item in items)
        if name or type_line.strip(" /") or text.strip("\n/"):
            found.setdefault((name, type_line, text), []).append(code)
    printed = []
    for (name, type_line, text), codes in found.items():
        codes.sort(key=lambda code: dates.get(code, ""), reverse=True)
        printed.append(Printed("fr", name, type_line, text, tuple(codes), dates.get(codes[0])))
    return tuple(sorted(printed, key=lambda p: p.released or "", reverse=True))


def _card(draft: _Draft, card_id: str, ref: SourceRef, doc_id: str, dates: dict[str, str]) -> tuple[Card, list[Ruling]]:
    """Build one card from its gathered entries: English from its first entry, French from its newest printing."""
    sides = sorted(draft.faces)
    entries = [draft.faces[side] for side in sides]
    printed = _printed(draft, sides, dates)
    newest = next((p for p in printed if p.name), printed[0] if printed else None)
    code = next(iter(newest.sets)) if newest else ""
    frenches = [draft.french.get(code, {}).get(side, {}) for side in sides]
    faces = tuple(_face(e, fr) for e, fr in zip(entries, frenches, strict=True))
    names = {"en": " // ".join(f.names["en"] for f in faces)}
    if all("fr" in f.names for f in faces):
        names["fr"] = " // ".join(f.names["fr"] for f in faces)
    oracle = {
        "en_text": "\n//\n".join(f.text for f in faces),
        "en_type": " // ".join(f.type_line for f in faces),
        "layout": _shared(entries[0].get("layout")),
        "number": "/".join(_text(e.get("number")) for e in entries),
        "oracle_id": _text((entries[0].get("identifiers") or {}).get("scryfallOracleId")),
    }
    if any(fr.get("text") or fr.get("type") for fr in frenches):
        oracle["fr_text"] = "\n//\n".join(_text(fr.get("text")) for fr in frenches)
        oracle["fr_type"] = " // ".join(_text(fr.get("type")) for fr in frenches)
    rulings = [
        Ruling(f"{card_id}/en/{n}", card_id, "en", text, "Gatherer", doc_id, (), (), (), ref, date and sys.intern(date))
        for n, (text, date) in enumerate(draft.rulings.items(), start=1)
    ]
    keywords = tuple(dict.fromkeys(k for e in entries for k in _words(e.get("keywords"))))
    card = Card(
        card_id, names, faces, tuple(r.id for r in rulings), (), ref, oracle, tuple(draft.printings), keywords, printed
    )
    return card, rulings


def _gather(draft: _Draft, set_code: str, entry: dict) -> None:
    """Add one entry (a face, or a reprint) to its card."""
    side = _text(entry.get("side")) or "a"
    draft.faces.setdefault(side, entry)
    for code in (set_code, *_words(entry.get("printings"))):
        if code:
            draft.printings.setdefault(code, None)
    for item in entry.get("rulings") or ():
        if isinstance(item, dict) and _text(item.get("text")).strip():
            draft.rulings.setdefault(item["text"], _text(item.get("date")) or None)
    french = _french(entry)
    if french:
        draft.french.setdefault(set_code, {}).setdefault(side, french)


def parse_mtgjson5(path: Path, lang: str, shown: str, doc_id: str) -> tuple[CardDataResult, tuple[dict, ...]]:
    """Read a v5 file as a stream into cards, rulings and diagnostics, and the slim entries for the lexicon."""
    problems: list[str] = []
    drafts: dict[str, _Draft] = {}
    lexicon: list[dict] = []
    dates: dict[str, str] = {}
    set_names: dict[str, str] = {}
    codes: set[str] = set()
    bounds = _Bounds()
    ref = SourceRef(shown, 1)
    for code, raw in iter_cards(path, problems, dates, CARD_FIELDS, set_names):
        entry = bounds.check(raw, code)
        set_code = sys.intern(code)
        codes.add(set_code)
        name = entry["name"]
        draft = drafts.get(name)
        if draft is None:
            draft = drafts[name] = _Draft(name, index=len(drafts) + 1)
        _gather(draft, set_code, entry)
        lexicon.append(slim(entry, set_code))
    file_name = set_names.pop("", None)  # a set file's own name: the set of the cards it holds
    if file_name and len(codes) == 1:
        set_names[next(iter(codes))] = file_name
    file_date = dates.pop("", None)  # a set file's own date: every card it holds is of that set
    if file_date:
        for draft in drafts.values():
            for code in draft.french:
                dates.setdefault(code, file_date)
    taken: set[str] = set()
    cards, rulings = [], []
    for draft in drafts.values():
        card_id = unique(slug(draft.name, "") or f"card-{draft.index}", taken)
        card, found = _card(draft, card_id, ref, doc_id, dates)
        cards.append(card)
        rulings += found
    diags = tuple(Diagnostic("error", shown, 0, f"{problem}; {HINT}") for problem in problems)
    diags += tuple(Diagnostic("warning", shown, 0, f"{problem}; {HINT}") for problem in bounds.said())
    document = Document(doc_id, lang, "cards", "", None, shown, layout="mtgjson5", encoding="utf-8")
    named = {code: name for code, name in set_names.items() if 0 < len(code) <= MAX_CODE and name}
    return CardDataResult(document, tuple(cards), tuple(rulings), diags, named), tuple(lexicon)


@dataclass(slots=True)
class _Bounds:
    """The checks of a file's entries as they are read: each field's type (`kb.parse.cards.fields`), and the sets
    its cards are printed in (past MAX_SETS distinct set codes in a file, only those already met are kept); the
    problems, the wrong types listed MAX_REPORTED times at most."""

    sets: dict[str, None] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    wrong: int = 0
    over: int = 0

    def check(self, raw: dict, code: str) -> dict:
        """The entry with its wrongly typed fields left out and its printings within the file's bound."""
        entry, wrong = checked(raw)
        for why in wrong:
            self.wrong += 1
            if self.wrong <= MAX_REPORTED:
                where = f" (set {code})" if code else ""
                self.problems.append(f"card {entry['name'][:80]!r}{where}: {why}; left out")
        self.sets[code] = None  # the card's own set always counts
        if len(self.sets) > MAX_SETS and entry.get("printings"):
            kept = [c for c in entry["printings"] if c in self.sets]
            self.over += len(entry["printings"]) - len(kept)
            entry["printings"] = kept
        elif entry.get("printings"):
            for c in entry["printings"]:
                self.sets[c] = None
        return entry

    def said(self) -> list[str]:
        """The problems, and a line for those not listed."""
        said = list(self.problems)
        if self.wrong > MAX_REPORTED:
            said.append(f"… and {self.wrong - MAX_REPORTED:,} more fields of the wrong type, left out")
        if self.over:
            said.append(f"{self.over:,} printings in sets past the first {MAX_SETS:,} of this file left out")
        return said
