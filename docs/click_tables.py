"""MkDocs hook (mkdocs.yml ``hooks:``): tidy the option tables mkdocs-click generates.

mkdocs-click writes each option's help text into a Markdown table as it is, so a help text
such as ``<base>/card/<game>/<deck>/<card>`` reaches the page as HTML tags and the browser
shows nothing of it; and with click 8.3 and newer an option without a default shows click's
internal ``Sentinel.UNSET``. A Markdown preprocessor that runs right after mkdocs-click's own
(priority 141) escapes ``<`` and ``>`` outside code spans and writes such a default as a flag's
``False``; an option with no default (``None``) reads "see the description" where its help text
names what happens without it (``[default: ./build/GAME]``), else "none".
It touches only the option rows of a page that has a ``::: mkdocs-click`` block.
"""

from __future__ import annotations

from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

UNSET = "`Sentinel.UNSET`"
HEADER = "| Name | Type | Description | Default |"


def tidy_row(row: str) -> str:
    """One generated option row with ``<``/``>`` escaped outside code spans and a readable
    default."""
    parts = row.split("`")
    for i in range(0, len(parts), 2):  # even parts lie outside code spans
        parts[i] = parts[i].replace("<", "&lt;").replace(">", "&gt;")
    row = "`".join(parts)
    if row.rstrip().endswith(f"| {UNSET} |"):
        cells = row.split(" | ")
        default = "`False`" if cells[1].strip() == "boolean" else "None"
        row = row.rstrip()[: -len(f"{UNSET} |")] + f"{default} |"
    if row.rstrip().endswith("| None |"):
        # no click default: the help text says what happens ("[default: ./build/GAME]")
        described = "[default:" in row
        row = row.rstrip()[: -len("None |")] + ("see the description |" if described else "none |")
    return row


class _Mark(Preprocessor):
    """Before mkdocs-click: notes whether this page has a block for it."""

    def __init__(self, md: Markdown, state: dict[str, bool]) -> None:
        super().__init__(md)
        self.state = state

    def run(self, lines: list[str]) -> list[str]:
        self.state["click"] = any(line.startswith("::: mkdocs-click") for line in lines)
        return lines


class _Tidy(Preprocessor):
    """After mkdocs-click: tidies the rows of its option tables."""

    def __init__(self, md: Markdown, state: dict[str, bool]) -> None:
        super().__init__(md)
        self.state = state

    def run(self, lines: list[str]) -> list[str]:
        if not self.state.get("click"):
            return lines
        out: list[str] = []
        in_table = False
        for line in lines:
            if line == HEADER:
                in_table = True
            elif not line.startswith("|"):
                in_table = False
            out.append(tidy_row(line) if in_table and line.startswith("| `") else line)
        return out


class ClickTables(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        state: dict[str, bool] = {}
        md.preprocessors.register(_Mark(md, state), "tablesmith_click_mark", 142)
        md.preprocessors.register(_Tidy(md, state), "tablesmith_click_tidy", 140)


def on_config(config: Any) -> Any:
    """Add the extension beside the ones mkdocs.yml names."""
    config.markdown_extensions.append(ClickTables())
    return config
