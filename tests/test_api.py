"""The static JSON API a built site holds (`api/v1/`): every file valid against the OpenAPI description's schemas,
the description itself valid OpenAPI 3.1, every rule of a current edition with its file and trace, old numbers
resolved through the numbers files, never guessed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.xdist_group("api")


@pytest.fixture(scope="module")
def api_site(bundled_site) -> Path:
    """The bundled content built with its JSON API, as `kb build` builds it."""
    return bundled_site


def load(site: Path, path: str):
    return json.loads((site / "api" / "v1" / path).read_text(encoding="utf-8"))


def schema_for(openapi: dict, path: str) -> dict | None:
    """The schema of a file's 200 answer, from the first path template of the description it matches."""
    for template, item in openapi["paths"].items():
        pattern = re.sub(r"\\\{[a-z]+\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, "/" + path):
            answer = item["get"]["responses"]["200"]["content"]["application/json"]["schema"]
            return {**answer, "components": openapi["components"]}
    return None


def test_the_description_is_valid_openapi_3_1(api_site):
    from openapi_spec_validator import validate

    openapi = json.loads((api_site / "api" / "openapi.json").read_text(encoding="utf-8"))
    validate(openapi)  # raises on any fault
    assert openapi["openapi"] == "3.1.0" and "/api/v1/search" in openapi["paths"]


@pytest.mark.slow
def test_every_file_of_the_api_is_described_and_valid(api_site):
    from jsonschema import Draft202012Validator

    openapi = json.loads((api_site / "api" / "openapi.json").read_text(encoding="utf-8"))
    validators: dict[str, Draft202012Validator] = {}
    files = sorted(p for p in (api_site / "api" / "v1").rglob("*") if p.is_file())
    wrong = []
    for file in files:
        path = file.relative_to(api_site).as_posix()
        schema = schema_for(openapi, path)
        if schema is None:
            wrong.append(f"{path}: no path of the description")
            continue
        key = json.dumps(schema["$ref"])
        validator = validators.setdefault(key, Draft202012Validator(schema))
        errors = list(validator.iter_errors(json.loads(file.read_text(encoding="utf-8"))))
        wrong += [f"{path}: {e.json_path}: {e.message}" for e in errors[:2]]
    assert len(files) > 7000 and wrong == []


def test_every_rule_of_the_current_editions_has_its_file_and_trace(api_site, bundled_kb):
    for lang, edition in bundled_kb.primary.items():
        listed = load(api_site, f"{lang}/rules.json")["rules"]
        assert listed == list(edition.rules)
        for number in edition.rules:
            assert (api_site / "api" / "v1" / lang / "rules" / f"{number}.json").is_file(), number
            assert (api_site / "api" / "v1" / lang / "traces" / f"{number}.json").is_file(), number
    index = load(api_site, "index.json")
    assert index["current"] == {"fr": "fr:undated", "en": "en:2026-01-16"} and index["reference"] == "en"


def test_a_rule_gives_its_text_subrules_citations_and_its_translation(api_site):
    trample = load(api_site, "en/rules/702.19.json")
    assert trample["text"] == "Trample" and trample["subrules"][:3] == ["702.19a", "702.19b", "702.19c"]
    assert {"term": "Trample", "slug": "trample"} in trample["glossary"]
    drawing = load(api_site, "en/rules/121.4.json")
    french = drawing["translations"]["fr"]
    assert french["number"] == "120.4" and french["via"] == "lineage" and "bibliothèque vide" in french["text"]
    own = load(api_site, "fr/rules/120.4.json")  # the French text's own numbering, today's 121.4
    assert own["today"]["number"] == "121.4" and own["today"]["lang"] == "en"
    assert load(api_site, "en/rules/704.json")["cited_by"]


def test_old_numbers_resolve_to_todays_rules_through_lineage(api_site):
    index = load(api_site, "index.json")
    older = next(e for e in index["editions"] if e["id"] == "en:2015-09-26")
    numbers = load(api_site, older["numbers"])["numbers"]
    assert numbers["120.4"] == {"today": ["121.4"], "status": "renumbered"}  # drawing from an empty library
    assert numbers["702.56"]["today"] == ["702.57"]  # forecast
    assert all(n["status"] != "same" or n["today"] for n in numbers.values())
    gone = [n for n, v in numbers.items() if v["status"] == "gone"]
    assert gone and all(numbers[n]["today"] == [] for n in gone)  # removed: no rule of today, never a guess
    french = load(api_site, "fr/numbers/undated.json")["numbers"]
    assert french["120.4"]["today"] == ["121.4"]
    assert not (api_site / "api" / "v1" / "en" / "numbers" / "2026-01-16.json").exists()  # today's: its own


def test_a_trace_an_edition_a_glossary_entry_and_a_card(api_site):
    trace = load(api_site, "en/traces/702.19d.json")["trace"]
    assert [(s["number"], s["change"]) for s in trace] == [("702.19c", "origin"), ("702.19d", "renumbered")]
    edition = load(api_site, "en/editions/2026-01-16.json")
    counts = edition["changes"]["counts"]
    assert edition["previous"] == "en:2015-09-26" and sum(counts.values()) == len(edition["changes"]["changes"])
    assert counts["pronoun"] >= 111
    glossary = load(api_site, "en/glossary.json")["entries"]
    pile = next(e for e in glossary if e["term"] == "Pile")
    assert "700.3" in [c["number"] for c in load(api_site, f"en/glossary/{pile['slug']}.json")["cites"]]
    cards = load(api_site, "cards.json")["cards"]
    isperia = next(c for c in cards if c["names"].get("en") == "Isperia the Inscrutable")
    card = load(api_site, f"cards/{isperia['slug']}.json")
    assert card["names"]["fr"] and card["faces"][0]["type_line"]


def test_extras_cannot_leave_the_site(tmp_path):
    from kb.site.output import SiteError
    from kb.site.write import write_extras

    with pytest.raises(SiteError):
        write_extras(tmp_path, [("../outside.json", "{}")])
    assert write_extras(tmp_path, [("api/v1/a.json", "{}")]) == 1


def _bot():
    """The example bot of docs/examples, loaded from its file (it is no part of kb)."""
    import importlib.util

    from .conftest import ROOT

    spec = importlib.util.spec_from_file_location("rules_bot", ROOT / "docs" / "examples" / "rules_bot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_bot_answers_from_the_static_api_alone(api_site):
    from .browsing import served

    bot = _bot()
    with served(api_site) as url:
        for where in (str(api_site), url):  # the files of a folder, and the same over HTTP
            api = bot.Api(where)
            trample = bot.answer(api, "!cr 702.19")
            assert trample.startswith("**702.19** Trample\nSubrules: 702.19a, 702.19b")
            french = bot.answer(api, "!cr règle 120.4")
            assert french.startswith("**120.4** (règle 120.4 du texte français, aujourd’hui la 121.4)")
            assert "bibliothèque vide" in french and "[en] 121.4 A player who attempts to draw" in french
            pile = bot.answer(api, "!define pile")
            assert pile.startswith("**Pile** [en]\nA temporary grouping of cards.")
            assert "today's 121.4: !cr règle 120.4" in bot.answer(api, "!cr 120.4")
            assert bot.answer(api, "!cr 702.56").startswith("**702.56** Replicate")
            assert bot.answer(api, "hello") is None and "did you mean: Trample" in bot.answer(api, "!define tramp")
    today = set(load(api_site, "en/rules.json")["rules"])
    numbers = load(api_site, "en/numbers/2015-09-26.json")["numbers"]
    moved = next(n for n, v in numbers.items() if n not in today and v["today"])  # a 2015 number no rule has today
    said = bot.answer(bot.Api(str(api_site)), f"!cr {moved}")
    assert said.startswith(f"{moved} of en:2015-09-26 is today's {numbers[moved]['today'][0]}")
