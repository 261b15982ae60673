"""How the CLI prints tables: boxed rich tables on a terminal; otherwise — output piped, redirected
or logged, or the top-level ``--plain`` flag or ``AGENTWARRANT_PLAIN=1`` given — tab-separated lines
with no box, no colour and no width limit, so nothing is cut or wrapped at 80 columns.

Choices: the plain form prints the title on its own line, then the header, then one line per row,
cells separated by one tab with markup removed and line breaks inside a cell turned into spaces; it
is meant for reading and for ``cut``/``column -t``, not as a data format (``--json`` is that).
"""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

_plain = False


def set_plain(on: bool) -> None:
    global _plain
    _plain = on


def plain() -> bool:
    return _plain


def _text(cell: object) -> str:
    text = Text.from_markup(cell) if isinstance(cell, str) else cell
    return (text.plain if isinstance(text, Text) else str(text)).replace("\n", " ")


def print_table(console: Console, table: Table) -> None:
    # rich sizes a non-terminal to 80 columns and would cut cells there: off a terminal, print plain
    if not _plain and console.is_terminal:
        console.print(table)
        return
    if table.title:
        click.echo(_text(table.title))
    columns = table.columns
    click.echo("\t".join(_text(c.header) for c in columns))
    cells = [list(c.cells) for c in columns]
    for row in zip(*cells, strict=True):
        click.echo("\t".join(_text(x) for x in row))
