"""Parsers: one module per source kind (comprehensive rules, set FAQs, card data, references)."""
