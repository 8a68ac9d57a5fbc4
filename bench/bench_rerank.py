"""Benchmark: what each part of kb's re-rank (`kb/search/rank.py`) adds to Whoosh's BM25F, on the tuning half of the
relevance questions: hit@1, hit@3, hit@10 and MRR with the whole re-rank, with each part taken out in turn, and with
none (BM25F alone), per language.

Run: `python bench/bench_rerank.py [--half tune|heldout]`. The content folders are bench_relevance's (made when
missing). In-process: each variant sets the re-rank's constants and builds its indexes in memory (the kind
factors are written into the index).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "bench" / "relevance"))

from bench_relevance import DEFAULTS, add_lexicon, make_content  # noqa: E402
from score import first_hit, load_questions, metrics, result_ids  # noqa: E402

from kb.link.load import load  # noqa: E402
from kb.search import index as search_index  # noqa: E402
from kb.search import lookup, rank, searcher  # noqa: E402
from kb.search.entries import entries  # noqa: E402

PARTS = ("COVERAGE_POWER", "EXACT_BONUS", "HEAD_BONUS", "SECTION_BONUS", "CITED_BONUS", "CONCEPT_FACTOR", "NAMED")
VARIANTS = {
    "whole re-rank": {},
    "without coverage²": {"COVERAGE_POWER": 0.0},
    "without exact-word credit": {"EXACT_BONUS": 0.0},
    "without headword bonus": {"HEAD_BONUS": 0.0},
    "without section bonus": {"SECTION_BONUS": 0.0},
    "without cited bonus": {"CITED_BONUS": 0.0},
    "without characteristic terms": {"CONCEPT_FACTOR": 0.0},
    "without named beyond top": {"NAMED": 0},
    "without kind factors": {"KINDS": True},
    "BM25F alone": {**dict.fromkeys(PARTS[:6], 0.0), "NAMED": 0, "KINDS": True},
}
"""Each variant: the constants it changes (`KINDS`: every kind's factor 1)."""


def use(changes: dict, original: dict, kinds: dict) -> None:
    """Set the re-rank's constants for a variant (in `rank` and where `searcher` holds its own copy)."""
    for name, value in original.items():
        for module in (rank, searcher, lookup):
            if hasattr(module, name):
                setattr(module, name, changes.get(name, value))
    rank.KIND_BOOSTS.clear()
    rank.KIND_BOOSTS.update(dict.fromkeys(kinds, 1.0) if changes.get("KINDS") else kinds)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=("tune", "heldout"), default="tune")
    args = parser.parse_args(argv)
    folders = {
        None: add_lexicon(make_content(None, DEFAULTS[None])),
        "2015-09-26": make_content("2015-09-26", DEFAULTS["2015-09-26"]),
    }
    questions = [q for q in load_questions() if q["half"] == args.half]
    kbs = {edition: load(folder) for edition, folder in folders.items()}
    items = {edition: list(entries(kb)) for edition, kb in kbs.items()}
    original = {name: getattr(rank if hasattr(rank, name) else lookup, name) for name in PARTS}
    kinds = dict(rank.KIND_BOOSTS)
    langs = ("en", "fr")
    print(f"{args.half} half: " + ", ".join(f"{x} {sum(q['lang'] == x for q in questions)}" for x in langs))
    print(f"{'':28}" + "".join(f"{x + ' hit@1/3/10 MRR':>28}" for x in langs))
    try:
        for name, changes in VARIANTS.items():
            use(changes, original, kinds)
            indexes = {
                edition: search_index.memory_index(items[edition], kb.lexicon, numbering=search_index.own_numbering(kb))
                for edition, kb in kbs.items()
            }
            ranks = {}
            for q in questions:
                index = indexes.get(q["edition"]) or indexes[None]
                found = [result_ids(r.to_json()) for r in index.search(q["q"], limit=10)]
                ranks[q["id"]] = first_hit(q["expect"], found)
            row = []
            for lang in langs:
                m = metrics([ranks[q["id"]] for q in questions if q["lang"] == lang])
                row.append(f"{m['hit@1']:.3f}/{m['hit@3']:.3f}/{m['hit@10']:.3f} {m['mrr']:.3f}")
            print(f"{name:28}" + "".join(f"{cell:>28}" for cell in row), flush=True)
    finally:
        use({}, original, kinds)


if __name__ == "__main__":
    main()
