"""``agentwarrant admit ...`` and ``agentwarrant verify-record FILE --key PUBLIC_KEY``.

``verify-record`` is the offline verifier of parmana-signed-approvals.md, Section 4.5: it reads
one record (or a JSON list of records, whose chains it also checks) and a public key file (PEM or
base64 of the raw 32 bytes) and nothing else. Exit status: 0 valid, 1 invalid, 2 unreadable input.
"""

from __future__ import annotations

import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import click

from model.admission.approvals import load_approval, load_registry, verify_approval
from model.admission.records import RecordInvalid, verify_chain, verify_record
from model.admission.refusal import Refusal
from model.admission.signed_policy import load_policy
from model.admission.signing import parse_instant, public_key_from_text
from model.canonical import load_file
from model.errors import InputKind, InvalidInput


def _read_text(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(path, "a readable UTF-8 file", str(exc), InputKind.IO) from None


@click.command("verify-record")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--key", "key_file", required=True, type=click.Path(dir_okay=False),
              help="Public key file: PEM, or base64 of the 32 raw Ed25519 bytes.")
def verify_record_cmd(file: str, key_file: str) -> None:
    """Verify a signed record (or a list of records and their chains) offline."""
    key = public_key_from_text(_read_text(key_file), key_file)
    doc = load_file(file)
    out = verify_chain(doc, key) if isinstance(doc, list) else verify_record(doc, key)
    if isinstance(out, RecordInvalid):
        meaning = {"malformed": "a record is not in the signed-record form",
                   "hash-mismatch": "a record's hash does not match its payload (it was altered)",
                   "bad-signature": "a signature does not check with this key",
                   "broken-chain": "a record does not point to the one before it"}[out.defect.value]
        click.echo(f"invalid: {meaning} ({out.defect.value}: {out.detail})")
        sys.exit(1)
    valid = out if isinstance(out, list) else [out]
    for v in valid:
        click.echo(f"valid: {v.kind} {v.record_hash}")
    chains = " and every hash chain among them is intact" if isinstance(out, list) else ""
    click.echo(f"{len(valid)} record{'s' if len(valid) != 1 else ''} verified offline with {key_file}: each hash "
               f"matches its payload and each signature checks{chains}.")


@click.group("admit")
def cli() -> None:
    """Admission protocols: held attempts and replay, signed approvals, release gate, records."""


@cli.command("check-policy")
@click.argument("file", type=click.Path(dir_okay=False))
def check_policy(file: str) -> None:
    """Load and validate a signed-approval policy (approve rules must require an approval)."""
    p = load_policy(load_file(file), file)
    click.echo(f"ok: {p.name} v{p.version} governs {p.action}; {len(p.rules)} rules; content {p.content_hash}")


@cli.command("verify-approval")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--approvers", required=True, type=click.Path(dir_okay=False), help="Approver registry JSON.")
@click.option("--action", required=True)
@click.option("--resource", required=True)
@click.option("--amount", type=float, default=None)
@click.option("--now", "now_text", default=None, help="Instant to check at (ISO, Z); default: the clock.")
def verify_approval_cmd(file: str, approvers: str, action: str, resource: str, amount: float | None,
                        now_text: str | None) -> None:
    """Check a signed approval's signature and bindings (does not spend its nonce)."""
    now = parse_instant(now_text) if now_text else datetime.now(UTC)
    if now is None:
        raise InvalidInput("--now", "an ISO-8601 UTC instant ending in Z", now_text, InputKind.VALUE)
    v = verify_approval(load_approval(load_file(file), file), action=action, resource=resource, amount=amount,
                        now=now, registry=load_registry(load_file(approvers), approvers))
    if isinstance(v, Refusal):
        click.echo(f"refused: {_APPROVAL_REFUSALS.get(v.reason.value, 'the approval does not hold')} "
                   f"({v.reason.value}: {v.detail})")
        sys.exit(1)
    click.echo(f"verified: {v.approval.approver_id}'s approval of {v.approval.capability} on {v.approval.resource_id} "
               f"checks (key, signature, lifetime, action, resource, scope); its nonce is not spent by this check")


_APPROVAL_REFUSALS = {
    "unknown-approver": "the approver's key is not in the registry",
    "revoked-key": "the approver's key was revoked",
    "bad-signature": "the signature does not cover this approval as given",
    "ttl-too-long": "the approval lives longer than allowed",
    "not-yet-valid": "the approval is not valid yet",
    "expired": "the approval has expired",
    "wrong-action": "the approval is for another action",
    "wrong-resource": "the approval is for another resource",
    "scope-mismatch": "the approval's scope does not fit the policy",
    "amount-exceeded": "the amount is above what was approved",
}


@cli.command("explore")
@click.option("--depth", type=click.IntRange(0, 40), default=12, show_default=True)
@click.option("--attempts", type=click.IntRange(1, 3), default=1, show_default=True)
@click.option("--mutant", type=click.Choice(["skip-identity-check", "skip-live-check", "replay-unapproved",
                                             "redispatch-after-crash"]), default=None,
              help="Inject a known fault, to see the exploration find it.")
def explore_cmd(depth: int, attempts: int, mutant: str | None) -> None:
    """Explore every interleaving of the hold/replay protocol up to DEPTH steps; report states and violations."""
    from model.admission.explore import PROPERTIES, explore

    r = explore(depth=depth, attempts=attempts, mutant=mutant)
    click.echo(f"{r.states} states, {r.transitions} transitions, depth {r.depth}, {r.attempts} attempt(s), "
               f"{'complete (fixed point)' if r.complete else 'bounded'}")
    for v in r.violations:
        click.echo(f"violated {v.property} ({PROPERTIES[v.property]}): {' -> '.join(v.trace)}")
    if r.violations:
        sys.exit(1)


@cli.command("demo")
@click.option("--json", "as_json", is_flag=True, help="One canonical JSON object per step, with identifiers and codes.")
def demo(as_json: bool) -> None:
    """Run a held attempt through approval and replay, and a signed approval through verification,
    tampering, decision and release, printing one sentence per step."""
    from model.admission.demo import run_demo
    from model.canonical import canonical_str

    with tempfile.TemporaryDirectory() as tmp:
        steps = run_demo(Path(tmp))
    protocol = ""
    for s in steps:
        if as_json:
            click.echo(canonical_str(s.to_json()))
            continue
        if s.protocol != protocol:
            protocol = s.protocol
            click.echo(f"{protocol}:")
        click.echo(f"  {s.step:<16} {s.sentence}")


def register(main: click.Group) -> None:
    """Add ``admit`` and the top-level ``verify-record`` to the ``agentwarrant`` command."""
    main.add_command(cli, "admit")
    main.add_command(verify_record_cmd, "verify-record")
