"""`kb serve`: build the site when needed, then serve it on 127.0.0.1."""

from __future__ import annotations

import errno
from pathlib import Path

import click

from kb.commands.building import build_or_exit, force_option, out_option
from kb.commands.options import content_option, echo
from kb.model.errors import KbError
from kb.sources import ContentError, content_hash
from kb.sources.paths import default_content


@click.command("serve")
@content_option
@out_option
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port (0: any free port).")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Interface to listen on; give 0.0.0.0 explicitly to serve other machines.",
)
@force_option
def command(content: Path | None, out: Path, port: int, host: str, force: bool) -> None:
    """Serve the built site on 127.0.0.1, building it first when it is missing or out of date.

    The site records the hash of the content, the kb version and the hash of the templates it was
    built from; when any differs, the content is loaded and the site rebuilt (not when the content has errors,
    unless --force). Stop with Ctrl+C.

    Only the site's pages are served: never a dot-file or dot-folder (`.git`, `.kb`), never a folder's listing.
    A connection is closed when it sends nothing for 3 seconds or its request is not whole within 10 (both counted
    from its acceptance); a malformed request line gets a 400 at once; past 1,024 open connections, the one idle
    longest is closed. GET /api/v1/search?q=…&lang=…&kind=…&limit=… answers what `kb search --json` prints.
    """
    from kb.site.output import built_for, site_is_current
    from kb.site.seal import untouched
    from kb.site.serve import make_server, url_of

    report = lambda message: echo(f"kb serve: {message}", err=True)  # noqa: E731 - one line, said where it is used
    try:  # listen first: a server that cannot start needs no build
        server = make_server(out, host, port, report=report, content=content or default_content())
    except OSError as err:
        raise KbError(f"cannot listen on {host}:{port}: {err.strerror or err}; {_listen_hint(err)}") from None
    try:
        base_url, api = built_for(out)  # a site built for its address (or without the API) stays so
        try:
            current = site_is_current(out, content_hash(content or default_content()), base_url=base_url, api=api)
            current = current and untouched(out)  # its seal checked too, as `kb build` checks it
        except ContentError:
            current = False  # loading says what is wrong with the folder
        if not current:
            build_or_exit(content, out, force=force, base_url=base_url, api=api)
        echo(f"Serving {out} at {url_of(server)} (Ctrl+C to stop)", newlines=False)
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("Stopped.")
    finally:
        server.server_close()


def _listen_hint(err: OSError) -> str:
    """What to change when the server cannot listen: the port when it is taken or refused, else the host."""
    if err.errno in (errno.EADDRINUSE, errno.EACCES):
        return "try another --port (0: any free port)"
    return "check --host (127.0.0.1 serves this machine only)"
