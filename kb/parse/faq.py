"""Set FAQs (French or English, 2006 layout): header, general notes, card blocks and rulings.

Grammar, line by line:
- `-----` separates blocks; `NOTES GÉNÉRALES` / `GENERAL NOTES` and `NOTES SUR DES CARTES SPÉCIFIQUES` /
  `NOTES ON SPECIFIC CARDS` open the two parts; what comes before them is the header.
- A general note is a title line, then paragraphs: explanations, card blocks, quoted rules
  (`502.53a text`) and `* ` bullets.
- A card block is a name line, an optional cost line (`{2}{W}{U}`), a type line (`Créature : esprit`,
  `Legendary Creature -- Sphinx`), an optional `P/T` line and rules text; `//` separates split halves.
- A ruling is a line starting with `* `; the paragraphs without a bullet after it belong to it.
- `_x_` and `*x*` are inline emphasis, never bullets. Forum lines after the last card are the trailer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from kb.model import Card, Diagnostic, Document, Face, FaqInfo, FaqNote, QuotedRule, Ruling, SourceRef, SourceText
from kb.parse.faq_header import parse_header
from kb.sources import fold

SEPARATOR = re.compile(r"^\s*-{3,}\s*$")
BULLET = re.compile(r"^\*\s+(?=\S)")
SPLIT_LINE = re.compile(r"^\s*//\s*$")
QUOTED_RULE = re.compile(r"^(\d{3}\.\d+[a-z]?)\.?(?:\s+(.*))?$")
FORUM_LINE = re.compile(r"^\s*(?:edit(?:ed)?\s*:|\[.*\]\s*$)|derniere modification par|last edited by", re.IGNORECASE)
GENERAL_HEADING = re.compile(r"^(?:notes generales|general notes)$")
CARDS_HEADING = re.compile(r"^(?:notes (?:sur (?:des|les) cartes specifiques|on specific cards)|card-specific notes)$")
COST_LINE = re.compile(r"^(?:\{[^{}\s]+\})+$")
SYMBOL = re.compile(r"\{[^{}\s]+\}")
PT_LINE = re.compile(r"^([0-9*X+\-½]+)\s*/\s*([0-9*X+\-½]+)$")
REMINDER = re.compile(r"\(([^()]+)\)")
TYPE_SPLIT = re.compile(r"\s*(?:—|–|--|:|\s-\s)\s*")
CARD_TYPES = {
    "creature", "artefact", "artifact", "enchantement", "enchantment", "ephemere", "instant", "rituel", "sorcery",
    "terrain", "land", "planeswalker", "tribal", "kindred", "bataille", "battle",
}
SUPERTYPES = {"legendaire", "legendary", "base", "basic", "neigeux", "neigeuse", "snow", "world", "mondial", "ongoing"}
TYPE_FILLERS = {"de"}


@dataclass(frozen=True, slots=True)
class FaqResult:
    """Everything parsed from one FAQ file."""

    document: Document
    """The FAQ as a document (kind `faq`, layout `faq`)."""
    info: FaqInfo
    """Header metadata, intro, trailer."""
    cards: tuple[Card, ...]
    """Cards printed in the general notes and the card notes, each once."""
    rulings: tuple[Ruling, ...]
    """Card rulings in source order."""
    notes: tuple[FaqNote, ...]
    """General notes in source order."""
    diagnostics: tuple[Diagnostic, ...]
    """Problems found while parsing."""


@dataclass(frozen=True, slots=True)
class Para:
    """A run of non-blank lines (a bullet line always starts a new one)."""

    line: int
    """1-based line of its first line."""
    lines: tuple[str, ...]
    """Its lines, stripped."""
    first: bool
    """True when it opens a `-----` block."""
    last_block: bool
    """True when it is in the block after the last separator."""


@dataclass(slots=True)
class _CardDraft:
    """A card being assembled from its printings."""

    id: str
    faces: tuple[Face, ...]
    source: SourceRef
    rulings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _NoteDraft:
    """A general note being assembled."""

    id: str
    title: str
    line: int
    text: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    quoted: list[QuotedRule] = field(default_factory=list)
    bullets: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _State:
    """Mutable parse state; only `parse_faq` sees it."""

    source: SourceText
    doc_id: str
    as_of: str | None = None
    mode: str = "header"
    pending_first: bool = False
    cards_heading: str = ""
    header: list[Para] = field(default_factory=list)
    cards: dict[str, _CardDraft] = field(default_factory=dict)
    notes: list[_NoteDraft] = field(default_factory=list)
    rulings: list[dict] = field(default_factory=list)
    diags: list[Diagnostic] = field(default_factory=list)
    unplaced: list[str] = field(default_factory=list)
    trailer: list[str] = field(default_factory=list)
    card: str | None = None
    open_text: list[str] | None = None
    open_index: int = -1

    def diag(self, severity: str, line: int, message: str) -> None:
        """Record a diagnostic on this file."""
        self.diags.append(Diagnostic(severity, self.source.path, line, message))  # type: ignore[arg-type]

    def lose(self, para: Para, message: str, severity: str = "warning") -> None:
        """Keep text that has no place in `unplaced` and report it."""
        self.unplaced.append(f"{self.source.path}:{para.line}: " + "\n".join(para.lines))
        self.diag(severity, para.line, message)


def slugify(text: str) -> str:
    """Make a readable ASCII id from a name (`Résolu // Déterminé` -> `resolu-determine`)."""
    return re.sub(r"[^a-z0-9]+", "-", fold(text)).strip("-")


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
    reminders = tuple(m.group(1).strip() for m in REMINDER.finditer(text))
    face = Face({lang: lines[0]}, cost, type_line, *parts, power, toughness, text, reminders, lang)
    return face, None


def looks_like_faq(lines: Sequence[str]) -> bool:
    """Tell whether the lines look like a set FAQ (title, part headings or `-----` card blocks)."""
    head = [fold(line.strip()) for line in lines[:400]]
    if any("foire aux questions" in h or "frequently asked questions" in h for h in head[:10]):
        return True
    if any(GENERAL_HEADING.match(h) or CARDS_HEADING.match(h) for h in head):
        return True
    separators = sum(1 for h in head if SEPARATOR.match(h))
    return separators >= 2 and any(BULLET.match(h) for h in head)


def _paragraphs(lines: Sequence[str]) -> list[Para]:
    """Split lines into paragraphs at blank lines, separators and bullet lines."""
    last_sep = max((i for i, text in enumerate(lines) if SEPARATOR.match(text)), default=-1)
    paras: list[Para] = []
    run: list[str] = []
    start, first = 0, True

    def flush() -> None:
        nonlocal run, first
        if run:
            paras.append(Para(start + 1, tuple(run), first, start > last_sep))
            first = False
        run = []

    for i, raw in enumerate(lines):
        text = raw.strip()
        if SEPARATOR.match(text):
            flush()
            first = True
            continue
        if not text:
            flush()
            continue
        if run and BULLET.match(text):
            flush()
        if not run:
            start = i
        run.append(text)
    flush()
    return paras


def _heading(text: str) -> str | None:
    """Return `general` or `cards` when the line opens an FAQ part."""
    folded = fold(text).strip(" :")
    if GENERAL_HEADING.match(folded):
        return "general"
    if CARDS_HEADING.match(folded):
        return "cards"
    return None


def _is_card_block(para: Para, lang: str) -> bool:
    """Tell whether a paragraph is a printed card (possibly a broken one)."""
    return card_shape(para.lines, lang) != "text"


def _add_card(st: _State, para: Para) -> str | None:
    """Parse a card block, merge it with earlier printings and return its id (None when unusable)."""
    groups: list[list[str]] = [[]]
    for text in para.lines:
        if SPLIT_LINE.match(text):
            groups.append([])
        else:
            groups[-1].append(text)
    faces: list[Face] = []
    for offset, group in enumerate(groups):
        line = para.line + sum(len(g) + 1 for g in groups[:offset])
        face, problem = parse_face_lines(group, st.source.lang)
        if problem:
            st.lose(para, f"card block at line {line} {problem}")
            return None
        faces.append(face)
    name = " // ".join(face.names[st.source.lang] for face in faces)
    key = fold(name)
    if key in st.cards:
        draft = st.cards[key]
        if draft.faces != tuple(faces):
            st.diag("warning", para.line, f"card {name!r} printed differently at {draft.source}; kept the first")
        return draft.id
    card_id = slugify(name) or f"card-l{para.line}"
    st.cards[key] = _CardDraft(card_id, tuple(faces), SourceRef(st.source.path, para.line))
    return card_id


def _general(st: _State, para: Para) -> None:
    """Handle a paragraph of the general notes."""
    if para.first:
        st.open_text = None
        title, line = para.lines[0], para.line
        if BULLET.match(title) or _is_card_block(para, st.source.lang):
            st.diag("warning", line, "general note without a title line; add its title above this line")
            title = f"Note {line}"
        else:
            para = Para(line + 1, para.lines[1:], False, para.last_block)
        note_id = f"{st.doc_id}#{slugify(title) or line}"
        if any(n.id == note_id for n in st.notes):
            note_id += f"-l{line}"
        st.notes.append(_NoteDraft(note_id, title, line))
        if not para.lines:
            return
    note = st.notes[-1]
    if BULLET.match(para.lines[0]):
        note.bullets.append(BULLET.sub("", " ".join(para.lines)))
        st.open_text, st.open_index = note.bullets, len(note.bullets) - 1
    elif match := QUOTED_RULE.match(para.lines[0]):
        rest = " ".join([match.group(2) or "", *para.lines[1:]]).strip()
        note.quoted.append(QuotedRule(match.group(1), st.as_of, rest))
        st.open_text = None
    elif _is_card_block(para, st.source.lang):
        card_id = _add_card(st, para)
        if card_id:
            note.cards.append(card_id)
            st.cards[_key_of(st, card_id)].notes.append(note.id)
        st.open_text = None
    elif st.open_text is not None:
        st.open_text[st.open_index] += "\n" + " ".join(para.lines)
    else:
        note.text.append(" ".join(para.lines))


def _key_of(st: _State, card_id: str) -> str:
    """Return the draft key of a card id."""
    return next(key for key, draft in st.cards.items() if draft.id == card_id)


def _card_notes(st: _State, para: Para) -> None:
    """Handle a paragraph of the card-specific notes."""
    if para.first:
        st.card, st.open_text = None, None
    if para.last_block and not BULLET.match(para.lines[0]) and FORUM_LINE.search(para.lines[0]):
        st.mode = "trailer"
        st.trailer.extend(para.lines)
        return
    if BULLET.match(para.lines[0]):
        if st.card is None:
            st.lose(para, f"ruling at line {para.line} comes before any card; put it under a card block")
            return
        ruling = {"line": para.line, "card": st.card, "parts": [BULLET.sub("", " ".join(para.lines))]}
        st.rulings.append(ruling)
        st.cards[_key_of(st, st.card)].rulings.append(f"{st.doc_id}#L{para.line}")
        st.open_text, st.open_index = ruling["parts"], len(ruling["parts"]) - 1
    elif para.first or _is_card_block(para, st.source.lang):
        st.card, st.open_text = _add_card(st, para), None
    elif st.open_text is not None:
        st.open_text.append(" ".join(para.lines))
        st.open_index = len(st.open_text) - 1
    else:
        st.lose(para, f"text at line {para.line} follows a card block but is not a ruling; start it with '* '")


def _dispatch(st: _State, para: Para) -> None:
    """Route one paragraph by the part of the FAQ it is in."""
    part = _heading(para.lines[0])
    if part:
        st.mode = part
        if part == "cards":
            st.cards_heading = para.lines[0]
        st.pending_first = True
        if len(para.lines) == 1:
            return
        para = Para(para.line + 1, para.lines[1:], True, para.last_block)
    if st.pending_first and not para.first:
        para = Para(para.line, para.lines, True, para.last_block)
    st.pending_first = False
    if st.mode == "header":
        st.header.append(para)
    elif st.mode == "general":
        _general(st, para)
    elif st.mode == "cards":
        _card_notes(st, para)
    else:
        st.trailer.extend(para.lines)


def _build_rulings(st: _State) -> tuple[Ruling, ...]:
    """Freeze the ruling drafts."""
    section = st.cards_heading
    return tuple(
        Ruling(
            id=f"{st.doc_id}#L{r['line']}", card=r["card"], lang=st.source.lang, text="\n".join(r["parts"]),
            section=section, source_document=st.doc_id, rule_refs=(), card_refs=(), mentions=(),
            source=SourceRef(st.source.path, r["line"]),
        )
        for r in st.rulings
    )


def _build_notes(st: _State) -> tuple[FaqNote, ...]:
    """Freeze the note drafts."""
    return tuple(
        FaqNote(
            id=n.id, lang=st.source.lang, title=n.title, text="\n".join(n.text), cards=tuple(dict.fromkeys(n.cards)),
            quoted_rules=tuple(n.quoted), bullets=tuple(n.bullets), source=SourceRef(st.source.path, n.line),
            document=st.doc_id,
        )
        for n in st.notes
    )


def _check_shape(st: _State) -> None:
    """Report a FAQ that lacks its parts (truncated or not an FAQ)."""
    if st.mode == "header":
        st.diag("warning", 0, "no 'NOTES GÉNÉRALES' / 'GENERAL NOTES' or card-notes heading found; "
                "is the FAQ truncated? Everything was kept as its introduction")
    elif not st.cards:
        st.diag("warning", 0, "no card block found; is the FAQ truncated after its general notes?")


def parse_faq(source: SourceText, doc_id: str) -> FaqResult:
    """Parse a set FAQ into its document, header, cards, rulings, notes and diagnostics."""
    st = _State(source, doc_id)
    paras = _paragraphs(source.lines)
    header_paras = []
    for para in paras:
        if _heading(para.lines[0]):
            break
        header_paras.append(para)
    header = parse_header(header_paras, source, doc_id)
    st.as_of = header.info.last_modified
    st.diags.extend(header.diagnostics)
    for para in paras:
        _dispatch(st, para)
    _check_shape(st)
    cards = tuple(
        Card(d.id, _card_names(d.faces), d.faces, tuple(d.rulings), tuple(dict.fromkeys(d.notes)), d.source)
        for d in st.cards.values()
    )
    info = _with_leftovers(header.info, st)
    document = Document(
        id=doc_id, lang=source.lang, kind="faq", title=info.title, effective_date=info.last_modified,
        source=source.path, introduction=info.intro, layout="faq", encoding=source.encoding,
    )
    return FaqResult(document, info, cards, _build_rulings(st), _build_notes(st), tuple(st.diags))


def _card_names(faces: tuple[Face, ...]) -> dict[str, str]:
    """Join the faces' names per language with ` // `."""
    langs = dict.fromkeys(lang for face in faces for lang in face.names)
    return {lang: " // ".join(face.names.get(lang, "?") for face in faces) for lang in langs}


def _with_leftovers(info: FaqInfo, st: _State) -> FaqInfo:
    """Return the header info with the trailer and the unplaced text."""
    return FaqInfo(
        document=info.document, lang=info.lang, title=info.title, set_names=info.set_names, authors=info.authors,
        last_modified=info.last_modified, dates=info.dates, set_size=info.set_size, intro=info.intro,
        trailer=tuple(st.trailer), source=info.source, unplaced=tuple(st.unplaced),
    )
