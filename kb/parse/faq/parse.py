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

Paragraph splitting is in `faq_blocks.py`, card blocks and type lines in `cardtext.py`, the header in
`faq_header.py`. A file that ends inside a card block or a sentence is reported as truncated.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from kb.model import Card, Diagnostic, Document, Face, FaqInfo, FaqNote, QuotedRule, Ruling, SourceRef, SourceText
from kb.parse.cardtext import BULLET, card_shape, parse_face_lines, split_faces
from kb.parse.faq.blocks import SEPARATOR, Para, Positions, TextBuilder, paragraphs
from kb.parse.faq.header import parse_header
from kb.sources import fold, slug, unique

QUOTED_RULE = re.compile(r"^(\d{3}\.\d+[a-z]?)\.?(?:\s+(.*))?$")
# Matched on folded text: « Dernière modification par » has an accent.
FORUM_LINE = re.compile(r"^\s*(?:edit(?:ed)?\s*:|\[.*\]\s*$)|derniere modification par|last edited by")
GENERAL_HEADING = re.compile(r"^(?:notes generales|general notes)$")
CARDS_HEADING = re.compile(r"^(?:notes (?:sur (?:des|les) cartes specifiques|on specific cards)|card-specific notes)$")
SENTENCE_END = re.compile(r"[.!?…)»\"”\]][\s'’\"”»)\]]*$")
"""A line that ends a sentence (`… tour.`, `… (reminder.)`, `… suivant : »`); a cut line usually does not."""
HEAD_CHARS = 240
"""How much of each first line `looks_like_faq` reads: titles and headings are short, and a rules file may be
one giant line that folding whole would copy several times."""


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
    positions: dict[tuple[str, int], Positions] = field(default_factory=dict)
    """(ruling or note id, part) -> where each source line starts in that text: part 0 is a ruling's text or a
    note's text, part i + 1 is a note's bullet i. See `line_at`. A ruling on a single line has none."""


@dataclass(slots=True)
class _CardDraft:
    """A card being assembled from its printings."""

    id: str
    faces: tuple[Face, ...]
    source: SourceRef
    rulings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _RulingDraft:
    """A ruling being assembled: its bullet and continuation paragraphs."""

    line: int
    card: str
    text: TextBuilder
    id: str
    """`<document>#L<line>`: one string for the ruling and its card's list of rulings."""


@dataclass(slots=True)
class _NoteDraft:
    """A general note being assembled."""

    id: str
    title: str
    line: int
    text: TextBuilder = field(default_factory=TextBuilder)
    cards: list[str] = field(default_factory=list)
    quoted: list[QuotedRule] = field(default_factory=list)
    bullets: list[TextBuilder] = field(default_factory=list)
    order: list[tuple[str, int]] = field(default_factory=list)
    printed: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    paragraphs: int = 0


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
    card_ids: set[str] = field(default_factory=set)
    """The ids of `cards`, kept as they are taken (not rebuilt per card)."""
    notes: list[_NoteDraft] = field(default_factory=list)
    rulings: list[_RulingDraft] = field(default_factory=list)
    diags: list[Diagnostic] = field(default_factory=list)
    unplaced: list[str] = field(default_factory=list)
    trailer: list[str] = field(default_factory=list)
    card: _CardDraft | None = None
    open_text: TextBuilder | None = None
    last: Para | None = None
    """The last paragraph of the card notes (for the truncation check)."""
    last_was_card: bool = False
    """Whether that paragraph is a card block."""
    card_part_cards: int = 0
    """Card blocks read in the card notes."""

    def diag(self, severity: str, line: int, message: str) -> None:
        """Record a diagnostic on this file."""
        self.diags.append(Diagnostic(severity, self.source.path, line, message))  # type: ignore[arg-type]

    def lose(self, para: Para, message: str, severity: str = "warning") -> None:
        """Keep text that has no place in `unplaced` and report it."""
        self.unplaced.append(f"{self.source.path}:{para.line}: " + "\n".join(para.lines))
        self.diag(severity, para.line, message)


def looks_like_faq(lines: Sequence[str]) -> bool:
    """Tell whether the lines look like a set FAQ (title, part headings or `-----` card blocks)."""
    head = [fold(line[:HEAD_CHARS].strip()) for line in lines[:400]]
    if any("foire aux questions" in h or "frequently asked questions" in h for h in head[:10]):
        return True
    if any(GENERAL_HEADING.match(h) or CARDS_HEADING.match(h) for h in head):
        return True
    separators = sum(1 for h in head if SEPARATOR.match(h))
    return separators >= 2 and any(BULLET.match(h) for h in head)


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


def _add_card(st: _State, para: Para) -> _CardDraft | None:
    """Parse a card block, merge it with earlier printings and return its draft (None when unusable)."""
    groups = split_faces(para.lines)
    faces: list[Face] = []
    for offset, group in enumerate(groups):
        line = para.line + sum(len(g) + 1 for g in groups[:offset])
        face, problem = parse_face_lines(group, st.source.lang)
        if face is None:
            st.lose(para, f"card block at line {line} {problem}")
            return None
        faces.append(face)
    name = " // ".join(face.names[st.source.lang] for face in faces)
    key = fold(name)
    if key in st.cards:
        draft = st.cards[key]
        if draft.faces != tuple(faces):
            st.diag("warning", para.line, f"card {name!r} printed differently at {draft.source}; kept the first")
        return draft
    card_id = unique(slug(name, "") or f"card-l{para.line}", st.card_ids)
    draft = _CardDraft(card_id, tuple(faces), SourceRef(st.source.path, para.line))
    st.cards[key] = draft
    return draft


def _new_note(st: _State, para: Para) -> Para:
    """Open a general note at the first paragraph of a block; return what follows its title."""
    st.open_text = None
    title, line = para.lines[0], para.line
    if BULLET.match(title) or _is_card_block(para, st.source.lang):
        st.diag("warning", line, "general note without a title line; add its title above this line")
        title = f"Note {line}"
    else:
        para = Para(line + 1, para.lines[1:], False, para.last_block)
    note_id = f"{st.doc_id}#{slug(title, '') or line}"
    if any(n.id == note_id for n in st.notes):
        note_id += f"-l{line}"
    st.notes.append(_NoteDraft(note_id, title, line))
    return para


def _general(st: _State, para: Para) -> None:
    """Handle a paragraph of the general notes."""
    if para.first:
        para = _new_note(st, para)
        if not para.lines:
            return
    note = st.notes[-1]
    if BULLET.match(para.lines[0]):
        st.open_text = TextBuilder()
        st.open_text.add(para, bullet=True)
        note.order.append(("bullet", len(note.bullets)))
        note.bullets.append(st.open_text)
    elif match := QUOTED_RULE.match(para.lines[0]):
        rest = " ".join([match.group(2) or "", *para.lines[1:]]).strip()
        note.order.append(("quoted", len(note.quoted)))
        note.quoted.append(QuotedRule(match.group(1), st.as_of, rest))
        st.open_text = None
    elif _is_card_block(para, st.source.lang):
        draft = _add_card(st, para)
        if draft:
            note.cards.append(draft.id)
            draft.notes.append(note.id)
            note.order.append(("card", len(note.printed)))
            note.printed.append((draft.id, tuple(para.lines)))
        st.open_text = None
    elif st.open_text is not None:
        st.open_text.add(para)
    else:
        note.order.append(("text", note.paragraphs))
        note.paragraphs += 1
        note.text.add(para)


def _card_notes(st: _State, para: Para) -> None:
    """Handle a paragraph of the card-specific notes."""
    if para.first:
        st.card, st.open_text = None, None
    if para.last_block and not BULLET.match(para.lines[0]) and FORUM_LINE.search(fold(para.lines[0])):
        st.mode = "trailer"
        st.trailer.extend(para.lines)
        return
    st.last, st.last_was_card = para, False
    if BULLET.match(para.lines[0]):
        if st.card is None:
            st.lose(para, f"ruling at line {para.line} comes before any card; put it under a card block")
            return
        ruling = _RulingDraft(para.line, st.card.id, TextBuilder(), f"{st.doc_id}#L{para.line}")
        ruling.text.add(para, bullet=True)
        st.rulings.append(ruling)
        st.card.rulings.append(ruling.id)
        st.open_text = ruling.text
    elif para.first or _is_card_block(para, st.source.lang):
        st.card, st.open_text = _add_card(st, para), None
        st.card_part_cards += st.card is not None
        st.last_was_card = True
    elif st.open_text is not None:
        st.open_text.add(para)
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
    return tuple(
        Ruling(
            id=r.id,
            card=r.card,
            lang=st.source.lang,
            text=r.text.text,
            section=st.cards_heading,
            source_document=st.doc_id,
            rule_refs=(),
            card_refs=(),
            mentions=(),
            source=SourceRef(st.source.path, r.line),
        )
        for r in st.rulings
    )


def _build_notes(st: _State) -> tuple[FaqNote, ...]:
    """Freeze the note drafts."""
    return tuple(
        FaqNote(
            id=n.id,
            lang=st.source.lang,
            title=n.title,
            text=n.text.text,
            cards=tuple(dict.fromkeys(n.cards)),
            quoted_rules=tuple(n.quoted),
            bullets=tuple(b.text for b in n.bullets),
            source=SourceRef(st.source.path, n.line),
            document=st.doc_id,
            order=tuple(n.order),
            printed=tuple(n.printed),
        )
        for n in st.notes
    )


def _positions(st: _State) -> dict[tuple[str, int], Positions]:
    """Collect where the lines of each ruling, note text and note bullet start (none for a ruling on one line:
    its text starts its source line, the line `line_at` falls back to)."""
    found = {(r.id, 0): r.text.pairs() for r in st.rulings if r.text.marks != [0, r.line]}
    for n in st.notes:
        found[(n.id, 0)] = n.text.pairs()
        found.update({(n.id, i + 1): b.pairs() for i, b in enumerate(n.bullets)})
    return found


def _check_shape(st: _State) -> None:
    """Report a FAQ that lacks its parts or ends inside a card block or a sentence (truncated)."""
    end = max((i for i, text in enumerate(st.source.lines, 1) if text.strip()), default=0)
    truncated = f"the FAQ seems truncated at line {end}: "
    if st.mode != "header" and not any(SEPARATOR.match(line) for line in st.source.lines):
        st.diag(
            "warning",
            0,
            "no '-----' line separates its blocks: general notes run together into one, and card blocks may too; "
            "restore the separators",
        )
    if st.mode == "header":
        st.diag(
            "warning",
            0,
            "no 'NOTES GÉNÉRALES' / 'GENERAL NOTES' or card-notes heading found; "
            "is the FAQ truncated? Everything was kept as its introduction",
        )
    elif st.mode == "general":
        st.diag(
            "warning",
            end,
            truncated + "it has general notes but no card notes ('NOTES SUR DES CARTES "
            "SPÉCIFIQUES' / 'NOTES ON SPECIFIC CARDS'); restore the end of the file",
        )
    elif st.mode == "cards" and not st.card_part_cards:
        st.diag("warning", end, truncated + "no card block after its card-notes heading; restore the end of the file")
    elif st.mode == "cards" and st.last is not None:
        last = st.last.lines[-1]
        if SEPARATOR.match(st.source.lines[end - 1]):
            st.diag(
                "warning",
                end,
                truncated + "it ends with a '-----' separator and no card block after it; restore the end of the file",
            )
        elif st.last_was_card:
            st.diag(
                "warning",
                end,
                truncated + f"its last card block ({st.last.lines[0]!r}, line {st.last.line}) "
                "has no ruling; restore the end of the file",
            )
        elif not SENTENCE_END.search(last):
            st.diag(
                "warning",
                end,
                truncated + f"its last line does not end a sentence ({last[-40:]!r}); restore the end of the file",
            )


def parse_faq(source: SourceText, doc_id: str) -> FaqResult:
    """Parse a set FAQ into its document, header, cards, rulings, notes and diagnostics."""
    st = _State(source, doc_id)
    paras = paragraphs(source.lines)
    header_paras = []
    for para in paras:
        if _heading(para.lines[0]):
            paras = itertools.chain([para], paras)  # the heading, then the rest
            break
        header_paras.append(para)
    header = parse_header(header_paras, source, doc_id)
    st.as_of = header.info.last_modified
    st.diags.extend(header.diagnostics)
    for para in itertools.chain(header_paras, paras):
        _dispatch(st, para)
    _check_shape(st)
    cards = tuple(
        Card(d.id, _card_names(d.faces), d.faces, tuple(d.rulings), tuple(dict.fromkeys(d.notes)), d.source)
        for d in st.cards.values()
    )
    info = _with_leftovers(header.info, st)
    document = Document(
        id=doc_id,
        lang=source.lang,
        kind="faq",
        title=info.title,
        effective_date=info.last_modified,
        source=source.path,
        introduction=info.intro,
        layout="faq",
        encoding=source.encoding,
    )
    return FaqResult(document, info, cards, _build_rulings(st), _build_notes(st), tuple(st.diags), _positions(st))


def _card_names(faces: tuple[Face, ...]) -> dict[str, str]:
    """Join the faces' names per language with ` // `."""
    langs = dict.fromkeys(lang for face in faces for lang in face.names)
    return {lang: " // ".join(face.names.get(lang, "?") for face in faces) for lang in langs}


def _with_leftovers(info: FaqInfo, st: _State) -> FaqInfo:
    """Return the header info with the trailer and the unplaced text."""
    return FaqInfo(
        document=info.document,
        lang=info.lang,
        title=info.title,
        set_names=info.set_names,
        authors=info.authors,
        last_modified=info.last_modified,
        dates=info.dates,
        set_size=info.set_size,
        intro=info.intro,
        trailer=tuple(st.trailer),
        source=info.source,
        unplaced=tuple(st.unplaced),
    )
