"""The explicit engine: the paper-literal fixed point over resolved words with support counts.

Section V-C1 and the proof of Proposition 2 (Appendix A-A). Steps:

1. enumerate every indexed linearization, resolve it and simulate the policy (``candidates``);
   the raw linearizations of every outcome form a trie whose nodes carry ``Compat(z)``;
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
once. The former fixed cap of 100,000 linearizations is gone: it limited work, not validity.
"""

from __future__ import annotations

from model.base.budget import Meter
from model.edits.check.answer import Accepted, Counts, Engine, Rejected, RejectionProof, Removal
from model.edits.check.can import build_can
from model.edits.check.candidates import Candidate, candidate_key, linearizations, refuse_beyond_budget
from model.edits.check.contract import Outcome
from model.edits.check.digest import InstanceDigest
from model.edits.check.instance import Instance
from model.edits.check.resolve import Letter, Mode, Word


class _Trie:
    def __init__(self) -> None:
        self.children: list[dict[str, int]] = [{}]
        self.letter: list[Letter | None] = [None]
        self.compat: list[set[int]] = [set()]
        self.parent: list[int] = [-1]

    def child(self, node: int, call: str, letter: Letter) -> int:
        nxt = self.children[node].get(call)
        if nxt is None:
            nxt = len(self.children)
            self.children[node][call] = nxt
            self.children.append({})
            self.letter.append(letter)
            self.compat.append(set())
            self.parent.append(node)
        return nxt


def run(inst: Instance, digest: InstanceDigest, meter: Meter) -> Accepted | Rejected:
    q_act = inst.action_map()
    labels = inst.label_map()
    table = inst.policy.table()
    start = inst.policy.run(inst.log_labels())
    outs = list(inst.outcomes().items())
    refuse_beyond_budget(dict(outs), meter)
    trie = _Trie()
    paths: list[tuple[int, ...]] = []  # candidate -> trie nodes root..leaf
    cand_outcome: list[int] = []
    for oi, (_, p) in enumerate(outs):
        for lin in linearizations(p):
            meter.tick()
            node, done, q = 0, set(inst.log), start
            path: list[int] = [0]
            trie.compat[0].add(oi)
            for x in lin:  # resolve and run the policy along the word
                d = q_act[x]
                mode = Mode.REUSE if d in done else Mode.NEW
                if mode is Mode.NEW:
                    done.add(d)
                    q = table.get((q, labels[d])) if q is not None else None
                node = trie.child(node, x, Letter(x, d, mode))
                trie.compat[node].add(oi)
                path.append(node)
            if q is not None:
                paths.append(tuple(path))
                cand_outcome.append(oi)
    n_cand = len(paths)
    # Support counts: count[node][o'] = remaining candidates of o' through node.
    count: dict[int, dict[int, int]] = {}
    through: dict[int, list[int]] = {}
    for ci, cpath in enumerate(paths):
        for node in cpath:
            cnt = count.setdefault(node, {})
            cnt[cand_outcome[ci]] = cnt.get(cand_outcome[ci], 0) + 1
            through.setdefault(node, []).append(ci)
    zeros = {node: len(trie.compat[node]) - len(cnt) for node, cnt in count.items()}
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
            wnode = next(node for node in paths[ci] if zeros[node] > 0)
            if wnode not in least_missing:
                least_missing[wnode] = min(o for o in trie.compat[wnode] if o not in count[wnode])
            removed.append((ci, wnode, least_missing[wnode]))
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

    def word(node: int) -> Word:
        out: list[Letter] = []
        while node > 0:
            letter = trie.letter[node]
            assert letter is not None
            out.append(letter)
            node = trie.parent[node]
        return tuple(reversed(out))

    names: list[Outcome] = [o for o, _ in outs]
    if not live:
        b0: list[Candidate] = sorted(((names[cand_outcome[ci]], word(paths[ci][-1])) for ci in range(n_cand)),
                                     key=candidate_key)
        proof_rounds = tuple(
            tuple(sorted((Removal(names[cand_outcome[ci]], word(paths[ci][-1]), word(w), names[m])
                          for ci, w, m in e), key=lambda r: candidate_key((r.outcome, r.word))))
            for e in rounds)
        return Rejected(Engine.EXPLICIT, RejectionProof(tuple(b0), proof_rounds),
                        Counts(n_cand, 0, 0, 0, tuple(sizes)), digest)
    alive_nodes: set[int] = set()
    marks: dict[int, list[Outcome]] = {}
    for ci in live:
        alive_nodes.update(paths[ci])
        marks.setdefault(paths[ci][-1], []).append(names[cand_outcome[ci]])

    def succ(node: int) -> list[tuple[Letter, int]]:
        out = []
        for c in trie.children[node].values():
            if c in alive_nodes:
                letter = trie.letter[c]
                assert letter is not None
                out.append((letter, c))
        return out

    can = build_can(0, succ, lambda node: marks.get(node, ()))
    return Accepted(Engine.EXPLICIT, can, Counts(n_cand, len(live), len(alive_nodes), can.n_states, tuple(sizes)),
                    digest)
