"""The symbolic engine: the fixed point on the states of a deterministic product automaton.

Sections V-C1, V-C2 (Proposition 1), V-C3 and VI-A, without enumerating linearizations.

**Product.** A state is ``s = (q, S, K)``: the policy state ``q`` after ``lab(Δ)·auth(z)``, the set
``S`` of calls in the partial execution ``z`` (which fixes the authorized actions
``D_Δ ∪ q_act(S)``, hence every later new/reuse annotation), and the set ``K = Compat(z)`` of
outcomes ``z`` is still compatible with (per-outcome progress is ``S ∩ X_{p_o}``). From ``(q₀, ∅, O)``
with ``q₀`` the policy state after ``lab(Δ)``, call ``x`` is enabled when some ``o ∈ K`` has ``x``
among its minimal remaining calls and, if ``x``'s action is not yet authorized, the policy allows
its label; the letter is ``Resolve``'s annotation of ``x``. State ``s`` is ``done_o`` when
``o ∈ K`` and ``S = X_{p_o}``. The product is acyclic (``S`` grows) and deterministic, every path
from the initial state spells a resolved word, and by construction
``(o, y) ∈ B̂₀ ⟺ y`` labels a path ending in a ``done_o`` state, and ``Compat(z) = K(state(z))``.
Nothing here assumes a series-parallel contract: explicit families (``model.edits.check.family``) give
``K`` and the enabled calls the same way.

**Rounds on states.** Let ``G₀`` be every state and ``G_{i+1} = G_i \\ bad_i`` where ``s ∈ bad_i``
iff some ``o ∈ K(s)`` has no path inside ``G_i`` from ``s`` to a ``done_o`` state. Then
``B̂_i = {(o, y) | the path of y stays in G_i and ends done_o}`` for every ``i`` (induction: a
candidate of ``B̂_i`` is removed by Φ̂ iff some prefix ``z`` has ``o' ∈ Compat(z) = K(state(z))``
with no ``(o', zv) ∈ B̂_i``; the prefix ``z`` is shared, so that is ``state(z) ∈ bad_i``). Hence a
candidate leaves in round ``min`` of its states' ranks, its canonical witness is the shortest prefix
whose state has that rank with the least outcome missing there, and the rounds and the rejection
proof of the word-level iteration are read off the states (``model.edits.check.symbolic_rounds``). The
last family is ``B̂†``; ``W† = ↓π₂B̂†`` is the language of the surviving part, which minimizes to
``Can``. When no state is bad in round 0 (the common accepted case) a single reverse-topological
pass decides everything, and ``can_of_product`` minimizes the whole product directly (the same
automaton as ``build_can``, faster, which matters because small checks are mostly set-up).

Budget: one tick per product state built and per candidate letter emitted into a rejection proof;
the proof has no other limit. The product and the proof count their ticks themselves while the
meter's ``room`` says they would only count, so the meter raises at the same state (the same
emitted word) as with one call per state (per word).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from model.base.budget import Meter
from model.edits.check.answer import Accepted, Counts, Engine, Rejected, make_accepted, make_counts, make_rejected
from model.edits.check.can import Can, build_can
from model.edits.check.contract import CallId, Outcome
from model.edits.check.digest import InstanceDigest
from model.edits.check.instance import Instance
from model.edits.check.outcome_bits import Compiled, bits, compile_outcomes
from model.edits.check.resolve import Letter, Mode, make_letter
from model.edits.check.symbolic_rounds import Product, make_product, proof_from_ranks, ranks, round_sizes

# (policy state, call set S, compatible outcomes K, authorized actions): the last is a function of S
# (and the log), so it does not change which states are equal; keeping it in the key lets one tuple
# be both the key and the stored state.
State = tuple[int, int, int, int]

# Enum members read once (an Enum class attribute look-up is a slow path, on every check otherwise).
_NEW, _REUSE = Mode.NEW, Mode.REUSE


def build_product(inst: Instance, meter: Meter, comp: Compiled | None = None,
                  q_act: dict[CallId, str] | None = None, labels: dict[str, str] | None = None) -> Product:
    """The reachable product, breadth-first; ``q_act`` and ``labels`` are the instance's maps when the
    caller already built them. Written with local names and inlined helpers: on tiny instances this
    set-up is most of a check."""
    comp = comp if comp is not None else compile_outcomes(inst.outcomes())
    if q_act is None:
        q_act = dict(inst.actions)
    if labels is None:
        labels = dict(inst.labels)
    table = inst.policy.table()
    calls = comp.calls
    log = inst.log
    # Any injective numbering of the actions will do (the masks only test membership): first use
    # order, the log's actions first. One loop builds every per-call table.
    abit: dict[str, int] = {}
    for d in log:
        abit.setdefault(d, 1 << len(abit))
    # One Letter object per call and mode: words in proofs share them instead of copying. A reuse
    # letter is made when first needed (most calls never reuse: small checks pay for every object).
    new = _NEW
    acts: list[str] = []
    call_abit: list[int] = []
    call_label: list[str] = []
    new_letter: list[Letter] = []
    for x in calls:
        d = q_act[x]
        b = abit.get(d)
        if b is None:
            b = abit[d] = 1 << len(abit)
        acts.append(d)
        call_abit.append(b)
        call_label.append(labels[d])
        new_letter.append(make_letter(x, d, new))
    n_calls = len(calls)
    reuse_letter: list[Letter | None] = [None] * n_calls
    d0 = 0
    if log:
        q0 = inst.policy.run([labels[d] for d in log])
        assert q0 is not None, "check_wellformed guarantees lab(Δ) ∈ 𝒜"
        for d in log:
            d0 |= abit[d]
    else:
        q0 = 0  # the run of ε

    everything = comp.all_outcomes
    by_size = comp.by_size
    masks, by_call = comp.masks, comp.by_call
    unions: dict[int, int] = {}  # K -> the calls of its outcomes
    root = (q0, 0, everything, d0)
    ids: dict[State, int] = {root: 0}
    # Breadth-first, so the index order is the discovery order.
    states: list[State] = [root]
    compat = [everything]
    done = [everything & by_size.get(0, 0)]  # comp.done(0, K), inlined as below
    levels: list[list[int]] = [[0], *[[] for _ in range(n_calls)]]
    succ: list[Sequence[tuple[Letter, int]]] = []
    # Budget: one tick per state, state j being tick j + 1. The meter has been handed the first
    # ``handed`` ticks; those below ``free`` (``handed`` + its ``room``) would only count, so they are
    # counted here by index and handed over in one ``tick(n)`` with the first that may do more: the
    # meter raises or reads the clock at exactly the same state as with one call per state.
    handed = 0
    free = meter.room()
    if not free:
        meter.tick()
        handed = 1
        free = 1 + meter.room()
    for q, s, k, auth_i in states:  # grows while it is read: breadth-first
        # comp.successors(s, k), inlined and by call, so in call order: each call of K's outcomes
        # outside S, with the outcomes of K in which its predecessors are all in S.
        u = unions.get(k)
        if u is None:
            u = 0
            for o in bits(k):
                u |= masks[o]
            unions[k] = u
        todo = u & ~s
        if not todo:  # every outcome of K complete: no move (the leaves share one empty tuple)
            succ.append(())
            continue
        out: list[tuple[Letter, int]] = []
        succ.append(out)
        for c in bits(todo):
            k2 = 0
            for pm, om in by_call[c]:
                if pm & s == pm:
                    k2 |= om
            k2 &= k
            if not k2:
                continue
            if auth_i & call_abit[c]:
                letter = reuse_letter[c]
                if letter is None:
                    letter = reuse_letter[c] = make_letter(calls[c], acts[c], _REUSE)
                q2 = q
            else:
                nq = table.get((q, call_label[c]))
                if nq is None:
                    continue
                letter, q2 = new_letter[c], nq
            s2 = s | (1 << c)
            nxt = (q2, s2, k2, auth_i | call_abit[c])
            j = ids.get(nxt)
            if j is None:
                j = ids[nxt] = len(states)
                if j >= free:
                    meter.tick(j + 1 - handed)
                    handed = j + 1
                    free = handed + meter.room()
                states.append(nxt)
                compat.append(k2)
                size = s2.bit_count()
                done.append(k2 & by_size.get(size, 0))  # comp.done(s2, k2), inlined: once per state
                levels[size].append(j)
            out.append((letter, j))
    if len(states) > handed:
        meter.tick(len(states) - handed)
    return make_product(comp.outcomes, compat, done, succ, levels)


def run(inst: Instance, digest: InstanceDigest, meter: Meter, comp: Compiled | None = None,
        q_act: dict[CallId, str] | None = None, labels: dict[str, str] | None = None) -> Accepted | Rejected:
    prod = build_product(inst, meter, comp, q_act, labels)
    rank, missing, reach0 = ranks(prod)
    if rank[0] is not None:
        # The proof lists B̂₀ itself, so |B̂₀| is its length: no separate path count.
        proof = proof_from_ranks(prod, rank, missing, reach0, meter)
        left = [len(proof.candidates)]  # proof.sizes(), inlined
        for e in proof.rounds:
            left.append(left[-1] - len(e))
        return make_rejected(Engine.SYMBOLIC, proof, make_counts(left[0], 0, 0, 0, tuple(left)), digest)
    # |B̂₀| and |W₀| by counting paths through the whole product. Discovery is breadth-first and
    # every move adds one call, so index order is topological.
    succ, done = prod.succ, prod.done
    paths = [0] * len(succ)
    paths[0] = 1
    n_b0 = n_w0 = 0
    for i, out in enumerate(succ):
        p = paths[i]
        if p:
            n_w0 += p
            d = done[i]
            if d:
                n_b0 += p * d.bit_count()
            for _, j in out:
                paths[j] += p
    if not missing:  # no state removed: B̂† = B̂₀ and W† is every path of the (deterministic) product
        can = can_of_product(prod)
        return make_accepted(Engine.SYMBOLIC, can, make_counts(n_b0, n_b0, n_w0, can.n_states, (n_b0,)), digest)
    sizes = round_sizes(prod, rank, n_b0)
    outs = prod.outcomes

    def marks(i: int) -> Iterable[Outcome]:
        return [outs[o] for o in bits(done[i])] if done[i] else ()

    can = build_can(0, lambda i: [(a, j) for a, j in prod.succ[i] if rank[j] is None], marks)
    safe, prefixes = can.count_both()
    return Accepted(Engine.SYMBOLIC, can, Counts(n_b0, safe, prefixes, can.n_states, sizes), digest)


def can_of_product(prod: Product) -> Can:
    """``build_can`` of the whole product (every state kept), specialized: equal to
    ``build_can(0, prod.succ.__getitem__, marks, bottom_up=reversed(range(n)))`` (a property test
    compares them) at a fraction of the cost on small products.

    Why the shortcuts hold: discovery is breadth-first and every move adds one call, so each successor
    has a larger index (the reversed indices are bottom-up); a state's moves are in call order with
    one move per call, which is the letter order (``build_can`` would sort them to the same order);
    the product makes one ``Letter`` object per call and mode, so within it letters are equal exactly
    when they are the same object, and mark sets are equal exactly when their outcome bitmasks are —
    so a derivative signature can be keyed by ``id`` of letters and by masks, and hashing needs no
    ``Letter.__hash__``. Classes are numbered in the same order and renumbered breadth-first the same
    way, so the automaton is the same value.
    """
    succ, done, outs = prod.succ, prod.done, prod.outcomes
    n = len(succ)
    cls = [0] * n
    sig_ids: dict[tuple[int, ...], int] = {}
    rep: list[int] = []  # per class, the first state interned into it
    for i in range(n - 1, -1, -1):
        key = [done[i]]
        for a, j in succ[i]:
            key.append(id(a))
            key.append(cls[j])
        sig = tuple(key)
        c = sig_ids.get(sig)
        if c is None:
            c = sig_ids[sig] = len(rep)
            rep.append(i)
        cls[i] = c
    order = {cls[0]: 0}
    todo = [cls[0]]
    delta: list[tuple[tuple[int, Letter], int]] = []
    marks: list[tuple[Outcome, ...]] = []
    for c in todo:  # grows while it is read: breadth-first
        i = rep[c]
        d = done[i]
        marks.append(tuple(sorted([outs[o] for o in bits(d)])) if d else ())
        q = order[c]
        for a, j in succ[i]:
            cj = cls[j]
            r = order.get(cj)
            if r is None:
                r = order[cj] = len(order)
                todo.append(cj)
            delta.append(((q, a), r))
    return Can(len(order), tuple(delta), tuple(marks))
