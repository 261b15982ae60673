"""The symbolic engine: the fixed point on the states of a deterministic product automaton.

Sections V-C1, V-C2 (Proposition 1) and VI-A, without enumerating linearizations.

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

**Fixed point on states.** ``Good`` is the largest set of states such that from every ``s ∈ Good``
and every ``o ∈ K(s)`` some path inside ``Good`` reaches a ``done_o`` state. Since the product is
acyclic this gfp is computed in one pass in reverse topological order (deciding a state needs
only its descendants): ``R(s) = done(s) ∪ ⋃{K(s') | s → s', s' ∈ Good}`` and ``s ∈ Good ⟺ R(s) = K(s)``.
It is the "iterated removal of states that leave some compatible outcome without a path to its
completion", with removals taken in the one order that needs no repetition.

**Claim.** ``B̂† = F := {(o, y) | the path of y stays in Good and ends done_o}`` and
``W† = ↓π₂B̂† =`` the words whose path stays in Good (the generated language of the Good part).

*F ⊆ B̂†.* ``F ⊆ B̂₀`` (paths spell candidates). ``F`` is post-fixed for Φ̂: for ``(o, y) ∈ F``,
``z ⪯ y`` and ``o' ∈ Compat(z) = K(state(z))``, ``state(z) ∈ Good`` gives a Good path ``v`` to a
``done_{o'}`` state, so ``(o', zv) ∈ F`` extends ``z``. By Knaster–Tarski ``F ⊆ B̂†``.

*B̂† ⊆ F.* Let ``G' = {state(z) | z ∈ W†}``. For ``z ∈ W†`` and ``o ∈ K(state(z)) = Compat(z)``, the
fixed-point equation ``B̂† = Φ̂(B̂†)`` at ``z`` gives ``(o, zv) ∈ B̂†``; every prefix of ``zv`` is in
``W†``, so its path stays in ``G'`` and ends ``done_o``. So ``G'`` satisfies Good's defining property
and ``G' ⊆ Good`` (greatest). Each ``(o, y) ∈ B̂†`` then has its path in ``G' ⊆ Good`` ending
``done_o`` (``y ∈ R_o``), i.e. ``(o, y) ∈ F``.

*Languages.* A word whose path stays in Good ends in a state with ``K ≠ ∅`` (transitions keep some
compatible outcome), hence extends inside Good to some ``done_o``: it is a prefix of ``F``. So
the Good part, read from the initial state, generates ``W†`` and marks ``π₂B̂†`` (with outcome
marks, ``B̂†``); it is empty iff the initial state is not Good. Minimizing it gives ``Can``.

A rejection proof lists ``B̂₀`` word by word, so on rejection it is built by the explicit engine's
support-count rounds (subject to that engine's size cap); the verdict itself never enumerates words.
"""

from __future__ import annotations

from collections import deque

from model.edits import explicit
from model.edits.can import build_can
from model.edits.compiled import bits, compile_outcomes
from model.edits.instance import Instance
from model.edits.resolve import Letter, Mode
from model.edits.verdict import Accepted, Counts, Engine, Rejected

State = tuple[int, int, int]  # (policy state, call set S, compatible outcomes K)


def run(inst: Instance, digest: str) -> Accepted | Rejected:
    comp = compile_outcomes(inst.outcomes())
    q_act = inst.action_map()
    labels = inst.label_map()
    table = inst.policy.table()
    actions = sorted(set(q_act.values()) | set(inst.log))
    aidx = {d: i for i, d in enumerate(actions)}
    call_action = [q_act[c] for c in comp.calls]
    call_abit = [1 << aidx[d] for d in call_action]
    q0 = inst.policy.run(inst.log_labels())
    assert q0 is not None, "check_wellformed guarantees lab(Δ) ∈ 𝒜"
    d0 = sum(1 << aidx[d] for d in inst.log)

    start: State = (q0, 0, comp.all_outcomes)
    ids: dict[State, int] = {start: 0}
    states: list[State] = [start]
    authorized: list[int] = [d0]
    succ: list[list[tuple[Letter, int]]] = [[]]
    todo = deque([0])
    while todo:
        i = todo.popleft()
        q, s, k = states[i]
        for c, k2 in sorted(comp.successors(s, k).items()):
            x, d = comp.calls[c], call_action[c]
            if authorized[i] & call_abit[c]:
                letter, q2 = Letter(x, d, Mode.REUSE), q
            else:
                nq = table.get((q, labels[d]))
                if nq is None:
                    continue
                letter, q2 = Letter(x, d, Mode.NEW), nq
            nxt = (q2, s | (1 << c), k2)
            j = ids.get(nxt)
            if j is None:
                j = ids[nxt] = len(states)
                states.append(nxt)
                authorized.append(authorized[i] | call_abit[c])
                succ.append([])
                todo.append(j)
            succ[i].append((letter, j))

    n = len(states)
    done = [comp.done(s, k) for _, s, k in states]
    order = sorted(range(n), key=lambda i: -states[i][1].bit_count())  # descendants first
    good = [False] * n
    for i in order:
        r = done[i]
        for _, j in succ[i]:
            if good[j]:
                r |= states[j][2]
        good[i] = r == states[i][2]
    # |B̂₀| by counting paths through the whole product (in topological order).
    paths = [0] * n
    paths[0] = 1
    for i in reversed(order):
        for _, j in succ[i]:
            paths[j] += paths[i]
    n_b0 = sum(p * done[i].bit_count() for i, p in enumerate(paths))
    if not good[0]:
        word_level = explicit.run(inst, digest)
        assert isinstance(word_level, Rejected), "the engines disagree: see tests/property/test_edits_differential.py"
        proof = word_level.proof
        return Rejected(Engine.SYMBOLIC, proof, Counts(n_b0, 0, 0, 0, proof.sizes()), digest)
    can = build_can(0, lambda i: [(a, j) for a, j in succ[i] if good[j]],
                    lambda i: [comp.outcomes[o] for o in bits(done[i])])
    return Accepted(Engine.SYMBOLIC, can,
                    Counts(n_b0, can.count_completions(), can.count_prefixes(), can.n_states, None), digest)
