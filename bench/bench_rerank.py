"""Benchmark: what each part of kb's ranking adds to Whoosh's BM25F, on the tuning half of the relevance sets
(`bench/relevance/questions-natural.json`, `terms-fr.json`): hit@1, hit@3, hit@10 and MRR with the whole ranking,
with each part taken out in turn, and with none (BM25F over the query's slots alone), per set and language.

Run: `python bench/bench_rerank.py [--half tune|heldout] [--set natural|terms|all]`. The tuning half is the one to
read (the held-out half is for reporting, never for choosing a part). In-process, on the bundled content: each
variant sets the ranking's constants (`kb.search.rank`, `kb.search.lookup`) or leaves a table out of the vocabulary
(the paraphrases, the terminology's names, the lexicon), then makes its index in a temporary folder (the kind
factors are written into the index).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "relevance"))

from score import first_hit, metrics, result_ids  # noqa: E402

from kb.link.load import load  # noqa: E402
from kb.search import lookup, rank  # noqa: E402
from kb.search.build import engine_of  # noqa: E402
from kb.search.entries import entries, vocabulary  # noqa: E402
from kb.search.writer import own_numbering  # noqa: E402

SETS = {
    "natural": ROOT / "bench" / "relevance" / "questions-natural.json",
    "terms": ROOT / "bench" / "relevance" / "terms-fr.json",
}
CONSTANTS = {
    "COVERAGE_POWER": rank,
    "EXACT_BONUS": rank,
    "HEAD_BONUS": rank,
    "NAME_SHARE": rank,
    "SECTION_BONUS": rank,
    "CITED_BONUS": rank,
    "NAMED": rank,
    "CONCEPT_FACTOR": lookup,
}
"""The ranking's constants a variant may change, and their module."""
VARIANTS = {
    "whole ranking": {},
    "without coverage²": {"COVERAGE_POWER": 0.0},
    "without exact-word credit": {"EXACT_BONUS": 0.0},
    "without headword bonus": {"HEAD_BONUS": 0.0},
    "without terminology names": {"NAME_SHARE": 0.0},
    "without section bonus": {"SECTION_BONUS": 0.0},
    "without cited bonus": {"CITED_BONUS": 0.0},
    "without characteristic terms": {"CONCEPT_FACTOR": 0.0},
    "without named beyond top": {"NAMED": 0},
    "without kind factors": {"KINDS": True},
    "without question reading": {"QUESTIONS": True},
    "without paraphrase table": {"PARAPHRASES": True},
    "without lexicon": {"LEXICON": True},
    "BM25F alone": {
        "COVERAGE_POWER": 0.0,
        "EXACT_BONUS": 0.0,
        "HEAD_BONUS": 0.0,
        "SECTION_BONUS": 0.0,
        "CITED_BONUS": 0.0,
        "CONCEPT_FACTOR": 0.0,
        "NAMED": 0,
        "KINDS": True,
        "QUESTIONS": True,
    },
}
"""Each variant: the constants it changes (`KINDS`: every kind's factor 1; `QUESTIONS`: a question's kinds unlowered;
`PARAPHRASES`, `LEXICON`: that table left out of the vocabulary)."""


def use(changes: dict, original: dict, kinds: dict, questions: dict) -> None:
    """Set the ranking's constants for a variant."""
    for name, value in original.items():
        setattr(CONSTANTS[name], name, changes.get(name, value))
    rank.KIND_BOOSTS.clear()
    rank.KIND_BOOSTS.update(dict.fromkeys(kinds, 1.0) if changes.get("KINDS") else kinds)
    rank.QUESTION_KINDS.clear()
    rank.QUESTION_KINDS.update({} if changes.get("QUESTIONS") else questions)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=("tune", "heldout"), default="tune")
    parser.add_argument("--set", choices=("natural", "terms", "all"), default="all")
    args = parser.parse_args(argv)
    sets = {name: [q for q in json.loads(path.read_text("utf-8")) if q["half"] == args.half]
            for name, path in SETS.items() if args.set in (name, "all")}  # fmt: skip
    kb = load(ROOT / "content")
    items, numbering, words = list(entries(kb)), own_numbering(kb), vocabulary(kb)
    original = {name: getattr(module, name) for name, module in CONSTANTS.items()}
    kinds, questions = dict(rank.KIND_BOOSTS), dict(rank.QUESTION_KINDS)
    columns = [(name, lang) for name, qs in sets.items() for lang in sorted({q["lang"] for q in qs})]
    print(f"{args.half} half: " + ", ".join(f"{n}/{x} {sum(q['lang'] == x for q in sets[n])}" for n, x in columns))
    print(f"{'':30}" + "".join(f"{n + '/' + x + ' hit@1/3/10 MRR':>30}" for n, x in columns))
    try:
        for name, changes in VARIANTS.items():
            use(changes, original, kinds, questions)
            vocab = words
            if changes.get("PARAPHRASES"):
                vocab = replace(vocab, paraphrases=())
            if changes.get("LEXICON"):
                vocab = replace(vocab, lexicon=None)
            engine = engine_of(items, vocab, numbering)
            try:
                row = []
                for set_name, lang in columns:
                    ranks = []
                    for q in sets[set_name]:
                        if q["lang"] == lang:
                            found = [result_ids(r.to_json()) for r in engine.search(q["q"], limit=10)]
                            ranks.append(first_hit(q["expect"], found))
                    m = metrics(ranks)
                    row.append(f"{m['hit@1']:.3f}/{m['hit@3']:.3f}/{m['hit@10']:.3f} {m['mrr']:.3f}")
            finally:
                engine.close()
            print(f"{name:30}" + "".join(f"{cell:>30}" for cell in row), flush=True)
    finally:
        use({}, original, kinds, questions)


if __name__ == "__main__":
    main()
