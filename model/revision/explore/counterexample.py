"""Bounded counterexample search when no certificate exists (Agenra Sections 1 and 7.1).

- ``lost_client``: the shortest call sequence of the workload that the old policy admits in full
  and the new policy refuses (at its last call; every shorter prefix is admitted by both, since
  the search is breadth first).
- ``new_forbidden``: the shortest sequence the new policy admits in full whose effects break one
  of the workload's forbidden budgets, and that the old policy does not admit in full.

Mid-task (``start``, prefix.py) both searches begin at the starting point: the old policy in the
state S its prefix reached, the new one in S with the carried counters; the sequences are suffixes
of the prefix, the prefix's effects count against the forbidden budgets, and the Adapter replay runs
prefix + suffix.

The forbidden-trace search does not decide a last call whose effects break no budget (``prune``): such a
sequence is never the answer, so the answer is the same and only the count of visited nodes is smaller.
Both searches explore the product of the two monitors with merging (``explore.py``); ``merge=False`` is
the sequence enumeration it replaced (same results, the speed baseline). With a ``memo`` each policy's
transitions from task start are kept by sequence (``merge_keys.Steps``) and reused across searches.

Each result is replayed through the Adapter (``replay.py``) under both policies and carries
whether that replay confirmed it; a search that finds nothing within the bound answers ``None``
with the number of sequences it visited. Safety and preservation are searched separately and
reported separately: neither implies the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.base.budget import Meter
from model.base.canonical import JSON
from model.monitor.decide.base import Decision
from model.monitor.language.policy import Policy
from model.revision.explore.accelerate import (
    EXPAND_LIMIT,
    Found,
    blocks_json,
    expand,
    length,
    verify_forbidden,
    verify_lost,
)
from model.revision.explore.confirm import replay, trace_document
from model.revision.explore.lockstep import explore
from model.revision.explore.memo import Memo
from model.revision.explore.merge_keys import Node
from model.revision.explore.prefix import StartingPoint
from model.revision.explore.workload import Workload


@dataclass(frozen=True, slots=True)
class Counterexample:
    seq: tuple[int, ...]
    names: tuple[str, ...]
    refusal: str  # how the policy that does not admit the sequence refused it
    confirmed: bool  # the Adapter replay agrees under both policies
    trace: dict[str, JSON]  # a scripted trace for `agentwarrant monitor run`, expectations under the admitting policy
    # found through the counters (accelerate.py): (call, times) per block, e.g. A^Q · B; ``seq`` and ``names``
    # are then the expanded sequence when it is short enough to list, else empty
    blocks: tuple[tuple[str, int], ...] = ()

    def show(self) -> str:
        if self.blocks:
            return " · ".join(n if k == 1 else f"{n}^{k}" for n, k in self.blocks)
        return ", ".join(self.names)

    def length(self) -> int:
        return sum(k for _, k in self.blocks) if self.blocks else len(self.seq)

    def to_json(self) -> dict[str, JSON]:
        doc: dict[str, JSON] = {"calls": list(self.names), "refusal": self.refusal, "confirmed": self.confirmed,
                                "trace": self.trace}
        if self.blocks:
            doc["compressed"] = [{"call": n, "times": k} for n, k in self.blocks]
            doc["length"] = self.length()
        return doc


@dataclass(frozen=True, slots=True)
class Searched:
    """Nothing found: ``visited`` nodes (sequences, or with merging product states) of length at most ``bound``."""

    bound: int
    visited: int


def _refusal(node: Node) -> str:
    v = node.other_refusal
    if v is None:
        return "refused"
    return v.decision.value + (f" ({v.reason.value})" if v.reason is not None else "")


def _example(node: Node, workload: Workload, confirmed: bool, start: StartingPoint | None) -> Counterexample:
    names = tuple(workload.templates[k].name for k in node.seq)
    doc = trace_document(workload, node.seq, [Decision.ALLOW] * len(node.seq), start)
    return Counterexample(node.seq, names, _refusal(node), confirmed, doc)


def root(start: StartingPoint | None, lead_is_old: bool, tested: bool = False) -> Node | None:
    """The search's root at a starting point (``None``: task start); ``tested``: the prefix's effects with
    their arguments (a budget tests them)."""
    if start is None:
        return None
    old, new = start.run.state, start.new_state
    lead, other = (old, new) if lead_is_old else (new, old)
    run = start.run
    return Node((), lead, other, None, run.produced, run.values, run.arg_effects if tested else run.effects)


def compressed(old: Policy, new: Policy, workload: Workload, found: Found, lost: bool) -> Counterexample:
    """A counterexample found through the counters, verified again from scratch by the exact compressed
    replay (``verify_lost``/``verify_forbidden``) and, when at most ``EXPAND_LIMIT`` calls long, by the Adapter
    replay of the expanded sequence as well."""
    blocks = found.blocks
    ok = verify_lost(old, new, workload, blocks) if lost else verify_forbidden(old, new, workload, blocks)
    n = length(blocks)
    seq: tuple[int, ...] = ()
    doc: dict[str, JSON] = {"compressed": blocks_json(blocks, workload), "length": n}
    if n <= EXPAND_LIMIT:
        seq = expand(blocks)
        if lost:
            ok = ok and replay(old, workload, seq, None, old).admits_all(n) and \
                replay(new, workload, seq, None, old).refuses_only_last(n)
        else:
            after = replay(new, workload, seq, None, old)
            ok = ok and after.admits_all(n) and workload.is_forbidden(after.effects) and \
                not replay(old, workload, seq, None, old).admits_all(n)
        doc = trace_document(workload, seq, [Decision.ALLOW] * n, None)
    names = tuple(workload.templates[k].name for k in seq)
    pairs = tuple((workload.templates[b.template].name, b.times) for b in blocks)
    return Counterexample(seq, names, found.refusal, ok, doc, pairs)


def lost_client(old: Policy, new: Policy, workload: Workload, bound: int,
                start: StartingPoint | None = None, meter: Meter | None = None, *,
                merge: bool = True, memo: Memo | None = None) -> Counterexample | Searched:
    def lost(node: Node) -> bool:
        return node.other is None

    found, visited = explore(old, new, workload, bound, lost, root(start, True), merge=merge,
                             effects_matter=False, tick=None if meter is None else meter.tick,
                             steps=None if memo is None else (memo.steps(old, workload), memo.steps(new, workload)))
    if found is None:
        return Searched(bound, visited)
    n = len(found.seq)
    confirmed = replay(old, workload, found.seq, start, old).admits_all(n) and \
        replay(new, workload, found.seq, start, old).refuses_only_last(n)
    return _example(found, workload, confirmed, start)


def new_forbidden(old: Policy, new: Policy, workload: Workload, bound: int,
                  start: StartingPoint | None = None, meter: Meter | None = None, *,
                  merge: bool = True, memo: Memo | None = None, prune: bool = True) -> Counterexample | Searched:
    """``prune``: a last call whose effects leave every budget unbroken is not decided (it is never the
    answer, whatever the policies say), and the merge key leaves out records no call can name
    (``explore``'s ``lean``); ``False`` does neither, the speed baseline."""
    def forbidden(node: Node) -> bool:
        return node.other is None and workload.is_forbidden(node.effects)

    top = root(start, False, workload.tests_args())
    found, visited = explore(new, old, workload, bound, forbidden, top, merge=merge,
                             tick=None if meter is None else meter.tick,
                             steps=None if memo is None else (memo.steps(new, workload), memo.steps(old, workload)),
                             budgets=prune, lean=prune)
    if found is None:
        return Searched(bound, visited)
    n = len(found.seq)
    after = replay(new, workload, found.seq, start, old)
    confirmed = after.admits_all(n) and workload.is_forbidden(after.effects) and \
        not replay(old, workload, found.seq, start, old).admits_all(n)
    return _example(found, workload, confirmed, start)
