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


if __name__ == "__main__":  # pragma: no cover
    cli()
