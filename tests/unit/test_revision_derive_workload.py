"""The default client model of ``agentwarrant revise`` without ``--workload`` (derive_workload.py)."""

from __future__ import annotations

from pathlib import Path

from model.monitor.language.syntax import load_policy
from model.revision.explore.counterexample import Counterexample, lost_client
from model.revision.explore.derive_workload import derive

ROOT = Path(__file__).resolve().parents[2]
PAY = load_policy(ROOT / "corpus" / "policies" / "payments.policy")


def test_derived_workload_reaches_slot_grants_and_requirements() -> None:
    w = derive(PAY, PAY)
    lookups = [t for t in w.templates if t.tool == "VendorLookup" and t.value_json == '{"account":"acct-x"}']
    assert lookups, "the resolver's lookup answers an address the application's like \"acct-*\" accepts"
    assert any(t.satisfy == "manager_review" for t in w.templates)
    pays = [t.literal_args() for t in w.templates if t.tool == "Pay"]
    assert pays and pays[0]["to"] == "acct-x"


def test_derived_workload_finds_the_overlapping_reorder_lost_client() -> None:
    new = load_policy(ROOT / "corpus" / "revisions" / "payments" / "pay_swap_overlapping.policy")
    found = lost_client(PAY, new, derive(PAY, new), 4)
    assert isinstance(found, Counterexample) and found.confirmed
    assert found.names[:2] == ("VendorLookup for @supplier", "satisfy manager_review")
