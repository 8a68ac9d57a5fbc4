"""Benchmark: stream the six MTGJSON v5 set files and mine the lexicon; stream a ~100 MB AllPrintings.

Run: python bench/bench_lexicon.py   (targets: < 2 s for the six files; peak RSS < 200 MB for 100 MB)
"""

from __future__ import annotations

import json
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ijson  # noqa: E402

from kb.link.lexicon.mining import mine as mine_lexicon  # noqa: E402
from kb.parse.cards.stream import iter_cards  # noqa: E402

V5 = ROOT / "tests" / "fixtures" / "mtgjson5"
SETS = ("DIS", "10E", "FUT", "C16", "C20", "MH2")
COLD = """
import sys, time, tracemalloc
sys.path.insert(0, {root!r})
sys.path.insert(0, {root!r} + "/bench")
from bench_lexicon import peak_rss, stream_and_mine
if {trace}:
    tracemalloc.start()
start, cpu = time.perf_counter(), time.process_time()
stream_and_mine()
print(time.perf_counter() - start, time.process_time() - cpu, tracemalloc.get_traced_memory()[1], peak_rss())
"""
STREAM_ONLY = """
import sys, time
sys.path.insert(0, {root!r})
sys.path.insert(0, {root!r} + "/bench")
from bench_lexicon import peak_rss
from kb.parse.cards.stream import iter_cards
start, problems, cards, codes = time.perf_counter(), [], 0, set()
for code, _ in iter_cards({path!r}, problems):
    cards += 1
    codes.add(code)
print(cards, len(codes), len(problems), time.perf_counter() - start, peak_rss())
"""


def peak_rss() -> int:
    """This process's peak resident memory in MB (VmHWM: ru_maxrss keeps the peak of a forking parent)."""
    try:
        with open("/proc/self/status") as status:
            return int(re.search(r"VmHWM:\s+(\d+)", status.read()).group(1)) // 1024
    except (OSError, AttributeError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def stream_and_mine():
    """Stream the six set files and mine the lexicon from them."""
    problems: list[str] = []
    lexicon = mine_lexicon(card for code in SETS for _, card in iter_cards(V5 / f"{code}.json", problems))
    assert not problems and lexicon.entries
    return lexicon


def cold(trace: bool = False) -> tuple[float, float, int, int]:
    """Stream and mine in a fresh process (no warm caches): wall s, CPU s, traced peak bytes, peak RSS MB."""
    code = COLD.format(root=str(ROOT), trace=trace)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), float(out[1]), int(out[2]), int(out[3])


def write_all_printings(path: Path, target: int) -> int:
    """Write an AllPrintings-shaped file of about `target` bytes: the six sets again and again under new codes."""
    sets = {code: json.loads((V5 / f"{code}.json").read_bytes())["data"] for code in SETS}
    with path.open("w", encoding="utf-8") as out:
        out.write('{"meta": {"date": "2022-04-25", "version": "5.2.0"}, "data": {')
        count, size = 0, 0
        while size < target:
            for code, data in sets.items():
                new = f"{code}{count // len(SETS)}"
                text = json.dumps({**data, "code": new}, ensure_ascii=False)
                out.write(("," if count else "") + json.dumps(new) + ": " + text)
                count, size = count + 1, out.tell()
        out.write("}}")
    return count


def main() -> None:
    print(f"ijson backend: {ijson.backend}")
    runs = [cold() for _ in range(3)]
    walls, cpus = [r[0] for r in runs], [r[1] for r in runs]
    lexicon = stream_and_mine()
    size = sum((V5 / f"{code}.json").stat().st_size for code in SETS)
    print(f"stream + mine, 6 set files ({size / 1e6:.1f} MB, {lexicon.cards} cards with French text):")
    median, cpu, each = statistics.median(walls), statistics.median(cpus), ", ".join(f"{t:.2f}" for t in walls)
    print(f"  median of 3 fresh processes: {median:.2f} s wall, {cpu:.2f} s CPU  (runs: {each}; target < 2 s)")
    print(f"  entries: {lexicon.by_category()}, unsure: {len(lexicon.unsure())}")
    _, _, traced, _ = cold(trace=True)
    print(f"  peak traced Python memory: {traced / 1e6:.1f} MB; peak RSS: {max(r[3] for r in runs)} MB")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "AllPrintings.json"
        sets = write_all_printings(path, 100_000_000)
        code = STREAM_ONLY.format(root=str(ROOT), path=str(path))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
        cards, codes, problems, seconds, peak_rss = int(out[0]), int(out[1]), int(out[2]), float(out[3]), int(out[4])
        print(f"stream only, synthetic AllPrintings ({path.stat().st_size / 1e6:.0f} MB, {sets} sets):")
        print(f"  {cards} cards in {codes} sets, {problems} problems, {seconds:.1f} s")
        print(f"  peak RSS of the streaming process: {peak_rss} MB (target < 200 MB)")


if __name__ == "__main__":
    main()
