"""BM25 baseline: every record of a `kb export` JSON in an in-memory SQLite FTS5 table, queried with ORed words.

Ids follow the benchmark convention (see README.md): `en:702.19`, `glossary:en:Trample`, `card:<English name>`,
`ruling:<English card name>`, `note:<title>`.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

TOKENIZER = "porter unicode61 remove_diacritics 2"
LIMIT = 10
WORD = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class Record:
    """One searchable record of the export."""

    id: str
    """The record id in the benchmark convention."""
    title: str
    """Short heading text: rule number and title, term, card names, note title."""
    text: str
    """Body text: rule text and examples, definition, card text, ruling or note text."""


def rule_records(rules: list[dict]) -> Iterator[Record]:
    """Yield rules, titled with their number and their own or nearest ancestor's title."""
    titles = {(r["edition"], r["number"]): r["title"] for r in rules}
    for rule in rules:
        title, parent = rule["title"], rule["parent"]
        while not title and parent:
            title = titles.get((rule["edition"], parent), "")
            parent = parent.rsplit(".", 1)[0] if "." in parent else None
        body = "\n".join([rule["text"], *rule["examples"]])
        yield Record(f"{rule['lang']}:{rule['number']}", f"{rule['number']} {title}".strip(), body)


def glossary_records(entries: list[dict]) -> Iterator[Record]:
    """Yield glossary entries, titled with their term and aliases."""
    for entry in entries:
        title = " ".join([entry["term"], *entry["aliases"]])
        yield Record(f"glossary:{entry['lang']}:{entry['term']}", title, entry["definition"])


def card_name(card: dict) -> str:
    """Return the card's English name (any name when it has none)."""
    names = card["names"]
    return names.get("en") or next(iter(names.values()))


def card_records(cards: list[dict]) -> Iterator[Record]:
    """Yield cards, titled with all their names, with the text of every face and the Oracle text."""
    for card in cards:
        parts = []
        for face in card["faces"]:
            parts += [face["type_line"], face["text"]]
            if face["power"] is not None:
                parts.append(f"{face['power']}/{face['toughness']}")
        oracle = card.get("oracle") or {}
        parts += [oracle.get("en_type") or "", oracle.get("en_text") or ""]
        yield Record(f"card:{card_name(card)}", " ".join(card["names"].values()), "\n".join(p for p in parts if p))


def ruling_records(rulings: list[dict], cards: list[dict]) -> Iterator[Record]:
    """Yield rulings, titled with their card's names."""
    by_id = {card["id"]: card for card in cards}
    for ruling in rulings:
        card = by_id.get(ruling["card"])
        title = " ".join(card["names"].values()) if card else ruling["card"]
        yield Record(f"ruling:{card_name(card) if card else ruling['card']}", title, ruling["text"])


def note_records(notes: list[dict]) -> Iterator[Record]:
    """Yield FAQ notes with their bullets and quoted rules."""
    for note in notes:
        quoted = [q["text"] for q in note["quoted_rules"]]
        yield Record(f"note:{note['title']}", note["title"], "\n".join([note["text"], *note["bullets"], *quoted]))


def records(export: dict) -> Iterator[Record]:
    """Yield every searchable record of an export."""
    yield from rule_records(export["rules"])
    yield from glossary_records(export["glossary"])
    yield from card_records(export["cards"])
    yield from ruling_records(export["rulings"], export["cards"])
    yield from note_records(export["notes"])


def fts_query(question: str) -> str:
    """Return the question's words, each quoted, ORed (FTS5 syntax characters dropped)."""
    words = dict.fromkeys(WORD.findall(question.replace('"', " ")))
    return " OR ".join(f'"{word}"' for word in words)


def connect(export: dict) -> sqlite3.Connection:
    """Load the export's records into an in-memory FTS5 table."""
    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.execute(f"CREATE VIRTUAL TABLE doc USING fts5(rid UNINDEXED, title, text, tokenize='{TOKENIZER}')")
    db.executemany("INSERT INTO doc VALUES (?, ?, ?)", ((r.id, r.title, r.text) for r in records(export)))
    return db


def baseline(export_json_path: str | Path, limit: int = LIMIT) -> Callable[[str], list[str]]:
    """Return a ranker: question -> ids of the best `limit` records by BM25."""
    db = connect(json.loads(Path(export_json_path).read_text(encoding="utf-8")))

    def rank(question: str) -> list[str]:
        query = fts_query(question)
        if not query:
            return []
        rows = db.execute("SELECT rid FROM doc WHERE doc MATCH ? ORDER BY bm25(doc) LIMIT ?", (query, limit))
        return [rid for (rid,) in rows]

    return rank
