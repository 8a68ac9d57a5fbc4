"""Search: kb's own index of the knowledge base's records, and queries over it, shared by the CLI and the site.

In: `KnowledgeBase`. Out: ranked `SearchResult`s, and the site's JSON index. `entries` (records -> entries),
`text` (tokens, symbols, stop words), `build` (analysis, terms, BM25F postings), `db` (the SQLite file),
`query` (the query box), `lookup` (query words -> terms, spelling), `lexicon` (the lexicon's translation tables,
index time), `translate` (query words across languages), `rank` (one score order), `results` (snippets), `static`
(the site's index), `store` (index folder, atomic switch), `index` (the entry point; the only module importing
whoosh, for its stemmers, at index time only).
"""
