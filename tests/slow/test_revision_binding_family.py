"""The whole generated binding-swap family (model/revision/binding_swap.py): every member decided as it is
built to be, with no Unknown; every certificate passes its independent checker again after a JSON round trip,
and every lost client is confirmed by replay."""

from __future__ import annotations

import pytest

from model.revision.binding_swap import QUOTAS, SHAPES, expected, member
from model.revision.certify.binding_certificate import BindingSimulation, binding_from_json, check_binding
from model.revision.certify.check_verdict import Valid
from model.revision.effects import EVERY_EFFECT
from model.revision.report import Certified, NotPreserved
from model.revision.revise import revise

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("shape", SHAPES)
def test_every_member_is_decided_and_checked(shape: str) -> None:
    for g, s in QUOTAS:
        old, new, workload, bound = member(shape, g, s)
        p = revise(old, new, EVERY_EFFECT, workload, bound).preservation
        if expected(shape) == "certified":
            assert isinstance(p, Certified) and isinstance(p.evidence, BindingSimulation), (shape, g, s, p)
            assert isinstance(check_binding(binding_from_json(p.evidence.to_json()), old, new), Valid)
        else:
            assert isinstance(p, NotPreserved) and p.lost.confirmed, (shape, g, s, p)
            assert p.lost.names[-1] == "mail Carol" and p.lost.names.count("mail Bob") == g
