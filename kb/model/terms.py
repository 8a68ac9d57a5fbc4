"""Records of the vocabulary tables a content folder holds: the terminology (a language's terms for the rules'
concepts), the paraphrase tables (players' ways of saying what the rules say) and the words tables (everyday words
of the cards and rules, with their English), and the French names linking gives the rules and glossary entries that
no loaded text translates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kb.model.records import SourceRef, fast_pickle

Provenance = Literal["attested", "curated"]
TERM_CONCEPTS = ("section", "rule", "glossary")
"""What a terminology line names: a section, a rule by its title, a glossary term."""
PARAPHRASE_KINDS = ("verb", "opposite", "nickname", "old-wording", "anglicism", "synonym")
"""How a players' phrasing relates to the rules' wording."""
WORD_KINDS = ("verb", "noun", "adjective", "adverb", "phrase")
"""What a line of a words table gives the translation of."""


@dataclass(frozen=True, slots=True)
class Term:
    """One line of a terminology table: a concept of the rules and its terms in the table's language."""

    concept: str
    """`section`, `rule` or `glossary` (one of TERM_CONCEPTS)."""
    number: str | None
    """The section's or rule's number (`1`, `121`, `702.19`) in the numbering of the table; None for a glossary term."""
    english: str
    """The heading or glossary term as the English rules print it."""
    lang: str
    """The language of the terms (the table's folder)."""
    names: tuple[str, ...]
    """The terms, the heading first, then other names players use."""
    provenance: Provenance
    """`attested` (a text of the content folder prints it) or `curated` (written by hand, not official)."""
    note: str
    """What the term rests on, as the table says it."""
    source: SourceRef

    @property
    def heading(self) -> str:
        """The term shown as the concept's heading."""
        return self.names[0]


@dataclass(frozen=True, slots=True)
class Paraphrase:
    """One line of a paraphrase table: what players say, and the rules' wording it stands for."""

    lang: str
    """The language of both sides (the table's folder)."""
    players: str
    """The players' phrasing, as typed (one to a few words)."""
    rules: tuple[str, ...]
    """The rules' wordings it stands for."""
    kind: str
    """One of PARAPHRASE_KINDS."""
    provenance: str
    """Where the phrasing comes from (players' usage, older cards' wording…)."""
    source: SourceRef


@dataclass(frozen=True, slots=True)
class Word:
    """One line of a words table: an everyday word of a language's printed cards and rules (no term of the game:
    « regarder », « à la place ») and the English words it means, written by hand with what it rests on."""

    lang: str
    """The language of the French side (the table's folder)."""
    forms: tuple[str, ...]
    """The word as typed (an infinitive, a singular), then other printed forms of it."""
    english: tuple[str, ...]
    """The English words it means, the one shown first."""
    kind: str
    """One of WORD_KINDS."""
    provenance: str
    """What it rests on: a printed card showing both wordings (`cartes : …`), or players' usage."""
    source: SourceRef

    @property
    def word(self) -> str:
        return self.forms[0]


@dataclass(frozen=True, slots=True)
class PrintedWord:
    """One line of a printed-words table: a word printed on a language's cards (folded), never spelling-corrected."""

    lang: str
    word: str
    cards: int
    """How many cards print it."""
    example: str
    """The English name of one of them."""
    source: SourceRef


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a parallel text says of a term: where it was seen translated so, how often, and one example."""

    source: str
    """`cards` (printed cards), `rulings` (an FAQ's rulings beside the rulings they translate), `rules` (a translated
    extract beside its original) or `file` (the terminology line's own citation, checked)."""
    french: str
    """The term it shows."""
    count: int
    """Aligned lines (cards, rulings, rules) holding the pair."""
    example: str
    """One place showing it (a card's name, a ruling's or rule's id, a file and line)."""


@dataclass(frozen=True, slots=True)
class ConceptName:
    """A concept of today's rules (a rule, a section or a glossary term) named in a language its texts lack."""

    lang: str
    """The language of the names."""
    english: str
    """The concept's English heading."""
    names: tuple[str, ...]
    """The names, the heading first."""
    provenance: Provenance
    """`attested` when a parallel text or the content's own text prints the heading for the concept, else `curated`."""
    evidence: tuple[Evidence, ...]
    """What the parallel texts say of the heading, most first (empty for a curated name no text prints)."""
    source: SourceRef
    """The terminology line it comes from."""

    @property
    def heading(self) -> str:
        """The name shown as the concept's heading."""
        return self.names[0]


fast_pickle(Term, Paraphrase, Word, PrintedWord, Evidence, ConceptName)
