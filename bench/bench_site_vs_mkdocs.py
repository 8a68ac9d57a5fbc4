"""Benchmark: `kb build` against MkDocs building the same Comprehensive Rules, alternating runs in one script.

The content folder is a copy of the bundled content (the 2015 and 2026 English CR, the French extracts, the
Dissension card data), the two English editions added if it lacks them. MkDocs gets the same CR documents as
Markdown, one page per three-digit rule of each CR document (both English editions and the French extracts)
plus a glossary page per document, with its search plugin on. Both run as commands (`kb build`,
`mkdocs build`), cold processes, one after the other in turn, wall and CPU time (the command's and its
children's). kb is timed three ways: cold (no site, no cache: what MkDocs always does), the site deleted
but kb's caches kept (`.kb/`: the parsed content and the search index of unchanged content), and unchanged
(nothing to do); then the largest pages of the kb site are listed. kb's modules are byte-compiled first, as
an installed package's are (see `bytecode_env`).

Run: python bench/bench_site_vs_mkdocs.py [--runs 5] [--content DIR] [--peer CHECKOUT] (`--peer`: another kb
checkout, with its own `.venv`, built cold from the same content in the same turns).
Targets: kb cold / MkDocs <= 1.0 (medians); an unchanged rebuild < 0.3 s. Needs `pip install -e '.[bench]'`.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.link.load import load  # noqa: E402
from kb.model.numbers import sort_key  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
FIXTURES = ROOT / "tests" / "fixtures"
EDITIONS = ("cr-en-20150926.txt", "cr-en-20260116.txt")


def make_content(root: Path) -> Path:
    """A copy of the bundled content, with the 2015 and 2026 English CR added where it lacks them."""
    content = root / "content"
    shutil.copytree(ROOT / "content", content)
    for name in EDITIONS:
        if not (content / "en" / name).exists():
            source = CORPUS / name if (CORPUS / name).is_file() else FIXTURES / name
            shutil.copy(source, content / "en" / name)
    return content


def make_mkdocs(content: Path, root: Path) -> tuple[Path, int]:
    """A MkDocs project holding every CR document of the content, one Markdown page per rule; its page count."""
    kb = load(content)
    project = root / "mkdocs"
    docs = project / "docs"
    docs.mkdir(parents=True)
    pages: dict[str, dict[str, list[str]]] = {}
    for rule in sorted(kb.rules, key=lambda r: sort_key(r.number)):
        head = rule.number.split(".")[0]
        if len(head) == 3:
            line = f"**{rule.number}** {rule.title} {rule.text}".replace("\n", "\n\n")
            examples = "".join(f"\n\n*Example:* {e}" for e in rule.examples)
            pages.setdefault(rule.document, {}).setdefault(head, []).append(line + examples)
    count = 0
    for doc, heads in pages.items():
        folder = docs / doc.replace("/", "-")
        folder.mkdir()
        for head, blocks in heads.items():
            (folder / f"{head}.md").write_text(f"# {head}\n\n" + "\n\n".join(blocks) + "\n", encoding="utf-8")
            count += 1
        entries = [g for g in kb.glossary if g.document == doc]
        if entries:
            body = "\n\n".join(f"## {g.term}\n\n{g.definition}" for g in entries)
            (folder / "glossary.md").write_text(f"# Glossary\n\n{body}\n", encoding="utf-8")
            count += 1
    (docs / "index.md").write_text("# Comprehensive Rules\n", encoding="utf-8")
    (project / "mkdocs.yml").write_text("site_name: CR\nplugins:\n  - search\n", encoding="utf-8")
    return project, count + 1


def bytecode_env(folder: Path) -> dict[str, str]:
    """The environment of the timed commands: Python may keep compiled modules (in `folder`).

    An installed package has its modules compiled at install time (pip does it), as MkDocs has here. A machine
    that sets PYTHONDONTWRITEBYTECODE would otherwise make kb, run from this checkout, compile every module of
    its own at every run, and time that instead of the build.
    """
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "kb")], env=env, check=True)
    return env


def timed(command: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU time (user + system, the command and its children) of one command, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed: {(done.stderr or done.stdout).strip()[-400:]}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def largest_pages(site: Path, count: int = 5) -> list[tuple[str, int]]:
    """The largest HTML pages of the site, in bytes."""
    found = list(site.rglob("*.html"))
    biggest = sorted(found, key=lambda p: p.stat().st_size, reverse=True)[:count]
    return [(p.relative_to(site).as_posix(), p.stat().st_size) for p in biggest]


def _list(times: list[float]) -> str:
    """Run times, comma-separated."""
    return ", ".join(f"{t:.2f}" for t in times)


def _line(label: str, runs: list[tuple[float, float]], extra: str = "") -> float:
    """Print the wall and CPU medians of some runs; return the wall median."""
    wall, cpu = [w for w, _ in runs], [c for _, c in runs]
    print(
        f"{label:28} wall median {statistics.median(wall):.2f} s (runs {_list(wall)}); "
        f"CPU median {statistics.median(cpu):.2f} s{extra}"
    )
    return statistics.median(wall)


def main() -> None:
    """Alternate kb and MkDocs builds, print the medians, the ratios, the unchanged rebuild and the largest pages."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--content", type=Path, default=None, help="content folder (default: built as described)")
    parser.add_argument("--peer", type=Path, default=None, help="another kb checkout (with .venv) built alongside")
    args = parser.parse_args()
    beside = Path(sys.executable).parent / "mkdocs"  # this interpreter's virtual environment's
    mkdocs = str(beside) if beside.is_file() else shutil.which("mkdocs")
    if mkdocs is None:
        sys.exit("mkdocs is not installed: pip install -e '.[bench]'")
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        content = args.content or make_content(tmp_path)
        caches = content.resolve().parent / ".kb"
        project, md_pages = make_mkdocs(content, tmp_path)
        site = tmp_path / "site"
        kb_cmd = [sys.executable, "-m", "kb", "build", "--content", str(content), "--out", str(site)]
        md_cmd = [mkdocs, "build", "--quiet", "--clean", "--site-dir", str(tmp_path / "md-site")]
        env = bytecode_env(tmp_path / "pycache")
        peer_site = tmp_path / "peer-site"
        peer_python = str(args.peer / ".venv" / "bin" / "python") if args.peer else ""
        peer_cmd = [peer_python, "-m", "kb", "build", "--content", str(content), "--out", str(peer_site)]
        cold, md, cached, again, bare, peer = [], [], [], [], [], []
        for _ in range(args.runs):
            if args.peer:  # the other checkout, cold too, from the same content
                shutil.rmtree(peer_site, ignore_errors=True)
                shutil.rmtree(caches, ignore_errors=True)
                peer.append(timed(peer_cmd, cwd=args.peer, env=env))
            shutil.rmtree(site, ignore_errors=True)
            shutil.rmtree(caches, ignore_errors=True)
            cold.append(timed(kb_cmd, env=env))  # everything from scratch, as MkDocs
            md.append(timed(md_cmd, cwd=project, env=env))
            shutil.rmtree(site, ignore_errors=True)
            cached.append(timed(kb_cmd, env=env))  # a full site again, from kb's caches of this content
            again.append(timed(kb_cmd, env=env))  # nothing changed since the build above
            bare.append(timed([sys.executable, "-c", "pass"], env=env))  # the interpreter's own start, for scale
        pages = sum(1 for p in site.rglob("*.html"))
        print(f"content: {content} ({pages} kb pages, {md_pages} MkDocs pages)")
        kb_cold = _line("kb build, cold", cold)
        md_med = _line("mkdocs build", md)
        if peer:
            peer_med = _line(f"peer {args.peer.name} build, cold", peer)
            print(f"ratio kb cold / peer cold:      {kb_cold / peer_med:.2f}")
        kb_cached = _line("kb build, caches kept", cached)
        start = statistics.median(w for w, _ in bare)
        unchanged = _line("kb build, unchanged", again, f"; python -c pass {start:.2f} s")
        print(f"ratio kb cold / mkdocs:         {kb_cold / md_med:.2f}  (target <= 1.0: {_verdict(kb_cold <= md_med)})")
        print(f"ratio kb caches kept / mkdocs:  {kb_cached / md_med:.2f}")
        cpu = statistics.median(c for _, c in cold) / statistics.median(c for _, c in md)
        print(f"CPU ratio kb cold / mkdocs:     {cpu:.2f}  (kb uses both cores: its index builds beside the pages)")
        print(f"unchanged kb build: {unchanged:.2f} s  (target < 0.3 s: {_verdict(unchanged < 0.3)})")
        print("largest pages:")
        for path, size in largest_pages(site):
            print(f"  {path:45} {size / 1024:8.0f} KiB")


def _verdict(ok: bool) -> str:
    return "OK" if ok else "MISSED"


if __name__ == "__main__":
    main()
