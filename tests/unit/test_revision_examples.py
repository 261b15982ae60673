"""The paper's headline revisions (Agenra Sections 1, 3, 7.1, 11), on the corpus files."""

from __future__ import annotations

from pathlib import Path

from model.monitor.adapter.trace import run_trace
from model.monitor.decide.base import Decision
from model.monitor.language.syntax import load_policy
from model.revision.certify.certificate import Certificate, Rule
from model.revision.certify.certificate_checker import Valid, check
from model.revision.certify.simulation import NoSimulation, simulate
from model.revision.certify.structural import NoCertificate, certify
from model.revision.corpus import load_workload
from model.revision.effects import EVERY_EFFECT
from model.revision.report import Certified, NewlyForbidden, NotPreserved
from model.revision.revise import revise

ROOT = Path(__file__).resolve().parents[2]
REV = ROOT / "corpus" / "revisions"
DELETE = load_policy(ROOT / "corpus" / "policies" / "delete_ab.policy")
REPORT = load_policy(ROOT / "corpus" / "policies" / "report.policy")


def test_send_quota_raise_is_certified_and_separately_admits_a_second_send() -> None:
    new = load_policy(REV / "report" / "report_raise_send_both.policy")
    report = revise(REPORT, new, EVERY_EFFECT, load_workload(REV / "workloads" / "report.json"), 5)
    assert isinstance(report.preservation, Certified)
    cert = report.preservation.evidence
    assert isinstance(cert, Certificate) and isinstance(check(cert, REPORT, new), Valid)
    assert Rule.CAPACITY in cert.user.rules() and Rule.CAPACITY in cert.application.rules()
    assert isinstance(report.safety, NewlyForbidden)
    trace = report.safety.trace
    assert trace.confirmed
    assert [n for n in trace.names if n.startswith("Send")] == ["Send summary to Alice"] * 2
    # the second send is exactly what the old policy refuses, for quota
    assert trace.refusal == "deny (quota)"


def test_raising_only_the_user_send_quota_keeps_the_application_limit() -> None:
    new = load_policy(REV / "report" / "report_raise_send_user.policy")
    report = revise(REPORT, new, EVERY_EFFECT, load_workload(REV / "workloads" / "report.json"), 5)
    assert isinstance(report.preservation, Certified)
    assert not isinstance(report.safety, NewlyForbidden)


def test_widening_loses_delete_a_then_b_and_admits_delete_a_twice() -> None:
    new = load_policy(REV / "delete_ab" / "delete_widen_first.policy")
    assert isinstance(certify(DELETE, new, EVERY_EFFECT), NoCertificate)
    assert isinstance(simulate(DELETE, new, EVERY_EFFECT), NoSimulation)
    report = revise(DELETE, new, EVERY_EFFECT, load_workload(REV / "workloads" / "delete_ab.json"), 4)
    assert isinstance(report.preservation, NotPreserved)
    lost = report.preservation.lost
    assert lost.names == ("delete A", "delete B") and lost.confirmed
    assert isinstance(report.safety, NewlyForbidden)
    assert report.safety.trace.names == ("delete A", "delete A") and report.safety.trace.confirmed


def test_lost_client_trace_runs_through_monitor_run_admitted_before_refused_after() -> None:
    new = load_policy(REV / "delete_ab" / "delete_widen_first.policy")
    report = revise(DELETE, new, EVERY_EFFECT, load_workload(REV / "workloads" / "delete_ab.json"), 4)
    assert isinstance(report.preservation, NotPreserved)
    doc = report.preservation.lost.trace
    before = run_trace(DELETE, doc)
    after = run_trace(new, doc)
    assert [r.decision for r in before] == [Decision.ALLOW, Decision.ALLOW]
    assert [r.decision for r in after] == [Decision.ALLOW, Decision.DENY]


def test_appending_a_second_a_grant_keeps_every_client_but_admits_aa() -> None:
    new = load_policy(REV / "delete_ab" / "delete_append_second_a.policy")
    report = revise(DELETE, new, EVERY_EFFECT, load_workload(REV / "workloads" / "delete_ab.json"), 4)
    assert isinstance(report.preservation, Certified)
    assert isinstance(report.safety, NewlyForbidden)
    assert report.safety.trace.names == ("delete A", "delete A")
