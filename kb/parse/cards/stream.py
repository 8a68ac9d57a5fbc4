"""Stream MTGJSON v5 card data (set files and AllPrintings) one card at a time, within bounds.

Layouts read:

- a set file: ``{"meta": {...}, "data": {"code": "DIS", ..., "cards": [card, ...]}}``;
- AllPrintings: ``{"meta": {...}, "data": {"DIS": {..., "cards": [...]}, "10E": {...}}}``.

How memory stays bounded: ijson's C backend (``yajl2_c`` when installed) turns the bytes into
``(event, value)`` parse events without prefixes (a prefix is a string as long as the nesting is deep,
and a parser keeping one per level holds a square of the depth: 4 GB for 40,000 levels). A small
router counts the depth, follows the keys of the first three levels and forwards the events of each
card, and of nothing else, to an ijson ``items`` coroutine that builds the card in C; the card is
handed out before the next one is read. The ``tokens`` and ``booster`` sections, a whole set, the
file: none is ever built. A card is refused while it is read, with nothing more of it built, once it
nests deeper than :data:`MAX_DEPTH`, holds a string longer than :data:`MAX_STRING` characters or
more than :data:`MAX_VALUES` values (MTGJSON's cards nest 4 levels, hold at most a few hundred
values and strings of a few thousand characters). Peak memory is the parser buffer, the largest
card and the largest string.

The set code yielded with a card is its key in AllPrintings, and the card's ``setCode`` in a set
file (whose ``data.code`` comes after ``cards`` in MTGJSON's sorted keys). Each set's
``releaseDate`` is noted in the ``dates`` given to :func:`iter_cards`.

Errors never raise: :func:`iter_cards` appends one line per problem to the ``problems`` list it is
given, without the file's name, which its caller gives (a diagnostic's path, a prefix): invalid or
truncated JSON with its byte offset, a ``cards`` value that is not an array, a card that is not an
object, has no name or passes a bound, with its set code and 1-based index; then it stops or skips,
keeping every card read before. The same problem is listed :data:`MAX_REPORTED` times at most per
file, then counted in one line. Unknown fields are kept as they are. Numbers come out as ``int`` and
``float`` like :func:`json.load` would give them (a ``str`` when a float cannot hold one).
"""

from __future__ import annotations

import decimal
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import ijson

from kb.sources.bounded import open_regular
from kb.sources.digests import file_digest

_BACKEND = ijson.get_backend(ijson.backend_name)
"""The backend ijson chose (the C ``yajl2_c`` when it is installed): its coroutines build cards."""

MAX_DEPTH = 64
"""Deepest nesting accepted inside one card (MTGJSON cards nest 4 levels)."""
MAX_STRING = 100_000
"""Longest string accepted in a card, in characters (the longest card text of 2022 has 1,189)."""
MAX_VALUES = 100_000
"""Most values (strings, numbers, lists, objects) accepted in one card (the largest of 2022 holds 323)."""
MAX_REPORTED = 20
"""Times the same problem is listed for one file; the others are counted in one line."""
MAX_CODE = 40
"""Longest set code kept (MTGJSON's are 3 to 6 characters): a longer one is read as no set."""
MAX_SET_FIELD = 300
"""Longest set name or release date kept (MTGJSON's longest set name has under 60 characters): a set's name is shown
on every page of its cards."""

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
    path: str | Path,
    problems: list[str],
    dates: dict[str, str] | None = None,
    fields: frozenset[str] | None = None,
    names: dict[str, str] | None = None,
) -> Iterator[tuple[str, Card]]:
    """Yield ``(set_code, card)`` pairs one at a time, appending problems to ``problems``.

    ``dates`` receives each set's ``releaseDate`` by set code (a set file's under ``""``) as it is read, ``names``
    each set's ``name`` alike;
    ``fields``, when given, are the only fields of a card built (the others are skipped as they are read).
    """
    try:
        raw = open_regular(path)  # closed in the finally below, also when abandoned; never a FIFO or a device
    except OSError as exc:
        problems.append(f"cannot read: {exc.strerror or exc}")
        return
    state = _State(problems, {} if dates is None else dates, {} if names is None else names)
    try:
        yield from _stream(_Reader(raw), state, fields)
    finally:
        state.counted()
        raw.close()


_OPEN = frozenset(("start_map", "start_array"))
_CLOSE = frozenset(("end_map", "end_array"))


def _stream(reader: _Reader, state: _State, fields: frozenset[str] | None) -> Iterator[tuple[str, Card]]:
    """Follow the parse events: the first levels' keys here, each card's events to its builder (the fields of a
    card not in `fields` are skipped unbuilt)."""
    depth = 0  # containers open after the event
    skip = 0  # while skipping a field's container: the depth it opened at (its end is the first event under it)
    dropped = False  # the current field of the card is skipped
    try:
        for event, value in ijson.basic_parse(reader, buf_size=BUF_SIZE):
            if event in _OPEN:
                depth += 1
                at = depth - 1  # the depth of the container holding the value
            elif event in _CLOSE:
                depth -= 1
                at = depth
            else:
                at = depth
            if skip:
                if depth < skip:
                    skip = 0
                elif event in _OPEN and depth - state.cards_depth > MAX_DEPTH and state.values >= 0:
                    state.refuse("deep", f"nested deeper than {MAX_DEPTH} levels")  # bounded even unbuilt
                continue
            cards = state.cards_depth
            if cards and at > cards:
                if fields is not None and at == cards + 1:
                    if event == "map_key":
                        dropped = value not in fields
                        if dropped:
                            continue
                    elif dropped:
                        skip = depth if event in _OPEN else 0
                        continue
                state.inside(event, value, depth - cards)
            elif cards and at == cards:
                if state.item(event, value):
                    yield from state.take()
            elif cards and at == cards - 1:  # the cards array ends
                state.cards_depth = 0
            else:
                state.outside(event, value, at)
    except Exception as exc:  # any parser failure becomes a problem line
        state.problems.append(
            f"{_describe_error(exc, reader)}{state.where()}; {state.total} card(s) read before it kept"
        )
        return
    state.finish()


class _State:
    """Where the router is: the keys of the first levels, the current card and the counts so far."""

    def __init__(self, problems: list[str], dates: dict[str, str], names: dict[str, str]) -> None:
        self.problems = problems
        self.dates = dates
        self.names = names
        self.keys: list[str] = ["", "", ""]
        """The current key of the top-level object, of ``data`` and of a set of AllPrintings."""
        self.code = ""
        self.cards_depth = 0
        """Depth of the cards array being read (3 in a set file, 4 in AllPrintings), 0 outside one."""
        self.sink = _Sink()
        self.coro: Any = None
        self.values = 0
        """Values of the current card so far (-1: the card is refused, its events are skipped)."""
        self.index = 0
        self.total = 0
        self.top_kind = ""
        self.saw_cards = False
        self.seen: dict[str, int] = {}
        """Problem kind -> times met in this file."""

    def outside(self, event: str, value: Any, at: int) -> None:
        """Follow the first levels (`at`: depth of the container): keys, set dates, the start of a cards array."""
        if not self.top_kind:
            self.top_kind = event
        if event == "map_key":
            if at <= 3:
                self.keys[at - 1] = value
            return
        if event in _CLOSE:
            return
        if event == "start_map" and at < 3:
            self.keys[at] = ""
        keys = self.keys
        if at < 2 or at > 3 or keys[0] != "data":
            return
        key = keys[at - 1]
        if event == "string" and key in ("releaseDate", "name") and len(value) > MAX_SET_FIELD:
            where = "the set file" if at == 2 else f"set {keys[1][:20]}"
            self.problems.append(f"{where}: a '{key}' of {len(value):,} characters (at most {MAX_SET_FIELD}); left out")
        elif event == "string" and key == "releaseDate":
            self.dates["" if at == 2 else keys[1]] = value
        elif event == "string" and key == "name":
            self.names["" if at == 2 else keys[1]] = value
        elif key == "cards" and (at == 2 or keys[1] != "cards"):
            self._cards_value(event, at + 1, "" if at == 2 else keys[1])

    def _cards_value(self, event: str, depth: int, code: str) -> None:
        """Start reading a cards array (`depth`: its own); report a ``cards`` value of any other kind."""
        self.saw_cards = True
        if len(code) > MAX_CODE:
            why = f"a set code of {len(code):,} characters (at most {MAX_CODE})"
            self.problems.append(f"{why}; its cards are read as of no set")
            code = ""
        self.code = code
        self.index = 0
        if event == "start_array":
            self.cards_depth = depth
            self.coro = _BACKEND.items_basecoro(self.sink, "c")
            return
        kind = "an object" if event == "start_map" else _KINDS.get(event, event)
        self.problems.append(f"{self._label()}: 'cards' is {kind}, expected an array; skipped")

    def item(self, event: str, value: Any) -> bool:
        """A value directly in the cards array: a card begins or ends, or a value of another kind is reported.
        Return whether a card was built."""
        if event == "end_map" or event == "end_array":
            building, self.values = self.values > 0, 0
            if building:
                self.coro.send(("c", event, value))
            return building and bool(self.sink)
        self.index += 1
        if event == "start_map":
            self.values = 1
            self.coro.send(("c", event, value))
        else:
            self.values = -1 if event == "start_array" else 0
            self.report("kind", f"expected an object, got {_KINDS.get(event, event)}")
        return False

    def inside(self, event: str, value: Any, depth: int) -> None:
        """An event within a card (`depth`: of the card's containers open after it, the card being 1): check the
        bounds, pass it to the builder."""
        if self.values < 0:
            return
        self.values += 1
        if event in _OPEN and depth > MAX_DEPTH:
            self.refuse("deep", f"nested deeper than {MAX_DEPTH} levels")
        elif event == "string" and len(value) > MAX_STRING:
            self.refuse("long", f"a string of {len(value):,} characters (at most {MAX_STRING:,})")
        elif self.values > MAX_VALUES:
            self.refuse("large", f"more than {MAX_VALUES:,} values")
        else:
            if event == "number" and type(value) is decimal.Decimal:
                value = _number(value)
            self.coro.send(("c", event, value))

    def refuse(self, kind: str, why: str) -> None:
        """Refuse the current card: report it, drop what was built of it, skip the rest of its events."""
        self.values = -1
        self.report(kind, why)
        self.coro = _BACKEND.items_basecoro(self.sink, "c")

    def take(self) -> Iterator[tuple[str, Card]]:
        """Check the card the builder made and yield it when usable."""
        cards = list(self.sink)
        self.sink.clear()
        for card in cards:
            if not isinstance(card.get("name"), str) or not card["name"]:
                self.report("name", "no 'name' string")
                continue
            self.total += 1
            code = self.code or card.get("setCode")
            yield (code if isinstance(code, str) and len(code) <= MAX_CODE else ""), card

    def report(self, kind: str, problem: str) -> None:
        """Note a problem of the current card (listed the first `MAX_REPORTED` times of its kind)."""
        count = self.seen[kind] = self.seen.get(kind, 0) + 1
        if count <= MAX_REPORTED:
            self.problems.append(f"{self._label()} card {self.index}: {problem}; skipped")

    def counted(self) -> None:
        """Add one line for each kind of problem met more often than listed."""
        for kind, count in self.seen.items():
            if count > MAX_REPORTED:
                what = _PROBLEM_KINDS[kind]
                self.problems.append(f"… and {count - MAX_REPORTED:,} more of the same ({what})")
        self.seen.clear()

    def where(self) -> str:
        """Say where the parser was, for an error message."""
        done = self.index - (self.values != 0)  # a card being read when the error came is not done
        return f" (in {self._label()}, after card {done})" if self.coro is not None else ""

    def finish(self) -> None:
        """Report a file that held no cards array at all."""
        if self.top_kind and self.top_kind != "start_map":
            kind = _KINDS.get(self.top_kind, self.top_kind)
            self.problems.append(f"the top level is {kind}, expected an object with 'data'")
        elif not self.saw_cards:
            self.problems.append("no 'data' object with 'cards' (not an MTGJSON v5 set or AllPrintings)")

    def _label(self) -> str:
        return f"set {self.code}" if self.code else "set file"


_KINDS = {"start_array": "an array", "string": "a string", "number": "a number", "boolean": "a boolean", "null": "null"}
"""JSON kinds by the parse event that starts them."""
_PROBLEM_KINDS = {
    "kind": "a card that is not an object",
    "name": "a card without a name",
    "deep": "a card nested too deeply",
    "long": "a card with too long a string",
    "large": "a card with too many values",
}
"""What each kind of problem is, for the line counting those not listed."""


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
        with open_regular(path) as f:
            return looks_like_mtgjson5(f.read(4096))
    except OSError:
        return False


def file_sha256(path: Path) -> str | None:
    """The SHA-256 of a file read in chunks, or None when it cannot be read."""
    try:
        return file_digest(path)
    except OSError:
        return None
