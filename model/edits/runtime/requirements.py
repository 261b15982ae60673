"""Result requirements, their signed policy authorities, and what an edit must preserve
(*Exact Checking for Execution Edits*, Sections IV-B2(1), IV-C, V-A2 and Appendix A-A):

    StillRequired_u = RequiredBefore(H, u) \\ (Satisfied_{H,u} ⊎ AuthorizedRemoval_{H,u})
    PreservesRequired ⟺ ∀a ∈ StillRequired_u. ∃(t, y) ∈ B̂. Covers_u(t, a)

Every result belongs to a source region, and every region has one *requirement record*: an
Ed25519 signature by its policy authority over the canonical JSON ``{kind: requirement, domain,
region, authority}``. An *authorized removal* is a signature by the same authority over ``{kind:
removal, domain, target, authority}``, where ``target`` names the removed part (a branch ID, or
``group.arm`` for an arm of a choice group).

Choices where the paper is silent:
- ``RequiredBefore`` is indexed by the edit's source regions ``SrcReg(H, u)`` (Appendix A-A): a
  result is ``(tag, o)`` with ``o`` an outcome of that region's *remaining* contract; context results
  outside the edited region are kept by the identity map and covered by construction.
- ``Satisfied``: the outcome's remaining pomset is empty (the record shows it finished).
- A removal authorizes dropping *every* result of its target, and it counts only if signed by the
  authority of each leaf region inside the target (several authorities: one record each).
- ``Covers_u(t, (tag, o))`` holds when the target outcome ``t`` contains the renamed choices of
  ``o`` and its pomset contains the images of ``o``'s calls; derivation computes the map, the
  checker's nonempty fixed point then gives ``t`` a completion (Section V-C1 at ``z = ε``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from model.base.canonical import JSON
from model.base.errors import InvalidInput
from model.base.signing import KeyPair, public_key_from_text, verify_payload
from model.edits.check.contract import CallId, Outcome, Pomset, Term, outcomes


@dataclass(frozen=True, slots=True)
class SignedRecord:
    kind: str  # "requirement" | "removal"
    subject: str  # the region (requirement) or the removed target (removal)
    authority: str
    signature: str

    def payload(self, domain: str) -> JSON:
        key = "region" if self.kind == "requirement" else "target"
        return {"kind": self.kind, "domain": domain, key: self.subject, "authority": self.authority}

    def to_json(self) -> JSON:
        return {"kind": self.kind, "subject": self.subject, "authority": self.authority, "signature": self.signature}


def record_from_json(doc: Mapping[str, str]) -> SignedRecord:
    return SignedRecord(doc["kind"], doc["subject"], doc["authority"], doc["signature"])


def sign_record(key: KeyPair, kind: str, subject: str, domain: str) -> SignedRecord:
    unsigned = SignedRecord(kind, subject, key.key_id, "")
    return SignedRecord(kind, subject, key.key_id, key.sign(unsigned.payload(domain)))


def verify_record(rec: SignedRecord, authorities: Mapping[str, str], domain: str) -> bool:
    """The signature verifies under the named authority's registered public key."""
    text = authorities.get(rec.authority)
    if text is None:
        return False
    try:
        key = public_key_from_text(text)
    except InvalidInput:
        return False
    return verify_payload(key, rec.payload(domain), rec.signature)


@dataclass(frozen=True, slots=True)
class SourceRegion:
    """One entry of ``SrcReg(H, u)``: its tag, remaining contract, owning authorities, removal target,
    and — when kept or copied — the call and choice bijections into the target."""

    tag: str
    contract: Term
    authorities: frozenset[str]
    target: str
    calls: Mapping[CallId, CallId] | None  # None: the region is removed by the edit
    groups: Mapping[str, str]


Result = tuple[str, Outcome]


@dataclass(frozen=True, slots=True)
class Preservation:
    required_before: tuple[Result, ...]
    satisfied: tuple[Result, ...]
    removed: tuple[Result, ...]
    still_required: tuple[Result, ...]
    covers: tuple[tuple[Result, Outcome], ...]  # one witness target outcome per still-required result
    uncovered: tuple[Result, ...]
    # every target outcome t with Covers_u(t, a), for each still-required result a (in target order)
    covering: tuple[tuple[Result, tuple[Outcome, ...]], ...] = ()


def authorized(region: SourceRegion, removals: tuple[SignedRecord, ...], authorities: Mapping[str, str],
               domain: str) -> bool:
    signers = {r.authority for r in removals if r.kind == "removal" and r.subject == region.target
               and verify_record(r, authorities, domain)}
    return bool(region.authorities) and region.authorities <= signers


def _covers(t: Outcome, pt: Pomset, region: SourceRegion, o: Outcome, po: Pomset) -> bool:
    assert region.calls is not None
    renamed = {(region.groups.get(g, g), a) for g, a in o}
    return renamed <= set(t) and {region.calls[c] for c in po.calls} <= pt.calls


def covering(region: SourceRegion, o: Outcome, po: Pomset,
             target_outs: Mapping[Outcome, Pomset]) -> tuple[Outcome, ...]:
    """Every target outcome ``t`` with ``Covers_u(t, (tag, o))``, in target order; none when the edit
    removes the region."""
    if region.calls is None:
        return ()
    return tuple(t for t, pt in target_outs.items() if _covers(t, pt, region, o, po))


def preservation(regions: tuple[SourceRegion, ...], target: Term, removals: tuple[SignedRecord, ...],
                 authorities: Mapping[str, str], domain: str) -> Preservation:
    """StillRequired_u with one checked Covers_u witness per still-required result."""
    target_outs = outcomes(target)
    before: list[Result] = []
    sat: list[Result] = []
    rem: list[Result] = []
    still: list[Result] = []
    cov: list[tuple[Result, Outcome]] = []
    every: list[tuple[Result, tuple[Outcome, ...]]] = []
    bad: list[Result] = []
    for region in regions:
        ok_removal = authorized(region, removals, authorities, domain)
        for o, po in outcomes(region.contract).items():
            res = (region.tag, o)
            before.append(res)
            if len(po) == 0:
                sat.append(res)
                continue
            if ok_removal:
                rem.append(res)
                continue
            still.append(res)
            ts = covering(region, o, po, target_outs)
            every.append((res, ts))
            if not ts:
                bad.append(res)
            else:
                cov.append((res, ts[0]))
    return Preservation(tuple(before), tuple(sat), tuple(rem), tuple(still), tuple(cov), tuple(bad), tuple(every))
