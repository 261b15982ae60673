"""Whether ``symbolic.Encoder`` can encode an entry's literals, or the base, decided without building a
Z3 term (the memoized engines ask this of every entry they meet; the encoding is Agenra
Section 7.1's, as symbolic.py documents it).

The encoder raises ``Unsupported`` in exactly three places, read off its code:
- the base: ``const(c)`` of a resource ``c`` ``E`` names for the action, compound (array or object);
- an entry's ``_conjuncts``, for an entry of the action, in the order they are built: a glob pattern
  ``globs.translate`` cannot translate (``globs.translatable``) — but a constant pattern that is compound
  returns before anything else is read (no resource is an array or object: the literal is a constant), one
  that is a string past Z3's alphabet raises (``const``), and a null one is ``r == null``, read on like a
  scalar one —
  then each predicate in order: an equality or one-of value that is compound or a string past Z3's
  alphabet (``const``). Ranges hold
  numbers, key allowlists and slots raise nothing.
``reason`` returns the message the encoder raises, the first one in that order, or ``None``;
tests/property/test_revision_support.py compares it with the encoder's own exception.
"""

from __future__ import annotations

from collections.abc import Sequence

from model.base.canonical import JSON
from model.monitor.language.policy import ConstPat, Entry, GlobPat
from model.revision.smt.globs import beyond_alphabet, translatable
from model.revision.smt.refute import constants


def _compound(v: JSON) -> str | None:
    """``const``'s complaint about ``v``: compound, or a string past Z3's alphabet."""
    if isinstance(v, list | dict):
        return f"compound constant {v!r}"
    if isinstance(v, str) and beyond_alphabet(v):
        return f"constant {v!r} past Z3's string alphabet"
    return None


def reason(action: str, e: Entry | None, resources: Sequence[JSON] | None) -> str | None:
    """Why encoding ``e``'s literals for ``action`` (``None``: the base over ``resources``) raises
    ``Unsupported``, in the encoder's words, else ``None``."""
    if e is None:
        for c in resources or ():
            if (why := _compound(c)) is not None:
                return why
        return None
    if e.action != action:
        return None
    pat = e.resource
    if isinstance(pat, ConstPat) and isinstance(pat.value, list | dict):
        return None
    if isinstance(pat, ConstPat) and (why := _compound(pat.value)) is not None:
        return why
    if isinstance(pat, GlobPat) and not translatable(pat.glob):
        return f"glob {pat.glob!r}"
    for p in e.where:
        for v in constants(p):
            if (why := _compound(v)) is not None:
                return why
    return None
