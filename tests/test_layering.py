"""The pipeline's packages import one way: model <- sources <- parse <- link <- search <- site | export <- commands.

The site depends on search: its search page ranks with kb's own index (`kb.search.static`), as `kb search` does.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CONTENT, ROOT

ORDER = ["model", "sources", "parse", "link", "search", "site", "export", "commands"]
"""Stages from the bottom; each may import only the stages listed before it (and itself)."""
PEERS = {"site", "export"}
"""Stages on one level: none imports another."""
TOP = {"cli", "__main__", "__init__"}


def _stage(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "kb" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in ORDER else ("top" if parts[1] in TOP else parts[1])


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("kb"):
            found += [(node.lineno, node.module)]
            found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names if node.module == "kb"]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("kb")]
    return found


def _allowed(src: str, dst: str) -> bool:
    if dst == src:
        return True
    if src in PEERS and dst in PEERS:
        return False
    return ORDER.index(dst) < ORDER.index(src)


def test_every_module_belongs_to_a_stage():
    stray = [p.name for p in (ROOT / "kb").glob("*.py") if p.stem not in TOP]
    assert stray == [], f"modules outside any stage package: {stray}"


def test_imports_go_one_way():
    wrong = []
    for path in sorted((ROOT / "kb").rglob("*.py")):
        src = _stage("kb." + ".".join(path.relative_to(ROOT / "kb").with_suffix("").parts))
        if src in (None, "top"):
            continue
        for line, module in _imports(path):
            dst = _stage(module)
            if src not in ORDER:
                wrong.append(f"{path.relative_to(ROOT)}: not in a stage package")
                break
            if dst in ORDER and not _allowed(src, dst):
                wrong.append(f"{path.relative_to(ROOT)}:{line}: {src} imports {module}")
    assert wrong == []


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("kb.model", ("kb.sources", "kb.parse", "kb.link", "kb.search", "kb.site", "kb.export", "kb.commands")),
        ("kb.parse.cr.rules", ("kb.link", "kb.search", "kb.site", "kb.export", "kb.commands")),
        ("kb.parse.faq.parse", ("kb.link", "kb.search", "kb.site", "kb.export")),
        ("kb.link.load", ("kb.search", "kb.site", "kb.export", "kb.commands")),
        ("kb.search.index", ("kb.site", "kb.export", "kb.commands")),
        ("kb.site.write", ("kb.search", "kb.export", "kb.commands")),
    ],
)
def test_importing_a_stage_loads_nothing_above_it(package, forbidden):
    code = (
        f"import sys, {package}\n"
        f"bad = sorted(m for m in sys.modules if m.startswith({forbidden!r}))\n"
        "print('\\n'.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == ""


def test_a_search_loads_no_network_mail_or_event_loop_module(tmp_path):
    # A cold `kb search` (the issue of its start-up time): Whoosh's `compat` would import urllib.request, and with it
    # http.client, ssl and email, for a function no search calls; nor does anything of kb's need asyncio for one.
    content = tmp_path / "content"
    shutil.copytree(CONTENT / "en", content / "en", ignore=shutil.ignore_patterns("cr-en-*", "cards-*"))
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    search = ["search", "--content", str(content), "draw a card"]
    first = subprocess.run([sys.executable, "-m", "kb", *search], capture_output=True, env=env, cwd=ROOT)
    assert first.returncode == 0, first.stderr  # the index is made here, in its own process
    code = (
        "import sys\n"
        "from kb.cli import run\n"
        f"sys.argv = ['kb', *{search!r}]\n"
        "try:\n    run()\nexcept SystemExit as done:\n    assert not done.code, done.code\n"
        "print('loaded:', *sorted(m for m in sys.modules if m.split('.')[0] in ('ssl', 'email', 'http', 'asyncio')"
        " or m == 'urllib.request'))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "120.1" in done.stdout  # it searched, and found
    assert done.stdout.splitlines()[-1] == "loaded:"


def test_whoosh_s_urlretrieve_is_still_there_when_asked_for(tmp_path):
    # The stand-in kb.search imports whoosh.compat with leaves the real urllib.request to every other import, and
    # Whoosh's urlretrieve, called, retrieves (through the real module, imported then).
    (tmp_path / "source.txt").write_text("retrieved", encoding="utf-8")
    code = (
        "import sys, kb.search, whoosh.compat\n"
        "assert 'urllib.request' not in sys.modules\n"
        f"whoosh.compat.urlretrieve({(tmp_path / 'source.txt').as_uri()!r}, {str(tmp_path / 'copy.txt')!r})\n"
        "import urllib.request\n"
        "assert 'urlopen' in vars(urllib.request) and sys.modules['urllib.request'] is urllib.request\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "copy.txt").read_text(encoding="utf-8") == "retrieved"


def test_only_the_search_package_imports_whoosh():
    texts = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in (ROOT / "kb").rglob("*.py")}
    users = [path for path, text in texts.items() if "import whoosh" in text or "from whoosh" in text]
    assert users and all(u.startswith("kb/search/") for u in users)


def test_commands_stay_thin_and_apart():
    """A verb's module imports no other verb's (what they share is in options.py and building.py), and none ends
    the process itself: a `KbError` or a returned status reaches `kb/cli.py`, which says it once."""
    from kb.cli import COMMANDS

    wrong = []
    for name in COMMANDS:
        path = ROOT / "kb" / "commands" / f"{name}.py"
        text = path.read_text(encoding="utf-8")
        wrong += [f"{name}: imports {m}" for _, m in _imports(path) if m.split(".")[2:3] != [name]
                  and m.startswith("kb.commands.") and m.split(".")[2] in COMMANDS]  # fmt: skip
        wrong += [f"{name}: sys.exit"] if "sys.exit" in text else []
    assert wrong == []


LINK_ORDER = ["editions", "references", "cards", "lexicon"]
"""The link stage's inner packages from the bottom: each imports only those before it (and the stage's lower
stages); `load.py` and `cache.py`, the stage's entry points, may import any."""


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_imports(path: Path) -> list[tuple[int, str]]:
    """A module's imports of kb's modules, those only a type checker reads (`if TYPE_CHECKING:`) aside; a name
    imported from a package that is one of its modules counts as that module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    checking = {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"
        for n in ast.walk(node)
    }
    found = []
    for node in ast.walk(tree):
        if id(node) in checking:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("kb"):
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.append((node.lineno, sub if _exists(sub) else node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("kb")]
    return found


def _exists(module: str) -> bool:
    base = ROOT.joinpath(*module.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def test_no_import_circle():
    """No module of kb reaches itself through the modules it imports (late imports too)."""
    graph = {}
    for path in sorted((ROOT / "kb").rglob("*.py")):
        graph[_module(path)] = {m for _, m in _runtime_imports(path) if _exists(m)} - {_module(path)}
    circles = []
    for start in graph:
        seen, stack = set(), [(start, (start,))]
        while stack:
            node, trail = stack.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    circles.append(" -> ".join((*trail, start)))
                elif nxt not in seen and not start.startswith(nxt + "."):  # its own package's __init__: no circle
                    seen.add(nxt)
                    stack.append((nxt, (*trail, nxt)))
    assert circles == []


def test_the_link_stage_inner_packages_import_one_way():
    wrong = []
    for path in sorted((ROOT / "kb" / "link").rglob("*.py")):
        inner = path.relative_to(ROOT / "kb" / "link").parts
        if len(inner) < 2:
            continue  # load.py, cache.py, __init__.py: the stage's entry points
        for line, module in _runtime_imports(path):
            parts = module.split(".")
            if parts[:2] != ["kb", "link"] or len(parts) < 3:
                continue
            if parts[2] not in LINK_ORDER or LINK_ORDER.index(parts[2]) > LINK_ORDER.index(inner[0]):
                wrong.append(f"{path.relative_to(ROOT)}:{line}: {inner[0]} imports {module}")
    assert wrong == []


def test_the_architecture_notes_name_every_module():
    """docs/architecture.md's list of modules names each module of kb/ in its stage's paragraph."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    listing = text.split("## Modules", 1)[1].split("```")[1]
    blocks: dict[str, str] = {}
    stage = None
    for line in listing.splitlines():
        head = line[2:].split("/", 1)[0] if line.startswith("  ") and not line.startswith("   ") else None
        if head:
            stage = head
        if stage:
            blocks[stage] = blocks.get(stage, "") + line + "\n"
    missing = []
    for path in sorted((ROOT / "kb").rglob("*.py")):
        inner = path.relative_to(ROOT / "kb").parts
        if len(inner) < 2 or path.name == "__init__.py":
            continue
        if path.name not in blocks.get(inner[0], ""):
            missing.append(str(path.relative_to(ROOT)))
    assert missing == [], f"not named in docs/architecture.md: {missing}"
