"""The French-English lexicon: mined from the parallel texts of printed cards, read from lexicon files.

In: MTGJSON v5 card dicts (`mining.Printings`), lexicon documents (`files`). Out: a `records.Lexicon`.
"""
