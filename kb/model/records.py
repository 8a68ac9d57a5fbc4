"""Typed records passed between the pipeline stages (sources -> parse -> link -> index/render).

Every record is frozen; linking builds new objects and maps instead of mutating parsed records.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NoReturn

Severity = Literal["error", "warning", "note"]
RuleKind = Literal["section", "rule", "numbered", "subrule"]
DocKind = Literal["rules", "faq", "cards"]
HEADING_WORDS = 6
"""A numbered rule whose text has at most this many words and no final stop names its subrules' topic."""


class FrozenMap(dict):
    """A dict that cannot change after it is made, and hashes: the mapping type of every record."""

    __slots__ = ()

    def _frozen(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(f"{type(self).__name__} is immutable")

    __setitem__ = __delitem__ = __ior__ = _frozen  # type: ignore[assignment]
    clear = pop = popitem = setdefault = update = _frozen  # type: ignore[assignment]

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self):
        return (FrozenMap, (dict(self),))


EMPTY: FrozenMap = FrozenMap()


def _reduce(record: Any) -> tuple:
    """Pickle a frozen slotted record as its constructor call (dataclasses' own `__setstate__` is slow)."""
    return (type(record), tuple(getattr(record, name) for name in type(record).__slots__))


def fast_pickle(*classes: type) -> None:
    """Give frozen slotted records a fast `__reduce__` (the knowledge base cache holds a hundred thousand)."""
    for cls in classes:
        cls.__reduce__ = _reduce  # type: ignore[method-assign]


def frozen(mapping: Mapping | None = None) -> FrozenMap:
    """Freeze a mapping (values are kept as they are: use tuples and records for them)."""
    if isinstance(mapping, FrozenMap):
        return mapping
    return FrozenMap(mapping) if mapping else EMPTY  # one empty map for every record without one


def _freeze_fields(record: object, *names: str) -> None:
    """Replace the named dict fields of a frozen record by `FrozenMap`s (called from `__post_init__`)."""
    for name in names:
        value = getattr(record, name)
        if not isinstance(value, FrozenMap):
            object.__setattr__(record, name, frozen(value))


@dataclass(frozen=True, slots=True)
class SourceRef:
    """Where a record comes from."""

    path: str
    """Path relative to the project (or content folder's parent), with `/` separators."""
    line: int
    """1-based line number in the decoded source."""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A problem found in the content, reported as `path:line: message`."""

    severity: Severity
    """`error` fails `kb check`; `warning` fails it with `--strict`; `note` is informational."""
    path: str
    """File the problem is in (relative, `/` separators)."""
    line: int
    """1-based line (0 when the problem concerns the whole file)."""
    message: str
    """What is wrong and, where possible, how to fix it."""

    def format(self) -> str:
        """Render as `path:line: severity: message`."""
        return f"{self.path}:{self.line}: {self.severity}: {self.message}"


@dataclass(frozen=True, slots=True)
class SourceText:
    """A decoded content file, split into lines."""

    path: str
    """Relative path with `/` separators, as shown in diagnostics."""
    lang: str
    """ISO 639-1 code taken from the folder name (`fr`, `en`)."""
    lines: Sequence[str]
    """Decoded lines without line ends; `lines[0]` is line 1."""
    encoding: str
    """`utf-8`, `utf-8-sig` or `cp1252`."""
    sha256: str
    """Hash of the raw bytes, for cache invalidation."""


@dataclass(frozen=True, slots=True)
class Document:
    """One content file, as a whole."""

    id: str
    """Stable id: `<lang>/<file stem>` (e.g. `fr/cr-120-piocher-une-carte`)."""
    lang: str
    """Language of the text."""
    kind: DocKind
    """`rules` (comprehensive rules), `faq` (set FAQ) or `cards` (card data)."""
    title: str
    """Title line of the document ('' when it has none)."""
    effective_date: str | None
    """ISO date the rules take effect (CR) or the FAQ was last modified, when stated."""
    source: str
    """Relative path of the file."""
    introduction: str = ""
    """Introduction paragraphs (CR), joined by blank lines."""
    credits: str = ""
    """Credits and trademark trailer (CR), kept out of the rules."""
    layout: str = ""
    """How the file was laid out: `official`, `blank-line`, `hard-wrapped`, `faq`, `mtgjson`."""
    encoding: str = "utf-8"
    """Encoding the file was decoded with."""


@dataclass(frozen=True, slots=True)
class Rule:
    """A section, rule, numbered rule or subrule of a comprehensive rules document."""

    document: str
    """Id of the document it comes from."""
    lang: str
    """Language of its text."""
    number: str
    """Canonical number without trailing dot: `1`, `120`, `120.2`, `120.2a`."""
    kind: RuleKind
    """`section` (1), `rule` (120), `numbered` (120.2) or `subrule` (120.2a)."""
    title: str
    """Heading of a section or rule (`Drawing a Card`); '' for numbered rules and subrules."""
    text: str
    """Rule text; paragraphs separated by `\\n`."""
    examples: tuple[str, ...]
    """Example paragraphs, without their `Example:` / `Exemple :` label."""
    parent: str | None
    """Number of the parent in the hierarchy, whether or not the document contains it."""
    children: tuple[str, ...]
    """Numbers of the direct children present in the same document, in document order."""
    references: tuple[str, ...]
    """Rule numbers cited by the text and examples, in order of first appearance."""
    source: SourceRef
    """Where the rule's number stands."""

    @property
    def heading(self) -> str:
        """Its title, or the text of a numbered rule that only names its subrules' topic (`702.19. Trample`,
        `702.163. For Mirrodin!`, `702.186. ∞ (Infinity)`); else ''."""
        if self.title:
            return self.title
        text = self.text.strip()
        if self.children and text and len(text.split()) <= HEADING_WORDS and text[-1] not in ".:;?":
            return text
        return ""


@dataclass(frozen=True, slots=True)
class GlossaryEntry:
    """A glossary term of a comprehensive rules document."""

    document: str
    """Id of the document."""
    lang: str
    """Language."""
    term: str
    """The term line as printed (`Control, Controller`)."""
    aliases: tuple[str, ...]
    """Alternative names split from the term line (`Control`, `Controller`)."""
    definition: str
    """Definition paragraphs joined by `\\n`; multi-sense entries keep their `1.` / `2.`."""
    obsolete: bool
    """True for retired terms marked `(Obsolete)`."""
    references: tuple[str, ...]
    """Rule numbers cited by the definition."""
    source: SourceRef
    """Where the term line stands."""

    @property
    def key(self) -> tuple[str, str]:
        """Identity of the entry: its document and term."""
        return (self.document, self.term)


@dataclass(frozen=True, slots=True)
class Face:
    """One face of a card (a split card has two)."""

    names: Mapping[str, str]
    """Name per language (`{"fr": "Recherche", "en": "Research"}`)."""
    mana_cost: tuple[str, ...]
    """Mana symbols in order (`{2}`, `{W}`, `{G/U}`, `{X}`); empty for lands."""
    type_line: str
    """Type line as printed in the source language."""
    supertypes: tuple[str, ...]
    """Supertypes (`légendaire`, `Legendary`)."""
    types: tuple[str, ...]
    """Card types (`Créature`, `Artefact`)."""
    subtypes: tuple[str, ...]
    """Subtypes (`humain`, `conseiller`)."""
    power: str | None
    """Printed power, as text (`3`, `*`), or None."""
    toughness: str | None
    """Printed toughness, as text, or None."""
    text: str
    """Rules text, lines joined by `\\n`, reminder text included as printed."""
    reminder_text: tuple[str, ...] = ()
    """The parenthesised reminder texts found in `text`, kept apart for display and search."""
    lang: str = "fr"
    """Language of `type_line` and `text`."""

    def __post_init__(self) -> None:
        _freeze_fields(self, "names")


@dataclass(frozen=True, slots=True)
class Printed:
    """One way a card was printed in a language other than its card data's: name, type line and text."""

    lang: str
    """Language of the printing (`fr`)."""
    name: str
    """Name as printed; split cards join their faces with ` // `."""
    type_line: str
    """Type line as printed (faces joined with ` // `)."""
    text: str
    """Rules text as printed (faces joined by a `//` line)."""
    sets: tuple[str, ...]
    """Set codes printing it so, newest first."""
    released: str | None = None
    """Release date (`YYYY-MM-DD`) of the newest of those sets, when the card data gives it."""


@dataclass(frozen=True, slots=True)
class Card:
    """A card, merged across every place (FAQ sections, card data) that prints it."""

    id: str
    """Stable slug id (from the English name when known, else the source name)."""
    names: Mapping[str, str]
    """Full name per language; split cards join their faces with ` // `."""
    faces: tuple[Face, ...]
    """One face, or two for a split card."""
    rulings: tuple[str, ...]
    """Ids of its rulings, in source order."""
    notes: tuple[str, ...]
    """Ids of the general notes that print or discuss it."""
    source: SourceRef
    """Where it is first printed."""
    oracle: Mapping[str, str] = EMPTY
    """Extra card data by key (`en_text`, `en_type`, `fr_text`, `fr_type`, `multiverseid`…), from card data files."""
    printings: tuple[str, ...] = ()
    """Set codes it was printed in (card data), reprints merged into one card."""
    keywords: tuple[str, ...] = ()
    """English keyword abilities (card data `keywords`)."""
    printed: tuple[Printed, ...] = ()
    """Every distinct printing in another language (card data `foreignData`: French), newest first; `names`
    holds the newest one's name."""

    def __post_init__(self) -> None:
        _freeze_fields(self, "names", "oracle")
        if len(self.faces) == 1 and self.faces[0].names == self.names:  # most cards: one map for both
            object.__setattr__(self, "names", self.faces[0].names)


def card_name(card: Card | Face, lang: str | None = None) -> str:
    """Return a card's (or a face's) name in a language, else its first name, else the card's id."""
    fallback = card.id if isinstance(card, Card) else ""
    return (card.names.get(lang) if lang else None) or next(iter(card.names.values()), fallback)


@dataclass(frozen=True, slots=True)
class Ruling:
    """A ruling on a card: an FAQ bullet (plus its continuation paragraphs) or a Gatherer ruling."""

    id: str
    """Stable id (`<document id>#<line>` or `<card id>/en/<n>`)."""
    card: str
    """Id of the card it is about."""
    lang: str
    """Language of the text."""
    text: str
    """Ruling text, paragraphs joined by `\\n`."""
    section: str
    """Section it appears in (`NOTES SUR DES CARTES SPÉCIFIQUES`, a general note title, `Gatherer`)."""
    source_document: str
    """Id of the document it comes from."""
    rule_refs: tuple[str, ...]
    """Rule numbers it cites."""
    card_refs: tuple[str, ...]
    """Ids of the cards it names."""
    mentions: tuple[str, ...]
    """Card-like names it uses that match no card of the knowledge base."""
    source: SourceRef
    """Where the bullet starts."""
    date: str | None = None
    """Date of the ruling, when the source gives one (Gatherer)."""
    translation_of: str | None = None
    """Id of the ruling in the other language that says the same thing (FAQ <-> Gatherer), when paired."""
    translation_confidence: float | None = None
    """How sure that pairing is, in [0, 1]."""
    citations: Mapping[str, str] = EMPTY
    """Each cited number (`rule_refs`, numbering of the ruling's date) -> today's number of that rule."""

    def __post_init__(self) -> None:
        _freeze_fields(self, "citations")


@dataclass(frozen=True, slots=True)
class QuotedRule:
    """An official rule quoted by an FAQ note, with the numbering in force at the time."""

    number: str
    """Number as printed then (`502.53a`), not to be linked to today's rule of that number."""
    as_of: str | None
    """ISO date of the FAQ that quotes it."""
    text: str
    """Quoted text."""
    today: str | None = None
    """Today's number of the same rule (`702.57`), when lineage, the quoted text or the lexicon says so."""
    today_edition: str | None = None
    """The edition `today` belongs to (`en:2026-01-16`)."""
    via: str | None = None
    """How `today` was found: `lineage`, `text` (the quoted text matches) or `lexicon` (its title, translated)."""
    confidence: float | None = None
    """How sure that is, in [0, 1]."""


@dataclass(frozen=True, slots=True)
class FaqNote:
    """A general note of a set FAQ (a mechanic, a concept)."""

    id: str
    """Stable id (`<document id>#<slug of title>`)."""
    lang: str
    """Language."""
    title: str
    """Heading (`Prévision`)."""
    text: str
    """Explanation paragraphs joined by `\\n`."""
    cards: tuple[str, ...]
    """Ids of the example cards it prints."""
    quoted_rules: tuple[QuotedRule, ...]
    """Official rules it quotes, as numbered then."""
    bullets: tuple[str, ...]
    """Its `*` notes, continuation paragraphs joined by `\\n`."""
    source: SourceRef
    """Where the heading stands."""
    document: str = ""
    """Id of the FAQ document."""
    card_refs: tuple[str, ...] = ()
    """Ids of the cards its text and bullets name."""
    rule_refs: tuple[str, ...] = ()
    """Current rule numbers its text cites (quoted rules excluded)."""
    mentions: tuple[str, ...] = ()
    """Card-like names that match no card."""
    order: tuple[tuple[str, int], ...] = ()
    """Its blocks in the FAQ's order: (`text`, `card`, `quoted` or `bullet`, index among the paragraphs of `text`,
    `printed`, `quoted_rules` or `bullets`); empty when unknown."""
    printed: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Each example card block as the FAQ prints it: (card id, its lines: name, cost, type, text)."""


@dataclass(frozen=True, slots=True)
class FaqInfo:
    """Header metadata of a set FAQ."""

    document: str
    """Id of the FAQ document."""
    lang: str
    """Language."""
    title: str
    """Title line."""
    set_names: Mapping[str, str]
    """Set name per language (`{"fr": "Discorde", "en": "Dissension"}`)."""
    authors: tuple[str, ...]
    """Compiler and contributors."""
    last_modified: str | None
    """ISO date the FAQ was last modified."""
    dates: Mapping[str, str]
    """Other dates by key (`prerelease`, `release`, `tournament_legal`), ISO."""
    set_size: int | None
    """Number of cards in the set."""
    intro: str = ""
    """Introductory paragraphs."""
    trailer: tuple[str, ...] = ()
    """Forum lines after the last card (edit notes, `[ Dernière modification … ]`)."""
    source: SourceRef | None = None
    """Where the header starts."""
    unplaced: tuple[str, ...] = ()
    """Text that fitted no record (`path:line: text`), each also reported by a diagnostic."""

    def __post_init__(self) -> None:
        _freeze_fields(self, "set_names", "dates")


fast_pickle(
    SourceRef, Diagnostic, SourceText, Document, Rule, GlossaryEntry, Face, Card, Ruling, QuotedRule, FaqNote, FaqInfo
)
