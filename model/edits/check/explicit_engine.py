"""The explicit engine: the paper-literal fixed point over resolved words with support counts.

Section V-C1 and the proof of Proposition 2 (Appendix A-A). Steps:

1. enumerate every indexed linearization, resolve it and simulate the policy (as ``candidates``
   does, in the same order); the raw linearizations of every outcome form a trie whose nodes carry
   ``Compat(z)``. The enumeration is a depth-first walk of that trie, so words sharing a prefix share
   its resolution and policy run (on tiny instances this set-up is most of a check);
2. for every support key ``(z, o')`` with ``z`` a prefix of a candidate and ``o' ∈ Compat(z)``, keep
   the number of remaining candidates ``(o', y')`` through ``z``;
3. the first batch is every candidate through a node with a zero key; removing a batch
   decrements the keys along its words, and a node whose first key drops to zero enqueues exactly
   the remaining candidates through it for the next batch.

Batches are synchronous, so batch ``i`` is exactly ``B̂_i \\ B̂_{i+1}`` (a candidate is removed in
round ``i`` iff some prefix has a compatible outcome with no support in ``B̂_i``). Each candidate
is removed once and each key reaches zero once; the canonical witness of a removal (shortest
prefix with a zero key, least missing outcome) is read before the batch's decrements.
The accepted answer is built from the trie of surviving candidates (``can.build_can``).
Budget: one tick per linearization; a states budget below the linearization count (counted
exactly through the downsets of each outcome's pomset, before any enumeration) is ``Unknown`` at
once. The count is skipped when the bound ``Σ_o |X_{p_o}|!`` already fits the budget (it could not
refuse then). The former fixed cap of 100,000 linearizations is gone: it limited work, not validity.
"""

from __future__ import annotations

from math import factorial
from typing import cast

from model.base.budget import Meter
from model.edits.check.answer import (
    Accepted,
    Engine,
    Rejected,
    make_accepted,
    make_counts,
    make_proof,
    make_rejected,
    make_removal,
)
from model.edits.check.can import build_can
from model.edits.check.candidates import refuse_beyond_budget
from model.edits.check.contract import CallId, Outcome
from model.edits.check.digest import InstanceDigest
from model.edits.check.instance import Instance
from model.edits.check.outcome_bits import Compiled, compile_contract
from model.edits.check.resolve import Letter, Mode, Word, make_letter

# Enum members read once (an Enum class attribute look-up is a slow path).
_NEW, _REUSE = Mode.NEW, Mode.REUSE


def run(inst: Instance, digest: InstanceDigest, meter: Meter, comp: Compiled | None = None,
        q_act: dict[CallId, str] | None = None, labels: dict[str, str] | None = None) -> Accepted | Rejected:
    """``comp``, ``q_act`` and ``labels`` are the compiled contract and the instance's maps when the
    caller already built them (``checker`` does, for well-formedness)."""
    comp = comp if comp is not None else compile_contract(inst.contract)
    if q_act is None:
        q_act = dict(inst.actions)
    if labels is None:
        labels = dict(inst.labels)
    limit = meter.budget.states
    if limit is not None:
        # |Lin(p_o)| ≤ |X_{p_o}|!: when the bound fits, the exact count cannot refuse, so it is skipped.
        bound = 0
        for m in comp.masks:
            bound += factorial(m.bit_count())
        if bound > limit - meter.states:
            refuse_beyond_budget(inst.outcomes(), meter)
    table = inst.policy.table()
    log = inst.log
    calls = comp.calls
    # Actions as bits (any injective numbering: the masks only test membership), the log's first.
    abit: dict[str, int] = {}
    for d in log:
        abit.setdefault(d, 1 << len(abit))
    d0 = (1 << len(abit)) - 1
    call_abit: list[int] = []
    call_label: list[str] = []
    # One Letter per call and mode, shared by every trie node with that letter (equal values).
    new_letter: list[Letter] = []
    reuse_letter: list[Letter | None] = [None] * len(calls)  # made when first needed (most calls never reuse)
    for x in calls:
        d = q_act[x]
        b = abit.get(d)
        if b is None:
            b = abit[d] = 1 << len(abit)
        call_abit.append(b)
        call_label.append(labels[d])
        new_letter.append(make_letter(x, d, _NEW))
    start = inst.policy.run([labels[d] for d in log]) if log else 0
    # The trie of raw linearizations (children by call index); node 0 is ε.
    children: list[dict[int, int]] = [{}]
    letter_of: list[Letter | None] = [None]
    tcompat: list[int] = [0]  # Compat of the node's raw prefix, as an outcome bitmask
    paths: list[tuple[int, ...]] = []  # candidate -> trie nodes root..leaf
    cand_outcome: list[int] = []
    path: list[int] = [0]
    # Budget: one tick per linearization, counted here while the meter's ``room`` says they would only
    # count, and handed over in one ``tick(n)`` with the first that may do more (as one call each).
    lin = handed = 0
    free = meter.room()
    oi = ob = 0
    full = 0
    st: list[tuple[int, int]] = []

    def dfs(node: int, chosen: int, auth_m: int, q: int | None) -> None:
        """Every linearization through ``node``, in sorted call order (as ``linearizations``), resolving
        and running the policy one letter at a time: words sharing a prefix share its work."""
        nonlocal lin, handed, free
        if chosen == full:  # only for an outcome with no calls: longer words end in the loop below
            lin += 1
            if lin >= free:
                meter.tick(lin - handed)
                handed = lin
                free = handed + meter.room()
            if q is not None:
                paths.append(tuple(path))
                cand_outcome.append(oi)
            return
        kids = children[node]
        for c, pm in st:
            if chosen >> c & 1 or pm & chosen != pm:
                continue
            b = call_abit[c]
            if auth_m & b:
                q2 = q
            else:
                q2 = table.get((q, call_label[c])) if q is not None else None
            nxt = kids.get(c)
            if nxt is None:
                nxt = kids[c] = len(children)
                children.append({})
                if auth_m & b:
                    letter = reuse_letter[c]
                    if letter is None:
                        letter = reuse_letter[c] = make_letter(calls[c], q_act[calls[c]], _REUSE)
                else:
                    letter = new_letter[c]
                letter_of.append(letter)
                tcompat.append(ob)
            else:
                tcompat[nxt] |= ob
            after = chosen | 1 << c
            if after == full:  # a whole linearization: handled here, without a call per leaf
                lin += 1
                if lin >= free:
                    meter.tick(lin - handed)
                    handed = lin
                    free = handed + meter.room()
                if q2 is not None:
                    paths.append((*path, nxt))
                    cand_outcome.append(oi)
            else:
                path.append(nxt)
                dfs(nxt, after, auth_m | b, q2)
                path.pop()

    steps = comp.steps()
    for oi in range(len(comp.outcomes)):  # read by dfs through its closure
        st = steps[oi]
        full = comp.masks[oi]
        ob = 1 << oi
        tcompat[0] |= ob
        dfs(0, 0, d0, start)
    if lin > handed:
        meter.tick(lin - handed)
    n_cand = len(paths)
    # Support counts: count[node][o'] = remaining candidates of o' through node.
    count: dict[int, dict[int, int]] = {}
    through: dict[int, list[int]] = {}
    for ci, cpath in enumerate(paths):
        o = cand_outcome[ci]
        for node in cpath:
            cnt = count.get(node)
            if cnt is None:
                count[node] = {o: 1}
                through[node] = [ci]
            else:
                cnt[o] = cnt.get(o, 0) + 1
                through[node].append(ci)
    zeros = {node: tcompat[node].bit_count() - len(cnt) for node, cnt in count.items()}
    live = set(range(n_cand))
    flagged = [node for node, z in zeros.items() if z > 0]
    rounds: list[list[tuple[int, int, int]]] = []  # (candidate, witness node, missing outcome)
    sizes = [n_cand]
    while flagged:
        batch = sorted({ci for node in flagged for ci in through[node] if ci in live})
        if not batch:
            break
        removed = []
        least_missing: dict[int, int] = {}  # per witness node, shared by the candidates through it
        for ci in batch:  # witnesses against the counts of B̂_i
            for wnode in paths[ci]:  # the shortest prefix with a zero key (one exists: ci is in the batch)
                if zeros[wnode] > 0:
                    break
            miss = least_missing.get(wnode)
            if miss is None:
                left = tcompat[wnode]
                for o in count[wnode]:
                    left &= ~(1 << o)
                miss = least_missing[wnode] = (left & -left).bit_length() - 1
            removed.append((ci, wnode, miss))
        flagged = []
        for ci in batch:
            live.discard(ci)
            o = cand_outcome[ci]
            for node in paths[ci]:
                cnt = count[node]
                cnt[o] -= 1
                if cnt[o] == 0:
                    del cnt[o]
                    zeros[node] += 1
                    if zeros[node] == 1:
                        flagged.append(node)
        rounds.append(removed)
        sizes.append(len(live))

    names = comp.outcomes
    if not live:
        # Each candidate's word from its trie path; a witness prefix is a prefix of it.
        lets = cast(list[Letter], letter_of)  # only the root's is None, and no path's tail holds the root
        cwords: list[Word] = [tuple([lets[n] for n in p[1:]]) for p in paths]

        # Candidates are numbered in enumeration order — outcomes in canonical order, each one's words
        # in sorted call order — which is the canonical order (``candidate_key``: the outcome, then the
        # first differing letter, whose calls differ), and each batch is sorted by number: B̂₀ and every
        # round are listed canonically without sorting.
        b0 = tuple([(names[cand_outcome[ci]], cwords[ci]) for ci in range(n_cand)])
        proof_rounds = tuple([
            tuple([make_removal(names[cand_outcome[ci]], cwords[ci], cwords[ci][:paths[ci].index(w)], names[m])
                   for ci, w, m in e])
            for e in rounds])
        return make_rejected(Engine.EXPLICIT, make_proof(b0, proof_rounds),
                             make_counts(n_cand, 0, 0, 0, tuple(sizes)), digest)
    alive_nodes: set[int] = set()
    marks: dict[int, list[Outcome]] = {}
    for ci in live:
        alive_nodes.update(paths[ci])
        marks.setdefault(paths[ci][-1], []).append(names[cand_outcome[ci]])

    def succ(node: int) -> list[tuple[Letter, int]]:
        out = []
        for c in children[node].values():
            if c in alive_nodes:
                letter = letter_of[c]
                assert letter is not None
                out.append((letter, c))
        return out

    # Trie nodes are numbered depth-first in creation order, so a child's number exceeds its parent's:
    # the alive nodes in decreasing order are bottom-up, and build_can needs no search to order them.
    can = build_can(0, succ, lambda node: marks.get(node, ()), sorted(alive_nodes, reverse=True))
    return make_accepted(Engine.EXPLICIT, can,
                         make_counts(n_cand, len(live), len(alive_nodes), can.n_states, tuple(sizes)), digest)
