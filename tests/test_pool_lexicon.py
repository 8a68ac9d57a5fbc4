"""The lexicon mined from the shared card pool (half of MTGJSON v5's 2022 sets, and Dissension): the terms of a
sample checked by hand against the printed cards, every keyword printed in French, every wording of "damage"."""

from __future__ import annotations

import pytest

from kb.link.lexicon.keywords import prints_keyword
from kb.link.lexicon.mining import Printings
from kb.link.lexicon.records import Lexicon
from kb.parse.cards.mtgjson5 import slim
from kb.parse.cards.stream import iter_cards
from kb.sources import fold
from tests.conftest import ROOT

CORPUS = ROOT.parent / "shared" / "corpus"
POOL = CORPUS / "mtgjson5-pool"

# 100 entries drawn at random (random.Random(24).sample of the pool lexicon's entries, drawn before any was looked
# at), each read against the French and English printed text of the card named (its French printing in the pool):
# (English term, category, the lexicon's first French term, a card printing it). 97 are right:
RIGHT = [
    ("Clash", "keyword", "Confrontez", "Oaken Brawler"),
    ("Exalted", "keyword", "Exaltation", "Noble Hierarch"),
    ("First strike", "keyword", "Initiative", "Ancestor's Chosen"),
    ("Flanking", "keyword", "Débordement", "Sidar Kondo of Jamuraa"),
    ("Foretell", "keyword", "Prédiction", "Cosmic Intervention"),
    ("Monstrosity", "keyword", "Monstruosité", "Vitality Hunter"),
    ("Protection", "keyword", "Protection", "Paladin en-Vec"),
    ("Reach", "keyword", "Portée", "Canopy Spider"),
    ("Ripple", "keyword", "Remous", "Surging Sentinels"),
    ("Strive", "keyword", "Obstination", "Solidarity of Heroes"),
    ("Tempting offer", "keyword", "Offre tentante", "Tempt with Discovery"),
    ("Threshold", "keyword", "Seuil", "Far Wanderings"),
    ("Undying", "keyword", "Survivance", "Evernight Shade"),
    ("Vigilance", "keyword", "Vigilance", "Serra Angel"),
    ("Wizardcycling", "keyword", "Recyclage de sorcier", "Vedalken Aethermage"),
    ("Plane", "type", "Plan", "Academy at Tolaria West"),
    ("Bear", "subtype", "ours", "Grizzly Bears"),
    ("Djinn", "subtype", "djinn", "Mahamoti Djinn"),
    ("Dwarf", "subtype", "nain", "Glint-Sleeve Artisan"),
    ("Estrid", "subtype", "Estrid", "Estrid, the Masked"),
    ("Gnoll", "subtype", "gnoll", "Gnoll Hunter"),
    ("God", "subtype", "dieu", "The Scarab God"),
    ("Gorgon", "subtype", "gorgonoïde", "Keepsake Gorgon"),
    ("Hippo", "subtype", "hippopotame", "Rampaging Hippo"),
    ("Jaya", "subtype", "Jaya", "Jaya Ballard"),
    ("Kaito", "subtype", "Kaito", "Kaito Shizuki"),
    ("Kaldheim", "subtype", "Kaldheim", "Skybreen"),
    ("Masticore", "subtype", "masticore", "Razormane Masticore"),
    ("Minion", "subtype", "mignon", "Phage the Untouchable"),
    ("Nephilim", "subtype", "nephilim", "Glint-Eye Nephilim"),
    ("Nomad", "subtype", "nomade", "Nomad Mythmaker"),
    ("Pilot", "subtype", "pilote", "Ovalchase Daredevil"),
    ("Rebel", "subtype", "rebelle", "Ballista Squad"),
    ("Samut", "subtype", "Samut", "Samut, the Tested"),
    ("Sheep", "subtype", "mouton", "Gatebreaker Ram"),
    ("Sorin", "subtype", "Sorin", "Sorin the Mirthless"),
    ("Urza’s", "subtype", "terrain d'Urza", "Urza's Factory"),
    ("Vivien", "subtype", "Vivien", "Vivien, Arkbow Ranger"),
    ("Weird", "subtype", "anomalie", "Melek, Izzet Paragon"),
    ("Windgrace", "subtype", "Vent des vertus", "Lord Windgrace"),
    ("Wurm", "subtype", "guivre", "Scoria Wurm"),
    ("activate", "word", "activez", "Rootwalla"),
    ("addendum", "word", "addenda", "Unbreakable Formation"),
    ("all", "word", "toutes", "Cho-Manno, Revolutionary"),
    ("artifact", "word", "artefact", "Aura of Silence"),
    ("beacon", "word", "flambeau", "Beacon of Immortality"),
    ("bear", "word", "ours", "Circle of the Moon Druid"),
    ("centaur", "word", "centaure", "Centaur Vinecrasher"),
    ("chamber", "word", "chambre", "Simic Growth Chamber"),
    ("champion", "word", "champion", "Laquatus's Champion"),
    ("chimeric", "word", "chimérique", "Chimeric Staff"),
    ("circle", "word", "cercle", "Story Circle"),
    ("clash", "word", "confrontez", "Entangling Trap"),
    ("corpse", "word", "cadavre", "Gyrus, Waker of Corpses"),
    ("counter", "word", "marqueur", "Sengir Vampire"),
    ("crackling", "word", "crépitant", "Crackling Doom"),
    ("create", "word", "créez", "Siege-Gang Commander"),
    ("demon", "word", "démon", "Skirsdag High Priest"),
    ("devoid", "word", "carence", "Cryptic Cruiser"),
    ("emissary", "word", "émissaire", "Emissary of Grudges"),
    ("equipped", "word", "équipée", "Leonin Scimitar"),
    ("except", "word", "excepté", "Viashino Runner"),
    ("flanking", "word", "débordement", "Sidar Kondo of Jamuraa"),
    ("game", "word", "partie", "Scalpelexis"),
    ("giant", "word", "géant", "Giant Spider"),
    ("guardian", "word", "vigile", "Hikari, Twilight Guardian"),
    ("heart", "word", "cœur", "Gonti's Aether Heart"),
    ("jungle", "word", "jungle", "Jungle Basin"),
    ("kicked", "word", "kické", "Everflowing Chalice"),
    ("lambholt", "word", "lambholt", "Champion of Lambholt"),
    ("leaves", "word", "quitte", "Oubliette"),
    ("lieutenant", "word", "lieutenant", "Angelic Field Marshal"),
    ("lion", "word", "lion", "Whitemane Lion"),
    ("modified", "word", "modifiée", "Chishiro, the Shattered Blade"),
    ("monster", "word", "monstre", "Sea Monster"),
    ("named", "word", "appelée", "Relentless Rats"),
    ("nissa", "word", "nissa", "Nissa, Steward of Elements"),
    ("ooze", "word", "limon", "Gelatinous Genesis"),
    ("ordeal", "word", "épreuve", "Ordeal of Heliod"),
    ("outside", "word", "dehors", "Living Wish"),
    ("paladin", "word", "paladin", "Devoted Paladin"),
    ("pegasus", "word", "pégase", "Arborea Pegasus"),
    ("plague", "word", "peste", "Kelsien, the Plague"),
    ("play", "word", "en jeu", "Ancestor's Chosen"),
    ("purphoros", "word", "purphoros", "Ordeal of Purphoros"),
    ("reach", "word", "portée", "Canopy Spider"),
    ("reveal", "word", "révélez", "Aven Windreader"),
    ("saproling", "word", "saprobionte", "Verdant Force"),
    ("sea", "word", "mer", "Sea Gate Oracle"),
    ("soul", "word", "âme", "Soul of New Phyrexia"),
    ("strider", "word", "enjambeur", "Karplusan Strider"),
    ("survivor", "word", "survivants", "Varchild, Betrayer of Kjeldor"),
    ("ten", "word", "dix", "Sword of Body and Mind"),
    ("transmute", "word", "transmutation", "Tolaria West"),
    ("undergrowth", "word", "maquis", "Lotleth Giant"),
    ("vengeful", "word", "vengeur", "Vengeful Rebel"),
    ("zone", "word", "zone", "Reyhan, Last of the Abzan"),
]
# and 3 are wrong (a compound English word whose French is a phrase; a phrase taken for a word):
WRONG = [
    ("cluestone", "word", "indiciale", "Azorius Cluestone"),  # « pierre indiciale »; « pierre » went to « stone »
    ("face", "word", "retourné face visible", "Clone Shell"),  # that is « turned face up »; « face » alone is « face »
    ("hedge-mage", "word", "haies", "Duergar Hedge-Mage"),  # « mage des haies »; « mage » went to « mage »
]


@pytest.fixture(scope="module")
def mined() -> tuple[Printings, Lexicon]:
    """The printings of the pool and Dissension, and the lexicon mined from them."""
    if not POOL.is_dir() or not (CORPUS / "mtgjson5" / "DIS.json").is_file():
        pytest.skip(f"the shared card pool is not at {POOL}")
    printings, problems = Printings(), []
    for path in sorted([CORPUS / "mtgjson5" / "DIS.json", *POOL.glob("*.json")], key=lambda p: p.name):  # as loaded
        printings.add(slim(card, code) for code, card in iter_cards(path, problems))
    return printings, printings.mine()


def _entry(lexicon: Lexicon, english: str, category: str):
    return next(e for e in lexicon.entries if e.english == english and e.category == category)


@pytest.mark.slow
@pytest.mark.xfail(
    strict=True,
    reason="the word aligner that replaced the Dice miner (kb/link/lexicon/align.py) reads card lines without the "
    "card's own name: of the 97 entries checked right, 24 name words are gone (bear → ours, soul → âme), 3 changed "
    "(play → jouer, reveal → révéler, and champion → appui, wrong); names to be aligned as units of their own",
)
def test_the_hand_checked_sample_keeps_its_terms(mined):
    _printings, lexicon = mined
    assert len(RIGHT) + len(WRONG) == 100
    found = [(english, category, _entry(lexicon, english, category).best, card) for english, category, _, card in RIGHT]
    assert found == RIGHT


@pytest.mark.slow
def test_every_keyword_printed_in_french_gets_a_french_term(mined):
    printings, lexicon = mined
    french = [card for card in printings.found.values() if any(v.french_text for v in card.versions)]
    listed = {fold(k) for card in french for k in card.keywords}
    printed = {fold(k) for card in french for k in card.keywords if prints_keyword(k, card)}
    named = {fold(e.english) for e in lexicon.entries if e.category == "keyword" and e.french}
    assert len(printed) > 180 and printed - named == set()
    # MTGJSON's umbrella keywords, printed only inside Islandwalk, Basic landcycling…: no French of their own
    assert listed - printed == {"landcycling", "landwalk"}


@pytest.mark.slow
@pytest.mark.xfail(
    strict=True,
    reason="the word aligner keeps a word's main French wordings and no variants with their sets: on the pool "
    "`damage` keeps « blessures » (1,788) and loses « dégâts » and « inflige des blessures » (old printings' wording)",
)
def test_every_wording_of_damage_is_kept_with_its_count_and_sets(mined):
    _printings, lexicon = mined
    variants = {v.text: v for v in _entry(lexicon, "damage", "word").variants}
    for wording in ("inflige des blessures", "blessures", "dégâts"):
        assert variants[wording].count >= 2 and variants[wording].sets, wording
    assert "DIS" in variants["dégâts"].sets and len(variants["blessures"].sets) > 20
    assert lexicon.english_for("dégâts") == ("damage",)
