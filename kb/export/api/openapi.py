"""The OpenAPI 3.1 description of the static JSON API (`api/openapi.json`) and of `kb serve`'s search: every path,
and the JSON Schema (2020-12) of every file; a test validates every file of a built site against it."""

from __future__ import annotations

from typing import Any

from kb import __version__
from kb.model.base import KnowledgeBase

S: dict = {"type": "string"}
NS: dict = {"type": ["string", "null"]}
INT: dict = {"type": "integer", "minimum": 0}
BOOL: dict = {"type": "boolean"}
NUM: dict = {"type": "number", "minimum": 0}
NUMBER = {"type": "string", "pattern": r"^\d(\d\d(\.\d+[a-z]?)?)?$", "examples": ["702.19b"]}
LANG = {"type": "string", "pattern": "^[a-z]{2}$", "examples": ["en", "fr"]}
EDITION = {"type": "string", "pattern": "^[a-z]{2}:.+$", "examples": ["en:2026-01-16", "fr:undated"]}
CHANGES = ["origin", "added", "same", "reworded", "renumbered", "split", "merged", "removed"]
CATEGORIES = ["wording", "added", "removed", "moved", "split", "merged", "pronoun", "reference", "renumbering"]


def obj(properties: dict, optional: tuple[str, ...] = ()) -> dict:
    """An object with these properties, all required but the `optional` ones, and no other."""
    required = [key for key in properties if key not in optional]
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def arr(items: dict) -> dict:
    """An array of items."""
    return {"type": "array", "items": items}


def ref(name: str) -> dict:
    """A schema of the components."""
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: dict) -> dict:
    """A schema, or null."""
    return {"oneOf": [schema, {"type": "null"}]}


def mapping(values: dict) -> dict:
    """An object of any keys (languages, numbers) with values of one schema."""
    return {"type": "object", "additionalProperties": values}


CITED = obj({"number": NUMBER, "resolved": BOOL})
SOURCE = nullable(obj({"path": S, "line": INT}))
DIFF = arr({"type": "array", "prefixItems": [{"enum": ["equal", "delete", "insert"]}, S], "minItems": 2, "maxItems": 2})
"""A word diff: `[op, text]` pairs; the old text is the `equal` and `delete` parts, the new the `equal` and `insert`."""


PAIRING = obj({"lang": LANG, "number": NUMBER, "edition": EDITION, "via": S, "confidence": NUM})
TRANSLATION = obj({"number": NUMBER, "edition": EDITION, "title": S, "text": S, "via": S, "confidence": NUM})
MENTION = obj({"id": S, "kind": {"enum": ["ruling", "note"]}, "lang": NS, "card": NS})
READING = obj({"target": NUMBER, "numbering": NS, "status": S, "today": NS, "miscited": {"type": ["object", "null"]}})
STEP = obj(
    {
        "edition": EDITION,
        "date": NS,
        "number": NS,
        "change": {"enum": CHANGES},
        "reworded": BOOL,
        "minor": {"enum": ["pronoun", "reference", None]},
        "from": arr(NUMBER),
        "confidence": NUM,
        "diff": DIFF,
    }
)
CARD_CITED = obj({"cited": S, "today": NS})
RULING = obj(
    {"id": S, "lang": LANG, "date": NS, "text": S, "source": S, "rules": arr(CARD_CITED), "translation_of": NS}
)
NOTE = obj(
    {
        "id": S,
        "lang": LANG,
        "title": S,
        "text": S,
        "faq": S,
        "rules": arr(obj({"cited": S, "as_of": NS, "today": NS})),
    }
)
FACE = obj({"names": mapping(S), "mana_cost": S, "type_line": S, "power": NS, "toughness": NS, "text": S})
EDITION_CHANGES = obj(
    {
        "from": EDITION,
        "counts": mapping(INT),
        "unchanged": INT,
        "changes": arr(obj({"kind": {"enum": CATEGORIES}, "old": NS, "new": NS})),
    }
)
LISTED = obj(
    {
        "id": EDITION,
        "lang": LANG,
        "date": NS,
        "current": BOOL,
        "complete": BOOL,
        "rules": INT,
        "path": S,
        "numbers": NS,
    }
)


def _rule_schemas() -> dict[str, Any]:
    """The schemas of a rule, its trace, a language's rules."""
    return {
        "Rule": obj(
            {
                "lang": LANG,
                "number": NUMBER,
                "edition": EDITION,
                "kind": {"enum": ["section", "rule", "numbered", "subrule"]},
                "title": S,
                "text": S,
                "examples": arr(S),
                "parent": NS,
                "subrules": arr(NUMBER),
                "cites": arr(CITED),
                "cited_by": arr(NUMBER),
                "glossary": arr(obj({"term": S, "slug": S})),
                "rulings": arr(MENTION),
                "today": nullable(PAIRING),
                "translations": mapping(TRANSLATION),
                "source": SOURCE,
                "references_today": nullable(arr(READING)),
            },
            optional=("references_today",),
        ),
        "Trace": obj(
            {
                "lang": LANG,
                "number": NUMBER,
                "edition": EDITION,
                "title": S,
                "editions": arr(EDITION),
                "trace": arr(STEP),
            }
        ),
        "Rules": obj({"lang": LANG, "edition": EDITION, "rules": arr(NUMBER), "titles": mapping(S)}),
    }


def _entry_schemas() -> dict[str, Any]:
    """The schemas of the glossary and its entries, the cards and a card."""
    return {
        "Glossary": obj(
            {"lang": LANG, "edition": EDITION, "entries": arr(obj({"term": S, "aliases": arr(S), "slug": S}))}
        ),
        "GlossaryEntry": obj(
            {
                "lang": LANG,
                "term": S,
                "aliases": arr(S),
                "definition": S,
                "obsolete": BOOL,
                "cites": arr(CITED),
                "edition": NS,
                "source": SOURCE,
            }
        ),
        "Cards": obj({"cards": arr(obj({"id": S, "names": mapping(S), "slug": S}))}),
        "Card": obj(
            {
                "id": S,
                "names": mapping(S),
                "faces": arr(FACE),
                "printings": arr(S),
                "rulings": arr(RULING),
                "notes": arr(NOTE),
                "rules": arr(NUMBER),
                "mentioned_in": arr(S),
            }
        ),
    }


def _edition_schemas() -> dict[str, Any]:
    """The schemas of an edition, an older numbering, the index."""
    return {
        "Edition": obj(
            {
                "id": EDITION,
                "lang": LANG,
                "date": NS,
                "current": BOOL,
                "complete": BOOL,
                "documents": arr(obj({"id": S, "title": S, "source": S})),
                "rules": INT,
                "glossary": INT,
                "previous": NS,
                "next": NS,
                "numbering": EDITION,
                "changes": nullable(EDITION_CHANGES),
            }
        ),
        "Numbers": obj(
            {
                "edition": EDITION,
                "lang": LANG,
                "today": NS,
                "numbers": mapping(
                    obj({"today": arr(NUMBER), "status": {"enum": ["same", "renumbered", "split", "gone", "unpaired"]}})
                ),
            }
        ),
        "Index": obj(
            {
                "api": {"const": "v1"},
                "kb_version": S,
                "content_hash": S,
                "reference": NS,
                "langs": arr(LANG),
                "current": mapping(EDITION),
                "editions": arr(LISTED),
                "counts": obj({"rules": mapping(INT), "glossary": mapping(INT), "cards": INT}),
                "paths": mapping(S),
                "openapi": S,
            }
        ),
    }


def schemas() -> dict[str, Any]:
    """The JSON Schema of each kind of file (and of the search endpoint's answers)."""
    found = {**_rule_schemas(), **_entry_schemas(), **_edition_schemas()}
    return {**found, "SearchResults": search_schema(), "Error": obj({"error": S})}


def search_schema() -> dict:
    """`kb search --json`'s payload, which `kb serve`'s `/api/v1/search` answers (docs/json.md)."""
    result = {
        "type": "object",
        "properties": {
            "kind": {"enum": ["rule", "glossary", "card", "ruling", "note"]},
            "id": S,
            "number": NS,
            "title": S,
            "names": {"type": ["object", "null"]},
            "langs": arr(LANG),
            "snippets": mapping(S),
            "score": {"type": "number"},
            "editions": {"type": ["object", "null"]},
            "via": S,
            "translated": arr({"type": "object"}),
            "numbers": {"type": ["object", "null"]},
            "named": mapping(S),
            "heading_named": mapping(S),
        },
        "required": ["kind", "id", "number", "title", "langs", "snippets", "score"],
    }
    return {
        "type": "object",
        "properties": {
            "query": S,
            "results": arr(result),
            "did_you_mean": NS,
            "editions": obj({"searched": arr(EDITION), "others": arr(EDITION)}),
            "elsewhere": arr(obj({"lang": LANG, "number": NUMBER, "today": NS})),
        },
        "required": ["query", "results", "did_you_mean", "editions", "elsewhere"],
    }


def _param(name: str, description: str, schema: dict | None = None, where: str = "path") -> dict:
    """A parameter of a path (required) or of a query."""
    return {"name": name, "in": where, "required": where == "path", "description": description, "schema": schema or S}


PARAMS = {
    "lang": _param("lang", "A language of the content (`en`, `fr`): `index.json`'s `langs`.", LANG),
    "number": _param("number", "A rule number of that language's current edition, in its own numbering.", NUMBER),
    "slug": _param("slug", "The entry's file name, as its index gives it (`slug`)."),
    "edition": _param("edition", "An edition of that language: its date (`2015-09-26`) or `undated`."),
}
FILES = {
    "/api/v1/index.json": ("Index", "What the API holds: languages, editions, counts, the path of each kind.", ()),
    "/api/v1/{lang}/rules.json": ("Rules", "The numbers of a language's current rules, in order.", ("lang",)),
    "/api/v1/{lang}/rules/{number}.json": (
        "Rule",
        "A rule of a language's current edition: text, subrules, citations both ways, the glossary entries and "
        "rulings citing it, and the rule it is in the other languages (`translations`, `today`) with the pairing's "
        "evidence. A number of another numbering (an older edition, a translation's own) is read with `numbers/`.",
        ("lang", "number"),
    ),
    "/api/v1/{lang}/traces/{number}.json": (
        "Trace",
        "A rule's trace: its number in every edition loaded, and how it changed in each (added, reworded, "
        "renumbered, split, merged), with word diffs.",
        ("lang", "number"),
    ),
    "/api/v1/{lang}/glossary.json": ("Glossary", "A language's glossary: terms, other names, file names.", ("lang",)),
    "/api/v1/{lang}/glossary/{slug}.json": ("GlossaryEntry", "A glossary entry.", ("lang", "slug")),
    "/api/v1/cards.json": ("Cards", "Every card: names in each language and file name.", ()),
    "/api/v1/cards/{slug}.json": (
        "Card",
        "A card: names, faces, rulings and FAQ notes with the rules they cite.",
        ("slug",),
    ),
    "/api/v1/{lang}/editions/{edition}.json": (
        "Edition",
        "An edition: date, documents, size, neighbours, and what changed since the previous edition.",
        ("lang", "edition"),
    ),
    "/api/v1/{lang}/numbers/{edition}.json": (
        "Numbers",
        "Each number of an older edition, or of a translation's own numbering, -> the reference language's rules of "
        "today it is (through lineage and the pairing; never guessed from the number).",
        ("lang", "edition"),
    ),
}


def openapi(kb: KnowledgeBase, base_url: str | None = None) -> dict[str, Any]:
    """The OpenAPI 3.1 document: the files of `api/v1/` and `kb serve`'s search."""
    paths: dict[str, Any] = {}
    for path, (schema, summary, params) in FILES.items():
        paths[path] = {
            "get": {
                "summary": summary.split(": ")[0].split(". ")[0],
                "description": summary,
                "operationId": schema[0].lower() + schema[1:],
                "parameters": [PARAMS[p] for p in params],
                "responses": {
                    "200": {"description": "The file.", "content": {"application/json": {"schema": ref(schema)}}},
                    "404": {"description": "No such file (a static host's own answer)."},
                },
            }
        }
    paths["/api/v1/search"] = {"get": _search()}
    server = base_url.rstrip("/") if base_url else ".."
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "kb: the Magic: The Gathering Comprehensive Rules, French and English",
            "version": __version__,
            "description": "Static JSON files any host serves (`api/v1/`), made by `kb build` with the site; "
            "`/api/v1/search` is answered by `kb serve` only. Keys are only ever added: ignore those you do not know.",
        },
        "servers": [{"url": server, "description": "The site's root."}],
        "paths": paths,
        "components": {"schemas": schemas()},
    }


def _search() -> dict[str, Any]:
    """`kb serve`'s search: the CLI's results as JSON."""
    kinds = {"enum": ["rule", "glossary", "card", "ruling", "note"]}
    error = {"application/json": {"schema": ref("Error")}}
    return {
        "summary": "Search rules, glossary, cards, rulings and notes (kb serve only)",
        "description": "The same results and JSON as `kb search QUERY --json`, from the same index. Answered by "
        "`kb serve`, not by a static host.",
        "operationId": "search",
        "parameters": [
            _param(
                "q",
                'The query, as `kb search` reads it (a rule number, or words, `OR`, `-word`, `"a phrase"`, '
                "`lang:`, `kind:`).",
                where="query",
            )
            | {"required": True},
            _param("lang", "Only results in this language.", LANG, "query"),
            _param("kind", "Only results of this kind.", kinds, "query"),
            _param(
                "limit",
                "At most this many results (default 10).",
                {"type": "integer", "minimum": 1, "maximum": 1000},
                "query",
            ),
        ],
        "responses": {
            "200": {"description": "The results.", "content": {"application/json": {"schema": ref("SearchResults")}}},
            "400": {"description": "A malformed query or parameter, said in one line.", "content": error},
        },
    }
