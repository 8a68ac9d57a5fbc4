"""Rule references in English and French running text."""

from __future__ import annotations

import pytest

from kb.parse.refs import find_references, reference_targets

CASES = [
    ("(This is a state-based action. See rule 704.)", ["704"]),
    ("see rules 508.1 and 509.1.", ["508.1", "509.1"]),
    ("rule 702.21, “Banding.”", ["702.21"]),
    ("in rules 601.2b and 601.2f–h.", ["601.2b", "601.2f", "601.2g", "601.2h"]),
    ("See rules 613.1a-f.", ["613.1a", "613.1b", "613.1c", "613.1d", "613.1e", "613.1f"]),
    (
        "rules 701.27a–f, 712.9–10, and 712.18.",
        ["701.27a", "701.27b", "701.27c", "701.27d", "701.27e", "701.27f", "712.9", "712.10", "712.18"],
    ),
    ("rules 119.7–8", ["119.7", "119.8"]),
    ("rules 704.5k–p", ["704.5k", "704.5m", "704.5n", "704.5p"]),
    ("Cf. règle 704.)", ["704"]),
    ("cf. règles 508.1 et 509.1", ["508.1", "509.1"]),
    ("voir règle 504.1.", ["504.1"]),
    ("(Cf. règle 603, « Gérer les capacités déclenchées. »)", ["603"]),
    ("Dans une partie d’Archenemy (cf. règle 904), … Cf. règle 701.21.", ["904", "701.21"]),
    ("See section 8, “Multiplayer Rules.”", ["8"]),
    ("See rule 113, “Abilities,” and section 6, “Spells, Abilities, and Effects.”", ["113", "6"]),
    ("rule 100.2, 3 cards", ["100.2"]),
    ("a player with 20 life draws 7 cards (rules matter)", []),
    # Ranges in words, case-insensitive letters, section ranges.
    ("rules 509.1 through 509.3", ["509.1", "509.2", "509.3"]),
    ("rules 509.1 to 509.3", ["509.1", "509.2", "509.3"]),
    ("règles 509.1 à 509.3", ["509.1", "509.2", "509.3"]),
    ("rules 601.2a through 601.2c", ["601.2a", "601.2b", "601.2c"]),
    ("See Rule 120.2A.", ["120.2a"]),
    ("sections 1–3", ["1", "2", "3"]),
    ("rules 704 through 706", ["704", "705", "706"]),
    ("See rule 601.2 to determine the cost.", ["601.2"]),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reference_targets(text, expected):
    assert reference_targets(text) == expected


def test_offsets_point_at_the_numbers():
    text = "See rules 508.1 and 601.2f–h."
    spans = [text[m.start : m.end] for m in find_references(text)]
    assert spans == ["508.1", "601.2f–h"]
