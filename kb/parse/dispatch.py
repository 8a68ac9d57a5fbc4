"""The file-kind dispatcher: one content file in, the parse result of its kind out.

A file's kind is told from its text (comprehensive rules, set FAQ, MTGJSON card data, a vocabulary table: a
terminology, a paraphrase or a words table); MTGJSON v5 files are streamed from disk, never decoded whole. Lexicon
files are not documents and are read by `kb.link.lexicon.files`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kb.model import Diagnostic, SourceText
from kb.parse.cards.mtgjson import CardDataResult, looks_like_mtgjson, parse_mtgjson
from kb.parse.cards.mtgjson5 import parse_mtgjson5
from kb.parse.cards.stream import file_sha256, is_mtgjson5
from kb.parse.cr.rules import RulesResult, looks_like_rules, parse_rules
from kb.parse.faq.parse import FaqResult, looks_like_faq, parse_faq
from kb.parse.terms import TermsResult, parse_table, table_kind
from kb.sources import display_path, hash_entry, read_source, shown_name

UNKNOWN_KIND = (
    "cannot tell what this file is (comprehensive rules, set FAQ or card data); "
    "move it out of the content folder or fix its text"
)
UNKNOWN_TABLE = (
    "a .tsv file must be a vocabulary table: its first line '# kb-terminology/1' (a terminology), "
    "'# kb-paraphrases/1' (a paraphrase table), '# kb-words/1' (a words table) or '# kb-printed/1' (printed words); "
    "add it, or move the file out of the content folder"
)


@dataclass(slots=True)
class Parsed:
    """Parse results gathered before linking."""

    rules: list[RulesResult] = field(default_factory=list)
    faqs: list[FaqResult] = field(default_factory=list)
    card_data: list[CardDataResult] = field(default_factory=list)
    tables: list[TermsResult] = field(default_factory=list)
    """Vocabulary tables: terminologies, paraphrase and words tables."""
    diags: list[Diagnostic] = field(default_factory=list)
    lexicon_cards: list[dict] = field(default_factory=list)
    """Slim MTGJSON v5 entries, for mining the French–English lexicon."""


@dataclass(frozen=True, slots=True)
class ContentFile:
    """A content file to parse."""

    lang: str
    path: Path
    shown: str
    """Its path as diagnostics show it."""
    doc_id: str
    """Its document id, unique in the content folder."""
    notes: tuple[Diagnostic, ...]
    """What giving it its document id had to say."""


def content_file(lang: str, path: Path, content: Path, ids: dict[str, str]) -> ContentFile:
    """A content file with its document id: `<lang>/<stem>`, else `<lang>/<name>` (`ids`: the ids given so far)."""
    shown = display_path(path, content)
    notes = []
    doc_id = f"{lang}/{shown_name(path.stem)}"  # undecodable bytes of the name as \xff
    if doc_id in ids:  # en/x.txt and en/x.json: keep ids unique
        other = f"{lang}/{shown_name(path.name)}"
        why = f"{ids[doc_id]} has the same name; this file's document id is {other}"
        notes.append(Diagnostic("note", shown, 0, why))
        doc_id = other
    ids[doc_id] = shown
    return ContentFile(lang, path, shown, doc_id, tuple(notes))


def parse_file(file: ContentFile, parsed: Parsed) -> bytes | None:
    """Read and parse one content file into `parsed`; return its part of the content hash (None: unreadable)."""
    parsed.diags += file.notes
    if is_mtgjson5(file.path):  # streamed from the file: never decoded whole
        sha256 = file_sha256(file.path)
        if sha256 is None:
            parsed.diags.append(Diagnostic("error", file.shown, 0, "unreadable file; check its permissions"))
            return None
        result, slim = parse_mtgjson5(file.path, file.lang, file.shown, file.doc_id)
        parsed.card_data.append(result)
        parsed.diags += result.diagnostics
        parsed.lexicon_cards += slim
        return hash_entry(file.lang, file.path, sha256)
    table = file.path.suffix.lower() == ".tsv"  # two languages side by side: no language of its own to check
    source, found = read_source(file.path, file.lang, file.shown, check_language=not table)
    parsed.diags += found
    if source is None:
        return None
    parse_source(source, file.doc_id, parsed)
    return hash_entry(file.lang, file.path, source.sha256)


def parse_source(source: SourceText, doc_id: str, parsed: Parsed) -> None:
    """Detect the kind of one decoded file and parse it into `parsed`."""
    if source.path.lower().endswith(".tsv"):
        if table_kind(source.lines) is None:
            parsed.diags.append(Diagnostic("error", source.path, 1, UNKNOWN_TABLE))
            return
        parsed.tables.append(parse_table(source))
        parsed.diags += parsed.tables[-1].diagnostics
        return
    if source.path.lower().endswith(".json"):
        if looks_like_mtgjson("\n".join(source.lines)):
            parsed.card_data.append(parse_mtgjson(source, doc_id))
            parsed.diags += parsed.card_data[-1].diagnostics
            return
    elif looks_like_faq(source.lines):
        parsed.faqs.append(parse_faq(source, doc_id))
        parsed.diags += parsed.faqs[-1].diagnostics
        return
    elif looks_like_rules(source.lines):
        parsed.rules.append(parse_rules(source, doc_id))
        parsed.diags += parsed.rules[-1].diagnostics
        return
    parsed.diags.append(Diagnostic("error", source.path, 0, UNKNOWN_KIND))
