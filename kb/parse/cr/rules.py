"""Build comprehensive-rules records from classified lines, in any of the three real layouts.

Layouts: `official` (one rule per line, blank lines between, a table of contents, glossary and
credits), `blank-line` (number, blank line, paragraph) and `hard-wrapped` (PDF text: a number opens
a line, with or without a dot and text; following lines are joined).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kb.model import Diagnostic, Document, GlossaryEntry, Rule, SourceRef, SourceText
from kb.model.numbers import parent_of, sort_key
from kb.parse.cr.lines import Line, classify_all, text
from kb.parse.dates import iso_date
from kb.parse.refs import reference_targets
from kb.sources import clean, fold

RULE_KINDS = {"section", "rule", "numbered", "subrule"}
_EFFECTIVE = re.compile(r"(effective as of|en vigueur|entrent en vigueur|applicables? (?:à partir )?du)", re.I)
_CITES_NEXT = re.compile(
    r"(?:\b(?:r[èe]gles?|rules?|sections?|cf\.?|voir|see|et|and|ou|or|through|to)|[,(–-])\s*$", re.IGNORECASE
)
"""A line ending like this continues with a rule number: that number is a reference, not a rule."""
_OBSOLETE = re.compile(r"\s*\((?:obsolete|obsolète)\)\s*$", re.I)


@dataclass(frozen=True, slots=True)
class RulesResult:
    """What parsing one CR file gives."""

    document: Document
    rules: tuple[Rule, ...]
    glossary: tuple[GlossaryEntry, ...]
    diagnostics: tuple[Diagnostic, ...]


@dataclass(slots=True)
class _Draft:
    """A rule being built (mutable inside the parser only)."""

    number: str
    kind: str
    title: str
    paragraphs: list[str]
    examples: list[str]
    line: int


@dataclass(slots=True)
class _State:
    """Parser state while walking the lines."""

    path: str
    mode: str = "preamble"
    title: str = ""
    effective: str | None = None
    intro: list[str] = field(default_factory=list)
    credits: list[str] = field(default_factory=list)
    toc: set[str] = field(default_factory=set)
    drafts: dict[str, _Draft] = field(default_factory=dict)
    current: _Draft | None = None
    target: str = "text"  # where continuation lines go: text, example, title
    prev_blank: bool = True
    glossary_blocks: list[list[Line]] = field(default_factory=list)
    diags: list[Diagnostic] = field(default_factory=list)

    def warn(self, line: int, message: str, severity: str = "warning") -> None:
        self.diags.append(Diagnostic(severity, self.path, line, message))


def detect_layout(lines: list[Line]) -> str:
    """Tell official, blank-line or hard-wrapped from the shape of the rule lines."""
    if any(line.kind == "heading" and line.text == "contents" for line in lines):
        return "official"
    starts = [i for i, line in enumerate(lines) if line.kind in ("numbered", "subrule")]
    if not starts:
        return "official"
    bare = [i for i in starts if not lines[i].text]
    followed = [i for i in starts if i + 1 < len(lines) and lines[i + 1].kind == "text" and not lines[i + 1].indented]
    if len(bare) * 2 >= len(starts):
        return "hard-wrapped" if len(followed) * 2 >= len(bare) else "blank-line"
    return "hard-wrapped" if followed else "official"


def _start_rule(st: _State, line: Line, layout: str) -> None:
    """Open a new rule record at a number line, checking its shape and order."""
    number = line.number
    if line.kind == "subrule" and line.dotted:
        st.warn(line.lineno, f"subrule {number}. has a dot after its letter; subrules read '{number}' (kept)")
    if line.kind == "numbered" and not line.dotted and layout != "hard-wrapped":
        st.warn(line.lineno, f"numbered rule {number} has no dot after its number; it should read '{number}.' (kept)")
    if line.kind == "subrule" and number[-1] in "lo":
        st.warn(line.lineno, f"subrule {number}: subrule letters skip 'l' and 'o'; check the number")
    previous = st.current
    if number in st.drafts:
        first = st.drafts[number].line
        excerpt = f": «{line.text[:60]}{'…' if len(line.text) > 60 else ''}»" if line.text else ""
        st.warn(line.lineno, f"duplicate rule {number}: already at line {first}; this one is ignored{excerpt}")
        st.current, st.target = None, "text"
        return
    if previous is not None and sort_key(number) < sort_key(previous.number):
        st.warn(line.lineno, f"rule {number} is out of order: it follows {previous.number} (line {previous.line})")
    title = line.text if line.kind in ("section", "rule") else ""
    paragraphs = [] if line.kind in ("section", "rule") or not line.text else [line.text]
    st.current = _Draft(number, line.kind, title, paragraphs, [], line.lineno)
    st.drafts[number] = st.current
    st.target = "title" if line.kind in ("section", "rule") and not title else "text"


def _join(parts: list[str], piece: str, new_paragraph: bool) -> None:
    """Append a physical line to a list of paragraphs (hard wraps join with a space)."""
    if new_paragraph or not parts:
        parts.append(piece)
    elif parts[-1].endswith("-") and piece[:1].islower():
        parts[-1] += piece
    else:
        parts[-1] += " " + piece


def _continue(st: _State, line: Line) -> None:
    """Attach a text line to the rule being built."""
    draft = st.current
    if draft is None:
        st.warn(line.lineno, "text outside any rule (after a duplicate number?); it is not part of any rule")
        return
    if st.target == "title":
        draft.title = line.text
        st.target = "text"
        return
    if st.target == "example" and not st.prev_blank:
        _join(draft.examples, line.text, line.indented)
        return
    st.target = "text"
    _join(draft.paragraphs, line.text, st.prev_blank or line.indented)


def _preamble(st: _State, line: Line) -> bool:
    """Handle title, effective date and introduction lines; return False when the body starts."""
    if line.kind in RULE_KINDS:
        return False
    if line.kind == "heading":
        if line.text == "contents":
            st.mode = "contents"
        elif line.text in ("glossary", "credits"):
            st.mode = line.text
        return True
    if line.kind in ("text", "example"):
        if _EFFECTIVE.search(line.raw) and st.effective is None:
            st.effective = iso_date(line.raw)
            if st.effective is None:
                st.warn(line.lineno, "effective-date line whose date could not be read", "note")
        elif not st.title and not st.intro and st.effective is None:
            st.title = line.text if line.kind == "text" else line.raw.strip()
        else:
            _join(st.intro, line.raw.strip(), st.prev_blank)
    return True


def _contents(st: _State, line: Line) -> bool:
    """Skip the table of contents; return False when the body starts on this line."""
    if line.kind == "heading" and line.text == "credits":
        st.mode = "body"
        return True
    if line.kind in ("section", "rule"):
        if line.number in st.toc:
            return False
        st.toc.add(line.number)
        return True
    return line.kind not in ("numbered", "subrule")


def wrapped_reference(line: Line, previous: Line | None, layout: str) -> bool:
    """Tell a hard-wrapped reference (`… Cf. règle` / `704.5a pour …`) from a rule opening a line."""
    if layout != "hard-wrapped" or line.kind not in RULE_KINDS or previous is None or previous.kind == "blank":
        return False
    return bool(_CITES_NEXT.search(previous.raw))


def _walk(st: _State, lines: list[Line], layout: str) -> None:
    """Run the state machine over all lines."""
    for i, line in enumerate(lines):
        if wrapped_reference(line, lines[i - 1] if i else None, layout):
            line = text(line.raw, line.lineno)
        if (st.mode == "preamble" and _preamble(st, line)) or (st.mode == "contents" and _contents(st, line)):
            pass
        elif st.mode in ("glossary", "credits") or line.kind == "heading":
            _tail(st, line)
        else:
            st.mode = "body"
            if line.kind in RULE_KINDS:
                _start_rule(st, line, layout)
            elif line.kind == "example":
                _example(st, line)
            elif line.kind == "text":
                _continue(st, line)
        st.prev_blank = line.kind == "blank"


def _example(st: _State, line: Line) -> None:
    """Attach an `Example:` line to the rule being built."""
    if st.current is None:
        st.warn(line.lineno, "example outside any rule; it is not part of any rule")
        return
    st.current.examples.append(line.text)
    st.target = "example"


def _tail(st: _State, line: Line) -> None:
    """Handle the glossary and the credits (and headings met in the body)."""
    opens = line.kind == "heading" and line.text in ("glossary", "credits") and st.mode != "credits"
    if opens and not (st.mode == "glossary" and line.text == "glossary"):
        st.mode = line.text
        return
    if st.mode == "credits":
        if line.kind != "blank" or st.credits:
            st.credits.append(line.raw.rstrip())
    elif st.mode == "glossary":
        if line.kind == "blank":
            if st.glossary_blocks and st.glossary_blocks[-1]:
                st.glossary_blocks.append([])
        else:
            if not st.glossary_blocks:
                st.glossary_blocks.append([])
            st.glossary_blocks[-1].append(line)
    else:
        _continue(st, line)


_TERM_PART = re.compile(r"[“«\"]([^”»\"]+?)[,.]?[”»\"]|([^,“«\"]+)")


def term_parts(term: str) -> list[str]:
    """Split a glossary term line into names: `Control, Controller`; `Partner, “Partner—[text],” “Partner with…”`."""
    parts = [(m.group(1) or m.group(2)).strip(" ,") for m in _TERM_PART.finditer(term)]
    return [p for p in parts if p]


def _glossary(st: _State, doc: Document) -> list[GlossaryEntry]:
    """Turn glossary blocks into entries (term line, definition lines)."""
    blocks = [b for b in st.glossary_blocks if b]
    terms = {fold(_OBSOLETE.sub("", b[0].raw.strip())) for b in blocks}
    entries = []
    for block in blocks:
        head = block[0].raw.strip()
        obsolete = bool(_OBSOLETE.search(head))
        term = _OBSOLETE.sub("", head).strip()
        definition = "\n".join(clean(line.raw) for line in block[1:])
        if not definition:
            st.warn(block[0].lineno, f"glossary term '{term}' has no definition")
        parts = term_parts(term)
        aliases = tuple(parts) if len(parts) > 1 and not any(fold(p) in terms for p in parts) else ()
        refs = tuple(reference_targets(definition, doc.lang))
        where = SourceRef(st.path, block[0].lineno)
        entries.append(GlossaryEntry(doc.id, doc.lang, term, aliases, definition, obsolete, refs, where))
    return entries


def _finish(st: _State, doc: Document) -> list[Rule]:
    """Freeze drafts into rules with parents, children and references."""
    children: dict[str, list[str]] = {}
    for number in st.drafts:
        parent = parent_of(number)
        if parent in st.drafts:
            children.setdefault(parent, []).append(number)
    rules = []
    for number, d in st.drafts.items():
        text = "\n".join(clean(p) for p in d.paragraphs)
        examples = tuple(clean(e) for e in d.examples)
        refs = reference_targets("\n".join((text, *examples)), doc.lang)
        refs = tuple(r for r in refs if r != number)
        rules.append(
            Rule(
                doc.id,
                doc.lang,
                number,
                d.kind,
                clean(d.title),
                text,
                examples,
                parent_of(number),
                tuple(children.get(number, ())),
                refs,
                SourceRef(st.path, d.line),
            )
        )
        if not text and d.kind in ("numbered", "subrule"):
            st.warn(d.line, f"rule {number} has no text")
    return rules


def parse_rules(source: SourceText, doc_id: str) -> RulesResult:
    """Parse a comprehensive-rules file into a document, its rules, its glossary and diagnostics."""
    lines = classify_all(source.lines)
    layout = detect_layout(lines)
    st = _State(source.path)
    _walk(st, lines, layout)
    doc = Document(
        doc_id,
        source.lang,
        "rules",
        clean(st.title),
        st.effective,
        source.path,
        introduction="\n\n".join(clean(p) for p in st.intro),
        credits="\n".join(st.credits).strip(),
        layout=layout,
        encoding=source.encoding,
    )
    rules = _finish(st, doc)
    glossary = _glossary(st, doc)
    if not rules:
        st.warn(0, "no rule found: a comprehensive-rules file needs lines such as '120.1. text'", "error")
    return RulesResult(doc, tuple(rules), tuple(glossary), tuple(st.diags))


def looks_like_rules(lines: tuple[str, ...]) -> bool:
    """Tell whether a file looks like comprehensive rules (some lines open with a rule number)."""
    numbered = sum(1 for raw in lines[:5000] if re.match(r"\s*\d{3}\.\d+[a-z]?\.?(\s|$)", raw))
    return numbered >= 1
