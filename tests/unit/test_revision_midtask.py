"""Mid-task revisions (Agenra §7.1 over usage u): the account correspondence and carried counters
(model/revision/carry.py), the residual-capacity rule with carried usage (conditions.py,
structural.py, checker.py), prefix loading and its refusals (prefix.py), the judgment and the
CLI from a starting point."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.base.errors import InvalidInput
from model.monitor.adapter.trace import run_trace
from model.monitor.language.policy import Policy
from model.monitor.language.syntax import load_policy, parse_policy
from model.oracle.generators import del_text
from model.revision.carry import Correspondence, Ledgers, Pair, SideCorrespondence, check_correspondence, correspond
from model.revision.certify.certificate import Certificate, Rule
from model.revision.certify.certificate_checker import Invalid, Valid, check
from model.revision.certify.conditions import keeps_position
from model.revision.certify.structural import NoCertificate, certify
from model.revision.corpus import load_workload
from model.revision.effects import EVERY_EFFECT
from model.revision.explore.prefix import load_prefix, prefix_from_json, starting_point
from model.revision.report import Certified, NewlyForbidden, NotPreserved
from model.revision.revise import revise
from model.shell.cli import main

ROOT = Path(__file__).resolve().parents[2]
REV = ROOT / "corpus" / "revisions"
DELETE = ROOT / "corpus" / "policies" / "delete_ab.policy"
WORKLOAD = load_workload(REV / "workloads" / "delete_ab.json")


def _pol(user: list[str], app: tuple[str, ...] = ("allow file.delete(*) quota unlimited",)) -> Policy:
    return parse_policy(del_text("p", user, list(app)))


def _calls(*targets: str) -> dict[str, object]:
    return {"agent": "a", "calls": [{"name": f"delete {t}", "tool": "Delete", "args": {"target": t}} for t in targets]}


def _after(old: Policy, new: Policy, *targets: str) -> Ledgers:
    return starting_point(old, new, prefix_from_json(_calls(*targets), "<prefix>")).ledgers()  # type: ignore[arg-type]


def test_correspondence_moves_counters_with_accounts_and_appended_grants_start_at_zero() -> None:
    old = _pol(['allow file.delete("B") quota 1', 'allow file.delete("A") quota 2'])
    swapped = _pol(['allow file.delete("A") quota 2', 'allow file.delete("B") quota 1',
                    'allow file.delete("C") quota 1'])
    lg = _after(old, swapped, "A")
    assert lg.old_user == (0, 1) and lg.new_user == (1, 0, 0)
    corr = correspond(old, swapped)
    assert [(p.old, p.new, p.how) for p in corr.user.pairs] == [(0, 1, "identical"), (1, 0, "identical")]
    assert check_correspondence(corr, old, swapped) is None


def test_a_quota_cut_below_usage_is_clamped_and_a_removed_grant_loses_its_counter() -> None:
    old = _pol(['allow file.delete("B") quota 1', 'allow file.delete("A") quota 3'])
    cut = _pol(['allow file.delete("B") quota 1', 'allow file.delete("A") quota 1'])
    assert _after(old, cut, "A", "A").new_user == (0, 1)  # 2 uses carried onto quota 1: exhausted either way
    removed = _pol(['allow file.delete("A") quota 3'])
    lg = _after(old, removed, "B", "A")
    assert lg.old_user == (1, 1) and lg.new_user == (1,)
    widened = _pol(['allow file.delete(*) quota 1', 'allow file.delete("A") quota 3'])
    assert [p.how for p in correspond(old, widened).user.pairs] == ["same action", "identical"]


def test_checker_of_correspondences_refuses_forged_ones() -> None:
    old = _pol(['allow file.delete("B") quota 1', 'allow file.delete("A") quota 1'])
    new = _pol(['allow file.delete("B") quota 1', 'deny file.delete("C")', 'allow file.delete("A") quota 1'])
    good = correspond(old, new)
    assert check_correspondence(good, old, new) is None
    app = good.application
    for pairs in ((Pair(0, 0, "identical"), Pair(1, 0, "identical")),  # not injective
                  (Pair(0, 1, "same action"),),  # onto a deny
                  (Pair(0, 2, "identical"),),  # B onto A is not identical
                  (Pair(0, 7, "identical"),)):  # out of range
        forged = Correspondence(SideCorrespondence("P", pairs), app)
        assert check_correspondence(forged, old, new) is not None, pairs


def test_residual_capacity_rule_with_carried_usage() -> None:
    a3, a2, a1 = (_pol([f'allow file.delete("A") quota {q}']).user[0] for q in (3, 2, 1))
    unlimited = _pol(['allow file.delete("A") quota unlimited']).user[0]
    assert not keeps_position(a3, a2, True, 1, 1)  # 3 → 2 after one use: residual 1 < 2
    assert keeps_position(a1, a2, True, 1, 1)  # 1 → 2 after one use: residual 1 ≥ 0
    assert keeps_position(a2, a1, True, 2, 1)  # 2 → 1 after two uses, counter clamped to 1: 0 ≥ 0
    assert not keeps_position(a2, a1, True, 1, 1)  # 2 → 1 after one use: 0 < 1
    assert keeps_position(a2, unlimited, True, 2, 2) and not keeps_position(unlimited, a3, True, 0, 0)
    assert keeps_position(a2, a2, False, 1, 1) and not keeps_position(a2, a2, False, 1, 0)  # prefix keeps usage


def test_quota_changes_are_certified_mid_task_only_when_residual_dominates() -> None:
    a3 = _pol(['allow file.delete("A") quota 3'])
    a2 = _pol(['allow file.delete("A") quota 2'])
    a1 = _pol(['allow file.delete("A") quota 1'])
    assert isinstance(certify(a3, a2, EVERY_EFFECT, _after(a3, a2, "A")), NoCertificate)  # 1 < 2
    raise_cert = certify(a1, a2, EVERY_EFFECT, _after(a1, a2, "A"))
    assert isinstance(raise_cert, Certificate) and raise_cert.user.rule is Rule.CAPACITY
    assert isinstance(certify(a2, a1, EVERY_EFFECT), NoCertificate)  # at task start 2 → 1 loses a client
    exhausted = _after(a2, a1, "A", "A")
    cut = certify(a2, a1, EVERY_EFFECT, exhausted)
    assert isinstance(cut, Certificate) and isinstance(check(cut, a2, a1, exhausted), Valid)
    # the certificate is about those counters: the checker refuses it at task start or after one use
    assert isinstance(check(cut, a2, a1), Invalid)
    assert isinstance(check(cut, a2, a1, _after(a2, a1, "A")), Invalid)
    forged = Certificate(cut.effects, replace(cut.user, source_used=(1,), target_used=(1,)), cut.application)
    assert isinstance(check(forged, a2, a1, _after(a2, a1, "A")), Invalid)  # 0 < 1, whatever it claims


def test_swap_certificates_carry_counters_and_checker_refuses_unswapped_ones() -> None:
    old = load_policy(DELETE)
    new = load_policy(REV / "delete_ab" / "delete_swap.policy")
    lg = starting_point(old, new, load_prefix(REV / "prefixes" / "delete_a.json")).ledgers()
    cert = certify(old, new, EVERY_EFFECT, lg)
    assert isinstance(cert, Certificate) and isinstance(check(cert, old, new, lg), Valid)
    swap = next(s for s in cert.user.subs if s.rule in (Rule.SWAP, Rule.LIFT))
    assert swap.used() == (lg.old_user, lg.new_user)
    bad = replace(cert.user, subs=tuple(replace(s, target_used=s.source_used) if s is swap else s
                                        for s in cert.user.subs))
    assert isinstance(check(Certificate(cert.effects, bad, cert.application), old, new, lg), Invalid)


def test_the_widening_after_delete_b_is_certified_while_at_task_start_it_loses_a_client() -> None:
    old, new = load_policy(DELETE), load_policy(REV / "delete_ab" / "delete_widen_first.policy")
    assert isinstance(revise(old, new, EVERY_EFFECT, WORKLOAD, 4).preservation, NotPreserved)
    after_b = revise(old, new, EVERY_EFFECT, WORKLOAD, 4, load_prefix(REV / "prefixes" / "delete_b.json"))
    assert isinstance(after_b.preservation, Certified) and after_b.start is not None
    after_a = revise(old, new, EVERY_EFFECT, WORKLOAD, 4, load_prefix(REV / "prefixes" / "delete_a.json"))
    assert isinstance(after_a.preservation, Certified)
    s = after_a.safety
    assert isinstance(s, NewlyForbidden) and s.trace.names == ("delete A",) and s.trace.confirmed


def test_a_lost_client_after_a_prefix_replays_prefix_and_suffix_under_monitor_run() -> None:
    old, new = load_policy(DELETE), load_policy(REV / "delete_ab" / "delete_remove_b.policy")
    report = revise(old, new, EVERY_EFFECT, WORKLOAD, 4, load_prefix(REV / "prefixes" / "delete_a.json"))
    p = report.preservation
    assert isinstance(p, NotPreserved) and p.lost.names == ("delete B",) and p.lost.confirmed
    steps = run_trace(old, p.lost.trace)  # the document holds the prefix, then the suffix
    assert [r.tool for r in steps] == ["Delete", "Delete"] and all(r.as_expected for r in steps)
    assert report.to_json()["start"]["calls"] == 1  # type: ignore[index,call-overload]


def test_trace_and_workload_prefixes_reach_the_same_state_and_bad_prefixes_are_invalid_input(tmp_path: Path) -> None:
    old = load_policy(ROOT / "corpus" / "policies" / "report.policy")
    trace = load_prefix(REV / "prefixes" / "report_lookup_done.json")
    calls = prefix_from_json({"agent": "assistant", "calls": [
        {"tool": "Read", "outcome": {"ok": True, "value": {"title": "Q3", "revenue": 1200000, "ssn": "078-05-1120"}}},
        {"tool": "Sanitize", "args": {"record": {"$from": "Read"}},
         "outcome": {"ok": True, "value": {"title": "Q3", "revenue": 1200000}}},
        {"tool": "Lookup", "args": {"name": "Alice"},
         "outcome": {"ok": True, "value": {"name": "Alice", "destination": "alice@example.org"}}}]}, "<calls>")
    a, b = starting_point(old, old, trace), starting_point(old, old, calls)
    assert a.run.state == b.run.state and a.run.state.binding("target") == "alice@example.org"
    doc = json.loads((REV / "prefixes" / "report_lookup_done.json").read_text())
    bad_cases = [
        ({**doc, "steps": doc["steps"][1:]}, "steps[0].args.record"),  # a handle nobody bound
        ({**doc, "toolkit": "report"}, "toolkit"),
        ({**doc, "steps": [{"permit": "Send"}]}, "steps[0]"),
        ({"agent": "assistant", "calls": [{"tool": "Send", "args": {"body": "x", "recipient": "eve@x"}}]}, "calls[0]"),
    ]
    for bad, where in bad_cases:
        with pytest.raises(InvalidInput) as err:
            starting_point(old, old, prefix_from_json(bad, "p.json"))  # type: ignore[arg-type]
        assert where in str(err.value), str(err.value)
    with pytest.raises(InvalidInput, match=r"steps\[2\].*admits"):
        sends = [*doc["steps"][:2], {"call": "Send", "args": {"body": {"$handle": "s"}, "recipient": "eve@x.org"},
                                      "outcome": {"ok": True}}]
        starting_point(old, old, prefix_from_json({**doc, "steps": sends}, "p.json"))


def test_cli_after_says_the_starting_point_in_text_and_json() -> None:
    args = ["revise", str(DELETE), str(REV / "delete_ab" / "delete_drop_a_quota.policy"),
            "--workload", str(REV / "workloads" / "delete_ab.json")]
    start = CliRunner().invoke(main, args)
    assert start.exit_code == 1 and "judged at task start" in start.output
    after = CliRunner().invoke(main, [*args, "--after", str(REV / "prefixes" / "delete_a.json")])
    assert after.exit_code == 0 and "judged after 1 call of" in after.output, after.output
    assert "user list [0, 1] → [0, 0]" in after.output
    doc = json.loads(CliRunner().invoke(main, [*args, "--after", str(REV / "prefixes" / "delete_a.json"),
                                               "--json"]).output)
    assert doc["preservation"]["verdict"] == "certified" and doc["start"]["usage_before"]["P"] == [0, 1]
    bad = CliRunner().invoke(main, [*args, "--after", str(REV / "prefixes" / "report_lookup_done.json")])
    assert bad.exit_code == 2 and bad.output.startswith("error:") and "steps[0]" in bad.output, bad.output
