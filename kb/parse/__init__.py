"""Parse: decoded sources into records, one subpackage per source kind.

In: `SourceText` (from `kb.sources`). Out: records and diagnostics: `cr/` comprehensive rules (rules,
glossary, document metadata), `faq/` set FAQs (cards, rulings, notes), `cards/` card data (MTGJSON);
`refs` finds rule references in running text, `cardtext` reads costs and type lines, `dates` dates.
Imports only `kb.model` and `kb.sources`.
"""
