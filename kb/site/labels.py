"""The site's interface words in each interface language, and dates written the way each language writes them.

The interface language (`ui`) is the language of every label of a page; it is independent of the language
of the texts shown, which carry their own `lang`. Each interface language gets its own tree of pages.
"""

from __future__ import annotations

import datetime

UI_LANGS = ("fr", "en")
"""Interface languages, one tree of pages each (`fr/…`, `en/…`); the first is the default."""

LANG_NAMES = {
    "fr": {"fr": "français", "en": "anglais", "de": "allemand", "es": "espagnol", "it": "italien"},
    "en": {"fr": "French", "en": "English", "de": "German", "es": "Spanish", "it": "Italian"},
}
"""Interface language -> language code -> the language's name in that interface."""

OWN_NAMES = {"fr": "Français", "en": "English", "de": "Deutsch", "es": "Español", "it": "Italiano"}
"""A language's name in itself, for the switch to it."""

_MONTHS = {
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
           "novembre", "décembre"),
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"),
}  # fmt: skip

WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "site": "Règles de Magic",
        "colon": "\u00a0:",
        "brand": "Règles MTG",
        "skip": "Aller au contenu",
        "site_nav": "Site",
        "menu": "Menu",
        "home": "Accueil",
        "contents": "Sommaire",
        "glossary": "Glossaire",
        "cards": "Cartes",
        "report": "Traduction",
        "search": "Recherche",
        "search_label": "Rechercher une règle, un mot, une carte",
        "search_short": "Rechercher",
        "search_button": "Chercher",
        "search_placeholder": "120.2a, pioche, Isperia…",
        "search_key": "Touche / : aller à la recherche",
        "search_needs_js": "La recherche demande JavaScript.",
        "columns": "Textes affichés",
        "columns_both": "Français et anglais côte à côte",
        "ui_switch": "Read this page in English",
        "footer": "Magic: The Gathering © Wizards of the Coast. Site statique, fonctionne hors ligne.",
        "about_sources": "À propos des sources",
        "prev": "Règle précédente",
        "next": "Règle suivante",
        "nearby": "Règles voisines",
        "up": "Sommaire",
        "on_page": "Dans cette règle",
        "on_page_count": "{n} entrées",
        "cited_in": "Cité dans :",
        "permalink": "Lien vers {n} (copié en cliquant)",
        "copied": "Lien copié : {n}",
        "fallback": "Absente de l’édition alignée ({aligned}) : texte de l’édition {edition}",
        "own_number": "numéro {lang} : {n}",
        "missing_page": "Texte {lang} non disponible pour la règle {n} : texte {other} ci-dessous.",
        "missing_run": "Texte {lang} non disponible pour {range} — voir le texte {other}.",
        "removed_run": (
            "Pas de texte {lang} aujourd’hui pour {range} : règles supprimées depuis l’édition du {date}, "
            "que le texte {other} traduit."
        ),
        "has_text": "texte {lang}",
        "az": "Index alphabétique",
        "glossary_missing": "Aucun glossaire {lang} n’est chargé : voici le glossaire {other}.",
        "glossary_none": "Aucun glossaire n’est chargé.",
        "obsolete": "obsolète",
        "entries": "{n} termes",
        "card_index": "Index des cartes",
        "no_cards": "Aucune carte n’est chargée.",
        "rulings": "Décisions",
        "notes": "Notes générales",
        "mentioned_in": "Mentionnée dans",
        "unlinked_card": "carte non chargée",
        "power_toughness": "force / endurance",
        "source": "Source",
        "faq_set": "Extension",
        "faq_authors": "Auteurs",
        "faq_modified": "Modifiée le",
        "faq_prerelease": "Avant-premières",
        "faq_prerelease_end": "Fin des avant-premières",
        "faq_release": "Sortie",
        "faq_release_end": "Fin de la sortie",
        "faq_tournament_legal": "Autorisée en tournoi",
        "faq_tournament_legal_end": "Fin de l’autorisation",
        "faq_set_size": "Nombre de cartes",
        "faq_cards": "Cartes",
        "quoted_as_of": "Règles en vigueur au {date}",
        "quoted_hint": "numérotation de l’époque ; la règle d’aujourd’hui est liée quand la correspondance est établie",
        "report_title": "Rapport de traduction",
        "report_editions": "Éditions comparées",
        "coverage": "Couverture par section",
        "section": "Section",
        "aligned": "Alignées",
        "total": "Total",
        "only_in": "Règles dans une seule langue",
        "whole_rule": "toute la règle",
        "numbers": "{n} numéros",
        "fallbacks": "Absentes de l’édition alignée, montrées depuis une autre édition",
        "mismatches": "Règles alignées dont les références diffèrent",
        "rule": "Règle",
        "none": "Aucune.",
        "home_title": "Les règles de Magic en français et en anglais",
        "home_intro": (
            "Les Règles complètes de Magic: The Gathering, leurs traductions françaises, les FAQ d’extension et "
            "les cartes, reliées entre elles : chaque renvoi à une règle est un lien, chaque règle est montrée "
            "en français et en anglais côte à côte quand les deux textes existent."
        ),
        "loaded": "Textes chargés",
        "entry_points": "Par où commencer",
        "entry_contents": "Le sommaire des règles, section par section",
        "entry_glossary": "Les termes définis, de A à Z",
        "entry_cards": "Les cartes et leurs décisions",
        "entry_report": "Ce qui est traduit et ce qui manque",
        "edition_cr": "Règles complètes ({lang})",
        "edition_extract": "Extraits des règles ({lang}) : {numbers}",
        "effective": "en vigueur le {date}",
        "undated": "sans date",
        "rules_count": "{n} règles",
        "glossary_count": "{n} termes de glossaire",
        "faq_item": "FAQ : {title}",
        "cards_item": "Données de cartes : {n} cartes",
        "sources_title": "À propos des sources",
        "sources_intro": "Les fichiers lus pour construire ce site, tels qu’ils ont été reconnus.",
        "doc_file": "Fichier",
        "doc_lang": "Langue",
        "doc_kind": "Type",
        "doc_title": "Titre",
        "doc_date": "Date",
        "doc_edition": "Édition",
        "kind_rules": "règles",
        "kind_faq": "FAQ",
        "kind_cards": "cartes",
        "diagnostics": "Diagnostics : {e} erreurs, {w} avertissements, {n} notes (détail : kb check).",
        "not_found": "Page introuvable",
        "not_found_text": "Cette adresse ne correspond à aucune page du site.",
        "not_found_moved": "Les pages ont peut-être changé d’adresse : essayez le sommaire ou la recherche.",
        "history": "Historique",
        "history_summary": "Historique du texte {lang}",
        "history_count": "{n} éditions, {changed} règles changées",
        "history_same": "{n} autres règles sans changement d’une édition à l’autre.",
        "history_new": "Nouvelles le {date}{colon}",
        "history_translated": "Le texte {lang} est traduit de l’édition du {date}.",
        "history_stale": "traduction antérieure",
        "history_stale_title": "Le texte anglais a changé depuis l’édition traduite",
        "diff_removed": "retiré",
        "diff_added": "ajouté",
        "status_added": "ajoutée",
        "status_removed": "supprimée",
        "status_renumbered": "renumérotée",
        "status_changed": "texte modifié",
        "status_split": "scindée",
        "status_merged": "fusionnée",
        "status_same": "inchangée",
        "status_origin": "",
        "changes": "Changements",
        "changes_title": "Changements des règles ({lang}) du {old} au {new}",
        "changes_link": "{lang} : du {old} au {new}",
        "changes_intro": (
            "Règle par règle, ce qui a changé d’une édition à la suivante, d’après la filiation des règles "
            "(numéros, textes et renvois comparés)."
        ),
        "changes_counts": "En chiffres",
        "changes_added": "Ajoutées",
        "changes_removed": "Supprimées",
        "changes_renumbered": "Renumérotées",
        "changes_changed": "Modifiées",
        "changes_split": "Scindées",
        "changes_merged": "Fusionnées",
        "changes_unchanged": "Inchangées",
        "changes_text": "avec texte modifié",
        "entry_changes": "Ce qui a changé d’une édition à l’autre",
        "lex_mark": "terme relevé sur les cartes imprimées, pas la traduction officielle",
        "lex_legend": "terme relevé sur les cartes imprimées, pas la traduction officielle des règles.",
        "no_counterpart": "sans équivalent dans {source}",
        "the_faq": "la FAQ",
        "card_text": "Texte de la carte",
        "keywords": "Capacités mot-clé",
        "printed_names": "Aussi imprimée sous le nom",
        "by_set": "Par extension",
        "today_link": "→ aujourd’hui {n}",
        "via_lineage": "suivie d’édition en édition",
        "via_text": "même texte",
        "via_lexicon": "titre traduit par le lexique des cartes imprimées",
        "stale": "Traductions à revoir : le texte anglais a changé depuis l’édition traduite",
        "stale_item": "traduite de l’édition du {date}",
        "mismatch_edition": "Renvois comparés avec l’édition du {date}.",
    },
    "en": {
        "site": "Magic Rules",
        "colon": ":",
        "brand": "MTG Rules",
        "skip": "Skip to content",
        "site_nav": "Site",
        "menu": "Menu",
        "home": "Home",
        "contents": "Contents",
        "glossary": "Glossary",
        "cards": "Cards",
        "report": "Translation",
        "search": "Search",
        "search_label": "Search a rule, a word, a card",
        "search_short": "Search",
        "search_button": "Search",
        "search_placeholder": "120.2a, draw, Isperia…",
        "search_key": "Key /: go to search",
        "search_needs_js": "Search needs JavaScript.",
        "columns": "Texts shown",
        "columns_both": "French and English side by side",
        "ui_switch": "Lire cette page en français",
        "footer": "Magic: The Gathering © Wizards of the Coast. Static site, works offline.",
        "about_sources": "About the sources",
        "prev": "Previous rule",
        "next": "Next rule",
        "nearby": "Nearby rules",
        "up": "Contents",
        "on_page": "In this rule",
        "on_page_count": "{n} entries",
        "cited_in": "Mentioned in:",
        "permalink": "Link to {n} (copied on click)",
        "copied": "Link copied: {n}",
        "fallback": "Not in the aligned edition ({aligned}): text from edition {edition}",
        "own_number": "{lang} number: {n}",
        "missing_page": "No {lang} text for rule {n}: the {other} text follows.",
        "missing_run": "No {lang} text for {range} — see the {other} text.",
        "removed_run": (
            "No {lang} text today for {range}: rules removed since the edition of {date}, which the {other} text "
            "translates."
        ),
        "has_text": "{lang} text",
        "az": "A to Z",
        "glossary_missing": "No {lang} glossary is loaded: here is the {other} one.",
        "glossary_none": "No glossary is loaded.",
        "obsolete": "obsolete",
        "entries": "{n} terms",
        "card_index": "Card index",
        "no_cards": "No cards are loaded.",
        "rulings": "Rulings",
        "notes": "General notes",
        "mentioned_in": "Mentioned in",
        "unlinked_card": "card not loaded",
        "power_toughness": "power / toughness",
        "source": "Source",
        "faq_set": "Set",
        "faq_authors": "Authors",
        "faq_modified": "Last modified",
        "faq_prerelease": "Prerelease",
        "faq_prerelease_end": "Prerelease ends",
        "faq_release": "Release",
        "faq_release_end": "Release ends",
        "faq_tournament_legal": "Tournament legal",
        "faq_tournament_legal_end": "Tournament legal until",
        "faq_set_size": "Set size",
        "faq_cards": "Cards",
        "quoted_as_of": "Rules as of {date}",
        "quoted_hint": "numbering of that time; today’s rule is linked where the match is established",
        "report_title": "Translation report",
        "report_editions": "Editions compared",
        "coverage": "Coverage per section",
        "section": "Section",
        "aligned": "Aligned",
        "total": "Total",
        "only_in": "Rules in one language only",
        "whole_rule": "the whole rule",
        "numbers": "{n} numbers",
        "fallbacks": "Missing from the aligned edition, shown from another edition",
        "mismatches": "Aligned rules whose references differ",
        "rule": "Rule",
        "none": "None.",
        "home_title": "The Magic rules in French and English",
        "home_intro": (
            "The Magic: The Gathering Comprehensive Rules, their French translations, set FAQs and cards, "
            "linked together: every rule reference is a link, and every rule is shown in French and English "
            "side by side where both texts exist."
        ),
        "loaded": "Texts loaded",
        "entry_points": "Where to start",
        "entry_contents": "The rules’ contents, section by section",
        "entry_glossary": "The defined terms, A to Z",
        "entry_cards": "The cards and their rulings",
        "entry_report": "What is translated and what is missing",
        "edition_cr": "Comprehensive Rules ({lang})",
        "edition_extract": "Extracts of the rules ({lang}): {numbers}",
        "effective": "effective {date}",
        "undated": "undated",
        "rules_count": "{n} rules",
        "glossary_count": "{n} glossary terms",
        "faq_item": "FAQ: {title}",
        "cards_item": "Card data: {n} cards",
        "sources_title": "About the sources",
        "sources_intro": "The files read to build this site, as they were recognised.",
        "doc_file": "File",
        "doc_lang": "Language",
        "doc_kind": "Kind",
        "doc_title": "Title",
        "doc_date": "Date",
        "doc_edition": "Edition",
        "kind_rules": "rules",
        "kind_faq": "FAQ",
        "kind_cards": "cards",
        "diagnostics": "Diagnostics: {e} errors, {w} warnings, {n} notes (details: kb check).",
        "not_found": "Page not found",
        "not_found_text": "No page of the site lives at this address.",
        "not_found_moved": "Pages may have moved: try the contents or the search.",
        "history": "History",
        "history_summary": "History of the {lang} text",
        "history_count": "{n} editions, {changed} rules changed",
        "history_same": "{n} other rules unchanged from one edition to the next.",
        "history_new": "New on {date}{colon}",
        "history_translated": "The {lang} text is translated from the edition of {date}.",
        "history_stale": "older translation",
        "history_stale_title": "The English text changed after the edition translated",
        "diff_removed": "removed",
        "diff_added": "added",
        "status_added": "added",
        "status_removed": "removed",
        "status_renumbered": "renumbered",
        "status_changed": "text changed",
        "status_split": "split",
        "status_merged": "merged",
        "status_same": "unchanged",
        "status_origin": "",
        "changes": "Changes",
        "changes_title": "Changes to the {lang} rules from {old} to {new}",
        "changes_link": "{lang}: from {old} to {new}",
        "changes_intro": (
            "Rule by rule, what changed from one edition to the next, following each rule's lineage "
            "(numbers, texts and references compared)."
        ),
        "changes_counts": "In figures",
        "changes_added": "Added",
        "changes_removed": "Removed",
        "changes_renumbered": "Renumbered",
        "changes_changed": "Changed",
        "changes_split": "Split",
        "changes_merged": "Merged",
        "changes_unchanged": "Unchanged",
        "changes_text": "with text changed",
        "entry_changes": "What changed from one edition to the next",
        "lex_mark": "term found on printed cards, not the official translation",
        "lex_legend": "term found on printed cards, not the official translation of the rules.",
        "no_counterpart": "no {lang} counterpart in {source}",
        "the_faq": "the FAQ",
        "card_text": "Card text",
        "keywords": "Keyword abilities",
        "printed_names": "Also printed as",
        "by_set": "By set",
        "today_link": "→ today {n}",
        "via_lineage": "followed edition by edition",
        "via_text": "same text",
        "via_lexicon": "heading translated through the printed-card lexicon",
        "stale": "Translations to review: the English text changed after the edition translated",
        "stale_item": "translated from the edition of {date}",
        "mismatch_edition": "References compared with the edition of {date}.",
    },
}


def words(ui: str) -> dict[str, str]:
    """The interface words of an interface language."""
    return WORDS[ui]


def count(n: int, ui: str) -> str:
    """A count with the interface's thousands separator (`3 269`, `3,269`)."""
    return f"{n:,}".replace(",", "\u202f" if ui == "fr" else ",")


def lang_label(lang: str, ui: str) -> str:
    """A language's name in the interface language (`anglais`, `French`), or its code in capitals."""
    return LANG_NAMES[ui].get(lang, lang.upper())


def long_date(iso: str | None, ui: str) -> str:
    """An ISO date as the interface language writes it (`16 janvier 2026`, `January 16, 2026`)."""
    try:
        day = datetime.date.fromisoformat(iso or "")
    except ValueError:
        return iso or ""
    month = _MONTHS[ui][day.month - 1]
    if ui == "fr":
        return f"{'1er' if day.day == 1 else day.day} {month} {day.year}"
    return f"{month} {day.day}, {day.year}"


def other_ui(ui: str) -> str:
    """The interface language the switch leads to."""
    return next(lang for lang in UI_LANGS if lang != ui)


def pick(texts: dict[str, str], ui: str) -> tuple[str, str]:
    """(text, its language): the interface language's text, else the first one there is; ("", ui) when none."""
    if texts.get(ui):
        return texts[ui], ui
    for lang, text in texts.items():
        if text:
            return text, lang
    return "", ui
