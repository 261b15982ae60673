"""Memoized symbolic questions of a revision check (they make revision checks on the
corpus over 10× faster; the judgment of Agenra Section 7.1 is unchanged).

Every Z3 question the simulation engines ask — "is this conjunction of match / fail literals satisfiable
under the well-formed calls of ``α`` whose resource ``E`` allows?" (``simulation.vectors``) — and every
agreement and independence question of the structural search (``agreement.agree``,
``independence.independent``) is a property of JSON semantics: its answer depends only on the entries'
matching predicates (``identity.match_key``), the action, the resources ``E`` allows for it and the tools
(which calls exist), never on the other entries of the encoder's universe (they only add variables the
question leaves free). So the answers are kept here under those keys and reused within a check (the
per-list simulation, the joint simulation and the structural search ask overlapping questions) and across
the checks of one process (revisions of the same base ask the base's questions again). Per context it
also keeps the Z3 terms of the encoding (``leaves.py``) and the concrete samples read off Z3's models
(``samples.py``) or made for a question without Z3 (``synth.py``), which answer later "satisfiable"
questions without Z3; and per (policy, workload)
the policy's monitor transitions from task start by call sequence (``merge_keys.Steps``), shared by the
lost-client and forbidden-trace searches of all the checks that run that policy.

Choices where the source is silent:
- Only ``sat`` / ``unsat`` answers are kept; an ``unknown`` (time-out) is asked again next time, so a
  larger budget can still decide it.
- Besides terms, the memo keeps one ``SimpleSolver`` per base term and owner (``Memo.solver``: the
  enumerations, the structural questions), its questions pushed and popped. The certificate checker uses
  none of it (model/revision/trusted/).
- Keys compare canonical JSON texts (``identity.py``: Python equality equates ``0`` and ``False``).
- The memo is per process and bounded (``MAX_ENTRIES`` answers and terms; cleared when full, transition
  tables and samples with it: on the corpus they hold about 7,000 transitions and 100 samples). ``clear`` empties it;
  ``experiments/revision_corpus.py`` clears it before it measures, and measures cold checks too.
- The kept Z3 terms outlive the Z3 section (model/base/z3guard.py) that made them; they are dropped only by
  ``clear``, which runs in a section of its own, so never while another thread drives Z3.
- ``None`` everywhere a ``Memo`` is accepted means the unmemoized path: a fresh solver per question and
  nothing reused (the speed baseline).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import cast

import z3

from model.base.canonical import canonical_str
from model.base.z3guard import z3_section
from model.monitor.language.policy import Entry, Policy, Tool
from model.monitor.language.policy_json import tool_to_json
from model.revision.effects import EffectSet
from model.revision.explore.merge_keys import Steps
from model.revision.explore.workload import Workload
from model.revision.identity import match_key, same_monitor
from model.revision.smt.samples import Pool
from model.revision.smt.z3_matching import Encoder

MAX_ENTRIES = 500_000


class Memo:
    """Answers by semantic key (see the module docstring), and the keys of the objects met."""

    def __init__(self) -> None:
        self.sat: dict[Hashable, dict[frozenset[tuple[str, bool]], bool]] = {}
        self.verdicts: dict[Hashable, object] = {}
        self.unsupported: dict[Hashable, str | None] = {}
        self.pools: dict[Hashable, Pool] = {}  # concrete samples per context (samples.py)
        self.unsat: dict[Hashable, list[frozenset[tuple[str, bool]]]] = {}  # unsatisfiable questions (leaves.py)
        self.terms: dict[Hashable, object] = {}  # Z3 terms of the encoding (leaves.py)
        self._keys: dict[tuple[int, str], tuple[object, str]] = {}  # (id, part) → (the object, kept alive; key)
        self._steps: dict[tuple[int, int], tuple[Policy, Workload, Steps]] = {}  # ids → (policy, workload, table)
        self._same: dict[tuple[int, int], tuple[Policy, Policy, bool]] = {}  # ids → (old, new, same_monitor)
        self.size = 0
        self.queries = 0  # Z3 questions asked through this memo (for the experiment's report)
        self.sampled = 0  # questions a sample answered instead
        self.synthesized = 0  # questions a sample made for them answered instead (synth.py)
        self.ruled = 0  # questions answered unsatisfiable by a syntactic rule (refute.py)
        self.implied = 0  # questions answered unsatisfiable by implication (leaves.py)
        self.subsumed = 0  # questions answered unsatisfiable: they contain an unsatisfiable one (leaves.py)

    def clear(self) -> None:
        # the kept Z3 terms are dropped here: inside a Z3 section, as z3guard.py asks of Z3 objects
        # that outlive one (they are freed in this thread, never while another thread drives Z3)
        with z3_section():
            self.__init__()  # type: ignore[misc]

    def grow(self, n: int = 1) -> None:
        self.size += n
        if self.size > MAX_ENTRIES:
            self.clear()

    def _keyed(self, obj: object, make: Callable[[], str], part: str = "") -> str:
        """``make()``, once per object and ``part`` (the object kept alive with its keys, so its ``id``
        is not reused)."""
        hit = self._keys.get((id(obj), part))
        if hit is None or hit[0] is not obj:
            hit = (obj, make())
            self._keys[(id(obj), part)] = hit
        return hit[1]

    def match_key(self, e: Entry) -> str:
        hit = self._keys.get((id(e), ""))  # _keyed, inlined: the hottest key
        if hit is None or hit[0] is not e:
            hit = self._keys[(id(e), "")] = (e, match_key(e))
        return hit[1]

    def same_monitor(self, old: Policy, new: Policy) -> bool:
        """``identity.same_monitor``, once per pair of policy objects (kept alive with the answer)."""
        key = (id(old), id(new))
        hit = self._same.get(key)
        if hit is None or hit[0] is not old or hit[1] is not new:
            hit = self._same[key] = (old, new, same_monitor(old, new))
        return hit[2]

    def tools_key(self, tools: Sequence[Tool]) -> str:
        return self._keyed(tools, lambda: canonical_str([tool_to_json(t) for t in tools]))

    def steps(self, policy: Policy, workload: Workload) -> Steps:
        """The table of ``policy``'s transitions under ``workload`` (merge_keys.py's ``Steps``)."""
        key = (id(policy), id(workload))
        hit = self._steps.get(key)
        if hit is None or hit[0] is not policy or hit[1] is not workload:
            hit = self._steps[key] = (policy, workload, {})
        return hit[2]

    def base(self, context: Hashable, enc: Encoder, effects: EffectSet) -> z3.BoolRef:
        """``enc.base``, built once per context and universe: Z3 terms are named by path and slot, so
        encoders over the same paths, keys and slots build the same term."""
        key = ("base", context, enc.paths, tuple(sorted(enc.bound)))
        if key not in self.terms:
            self.terms[key] = enc.base(effects.resources(enc.action))
            self.grow()
        return cast(z3.BoolRef, self.terms[key])

    def literals(self, context: Hashable, enc: Encoder, e: Entry) -> tuple[z3.BoolRef, z3.BoolRef]:
        """``(enc.matches(e), enc.fails(e))``, built once: they read the universe only through its keys,
        and only for an entry with a key allowlist."""
        key = ("literals", context, self.match_key(e), None if e.keys is None else enc.keys)
        if key not in self.terms:
            self.terms[key] = (enc.matches(e), enc.fails(e))
            self.grow()
        return cast(tuple[z3.BoolRef, z3.BoolRef], self.terms[key])

    def solver(self, base: z3.BoolRef, owner: str = "leaves") -> z3.Solver:
        """A ``SimpleSolver`` (no preprocessing tactics: half the fixed cost of these small questions) with
        ``base`` asserted, kept per base term and ``owner`` (the enumerations of leaves.py, the structural
        questions of ``questions.find_witness``, the joint checker's coverage questions each have their
        own): each question is pushed and popped, so the solver holds the base alone between questions."""
        key = ("solver", owner, base.get_id())
        hit = cast(tuple[z3.BoolRef, z3.Solver] | None, self.terms.get(key))
        if hit is None:
            solver = z3.SimpleSolver()
            solver.add(base)
            hit = self.terms[key] = (base, solver)
            self.grow()
        return hit[1]

    def conjuncts(self, match: z3.BoolRef) -> frozenset[int]:
        """The ids of a match literal's conjuncts (for leaves.py's implied failures), once per term (kept with
        it: a term's id is stable while the term lives)."""
        key = ("conjuncts", match.get_id())
        hit = cast(tuple[z3.BoolRef, frozenset[int]] | None, self.terms.get(key))
        if hit is None:
            hit = self.terms[key] = (match, _conjunct_ids(match))
            self.grow()
        return hit[1]

    def context(self, action: str, effects: EffectSet, tools: Sequence[Tool]) -> Hashable:
        """What a satisfiability question about ``action`` depends on besides its literals."""
        return (action, self._keyed(effects, lambda: canonical_str(effects.resources(action)), action),
                self.tools_key(tools))

    def question(self, kind: str, a: Entry, b: Entry, effects: EffectSet, tools: Sequence[Tool]) -> Hashable:
        """The key of a pairwise question (``kind``: agreement or independence) about ``a`` and ``b``."""
        every = self._keyed(effects, lambda: canonical_str(effects.to_json()))
        return (kind, self.match_key(a), self.match_key(b), every, self.tools_key(tools))


def _conjunct_ids(match: z3.BoolRef) -> frozenset[int]:
    if z3.is_true(match):
        return frozenset()  # an entry with nothing to check matches every effect of its action
    return frozenset(c.get_id() for c in match.children()) if z3.is_and(match) else frozenset({match.get_id()})


SHARED = Memo()  # the process's memo (revise(..., fast=True) uses it)
