"""Search: the knowledge base's records in a Whoosh index, and queries over it, shared by the CLI and the site.

In: `KnowledgeBase`. Out: ranked `SearchResult`s, and the site's JSON index. `entries` (records -> entries),
`text` (tokens, symbols, stop words, index forms), `analysis` (Whoosh analyzers and schema), `writer` (the index
and its tables; imported only to build one), `query` (the query box), `lookup` (query words -> slots,
translations, the query's language), `index` (the life cycle, Whoosh's queries, corrections, snippets), `rank`
(kb's re-rank), `results`, `lexicon` (translation tables, index time), `static` (the site's export), `store`
(index folders, tables.json, atomic switch). Only `analysis`, `writer`, `index` and `static` import whoosh.
"""
