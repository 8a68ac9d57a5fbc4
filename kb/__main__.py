"""Run the CLI with `python -m kb`."""

from kb.cli import run

run()
