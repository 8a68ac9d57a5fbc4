"""Load a content folder: find and decode sources, detect each file's kind, parse, link."""

from __future__ import annotations

import hashlib
from pathlib import Path

from kb.base import KnowledgeBase
from kb.link import link_rules
from kb.model import Diagnostic
from kb.parse.rules import RulesResult, looks_like_rules, parse_rules
from kb.sources import display_path, find_sources, read_source

UNKNOWN_KIND = (
    "cannot tell what this file is (comprehensive rules, set FAQ or card data); "
    "move it out of the content folder or fix its text"
)


def load(content: Path) -> KnowledgeBase:
    """Parse and link everything under `content/<lang>/`; problems become diagnostics."""
    diags: list[Diagnostic] = []
    rules_results: list[RulesResult] = []
    digest = hashlib.sha256()
    for lang, path in find_sources(content):
        shown = display_path(path, content)
        source, found = read_source(path, lang, shown)
        diags += found
        if source is None:
            continue
        digest.update(shown.encode() + b"\0" + source.sha256.encode())
        doc_id = f"{lang}/{path.stem}"
        if path.suffix.lower() == ".txt" and looks_like_rules(source.lines):
            result = parse_rules(source, doc_id)
            rules_results.append(result)
            diags += result.diagnostics
        else:
            diags.append(Diagnostic("error", shown, 0, UNKNOWN_KIND))
    rules = tuple(r for res in rules_results for r in res.rules)
    glossary = tuple(g for res in rules_results for g in res.glossary)
    links = link_rules(rules_results, glossary)
    diags += links.diagnostics
    documents = tuple(res.document for res in rules_results)
    return KnowledgeBase(
        content=str(content), content_hash=digest.hexdigest(), documents=documents, rules=rules,
        glossary=glossary, links=links, faqs=(), cards=(), rulings=(), notes=(), diagnostics=tuple(diags),
    )  # fmt: skip
