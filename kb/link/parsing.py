"""Read and parse every content file of a folder (in two processes when it pays), and mine the lexicon.

The files are parsed in file order or, with two cores and enough to parse, a forked process parses about half of
them (the card data first) and sends back what they gave, then mines the French–English lexicon from the cards'
printed French while this process links the rules. What each file gave is taken in file order, so the knowledge
base is the same either way.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from kb.link.lexicon import Lexicon, mine_lexicon
from kb.link.lexicons import is_lexicon_file, read_lexicon
from kb.model import Diagnostic, SourceText
from kb.parse.cards.mtgjson import CardDataResult, looks_like_mtgjson, parse_mtgjson
from kb.parse.cards.mtgjson5 import parse_mtgjson5
from kb.parse.cards.stream import file_sha256, is_mtgjson5
from kb.parse.cr.rules import RulesResult, looks_like_rules, parse_rules
from kb.parse.faq.parse import FaqResult, looks_like_faq, parse_faq
from kb.sources import Lines, display_path, find_sources, hash_entry, read_source, shown_name

UNKNOWN_KIND = (
    "cannot tell what this file is (comprehensive rules, set FAQ or card data); "
    "move it out of the content folder or fix its text"
)


@dataclass(slots=True)
class Parsed:
    """Parse results gathered before linking."""

    rules: list[RulesResult] = field(default_factory=list)
    faqs: list[FaqResult] = field(default_factory=list)
    card_data: list[CardDataResult] = field(default_factory=list)
    diags: list[Diagnostic] = field(default_factory=list)
    lexicon_cards: list[dict] = field(default_factory=list)
    """Slim MTGJSON v5 entries, for mining the French–English lexicon."""
    lexicons: list = field(default_factory=list)
    """Lexicon documents read from the content folder."""


def parse_source(source: SourceText, doc_id: str, parsed: Parsed) -> None:
    """Detect the kind of one decoded file and parse it."""
    if source.path.lower().endswith(".json"):
        text = "\n".join(source.lines)
        if looks_like_mtgjson(text):
            parsed.card_data.append(parse_mtgjson(_settled(source), doc_id))
            parsed.diags += parsed.card_data[-1].diagnostics
            return
    elif looks_like_faq(source.lines):
        parsed.faqs.append(parse_faq(source, doc_id))
        parsed.diags += parsed.faqs[-1].diagnostics
        return
    elif looks_like_rules(source.lines):
        parsed.rules.append(parse_rules(_settled(source), doc_id))
        parsed.diags += parsed.rules[-1].diagnostics
        return
    parsed.diags.append(Diagnostic("error", source.path, 0, UNKNOWN_KIND))


@dataclass(frozen=True, slots=True)
class ContentFile:
    """A content file to parse."""

    lang: str
    path: Path
    shown: str
    """Its path as diagnostics show it."""
    doc_id: str | None
    """Its document id (None: a lexicon file, which is no document)."""
    notes: tuple[Diagnostic, ...]
    """What giving it its document id had to say."""
    card_data: bool = False
    """MTGJSON v5 card data (streamed from the file; its cards' printed French make the lexicon)."""


def _settled(source: SourceText) -> SourceText:
    """The source with its lines as strings, for a parser that keeps them all (see `kb.sources.Lines`)."""
    return replace(source, lines=source.lines.settle()) if isinstance(source.lines, Lines) else source


def content_files(content: Path) -> list[ContentFile]:
    """The content files in order, with their document ids (unique in the folder) and their kind where the first
    bytes tell it (each file's head read once)."""
    ids: dict[str, str] = {}
    found = []
    for lang, path in find_sources(content):
        shown = display_path(path, content)
        if is_lexicon_file(path):
            found.append(ContentFile(lang, path, shown, None, ()))
            continue
        notes: list[Diagnostic] = []
        doc_id = _doc_id(lang, path, shown, ids, notes)
        found.append(ContentFile(lang, path, shown, doc_id, tuple(notes), is_mtgjson5(path)))
    return found


def parse_file(file: ContentFile) -> tuple[bytes | None, Parsed]:
    """Read and parse one content file: its part of the content hash (None: unreadable) and what it gave."""
    parsed = Parsed(diags=list(file.notes))
    lang, path, shown = file.lang, file.path, file.shown
    if file.doc_id is None:
        sha256 = file_sha256(path)
        lexicon, found = read_lexicon(path, shown)
        parsed.diags += found
        if lexicon is not None:
            parsed.lexicons.append(lexicon)
        return (None if sha256 is None else hash_entry(lang, path, sha256)), parsed
    if file.card_data:  # streamed from the file: never decoded whole
        sha256 = file_sha256(path)
        if sha256 is None:
            parsed.diags.append(Diagnostic("error", shown, 0, "unreadable file; check its permissions"))
            return None, parsed
        result, slim = parse_mtgjson5(path, lang, shown, file.doc_id)
        parsed.card_data.append(result)
        parsed.diags += result.diagnostics
        parsed.lexicon_cards += slim
        return hash_entry(lang, path, sha256), parsed
    source, found = read_source(path, lang, shown)
    parsed.diags += found
    if source is None:
        return None, parsed
    parse_source(source, file.doc_id, parsed)
    return hash_entry(lang, path, source.sha256), parsed


PARALLEL_MIN = 512 * 1024
"""Bytes of content below which a second process is not worth its start."""

Piece = tuple[bytes | None, Parsed]
"""What one file gives: its part of the content hash (None: unreadable), what it parses into."""


def parse_content(content: Path) -> tuple[list[Piece], Callable[[], Lexicon | None]]:
    """Parse every content file: what each gave, in file order, and the call that gives the lexicon mined from
    the card data (None without card data; the `lexicon_cards` of the pieces are then empty)."""
    files = content_files(content)
    theirs = _split(files)
    if not theirs:
        pieces = [parse_file(f) for f in files]
        return pieces, _mine_here(pieces)
    context = multiprocessing.get_context("fork")
    ours, child_end = context.Pipe(duplex=False)
    process = context.Process(target=_parse_child, args=([files[k] for k in theirs], child_end, ours), daemon=True)
    process.start()
    child_end.close()
    found = {k: parse_file(f) for k, f in enumerate(files) if k not in theirs}
    done = _receive(ours)
    failed = not (isinstance(done, list) and len(done) == len(theirs))
    if failed:  # everything is parsed and mined here
        _end(process, ours)
        done = [parse_file(files[k]) for k in theirs]
    found.update(zip(theirs, done, strict=True))
    pieces = [found[k] for k in range(len(files))]
    if failed:
        return pieces, _mine_here(pieces)

    def lexicon() -> Lexicon | None:
        """The lexicon the process mined (or, if it failed, mined here from the card data parsed again)."""
        mined = _receive(ours)
        _end(process, ours)
        if isinstance(mined, Lexicon) or mined is None:
            return mined
        return _mine_here([parse_file(files[k]) for k in theirs if files[k].card_data])()

    return pieces, lexicon


def _receive(conn) -> object:
    """The next message of the parsing process (a message saying so when it died)."""
    try:
        return conn.recv()
    except (EOFError, OSError):
        return "the parsing process ended without a word"


def _end(process, conn) -> None:
    """Wait for the parsing process to end."""
    process.join()
    conn.close()


def _mine_here(pieces: list[Piece]) -> Callable[[], Lexicon | None]:
    """The call mining the lexicon from the card data of some pieces, in this process (emptying their cards)."""
    cards = [card for _, piece in pieces for card in piece.lexicon_cards]
    for _, piece in pieces:
        piece.lexicon_cards.clear()
    return lambda: mine_lexicon(cards) if cards else None


def _parse_child(files: list[ContentFile], conn, parents) -> None:
    """The forked process: parse its files and send back what they gave (their card data aside), then the lexicon
    mined from that card data; an error is sent as text instead, and the parent does the work itself."""
    parents.close()  # the reading end is the parent's alone: if it gives up (closes it), a send here fails at once
    try:
        pieces = [parse_file(f) for f in files]
        mine = _mine_here(pieces)
        conn.send(pieces)
        del pieces
        conn.send(mine())
    except BaseException as err:
        with contextlib.suppress(OSError):  # the parent gave up
            conn.send(f"{type(err).__name__}: {err}")
    finally:
        conn.close()


def _split(files: list[ContentFile]) -> list[int]:
    """Which files (by position, in order) a second process should parse: every MTGJSON v5 file (it mines the
    lexicon from them), then the others by size, for about half the work; none when there is a single core, no
    `fork`, a single file or little to parse."""
    if len(files) < 2 or (os.cpu_count() or 1) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return []
    cost, cards = {}, []
    for k, f in enumerate(files):
        try:
            size = f.path.stat().st_size
        except OSError:
            size = 0
        if f.card_data:
            cards.append(k)
            size = size // 4 * 3  # streamed fast, but mined after
        elif f.path.suffix.lower() != ".txt":
            size //= 4
        cost[k] = size
    if sum(cost.values()) < PARALLEL_MIN:
        return []
    loads, theirs = [sum(cost[k] for k in cards), 0], list(cards)
    for k in sorted((k for k in cost if k not in cards), key=lambda k: -cost[k]):
        side = 1 if loads[1] <= loads[0] else 0
        loads[side] += cost[k]
        if not side:
            theirs.append(k)
    return sorted(theirs)


def _doc_id(lang: str, path: Path, shown: str, ids: dict[str, str], notes: list[Diagnostic]) -> str:
    """A document id unique in the content folder: `<lang>/<stem>`, else `<lang>/<name>`."""
    doc_id = f"{lang}/{shown_name(path.stem)}"  # undecodable bytes of the name as \xff
    if doc_id in ids:  # en/x.txt and en/x.json: keep ids unique
        other = f"{lang}/{shown_name(path.name)}"
        message = f"{ids[doc_id]} has the same name; this file's document id is {other}"
        notes.append(Diagnostic("note", shown, 0, message))
        doc_id = other
    ids[doc_id] = shown
    return doc_id
