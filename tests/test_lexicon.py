"""Tests for the MTGJSON v5 stream reader (kb/parse/cards/stream.py) and the mined lexicon (kb/link/lexicon/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kb.link.lexicon.files import lexicon_from_json, lexicon_to_json
from kb.link.lexicon.mining import mine as mine_lexicon
from kb.link.lexicon.records import ExampleCard, Lexicon
from kb.parse.cards.stream import MAX_DEPTH, iter_cards, looks_like_mtgjson5, read_cards
from kb.sources.text import fold

ROOT = Path(__file__).resolve().parent.parent
V5 = ROOT / "tests" / "fixtures" / "mtgjson5"
SETS = ("DIS", "10E", "FUT", "C16", "C20", "MH2")
SHARED = ROOT.parent / "shared" / "corpus" / "mtgjson5"

# Keyword -> French term, each checked by hand in the French printed text of a card with that keyword
# (grep -o '"Piétinement' tests/fixtures/mtgjson5/*.json and reading the card). Left out: Chroma (FUT prints
# no French ability word), Landwalk and Landcycling (umbrella keywords MTGJSON adds to Islandwalk or Basic
# landcycling cards; no card prints them on their own).
KEYWORDS = [
    ("Flying", "Vol"),  # DIS Beacon Hawk: "Vol"
    ("Trample", "Piétinement"),  # DIS Dread Slag: "Piétinement"
    ("Deathtouch", "Contact mortel"),  # FUT Thornweald Archer: "Contact mortel(À chaque fois que cette c"
    ("Vigilance", "Vigilance"),  # DIS Court Hussar: "Vigilance"
    ("Haste", "Célérité"),  # DIS Stalking Vengeance: "Célérité"
    ("First strike", "Initiative"),  # DIS Rakdos Augermage: "Initiative"
    ("Double strike", "Double initiative"),  # DIS Crypt Champion: "Double initiative"
    ("Defender", "Défenseur"),  # DIS Soulsworn Jury: "Défenseur (Cette créature ne peut pas at"
    ("Reach", "Portée"),  # 10E Canopy Spider: "Portée (Cette créature peut bloquer les"
    ("Lifelink", "Lien de vie"),  # FUT Mistmeadow Skulk: "Lien de vie (À chaque fois que cette cré"
    ("Menace", "Menace"),  # C16 Ikra Shidiqi, the Usurper: "Menace"
    ("Flash", "Flash"),  # 10E Benalish Knight: "Flash (Vous pouvez jouer ce sort à tout"
    ("Fear", "Peur"),  # DIS Ratcatcher: "Peur"
    ("Shroud", "Linceul"),  # 10E Pincher Beetles: "Linceul (Cette créature ne peut pas être"
    ("Hexproof", "Défense talismanique"),  # C20 Slippery Bogbonder: "Défense talismanique"
    ("Hexproof from", "Défense talismanique contre"),  # MH2 General Ferrous Rokiric: "Défense talismanique contre le…"
    ("Indestructible", "Indestructible"),  # C16 Iroas, God of Victory: "Indestructible"
    ("Protection", "Protection"),  # DIS Guardian of the Guildpact: "Protection contre le monocolore"
    ("Enchant", "Enchanter"),  # DIS Blessing of the Nephilim: "Enchanter : créature"
    ("Equip", "Équipement"),  # DIS Rakdos Riteknife: "Équipement {2}"
    ("Cycling", "Recyclage"),  # FUT Marshaling Cry: "Recyclage {2} ({2}, défaussez-vous de ce"
    ("Basic landcycling", "Recyclage de terrain de base"),  # C16 Ancient Excavation: "Recyclage de terrain de base {2…"
    ("Plainscycling", "Recyclage de plaine"),  # C20 Eternal Dragon: "Recyclage de plaine {2} ({2}, défaussez-"
    ("Wizardcycling", "Recyclage de sorcier"),  # FUT Vedalken Aethermage: "Recyclage de sorcier {3} ({3}, défaussez"
    ("Slivercycling", "Recyclage de slivoïde"),  # FUT Homing Sliver: "Recyclage de slivoïde {3} ({3}, défausse"
    ("Flashback", "Flashback"),  # FUT Marshaling Cry: "Flashback {3}{W} (Vous pouvez jouer cett"
    ("Madness", "Folie"),  # FUT Gibbering Descent: "Folie {2}{B}{B} (Si vous vous défaussez"
    ("Kicker", "Kick"),  # FUT Molten Disaster: "Kick {R} (Vous pouvez payer un {R} suppl"
    ("Multikicker", "Multikick"),  # C16 Everflowing Chalice: "Multikick {2} (Vous pouvez payer {2} sup"
    ("Echo", "Écho"),  # FUT Deepcavern Imp: "Écho — Défaussez-vous d'une carte. (Au d"
    ("Suspend", "Suspension"),  # FUT Chronomantic Escape: "Suspension 3 — {2}{W} (Plutôt que jouer"
    ("Morph", "Mue"),  # FUT Lumithread Field: "Mue {1}{W} (Vous pouvez jouer cette cart"
    ("Megamorph", "Mégamue"),  # C16 Den Protector: "Mégamue {1}{G} (Vous pouvez lancer cette"
    ("Storm", "Déluge"),  # FUT Haze of Rage: "Déluge (Quand vous jouez ce sort, copiez"
    ("Gravestorm", "Déluge de cimetière"),  # FUT Bitter Ordeal: "Déluge de cimetière (Quand vous jouez ce"
    ("Buyback", "Rappel"),  # FUT Mystic Speculation: "Rappel {2} (Vous pouvez payer {2} supplé"
    ("Convoke", "Convocation"),  # FUT Kavu Primarch: "Convocation (Chaque créature que vous en"
    ("Delve", "Fouille"),  # FUT Logic Knot: "Fouille (Vous pouvez retirer de la parti"
    ("Cascade", "Cascade"),  # C16 Bituminous Blast: "Cascade (Quand vous lancez ce sort, exil"
    ("Changeling", "Changelin"),  # C16 Mirror Entity: "Changelin (Cette carte a tous les types"
    ("Devour", "Dévorement"),  # C16 Mycoloth: "Dévorement 2 (Au moment où cette créatur"
    ("Evoke", "Évocation"),  # C16 Reveillark: "Évocation {5}{W} (Vous pouvez lancer ce"
    ("Evolve", "Évolution"),  # C16 Fathom Mage: "Évolution (À chaque fois qu'une créature"
    ("Exalted", "Exaltation"),  # MH2 Ignoble Hierarch: "Exaltation (À chaque fois qu'une créatur"
    ("Flanking", "Débordement"),  # FUT Bogardan Lancer: "Débordement (À chaque fois qu'une créatu"
    ("Bloodthirst", "Soif de sang"),  # FUT Bogardan Lancer: "Soif de sang 1 (Si un adversaire a subi"
    ("Graft", "Greffe"),  # DIS Cytoplast Manipulator: "Greffe 2 (Cette créature arrive en jeu a"
    ("Forecast", "Prévision"),  # DIS Paladin of Prahv: "Prévision — {1}{W}, révélez le Paladin d"
    ("Hellbent", "Acharnement"),  # DIS Demon's Jester: "Acharnement — Le Bouffon du démon gagne"
    ("Shadow", "Distorsion"),  # FUT Augur il-Vec: "Distorsion (Cette créature ne peut bloqu"
    ("Split second", "Fraction de seconde"),  # FUT Take Possession: "Fraction de seconde (Tant que ce sort es"
    ("Prowess", "Prouesse"),  # C20 Niblis of Frost: "Prouesse (À chaque fois que vous lancez"
    ("Rebound", "Rebond"),  # C20 Surreal Memoir: "Rebond (Si vous lancez ce sort depuis vo"
    ("Modular", "Modularité"),  # MH2 Arcbound Javelineer: "Modularité 1 (Cette créature arrive sur"
    ("Mutate", "Mutation"),  # C20 Otrimi, the Ever-Playful: "Mutation {1}{B}{G}{U} (Si vous lancez ce"
    ("Outlast", "Résilience"),  # C16 Abzan Falconer: "Résilience {W} ({W}, {T} : Mettez un mar"
    ("Overload", "Surcharge"),  # MH2 Rise and Shine: "Surcharge {4}{U}{U} (Vous pouvez lancer"
    ("Partner", "Partenariat"),  # C16 Akiri, Line-Slinger: "Partenariat (Vous pouvez avoir deux comm"
    ("Partner with", "Partenariat avec"),  # C20 Trynn, Champion of Freedom: "Partenariat avec Silvar, dévoreur des ho"
    ("Scry", "Regard"),  # FUT Judge Unworthy: "Regard 3, puis révélez la carte du dessu"
    ("Surveil", "surveillez"),  # MH2 Foul Watcher: "surveillez 1. (Regardez la carte du dess"
    ("Proliferate", "proliférez"),  # C16 Atraxa, Praetors' Voice: "proliférez. (Vous choisissez n'importe q"
    ("Investigate", "enquêtez"),  # MH2 Search the Premises: "enquêtez. (Créez un jeton d'artefact inc"
    ("Delirium", "Délire"),  # C20 Descend upon the Sinful: "Délire — Créez un jeton de créature 4/4"
    ("Domain", "Domaine"),  # C16 Prismatic Geoscope: "Domaine — {T} : Ajoutez X manas de la co"
    ("Converge", "Convergence"),  # C16 Crystalline Crawler: "Convergence — Le Rampeur cristallin arri"
    ("Affinity", "Affinité"),  # MH2 Lens Flare: "Affinité pour les artefacts (Ce sort coû"
    ("Aftermath", "Répercussion"),  # MH2 Road // Ruin: "Répercussion (Ne lancez ce sort que depu"
    ("Dredge", "Dragage"),  # FUT Dakmor Salvage: "Dragage 2 (Si vous deviez piocher une ca"
    ("Grandeur", "Majesté"),  # FUT Oriss, Samite Guardian: "Majesté — Défaussez-vous d'une autre car"
    ("Metalcraft", "Art des métaux"),  # C16 Jor Kadeen, the Prevailer: "Art des métaux — Les créatures que vous"
    ("Miracle", "Miracle"),  # C16 Devastation Tide: "Miracle {1}{U} (Vous pouvez lancer cette"
    ("Retrace", "Pistage"),  # C16 Spitting Image: "Pistage (Vous pouvez lancer cette carte"
    ("Forestwalk", "Traversée des forêts"),  # 10E Rushwood Dryad: "Traversée des forêts (Cette créature est"
    ("Islandwalk", "Traversée des îles"),  # 10E Rootwater Commando: "Traversée des îles (Cette créature est i"
    ("Swampwalk", "Traversée des marais"),  # 10E Bog Wraith: "Traversée des marais (Cette créature est"
    ("Mountainwalk", "Traversée des montagnes"),  # 10E Rock Badger: "Traversée des montagnes (Cette créature"
    ("Eternalize", "Éternalisation"),  # MH2 Timeless Dragon: "Éternalisation {2}{W}{W} ({2}{W}{W}, exi"
    ("Living weapon", "Arme vivante"),  # C16 Bonehoard: "Arme vivante (Quand cet équipement arriv"
    ("Entwine", "Union"),  # C16 Grab the Reins: "Union {2}{R} (Choisissez les deux si vou"
    ("Join forces", "Union des forces"),  # C16 Minds Aglow: "Union des forces — En commençant par vou"
    ("Imprint", "Empreinte"),  # C20 Mimic Vat: "Empreinte — À chaque fois qu'une créatur"
    ("Hideaway", "Cachette"),  # C16 Mosswort Bridge: "Cachette (Ce terrain arrive sur le champ"
    ("Undaunted", "Témérité"),  # C16 Sublime Exhalation: "Témérité (Ce sort coûte {1} de moins à l"
    ("Vanishing", "Disparition"),  # FUT Lost Auramancers: "Disparition 3 (Ce permanent arrive en je"
    ("Unearth", "Exhumation"),  # MH2 Archfiend of Sorrows: "Exhumation {3}{B}{B} ({3}{B}{B} : Renvoy"
    ("Threshold", "Seuil"),  # C16 Far Wanderings: "Seuil — Si vous avez au moins sept carte"
    ("Strive", "Obstination"),  # C16 Solidarity of Heroes: "Obstination — La Solidarité des héros co"
    ("Fateful hour", "Heure fatidique"),  # C20 Thraben Doomsayer: "Heure fatidique — Tant que vous avez 5 p"
    ("Battalion", "Bataillon"),  # C20 Frontline Medic: "Bataillon — À chaque fois que le Carabin"
    ("Bloodrush", "Coup de sang"),  # C16 Rubblehulk: "Coup de sang — {1}{R}{G}, défaussez-vous"
    ("Landfall", "Toucheterre"),  # MH2 Tireless Provisioner: "Toucheterre — À chaque fois qu'un terrai"
    ("Goad", "incitée"),  # C20 Martial Impetus: "incitée. (Elle attaque à chaque combat s"
    ("Mill", "meule"),  # MH2 Fractured Sanity: "meule quatorze cartes."
    ("Fight", "se bat"),  # C20 Surly Badgersaur: "se bat contre jusqu'à une créature ciblé"
    ("Bushido", "Bushido"),  # MH2 Jade Avenger: "Bushido 2 (À chaque fois que cette créat"
    ("Aura Swap", "Échange d'aura"),  # FUT Arcanum Wings: "Échange d'aura {2}{U} ({2}{U} : Échangez"
    ("Transmute", "Transmutation"),  # FUT Tolaria West: "Transmutation {1}{U}{U} ({1}{U}{U}, défa"
    ("Transfigure", "Transfiguration"),  # FUT Fleshwrither: "Transfiguration {1}{B}{B} ({1}{B}{B}, sa"
    ("Fortify", "Fortification"),  # FUT Darksteel Garrison: "Fortification {3} ({3} : Attachez au ter"
    ("Sunburst", "Solarisation"),  # C16 Etched Oracle: "Solarisation (Cette carte arrive sur le"
    ("Cipher", "Cryptage"),  # C16 Whispering Madness: "Cryptage (Vous pouvez ensuite exiler cet"
    ("Channel", "Transfert"),  # MH2 Ghost-Lit Drifter: "Transfert — {X}{U}, défaussez-vous de la"
    ("Dash", "Précipitation"),  # MH2 Ragavan, Nimble Pilferer: "Précipitation {1}{R} (Vous pouvez lancer"
    ("Exploit", "Exploitation"),  # MH2 Loathsome Curator: "Exploitation (Quand cette créature arriv"
    ("Extort", "Extorsion"),  # C16 Blind Obedience: "Extorsion (À chaque fois que vous lancez"
    ("Escape", "Échappée"),  # MH2 Tizerus Charger: "Échappée — {4}{B}, exilez cinq autres ca"
    ("Adapt", "Adaptez"),  # MH2 Knighted Myr: "Adaptez 1. (Si cette créature n'a pas de"
    ("Amass", "amassez"),  # MH2 Lazotep Chancellor: "amassez 2. (Mettez deux marqueurs +1/+1"
    ("Bolster", "renforcement"),  # C16 Elite Scaleguard: "renforcement 2. (Choisissez une créature"
    ("Support", "soutenez"),  # C20 Together Forever: "soutenez 2. (Ciblez jusqu'à deux créatur"
    ("Manifest", "manifestez"),  # C16 Ghastly Conscription: "manifestez ces cartes. (Pour manifester"
    ("Monstrosity", "Monstruosité"),  # C20 Vitality Hunter: "Monstruosité X. (Si cette créature n'est"
    ("Reinforce", "Renfort"),  # MH2 Break Ties: "Renfort 1 — {W} ({W}, défaussez-vous de"
    ("Renown", "Réputation"),  # MH2 Constable of the Realm: "Réputation 2 (Quand cette créature infli"
    ("Replicate", "Duplication"),  # MH2 Lose Focus: "Duplication {U} (Quand vous lancez ce so"
    ("Riot", "Émeute"),  # MH2 Arcbound Slasher: "Émeute (Cette créature arrive sur le cha"
    ("Scavenge", "Récupération"),  # C20 Boneyard Mycodrax: "Récupération {4}{B} ({4}{B}, exilez cett"
    ("Undying", "Survivance"),  # C20 Vorapede: "Survivance (Quand cette créature meurt,"
    ("Melee", "Mêlée"),  # C20 Adriana, Captain of the Guard: "Mêlée (À chaque fois que cette créature"
    ("Morbid", "Morbidité"),  # MH2 Funnel-Web Recluse: "Morbidité — Quand la Recluse à toile en"
    ("Revolt", "Révolte"),  # C20 Solemn Recruit: "Révolte — Au début de votre étape de fin"
    ("Ferocious", "Férocité"),  # C16 Shamanic Revelation: "Férocité — Vous gagnez 4 points de vie p"
    ("Parley", "Pourparler"),  # C16 Selvala, Explorer Returned: "Pourparler — {T} : Chaque joueur révèle"
    ("Tempting offer", "Offre tentante"),  # C16 Tempt with Discovery: "Offre tentante — Cherchez dans votre bib"
    ("Spell mastery", "Maîtrise de sort"),  # C20 Animist's Awakening: "Maîtrise de sort — S'il y a au moins deu"
    ("Lieutenant", "Lieutenant"),  # C16 Thunderfoot Baloth: "Lieutenant — Tant que vous contrôlez vot"
    ("Enrage", "Rage"),  # MH2 Urban Daggertooth: "Rage — À chaque fois que le Scramasaxe u"
    ("Jump-start", "Relancez"),  # C20 Chemister's Insight: "Relancez (Vous pouvez lancer cette carte"
    ("Fateseal", "destin"),  # FUT Mesmeric Sliver: "destin 1. » (Son contrôleur regarde la c"
    ("Assemble", "assembler"),  # FUT Steamflogger Boss: "assembler un appareil, il assemble deux"
]


@pytest.fixture(scope="module")
def cards() -> list[dict]:
    """Every card of the six bundled set files."""
    problems: list[str] = []
    found = [card for code in SETS for _, card in iter_cards(V5 / f"{code}.json", problems)]
    assert problems == []
    return found


@pytest.fixture(scope="module")
def lexicon(cards) -> Lexicon:
    return mine_lexicon(cards)


def first(lexicon: Lexicon, english: str, category: str) -> str:
    found = lexicon.french_for(english, category)
    return found[0] if found else ""


# --- the stream reader on the real files ----------------------------------------------------


def test_fixtures_are_mtgjson5():
    for code in SETS:
        assert looks_like_mtgjson5((V5 / f"{code}.json").read_bytes()[:4096]), code


def test_fixtures_are_byte_for_byte_copies():
    if not SHARED.is_dir():
        pytest.skip(f"the shared corpus is not here ({SHARED}): nothing to compare the fixtures with")
    for code in SETS:
        assert (V5 / f"{code}.json").read_bytes() == (SHARED / f"{code}.json").read_bytes(), code


def test_reads_every_card_with_its_set_code():
    counts = {}
    for code in SETS:
        found, problems = read_cards(V5 / f"{code}.json")
        assert problems == []
        assert {c for c, _ in found} == {code}
        counts[code] = len(found)
    assert counts == {"DIS": 190, "10E": 508, "FUT": 180, "C16": 353, "C20": 323, "MH2": 497}


def test_cards_equal_what_json_load_gives():
    found, _ = read_cards(V5 / "DIS.json")
    data = json.loads((V5 / "DIS.json").read_bytes())
    assert [card for _, card in found] == data["data"]["cards"]
    assert isinstance(found[0][1]["manaValue"], float)


def test_v3_file_is_not_v5():
    v3 = (ROOT / "tests" / "fixtures" / "mtgjson3-DIS.json").read_bytes()
    assert not looks_like_mtgjson5(v3[:4096])
    assert not looks_like_mtgjson5(b"")
    assert not looks_like_mtgjson5(b"[[[[")
    assert looks_like_mtgjson5(b'\xef\xbb\xbf{"meta": {"date": "2022-04-25", "vers')
    assert looks_like_mtgjson5(b'{"data": {"10E": {"baseSetSize": 3')


# --- the stream reader on broken files ------------------------------------------------------


def stream(tmp_path: Path, data: bytes) -> tuple[list[tuple[str, dict]], list[str]]:
    path = tmp_path / "set.json"
    path.write_bytes(data)
    return read_cards(path)


def test_truncated_file_keeps_cards_read_before(tmp_path):
    data = b'{"meta": {}, "data": {"code": "XYZ", "cards": [{"name": "A", "setCode": "XYZ"}, {"name": "B", "te'
    found, problems = stream(tmp_path, data)
    assert [c["name"] for _, c in found] == ["A"]
    assert len(problems) == 1
    assert f"truncated JSON at byte {len(data)}" in problems[0]
    assert "after card 1" in problems[0] and "1 card(s) read before it kept" in problems[0]


def test_invalid_json_names_the_byte_offset(tmp_path):
    data = b'{"data": {"cards": [{"name": "A"}, {"name": nope}]}}'
    found, problems = stream(tmp_path, data)
    assert [c["name"] for _, c in found] == ["A"]
    assert len(problems) == 1 and "invalid JSON near byte" in problems[0]
    offset = int(problems[0].split("near byte ")[1].split(":")[0])
    assert data.index(b"nope") <= offset <= data.index(b"nope") + 1


def test_invalid_json_deep_in_a_large_file(tmp_path):
    cards = ",".join(json.dumps({"name": f"Card {i}", "text": "x" * 200}) for i in range(2000))
    data = ('{"data": {"cards": [' + cards + ', {"name": "bad" : 1}]}}').encode()
    found, problems = stream(tmp_path, data)
    assert len(found) == 2000
    offset = int(problems[0].split("near byte ")[1].split(":")[0])
    assert abs(offset - data.index(b'"bad" :') - 6) <= 2


def test_deep_nesting_never_raises(tmp_path):
    deep = b"[" * 10_000 + b"]" * 10_000
    found, problems = stream(tmp_path, deep)
    assert found == [] and problems == ["the top level is an array, expected an object with 'data'"]
    inside = b'{"data": {"cards": [{"name": "Deep", "x": ' + deep + b'}, {"name": "Fine"}]}}'
    found, problems = stream(tmp_path, inside)
    assert [c["name"] for _, c in found] == ["Fine"]
    assert problems == [f"set file card 1: nested deeper than {MAX_DEPTH} levels; skipped"]


def test_wrong_types_are_reported_and_skipped(tmp_path):
    found, problems = stream(tmp_path, b'{"data": {"code": "XYZ", "cards": 3}}')
    assert found == [] and "'cards' is a number, expected an array" in problems[0]
    found, problems = stream(tmp_path, b'{"data": {"cards": [[1, 2], "x", {"text": "no name"}, {"name": "Ok"}]}}')
    assert [c["name"] for _, c in found] == ["Ok"]
    assert problems == [
        "set file card 1: expected an object, got an array; skipped",
        "set file card 2: expected an object, got a string; skipped",
        "set file card 3: no 'name' string; skipped",
    ]
    found, problems = stream(tmp_path, b'{"name": "v3 set", "cards": [{"name": "A"}]}')
    assert found == [] and "no 'data' object with 'cards'" in problems[0]


def test_unknown_fields_and_numbers(tmp_path):
    data = b'{"data": {"cards": [{"name": "A", "zzz": {"new": [1.5, 2]}, "manaValue": 3.0, "huge": 1e400}]}}'
    found, problems = stream(tmp_path, data)
    assert problems == []
    assert found[0][1] == {"name": "A", "zzz": {"new": [1.5, 2]}, "manaValue": 3.0, "huge": "1E+400"}


def test_all_printings_layout_streams_set_by_set(tmp_path):
    data = {
        "meta": {"version": "5.2.0"},
        "data": {
            "AAA": {"code": "AAA", "cards": [{"name": "One"}], "tokens": [{"name": "Token"}]},
            "BBB": {"cards": [{"name": "Two"}, {"name": "Three", "setCode": "BBB"}], "code": "BBB"},
            "CCC": {"cards": {"name": "wrong"}},
        },
    }
    found, problems = stream(tmp_path, json.dumps(data).encode())
    assert [(code, card["name"]) for code, card in found] == [("AAA", "One"), ("BBB", "Two"), ("BBB", "Three")]
    assert problems == ["set CCC: 'cards' is an object, expected an array; skipped"]


def test_iter_cards_is_lazy_and_never_raises(tmp_path):
    problems: list[str] = []
    cards = iter_cards(tmp_path / "missing.json", problems)
    assert list(cards) == [] and "cannot read" in problems[0]
    problems = []
    stream_ = iter_cards(V5 / "MH2.json", problems)
    code, card = next(stream_)
    assert code == "MH2" and isinstance(card["name"], str)
    stream_.close()


# --- the lexicon: keywords --------------------------------------------------------------------


def test_keyword_accuracy_over_the_hand_checked_table(lexicon, cards):
    present = {k for card in cards for k in card.get("keywords", ())}
    assert len(KEYWORDS) >= 40 and {k for k, _ in KEYWORDS} <= present
    misses = [
        (k, want, first(lexicon, k, "keyword"))
        for k, want in KEYWORDS
        if fold(first(lexicon, k, "keyword")) != fold(want)
    ]
    accuracy = 1 - len(misses) / len(KEYWORDS)
    print(f"keywords right: {len(KEYWORDS) - len(misses)}/{len(KEYWORDS)} = {accuracy:.3f}; misses: {misses}")
    assert accuracy >= 0.9, misses


def test_keyword_entry_carries_evidence_and_examples(lexicon):
    (flying,) = lexicon.lookup("flying", "keyword")
    assert flying.best == "Vol" and flying.score > 0.9 and flying.evidence > 150
    assert flying.french[0].count > 150
    assert ExampleCard("Beacon Hawk", "Faucon flambeau") in flying.examples
    (deathtouch,) = lexicon.lookup("Deathtouch", "keyword")
    assert deathtouch.best == "Contact mortel" and len(deathtouch.examples) == 3


def test_a_keyword_not_printed_on_its_own_gets_no_piece_of_another(lexicon):
    # MTGJSON adds Landcycling to Basic landcycling cards and Landwalk to Islandwalk ones: their French was « de
    # terrain de base » and « des îles », pieces of the longer keywords'; Chroma's, on a card that never prints it
    assert lexicon.lookup("Landcycling", "keyword") == lexicon.lookup("Landwalk", "keyword") == ()
    assert lexicon.lookup("Chroma", "keyword") == ()
    assert first(lexicon, "Basic landcycling", "keyword") == "Recyclage de terrain de base"
    assert first(lexicon, "Islandwalk", "keyword") == "Traversée des îles"
    # Plaxmanta (10E) has Flash in MTGJSON but prints `any time you could play an instant`: not counted for Flash
    (flash,) = lexicon.lookup("Flash", "keyword")
    assert flash.best == "Flash" and flash.evidence == 28


def test_parameterised_keywords_stop_before_their_parameter(lexicon):
    assert first(lexicon, "Protection", "keyword") == "Protection"  # "Protection contre le rouge"
    assert first(lexicon, "Cycling", "keyword") == "Recyclage"  # "Recyclage {2}"
    assert first(lexicon, "Bloodthirst", "keyword") == "Soif de sang"  # "Soif de sang 1"
    assert first(lexicon, "Affinity", "keyword") == "Affinité"  # "Affinité pour les artefacts"
    assert first(lexicon, "Partner with", "keyword") == "Partenariat avec"  # "Partenariat avec Silvar, ..."


# --- the lexicon: types -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("english", "category", "french"),
    [
        ("Creature", "type", "Créature"),  # "type": "Créature : humain et soldat" (C16, 10E)
        ("Instant", "type", "Éphémère"),  # 44 x "type": "Éphémère" in 10E
        ("Sorcery", "type", "Rituel"),  # 68 x "type": "Rituel" in MH2
        ("Enchantment", "type", "Enchantement"),  # "type": "Enchantement : aura" (10E, FUT)
        ("Artifact", "type", "Artefact"),  # 27 x "type": "Artefact" in C16
        ("Land", "type", "Terrain"),  # "type": "Terrain de base : île" (10E)
        ("Legendary", "supertype", "légendaire"),  # "type": "Créature légendaire : humain et sorcier" (MH2)
        ("Human", "subtype", "humain"),
        ("Soldier", "subtype", "soldat"),
        ("Wizard", "subtype", "sorcier"),
        ("Merfolk", "subtype", "ondin"),  # "type": "Créature : ondin et sorcier" (MH2)
        ("Faerie", "subtype", "peuple fée"),  # "type": "Créature : peuple fée et éclaireur" (DIS)
        ("Aura", "subtype", "aura"),
        ("Assembly-Worker", "subtype", "ouvrier spécialisé"),  # "Créature-artefact : ouvrier spécialisé" (MH2)
        ("Monkey", "subtype", "singe"),  # Ragavan: "Créature légendaire : singe et pirate" (MH2)
    ],
)
def test_types(lexicon, english, category, french):
    assert fold(first(lexicon, english, category)) == fold(french)


def test_lookups_both_ways_ignore_case_and_accents(lexicon):
    assert lexicon.english_for("pietinement") == ("Trample",)
    assert lexicon.english_for("VOL", "keyword") == ("Flying",)
    assert lexicon.english_for("éphémère", "type") == ("Instant",)
    assert lexicon.french_for("legendary") == ("légendaire",)
    assert "Snake" in lexicon.english_for("serpent", "subtype")


# --- the lexicon: rules words -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("english", "french"),
    [
        ("draw", "piocher"),
        ("library", "bibliothèque"),
        ("graveyard", "cimetière"),
        ("sacrifice", "sacrifiez"),
        ("untap", "dégager"),
        ("tap", "engager"),
        ("counter", "marqueur"),
        ("upkeep", "entretien"),
        ("opponent", "adversaire"),
    ],
)
def test_rules_words(lexicon, english, french):
    entries = lexicon.lookup(english, "word")  # `tap` finds the entry printed `tapped`
    assert entries and entries[0].score >= 0.9 and entries[0].evidence >= 6
    assert entries[0].english in lexicon.english_for(french, "word")  # by stem: piocher ~ piochez


def test_rules_words_keep_phrases_and_inflections(lexicon):
    (battlefield,) = lexicon.lookup("battlefield", "word")  # the phrase, not its piece « champ »
    assert [t.text for t in battlefield.french] == ["champ de bataille"] and battlefield.score > 0.9
    (draw,) = lexicon.lookup("draw", "word")
    assert draw.best == "piochez" and {"pioche", "piocher"} <= set(draw.french[0].forms)
    assert lexicon.french_for("life", "word") == ("points de vie",)
    assert draw.sources == (("cards", draw.french[0].count),) and draw.examples


def test_other_translations_are_kept_and_a_conflict_is_listed_as_unsure(lexicon):
    (discard,) = lexicon.lookup("discard", "word")  # "défaussez-vous" and "défaussez": one verb, not a conflict
    assert [t.text for t in discard.french] == ["défaussez-vous", "défaussez"]
    assert discard not in lexicon.unsure()
    counts = [t.count for t in discard.french]
    assert counts == sorted(counts, reverse=True)
    less = lexicon.lookup("less", "word")[0]  # "moins" and "inférieure": two words
    assert len({t.text for t in less.french}) == 2 and less in lexicon.unsure()


def test_the_pieces_of_english_contractions_are_no_words(lexicon):
    # `doesn't` is read as `doesn` and `t`: `doesn` was aligned with « dégagement » (« ne se dégage pas »)
    assert lexicon.lookup("doesn", "word") == lexicon.lookup("don", "word") == ()


@pytest.mark.parametrize(
    ("english", "french"),
    [("turn", ["tour", "tour-ci"]), ("equipped", ["équipée", "équipement"])],
)
def test_translations_of_one_word_family_are_no_conflict(lexicon, english, french):
    # « tour » and « tour-ci » were a conflict, so `turn` was never a translation of « tour »: a French question's
    # « fin du tour » reached no English rule's turn
    (entry,) = lexicon.lookup(english, "word")
    assert [t.text for t in entry.french] == french and entry not in lexicon.unsure()


ALIGNED = [
    ("Draw a card.", "Piochez une carte."),
    ("Target player draws two cards.", "Le joueur ciblé pioche deux cartes."),
    ("Each player discards a card.", "Chaque joueur se défausse d'une carte."),
    ("Target player discards two cards at random.", "Le joueur ciblé se défausse de deux cartes au hasard."),
    ("Return target creature to its owner's hand.", "Renvoyez la créature ciblée dans la main de son propriétaire."),
    ("Each player returns a creature card from their graveyard to their hand.",
     "Chaque joueur renvoie une carte de créature de son cimetière dans sa main."),
    ("Exile target card from a graveyard.", "Exilez la carte ciblée d'un cimetière."),
    ("Each creature you control gets +1/+1.", "Chaque créature que vous contrôlez gagne +1/+1."),
]  # fmt: skip


def test_words_are_aligned_by_ibm_model_1_with_their_evidence():
    from kb.link.lexicon.align import Unit, align
    from kb.link.lexicon.parallel import word_entries

    units = [Unit("cards", f"Card {k}", en, fr) for k in range(3) for en, fr in ALIGNED]
    units += [
        Unit("rulings", f"r{k}", "The player discards a card.", "Le joueur se défausse d'une carte.") for k in range(3)
    ]
    found = {e.english: e for e in word_entries(align(units))}
    assert found["draw"].best == "piochez" and found["draw"].sources == (("cards", 6),)
    assert found["player"].best == "joueur" and found["player"].sources == (("cards", 12), ("rulings", 3))
    assert found["two"].best == "deux" and found["target"].best == "ciblé"
    assert not {"a", "the", "each"} & set(found)  # words of grammar make no entry
    alone = [Unit("cards", "Card", en, fr) for en, fr in ALIGNED]
    assert "two" not in {e.english for e in word_entries(align(alone))}  # seen twice: too little evidence


def test_a_keyword_translated_two_ways_keeps_both():
    def card(name: str, french: str, keyword: bool = True) -> dict:
        english = "Flying\nDraw a card." if keyword else "Draw a card."
        foreign = {"language": "French", "name": name + " fr", "text": french, "type": "Créature : oiseau"}
        return {"name": name, "text": english, "keywords": ["Flying"] if keyword else [], "foreignData": [foreign]}

    old = [card(f"Old {i}", "Volant\nPiochez une carte.") for i in range(4)]
    new = [card(f"New {i}", "Vol\nPiochez une carte.") for i in range(6)]
    plain = [card(f"Plain {i}", "Piochez une carte.", keyword=False) for i in range(6)]
    lexicon = mine_lexicon(old + new + plain + new[:2])
    (flying,) = lexicon.lookup("Flying", "keyword")
    assert [(t.text, t.count) for t in flying.french] == [("Vol", 6), ("Volant", 4)]
    assert flying.evidence == 10 and flying in lexicon.unsure()
    assert lexicon.english_for("volant") == ("Flying",)


def test_every_wording_of_a_keyword_is_a_variant_with_its_cards_and_sets():
    def card(name: str, french: str, code: str, keyword: bool = True) -> dict:
        foreign = {"language": "French", "name": name + " fr", "text": french + "Piochez une carte."}
        return {"name": name, "text": ("Flying\n" if keyword else "") + "Draw a card.", "setCode": code,
                "keywords": ["Flying"] if keyword else [], "foreignData": [foreign]}  # fmt: skip

    old = [card(f"Old {i}", "Volant\n", "4ED") for i in range(4)]
    new = [card(f"New {i}", "Vol\n", "M10" if i < 3 else "M11") for i in range(6)]
    plain = [card(f"Plain {i}", "", "M10", keyword=False) for i in range(6)]
    (flying,) = mine_lexicon(old + new + plain + [card("New 0", "Vol\n", "M12")]).lookup("Flying", "keyword")
    assert [(v.text, v.count, v.sets) for v in flying.variants] == [("Vol", 6, ("M10", "M12", "M11")),
                                                                    ("Volant", 4, ("4ED",))]  # fmt: skip


def test_reprints_count_once_and_bad_cards_are_ignored():
    card = {
        "name": "Bird",
        "text": "Flying",
        "keywords": ["Flying", 3],
        "types": ["Creature"],
        "foreignData": [{"language": "French", "name": "Oiseau", "text": "Vol", "type": "Créature"}, "junk"],
    }
    lexicon = mine_lexicon([card, dict(card), "not a card", {"name": 5}, {"name": "X", "foreignData": 3}])
    assert lexicon.cards == 1
    assert lexicon.lookup("Flying", "keyword")[0].evidence == 1
    assert lexicon.french_for("Creature", "type") == ("Créature",)
    assert mine_lexicon([]) == Lexicon((), 0)


def test_printings_gathered_file_by_file_mine_the_same_lexicon(cards, lexicon):
    # The load gathers each file's cards as it reads them (their dicts then let go): the lexicon is the same.
    from kb.link.lexicon.mining import Printings

    printings = Printings()
    for start in range(0, len(cards), 500):
        printings.add(cards[start : start + 500])
    assert printings.read == len(cards)
    assert printings.mine() == lexicon


def test_the_word_model_made_in_batches_aligns_as_made_at_once(cards, lexicon, monkeypatch):
    # The model works on a few units' word combinations at a time (a card pool's, made at once, held 250 MB):
    # every sum is still made in the order of one pass, so batches of any size give the same links, to the float.
    import numpy as np

    from kb.link.lexicon import align

    assert align._batches(np.array([300, 300, 900, 10, 10]), 500) == [range(1), range(1, 2), range(2, 3), range(3, 5)]
    given = []
    model = align._model
    monkeypatch.setattr(align, "_model", lambda sources, targets: given.append((sources, targets)) or model(*given[-1]))
    mine_lexicon(cards)
    assert len(given) == 2 and len(given[0][0]) > 1000  # each direction, every card line aligned
    for sources, targets in given:
        monkeypatch.setattr(align, "BATCH", 1 << 40)
        at_once = model(sources, targets)
        monkeypatch.setattr(align, "BATCH", 2000)
        assert model(sources, targets) == at_once
    monkeypatch.undo()
    assert json.dumps(lexicon_to_json(mine_lexicon(cards))) == json.dumps(lexicon_to_json(lexicon))


# --- JSON round trip ----------------------------------------------------------------------------


def test_json_round_trip(lexicon):
    data = json.loads(json.dumps(lexicon_to_json(lexicon), ensure_ascii=False))
    assert data["format"] == "kb-lexicon/1"
    assert lexicon_from_json(data) == lexicon


@pytest.mark.parametrize(
    "bad",
    [
        None,
        {"format": "other"},
        {"format": "kb-lexicon/1", "cards": 1, "entries": 3},
        {"format": "kb-lexicon/1", "cards": 1, "entries": [{"english": "x", "category": "nope"}]},
        {"format": "kb-lexicon/1", "cards": 1, "entries": [{"english": "x", "category": "word", "score": "1"}]},
    ],
)
def test_json_errors_are_value_errors(bad):
    with pytest.raises(ValueError):
        lexicon_from_json(bad)


def test_sizes_by_category(lexicon):
    sizes = lexicon.by_category()
    print(f"lexicon: {sizes}, from {lexicon.cards} cards; unsure: {len(lexicon.unsure())}")
    assert sizes["keyword"] >= 130 and sizes["type"] >= 7 and sizes["supertype"] >= 2
    assert sizes["subtype"] >= 150 and sizes["word"] >= 150


def test_a_word_entry_round_trips_with_its_sources(lexicon):
    (damage,) = lexicon.lookup("damage", "word")
    again = lexicon_from_json(json.loads(json.dumps(lexicon_to_json(lexicon))))
    assert again.lookup("damage", "word")[0] == damage and damage.sources


def test_a_lexicon_file_without_variants_still_reads():
    data = lexicon_to_json(Lexicon((), 0))
    data["entries"] = [{"english": "damage", "category": "word", "score": 1.0, "evidence": 2,
                        "french": [{"text": "blessures", "count": 2, "forms": []}], "examples": []}]  # fmt: skip
    (entry,) = lexicon_from_json(data).entries
    assert entry.variants == () and entry.best == "blessures"
