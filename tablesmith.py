"""Tablesmith command line: the composition root.

Every command imports its heavy machinery (CadQuery, ReportLab, Flask) inside its own body, so
``tablesmith --help`` starts fast and never imports CadQuery.
"""

from __future__ import annotations

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tablesmith")
def cli() -> None:
    """Tablesmith: print the pieces, print the cards, keep score at the table."""


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), else 127.0.0.1."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))  # UDP connect only picks a route
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


@cli.command()
@click.option(
    "--host",
    default="0.0.0.0",
    show_default=True,
    help="Address to listen on; 0.0.0.0 means every network of this machine (LAN).",
)
@click.option(
    "--port",
    default=8765,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="TCP port to listen on.",
)
@click.option(
    "--db",
    "database",
    type=click.Path(dir_okay=False),
    help="SQLite database file [default: tablesmith/companion.sqlite in the user's data folder].",
)
@click.option(
    "--base-url",
    help="URL the phones use to reach this server, for links and QR "
    "codes [default: http://<LAN address>:<port>].",
)
@click.option(
    "--threads",
    default=256,
    show_default=True,
    type=click.IntRange(4, 4096),
    help="Worker threads; every open phone holds one for its live stream (7/8 of them at most).",
)
@click.option(
    "--fsync/--no-fsync",
    default=True,
    show_default=True,
    help="Flush every action to the disk before answering, so it survives a power cut too. "
    "--no-fsync is faster on a busy disk; an acknowledged action then survives a killed or "
    "crashed server, not a power cut.",
)
@click.option(
    "--qr/--no-qr",
    default=True,
    show_default=True,
    help="Print a QR code of the URL in the terminal.",
)
def serve(
    host: str,
    port: int,
    database: str | None,
    base_url: str | None,
    threads: int,
    fsync: bool,
    qr: bool,
) -> None:
    """Run the phone companion on the local network (waitress WSGI server)."""
    import waitress

    from companion import create_app

    durability = "power" if fsync else "crash"
    max_streams = threads - max(2, threads // 8)  # the other threads answer actions
    config = {
        "DATABASE": database,
        "BASE_URL": base_url,
        "DURABILITY": durability,
        "MAX_STREAMS": max_streams,
    }
    app = create_app(config)
    server = waitress.create_server(
        app,
        host=host,
        port=port,
        threads=threads,
        channel_timeout=300,
        connection_limit=4 * threads,
    )
    actual_port = server.effective_port
    if base_url is None:
        shown = lan_address() if host in ("0.0.0.0", "::", "") else host
        base_url = f"http://{shown}:{actual_port}"
        app.config["BASE_URL"] = base_url
    click.echo(f"Tablesmith companion: open {base_url}/ on a phone in the same network.")
    click.echo(f"Database: {app.config['DATABASE']}")
    if qr:
        import segno

        segno.make(base_url + "/", error="m").terminal(compact=True)
    click.echo("Press Ctrl+C to stop.", err=True)
    try:
        server.run()
    finally:
        app.extensions["tablesmith.tables"].close()


if __name__ == "__main__":  # pragma: no cover
    cli()
