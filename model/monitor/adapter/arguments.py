"""Resolving a call's arguments in the precise adapter (Agenra Sections 2 and 4.4): each handle becomes
its stored value (a fresh copy, the concrete argument) and its producing record (the parent ID, with
the field path for ``handle.at``); a literal stays itself and has no producer.

Choices where the source is silent: a handle this adapter did not issue names record ``-1``, which
cannot exist, so the core denies the call rather than the adapter raising; a literal integer beyond
±(2^53−1) is refused (``InvalidInput`` naming the argument), since its canonical text would be another
number than the agent gave.
"""

from __future__ import annotations

from collections.abc import Mapping

from model.base.canonical import JSON, check_exact_json
from model.monitor.adapter.handles import Handle
from model.monitor.adapter.values import Member, Store

_SAFE = 2**53 - 1


def resolve(args: Mapping[str, Handle | JSON], issued: Mapping[int, object], values: Store) -> tuple[
        dict[str, JSON], dict[str, Member], tuple[tuple[str, int], ...], tuple[tuple[str, str], ...]]:
    """Concrete arguments, members (value and canonical text when the store knows it), sorted refs and
    field paths of a call's ``args``; ``issued`` maps record IDs to the handles the adapter issued."""
    concrete: dict[str, JSON] = {}
    members: dict[str, Member] = {}
    refs: list[tuple[str, int]] = []
    paths: list[tuple[str, str]] = []
    for name, arg in args.items():
        if isinstance(arg, Handle):
            d, path = arg._id, arg._path  # (``_issued`` inlined: this runs for every handle argument)
            found = values.fresh(d, path) if issued.get(d) is arg._base else None
            if found is not None:
                concrete[name] = found[0]  # a fresh copy, untouched until ``arguments`` copies it again
                members[name] = found
                refs.append((name, d))
                if path:
                    paths.append((name, ".".join(path)))
            else:
                # A forged or foreign handle: name a record that cannot exist so the core denies it.
                concrete[name] = None
                members[name] = (None, "null")
                refs.append((name, -1))
        else:
            t = type(arg)
            if t is not str and not (t is int and -_SAFE <= arg <= _SAFE) and t is not float \
                    and t is not bool and arg is not None:
                # canonical JSON reads an integer beyond ±(2^53−1) as the nearest double: refuse it
                # rather than record and pass on another number than the agent gave
                check_exact_json(arg, "argument", (name,))
            concrete[name] = arg
            members[name] = (arg, None)
    if len(refs) > 1:
        refs.sort()
    if len(paths) > 1:
        paths.sort()
    return concrete, members, tuple(refs), tuple(paths)
