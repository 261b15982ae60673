"""The façade's second half (re-exported by ``model/shell/api.py``): signed evidence checked offline
(the Parmana paper §§4.3–4.5), the admission walk-through, and a differential campaign of the
Python model against the Lean oracle (*Exact Checking for Execution Edits* §V, agenra §§4–6).

Choices: a JSON argument may be a path or the parsed document; ``drt_campaign`` answers
``DrtSkipped(reason)`` rather than raising when no Lean toolchain or oracle is found (a notebook states
the reason and goes on), and saves mismatch inputs under a folder the caller names, never into the
checkout unless asked.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from model.base.canonical import JSON, load_file
from model.base.errors import InputKind, InvalidInput, found
from model.base.jsonio import read_text
from model.shell.apicheck import checked

if TYPE_CHECKING:
    from model.admission.decision.approvals import ApprovalVerified
    from model.admission.deployments.demo import DemoStep
    from model.admission.refusal import Refusal
    from model.admission.signatures.records import RecordInvalid, RecordValid

PathLike = str | Path


def _float_range(x: float) -> bool:
    try:
        float(x)
    except OverflowError:
        return False
    return True


def _doc(value: PathLike | JSON, what: str) -> tuple[JSON, str]:
    if isinstance(value, Path) or (isinstance(value, str) and not value.lstrip().startswith(("{", "["))):
        return load_file(str(value)), str(value)
    return value, f"<{what}>"


@checked
def verify_approval(approval: PathLike | JSON, approvers: PathLike | JSON, *, action: str, resource: str,
                    amount: float | None = None, now: datetime | None = None) -> ApprovalVerified | Refusal:
    """Check a signed approval's key, signature, lifetime and bindings (its nonce is not spent here).

    >>> at = datetime(2026, 12, 2, 15, 0, tzinfo=UTC)  # inside its 15-minute lifetime
    >>> ok = dict(action="paytm:refund", resource="order-1", now=at)
    >>> type(verify_approval("corpus/admission/approval_order-1.json", "corpus/admission/approvers.json",
    ...                      amount=120, **ok)).__name__
    'ApprovalVerified'
    >>> verify_approval("corpus/admission/approval_order-1.json", "corpus/admission/approvers.json",
    ...                 amount=900, **ok).reason.value
    'amount-exceeded'
    """
    from model.admission.decision.approvals import load_approval, load_registry
    from model.admission.decision.approvals import verify_approval as _verify_approval

    if amount is not None and not _float_range(amount):
        raise InvalidInput("verify_approval: amount", "a number within float range (at most about 1.8e308)",
                           found(amount), InputKind.VALUE)
    if now is not None and (now.tzinfo is None or now.utcoffset() is None):
        raise InvalidInput("verify_approval: now", "a timezone-aware datetime (e.g. tzinfo=UTC): approvals carry "
                           "UTC instants", f"the naive datetime {now.isoformat()}", InputKind.VALUE)
    a_doc, a_src = _doc(approval, "approval")
    r_doc, r_src = _doc(approvers, "approvers")
    return _verify_approval(load_approval(a_doc, a_src), action=action, resource=resource, amount=amount,
                            now=now if now is not None else datetime.now(UTC), registry=load_registry(r_doc, r_src))


@checked
def verify_records(records: PathLike | JSON, key: PathLike | bytes) -> tuple[RecordValid, ...] | RecordInvalid:
    """Verify signed records offline with nothing but the records and the public key (a key file: PEM,
    or an Ed25519 and an ML-DSA-65 PEM block for a hybrid key; or the raw Ed25519 bytes); a list is
    also checked as hash chains. An empty list, or a list holding a non-object, is ``InvalidInput``
    (the CLI's rule: nothing to verify is not "valid").

    >>> out = verify_records("corpus/admission/records.json", "corpus/admission/keys/runtime.pub.pem")
    >>> [v.kind for v in out]
    ['governance', 'governance', 'refusal', 'intent', 'execution']
    """
    from model.admission.signatures.hybrid import public_keys_from_text
    from model.admission.signatures.records import RecordInvalid, records_document, verify_chain, verify_record

    doc, where = _doc(records, "records")
    checked = records_document(doc, where)
    if isinstance(key, bytes):
        if len(key) != 32:
            raise InvalidInput("verify_records: key", "the 32 raw bytes of an Ed25519 public key, or a key file's "
                               "path", f"{len(key)} bytes", InputKind.VALUE)
        pk: object = key
    else:
        pk = public_keys_from_text(read_text(key, "a readable public key file"), str(key))
    out = verify_chain(checked, pk) if isinstance(doc, list) else verify_record(checked[0], pk)  # type: ignore[arg-type]
    if isinstance(out, RecordInvalid):
        return out
    return tuple(out) if isinstance(out, list) else (out,)


@checked
def admission_demo() -> tuple[DemoStep, ...]:
    """A held attempt through approval and replay, and a signed approval through verification,
    tampering, decision and release (what ``agentwarrant admit demo`` prints).

    >>> [(s.step, s.outcome) for s in admission_demo()][2:4]
    [('replay', 'completed'), ('replay again', 'refused')]
    """
    from model.admission.deployments.demo import run_demo

    with tempfile.TemporaryDirectory() as tmp:
        return run_demo(Path(tmp))


@dataclass(frozen=True, slots=True)
class DrtSkipped:
    """No campaign ran: ``reason`` says what is missing."""

    reason: str


@dataclass(frozen=True, slots=True)
class DrtRun:
    """One judgment's campaign: generated cases, comparisons made, skips, mismatches, seconds."""

    judgment: str
    cases: int
    compared: int
    skipped: int
    mismatches: int
    seconds: float

    @property
    def mismatch_rate(self) -> float:
        return self.mismatches / self.compared if self.compared else 0.0


@checked
def drt_campaign(cases: int = 100, judgments: tuple[str, ...] | None = None, seed: int | None = None,
                 vectors: PathLike | None = None, build: bool = True) -> tuple[DrtRun, ...] | DrtSkipped:
    """Run ``cases`` generated cases per judgment against the Lean oracle (building it first when a
    toolchain is found and ``build``); mismatch inputs go to ``vectors`` (default: a temporary folder).
    An oracle fault (it cannot be started, does not answer within its timeout, answers what is not an
    answer) raises ``OracleError``: the campaign's answer is unknown, not a shorter campaign's.

    >>> out = drt_campaign(cases=1)
    >>> isinstance(out, DrtSkipped) or all(r.mismatches == 0 for r in out)
    True
    """
    from model.oracle import generators
    from model.oracle.drt import campaign
    from model.oracle.inproc import open_oracle
    from model.oracle.lean import JUDGMENTS, SESSION_JUDGMENTS, OracleError
    from model.oracle.library import build as build_library
    from model.oracle.toolchain import build_oracle, find_toolchain, missing_reason, oracle_path

    if cases < 1:
        raise InvalidInput("drt_campaign: cases", "a positive number of cases per judgment", found(cases),
                           InputKind.VALUE)
    chosen = judgments or JUDGMENTS
    for j in chosen:
        if j not in JUDGMENTS + SESSION_JUDGMENTS:
            raise InvalidInput("judgments", "one of " + ", ".join(JUDGMENTS + SESSION_JUDGMENTS), j, InputKind.VALUE)
    tc = find_toolchain()
    if tc is not None and build:
        build_oracle(tc)
        build_library(tc)
    if not oracle_path().is_file():
        return DrtSkipped(f"{missing_reason()}; no oracle executable at {oracle_path()}" if tc is None
                          else f"no oracle executable at {oracle_path()} (build with `make lean`)")
    strategies = generators
    with tempfile.TemporaryDirectory() as tmp, open_oracle() as oracle:
        out = Path(vectors) if vectors is not None else Path(tmp)
        runs = []
        for j in chosen:
            runs.append(campaign(j, cases, oracle, strategies, seed, vectors=out))
            if runs[-1].fault:  # stopped short: the answer is unknown, never a smaller campaign's
                raise OracleError(runs[-1].fault_kind, f"{j}: after {runs[-1].cases} case(s): {runs[-1].fault}")
    return tuple(DrtRun(s.judgment, s.cases, s.compared, sum(s.skipped.values()), len(s.mismatches), s.seconds)
                 for s in runs)
