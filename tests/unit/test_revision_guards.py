"""Revisions that change origin or flow rules (trusted/guards.py, guard_family.py): every generated member is
decided (no Unknown) as built — preserving ones certified through the checked guard step plus a checked
certificate for the lists, regressions with a lost client confirmed by replay — and the guard check refuses
a stronger rule, a flow refused on a label a record can carry, and a change outside the rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

from model.revision.certify.check_verdict import Invalid, Valid
from model.revision.effects import EVERY_EFFECT
from model.revision.guard_family import BOUND, EDITS, expected, member
from model.revision.report import Certified, NotPreserved
from model.revision.revise import revise
from model.revision.trusted.guards import check_guards, labels, relaxed


@pytest.mark.parametrize("name", sorted(EDITS))
def test_every_origin_and_flow_member_is_decided_as_built(name: str) -> None:
    old, new, workload = member(name)
    report = revise(old, new, EVERY_EFFECT, workload, BOUND)
    if expected(name) == "certified":
        assert isinstance(report.preservation, Certified) and report.preservation.guards
        assert report.to_json()["preservation"]["guards"]  # type: ignore[index]
    else:
        assert isinstance(report.preservation, NotPreserved) and report.preservation.lost.confirmed
        mid = relaxed(old, new)
        assert mid is not None and isinstance(check_guards(old, mid), Invalid)


def test_the_guard_check_refuses_what_it_must() -> None:
    old, new, _ = member("flow_mail_internal")
    mid = relaxed(old, new)
    assert mid is not None and isinstance(check_guards(old, mid), Valid)
    # narrowing back is as permissive on every label a record can carry: no edge makes data Internal
    assert not any(x.sensitivity == "Internal" for xs in labels(old).values() for x in xs)
    assert isinstance(check_guards(mid, old), Valid)
    other_tools = replace(mid, tools=mid.tools[:-1])
    assert isinstance(check_guards(old, other_tools), Invalid)  # a change outside the rules
    other_lists = replace(mid, user=mid.user[1:])
    assert isinstance(check_guards(old, other_lists), Invalid)
    old, new, _ = member("origin_preserving")
    mid = relaxed(old, new)
    assert mid is not None and isinstance(check_guards(mid, old), Invalid)  # fewer preserving operations


def test_the_carried_labels_hold_every_label_a_replayed_record_carries() -> None:
    old, _, _ = member("flow_mail_no_pii")
    carried = labels(old)
    public_pii = [x for xs in carried.values() for x in xs if x.sensitivity == "Public" and "pii" in x.categories]
    assert not public_pii  # why the pii-free mail rule keeps every client
    assert any(x.sensitivity == "Confidential" for x in carried["Read"])
