"""Export: the JSON contract other tools rely on (`json`), and the card views (`cards`).

In: `KnowledgeBase`. Out: plain dicts ready for `json.dumps`, and plain-text views for the terminal.
"""
