"""Stream MTGJSON v5 card data (set files and AllPrintings) one card at a time.

Layouts read:

- a set file: ``{"meta": {...}, "data": {"code": "DIS", ..., "cards": [card, ...]}}``;
- AllPrintings: ``{"meta": {...}, "data": {"DIS": {..., "cards": [...]}, "10E": {...}}}``.

How memory stays bounded: ijson's C backend (``yajl2_c`` when installed) turns the bytes into
``(prefix, event, value)`` parse events; a small router watches the keys directly under ``data``
and forwards the events to an ijson ``items`` coroutine whose prefix is that set's
``data.<CODE>.cards.item`` (``data.cards.item`` for a set file). The coroutine builds one card at a
time, in C, and the router hands it out before the next one is read. Nothing else is ever built:
not a set object (``ijson.kvitems(f, "data")`` would build a whole set), not the ``tokens`` or
``booster`` sections, not the file. Peak memory is the parser buffer plus the largest card.

The set code yielded with a card is its key in AllPrintings, and the card's ``setCode`` in a set
file (whose ``data.code`` comes after ``cards`` in MTGJSON's sorted keys).

Errors never raise: :func:`iter_cards` appends one line per problem to the ``problems`` list it is
given (invalid or truncated JSON with its byte offset, a ``cards`` value that is not an array, a
card that is not an object, has no name or nests deeper than :data:`MAX_DEPTH`, with its set code
and 1-based index) and stops or skips, keeping every card read before. Unknown fields are kept as
they are. Numbers come out as ``int`` and ``float`` like :func:`json.load` would give them; a
``Decimal`` left by an older backend becomes a ``float`` (a ``str`` when a float cannot hold it).
"""

from __future__ import annotations

import decimal
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import ijson

from kb.sources.hashing import sha256

_BACKEND = ijson.get_backend(ijson.backend_name)
"""The backend ijson chose (the C ``yajl2_c`` when it is installed): its coroutines build cards."""

MAX_DEPTH = 64
"""Deepest nesting accepted inside one card (MTGJSON cards nest 4 levels)."""

BUF_SIZE = 64 * 1024
"""Bytes read per parser call."""

Card = dict[str, Any]

_BOM = b"\xef\xbb\xbf"


class _Reader:
    """Count the bytes handed to the parser and remember the last chunk."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.pos = 0
        self.chunk = b""

    def read(self, size: int = -1) -> bytes:
        """Read and count a chunk (a UTF-8 byte order mark at the start is skipped)."""
        chunk = self.raw.read(size)
        self.pos += len(chunk)
        if self.pos == len(chunk) and chunk.startswith(_BOM):
            chunk = chunk[len(_BOM) :]
        self.chunk = chunk
        return chunk


class _Sink(list):
    """Collect what an ijson coroutine sends."""

    send = list.append


def looks_like_mtgjson5(head: bytes) -> bool:
    """Tell whether the first bytes of a file are MTGJSON v5 (a top-level "meta" or "data" key)."""
    keys: list[str] = []
    try:
        for prefix, event, value in ijson.parse(head.removeprefix(_BOM)):
            if prefix == "" and event == "map_key":
                keys.append(value)
            elif prefix == "" and event not in ("start_map", "end_map"):
                return False
    except Exception:  # a head is cut anywhere: judge the keys seen so far
        pass
    return any(key in ("meta", "data") for key in keys) and "cards" not in keys


def read_cards(path: str | Path) -> tuple[list[tuple[str, Card]], list[str]]:
    """Read every card of a v5 file; return the ``(set_code, card)`` pairs and the problems."""
    problems: list[str] = []
    return list(iter_cards(path, problems)), problems


def iter_cards(
    path: str | Path, problems: list[str], dates: dict[str, str] | None = None
) -> Iterator[tuple[str, Card]]:
    """Yield ``(set_code, card)`` pairs one at a time, appending problems to ``problems``.

    ``dates`` receives each set's ``releaseDate`` by set code (a set file's under ``""``) as it is read.
    """
    try:
        raw = open(path, "rb")  # noqa: SIM115 - closed in the finally below, also when abandoned
    except OSError as exc:
        problems.append(f"{path}: cannot read: {exc.strerror or exc}")
        return
    try:
        yield from _stream(str(path), _Reader(raw), problems, {} if dates is None else dates)
    finally:
        raw.close()


def _stream(name: str, reader: _Reader, problems: list[str], dates: dict[str, str]) -> Iterator[tuple[str, Card]]:
    """Route parse events to one ``items`` coroutine per set and yield the cards it builds."""
    sink = _Sink()
    state = _State(name, problems)
    try:
        for prefix, event, value in ijson.parse(reader, buf_size=BUF_SIZE):
            if prefix == "" or prefix == "data":
                state.top(prefix, event, value, sink)
            elif prefix == state.cards_prefix:
                state.check_cards_value(event)
            elif event == "string" and prefix.endswith(".releaseDate"):
                _note_date(prefix, value, dates)
            if state.coro is not None:
                state.coro.send((prefix, event, value))
                if sink:
                    yield from state.take(sink)
    except Exception as exc:  # any parser failure becomes a problem line
        problems.append(
            f"{name}: {_describe_error(exc, reader)}{state.where()}; {state.total} card(s) read before it kept"
        )
        return
    state.finish()


def _note_date(prefix: str, value: str, dates: dict[str, str]) -> None:
    """Keep a set's release date (``data.releaseDate`` of a set file, ``data.<CODE>.releaseDate`` of AllPrintings)."""
    parts = prefix.split(".")
    if parts == ["data", "releaseDate"]:
        dates[""] = value
    elif len(parts) == 3 and parts[0] == "data":
        dates[parts[1]] = value


class _State:
    """Where the router is: the current set, its cards coroutine and the counts so far."""

    def __init__(self, name: str, problems: list[str]) -> None:
        self.name = name
        self.problems = problems
        self.coro: Any = None
        self.code = ""
        self.cards_prefix = "\x00"
        self.index = 0
        self.total = 0
        self.top_kind = ""
        self.saw_cards = False

    def top(self, prefix: str, event: str, value: Any, sink: _Sink) -> None:
        """Follow the top-level object and the keys of ``data``; start a coroutine per key."""
        if prefix == "" and not self.top_kind:
            self.top_kind = event
        elif prefix == "data" and event == "map_key":
            self.code = "" if value == "cards" else str(value)
            self.cards_prefix = "data.cards" if value == "cards" else f"data.{value}.cards"
            self.coro = _BACKEND.items_basecoro(sink, self.cards_prefix + ".item")
            self.index = 0

    def check_cards_value(self, event: str) -> None:
        """Note a ``cards`` array; report a ``cards`` value of any other kind."""
        if event == "start_array":
            self.saw_cards = True
        elif event not in ("end_array", "map_key", "end_map"):
            kind = "an object" if event == "start_map" else _KINDS.get(event, event)
            self.saw_cards = True
            self.problems.append(f"{self.name}: {self._label()}: 'cards' is {kind}, expected an array; skipped")

    def take(self, sink: _Sink) -> Iterator[tuple[str, Card]]:
        """Check the cards the coroutine built and yield the good ones."""
        cards = list(sink)
        sink.clear()
        for card in cards:
            self.index += 1
            problem = _check_card(card)
            if problem:
                self.problems.append(f"{self.name}: {self._label()} card {self.index}: {problem}; skipped")
                continue
            self.total += 1
            code = self.code or card.get("setCode")
            yield (code if isinstance(code, str) else ""), card

    def where(self) -> str:
        """Say where the parser was, for an error message."""
        return f" (in {self._label()}, after card {self.index})" if self.coro is not None else ""

    def finish(self) -> None:
        """Report a file that held no cards array at all."""
        if self.top_kind and self.top_kind != "start_map":
            kind = _KINDS.get(self.top_kind, self.top_kind)
            self.problems.append(f"{self.name}: the top level is {kind}, expected an object with 'data'")
        elif not self.saw_cards:
            self.problems.append(f"{self.name}: no 'data' object with 'cards' (not an MTGJSON v5 set or AllPrintings)")

    def _label(self) -> str:
        return f"set {self.code}" if self.code else "set file"


_KINDS = {"start_array": "an array", "string": "a string", "number": "a number", "boolean": "a boolean", "null": "null"}
"""JSON kinds by the parse event that starts them."""


def _check_card(card: Any) -> str:
    """Return what is wrong with a card ('' when it is usable); convert its numbers in place."""
    if not isinstance(card, dict):
        return f"expected an object, got {_KINDS.get(_event_kind(card), type(card).__name__)}"
    if not isinstance(card.get("name"), str) or not card["name"]:
        return "no 'name' string"
    return _normalise(card)


def _event_kind(value: Any) -> str:
    """Map a Python value to the parse event name of its JSON kind."""
    if isinstance(value, list):
        return "start_array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    return "null" if value is None else "number"


def _normalise(card: Card) -> str:
    """Convert Decimals in place and refuse nesting deeper than MAX_DEPTH, without recursion."""
    stack: list[tuple[Any, int]] = [(card, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        node, depth = pop()
        if depth > MAX_DEPTH:
            return f"nested deeper than {MAX_DEPTH} levels"
        for key, value in node.items() if type(node) is dict else enumerate(node):
            kind = type(value)
            if kind is dict or kind is list:
                push((value, depth + 1))
            elif kind is decimal.Decimal:
                node[key] = _number(value)
    return ""


def _number(value: decimal.Decimal) -> int | float | str:
    """Turn a Decimal into a float, or its text when a float cannot hold it (overflow, NaN)."""
    converted = float(value)
    return converted if math.isfinite(converted) else str(value)


def _describe_error(exc: Exception, reader: _Reader) -> str:
    """Give the parser's complaint and the byte offset where it happened."""
    message = exc.args[0] if exc.args and isinstance(exc.args[0], bytes) else str(exc).encode("utf-8", "replace")
    lines = message.splitlines() or [type(exc).__name__.encode()]
    what = lines[0].decode("utf-8", "replace").strip()
    if "premature EOF" in what:
        return f"truncated JSON at byte {reader.pos} (end of file): {what}"
    offset = _offset_from_snippet(lines, reader)
    at = f"near byte {offset}" if offset is not None else f"within bytes {reader.pos - len(reader.chunk)}-{reader.pos}"
    return f"invalid JSON {at}: {what}"


_CARET = re.compile(rb"\(right here\) -+\^")
"""The last line of a yajl error message, whose caret marks the error column."""


def _offset_from_snippet(lines: list[bytes], reader: _Reader) -> int | None:
    """Find yajl's context snippet in the last chunk to recover the byte offset of the error."""
    caret = _CARET.search(lines[2]) if len(lines) >= 3 else None
    if caret is None:
        return None
    snippet = lines[1]
    lead = len(snippet) - len(snippet.lstrip(b" "))
    text = snippet[lead:]
    found = reader.chunk.find(text)
    if not text or found < 0 or reader.chunk.find(text, found + 1) >= 0:
        return None
    return reader.pos - len(reader.chunk) + found + (caret.end() - 1 - lead)


def is_mtgjson5(path: Path) -> bool:
    """Tell whether a content file is MTGJSON v5 card data, from its name and first bytes."""
    if path.suffix.lower() != ".json":
        return False
    try:
        with path.open("rb") as f:
            return looks_like_mtgjson5(f.read(4096))
    except OSError:
        return False


def file_sha256(path: Path) -> str | None:
    """The SHA-256 of a file read in chunks, or None when it cannot be read."""
    digest = sha256()
    try:
        with path.open("rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()
