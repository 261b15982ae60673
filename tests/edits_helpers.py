"""Shared set-up for the edit-runtime tests: a fresh durable runtime over the playground registration."""

from __future__ import annotations

from pathlib import Path

from model.edits.answers import EditAccepted
from model.edits.runtime import Runtime
from model.edits.scenarios import playground
from model.edits.session import session_from_json


def playground_runtime(directory: Path, name: str = "rt.db") -> Runtime:
    """A new store in ``directory`` whose checked root update was accepted (asserted)."""
    directory.mkdir(parents=True, exist_ok=True)
    sess = session_from_json(playground())
    rt, root = Runtime.create(str(directory / name), sess.registration, sess.seed)
    assert isinstance(root, EditAccepted), root
    return rt
