"""Records that linking produces: editions, resolved references, the FR/EN alignment."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from kb.model.records import Diagnostic, Rule, _freeze_fields


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
class Alignment:
    """FR/EN (and other languages) alignment of the primary editions by rule number."""

    editions: Mapping[str, str]
    """Edition aligned for each language."""
    only_in: Mapping[str, tuple[str, ...]]
    """Numbers present in that language only."""
    reference_mismatches: tuple[dict, ...]
    """`{"number": n, lang: [targets], …}` for aligned rules whose references differ."""
    aligned: tuple[str, ...]
    """Numbers present in every language, in rule order."""

    def __post_init__(self) -> None:
        _freeze_fields(self, "editions", "only_in")


@dataclass(frozen=True, slots=True)
class RuleLinks:
    """What linking the rules gives."""

    editions: tuple[Edition, ...]
    edition_of: Mapping[str, str]
    """Document id -> edition id."""
    references: Mapping[tuple[str, str], tuple[ResolvedRef, ...]]
    """(edition id, number) -> its references, resolved or not."""
    cited_by: Mapping[tuple[str, str], tuple[str, ...]]
    """(edition id, number) -> numbers of the rules (same edition) that cite it."""
    glossary_refs: Mapping[tuple[str, str], tuple[ResolvedRef, ...]]
    """Glossary entry key (document, term) -> its references."""
    alignment: Alignment
    diagnostics: tuple[Diagnostic, ...] = field(default=())

    def __post_init__(self) -> None:
        _freeze_fields(self, "edition_of", "references", "cited_by", "glossary_refs")
