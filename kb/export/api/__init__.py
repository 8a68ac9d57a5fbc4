"""The static JSON API a built site holds (`api/v1/`, described by `api/openapi.json`): any static host serves it.

In: `KnowledgeBase`. Out: (path under the site, JSON text) of every file, in the order they are made; the site's
build writes them beside the pages, in the same atomic build (`kb.site.write.build_site`'s `extras`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from kb import __version__
from kb.export.api import records
from kb.export.api.openapi import openapi
from kb.model.base import KnowledgeBase

ROOT = "api/v1"
"""Where the API's files stand in a site; `api/openapi.json` beside it describes them."""
PATHS = {
    "rules": "{lang}/rules.json",
    "rule": "{lang}/rules/{number}.json",
    "trace": "{lang}/traces/{number}.json",
    "glossary": "{lang}/glossary.json",
    "entry": "{lang}/glossary/{slug}.json",
    "cards": "cards.json",
    "card": "cards/{slug}.json",
    "edition": "{lang}/editions/{edition}.json",
    "numbers": "{lang}/numbers/{edition}.json",
}
"""Each kind of file, relative to `api/v1/` (`{edition}`: a date, or `undated`)."""


MAX_NUMBER = 64
"""A rule number longer than this (thousands of digits after its dot: hostile content) has no file of its own."""


def dumps(payload: Any) -> str:
    """JSON as the API writes it: compact, UTF-8."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def api_files(kb: KnowledgeBase, base_url: str | None = None) -> Iterator[tuple[str, str]]:
    """Every file of the API: (path from the site's root, JSON text)."""
    from kb.export.history import trace

    index = records.Index.of(kb)
    for lang, edition in kb.primary.items():
        yield _at("rules", lang=lang), dumps(records.rules_index(edition))
        for number, rule in edition.rules.items():
            if len(number) > MAX_NUMBER:  # `kb check` warns of it; a file name holds 255 bytes
                continue
            yield _at("rule", lang=lang, number=number), dumps(records.rule_record(index, rule))
            yield _at("trace", lang=lang, number=number), dumps(trace(kb, rule))
        yield _at("glossary", lang=lang), dumps(records.glossary_index(index, lang))
        for name, entry in index.glossary[lang]:
            yield _at("entry", lang=lang, slug=name), dumps(records.glossary_record(index, entry))
    yield _at("cards"), dumps(records.cards_index(index))
    for card in kb.cards:
        yield _at("card", slug=index.card_slugs[card.id]), dumps(records.card_record(index, card))
    for edition in kb.links.editions:
        key = records.edition_key(edition)
        record = records.edition_record(index, edition, _changes(kb, edition))
        yield _at("edition", lang=edition.lang, edition=key), dumps(record)
        if _has_numbers(kb, edition):
            yield _at("numbers", lang=edition.lang, edition=key), dumps(records.numbers_record(index, edition))
    yield f"{ROOT}/index.json", dumps(api_index(index))
    yield "api/openapi.json", json.dumps(openapi(kb, base_url), ensure_ascii=False, indent=1)


def _at(kind: str, **values: str) -> str:
    """The path of a file of the API from the site's root."""
    return f"{ROOT}/" + PATHS[kind].format(**values)


def _has_numbers(kb: KnowledgeBase, edition) -> bool:
    """Whether an edition gets a numbers file: every edition but today's reference edition (its numbers are today's)."""
    return not (edition.lang == kb.reference and edition.current)


def _changes(kb: KnowledgeBase, edition) -> dict | None:
    """What changed in an edition since the previous edition of its language (None for the first, or an extract)."""
    from kb.link.editions.history import HistoryError, compare

    before, _ = kb.edition_neighbours(edition)
    if before is None:
        return None
    try:
        return records.changes_record(compare(kb, before, edition.id))
    except HistoryError:
        return None


def api_index(index: records.Index) -> dict[str, Any]:
    """`api/v1/index.json`: what the API holds and where: languages, editions, counts, and the paths of each kind."""
    kb = index.kb
    editions = []
    for edition in kb.links.editions:
        key = records.edition_key(edition)
        numbers = _at("numbers", lang=edition.lang, edition=key)[len(ROOT) + 1 :] if _has_numbers(kb, edition) else None
        path = PATHS["edition"].format(lang=edition.lang, edition=key)
        editions.append(
            {
                "id": edition.id,
                "lang": edition.lang,
                "date": edition.effective_date,
                "current": edition.current,
                "complete": edition.complete,
                "rules": len(edition.rules),
                "path": path,
                "numbers": numbers,
            }
        )
    return {
        "api": "v1",
        "kb_version": __version__,
        "content_hash": kb.content_hash,
        "reference": kb.reference,
        "langs": list(kb.primary),
        "current": {lang: edition.id for lang, edition in kb.primary.items()},
        "editions": editions,
        "counts": {
            "rules": {lang: len(edition.rules) for lang, edition in kb.primary.items()},
            "glossary": {lang: len(index.glossary[lang]) for lang in kb.primary},
            "cards": len(kb.cards),
        },
        "paths": PATHS,
        "openapi": "../openapi.json",
    }
