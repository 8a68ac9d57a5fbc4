"""MTGJSON v3 set files (`{"name", "code", "cards": [...]}`): English cards, French names, Gatherer rulings.

Split cards are stored as two entries (`layout: split`, numbers `149a`/`149b`, `names: [A, B]`); they become one
card with two faces. MTGJSON's French `foreignNames` of split halves repeat the English name: they are dropped.
Every entry is type-checked first; an entry of the wrong shape is skipped with a warning, never a traceback.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from kb.model import Card, Diagnostic, Document, Face, Ruling, SourceRef, SourceText
from kb.parse.cardtext import SYMBOL, reminders
from kb.sources import slug, unique

ID_FIELD = re.compile(r'"id"\s*:\s*"([^"]+)"')
NAME_FIELD = re.compile(r'"name"\s*:\s*("(?:[^"\\]|\\.)*")')
TEXT_FIELDS = ("manaCost", "type", "text", "layout")
"""Fields that must be strings when present."""
LIST_FIELDS = ("supertypes", "types", "subtypes")
"""Fields that must be lists of strings when present."""
MAX_REPORTED = 20
"""Skipped entries listed one by one in a file; the others are counted in one line."""


@dataclass(frozen=True, slots=True)
class CardDataResult:
    """Everything read from one card data file."""

    document: Document
    """The file as a document (kind `cards`, layout `mtgjson`)."""
    cards: tuple[Card, ...]
    """English cards (French names when known), split cards as one card; ids are unique within the file."""
    rulings: tuple[Ruling, ...]
    """English Gatherer rulings (section `Gatherer`, dated)."""
    diagnostics: tuple[Diagnostic, ...]
    """Problems found while reading."""
    set_names: Mapping[str, str] = field(default_factory=dict)
    """Set code -> the set's English name (`DIS` -> `Dissension`), of the sets the file holds."""


def looks_like_mtgjson(raw_text: str) -> bool:
    """Tell whether a text is an MTGJSON set file."""
    head = raw_text.lstrip("\ufeff \t\r\n")[:200_000]
    return head.startswith("{") and '"cards"' in head and ('"manaCost"' in head or '"multiverseid"' in head)


def _is_text_list(value: object) -> bool:
    """Tell whether a value is a list of strings."""
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _is_number(value: object) -> bool:
    """Tell whether a value is a JSON number (not a boolean)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def entry_problem(entry: object) -> str | None:
    """Say what is wrong with the shape of a card entry, or None when it can be read."""
    if not isinstance(entry, dict):
        return f"it is a {type(entry).__name__}, not an object"
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        return '"name" must be a string' if name and not isinstance(name, str) else "it has no name"
    for key in TEXT_FIELDS:
        if entry.get(key) is not None and not isinstance(entry[key], str):
            return f'"{key}" must be a string'
    for key in (*LIST_FIELDS, "names"):
        if entry.get(key) is not None and not _is_text_list(entry[key]):
            return f'"{key}" must be a list of strings'
    for key in ("power", "toughness", "number", "multiverseid"):
        value = entry.get(key)
        if value is not None and not isinstance(value, str) and not _is_number(value):
            return f'"{key}" must be a string or a number'
    for key in ("rulings", "foreignNames"):
        if entry.get(key) is not None and not isinstance(entry[key], list):
            return f'"{key}" must be a list'
    return None


def _text(value: object) -> str | None:
    """Return a string or number field as text (None when absent)."""
    if value is None:
        return None
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _french_name(entry: dict) -> str | None:
    """Return the French name of an entry, or None (split halves only repeat the English name)."""
    for foreign in entry.get("foreignNames") or ():
        if isinstance(foreign, dict) and foreign.get("language") == "French" and isinstance(foreign.get("name"), str):
            name = foreign["name"]
            if not name.strip() or (entry.get("layout") == "split" and name == entry["name"]):
                return None
            return name
    return None


def _face(entry: dict) -> Face:
    """Build the English face of a checked entry."""
    names = {"en": entry["name"]}
    if french := _french_name(entry):
        names["fr"] = french
    text = entry.get("text") or ""
    return Face(
        names=names,
        mana_cost=tuple(SYMBOL.findall(entry.get("manaCost") or "")),
        type_line=entry.get("type") or "",
        supertypes=tuple(entry.get("supertypes") or ()),
        types=tuple(entry.get("types") or ()),
        subtypes=tuple(entry.get("subtypes") or ()),
        power=_text(entry.get("power")),
        toughness=_text(entry.get("toughness")),
        text=text,
        reminder_text=reminders(text),
        lang="en",
    )


class _Lines:
    """Find the line of an entry in the file (by its `id`, else its `name`)."""

    def __init__(self, lines: tuple[str, ...]) -> None:
        self.ids: dict[str, int] = {}
        self.names: dict[str, int] = {}
        for number, text in enumerate(lines, start=1):
            for match in ID_FIELD.finditer(text):
                self.ids.setdefault(match.group(1), number)
            for match in NAME_FIELD.finditer(text):
                self.names.setdefault(match.group(1), number)

    def of(self, entry: object) -> int:
        """Return the 1-based line of an entry, 0 when it cannot be found."""
        if not isinstance(entry, dict):
            return 0
        if isinstance(entry.get("id"), str) and entry["id"] in self.ids:
            return self.ids[entry["id"]]
        if isinstance(entry.get("name"), str):
            return self.names.get(json.dumps(entry["name"], ensure_ascii=False), 0)
        return 0


def _label(index: int, entry: object) -> str:
    """Name an entry in a diagnostic: its position and, when it has one, its name."""
    name = entry.get("name") if isinstance(entry, dict) else None
    return f'card entry {index + 1} of "cards"' + (f" ({name!r})" if isinstance(name, str) and name.strip() else "")


def _group(entries: list, path: str, lines: _Lines) -> tuple[list[list[dict]], list[Diagnostic]]:
    """Check the entries and group split halves into one list per card, in file order."""
    groups: list[list[dict]] = []
    by_names: dict[tuple[str, ...], list[dict]] = {}
    diags = []
    skipped = 0
    for index, entry in enumerate(entries):
        if problem := entry_problem(entry):
            skipped += 1
            if skipped <= MAX_REPORTED:
                diags.append(
                    Diagnostic(
                        "warning",
                        path,
                        lines.of(entry),
                        f"{_label(index, entry)}: {problem}; "
                        "entry skipped (fix the file or download it again from mtgjson.com)",
                    )
                )
            continue
        names = tuple(entry.get("names") or ()) if entry.get("layout") == "split" else ()
        if names and names in by_names:
            by_names[names].append(entry)
            continue
        group = [entry]
        groups.append(group)
        if names:
            by_names[names] = group
    if skipped > MAX_REPORTED:
        more = f"… and {skipped - MAX_REPORTED:,} more of the same (card entries skipped) in {path}"
        diags.append(Diagnostic("warning", path, 0, more))
    for names, group in by_names.items():
        order = {name: i for i, name in enumerate(names)}
        group.sort(key=lambda e: order.get(e["name"], len(order)))
        if len(group) != len(names):
            diags.append(
                Diagnostic(
                    "warning",
                    path,
                    lines.of(group[0]),
                    f"split card {' // '.join(names)}: {len(group)} of {len(names)} halves found; kept what is there",
                )
            )
    return groups, diags


def _rulings_of(group: list[dict]) -> dict[str, str | None]:
    """Collect the Gatherer ruling texts of a card's entries (text -> date), without repeats."""
    texts: dict[str, str | None] = {}
    for entry in group:
        for item in entry.get("rulings") or ():
            if isinstance(item, dict) and isinstance(item.get("text"), str) and item["text"].strip():
                date = item.get("date")
                texts.setdefault(item["text"], date if isinstance(date, str) else None)
    return texts


def _card(group: list[dict], card_id: str, source: SourceText, doc_id: str, line: int) -> tuple[Card, list[Ruling]]:
    """Build one card and its Gatherer rulings from its checked entries."""
    faces = tuple(_face(entry) for entry in group)
    names = {"en": " // ".join(face.names["en"] for face in faces)}
    if all("fr" in face.names for face in faces):
        names["fr"] = " // ".join(face.names["fr"] for face in faces)
    oracle = {
        "en_text": "\n//\n".join(face.text for face in faces),
        "en_type": " // ".join(f.type_line for f in faces),
        "number": "/".join(_text(e.get("number")) or "" for e in group),
        "layout": group[0].get("layout") or "",
        "multiverseid": "/".join(_text(e.get("multiverseid")) or "" for e in group),
    }
    ref = SourceRef(source.path, line)
    rulings = [
        Ruling(f"{card_id}/en/{n}", card_id, "en", text, "Gatherer", doc_id, (), (), (), ref, date)
        for n, (text, date) in enumerate(_rulings_of(group).items(), start=1)
    ]
    card = Card(card_id, names, faces, tuple(r.id for r in rulings), (), ref, oracle)
    return card, rulings


def _load(source: SourceText) -> tuple[object, Diagnostic | None]:
    """Decode the JSON text; a malformed or too deeply nested file is one error."""
    try:
        return json.loads("\n".join(source.lines)), None
    except json.JSONDecodeError as err:
        return None, Diagnostic(
            "error",
            source.path,
            err.lineno,
            f"malformed JSON: {err.msg} (column {err.colno}); fix the file or download it again from mtgjson.com",
        )
    except (RecursionError, ValueError) as err:
        why = "nested too deeply" if isinstance(err, RecursionError) else str(err)
        return None, Diagnostic(
            "error", source.path, 0, f"unreadable JSON ({why}); fix the file or download it again from mtgjson.com"
        )


def parse_mtgjson(source: SourceText, doc_id: str) -> CardDataResult:
    """Read an MTGJSON set file into cards, rulings and diagnostics; malformed JSON is one error."""
    document = Document(doc_id, source.lang, "cards", "", None, source.path, layout="mtgjson", encoding=source.encoding)
    data, error = _load(source)
    if error:
        return CardDataResult(document, (), (), (error,))
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        diag = Diagnostic(
            "error",
            source.path,
            1,
            'not an MTGJSON set file (no "cards" list); remove it or replace it with a set file such as DIS.json',
        )
        return CardDataResult(document, (), (), (diag,))
    lines = _Lines(source.lines)
    groups, diags = _group(data["cards"], source.path, lines)
    cards, rulings = [], []
    taken: set[str] = set()
    for group in groups:
        line = lines.of(group[0])
        card_id = unique(slug(" // ".join(e["name"] for e in group), "") or f"card-l{line}", taken)
        card, card_rulings = _card(group, card_id, source, doc_id, line)
        cards.append(card)
        rulings.extend(card_rulings)
    title, released = data.get("name"), data.get("releaseDate")
    document = Document(
        doc_id,
        source.lang,
        "cards",
        title if isinstance(title, str) else "",
        released if isinstance(released, str) else None,
        source.path,
        layout="mtgjson",
        encoding=source.encoding,
    )
    code = data.get("code")
    named = {code: title} if isinstance(code, str) and code and isinstance(title, str) and title else {}
    return CardDataResult(document, tuple(cards), tuple(rulings), tuple(diags), named)
