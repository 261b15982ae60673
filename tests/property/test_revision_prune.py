"""The forbidden-trace search skips last calls whose effects break no budget (counterexample.py ``prune``)
and answers exactly as without skipping (Agenra §7.1, the safety delta): on every entry of the revision
corpus, at its bound and one call beyond, on a thirty-grant revision, and on generated revisions, the
shortest newly admitted forbidden trace is the same sequence with the same refusal and replay (or both
find nothing), and skipping never visits more nodes. Both searches on the memoized path, whose merge key
leaves out the latest records when no template has a ``$from`` argument, answer as the sequence
enumeration does."""

from __future__ import annotations

from hypothesis import given, settings

from model.monitor.language.policy import Policy
from model.oracle.generators import REVISION_WORKLOAD_JSON, revision_cases
from model.revision.corpus import load_manifest
from model.revision.explore.counterexample import Counterexample, Searched, lost_client, new_forbidden
from model.revision.explore.memo import Memo
from model.revision.explore.prefix import starting_point
from model.revision.explore.workload import Workload, workload_from_json
from model.revision.wide import wide_revision
from tests.property.test_revision_merge import same


def _both(old: Policy, new: Policy, workload: Workload, bound: int, point: object = None, plain: bool = True) -> None:
    pruned = new_forbidden(old, new, workload, bound, point, memo=Memo(), prune=True)  # type: ignore[arg-type]
    full = new_forbidden(old, new, workload, bound, point, memo=Memo(), prune=False)  # type: ignore[arg-type]
    assert same(pruned, full), (pruned, full)
    if plain:  # the memoized merge (records left out of the key when no call names one) against enumeration
        enumerated = new_forbidden(old, new, workload, bound, point, merge=False)  # type: ignore[arg-type]
        assert same(pruned, enumerated), (pruned, enumerated)
        lost = lost_client(old, new, workload, bound, point, memo=Memo())  # type: ignore[arg-type]
        assert same(lost, lost_client(old, new, workload, bound, point, merge=False)), lost  # type: ignore[arg-type]
    if isinstance(pruned, Counterexample) and isinstance(full, Counterexample):
        assert pruned.trace == full.trace
    if isinstance(pruned, Searched) and isinstance(full, Searched):
        assert pruned.visited <= full.visited


def test_every_corpus_entry_at_its_bound_and_one_beyond() -> None:
    for e in load_manifest():
        old, new, workload = e.base.policy, e.new, e.base.workload
        point = None if e.prefix is None else starting_point(old, new, e.prefix)
        for bound in (e.base.bound, e.base.bound + 1):
            _both(old, new, workload, bound, point, bound == e.base.bound)


def test_wide_revisions_of_thirty_and_eight_grants() -> None:
    _both(*wide_revision(30), 3, plain=False)
    _both(*wide_revision(8), 3)


@settings(max_examples=30, deadline=None)
@given(revision_cases())
def test_generated_revisions(case: tuple[Policy, Policy]) -> None:
    _both(*case, workload_from_json(REVISION_WORKLOAD_JSON), 3)
