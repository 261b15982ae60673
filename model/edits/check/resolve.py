"""Resolve: new and reused authorizations (*Exact Checking for Execution Edits*, Section V-B).

    z_i = new(x_i, d_i)    if d_i ∉ D_{i-1},  D_i = D_{i-1} ∪ {d_i}
    z_i = reuse(x_i, d_i)  if d_i ∈ D_{i-1},  D_i = D_{i-1}

with ``D_0 = D_Δ`` the actions that already have authorization records. The paper's stated
properties — deterministic, length-preserving, prefix-compositional
(``Resolve_Δ(rv) = Resolve_Δ(r) · Resolve_{Δ_z}(v)``), at most one ``new`` per action, and
``raw(Resolve(w)) = w`` — are checked in tests/unit/test_edits_resolve.py and the property tests.
``auth(z)`` is the subsequence of actions annotated ``new``; the policy sees their labels.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from model.edits.check.contract import CallId

ActionId = str


class Mode(enum.Enum):
    NEW = "new"
    REUSE = "reuse"


@dataclass(frozen=True, slots=True)
class Letter:
    """A resolved workflow call: the transition symbol of the runtime automaton (Section VI-A)."""

    call: CallId
    action: ActionId
    mode: Mode

    def __str__(self) -> str:
        return f"{self.mode.value}({self.call},{self.action})"

    def __hash__(self) -> int:
        # Enum.__hash__ is Python code; the engines hash letters in every trie and automaton signature.
        return hash((self.call, self.action, self.mode is Mode.NEW))

    def __lt__(self, other: object) -> bool:  # Mode is an Enum; order it by value
        if not isinstance(other, Letter):
            return NotImplemented
        return (self.call, self.action, self.mode.value) < (other.call, other.action, other.mode.value)


Word = tuple[Letter, ...]

_new = object.__new__
_set_call, _set_action, _set_mode = (getattr(Letter, f).__set__ for f in ("call", "action", "mode"))


def make_letter(call: CallId, action: ActionId, mode: Mode) -> Letter:
    """``Letter(call, action, mode)``, the same value at about half the cost: the slots are set through
    their descriptors instead of the frozen dataclass's ``__init__`` (entered from C, not inlined, and
    setting each field through ``object.__setattr__``). Letters have no ``__post_init__`` or defaults
    to skip; ``tests/unit/test_edits_resolve.py`` compares the two. The symbolic engine makes one per
    call and mode, a visible part of a small check."""
    x = _new(Letter)
    _set_call(x, call)
    _set_action(x, action)
    _set_mode(x, mode)
    return x


def resolve(word: Iterable[CallId], q_act: Mapping[CallId, ActionId], authorized: Iterable[ActionId]) -> Word:
    """``Resolve^ρ_Δ(word)`` given ``q_act`` and ``D_Δ``."""
    done = set(authorized)
    out: list[Letter] = []
    for x in word:
        d = q_act[x]
        if d in done:
            out.append(Letter(x, d, Mode.REUSE))
        else:
            done.add(d)
            out.append(Letter(x, d, Mode.NEW))
    return tuple(out)


def raw(word: Word) -> tuple[CallId, ...]:
    return tuple(a.call for a in word)


def auth(word: Word) -> tuple[ActionId, ...]:
    """The actions that ``word`` newly authorizes, in order."""
    return tuple(a.action for a in word if a.mode is Mode.NEW)


def extended_log(authorized: tuple[ActionId, ...], word: Word) -> tuple[ActionId, ...]:
    """``Δ_z``: the log extended by the new authorizations of ``word``."""
    return authorized + auth(word)
