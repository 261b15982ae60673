"""The joint simulation over (P, A) × (P′, A′) (Agenra §§1, 5, 7.1): proposed where the
per-list rules fail, verified by the independent checker, refused when tampered with, and
confirmed on the corpus by brute force up to the base's bound."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from model.monitor.language.syntax import load_policy
from model.revision.certify.certificate_checker import Invalid, Valid, check_joint
from model.revision.certify.joint import propose
from model.revision.certify.joint_certificate import JointSimulation, joint_from_json, joint_to_json
from model.revision.certify.simulation import NoSimulation, simulate
from model.revision.certify.structural import NoCertificate, certify
from model.revision.corpus import load_manifest
from model.revision.effects import EVERY_EFFECT, parse_effects
from model.revision.explore.prefix import load_prefix, starting_point
from model.revision.report import Certified, NotPreserved
from model.revision.revise import revise
from tests.property.test_revision_differential import brute_lost

REV = Path(__file__).resolve().parents[2] / "corpus" / "revisions"
DEPLOY = load_policy(REV / "bases" / "deploy.policy")
STAGING_THREE = load_policy(REV / "deploy" / "deploy_user_staging_three.policy")
STAGING_TWO = load_policy(REV / "deploy" / "deploy_user_staging_two.policy")
# the corpus entries only a joint simulation certifies; the tests check that it is so
JOINT_IDS = ("pay_app_currency", "pay_app_four", "pay_app_lookup_acme", "cal_app_invite_two", "cal_app_invite_minutes",
             "cal_app_lookup_bob", "deploy_user_staging_five", "deploy_user_scale_range", "deploy_user_staging_three",
             "deploy_user_deny_legacy", "deploy_app_scale_prod", "deploy_app_rollback_one",
             "deploy_user_staging_two_after_prod")
JOINT_ONLY = [e for e in load_manifest() if e.id in JOINT_IDS]


def _joint(old: object, new: object) -> JointSimulation:
    found = propose(old, new, EVERY_EFFECT)  # type: ignore[arg-type]
    assert isinstance(found, JointSimulation), found
    return found


def test_a_user_cut_the_ceiling_already_imposes_is_certified_jointly_only() -> None:
    assert isinstance(certify(DEPLOY, STAGING_THREE, EVERY_EFFECT), NoCertificate)
    per_list = simulate(DEPLOY, STAGING_THREE, EVERY_EFFECT)
    assert isinstance(per_list, NoSimulation) and per_list.reason.startswith("P: ")
    cert = _joint(DEPLOY, STAGING_THREE)
    assert cert.start == ((0,) * 6, (0,) * 6, (0,) * 6, (0,) * 6) and cert.start in cert.related
    assert isinstance(check_joint(cert, DEPLOY, STAGING_THREE), Valid)
    assert isinstance(check_joint(joint_from_json(joint_to_json(cert)), DEPLOY, STAGING_THREE), Valid)
    # the old staging counter never passes 3: the ceiling's three rollouts bound it
    assert max(quad[0][2] for quad in cert.related) == 3


def test_a_real_loss_has_no_joint_simulation_and_the_refusal_names_the_counters() -> None:
    found = propose(DEPLOY, STAGING_TWO, EVERY_EFFECT)
    assert isinstance(found, NoSimulation)
    assert found.reason.startswith("joint: old usage P [0, 0, 2, 0, 0, 0]") and "deploy.apply" in found.reason


def test_the_checker_refuses_tampered_certificates() -> None:
    cert = _joint(DEPLOY, STAGING_THREE)
    inner = next(q for q in sorted(cert.related) if q != cert.start)
    verdicts = {
        "a related quadruple dropped": check_joint(replace(cert, related=cert.related - {inner}), DEPLOY,
                                                   STAGING_THREE),
        "a match vector dropped": check_joint(
            replace(cert, vectors=tuple(replace(a, vectors=a.vectors[1:]) if a.action == "deploy.apply" else a
                                        for a in cert.vectors)), DEPLOY, STAGING_THREE),
        "another start": check_joint(replace(cert, start=(*cert.start[:3], (1,) * 6)), DEPLOY, STAGING_THREE),
        "another revision": check_joint(cert, DEPLOY, STAGING_TWO),
        "a vector too short": check_joint(
            replace(cert, vectors=(replace(cert.vectors[0], vectors=(((True,),) * 4,)), *cert.vectors[1:])),
            DEPLOY, STAGING_THREE),
    }
    for what, verdict in verdicts.items():
        assert isinstance(verdict, Invalid), what
    assert "outside the relation" in verdicts["a related quadruple dropped"].reason  # type: ignore[union-attr]
    assert "omits" in verdicts["a match vector dropped"].reason  # type: ignore[union-attr]
    assert "refused after" in verdicts["another revision"].reason  # type: ignore[union-attr]


def test_malformed_certificate_json_is_refused() -> None:
    doc = joint_to_json(_joint(DEPLOY, STAGING_THREE))
    n = len(doc["start"][0])
    for bad in ({**doc, "kind": "structural"}, {**doc, "start": [[0]]},
                {**doc, "start": [[True] * n, [0] * n, [0] * n, [0] * n]},
                {**doc, "start": [[1.7] * n, [0] * n, [0] * n, [0] * n]},
                {**doc, "start": [[-1] * n, [0] * n, [0] * n, [0] * n]}, {**doc, "start": [0, 0, 0, 0]},
                {**doc, "vectors": [{"action": "deploy.apply", "vectors": [["01x", "0", "0", "0"]]}]}):
        with pytest.raises((ValueError, KeyError)):
            joint_from_json(bad)


def test_mid_task_the_carried_counters_make_a_task_start_loss_certified() -> None:
    prefix = load_prefix(REV / "prefixes" / "deploy_prod_done.json")
    point = starting_point(DEPLOY, STAGING_TWO, prefix)
    cert = propose(DEPLOY, STAGING_TWO, EVERY_EFFECT, point.ledgers())
    assert isinstance(cert, JointSimulation)
    assert cert.start == (point.ledgers().old_user, point.ledgers().old_app, point.ledgers().new_user,
                          point.ledgers().new_app)
    assert isinstance(check_joint(cert, DEPLOY, STAGING_TWO, point.ledgers()), Valid)
    assert isinstance(check_joint(cert, DEPLOY, STAGING_TWO), Invalid)  # not from task start
    workload = next(e for e in JOINT_ONLY if e.base.name == "deploy").base.workload
    assert brute_lost(DEPLOY, STAGING_TWO, 4, (point.run.state, point.new_state), workload) is None


def test_effect_sets_restrict_the_actions_covered() -> None:
    e = parse_effects("cluster.read")
    cert = propose(DEPLOY, STAGING_TWO, e)  # the lost rollouts are outside E
    assert isinstance(cert, JointSimulation)
    assert {a.action for a in cert.vectors} == {"cluster.read"}
    assert isinstance(check_joint(cert, DEPLOY, STAGING_TWO), Valid)


def test_the_corpus_has_joint_only_entries_over_three_bases() -> None:
    assert len(JOINT_ONLY) == len(JOINT_IDS) >= 6
    assert {e.base.name for e in JOINT_ONLY} == {"payments", "calendar", "deploy"}
    assert all(e.expected_preservation == "certified" for e in JOINT_ONLY)


@pytest.mark.parametrize("entry", [e for e in JOINT_ONLY if e.base.name == "calendar" and e.prefix is None],
                         ids=lambda e: e.id)
def test_calendar_joint_entries_are_certified_and_lose_no_client_by_brute_force(entry: object) -> None:
    _certified_and_confirmed(entry)


def _certified_and_confirmed(entry: object) -> None:
    """Revise certifies the entry with a checked joint simulation (the per-list rules cannot), and
    brute force over every workload sequence up to the base's bound finds no lost client."""
    from model.revision.corpus import Entry

    assert isinstance(entry, Entry)
    old, new, base = entry.base.policy, entry.new, entry.base
    report = revise(old, new, entry.effects, base.workload, base.bound, entry.prefix)
    assert isinstance(report.preservation, Certified)
    assert isinstance(report.preservation.evidence, JointSimulation), report.preservation.show()
    assert report.structural != "found" and report.simulation != "found" and report.joint == "found"
    start = None if report.start is None else (report.start.run.state, report.start.new_state)
    assert brute_lost(old, new, base.bound, start, base.workload) is None


def test_brute_force_finds_the_loss_of_a_joint_regression() -> None:
    entry = next(e for e in load_manifest() if e.id == "deploy_user_staging_two")
    report = revise(entry.base.policy, entry.new, entry.effects, entry.base.workload, entry.base.bound)
    assert isinstance(report.preservation, NotPreserved)
    assert brute_lost(entry.base.policy, entry.new, entry.base.bound, None, entry.base.workload) == \
        report.preservation.lost.seq
