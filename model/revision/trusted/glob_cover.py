"""The glob half of a simulation certificate's effect coverage (Agenra Section 7.1), asked of Z3 with the
certificate checker's own glob encoding (``encoding.regex``), and written as the input of the Lean judgment
``glob_cover`` (lean/AgentWarrant/Oracle/GlobCover.lean), which decides the same question over every string.

The question: given glob patterns ``g_1 … g_k`` (the monitor's ``fnmatchcase``) and a set of listed match
vectors, does every string ``s`` have its vector ``(fnmatchcase(s, g_1), …)`` among them? ``covers`` in
``side_conditions.py`` asks this for a resource string as part of a larger question (arguments, slots,
tools); here it stands alone, so the two deciders can be compared on it.

Choices where the source is silent: a pattern ``encoding.regex`` does not translate (a bracket set whose
``-`` is not a plain range, or a character past Z3's alphabet) makes the Z3 answer ``unsupported``; a Z3
unknown within ``LIMIT_MS`` is ``unknown``. Z3 strings hold code points up to 0x2FFFF only: since
characters no pattern names are told apart by no pattern, and the patterns name fewer than 0x2FFFF code
points, a vector some Python string has is had by a string inside Z3's alphabet, so the two questions agree.
"""

from __future__ import annotations

import fnmatch
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import z3

from model.base.canonical import JSON
from model.revision.trusted.encoding import CTX, Unsupported, regex

LIMIT_MS = 20000


@dataclass(frozen=True, slots=True)
class CoverAnswer:
    """``covered``, ``uncovered`` (with a witness string whose vector is not listed), ``unknown`` or
    ``unsupported``."""

    answer: str
    witness: str | None = None


def vector(globs: Sequence[str], s: str) -> str:
    """The match vector of ``s`` as a bit string, by the monitor's ``fnmatchcase``."""
    return "".join("1" if fnmatch.fnmatchcase(s, g) else "0" for g in globs)


def z3_cover(globs: Sequence[str], listed: Sequence[str]) -> CoverAnswer:
    """Z3's answer: is there a string whose match vector is not listed? Asked as the checker's ``covers``
    asks it, one question per unlisted vector, each a conjunction of membership literals (the one-query
    disjunction is a form Z3's string solver leaves unknown on the corpus)."""
    try:
        langs = [regex(g) for g in globs]
    except Unsupported:
        return CoverAnswer("unsupported")
    s = z3.String("resource", CTX)
    bits = [z3.InRe(s, lang) for lang in langs]
    fails = [z3.InRe(s, z3.Complement(lang)) for lang in langs]
    solver = z3.SimpleSolver(ctx=CTX)
    solver.set("timeout", LIMIT_MS)
    unknown = False
    for v in itertools.product("01", repeat=len(globs)):
        if "".join(v) in listed:
            continue
        solver.push()
        solver.add(*[bits[i] if b == "1" else fails[i] for i, b in enumerate(v)])
        answer = solver.check()
        if answer == z3.sat:
            raw = solver.model().eval(s, model_completion=True)
            solver.pop()
            assert isinstance(raw, z3.SeqRef)
            return CoverAnswer("uncovered", _decode(raw.as_string()))
        solver.pop()
        unknown = unknown or answer == z3.unknown
    return CoverAnswer("unknown" if unknown else "covered")


def _decode(z3_text: str) -> str:
    """Z3 prints non-printable and non-ASCII characters (and the backslash) as ``\\u{hex}``."""
    out, i = [], 0
    while i < len(z3_text):
        if z3_text.startswith("\\u{", i):
            j = z3_text.index("}", i)
            out.append(chr(int(z3_text[i + 3:j], 16)))
            i = j + 1
        else:
            out.append(z3_text[i])
            i += 1
    return "".join(out)


def lean_input(globs: Sequence[str], listed: Sequence[str]) -> dict[str, JSON]:
    """The ``glob_cover`` judgment's input (the judgment runs its search with a fuel proved to suffice, so
    the caller gives none)."""
    return {"globs": list(globs), "listed": list(listed)}
