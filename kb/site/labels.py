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

RULES_ADJ = {"fr": {"fr": "françaises", "en": "anglaises", "de": "allemandes", "es": "espagnoles", "it": "italiennes"}}
"""The language's adjective agreeing with `règles` where the interface's grammar needs one (else its name)."""

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
        "colon": "\u00a0:",
        "brand": "Règles MTG",
        "cr_page": "Toutes les règles sur une page",
        "cr_title": "Les Règles complètes sur une page",
        "cr_intro": (
            "Toutes les règles et le glossaire sur une seule page, pour chercher avec Ctrl+F ou imprimer. Chaque "
            "numéro mène à la page de sa règle ; le texte est en français là où la traduction le donne, sinon en "
            "anglais."
        ),
        "entry_cr": "toutes les règles et le glossaire, pour Ctrl+F et l’impression",
        "meta_site": (
            "Les Règles complètes de Magic: The Gathering en français et en anglais, côte à côte : chaque règle, le "
            "glossaire, les FAQ et les cartes, reliés, avec les changements de chaque édition."
        ),
        "skip": "Aller au contenu",
        "site_nav": "Site",
        "menu": "Menu",
        "home": "Accueil",
        "parts": "Cette page est la partie {i} sur {n}{colon}",
        "part_title": "{title} (partie {i}/{n})",
        "part": "partie {i}",
        "count": "partie\u00a0{i}/{n}",
        "cut": "Texte trop long pour la page\u00a0: {shown} premiers caractères sur {total}.",
        "full": "Texte intégral",
        "prev_part": "Partie précédente",
        "next_part": "Partie suivante",
        "nearby_parts": "Parties voisines",
        "more": "et {n} autres",
        "contents": "Sommaire",
        "glossary": "Glossaire",
        "cards": "Cartes",
        "report": "Traduction",
        "search": "Recherche",
        "search_label": "Rechercher une règle, un mot, une carte",
        "search_short": "Rechercher",
        "search_button": "Chercher",
        "search_placeholder": "120.2a, pioche, Isperia…",
        "search_placeholder_short": "Chercher…",
        "search_placeholder_mid": "120.2a, pioche…",
        "search_key": "Touche / : aller à la recherche",
        "search_needs_js": "La recherche demande JavaScript.",
        "columns": "Textes affichés",
        "columns_both": "Français et anglais côte à côte",
        "ui_switch": "Read this page in English",
        "columns_k": "Textes\u00a0:",
        "ui_switch_k": "Interface in",
        "ui_switch_lang": "English",
        "footer": "Magic: The Gathering © Wizards of the Coast. Site statique, fonctionne hors ligne.",
        "about_sources": "À propos des sources",
        "prev": "Règle précédente",
        "next": "Règle suivante",
        "nearby": "Règles voisines",
        "up": "Sommaire",
        "on_page": "Dans cette règle",
        "on_page_count": "{n} entrées",
        "on_page_count_one": "{n} entrée",
        "cited_in": "Cité dans :",
        "permalink": "Lien vers {n} (copié en cliquant)",
        "copied": "Lien copié : {n}",
        "fallback": "Absente de l’édition alignée ({aligned}) : texte des {edition}",
        "own_number": "numéro {lang} : {n}",
        "missing_page": "Texte {lang} non disponible pour la règle {n} : texte {other} ci-dessous.",
        "missing_run": "Texte {lang} non disponible pour {range} — voir le texte {other}.",
        "missing_title_extract": "Titre {lang} officiel de {n} absent de l’extrait ; ses règles suivent.",
        "missing_title": "Titre {lang} de {n} absent du texte ; ses règles suivent.",
        "moved_text": "Le texte {lang} numéroté {n} ({numbering}) est celui de la règle {today} d’aujourd’hui.",
        "removed_run": (
            "Pas de texte {lang} aujourd’hui pour {range} : ces règles de l’édition du {date} ont été supprimées "
            "depuis ; le texte {other} les donne telles qu’elles étaient."
        ),
        "has_text": "texte {lang}",
        "az": "Index alphabétique",
        "glossary_missing": "Aucun glossaire {lang} n’est chargé : voici le glossaire {other}.",
        "glossary_none": "Aucun glossaire n’est chargé.",
        "glossary_intro": (
            "Les termes du jeu tels que les Règles complètes les définissent, de A à Z, chacun avec les règles qui "
            "en disent plus."
        ),
        "glossary_cards_intro": (
            "À côté d’un terme anglais, son nom sur les cartes imprimées en français quand il est connu, et les mots "
            "que ces cartes emploient pour lui : un lien cherche ce mot dans tout le site."
        ),
        "glossary_find": "Filtrer les termes",
        "glossary_find_hint": "cimetière, graveyard…",
        "glossary_found": "{n} termes trouvés",
        "glossary_by_name": "classés par leur nom {lang}, non officiel",
        "glossary_found_one": "{n} terme trouvé",
        "card_words": "Sur les cartes en {lang}",
        "obsolete": "obsolète",
        "entries": "{n} termes",
        "entries_one": "{n} terme",
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
        "faq_cards": "Notes sur des cartes",
        "faq_cards_index": "Aller à une carte",
        "faq_trailer": "Notes de publication du forum où la FAQ a paru",
        "faq_about": "À propos de cette FAQ",
        "faq_toc": "Sur cette page",
        "faq_cards_order": "de A à Z",
        "quoted_as_of": "Règles en vigueur au {date}",
        "quoted_hint": "numérotation de l’époque ; la règle d’aujourd’hui est liée quand la correspondance est établie",
        "report_title": "Rapport de traduction",
        "report_editions": "Éditions comparées",
        "coverage": "Couverture par section",
        "section": "Section",
        "aligned": "Alignées",
        "total": "Total",
        "percent": "{n}\u00a0%",
        "only_in": "Règles dans une seule langue",
        "whole_rule": "toute la règle",
        "numbers": "{n} numéros",
        "numbers_one": "{n} numéro",
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
        "edition_extract": "Extraits des règles ({lang})",
        "extract_today": "aujourd’hui {n}",
        "effective": "en vigueur le {date}",
        "undated": "sans date",
        "numbering": "sans date, numérotation de {year}",
        "rules_count": "{n} règles",
        "rules_count_one": "{n} règle",
        "glossary_count": "{n} termes de glossaire",
        "glossary_count_one": "{n} terme de glossaire",
        "faq_item": "FAQ en {lang}",
        "faq_only": (
            "Cette FAQ n’existe qu’en {lang} : aucune version en {other} n’est chargée. Son texte est présenté tel "
            "qu’il est écrit ; la page de chaque carte met ses décisions à côté de celles, en {other}, qui disent la "
            "même chose."
        ),
        "cards_item": "Données de cartes : {n} cartes",
        "cards_item_one": "Données de cartes : {n} carte",
        "sources_title": "À propos des sources",
        "sources_intro": "Les textes dont ce site est fait, et ce que chacun apporte.",
        "sources_technical": "Détails techniques : fichiers lus et diagnostics",
        "sources_files": "Les fichiers lus pour construire ce site, tels qu’ils ont été reconnus.",
        "about_cr": "Le texte officiel des règles du jeu : l’édition que le site montre, règle par règle.",
        "about_cr_older": (
            "Une édition antérieure des règles : le site s’en sert pour l’historique de chaque règle et les pages de "
            "changements."
        ),
        "about_extract": "Quelques règles seulement, montrées avec les règles d’aujourd’hui qui leur correspondent.",
        "about_translation": (
            "Une traduction de quelques règles, numérotée comme l’édition qu’elle traduit : chaque règle est montrée "
            "à côté de la règle d’aujourd’hui qui lui correspond."
        ),
        "about_faq": (
            "Les questions et réponses publiées pour une extension : notes générales et décisions sur ses cartes, "
            "chacune reprise sur la page de sa carte."
        ),
        "about_cards": (
            "Les cartes : noms, textes imprimés et Oracle, et leurs décisions, tirés d’un fichier de données."
        ),
        "name_missing": "nom {lang} absent des données de cartes : le nom anglais est donné",
        "lexicon_item": "Lexique de kb (cartes imprimées, décisions, règles traduites) : {n} termes",
        "lexicon_item_one": "Lexique de kb (cartes imprimées, décisions, règles traduites) : {n} terme",
        "lexicon_from": "relevés sur le texte français de {n} cartes, non officiels",
        "lexicon_from_one": "relevés sur le texte français de {n} carte, non officiels",
        "about_lexicon": (
            "Les termes que les cartes imprimées en français donnent aux mots des règles : ils nomment en français "
            "(marqués *) les règles en anglais seul et les font trouver par une recherche en français ; jamais la "
            "traduction officielle des règles."
        ),
        "doc_file": "Fichier",
        "doc_lang": "Langue",
        "doc_kind": "Type",
        "doc_title": "Titre",
        "doc_date": "Date",
        "doc_edition": "Édition",
        "kind_rules": "règles",
        "kind_faq": "FAQ",
        "kind_cards": "cartes",
        "diagnostics": "À la lecture des fichiers : {e}, {w}, {n}.",
        "n_errors": "{n} erreurs",
        "n_errors_one": "{n} erreur",
        "n_warnings": "{n} avertissements",
        "n_warnings_one": "{n} avertissement",
        "n_notes": "{n} remarques",
        "n_notes_one": "{n} remarque",
        "diagnostics_all": "les donne toutes, remarques comprises (dans les termes ci-dessus, en anglais).",
        "not_found": "Page introuvable",
        "not_found_text": "Cette adresse ne correspond à aucune page du site.",
        "not_found_moved": "Les pages ont peut-être changé d’adresse : essayez le sommaire ou la recherche.",
        "history": "Historique",
        "history_summary": "Historique du texte {lang}",
        "history_count": "{n} éditions, {changed} règles changées",
        "history_same": "{n} autres règles sans changement d’une édition à l’autre.",
        "history_new": "Nouvelles le {date}{colon}",
        "history_translated": (
            "Le texte {lang} est rapproché de l’édition du {date}, la plus proche de lui parmi les éditions chargées."
        ),
        "history_stale": "traduction antérieure",
        "stale_tag": "texte {lang} modifié depuis {year}",
        "history_stale_title": "Le texte anglais a changé depuis l’édition rapprochée de la traduction",
        "diff_removed": "retiré",
        "diff_added": "ajouté",
        "status_added": "ajoutée",
        "status_removed": "supprimée",
        "status_renumbered": "renumérotée",
        "status_changed": "modifiée",
        "status_split": "scindée",
        "status_merged": "fusionnée",
        "status_same": "inchangée",
        "status_origin": "",
        "changes": "Changements",
        "changes_title": "Changements des règles ({lang}) du {old} au {new}",
        "changes_link": "règles en {lang}, du {old} au {new}",
        "changes_intro": (
            "Règle par règle, ce qui a changé d’une édition à la suivante : chaque règle est suivie d’une édition "
            "à l’autre, même quand elle change de numéro (numéros, textes et renvois comparés)."
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
        "lex_mark": "terme français non officiel (relevé sur les cartes imprimées, dans les textes français chargés "
        "ou usuel chez les joueurs), pas la traduction officielle",
        "lex_legend": "terme français non officiel (relevé sur les cartes imprimées, dans les textes français chargés "
        "ou usuel chez les joueurs), pas la traduction officielle des règles.",
        "marks": "Légende des signes",
        "mark_other": "renvoi à une règle absente de ce texte : le lien mène au texte {lang}.",
        "mark_dated": (
            "numéro d’une ancienne numérotation qu’aucune règle d’aujourd’hui ne continue (une règle supprimée "
            "depuis, par exemple)."
        ),
        "mark_miscited": (
            "la traduction cite ici un autre numéro que son original : le lien mène à la règle que cite l’original."
        ),
        "mark_missing": "règle absente des règles chargées.",
        "no_counterpart": "rapprochée d’aucune décision de {source}",
        "the_faq": "la FAQ",
        "card_text": "Texte de la carte",
        "keywords": "Capacités mot-clé",
        "printed_names": "Aussi imprimée sous le nom",
        "faq_name": "Nom {lang} tel que la FAQ l’écrit : les données de cartes n’en donnent pas.",
        "text_oracle": "Texte Oracle (la formulation de référence)",
        "text_printed": "Texte imprimé : {sets}",
        "text_printed_dated": "Texte imprimé : {sets}, {date}",
        "text_faq": "Texte tel que la FAQ l’imprime",
        "text_faq_dated": "Texte tel que la FAQ l’imprime ({date})",
        "by_set": "Par extension",
        "today_link": "→ aujourd’hui {n}",
        "via_lineage": "suivie d’édition en édition",
        "via_text": "même texte",
        "via_lexicon": "retrouvée par son titre, traduit par le lexique de kb (non officiel)",
        "stale": "Traductions à revoir : le texte anglais a changé depuis l’édition rapprochée de la traduction",
        "stale_item": "rapprochée de l’édition du {date}",
        "mismatch_edition": "Renvois comparés avec l’édition du {date}.",
        "cited_by": "Cité par :",
        "faq": "FAQ",
        "ed_rules": "règles {adj} du {date}",
        "ed_rules_undated": "règles {adj} sans date",
        "ed_extract_numbered": "extraits {lang}, numérotation {year}",
        "ed_extract_dated": "extraits {lang} du {date}",
        "ed_extract": "extraits {lang}",
        "documents": "Documents ({n})",
        "keywords_printed": "nom imprimé sur la carte",
        "search_help": "Aide à la recherche",
        "search_kinds": "Chercher dans",
        "search_kind_all": "tout",
        "search_kind_rule": "règles",
        "search_kind_glossary": "glossaire",
        "search_kind_card": "cartes",
        "search_kind_ruling": "décisions",
        "search_kind_note": "notes de FAQ",
        "search_examples": "Par exemple :",
        "search_help_text": (
            "Les résultats contenant le plus de mots viennent d’abord. Une phrase entre guillemets, "
            "« a OR b » pour l’un ou l’autre, « -mot » pour l’exclure, « lang:fr » pour une langue."
        ),
        "search_file": (
            "Cette page est ouverte depuis le disque : la recherche a besoin que le site soit servi en HTTP "
            "(commande kb serve)."
        ),
        "js_result": "{n} résultat",
        "js_results": "{n} résultats",
        "js_none": "Aucun résultat.",
        "js_mean": "Vouliez-vous dire",
        "js_other": "Voir en {lang}",
        "js_broken": "La recherche n’a pas pu charger son index.",
        "js_first": "Les {n} premiers résultats sur {total}",
        "js_more": "Plus de résultats",
        "js_kind_card": "carte",
        "js_kind_ruling": "décision",
        "js_kind_glossary": "glossaire",
        "js_kind_note": "note de FAQ",
        "js_via": "par le lexique de kb, non officiel",
        "js_via_title": (
            "Trouvé par le lexique de kb : tiré des textes parallèles (cartes imprimées, décisions de la FAQ, règles "
            "traduites), ou écrit à la main d’après les cartes imprimées (termes et mots courants) ; pas par une "
            "traduction officielle"
        ),
        "js_via_rules": "dans les mots des règles",
        "js_via_rules_title": (
            "Trouvé par la table de paraphrases de kb : les mots des joueurs reliés à ceux des règles (non officiel)"
        ),
        "query_unbalanced": 'Guillemet non fermé : fermez la phrase par " ou retirez le guillemet.',
        "query_or": "OR demande un mot de chaque côté (a OR b).",
        "query_nothing": "Rien à chercher : tapez des mots, une phrase entre guillemets ou un numéro de règle.",
        "query_excluded": "Seulement des mots exclus : tapez aussi un mot à chercher.",
        "query_kind": "Type inconnu « {value} » : choisissez parmi {allowed}.",
        "query_filter": "Valeur inconnue pour {name} : « {value} » ; choisissez parmi {allowed}.",
        "query_edition": "edition:{value} ne marche qu’en ligne de commande ; le site montre l’édition en vigueur.",
        "changes_groups": "Ce qui a changé",
        "changes_substantive": "Changements de fond",
        "changes_references": "Renvois mis à jour seulement",
        "changes_references_hint": "le texte ne change que par le numéro d’une règle renumérotée qu’il cite",
        "changes_renumberings": "Renumérotations seules",
        "changes_renumberings_hint": "même texte, nouveau numéro ; les suites de règles voisines sont regroupées",
        "changes_moved": "Déplacées",
        "changes_by_section": "Par section",
        "changes_pronouns": "Pronoms seulement",
        "changes_pronouns_hint": "« they » pour « he or she », « their » pour « his or her »…",
        "changes_filter": "Filtrer les changements",
        "changes_filter_section": "Section",
        "changes_filter_all": "toutes",
        "changes_filter_rule": "Règle",
        "changes_filter_minor": "Montrer les changements des seuls pronoms ou renvois",
        "changes_shown": "{n} montrés",
        "outline": "Plan",
        "changes_section_pick": "Section",
        "changes_section_all": "Toutes les sections",
        "changes_open_all": "Tout déplier",
        "changes_close_all": "Tout replier",
        "changes_run": "{n} règles",
        "changes_typography": (
            "{n} règles ne diffèrent que par la typographie (guillemets, tirets, ™, ®) : elles comptent comme "
            "inchangées."
        ),
        "changes_moved_from": "depuis la section {section}",
        "changes_reference_label": "renvoi",
        "changes_runs_count": "{n} règles en {runs} suites",
        "kind_wording": "modifiée",
        "kind_added": "ajoutée",
        "kind_removed": "supprimée",
        "kind_moved": "déplacée",
        "kind_split": "scindée",
        "kind_merged": "fusionnée",
        "kinds_wording": "modifiées",
        "kinds_added": "ajoutées",
        "kinds_removed": "supprimées",
        "kinds_moved": "déplacées",
        "kinds_split": "scindées",
        "kinds_merged": "fusionnées",
    },
    "en": {
        "colon": ":",
        "brand": "MTG Rules",
        "cr_page": "All rules on one page",
        "cr_title": "The Comprehensive Rules on one page",
        "cr_intro": (
            "Every rule and the glossary on one page, to search with Ctrl+F or to print. Each number leads to its "
            "rule’s page."
        ),
        "entry_cr": "every rule and the glossary, for Ctrl+F and printing",
        "meta_site": (
            "The Magic: The Gathering Comprehensive Rules in French and English, side by side: every rule, the "
            "glossary, set FAQs and cards, linked, with what changed in each edition."
        ),
        "skip": "Skip to content",
        "site_nav": "Site",
        "menu": "Menu",
        "home": "Home",
        "parts": "This page is part {i} of {n}{colon}",
        "part_title": "{title} (part {i}/{n})",
        "part": "part {i}",
        "count": "part\u00a0{i}/{n}",
        "cut": "Text too long for the page: showing the first {shown} characters of {total}.",
        "full": "Full text",
        "prev_part": "Previous part",
        "next_part": "Next part",
        "nearby_parts": "Nearby parts",
        "more": "and {n} more",
        "contents": "Contents",
        "glossary": "Glossary",
        "cards": "Cards",
        "report": "Translation",
        "search": "Search",
        "search_label": "Search a rule, a word, a card",
        "search_short": "Search",
        "search_button": "Search",
        "search_placeholder": "120.2a, draw, Isperia…",
        "search_placeholder_short": "Search…",
        "search_placeholder_mid": "120.2a, draw…",
        "search_key": "Key /: go to search",
        "search_needs_js": "Search needs JavaScript.",
        "columns": "Texts shown",
        "columns_both": "French and English side by side",
        "ui_switch": "Lire cette page en français",
        "columns_k": "Texts:",
        "ui_switch_k": "Interface en",
        "ui_switch_lang": "français",
        "footer": "Magic: The Gathering © Wizards of the Coast. Static site, works offline.",
        "about_sources": "About the sources",
        "prev": "Previous rule",
        "next": "Next rule",
        "nearby": "Nearby rules",
        "up": "Contents",
        "on_page": "In this rule",
        "on_page_count": "{n} entries",
        "on_page_count_one": "{n} entry",
        "cited_in": "Mentioned in:",
        "permalink": "Link to {n} (copied on click)",
        "copied": "Link copied: {n}",
        "fallback": "Not in the aligned edition ({aligned}): text from the {edition}",
        "own_number": "{lang} number: {n}",
        "missing_page": "No {lang} text for rule {n}: the {other} text follows.",
        "missing_run": "No {lang} text for {range} — see the {other} text.",
        "missing_title_extract": "The official {lang} title of {n} is not in the extract; its rules follow.",
        "missing_title": "The {lang} title of {n} is not in the text; its rules follow.",
        "moved_text": "The {lang} text numbered {n} ({numbering}) is that of today’s rule {today}.",
        "removed_run": (
            "No {lang} text today for {range}: these rules of the edition of {date} have been removed since; the "
            "{other} text gives them as they were."
        ),
        "has_text": "{lang} text",
        "az": "A to Z",
        "glossary_missing": "No {lang} glossary is loaded: here is the {other} one.",
        "glossary_none": "No glossary is loaded.",
        "glossary_intro": (
            "The game’s terms as the Comprehensive Rules define them, A to Z, each with the rules that say more."
        ),
        "glossary_cards_intro": (
            "Beside a term, its name on cards printed in {lang} where it is known, and the words those cards use for "
            "it: a link searches the whole site for that word."
        ),
        "glossary_find": "Filter the terms",
        "glossary_find_hint": "graveyard, trample…",
        "glossary_found": "{n} terms found",
        "glossary_by_name": "sorted by their {lang} names, unofficial",
        "glossary_found_one": "{n} term found",
        "card_words": "On cards in {lang}",
        "obsolete": "obsolete",
        "entries": "{n} terms",
        "entries_one": "{n} term",
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
        "faq_cards": "Card notes",
        "faq_cards_index": "Go to a card",
        "faq_trailer": "Publishing notes of the forum where the FAQ appeared",
        "faq_about": "About this FAQ",
        "faq_toc": "On this page",
        "faq_cards_order": "A to Z",
        "quoted_as_of": "Rules as of {date}",
        "quoted_hint": "numbering of that time; today’s rule is linked where the match is established",
        "report_title": "Translation report",
        "report_editions": "Editions compared",
        "coverage": "Coverage per section",
        "section": "Section",
        "aligned": "Aligned",
        "total": "Total",
        "percent": "{n}%",
        "only_in": "Rules in one language only",
        "whole_rule": "the whole rule",
        "numbers": "{n} numbers",
        "numbers_one": "{n} number",
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
        "edition_extract": "Extracts of the rules ({lang})",
        "extract_today": "today {n}",
        "effective": "effective {date}",
        "undated": "undated",
        "numbering": "undated, {year} numbering",
        "rules_count": "{n} rules",
        "rules_count_one": "{n} rule",
        "glossary_count": "{n} glossary terms",
        "glossary_count_one": "{n} glossary term",
        "faq_item": "FAQ in {lang}",
        "faq_only": (
            "This FAQ is in {lang} only: no {other} version is loaded. Its text is shown as written; each card’s page "
            "sets its rulings beside the {other} rulings that say the same."
        ),
        "cards_item": "Card data: {n} cards",
        "cards_item_one": "Card data: {n} card",
        "sources_title": "About the sources",
        "sources_intro": "The texts this site is made of, and what each brings.",
        "sources_technical": "Technical details: files read and diagnostics",
        "sources_files": "The files read to build this site, as they were recognised.",
        "about_cr": "The official text of the game’s rules: the edition the site shows, rule by rule.",
        "about_cr_older": (
            "An earlier edition of the rules: the site uses it for each rule’s history and the changes pages."
        ),
        "about_extract": "A few rules only, shown with the rules of today they match.",
        "about_translation": (
            "A translation of a few rules, numbered as the edition it translates: each rule is shown beside the rule "
            "of today it matches."
        ),
        "about_faq": (
            "The questions and answers published for a set: general notes and rulings on its cards, each also on its "
            "card’s page."
        ),
        "about_cards": "The cards: names, printed and Oracle texts and their rulings, from a card data file.",
        "name_missing": "no {lang} name in the card data: the English name is shown",
        "lexicon_item": "kb's lexicon (printed cards, rulings, translated rules): {n} terms",
        "lexicon_item_one": "kb's lexicon (printed cards, rulings, translated rules): {n} term",
        "lexicon_from": "mined from the French text of {n} cards, unofficial",
        "lexicon_from_one": "mined from the French text of {n} card, unofficial",
        "about_lexicon": (
            "The terms French printed cards give the words of the rules: they name English-only rules in French "
            "(marked *) and let a French search find them; never the official translation of the rules."
        ),
        "doc_file": "File",
        "doc_lang": "Language",
        "doc_kind": "Kind",
        "doc_title": "Title",
        "doc_date": "Date",
        "doc_edition": "Edition",
        "kind_rules": "rules",
        "kind_faq": "FAQ",
        "kind_cards": "cards",
        "diagnostics": "Reading the files: {e}, {w}, {n}.",
        "n_errors": "{n} errors",
        "n_errors_one": "{n} error",
        "n_warnings": "{n} warnings",
        "n_warnings_one": "{n} warning",
        "n_notes": "{n} notes",
        "n_notes_one": "{n} note",
        "diagnostics_all": "lists them all, notes included.",
        "not_found": "Page not found",
        "not_found_text": "No page of the site lives at this address.",
        "not_found_moved": "Pages may have moved: try the contents or the search.",
        "history": "History",
        "history_summary": "History of the {lang} text",
        "history_count": "{n} editions, {changed} rules changed",
        "history_same": "{n} other rules unchanged from one edition to the next.",
        "history_new": "New on {date}{colon}",
        "history_translated": (
            "The {lang} text is compared with the edition of {date}, the closest to it of the editions loaded."
        ),
        "history_stale": "older translation",
        "stale_tag": "{lang} text changed since {year}",
        "history_stale_title": "The English text changed after the edition the translation is compared with",
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
        "changes_link": "{Lang} rules, from {old} to {new}",
        "changes_intro": (
            "Rule by rule, what changed from one edition to the next: each rule is followed from one edition to "
            "the other, even when its number changes (numbers, texts and references compared)."
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
        "lex_mark": "unofficial French term (found on printed cards, in the French texts loaded or in players' "
        "usage), not the official translation",
        "lex_legend": "unofficial French term (found on printed cards, in the French texts loaded or in players' "
        "usage), not the official translation of the rules.",
        "marks": "Key to the marks",
        "mark_other": "a reference to a rule this text lacks: the link leads to the {lang} text.",
        "mark_dated": "a number of an older numbering that no rule of today continues (a rule removed since, say).",
        "mark_miscited": (
            "the translation cites another number here than its original: the link leads to the rule the original "
            "cites."
        ),
        "mark_missing": "a rule not in the loaded rules.",
        "no_counterpart": "matched to no {lang} ruling of {source}",
        "the_faq": "the FAQ",
        "card_text": "Card text",
        "keywords": "Keyword abilities",
        "printed_names": "Also printed as",
        "faq_name": "The {lang} name as the FAQ writes it: the card data gives none.",
        "text_oracle": "Oracle text (the reference wording)",
        "text_printed": "Printed text: {sets}",
        "text_printed_dated": "Printed text: {sets}, {date}",
        "text_faq": "Text as the FAQ prints it",
        "text_faq_dated": "Text as the FAQ prints it ({date})",
        "by_set": "By set",
        "today_link": "→ today {n}",
        "via_lineage": "followed edition by edition",
        "via_text": "same text",
        "via_lexicon": "found by its heading, translated through kb's lexicon (unofficial)",
        "stale": "Translations to review: the English text changed after the edition the translation is compared with",
        "stale_item": "compared with the edition of {date}",
        "mismatch_edition": "References compared with the edition of {date}.",
        "cited_by": "Cited by:",
        "faq": "FAQ",
        "ed_rules": "{Lang} rules of {date}",
        "ed_rules_undated": "undated {Lang} rules",
        "ed_extract_numbered": "{Lang} extracts, {year} numbering",
        "ed_extract_dated": "{Lang} extracts of {date}",
        "ed_extract": "{Lang} extracts",
        "documents": "Documents ({n})",
        "keywords_printed": "name printed on the card",
        "search_help": "Search help",
        "search_kinds": "Search in",
        "search_kind_all": "everything",
        "search_kind_rule": "rules",
        "search_kind_glossary": "glossary",
        "search_kind_card": "cards",
        "search_kind_ruling": "rulings",
        "search_kind_note": "FAQ notes",
        "search_examples": "For example:",
        "search_help_text": (
            "Results holding the most words come first. A phrase in quotes, “a OR b” for either, “-word” to "
            "leave a word out, “lang:en” for one language."
        ),
        "search_file": "This page was opened from disk: search needs the site served over HTTP (the kb serve command).",
        "js_result": "{n} result",
        "js_results": "{n} results",
        "js_none": "No result.",
        "js_mean": "Did you mean",
        "js_other": "Show in {lang}",
        "js_broken": "Search could not load its index.",
        "js_first": "The first {n} of {total} results",
        "js_more": "More results",
        "js_kind_card": "card",
        "js_kind_ruling": "ruling",
        "js_kind_glossary": "glossary",
        "js_kind_note": "FAQ note",
        "js_via": "through kb's lexicon, unofficial",
        "js_via_title": (
            "Found through kb's lexicon: mined from parallel texts (printed cards, the FAQ's rulings, the translated "
            "rules), or written by hand from printed cards (terms and everyday words); not an official translation"
        ),
        "js_via_rules": "in the rules' words",
        "js_via_rules_title": (
            "Found through kb's paraphrase table: players' words linked to the rules' own (unofficial)"
        ),
        "query_unbalanced": 'Unbalanced quote: close the phrase with " or remove the quote.',
        "query_or": "OR needs a word on each side (a OR b).",
        "query_nothing": "Nothing to search for: type words, a phrase in quotes or a rule number.",
        "query_excluded": "Only excluded words: type a word to search for too.",
        "query_kind": "Unknown kind “{value}”: use one of {allowed}.",
        "query_filter": "Unknown {name} “{value}”: use one of {allowed}.",
        "query_edition": "edition:{value} works in the command line only; the site holds the current edition.",
        "changes_groups": "What changed",
        "changes_substantive": "Substantive changes",
        "changes_references": "References updated only",
        "changes_references_hint": "the text changes only by the number of a renumbered rule it cites",
        "changes_renumberings": "Renumberings only",
        "changes_renumberings_hint": "same text, new number; runs of neighbouring rules are grouped",
        "changes_moved": "Moved",
        "changes_by_section": "By section",
        "changes_pronouns": "Pronouns only",
        "changes_pronouns_hint": "“they” for “he or she”, “their” for “his or her”…",
        "changes_filter": "Filter the changes",
        "changes_filter_section": "Section",
        "changes_filter_all": "all",
        "changes_filter_rule": "Rule",
        "changes_filter_minor": "Show the changes only of pronouns or of references",
        "changes_shown": "{n} shown",
        "outline": "Outline",
        "changes_section_pick": "Section",
        "changes_section_all": "All sections",
        "changes_open_all": "Open all",
        "changes_close_all": "Close all",
        "changes_run": "{n} rules",
        "changes_typography": "{n} rules differ only in typography (quotes, dashes, ™, ®): they count as unchanged.",
        "changes_moved_from": "from section {section}",
        "changes_reference_label": "reference",
        "changes_runs_count": "{n} rules in {runs} runs",
        "kind_wording": "reworded",
        "kind_added": "added",
        "kind_removed": "removed",
        "kind_moved": "moved",
        "kind_split": "split",
        "kind_merged": "merged",
        "kinds_wording": "reworded",
        "kinds_added": "added",
        "kinds_removed": "removed",
        "kinds_moved": "moved",
        "kinds_split": "split",
        "kinds_merged": "merged",
    },
}


NUMBERING_WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "own_row": "{lang} {n} ({year})",
        "own_row_undated": "{lang} {n}",
        "own_row_title": (
            "Règle {n} du texte {lang}, dans sa numérotation ({edition}) ; associée à aucune règle "
            "d’aujourd’hui (lien vers cette ligne, copié en cliquant)"
        ),
        "numbering_short": "Texte {lang} : numérotation de {year}",
        "numbering_short_undated": "Texte {lang} : numérotation de l’édition traduite",
        "numbering_note": (
            "Le texte {lang} suit la numérotation des règles de {year}, l’édition chargée la plus proche de lui ; "
            "il est présenté à côté des règles d’aujourd’hui, dont les numéros peuvent différer."
        ),
        "numbering_note_undated": (
            "Le texte {lang} suit la numérotation de l’édition anglaise dont il est la traduction, qui n’est pas "
            "chargée ; il est présenté à côté des règles d’aujourd’hui, dont les numéros peuvent différer."
        ),
        "numbering_edition": "numérotation {year}",
        "numbering_unknown": "numérotation d’une édition non chargée",
        "jump_own": "{n} du texte {lang} (numérotation {year}) → {today} aujourd’hui",
        "jump_own_none": "{n} du texte {lang} (numérotation {year}) : aucune règle d’aujourd’hui",
        "jump_own_undated": "{n} du texte {lang} (sa numérotation) → {today} aujourd’hui",
        "jump_today": "{n} aujourd’hui : {title}",
        "jump_choice": "Deux règles portent le numéro {n}",
        "miscited": (
            "La traduction cite {cited}, numérotation antérieure ; son original ({year}) cite {meant}, aujourd’hui "
            "{today}"
        ),
        "miscited_gone": (
            "La traduction cite {cited}, numérotation antérieure ; son original ({year}) cite {meant}, qui n’a plus "
            "de règle aujourd’hui"
        ),
        "miscited_older": " ; {cited} était son numéro dans l’édition du {date}",
        "miscited_none": "La traduction cite {cited}, que son original ({year}) ne cite pas : pas de lien",
    },
    "en": {
        "own_row": "{lang} {n} ({year})",
        "own_row_undated": "{lang} {n}",
        "own_row_title": (
            "Rule {n} of the {lang} text, in its own numbering ({edition}); paired with no rule of today (link "
            "to this row, copied on click)"
        ),
        "numbering_short": "{Lang} text: {year} numbering",
        "numbering_short_undated": "{Lang} text: numbering of the edition it translates",
        "numbering_note": (
            "The {lang} text uses the numbering of the {year} rules, the closest edition loaded; it is shown beside "
            "today’s rules, whose numbers may differ."
        ),
        "numbering_note_undated": (
            "The {lang} text uses the numbering of the English edition it translates, which is not loaded; it is "
            "shown beside today’s rules, whose numbers may differ."
        ),
        "numbering_edition": "{year} numbering",
        "numbering_unknown": "numbering of an edition not loaded",
        "jump_own": "{n} of the {lang} text ({year} numbering) → {today} today",
        "jump_own_none": "{n} of the {lang} text ({year} numbering): no rule of today",
        "jump_own_undated": "{n} of the {lang} text (its own numbering) → {today} today",
        "jump_today": "{n} today: {title}",
        "jump_choice": "Two rules are numbered {n}",
        "miscited": (
            "The translation cites {cited}, an older numbering; its original ({year}) cites {meant}, today {today}"
        ),
        "miscited_gone": (
            "The translation cites {cited}, an older numbering; its original ({year}) cites {meant}, which no rule "
            "of today continues"
        ),
        "miscited_older": "; {cited} was its number in the edition of {date}",
        "miscited_none": "The translation cites {cited}, which its original ({year}) does not cite: not linked",
    },
}
"""Words for the translations' own numbering (own rows, the note on it), kept apart to be moved as one block."""
for _ui, _found in NUMBERING_WORDS.items():
    WORDS[_ui].update(_found)

FRENCH_SPACES = (
    ("« ", "«\u00a0"),
    (" »", "\u00a0»"),
    (" :", "\u00a0:"),
    (" ;", "\u202f;"),
    (" ?", "\u202f?"),
    (" !", "\u202f!"),
)
"""French typography: no line break inside guillemets or before a two-part punctuation mark (a narrow space before
`;`, `?` and `!`); the strings above are written with plain spaces and set so here."""


def french_spaces(text: str) -> str:
    """A French string with the spaces its punctuation takes (`Cité par :` -> `Cité par\u00a0:`)."""
    for plain, fixed in FRENCH_SPACES:
        text = text.replace(plain, fixed)
    return text


WORDS["fr"] = {key: french_spaces(text) for key, text in WORDS["fr"].items()}


def words(ui: str) -> dict[str, str]:
    """The interface words of an interface language."""
    return WORDS[ui]


def count(n: int, ui: str) -> str:
    """A count with the interface's thousands separator (`3 269`, `3,269`)."""
    return f"{n:,}".replace(",", "\u202f" if ui == "fr" else ",")


def singular(n: int, ui: str) -> bool:
    """Whether a count takes the singular in the interface language: 1 in English, 0 and 1 in French."""
    return n == 1 or (n == 0 and ui == "fr")


def counted(t: dict[str, str], key: str, n: int, ui: str, **more: object) -> str:
    """A label holding a count `{n}`, in the singular (its `<key>_one` form) where the count takes it."""
    form = t.get(f"{key}_one") if singular(n, ui) else None
    return (form or t[key]).format(n=count(n, ui), **more)


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


def miscited_title(m, ui: str) -> str:
    """What the flag on a translation's citation its original does not make says (`m`: a `Miscitation`)."""
    t, year = WORDS[ui], m.literal.year
    if m.meant is None:
        return t["miscited_none"].format(cited=m.cited, year=year)
    key = "miscited" if m.meant.today else "miscited_gone"
    said = t[key].format(cited=m.cited, year=year, meant=m.meant.number, today=m.meant.today)
    if m.confirmed:  # the newest older edition that numbered the rule so: why the translation's number is older
        said += t["miscited_older"].format(cited=m.cited, date=long_date(m.confirmed[0].split(":", 1)[-1], ui))
    return said


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


def edition_name(ui: str, lang: str, date: str | None, complete: bool, numbering: str | None = None) -> str:
    """An edition as a reader names it (`règles anglaises du 16 janvier 2026`, `French extracts, 2015 numbering`).

    `numbering`: the ISO date of the edition an extract's numbers follow (its translation's original), if known.
    """
    t, name = WORDS[ui], lang_label(lang, ui)
    names = {"lang": name, "Lang": name[:1].upper() + name[1:], "adj": RULES_ADJ.get(ui, {}).get(lang, name)}
    if complete:
        key = "ed_rules" if date else "ed_rules_undated"
        return t[key].format(**names, date=long_date(date, ui))
    if numbering:
        return t["ed_extract_numbered"].format(**names, year=numbering[:4])
    return t["ed_extract_dated"].format(**names, date=long_date(date, ui)) if date else t["ed_extract"].format(**names)


def search_words(t: dict[str, str]) -> dict[str, str]:
    """The interface words the search page's script shows (`js_…`, `query_…`), keys without their prefix, and what
    the mark of an unofficial name says (`lex_mark`)."""
    found = {key.split("_", 1)[1]: text for key, text in t.items() if key.startswith(("js_", "query_"))}
    return {**found, "lex_mark": t["lex_mark"]}
