"""Monitor state ``S = (M, L, τ, B, I, u_P, u_A)`` and proposed calls (Agenra Section 6.1).

Representation choices:
- IDs are trace positions (the source's implementation choice): the record with ID ``d`` is
  ``trace[d]``, so ``M(d)`` is ``trace[d].label`` and ``L(d)`` is ``trace[d].parents``. This makes
  "distinct IDs, exactly those in M and L" true by construction and states hashable, which the
  bounded search relies on.
- ``B`` keeps, with each binding, the ID of the lookup that made it, so the well-formedness clause
  "each live binding came from an applicable successful lookup" can be checked, not assumed.
- ``Q`` (satisfied structured requirements) and the issued exact-call permits live in the state
  for convenience, but ``step`` never adds to either: the application changes them through
  ``satisfy``/``issue_permit`` (Section 6.1: "changing it is outside these transitions").
  ``step`` only marks a permit consumed.
- A call's concrete arguments are JSON; records keep them in canonical text so states hash.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from model.base.canonical import JSON, canonical_str_exact
from model.base.fastinit import fast_init
from model.monitor.decide.counters import Usage
from model.monitor.language.labels import Label
from model.monitor.language.policy import Tool

# The exact value identity of one argument: ("h", record id) for a handle, ("p", "id:path") for a field of
# a stored result, ("v", canonical JSON) for a literal.
ArgIdentity = tuple[str, int | str]


@fast_init
@dataclass(frozen=True, slots=True)
class Call:
    """``c = (a, e, n_s, n_d, J, x, h)``; the tool fixes ``e, n_s, n_d`` and ``J`` is derived from ``refs``.

    ``refs`` is the precise adapter's argument-to-handle map ``h`` (only arguments given as handles).
    """

    agent: str
    tool: str
    args: Mapping[str, JSON]
    refs: tuple[tuple[str, int], ...] = ()
    ref_paths: tuple[tuple[str, str], ...] = ()  # field paths of handle arguments that name a sub-value

    def parents(self) -> tuple[int, ...]:
        """Ordered distinct parent IDs ``J``: by argument name, first occurrence wins."""
        refs = self.refs
        if len(refs) < 2:  # (the common case; nothing to order)
            return (refs[0][1],) if refs else ()
        out: list[int] = []
        for _, d in sorted(refs):
            if d not in out:
                out.append(d)
        return tuple(out)

    def identity(self) -> tuple[tuple[str, ArgIdentity], ...]:
        """The exact value identities of every argument (what an exact-call permit binds)."""
        by_ref = dict(self.refs)
        by_path = dict(self.ref_paths)
        out: list[tuple[str, ArgIdentity]] = []
        for name in sorted(self.args):
            ident: ArgIdentity
            if name in by_path:
                ident = ("p", f"{by_ref[name]}:{by_path[name]}")
            elif name in by_ref:
                ident = ("h", by_ref[name])
            else:
                ident = ("v", canonical_str_exact(self.args[name], f"argument {name}"))  # never a rounded number
            out.append((name, ident))
        return tuple(out)

    def review_identity(self) -> tuple[tuple[str, ArgIdentity], ...]:
        """What a reviewer's approval of a flow Pause binds (an extension beyond Agenra): every argument's
        value (by name), then every result it was read from (by argument name, then ID). A value changed
        under the same handle, or the same value from another result, is another call."""
        by_path = dict(self.ref_paths)
        out: list[tuple[str, ArgIdentity]] = [
            (name, ("v", canonical_str_exact(self.args[name], f"argument {name}"))) for name in sorted(self.args)]
        for name, d in sorted(set(self.refs)):
            out.append((name, ("p", f"{d}:{by_path[name]}") if name in by_path else ("h", d)))
        return tuple(out)


@fast_init
@dataclass(frozen=True, slots=True)
class Record:
    """An admitted attempt ``σ = (a, e, n_s, n_d, J, x, d, ℓ_out)`` and whether its tool succeeded."""

    id: int
    agent: str
    tool: str
    operation: str
    source: str
    destination: str
    parents: tuple[int, ...]
    args_json: str  # canonical JSON of x
    label: Label
    succeeded: bool = False

    def args(self) -> dict[str, JSON]:
        value: dict[str, JSON] = json.loads(self.args_json)
        return value


@dataclass(frozen=True, slots=True)
class Permit:
    """An exact-call permit: the tool and the exact value identity of every argument."""

    id: int
    tool: str
    identity: tuple[tuple[str, ArgIdentity], ...]
    consumed: bool = False
    evidence: str | None = None  # digest of the approval that justified issuing it, if any


@fast_init
@dataclass(frozen=True, slots=True)
class State:
    trace: tuple[Record, ...] = ()
    bindings: tuple[tuple[str, JSON, int], ...] = ()  # (slot, value, id of the lookup), sorted by slot
    invalid: frozenset[str] = frozenset()
    used_user: Usage = ()  # a tuple, or shared ``Counters`` (counters.py) in an Adapter on a long list
    used_app: Usage = ()
    satisfied: frozenset[str] = frozenset()
    permits: tuple[Permit, ...] = field(default=())

    def binding(self, slot: str) -> JSON | None:
        for s, v, _ in self.bindings:
            if s == slot:
                return v
        return None

    def is_bound(self, slot: str) -> bool:
        return any(s == slot for s, _, _ in self.bindings)

    def record(self, d: int) -> Record | None:
        return self.trace[d] if 0 <= d < len(self.trace) else None


def initial_state(n_user: int, n_app: int, satisfied: frozenset[str] = frozenset()) -> State:
    return State(used_user=(0,) * n_user, used_app=(0,) * n_app, satisfied=satisfied)


def satisfy(state: State, requirement: str) -> State:
    """The application records a satisfied structured requirement (outside the transitions)."""
    return replace(state, satisfied=state.satisfied | {requirement})


def issue_permit(state: State, tool: str, identity: tuple[tuple[str, ArgIdentity], ...],
                 evidence: str | None = None) -> tuple[State, Permit]:
    """The application issues an exact-call permit (outside the transitions; agents cannot)."""
    permit = Permit(id=len(state.permits), tool=tool, identity=identity, evidence=evidence)
    return replace(state, permits=(*state.permits, permit)), permit


def call_args_json(call: Call) -> str:
    """``canonical_str(dict(call.args))``, refusing an integer canonical JSON would round."""
    # a library caller's call (the Adapter refuses these itself): an integer canonical JSON would round is
    # refused here, not recorded as another number
    return canonical_str_exact(dict(call.args), "the call's arguments")


def proposed_record(state: State, call: Call, tool: Tool, label: Label, args_json: str | None = None) -> Record:
    """The record ``call`` would add; ``args_json``, when given, must be ``canonical_str(dict(call.args))``
    (the Adapter composes it from the canonical texts its stored values already have)."""
    return Record(len(state.trace), call.agent, tool.name, tool.operation, tool.source, tool.destination,
                  call.parents(), call_args_json(call) if args_json is None else args_json, label)
