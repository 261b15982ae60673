"""The revision differential tests at volume (excluded from ``make test``): the same properties as
tests/property/test_revision_differential.py with many more generated grants and revisions, and a
brute-force bound of 4 instead of 3 — at task start and after generated admitted prefixes.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from model.monitor.language.policy import Entry, Policy
from model.oracle.generators import REVISION_TOOL, REVISION_WORKLOAD_JSON, revision_cases, revision_grants
from model.revision.certify.agreement import Disagree, agree
from model.revision.certify.certificate import Certificate
from model.revision.certify.certificate_checker import Valid, check, check_joint
from model.revision.certify.independence import Overlap, independent
from model.revision.certify.joint_certificate import JointSimulation
from model.revision.effects import EVERY_EFFECT
from model.revision.explore.workload import workload_from_json
from model.revision.report import Certified, NotPreserved
from model.revision.revise import revise
from model.revision.smt.enumerate import Domain, disagreement, domain_for, overlap, replay_matches
from tests.property.test_revision_differential import _PICKS, _admitted_prefix, brute_lost, brute_lost_from

TOOLS = (REVISION_TOOL,)
WORKLOAD = workload_from_json(REVISION_WORKLOAD_JSON)
BOUND = 4


@pytest.mark.slow
@settings(max_examples=400, derandomize=True)
@given(revision_grants(), revision_grants())
def test_z3_and_explicit_agree_on_many_grants(a: Entry, b: Entry) -> None:
    domain = Domain(domain_for((a, b), extra=("a", "abx", "b")).scalars, max_args=150)
    verdict = agree(a, b, EVERY_EFFECT, TOOLS)
    if disagreement(a, b, EVERY_EFFECT, TOOLS, domain) is not None:
        assert isinstance(verdict, Disagree)
    if isinstance(verdict, Disagree):
        assert replay_matches(a, verdict.witness) != replay_matches(b, verdict.witness)
    ind = independent(a, b, EVERY_EFFECT, TOOLS)
    if overlap(a, b, EVERY_EFFECT, TOOLS, domain) is not None:
        assert isinstance(ind, Overlap)
    if isinstance(ind, Overlap):
        assert replay_matches(a, ind.witness) and replay_matches(b, ind.witness)


@pytest.mark.slow
@settings(max_examples=300, derandomize=True)
@given(revision_cases())
def test_many_revisions_certificates_check_and_lost_clients_are_real(case: tuple[Policy, Policy]) -> None:
    old, new = case
    report = revise(old, new, EVERY_EFFECT, WORKLOAD, BOUND)
    brute = brute_lost(old, new, BOUND)
    p = report.preservation
    if isinstance(p, Certified):
        if isinstance(p.evidence, Certificate):
            assert isinstance(check(p.evidence, old, new), Valid)
        if isinstance(p.evidence, JointSimulation):
            assert isinstance(check_joint(p.evidence, old, new), Valid)
        assert brute is None
    elif isinstance(p, NotPreserved):
        assert p.lost.confirmed and brute is not None and len(brute) == len(p.lost.seq)
    else:
        assert brute is None


@pytest.mark.slow
@settings(max_examples=300, derandomize=True, deadline=None)
@given(revision_cases(), _PICKS)
def test_many_mid_task_revisions_certificates_check_and_lost_clients_are_real(case: tuple[Policy, Policy],
                                                                              picks: list[int]) -> None:
    old, new = case
    report = revise(old, new, EVERY_EFFECT, WORKLOAD, BOUND, _admitted_prefix(old, picks))
    assert report.start is not None
    brute = brute_lost_from(old, new, report.start, BOUND)
    p = report.preservation
    if isinstance(p, Certified):
        if isinstance(p.evidence, Certificate):
            assert isinstance(check(p.evidence, old, new, report.start.ledgers()), Valid)
        if isinstance(p.evidence, JointSimulation):
            assert isinstance(check_joint(p.evidence, old, new, report.start.ledgers()), Valid)
        assert brute is None
    elif isinstance(p, NotPreserved):
        assert p.lost.confirmed and brute is not None and len(brute) == len(p.lost.seq)
    else:
        assert brute is None
