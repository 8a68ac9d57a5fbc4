"""Benchmark: `kill -9` at random moments of `kb build` (issue 44): previous site whole, nothing left behind after
the next build, no process outliving its build.

Run: python bench/bench_kill.py [--kills 20] [--seed 1] [--content DIR]   (about 10 minutes for 20 kills of the
bundled content on two cores)

The content (default: a copy of the bundled content) is built once, then each round changes it, starts `kb build`,
kills it with SIGKILL after a random delay within the length of a whole build, checks the site folder, waits for the
processes the build had started, builds again and looks for leftovers (`tests/killing.py`). Prints the kills
survived, how long the killed builds' processes lived after the kill, and each problem found.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.killing import OUTLIVE, rounds  # noqa: E402 - the project's root first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=20, help="rounds (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random delays")
    parser.add_argument("--content", type=Path, default=ROOT / "content", help="content to copy and build")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        content = Path(shutil.copytree(args.content, Path(tmp) / "content"))
        env = {"XDG_CACHE_HOME": str(Path(tmp) / "cache")}
        report = rounds(content, Path(tmp) / "site", args.kills, args.seed, env)
    print(f"{report.survived} of {report.kills} kills survived")
    if report.orphans:
        longest = max(report.orphans)
        print(f"{len(report.orphans)} processes of killed builds, gone {longest:.2f} s after the kill at most")
        print(f"(allowed: {OUTLIVE:.1f} s)")
    else:
        print("no process of a killed build was running at the kill")
    for problem in report.problems:
        print(f"  {problem}")


if __name__ == "__main__":
    main()
