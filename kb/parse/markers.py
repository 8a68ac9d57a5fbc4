"""The words that mark a comprehensive-rules file's structure, one table per language.

A rules file is read with the words of its own language (the folder it is in): its headings (`Contents`,
`Glossary`, `Credits`), the word that opens an example, the sentence that gives its date, and the words that cite
a rule. A language without a table is still read (numbers, rules, their text), with a warning that these parts
are not recognised. To add a language, add its table here (the words as the official translation writes them).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Markers:
    """The marker words of one language; a regular expression where a word has several forms."""

    contents: tuple[str, ...]
    """Heading of the table of contents, alone on its line (compared in lower case)."""
    glossary: tuple[str, ...]
    """Heading of the glossary."""
    credits: tuple[str, ...]
    """Heading of the credits."""
    introduction: tuple[str, ...]
    """Heading of the introduction."""
    example: tuple[str, ...]
    """The word before the colon that opens an example line (`Example:`), as written (case counts)."""
    effective: str
    """Expression found in the sentence that gives the edition's date (`These rules are effective as of …`)."""
    rule: str
    """Expression of the word before cited rule numbers (`rules 508.1 and 509.1`)."""
    section: str
    """Expression of the word before cited section numbers (`section 8`); empty if unknown."""
    joins: str
    """Expression of the words joining two cited numbers (`and`, `or`)."""
    through: str
    """Expression of the words of a range of cited numbers (`509.1 through 509.3`)."""
    cites: str
    """Expression of the words that end a hard-wrapped line whose next line starts with a cited number."""
    cites_rule: str
    """The same in any layout: the word for `rule` (`… See rule` / `704.5a …`)."""
    obsolete: str
    """Expression of the word marking a retired glossary term (`Flanking (Obsolete)`)."""
    spaced: bool = True
    """Whether words are written apart, so that word edges (`\\b`) find them; Chinese writes them together."""
    see: str = ""
    """Expression of the words sending the reader to another glossary term (`See Damage.`, `See also Tapped.`)."""


MARKERS: dict[str, Markers] = {
    "en": Markers(
        contents=("contents", "table of contents"),
        glossary=("glossary",),
        credits=("credits", "credit"),
        introduction=("introduction",),
        example=("Example", "Examples"),
        effective=r"\b(?:effective|current) as of\b",
        rule="rules?",
        section="sections?",
        joins="and|or",
        through="through|thru|to",
        cites="rules?|sections?|cf\\.?|see|and|or|through|to",
        cites_rule="(?:sub)?rules?",
        obsolete="obsolete",
        see="see(?: also)?",
    ),
    "fr": Markers(
        contents=("sommaire", "table des matières", "table des matieres", "contents"),
        glossary=("glossaire", "glossary"),
        credits=("crédits", "credits"),
        introduction=("introduction",),
        example=("Exemple", "Exemples"),
        effective=r"\ben vigueur\b|\bapplicables? (?:[àa] partir )?du\b|\b[àa] jour (?:au|du|le)\b",
        rule="r[èe]gles?",
        section="sections?",
        joins="et|ou",
        through="à",
        cites="r[èe]gles?|sections?|cf\\.?|voir|et|ou",
        cites_rule="r[èe]gles?",
        obsolete="obsolète|obsolete",
        see="voir(?: aussi)?",
    ),
    "zh": Markers(
        contents=("目录",),
        glossary=("词汇表",),
        credits=("制作群",),
        introduction=(),
        example=("例如",),
        effective="生效",
        rule="规则",
        section="",
        joins="和|或|及|与",
        through="至|到",
        cites="规则|参见",
        cites_rule="规则",
        obsolete="",
        spaced=False,
        see="参见",
    ),
}
"""The languages whose rules files kb reads whole. `fr` also knows the English headings a translation may keep."""
NEVER = re.compile(r"(?!)")
"""An expression that matches nothing: the marker of a language kb has no table for."""


def markers_for(lang: str) -> Markers | None:
    """The marker words of `lang`, or None when kb has none."""
    return MARKERS.get(lang)


def unmarked_warning(lang: str, listing: bool) -> str:
    """What a warning says of a rules file in a language without marker words (`listing`: whose contents listing,
    and the glossary and credits it names, were told by their shape)."""
    if listing:
        return (
            f"no CR marker words for language '{lang}': examples, the effective date and references are not "
            "recognised; contents, glossary and credits were told from the contents listing"
        )
    return f"no CR marker words for language '{lang}': contents, glossary, examples and references are not recognised"


def words(pattern: str, lang: str) -> str:
    """`pattern` starting at a word's edge, in a language that writes words apart; anywhere otherwise."""
    markers = markers_for(lang)
    return rf"\b(?:{pattern})" if markers is None or markers.spaced else f"(?:{pattern})"


@functools.cache
def effective_sentence(lang: str) -> re.Pattern[str]:
    """The words announcing an edition's date in `lang` (matching nothing without a table)."""
    markers = markers_for(lang)
    return re.compile(markers.effective, re.IGNORECASE) if markers else NEVER


@functools.cache
def obsolete_mark(lang: str) -> re.Pattern[str]:
    """A retired glossary term's mark at the end of its line: `(Obsolete)`, `(obsolète)`."""
    markers = markers_for(lang)
    if markers is None or not markers.obsolete:
        return NEVER
    return re.compile(rf"(?<!\s)\s*[(（](?:{markers.obsolete})[)）]\s*$", re.I)  # from a run's start: linear
