"""The battery (issue 44): every hostile kind of input of `tests/hostile.py` through check, build, search and show:
no traceback, an exit status that says what happened, nothing half-written. Its figures (time against a normal
input of the same size, memory per byte) are `bench/bench_battery.py`'s."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from kb.cli import main

from . import hostile

SIZE = 64 * 1024
COMMANDS = {
    "check": ["check"],
    "build": ["build", "--force", "--out", "{site}"],
    "search": ["search", "draw card"],
    "show": ["show", "100.1"],
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(hostile.KINDS))
def test_every_hostile_input_gets_an_answer_not_a_traceback(tmp_path, monkeypatch, kind):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    content = hostile.make(tmp_path, hostile.KINDS[kind][1](SIZE))
    for name, args in COMMANDS.items():
        argv = [a.format(site=tmp_path / "site") for a in args]
        result = CliRunner().invoke(main, [*argv, "--content", str(content)])
        assert result.exception is None or isinstance(result.exception, SystemExit), (name, repr(result.exception))
        assert "Traceback" not in result.output, (name, result.output[-500:])
        assert result.exit_code in (0, 1, 2), (name, result.exit_code)
    if (tmp_path / "site").exists():  # a site is whole or not there
        assert (tmp_path / "site" / "kb-site.json").is_file() and (tmp_path / "site" / "kb-manifest.json").is_file()
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")]
