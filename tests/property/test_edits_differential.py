"""Differential tests: the three engines, the literal Φ̂ iteration, Can and the proof verifier agree.

*Exact Checking for Execution Edits*, Sections V-C1, V-C3, VI-A, Appendices A-A, A-B (the engines
must agree because each implements the same fixed point). 2,000 generated small instances,
derandomized so the run is reproducible.
"""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, event, given, settings

from model.base.budget import Budget, Unknown
from model.edits.check.answer import Accepted, Engine, Invalid, Rejected, RejectionProof, Verdict
from model.edits.check.candidates import Candidate, enumerate_candidates
from model.edits.check.checker import check
from model.edits.check.instance import Instance
from model.edits.check.resolve import Word
from model.edits.check.rounds import iterate
from model.edits.check.verify import verify
from model.oracle.generators import edit_instances, family_instances

SETTINGS = settings(max_examples=3000, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _run_all(inst: Instance) -> dict[Engine, Verdict]:
    """Every engine; the declarative one under a budget of 4,096 subsets (its former cap), which only it
    can exhaust on these sizes."""
    out: dict[Engine, Verdict] = {}
    for e in Engine:
        v = check(inst, e, budget=Budget(states=5_000) if e is Engine.DECLARATIVE else Budget())
        if isinstance(v, Unknown):
            assert e is Engine.DECLARATIVE
        else:
            out[e] = v
    return out


def _prefixes(family: frozenset[Candidate]) -> set[Word]:
    return {y[:i] for _, y in family for i in range(len(y) + 1)}


def _mutations(proof: RejectionProof) -> list[RejectionProof]:
    """Proofs that must be refused: drop a removal, change a rank, change a witness."""
    out = []
    rounds = [list(e) for e in proof.rounds]
    for i, e in enumerate(rounds):
        for j, r in enumerate(e):
            dropped = [list(x) for x in rounds]
            del dropped[i][j]
            out.append(RejectionProof(proof.candidates, tuple(tuple(x) for x in dropped if x)))
            moved = [list(x) for x in rounds]
            del moved[i][j]
            if i + 1 < len(moved):
                moved[i + 1].append(r)
            else:
                moved.append([r])
            # Empty rounds are kept: moving the only removal of a round changes its rank to i + 1.
            out.append(RejectionProof(proof.candidates, tuple(tuple(x) for x in moved)))
            if i > 0:
                earlier = [list(x) for x in rounds]
                del earlier[i][j]
                earlier[i - 1].append(r)
                out.append(RejectionProof(proof.candidates, tuple(tuple(x) for x in earlier)))
            # Witness: the candidate itself covers its own outcome at every prefix of its word.
            own = dataclasses.replace(r, missing=r.outcome)
            # Witness: a "prefix" that is not a prefix of the removed word.
            longer = dataclasses.replace(r, prefix=(*r.word, *r.word[:1]) if r.word else r.word)
            for w in (own, longer):
                if w != r:
                    changed = [list(x) for x in rounds]
                    changed[i][j] = w
                    out.append(RejectionProof(proof.candidates, tuple(tuple(x) for x in changed)))
    return out


@SETTINGS
@given(edit_instances())
def test_engines_agree_and_languages_match(inst: Instance) -> None:
    _engines_agree(inst)


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(family_instances())
def test_engines_agree_on_explicit_families(inst: Instance) -> None:
    """The same agreement over explicit outcome families — N-shaped orders, one call in
    several outcomes ordered differently — which no contract term can spell."""
    outs = inst.outcomes()
    orders = [{(a, c) for c, pr in p.preds for a in pr} for p in outs.values()]
    if any({(b, a) for a, b in x} & y for x in orders for y in orders):
        event("a pair of calls ordered both ways in different outcomes")
    if any(_is_n(p.pred_map()) for p in outs.values()):
        event("an N-shaped (not series-parallel) outcome")
    _engines_agree(inst)


def _is_n(preds: dict[str, frozenset[str]]) -> bool:
    """Four distinct calls with a<b, c<b, c<d and no other order among them: the induced N that no
    series-parallel order contains."""
    less = {(a, c) for c, pr in preds.items() for a in pr}
    calls = sorted(preds)
    for a in calls:
        for b in calls:
            for c in calls:
                for d in calls:
                    if len({a, b, c, d}) == 4 and {(a, b), (c, b), (c, d)} <= less and not (
                            {(a, d), (d, a), (a, c), (c, a), (b, d), (d, b)} & less):
                        return True
    return False


def _engines_agree(inst: Instance) -> None:
    verdicts = _run_all(inst)
    event(f"verdict {type(verdicts[Engine.SYMBOLIC]).__name__}")
    event(f"declarative ran: {Engine.DECLARATIVE in verdicts}")
    kinds = {type(v) for v in verdicts.values()}
    assert len(kinds) == 1, verdicts
    sym = verdicts[Engine.SYMBOLIC]
    if isinstance(sym, Invalid):
        assert {v.reason for v in verdicts.values() if isinstance(v, Invalid)} == {sym.reason}
        return
    cands = enumerate_candidates(inst)
    literal, literal_rounds = iterate(cands)
    sizes = RejectionProof(cands.b0, literal_rounds).sizes()
    for e, v in verdicts.items():
        assert not isinstance(v, Invalid)
        assert v.counts.candidates == len(cands.b0), e
        assert v.counts.rounds == sizes, e  # every engine reports the rounds |B̂₀|, |B̂₁|, …
        if isinstance(v, Accepted):
            completions = frozenset(v.automaton.completions())
            assert completions == literal, e  # marked language (with result labels) = B̂†
            assert set(v.automaton.generated()) == _prefixes(literal), e  # generated language = W† = ↓π₂B̂†
            assert v.counts.safe == len(literal) == v.automaton.count_completions()
            assert v.counts.prefixes == len(_prefixes(literal)) == v.automaton.count_prefixes()
            assert v.counts.states == v.automaton.n_states
            assert v.counts.rounds in (None, RejectionProof(cands.b0, literal_rounds).sizes()), e
            assert v.automaton == verdicts[Engine.SYMBOLIC].automaton  # type: ignore[union-attr]
            paper = v.automaton.project()  # the paper's Can(W†, π₂B̂†)
            assert set(paper.generated()) == _prefixes(literal)
            assert {y for _, y in paper.completions()} == {y for _, y in literal}
        else:
            assert isinstance(v, Rejected)
            assert not literal
            assert verify(inst, v.proof).valid, (e, verify(inst, v.proof))
            assert v.proof == verdicts[Engine.EXPLICIT].proof  # type: ignore[union-attr]
            assert (v.counts.safe, v.counts.prefixes, v.counts.states) == (0, 0, 0)
            assert v.counts.rounds == v.proof.sizes(), e
    explicit = verdicts[Engine.EXPLICIT]
    assert explicit.counts.rounds == RejectionProof(cands.b0, literal_rounds).sizes()
    if isinstance(sym, Rejected):  # the proof built from the symbolic fixed point, mutated, is refused
        mutants = _mutations(sym.proof)
        assert all(m != sym.proof for m in mutants)
        for bad in mutants:
            assert not verify(inst, bad).valid, bad
