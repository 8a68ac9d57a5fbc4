"""References: rule citations resolved, backlinks, a translation's citations checked, dated citations read.

In: editions and lineage. Out: `RuleLinks` (references, backlinks, the FR/EN alignment), readings of cited
numbers in their text's numbering, FAQ quotes and rulings placed in today's rules.
"""
