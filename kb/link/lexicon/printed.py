"""The words printed on French cards: every word of their French names, type lines and rules text, with how many
cards print it and one of them. A word there is a French word of the game's own language, never a misspelling:
the spelling corrector leaves it as typed (« droit » is no misspelt « doit »).

In: the French printings gathered from MTGJSON v5 files (`kb.link.lexicon.mining.Printings`). Out: the text of a
printed-words table (`# kb-printed/1`, read back by `kb.parse.terms`), written by `kb lexicon --mine … --printed`.
"""

from __future__ import annotations

import re
import textwrap

from kb.parse.terms import PRINTED
from kb.sources import fold

WORD = re.compile(r"[^\W\d_]+")
"""A run of letters: `l'Ingérence` gives `l` and `ingérence`."""
MIN_LETTERS = 2
"""Shorter words are left out (an elided `l`, `d`)."""


def printed_words(printings) -> dict[str, tuple[int, str]]:
    """Folded word -> (French cards printing it, the English name of the first of them), every word of the
    printings' French names, type lines and texts."""
    found: dict[str, tuple[int, str]] = {}
    for card in sorted(printings.found.values(), key=lambda c: c.name):
        words = set()
        for version in card.versions:
            text = f"{version.french_name} {version.french_type} {version.french_text}".lower()
            words.update(fold(w) for w in WORD.findall(text) if len(w) >= MIN_LETTERS)
        for word in words:
            count, example = found.get(word, (0, card.name))
            found[word] = (count + 1, example)
    return found


def printed_table(found: dict[str, tuple[int, str]], sources: list[str]) -> str:
    """The text of a printed-words table: a header naming the files mined, then `word<TAB>cards<TAB>example`."""
    named = textwrap.wrap(", ".join(sorted(set(sources))), 110, initial_indent="#   ", subsequent_indent="#   ")
    lines = [
        PRINTED,
        "# Mots imprimés sur les cartes françaises (noms, lignes de type, texte), pliés (sans accents), chacun avec le",
        "# nombre de cartes qui l'impriment et l'une d'elles (nom anglais). kb ne corrige jamais l'orthographe d'un de",
        "# ces mots : c'est un mot du jeu, pas une faute de frappe. Non officiel. Écrit par",
        f"# kb lexicon --mine … --printed à partir de {len(set(sources))} fichiers MTGJSON v5 :",
        *named,
        "# Colonnes (séparées par des tabulations) : mot<TAB>cartes<TAB>exemple",
    ]
    lines += [f"{word}\t{count}\t{example}" for word, (count, example) in sorted(found.items())]
    return "\n".join(lines) + "\n"
