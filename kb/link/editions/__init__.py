"""Editions: rules documents grouped into editions, followed from one to the next (lineage), compared.

In: the CR parse results. Out: `Edition`s, `Lineage`, the pairing of a translation with the edition it was
made from, diffs and rule histories.
"""
