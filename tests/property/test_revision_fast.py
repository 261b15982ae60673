"""Differential tests of the memoized revision engines against the unmemoized ones they
speed up, which must give identical verdicts, certificates and counterexamples
(model/revision/explore/memo.py, leaves.py, samples.py).

- Generated permission lists of ``pay`` grants (constants, globs, slots, key allowlists, predicates):
  the match vectors ``simulation.vectors`` enumerates with a memo — kept across examples, so answers
  and samples from earlier lists are reused — equal those of the fresh-solver enumeration, in order.
- Generated revisions: ``revise`` with the memoized engines and with the unmemoized ones gives the same
  judgment (``RevisionReport.judgment``).
- A sample of corpus entries, one per engine that decides them (structural, per-list simulation, joint
  simulation, lost client, mid-task): same judgment as the full unmemoized path (sequence enumeration
  too), and the fast path's certificates pass the independent checker. The whole corpus is compared in
  tests/slow/test_revision_fast_corpus.py and by ``agentwarrant reproduce revision-corpus``.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from model.monitor.language.policy import Entry, Policy
from model.oracle.generators import REVISION_TOOL, REVISION_WORKLOAD_JSON, revision_cases, revision_grants
from model.revision.certify.certificate import Certificate
from model.revision.certify.certificate_checker import Valid, check, check_joint
from model.revision.certify.joint_certificate import JointSimulation
from model.revision.certify.simulation import vectors
from model.revision.corpus import load_manifest
from model.revision.effects import EVERY_EFFECT
from model.revision.explore.memo import Memo
from model.revision.explore.workload import workload_from_json
from model.revision.report import Certified
from model.revision.revise import revise
from model.revision.smt.samples import Pool
from model.revision.smt.z3_matching import Witness

TOOLS = (REVISION_TOOL,)
WORKLOAD = workload_from_json(REVISION_WORKLOAD_JSON)
KEPT = Memo()  # shared by the examples on purpose: reuse across checks is what is under test

# one corpus entry per way of being decided (ids from corpus/revisions/manifest.json)
SAMPLE = ("delete_append_c", "delete_widen_second", "cal_app_lookup_bob", "report_ceiling_bob",
          "delete_narrow_a", "delete_widen_first_after_b")


@settings(max_examples=30, deadline=None)
@given(st.lists(revision_grants(), min_size=1, max_size=3), st.lists(revision_grants(), min_size=1, max_size=3))
def test_memoized_vectors_equal_the_fresh_solver_enumeration(old: list[Entry], new: list[Entry]) -> None:
    assert vectors((old, new), EVERY_EFFECT, TOOLS, memo=KEPT) == vectors((old, new), EVERY_EFFECT, TOOLS)


@settings(max_examples=15, deadline=None)
@given(revision_cases())
def test_memoized_revise_judges_generated_revisions_like_the_baseline(case: tuple[Policy, Policy]) -> None:
    old, new = case
    fast = revise(old, new, EVERY_EFFECT, WORKLOAD, 3)
    assert fast.judgment() == revise(old, new, EVERY_EFFECT, WORKLOAD, 3, fast=False).judgment()


def test_corpus_sample_is_judged_like_the_pre_issue_15_path() -> None:
    entries = {e.id: e for e in load_manifest()}
    by = set()
    for name in SAMPLE:
        e = entries[name]
        args = (e.base.policy, e.new, e.effects, e.base.workload, e.base.bound, e.prefix)
        fast = revise(*args)
        assert fast.judgment() == revise(*args, merge=False, fast=False).judgment(), name
        p = fast.preservation
        ledgers = None if fast.start is None else fast.start.ledgers()
        if isinstance(p, Certified) and isinstance(p.evidence, Certificate):
            assert isinstance(check(p.evidence, e.base.policy, e.new, ledgers), Valid)
        elif isinstance(p, Certified) and isinstance(p.evidence, JointSimulation):
            assert isinstance(check_joint(p.evidence, e.base.policy, e.new, ledgers, fast=False), Valid)
        by.add(fast.to_json()["preservation"].get("by", fast.to_json()["preservation"]["verdict"]))  # type: ignore[union-attr]
    assert by == {"structural", "simulation", "joint_simulation", "not_preserved"}, by


def test_samples_keep_only_exact_values() -> None:
    pool = Pool()
    pool.add(Witness("pay", "a", {"amount": 0.5}, ()))  # a rational model value read as a double
    pool.add(Witness("pay", "a", {"amount": 2**60}, ()))  # beyond the integers the monitor keeps exact
    pool.add(Witness("pay", "a", {"amount": 3, "meta": {"k": [True, None]}}, (("s", "a"),)))
    assert len(pool.samples) == 1 and pool.witnesses[0].args["amount"] == 3
