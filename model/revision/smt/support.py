"""Whether ``symbolic.Encoder`` can encode an entry's literals, or the base, decided without building a
Z3 term (the memoized engines ask this of every entry they meet; the encoding is Agenra
Section 7.1's, as symbolic.py documents it).

The encoder raises ``Unsupported`` in exactly three places, read off its code:
- the base: ``const(c)`` of a resource ``c`` ``E`` names for the action, compound (array or object);
- an entry's ``_conjuncts``, for an entry of the action, in the order they are built: a glob pattern
  ``globs.translate`` cannot translate (``globs.translatable``) — but a constant pattern that is null or
  compound returns before anything else is read (the resource is a scalar: the literal is a constant) —
  then each predicate in order: an equality or one-of value that is compound (``const``). Ranges hold
  numbers, key allowlists and slots raise nothing.
``reason`` returns the message the encoder raises, the first one in that order, or ``None``;
tests/property/test_revision_support.py compares it with the encoder's own exception.
"""

from __future__ import annotations

from collections.abc import Sequence

from model.base.canonical import JSON
from model.monitor.language.policy import ConstPat, Entry, GlobPat
from model.revision.smt.globs import translatable
from model.revision.smt.refute import constants


def _compound(v: JSON) -> bool:
    return isinstance(v, list | dict)


def reason(action: str, e: Entry | None, resources: Sequence[JSON] | None) -> str | None:
    """Why encoding ``e``'s literals for ``action`` (``None``: the base over ``resources``) raises
    ``Unsupported``, in the encoder's words, else ``None``."""
    if e is None:
        for c in resources or ():
            if _compound(c):
                return f"compound constant {c!r}"
        return None
    if e.action != action:
        return None
    pat = e.resource
    if isinstance(pat, ConstPat) and (pat.value is None or _compound(pat.value)):
        return None
    if isinstance(pat, GlobPat) and not translatable(pat.glob):
        return f"glob {pat.glob!r}"
    for p in e.where:
        for v in constants(p):
            if _compound(v):
                return f"compound constant {v!r}"
    return None
