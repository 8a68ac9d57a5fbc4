"""Records that linking produces: editions, resolved references, the FR/EN alignment."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from kb.model.lineage import Lineage
from kb.model.records import Diagnostic, Rule, _freeze_fields, fast_pickle, frozen


@dataclass(frozen=True, slots=True)
class Edition:
    """Rules documents of one language and effective date whose numbers do not overlap."""

    id: str
    """`<lang>:<effective date or 'undated'>`, with `~2`, `~3` for a second overlapping set."""
    lang: str
    """Language."""
    effective_date: str | None
    """ISO date shared by its documents, or None."""
    documents: tuple[str, ...]
    """Ids of its documents, in load order."""
    rules: Mapping[str, Rule]
    """Rules by number, in document order."""
    complete: bool
    """True when it holds section headings (a whole CR, not an extract)."""
    current: bool = False
    """True for the newest edition of its language (the others are its history)."""

    def __post_init__(self) -> None:
        _freeze_fields(self, "rules")


@dataclass(frozen=True, slots=True)
class ResolvedRef:
    """A reference from a rule (or glossary entry) to a rule number."""

    target: str
    """Cited rule number."""
    resolved: bool
    """Whether the number exists in the citing edition."""


@dataclass(frozen=True, slots=True)
class AlignedRule:
    """A rule of a translation paired with today's rule of the reference language."""

    lang: str
    """Language of the translation (`fr`)."""
    edition: str
    """Its edition (`fr:undated`)."""
    number: str
    """Its number in that edition (`120.2`)."""
    ref_edition: str
    """The reference language's current edition (`en:2026-01-16`)."""
    ref_number: str
    """Today's number of the same rule (`121.2`)."""
    via: str
    """`number` (same edition, same number), `lineage` (followed from the edition it was translated from) or
    `content` (no loaded edition is numbered like it: paired by what the two rules say, see
    `kb.link.editions.crosslang`)."""
    confidence: float
    """How sure the pairing is, in [0, 1]."""


@dataclass(frozen=True, slots=True)
class Reading:
    """A rule number as a text cites it, read in the numbering of that text's edition and followed to today."""

    number: str
    """The number as cited (`502.2`)."""
    edition: str | None
    """The edition whose numbering the text uses (`en:2015-09-26` for the French extracts); None when no loaded
    edition is numbered like it (the number cannot be read)."""
    status: str
    """`same`, `renumbered` (today's number differs), `removed` or `merged` (no rule of today is it alone),
    `absent` (that edition has no such rule) or `unknown` (its numbering is not loaded)."""
    today: str | None
    """Today's reference number of the rule (None when removed, absent or unknown)."""
    gone: tuple[str, str] | None = None
    """(older, newer edition) between which a removed or merged rule went."""
    confidence: float = 1.0
    """How sure the reading is (the product of the lineage links followed)."""

    @property
    def year(self) -> str:
        """The year of the numbering read in (`2015`), from the edition id; '' without one."""
        date = (self.edition or "").split(":", 1)[-1]
        return date[:4] if date[:4].isdigit() else ""


@dataclass(frozen=True, slots=True)
class StaleRule:
    """A translated rule whose English original changed after the edition it was translated from."""

    lang: str
    """Language of the translation."""
    number: str
    """Its number."""
    since: str
    """The edition it was translated from."""
    ref_number: str
    """Today's number of the English rule."""
    ref_edition: str
    """Today's edition."""


@dataclass(frozen=True, slots=True)
class Miscitation:
    """A number a translated rule cites that its original (the rule it was translated from) does not cite."""

    lang: str
    """Language of the translation (`fr`)."""
    number: str
    """The citing rule's own number (`703.4d`)."""
    cited: str
    """The number it cites (`701.21`)."""
    edition: str
    """The edition it was translated from (`en:2015-09-26`)."""
    original: str
    """The number of its original in that edition (`703.4d`)."""
    meant: Reading | None
    """What the original cites in its place (`701.22`), read in `edition` and followed to today (`701.32`): the
    rule the citation is linked to; None when the original cites nothing in its place, or nothing it may be (of
    another section or kind, and numbered so by no older edition): not linked, reported."""
    literal: Reading
    """The cited number itself read in `edition` (`701.21`, Planeswalk then, `701.31` today): never linked."""
    older: tuple[tuple[str, str | None], ...] = ()
    """(edition, the number the rule `meant` names had there, or None), for each loaded edition older than
    `edition`, newest first: where one numbers it `cited`, the translation follows that edition's numbering."""

    @property
    def confirmed(self) -> tuple[str, ...]:
        """The older editions that numbered the rule its original cites as the translation does."""
        return tuple(ed for ed, num in self.older if num == self.cited)


@dataclass(frozen=True, slots=True)
class Alignment:
    """Alignment of every language's current edition with the reference language's, through lineage."""

    editions: Mapping[str, str]
    """Edition aligned for each language (its current edition)."""
    only_in: Mapping[str, tuple[str, ...]]
    """Numbers (in each language's own numbering) with no counterpart in the other languages."""
    reference_mismatches: tuple[Mapping, ...]
    """`{"number": n, lang: [targets], …}` for aligned rules whose references differ (today's numbering)."""
    aligned: tuple[str, ...]
    """Today's reference numbers that every language has, in rule order."""
    reference: str | None = None
    """The reference language (the one whose current edition has the most rules)."""
    pairs: tuple[AlignedRule, ...] = ()
    """Each translated rule and the reference rule it is."""
    counterparts: Mapping[str, tuple[str, float, str]] = field(default_factory=dict)
    """Language -> (reference edition it is numbered like, structure score, `date` or `structure`); `content` when
    no loaded edition is: the edition is today's, paired with by content, and the translation's numbering unknown."""
    stale: tuple[StaleRule, ...] = ()
    """Translated rules whose English original changed since (the translation is stale)."""
    miscitations: tuple[Miscitation, ...] = ()
    """Numbers the translations cite that their originals do not (`kb.link.references.citecheck`), in rule order."""

    def __post_init__(self) -> None:
        _freeze_fields(self, "editions", "only_in", "counterparts")
        object.__setattr__(self, "reference_mismatches", tuple(frozen(m) for m in self.reference_mismatches))


@dataclass(frozen=True, slots=True)
class RuleLinks:
    """What linking the rules gives."""

    editions: tuple[Edition, ...]
    edition_of: Mapping[str, str]
    """Document id -> edition id."""
    references: Mapping[tuple[str, str], tuple[ResolvedRef, ...]]
    """(edition id, number) -> its references, resolved or not (none for a rule citing nothing: read it with
    `KnowledgeBase.references`)."""
    cited_by: Mapping[tuple[str, str], tuple[str, ...]]
    """(edition id, number) -> numbers of the rules (same edition) that cite it."""
    glossary_refs: Mapping[tuple[str, str], tuple[ResolvedRef, ...]]
    """Glossary entry key (document, term) -> its references."""
    alignment: Alignment
    diagnostics: tuple[Diagnostic, ...] = field(default=())
    ordered: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Language -> its edition ids, oldest first (the last complete one is current)."""
    lineage: Mapping[str, Lineage] = field(default_factory=dict)
    """Language -> `Lineage` of its editions (what each rule became in the next edition)."""

    def __post_init__(self) -> None:
        _freeze_fields(self, "edition_of", "references", "cited_by", "glossary_refs", "ordered", "lineage")


def edition_rules(editions: tuple[Edition, ...]) -> tuple[Rule, ...]:
    """Every rule of some editions, edition by edition in document order (a knowledge base's `rules`)."""
    return tuple(r for ed in editions for r in ed.rules.values())


fast_pickle(Edition, ResolvedRef, AlignedRule, Reading, StaleRule, Miscitation, Alignment, RuleLinks)
