"""Link: parsed records into one knowledge base.

In: parse results. Out: `KnowledgeBase` (`kb.model.base`): editions and resolved references (`rules`),
cards merged across sources with rulings linked to cards and rules (`cards`), card lookup by name
(`lookup`); `load` runs the whole pipeline sources -> parse -> link for a content folder.
Imports `kb.model`, `kb.sources`, `kb.parse`.
"""
