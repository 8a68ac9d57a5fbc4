"""Search: the knowledge base's records in a Whoosh index, and queries over it, shared by the CLI and the site.

In: `KnowledgeBase`. Out: ranked `SearchResult`s, and the site's JSON index. `entries` (records -> entries),
`text` (tokens, symbols, stop words), `analysis` (Whoosh analyzers and schema), `writer` (the index and its
tables), `query` (the query box), `lookup` (query words -> slots, translations), `index` (the life cycle and
Whoosh's queries), `rank` (kb's re-rank), `results`, `lexicon` (translation tables, index time), `static` (the
site's export), `store` (index folder, atomic switch). Only `analysis`, `writer` and `index` import
whoosh.
"""
