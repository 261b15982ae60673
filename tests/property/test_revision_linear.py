"""Explicit and symbolic simulation relations agree (Agenra §7.1) on generated small-quota revisions.

The explicit relation (simulation.py, joint.py) is the exact set of reachable ledger pairs
(quadruples): it fails only where some reachable counters let old admit a unit new refuses. The
symbolic one (linear.py) over-approximates the reachable set by linear constraints. So a symbolic
relation must never be found where the explicit one fails, and on these generators (delete policies
with quotas 0, 1, 2 or unlimited, one or two edits, some under a one-grant ceiling) every explicit
relation has a symbolic one: the verdicts agree both ways. Every symbolic relation found passes the
independent checker (linear_check.py), also after a JSON round trip, and a certified revision loses
no client up to length 3 (brute force through the monitor).
"""

from __future__ import annotations

import json

from hypothesis import event, given, settings

from model.monitor.language.policy import Policy
from model.oracle.generators import revision_cases
from model.revision.certify.certificate_checker import Valid
from model.revision.certify.joint import propose as propose_joint
from model.revision.certify.linear import propose_linear
from model.revision.certify.linear_certificate import LinearSimulation, linear_from_json, linear_to_json
from model.revision.certify.linear_check import check_linear
from model.revision.certify.simulation import NoSimulation, simulate
from model.revision.effects import EVERY_EFFECT
from tests.property.test_revision_differential import brute_lost, ceiling_cases


def _agree(old: Policy, new: Policy) -> None:
    for joint in (False, True):
        explicit = propose_joint(old, new, EVERY_EFFECT) if joint else simulate(old, new, EVERY_EFFECT)
        symbolic = propose_linear(old, new, EVERY_EFFECT, joint=joint)
        assert not (isinstance(explicit, NoSimulation) and explicit.capped)  # small quotas: exact
        found = isinstance(symbolic, LinearSimulation)
        assert found == (not isinstance(explicit, NoSimulation)), (joint, explicit, symbolic)
        event(f"{'joint' if joint else 'per list'}: {'both found' if found else 'neither found'}")
        if isinstance(symbolic, LinearSimulation):
            assert isinstance(check_linear(symbolic, old, new), Valid)
            back = linear_from_json(json.loads(json.dumps(linear_to_json(symbolic))))
            assert isinstance(check_linear(back, old, new), Valid)
            assert brute_lost(old, new) is None


@settings(max_examples=15, deadline=None)
@given(revision_cases())
def test_explicit_and_symbolic_relations_agree(case: tuple[Policy, Policy]) -> None:
    _agree(*case)


@settings(max_examples=15, deadline=None)
@given(ceiling_cases())
def test_explicit_and_symbolic_joint_relations_agree_under_a_ceiling(case: tuple[Policy, Policy]) -> None:
    _agree(*case)
