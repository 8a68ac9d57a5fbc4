"""`kb serve`: build the site when needed, then serve it on 127.0.0.1."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kb.commands.build import build_or_exit, out_option
from kb.commands.options import content_option, load_or_exit


@click.command("serve")
@content_option
@out_option
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Interface to listen on; give 0.0.0.0 explicitly to serve other machines.")  # fmt: skip
def command(content: Path | None, out: Path, port: int, host: str) -> None:
    """Serve the built site on 127.0.0.1, building it first when it is missing or the content changed.

    The site records the content hash it was built from; a different hash triggers a rebuild.
    Stop with Ctrl+C.
    """
    from kb.serve import make_server, url_of
    from kb.site import site_hash

    kb = load_or_exit(content)
    if site_hash(out) != kb.content_hash:
        build_or_exit(content, out, kb=kb)
    try:
        server = make_server(out, host, port)
    except OSError as err:
        click.echo(f"kb: cannot listen on {host}:{port}: {err.strerror or err}; try --port 0", err=True)
        sys.exit(1)
    click.echo(f"Serving {out} at {url_of(server)} (Ctrl+C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("Stopped.")
    finally:
        server.server_close()
