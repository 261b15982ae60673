"""The generic search (model/search/system/bfs.py): the exact and the fingerprint visited sets agree — states,
transitions, depth, every verdict with its shortest trace — on generated finite systems and on generated
instances of the admission model; and a Found trace replays, step by step, to a transition that hits."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from model.search.system.admission import FAULTS, PROPERTIES, AdmissionModel, AdmissionSystem
from model.search.system.admission_steps import PolicyEffect
from model.search.system.bfs import Reached, search
from model.search.system.protocol import Query, QueryKind, Transition

Edge = tuple[int, int, int]  # target, hits, meets


class _Graph:
    """A generated system: states 0..n-1, each with a list of (target, hit bits, premise bits)."""

    name = "graph"

    def __init__(self, edges: list[list[Edge]], nq: int) -> None:
        self.edges = edges
        self.queries = tuple(Query(f"q{i}", QueryKind.GOAL if i % 2 else QueryKind.FORBIDDEN) for i in range(nq))

    def initial(self) -> int:
        return 0

    def key(self, s: int) -> int:
        return s

    def successors(self, s: int) -> Iterator[Transition[int]]:
        for j, (t, hits, meets) in enumerate(self.edges[s]):
            yield f"{s}.{j}", t, hits, meets


@st.composite
def graphs(draw: st.DrawFn) -> _Graph:
    n = draw(st.integers(1, 12))
    nq = draw(st.integers(1, 4))
    edge = st.tuples(st.integers(0, n - 1), st.integers(0, 2 ** nq - 1).map(lambda b: b & draw(st.sampled_from(
        [0, 0, 1, 2 ** nq - 1]))), st.integers(0, 2 ** nq - 1))
    return _Graph([draw(st.lists(edge, max_size=4)) for _ in range(n)], nq)


def _walk(g: _Graph, trace: tuple[str, ...]) -> int:
    """The hit bits of the last step of ``trace`` followed from the initial state (labels name the edges)."""
    s, hits = 0, 0
    for label in trace:
        src, j = map(int, label.split("."))
        assert src == s
        s, hits, _m = g.edges[s][j]
    return hits


@settings(max_examples=200, deadline=None)
@given(graphs(), st.integers(0, 8))
def test_exact_and_fingerprint_agree_on_generated_systems(g: _Graph, k: int) -> None:
    exact, fp = search(g, k, "exact"), search(g, k, "fingerprint")
    assert (exact.states, exact.transitions, exact.depth, exact.verdicts) == \
        (fp.states, fp.transitions, fp.depth, fp.verdicts)
    for i, (_n, v) in enumerate(exact.verdicts):
        if isinstance(v, Reached):
            assert 1 <= v.length <= k and _walk(g, v.trace) >> i & 1


@settings(max_examples=12, deadline=None)
@given(st.integers(1, 2), st.lists(st.sampled_from(list(PolicyEffect)), min_size=1, max_size=3),
       st.sets(st.sampled_from(FAULTS)), st.integers(0, 5))
def test_exact_and_fingerprint_agree_on_admission_instances(n: int, revisions: list[PolicyEffect],
                                                            faults: set[str], k: int) -> None:
    m = AdmissionModel("gen", "", n, k, tuple(revisions), frozenset(faults), PROPERTIES)
    exact, fp = search(AdmissionSystem(m), k, "exact"), search(AdmissionSystem(m), k, "fingerprint")
    assert (exact.states, exact.transitions, exact.depth, exact.verdicts) == \
        (fp.states, fp.transitions, fp.depth, fp.verdicts)
    for name in PROPERTIES[:6]:  # the safety properties hold on every generated instance
        assert not isinstance(exact.verdict(name), Reached), name
