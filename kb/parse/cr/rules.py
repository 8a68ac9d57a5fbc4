"""Build comprehensive-rules records from classified lines, in any of the three real layouts.

Layouts: `official` (one rule per line, blank lines between, a table of contents, glossary and
credits), `blank-line` (number, blank line, paragraph) and `hard-wrapped` (PDF text: a number opens
a line, with or without a dot and text; following lines are joined).

No body line is dropped: a damaged number (`702. 37a`, `901.4.All`, `306.b`) is read from its neighbours, and so
is a misprinted one that repeats an earlier rule's inside another run (`501.2` after 510.1 is 510.2, a second
`702.30d` after 702.30d is 702.30e); a number after a wrapped line that cannot be the next rule continues that
line, and any other impossible number (a duplicate) is an error whose line is kept as a paragraph of the rule
before it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from kb.model import Diagnostic, Document, GlossaryEntry, Rule, SourceRef, SourceText
from kb.model.bounds import MAX_LISTED, more
from kb.model.numbers import LETTERS, MAX_DIGITS, is_number, kind_of, parent_of, sort_key
from kb.parse.cr.lines import DAMAGES, RULE_KINDS, Line, classify_all, next_number, text
from kb.parse.cr.unmarked import contents_listing, mark_parts
from kb.parse.dates import iso_date
from kb.parse.markers import NEVER, effective_sentence, markers_for, obsolete_mark, unmarked_warning, words
from kb.parse.refs import reference_targets
from kb.sources import clean, fold


@functools.cache
def _cites(lang: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """How a line that continues with a cited number ends, in `lang`: in a hard-wrapped file, and in any layout.

    A hard-wrapped line ending in `Cf. règle`, `and` or `(` continues with a reference, not a rule; in any layout a
    line ending in `See rule` does (titles end in capitals: `Golden Rules`, so case counts there)."""
    markers = markers_for(lang)
    if markers is None:
        return re.compile(r"[,(–-]\s*$"), NEVER
    hard = re.compile(rf"(?:{words(markers.cites, lang)}|[,(–-])\s*$", re.IGNORECASE)
    return hard, re.compile(rf"{words(markers.cites_rule, lang)}\s*$")


_ENDS_PARAGRAPH = re.compile(r"[.:;!?)\]\"”»’']\s*$")
"""A line ending like this may end a paragraph; one ending otherwise is a hard-wrapped line."""
_key = functools.lru_cache(maxsize=64)(sort_key)
"""`sort_key`, remembered a while: each rule line is ordered twice, as it is read and as its rule opens."""
_PLACE = re.compile(r"[a-z]$|\.\d+$")
MAX_PLACE = 5
"""Most digits a rule number has after its dot (official editions: 3, `702.190`)."""
"""The part of a number that counts within its run: a subrule's letter, a numbered rule's number."""


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
    title: list[str]
    """The title's lines (a title may be wrapped)."""
    paragraphs: list[list[str]]
    """Each paragraph's pieces (its lines, joined as `_join` says), joined once the rule is done: a rule of a million
    wrapped lines is joined in linear time."""
    examples: list[list[str]]
    line: int
    key: tuple[int, int, int]
    """`sort_key(number)`, computed once: every rule line is compared with the current rule."""


@dataclass(slots=True)
class _State:
    """Parser state while walking the lines."""

    path: str
    lang: str = ""
    mode: str = "preamble"
    title: str = ""
    effective: str | None = None
    intro: list[list[str]] = field(default_factory=list)
    credits: list[str] = field(default_factory=list)
    toc: set[str] = field(default_factory=set)
    toc_closed: bool = False  # the contents listed Credits: what follows is short entries, then the body
    contents_ahead: bool = False  # a Contents heading comes later: the body cannot start before it
    contents_at: int = -1  # without marker words: the line where a contents listing (told by its shape) starts
    drafts: dict[str, _Draft] = field(default_factory=dict)
    current: _Draft | None = None
    target: str = "text"  # where continuation lines go: text, example, title
    prev_blank: bool = True
    glossary_blocks: list[list[Line]] = field(default_factory=list)
    diags: list[Diagnostic] = field(default_factory=list)

    counts: dict[str, int] = field(default_factory=dict)
    """Diagnostics by severity, those not listed too (`kb.model.bounds`)."""

    def warn(self, line: int, message: str, severity: str = "warning") -> None:
        self.counts[severity] = count = self.counts.get(severity, 0) + 1
        if count <= MAX_LISTED:  # the others only counted: a file of duplicates would hold one record each
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
    if line.kind == "subrule" and line.dotted and not line.damage:
        st.warn(line.lineno, f"subrule {number}. has a dot after its letter; subrules read '{number}' (kept)")
    if line.kind == "numbered" and not line.dotted and layout != "hard-wrapped":
        st.warn(line.lineno, f"numbered rule {number} has no dot after its number; it should read '{number}.' (kept)")
    if line.kind == "subrule" and number[-1] in "lo":
        st.warn(line.lineno, f"subrule {number}: subrule letters skip 'l' and 'o'; check the number")
    if (places := len(number.split(".")[-1].rstrip(LETTERS))) > MAX_PLACE:
        shown = f"{number[:12]}…" if len(number) > 16 else number
        why = f"rule {shown} has {places:,} digits after its dot (the rules use at most {MAX_PLACE})"
        st.warn(line.lineno, f"{why}; check the number")
    previous = st.current
    key = _key(number)
    if previous is not None and key < previous.key:
        st.warn(line.lineno, f"rule {number} is out of order: it follows {previous.number} (line {previous.line})")
    title = [line.text] if line.kind in ("section", "rule") and line.text else []
    paragraphs = [] if line.kind in ("section", "rule") or not line.text else [[line.text]]
    st.current = _Draft(number, line.kind, title, paragraphs, [], line.lineno, key)
    st.drafts[number] = st.current
    st.target = "title" if line.kind in ("section", "rule") and not title else "text"


_SUSPENDED = re.compile(r"(?:and|or|et|ou)\b")
"""After `subtype-` these words keep their space: `subtype- and supertype`, `power- and/or toughness`."""


def _join(parts: list[list[str]], piece: str, new_paragraph: bool) -> None:
    """Append a physical line to a list of paragraphs, each a list of pieces `"".join` makes one (hard wraps join
    with a space, `word-` / `part` without)."""
    if new_paragraph or not parts:
        parts.append([piece])
        return
    last = parts[-1][-1]
    if not (last[-2:-1].isalpha() and last[-1:] == "-" and piece[:1].islower() and not _SUSPENDED.match(piece)):
        parts[-1].append(" ")  # one string for every space: a line costs its own text alone
    parts[-1].append(piece)


def _continue(st: _State, line: Line) -> None:
    """Attach a text line to the rule being built."""
    draft = st.current
    if draft is None:
        st.warn(line.lineno, "text outside any rule (no rule number before it); it is not part of any rule", "error")
        return
    if st.target == "title" or (draft.title and not draft.paragraphs and not st.prev_blank and not line.indented):
        draft.title.append(line.text)  # a title given on the next line, or wrapped
        st.target = "text"
        return
    if st.target == "example" and not st.prev_blank:
        _join(draft.examples, line.text, line.indented)
        return
    st.target = "text"
    if (m := DAMAGED_NUMBER.match(line.text)) and _unreadable(m.group(1)):
        why = f"'{m.group(1)}' opens the line like a rule number but cannot be read as one"
        st.warn(line.lineno, f"{why}: read as text of rule {draft.number}; correct the number if it is a rule")
    _join(draft.paragraphs, line.text, st.prev_blank or line.indented)


DAMAGED_NUMBER = re.compile(r"([0-9OolI]{3,4}(?:\s?[.,]{1,2}[0-9OolI]{1,3}[a-km-np-z]?)*\.?)(?:\s+[^\W\d_]|\s*$)")
"""What opens a line like a rule number, alone or before a word, damaged or not (`12O.2. Cards`, `121,2.`). The
subrule letter is one the rules use (no `l`, no `o`): were it any letter, `1o` would read two ways, and a line of
`.1o.1o.1o…` would take time doubling with each `.1o`."""


def _unreadable(written: str) -> bool:
    """Whether a number-like start is a damaged rule number: two digits or more, with a letter for a digit, a
    comma, a doubled dot, a space before a dot, or four digits before its dot (`12O.2.`, `121,2.`, `1212.`)."""
    digits = sum(ch.isdigit() for ch in written)
    head = re.split(r"[.,\s]", written, maxsplit=1)[0]
    odd = any(ch in "OolI" for ch in written) or "," in written or ".." in written or " ." in written
    return digits >= 2 and (odd or len(head) == 4)


def _preamble(st: _State, line: Line) -> bool:
    """Handle title, effective date and introduction lines; return False when the body starts."""
    if line.kind in RULE_KINDS:
        if not st.contents_ahead:
            return False
        line = text(line.raw, line.lineno)  # a wrapped introduction: `… subrule` / `704.5k is followed by …`
    if line.kind == "heading":
        if line.text == "contents":
            st.mode = "contents"
        elif line.text in ("glossary", "credits"):
            st.mode = line.text
        return True
    if line.kind in ("text", "example"):
        if st.effective is None and effective_sentence(st.lang).search(line.raw):
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
        st.toc_closed = True
        return True
    if st.toc_closed:  # entries listed after Credits (`Questions?`, `Customer Service Information`)
        return line.kind == "blank" or (line.kind == "text" and len(line.text) <= 60)
    if line.kind in ("section", "rule"):
        if line.number in st.toc:
            return False
        st.toc.add(line.number)
        return True
    return line.kind not in ("numbered", "subrule")


def wrapped_reference(line: Line, previous: Line | None, layout: str, lang: str) -> bool:
    """Tell a hard-wrapped reference (`… Cf. règle` / `704.5a pour …`) from a rule opening a line."""
    if line.kind not in RULE_KINDS or previous is None or previous.kind == "blank":
        return False
    hard, any_layout = _cites(lang)
    return bool((hard if layout == "hard-wrapped" else any_layout).search(previous.raw))


def _fits(st: _State, number: str, upper: str | None) -> bool:
    """Whether `number` can be the next rule: new, after the current rule and before `upper`."""
    if not is_number(number) or number in st.drafts:
        return False
    key = _key(number)
    return (st.current is None or key > st.current.key) and (upper is None or key < _key(upper))


def _reading(st: _State, line: Line, upper: str | None) -> str | None:
    """Read a damaged number from its neighbours (`306.b` after 306.3a is 306.3b); None if no reading fits."""
    number = line.number
    if line.damage == "gap":
        current = st.current.number if st.current else ""
        head, letter = number.split(".")
        if kind_of(current) not in ("numbered", "subrule") or current[:3] != head or letter not in LETTERS:
            return None
        number = current.rstrip(LETTERS) + letter
    return number if _fits(st, number, upper) else None


def _wrapped(previous: Line | None, layout: str) -> bool:
    """Whether the line after `previous` may continue its sentence (a hard wrap, not a new paragraph)."""
    if previous is None or previous.kind == "blank":
        return False
    # In an official file a wrapped line is long and stops mid-sentence; a title (`702.37. Storm`) is short.
    return layout == "hard-wrapped" or (len(previous.raw.strip()) >= 50 and not _ENDS_PARAGRAPH.search(previous.raw))


def _repair(st: _State, line: Line, lines: list[Line], i: int) -> Line | None:
    """Read a damaged number from its neighbours, with a warning; None if no reading fits."""
    current = st.current.number if st.current else None
    upper = next_number(lines, i)
    if upper is not None and st.current is not None and _key(upper) <= st.current.key:
        upper = None  # the next rule is out of order itself: it bounds nothing
    number = _reading(st, line, upper)
    if number is None:
        return None
    fits = " and ".join(filter(None, (current and f"after {current}", upper and f"before {upper}")))
    fits = fits or "as the first rule"
    st.warn(line.lineno, f"rule '{line.written}' {DAMAGES[line.damage]}: read as {number}, which fits {fits}")
    return replace(line, kind=kind_of(number), number=number)


def _successor(number: str, kind: str) -> str | None:
    """The number after `number` at the level of `kind`: 609.2b -> 609.2c (subrule), 510.1 or 510.1c -> 510.2."""
    if kind_of(number) not in ("numbered", "subrule"):
        return None
    numbered = number.rstrip(LETTERS)
    if kind == "numbered":
        head, tail = numbered.split(".")
        return f"{head}.{int(tail) + 1}" if len(tail) <= MAX_DIGITS else None
    if numbered == number:
        return number + LETTERS[0]
    letter = LETTERS.find(number[-1]) + 1
    return numbered + LETTERS[letter] if 0 < letter < len(LETTERS) else None


def _misprint(st: _State, line: Line, lines: list[Line], i: int) -> Line | None:
    """Read a number that repeats an earlier rule's right after another rule (`501.2` after 510.1) as the one its
    place implies (510.2), with a warning; None when that number does not fit or is not a slip of the printed one.

    A slip keeps the part that counts within the run (the letter of `605.2c` after 609.2b, the `.2` of `501.2`
    after 510.1) and gets one or two figures of the rest wrong, or repeats the rule just before (`702.30d` twice).
    """
    current = st.current
    implied = _successor(current.number, line.kind) if current else None
    if current is None or implied is None or len(implied) != len(line.number) or implied in st.drafts:
        return None
    if i - current.line >= 400 or any(other.kind in RULE_KINDS for other in lines[current.line : i]):
        return None  # other rule lines came between: not in the run of the current rule
    if line.number != current.number and _PLACE.search(line.number).group() != _PLACE.search(implied).group():
        return None
    if sum(a != b for a, b in zip(implied, line.number, strict=True)) > 2:
        return None  # not a slip of one or two figures: a real duplicate, reported as such
    upper = next((n for n in _numbers_after(lines, i) if _key(n) > current.key), None)
    if upper is not None and _key(implied) >= _key(upper):
        return None
    fits = f"after {current.number}" + (f" and before {upper}" if upper else "")
    first = st.drafts[line.number].line
    message = f"rule {line.number} is printed again (first at line {first}): read as {implied}, which fits {fits}"
    st.warn(line.lineno, message)
    return replace(line, kind=kind_of(implied), number=implied)


def _numbers_after(lines: list[Line], i: int) -> Iterator[str]:
    """The numbers of the well-formed rule lines after index `i`, within this part of the file."""
    for line in lines[i + 1 : i + 400]:
        if line.kind == "heading":
            return
        if line.kind in RULE_KINDS and not line.damage:
            yield line.number


def _read_number(st: _State, line: Line, lines: list[Line], i: int, layout: str) -> Line:
    """Check a rule line against its neighbours: repair a damaged number, or keep an impossible one as text."""
    current = st.current.number if st.current else None
    wrapped = _wrapped(lines[i - 1] if i else None, layout)
    if line.damage:
        if (repaired := _repair(st, line, lines, i)) is not None:
            return repaired
        if current is None:
            return text(line.raw, line.lineno)  # reported as text outside any rule
    elif current is None:
        return line
    elif line.number not in st.drafts and (key := _key(line.number)) > st.current.key:
        # After a wrapped line, a number must also come before the next rule (`toughness / 3. Power and…`).
        upper = next_number(lines, i) if wrapped else None
        if upper is None or _key(upper) <= st.current.key or key < _key(upper):
            return line
    elif not wrapped and line.number not in st.drafts:
        return line  # a rule out of order: kept, with a warning from _start_rule
    written = line.written
    if wrapped:
        if line.number in st.drafts:  # a number printed twice, or a reference wrapped to the line's start
            again = f"rule {line.number} is printed again (first at line {st.drafts[line.number].line})"
            st.warn(line.lineno, f"{again}: read as a line of {current}'s text, which it may continue; check it")
        elif line.number.split(".")[0] == current.split(".")[0] and (not line.text or line.text[:1].isupper()):
            # a number of the rule's own part, alone or before a sentence: a rule whose number went wrong
            why = f"'{written}' opens a line like a rule but cannot be the rule after {current}"
            st.warn(line.lineno, f"{why}: read as a wrapped line of {current}; if it is a rule, correct its number")
        else:
            why = f"'{written}' cannot be the rule after {current}"
            st.warn(line.lineno, f"{why}: read as a wrapped line of it", "note")
        return text(line.raw, line.lineno)
    if not line.damage and (misprint := _misprint(st, line, lines, i)) is not None:
        return misprint
    if line.damage:
        why = f"rule '{written}' {DAMAGES[line.damage]} and no reading of it fits after {current}"
    else:
        why = f"duplicate rule {line.number}: already at line {st.drafts[line.number].line}"
    st.warn(line.lineno, f"{why}; kept as a paragraph of rule {current}: check the number", "error")
    # A paragraph of its own, its number kept in the text, so the reader sees what was written.
    return Line("text", line.lineno, line.raw, text=line.raw.strip(), indented=True)


def _walk(st: _State, lines: list[Line], layout: str) -> None:
    """Run the state machine over all lines."""
    for i, line in enumerate(lines):
        if wrapped_reference(line, lines[i - 1] if i else None, layout, st.lang):
            line = text(line.raw, line.lineno)
        if i == st.contents_at:
            st.mode = "contents"
        if (st.mode == "preamble" and _preamble(st, line)) or (st.mode == "contents" and _contents(st, line)):
            pass
        elif st.mode in ("glossary", "credits") or line.kind == "heading":
            _tail(st, line)
        else:
            st.mode = "body"
            if line.kind in RULE_KINDS:
                line = _read_number(st, line, lines, i, layout)
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
        st.warn(line.lineno, "example outside any rule (no rule number before it); it is not part of any rule", "error")
        return
    st.current.examples.append([line.text])
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


_TERM_PART = re.compile(r"[“«\"]([^”»\"“«]+?)[,.]?[”»\"]|([^,“«\"]+)")
"""A quoted name (holding no opening quote: else a run of `«` is scanned again from each), or a name up to a comma."""


def term_parts(term: str) -> list[str]:
    """Split a glossary term line into names: `Control, Controller`; `Partner, “Partner—[text],” “Partner with…”`."""
    parts = [(m.group(1) or m.group(2)).strip(" ,") for m in _TERM_PART.finditer(term)]
    return [p for p in parts if p]


def _glossary(st: _State, doc: Document) -> list[GlossaryEntry]:
    """Turn glossary blocks into entries (term line, definition lines)."""
    blocks = [b for b in st.glossary_blocks if b]
    obsolete_re = obsolete_mark(doc.lang)
    terms = {fold(obsolete_re.sub("", b[0].raw.strip())) for b in blocks}
    entries = []
    for block in blocks:
        head = block[0].raw.strip()
        obsolete = bool(obsolete_re.search(head))
        term = obsolete_re.sub("", head).strip()
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
    numbers = {number: number for number in st.drafts}  # each parent's number: one string for all its children
    rules = []
    for number, d in st.drafts.items():
        parent = parent_of(number)
        text = "\n".join(clean("".join(p)) for p in d.paragraphs)
        examples = tuple(clean("".join(e)) for e in d.examples)
        refs = reference_targets("\n".join((text, *examples)), doc.lang)
        refs = tuple(r for r in refs if r != number)
        rules.append(
            Rule(
                doc.id,
                doc.lang,
                number,
                d.kind,
                clean(" ".join(d.title)),
                text,
                examples,
                numbers.get(parent, parent),
                tuple(children.get(number, ())),
                refs,
                SourceRef(st.path, d.line),
            )
        )
        if not text and d.kind in ("numbered", "subrule"):
            st.warn(d.line, f"rule {number} has no text")
    return rules


RULES_WORDS = {"en": ("rules",), "fr": ("règles", "regles")}
"""The word every title of a rules document holds, per language (`Magic: The Gathering Comprehensive Rules`)."""


def _names_the_rules(title: str, lang: str) -> bool:
    """Whether a first line is the document's title: it names the rules in the document's own language (an
    English extract headed by its French title, `Règles complètes de …`, has no title of its own)."""
    words = RULES_WORDS.get(lang)
    return words is None or any(word in title.lower().split() for word in words)


def parse_rules(source: SourceText, doc_id: str) -> RulesResult:
    """Parse a comprehensive-rules file into a document, its rules, its glossary and diagnostics."""
    lines = classify_all(source.lines, source.lang)
    st = _State(source.path, source.lang)
    st.contents_ahead = any(line.kind == "heading" and line.text == "contents" for line in lines)
    if markers_for(source.lang) is None:
        st.contents_at, end = contents_listing(lines)
        if st.contents_at >= 0:
            lines = mark_parts(lines, st.contents_at, end)
        st.warn(0, unmarked_warning(source.lang, st.contents_at >= 0))
    layout = "official" if st.contents_at >= 0 else detect_layout(lines)
    _walk(st, lines, layout)
    _cut_short(st, len(lines))
    del lines  # the classified lines are read: let them go before the rules are made of their texts
    doc = Document(
        doc_id,
        source.lang,
        "rules",
        clean(st.title) if _names_the_rules(st.title, source.lang) else "",
        st.effective,
        source.path,
        introduction="\n\n".join(clean("".join(p)) for p in st.intro),
        credits="\n".join(st.credits).strip(),
        layout=layout,
        encoding=source.encoding,
    )
    rules = _finish(st, doc)
    glossary = _glossary(st, doc)
    if not rules:
        st.warn(0, "no rule found: a comprehensive-rules file needs lines such as '120.1. text'", "error")
    st.diags += [more(st.path, severity, n) for severity, n in st.counts.items() if n > MAX_LISTED]
    return RulesResult(doc, tuple(rules), tuple(glossary), tuple(st.diags))


def _cut_short(st: _State, last: int) -> None:
    """An error when the text stops before the last sections and rules its contents list (a download cut short):
    a site built from it would lack them and end a rule mid-word."""
    missing = sorted((n for n in st.toc if n not in st.drafts), key=_key)
    if missing and missing[-1] == max(st.toc, key=_key):
        st.warn(
            last,
            f"the text is cut short: its contents list {len(missing)} sections and rules it never reaches, "
            f"{missing[0]} to {missing[-1]}; get the whole file again",
            "error",
        )


def looks_like_rules(lines: tuple[str, ...]) -> bool:
    """Tell whether a file looks like comprehensive rules (some lines open with a rule number)."""
    numbered = sum(1 for raw in lines[:5000] if re.match(r"\s*\d{3}\.\d+[a-z]?\.?(\s|$)", raw))
    return numbered >= 1
