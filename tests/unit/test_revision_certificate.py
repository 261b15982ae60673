"""Structural certificates and their independent checker (Agenra Section 7.1)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from model.monitor.language.policy import EntryKind
from model.monitor.language.syntax import load_policy, parse_policy
from model.revision.certify.certificate import Certificate, Rule, Step, certificate_from_json, certificate_to_json
from model.revision.certify.certificate_checker import Invalid, Valid, check
from model.revision.certify.structural import NoCertificate, certify
from model.revision.effects import EVERY_EFFECT, parse_effects

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "corpus" / "policies" / "delete_ab.policy").read_text()
OLD = parse_policy(TEXT)
B, A = 'allow file.delete("B") quota 1', 'allow file.delete("A") quota 1'


def _new(text: str) -> Certificate:
    new = parse_policy(text)
    cert = certify(OLD, new, EVERY_EFFECT)
    assert isinstance(cert, Certificate), cert
    assert isinstance(check(cert, OLD, new), Valid)
    return cert


def test_appended_grant_is_a_prefix_extension() -> None:
    cert = _new(TEXT.replace(A, A + '\n  allow file.delete("C") quota 1'))
    assert cert.user.rule is Rule.PREFIX and cert.user.justification == ("0: identical", "1: identical")


def test_quota_increase_is_a_capacity_extension() -> None:
    assert _new(TEXT.replace(A, 'allow file.delete("A") quota 3')).user.rule is Rule.CAPACITY


def test_swap_of_independent_grants_and_a_lifted_swap() -> None:
    assert _new(TEXT.replace(B + "\n  " + A, A + "\n  " + B)).user.rules() == (Rule.PREFIX, Rule.SWAP)
    inserted = _new(TEXT.replace(A, 'allow file.delete("C") quota 1\n  ' + A))
    assert inserted.user.rules() == (Rule.PREFIX, Rule.LIFT, Rule.SWAP)


def test_certificate_survives_a_json_round_trip() -> None:
    text = TEXT.replace(B + "\n  " + A, A + "\n  " + B + '\n  allow file.delete("C") quota 2')
    cert = _new(text)
    again = certificate_from_json(certificate_to_json(cert))
    assert again == cert and isinstance(check(again, OLD, parse_policy(text)), Valid)


def test_no_certificate_for_overlapping_swaps_narrowing_or_added_denies() -> None:
    widened = TEXT.replace(B, "allow file.delete(*) quota 1")
    overlapping = parse_policy(widened)
    star = "allow file.delete(*) quota 1"
    swapped = parse_policy(widened.replace(star + "\n  " + A, A + "\n  " + star))
    assert isinstance(certify(overlapping, swapped, EVERY_EFFECT), NoCertificate)
    assert isinstance(certify(OLD, parse_policy(TEXT.replace(A, 'allow file.delete("A") quota 0')), EVERY_EFFECT),
                      NoCertificate)
    deny = parse_policy(TEXT.replace(A, A + '\n  deny file.delete("C")'))
    assert "deny" in certify(OLD, deny, EVERY_EFFECT).reason  # type: ignore[union-attr]


def test_restricted_effect_set_certifies_a_matching_equivalent_edit() -> None:
    new = parse_policy(TEXT.replace("allow file.delete(*) quota unlimited",
                                    'allow file.delete(like "[AB]") quota unlimited'))
    assert isinstance(certify(OLD, new, EVERY_EFFECT), NoCertificate)
    cert = certify(OLD, new, parse_effects('file.delete("A"),file.delete("B")'))
    assert isinstance(cert, Certificate) and isinstance(check(cert, OLD, new), Valid)
    # the same certificate claimed for every effect is refused
    assert isinstance(check(replace(cert, effects=EVERY_EFFECT), OLD, new), Invalid)


def test_checker_refuses_forged_steps() -> None:
    swapped_text = TEXT.replace(B + "\n  " + A, A + "\n  " + B)
    cert = _new(swapped_text)
    new = parse_policy(swapped_text)
    # a swap claimed for two overlapping accounts
    widened = parse_policy(TEXT.replace(B, "allow file.delete(*) quota 1"))
    forged = Step(Rule.SWAP, widened.user, (widened.user[1], widened.user[0]))
    target = replace(widened, user=(widened.user[1], widened.user[0]))
    assert isinstance(check(Certificate(EVERY_EFFECT, forged, cert.application), widened, target), Invalid)
    # a prefix step that lowers a quota
    lowered = replace(OLD, user=(OLD.user[0], replace(OLD.user[1], quota=0)))
    fake = Step(Rule.CAPACITY, OLD.user, lowered.user)
    assert isinstance(check(Certificate(EVERY_EFFECT, fake, cert.application), OLD, lowered), Invalid)
    # a lift whose head changes
    lift = Step(Rule.LIFT, OLD.user, (OLD.user[1], OLD.user[0]), (Step(Rule.PREFIX, OLD.user[1:], OLD.user[:1]),))
    assert isinstance(check(Certificate(EVERY_EFFECT, lift, cert.application), OLD, new), Invalid)
    # an extension appending a deny
    with_deny = replace(OLD, user=(*OLD.user, replace(OLD.user[0], kind=EntryKind.DENY)))
    ext = Step(Rule.PREFIX, OLD.user, with_deny.user)
    assert isinstance(check(Certificate(EVERY_EFFECT, ext, cert.application), OLD, with_deny), Invalid)
    # a certificate for other lists, and a revision that changes more than the lists
    assert isinstance(check(cert, OLD, OLD), Invalid)
    other_agent = replace(new, agents=(replace(new.agents[0], ceiling="Public", operations=frozenset()),))
    assert isinstance(check(cert, OLD, other_agent), Invalid)


def test_capacity_extension_refused_when_permit_and_plain_grants_overlap() -> None:
    text = (ROOT / "corpus" / "policies" / "report_permit.policy").read_text()
    old = load_policy(ROOT / "corpus" / "policies" / "report_permit.policy")
    plain = text.replace("allow message.send(@target) keys {body, recipient} quota 2 permit",
                         "allow message.send(@target) keys {body, recipient} quota 2 permit\n"
                         "  allow message.send(*) quota 1")
    base = parse_policy(plain)
    raised = parse_policy(plain.replace("quota 2 permit", "quota 3 permit"))
    found = certify(base, raised, EVERY_EFFECT)
    assert isinstance(found, NoCertificate) and "permit" in found.reason
    # the raise alone, with no overlapping permit-free grant, is certified
    alone = parse_policy(text.replace("quota 2 permit", "quota 3 permit"))
    assert isinstance(certify(old, alone, EVERY_EFFECT), Certificate)


def test_usage_counts_read_back_exactly() -> None:
    import pytest

    from model.revision.certify.certificate import count_from_json

    assert count_from_json(0) == 0 and count_from_json(3) == 3
    for bad in (True, False, 1.7, 1.0, -1, "1", None):
        with pytest.raises(ValueError):
            count_from_json(bad)
    doc = certificate_to_json(_new(TEXT.replace(A, 'allow file.delete("A") quota 3')))
    user = doc["user"]
    assert isinstance(user, dict)
    with pytest.raises(ValueError):
        certificate_from_json({**doc, "user": {**user, "source_used": [True]}})
