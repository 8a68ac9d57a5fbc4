"""Cards: card data merged across files, FAQ cards matched to it, rulings paired with their translations.

In: card-data and FAQ parse results. Out: one card per Oracle card, its rulings and notes linked to the cards and
rules they name, cards found by the names people type.
"""
