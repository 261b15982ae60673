"""``agentwarrant monitor``: check a policy, run a proposed call sequence."""

from __future__ import annotations

import click


@click.group()
def cli() -> None:
    """The Agenra run-time monitor."""
