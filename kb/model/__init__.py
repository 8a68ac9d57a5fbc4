"""Model: the typed, frozen records every stage passes on, rule numbers, and the linked knowledge base.

In: nothing (the bottom of the pipeline). Out: `Rule`, `Card`, `Ruling`… (`records`), rule-number logic
(`numbers`), language order (`langs`), link records (`links`) and `KnowledgeBase` (`base`).
Imports nothing else from kb.
"""

from kb.model.records import (
    Card,
    Diagnostic,
    DocKind,
    Document,
    Face,
    FaqInfo,
    FaqNote,
    GlossaryEntry,
    Printed,
    QuotedRule,
    Rule,
    RuleKind,
    Ruling,
    Severity,
    SourceRef,
    SourceText,
    card_name,
)

__all__ = [
    "Card",
    "Diagnostic",
    "DocKind",
    "Document",
    "Face",
    "FaqInfo",
    "FaqNote",
    "GlossaryEntry",
    "Printed",
    "QuotedRule",
    "Rule",
    "RuleKind",
    "Ruling",
    "Severity",
    "SourceRef",
    "SourceText",
    "card_name",
]
