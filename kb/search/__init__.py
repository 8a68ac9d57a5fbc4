"""Search: the Whoosh index built from the knowledge base's records, and queries over it.

In: `KnowledgeBase`. Out: ranked `SearchResult`s. `index` (schema, analyzers, the searcher), `entries`
(records -> index entries), `query` (the query box), `text` (words, stop words, stems), `rank` (rescoring,
snippets), `store` (index folder, atomic switch). The only package that imports whoosh.
"""
