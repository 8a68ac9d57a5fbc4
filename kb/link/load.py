"""Load a content folder: find and decode sources, detect each file's kind, parse, link."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from kb.link.cards import link_cards
from kb.link.rules import link_rules
from kb.model import Diagnostic, SourceText
from kb.model.base import KnowledgeBase
from kb.parse.cards.mtgjson import CardDataResult, looks_like_mtgjson, parse_mtgjson
from kb.parse.cr.rules import RulesResult, looks_like_rules, parse_rules
from kb.parse.faq.parse import FaqResult, looks_like_faq, parse_faq
from kb.sources import display_path, find_sources, hash_entry, ignored_entries, read_source

UNKNOWN_KIND = (
    "cannot tell what this file is (comprehensive rules, set FAQ or card data); "
    "move it out of the content folder or fix its text"
)


@dataclass(slots=True)
class _Parsed:
    """Parse results gathered before linking."""

    rules: list[RulesResult] = field(default_factory=list)
    faqs: list[FaqResult] = field(default_factory=list)
    card_data: list[CardDataResult] = field(default_factory=list)
    diags: list[Diagnostic] = field(default_factory=list)


def parse_source(source: SourceText, doc_id: str, parsed: _Parsed) -> None:
    """Detect the kind of one decoded file and parse it."""
    if source.path.lower().endswith(".json"):
        text = "\n".join(source.lines)
        if looks_like_mtgjson(text):
            parsed.card_data.append(parse_mtgjson(source, doc_id))
            parsed.diags += parsed.card_data[-1].diagnostics
            return
    elif looks_like_faq(source.lines):
        parsed.faqs.append(parse_faq(source, doc_id))
        parsed.diags += parsed.faqs[-1].diagnostics
        return
    elif looks_like_rules(source.lines):
        parsed.rules.append(parse_rules(source, doc_id))
        parsed.diags += parsed.rules[-1].diagnostics
        return
    parsed.diags.append(Diagnostic("error", source.path, 0, UNKNOWN_KIND))


def load(content: Path) -> KnowledgeBase:
    """Parse and link everything under `content/<lang>/`; problems become diagnostics."""
    parsed = _Parsed()
    digest = hashlib.sha256()
    for path, why in ignored_entries(content):
        parsed.diags.append(Diagnostic("note", display_path(path, content), 0, why))
    ids: dict[str, str] = {}
    for lang, path in find_sources(content):
        shown = display_path(path, content)
        source, found = read_source(path, lang, shown)
        parsed.diags += found
        if source is None:
            continue
        digest.update(hash_entry(lang, path, source.sha256))
        doc_id = f"{lang}/{path.stem}"
        if doc_id in ids:  # en/x.txt and en/x.json: keep ids unique
            parsed.diags.append(
                Diagnostic(
                    "note", shown, 0, f"{ids[doc_id]} has the same name; this file's document id is {lang}/{path.name}"
                )
            )
            doc_id = f"{lang}/{path.name}"
        ids[doc_id] = shown
        parse_source(source, doc_id, parsed)
    glossary = tuple(g for res in parsed.rules for g in res.glossary)
    links = link_rules(parsed.rules, glossary)
    editions = links.editions

    def rule_exists(lang: str, number: str, as_of: str | None = None) -> bool:
        """Whether an edition in force at `as_of` (an FAQ's or ruling's date) has the rule; undated ones count."""
        in_force = [ed for ed in editions if ed.effective_date is None or as_of is None or ed.effective_date <= as_of]
        return any(ed.lang == lang and number in ed.rules for ed in in_force)

    cards = link_cards(parsed.faqs, parsed.card_data, rule_exists)
    documents = tuple(res.document for group in (parsed.rules, parsed.faqs, parsed.card_data) for res in group)
    return KnowledgeBase(
        content=str(content),
        content_hash=digest.hexdigest(),
        documents=documents,
        rules=tuple(r for res in parsed.rules for r in res.rules),
        glossary=glossary,
        links=links,
        faqs=tuple(f.info for f in parsed.faqs),
        cards=cards.cards,
        rulings=cards.rulings,
        notes=cards.notes,
        diagnostics=tuple(parsed.diags) + links.diagnostics + tuple(cards.diagnostics),
        cards_by_document=dict(cards.cards_by_document),
    )
