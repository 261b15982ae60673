"""``agentwarrant admit ...`` and ``agentwarrant verify-record FILE --key PUBLIC_KEY``.

``verify-record`` is the offline verifier of the Parmana paper, Section 4.5: it reads
one record (or a non-empty JSON list of records, whose chains it also checks) and a public key file
(PEM or base64 of the raw 32 Ed25519 bytes; for a hybrid key, an Ed25519 and an ML-DSA-65 PEM block,
and then both signatures are required) and nothing else, and prints a summary (records; per chain its
length and head ``recordHash``). Truncation leaves a valid shorter chain, so ``--expect-length`` and
``--expect-head`` pin what the caller knows. Exit status (``model/base/exitcodes.py``): 0 valid and every
pin met, 1 invalid or a pin not met, 2 bad input (unreadable, not JSON, not a record or a non-empty
list of records, a bad key file).
"""

from __future__ import annotations

import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import click

from model.admission.decision.approvals import load_approval, load_registry, verify_approval
from model.admission.decision.signed_policy import load_policy
from model.admission.refusal import Refusal
from model.admission.signatures.auth_events import ChainInvalid, verify_caller_chain
from model.admission.signatures.hybrid import public_keys_from_text
from model.admission.signatures.records import RecordInvalid, chain_heads, record_hash, records_document, verify_chain
from model.base.budget import Budget
from model.base.canonical import load_file
from model.base.errors import InputKind, InvalidInput
from model.base.exitcodes import EPILOG, Exit
from model.base.jsonio import decode, printable, read_text
from model.base.signing import parse_instant
from model.shell.options import budget_option, metered_progress


@click.command("verify-record", epilog=EPILOG)
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--key", "key_file", required=True, type=click.Path(dir_okay=False),
              help="Public key file: PEM, or base64 of the 32 raw Ed25519 bytes; a hybrid key is an Ed25519 and "
                   "an ML-DSA-65 PEM block, and then both signatures are required.")
@click.option("--expect-length", type=click.IntRange(min=1), default=None,
              help="The number of records the file must hold (detects records dropped from the end).")
@click.option("--expect-head", "expect_heads", multiple=True, metavar="HASH",
              help="A recordHash (64 hex digits, any case) that must be the head (last record) of one of the "
                   "chains; repeatable.")
def verify_record_cmd(file: str, key_file: str, expect_length: int | None, expect_heads: tuple[str, ...]) -> None:
    """Verify a signed record, or a list of records and their chains, offline.

    Prints one line per record and a summary: records, and per chain its length and head recordHash.
    Dropping the last records of a chain leaves a valid shorter chain; pin the expected length or head
    to detect it. Exit 1 when a record or link is invalid or a pin is not met; 2 when FILE is not a
    record or a non-empty list of records.
    """
    heads_wanted = [record_hash(h, "--expect-head") for h in expect_heads]
    key = public_keys_from_text(read_text(key_file), key_file)
    records = records_document(load_file(file), file)
    out = verify_chain(records, key)
    if isinstance(out, RecordInvalid):
        meaning = {"malformed": "a record is not in the signed-record form",
                   "hash-mismatch": "a record's hash does not match its payload (it was altered)",
                   "bad-signature": "a signature does not check with this key",
                   "downgrade": "a signature is not in the suite or form the key and the record's length require",
                   "broken-chain": "a record does not point to the one before it"}[out.defect.value]
        click.echo(f"invalid: {meaning} ({out.defect.value}: {out.detail})")
        sys.exit(Exit.FAILS)
    for v in out:
        click.echo(f"valid: {v.kind} {v.record_hash}")
    heads = chain_heads(out)
    click.echo(f"summary: {len(out)} records; " + ("; ".join(
        f"{kind} chain: {n} records, head {h}" for kind, (n, h) in sorted(heads.items())) or "no chained records"))
    failed = False
    if expect_length is not None and expect_length != len(out):
        click.echo(f"invalid: length: expected {expect_length} records, found {len(out)}")
        failed = True
    for h in heads_wanted:
        if h not in {head for _, head in heads.values()}:
            click.echo(f"invalid: head: {h} is not the head of any chain (truncated, extended or another log)")
            failed = True
    sys.exit(Exit.FAILS if failed else Exit.HOLDS)


@click.group("admit", epilog=EPILOG)
def cli() -> None:
    """Admission protocols: held attempts and replay, signed approvals, release gate, records."""


@cli.command("check-policy", epilog=EPILOG)
@click.argument("file", type=click.Path(dir_okay=False))
def check_policy(file: str) -> None:
    """Load and validate a signed-approval policy (approve rules must require an approval)."""
    p = load_policy(load_file(file), file)
    click.echo(f"ok: {p.name} v{p.version} governs {p.action}; {len(p.rules)} rules; content {p.content_hash}")


@cli.command("verify-approval", epilog=EPILOG)
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--approvers", required=True, type=click.Path(dir_okay=False), help="Approver registry JSON.")
@click.option("--action", required=True)
@click.option("--resource", required=True)
@click.option("--amount", "amount_text", default=None, metavar="NUMBER",
              help="The amount the approval must cover (a JSON number, 0 <= amount).")
@click.option("--now", "now_text", default=None, help="Instant to check at (ISO, Z); default: the clock.")
def verify_approval_cmd(file: str, approvers: str, action: str, resource: str, amount_text: str | None,
                        now_text: str | None) -> None:
    """Check a signed approval's signature and bindings (does not spend its nonce).

    Exit 0 verified, 1 refused (the reason is printed; an amount outside 0..max is refused), 2 bad input.
    """
    amount = None if amount_text is None else _amount(amount_text)
    now = parse_instant(now_text) if now_text else datetime.now(UTC)
    if now is None:
        raise InvalidInput("--now", "an ISO-8601 UTC instant ending in Z", now_text, InputKind.VALUE)
    v = verify_approval(load_approval(load_file(file), file), action=action, resource=resource, amount=amount,
                        now=now, registry=load_registry(load_file(approvers), approvers))
    if isinstance(v, Refusal):
        click.echo(f"refused: {_APPROVAL_REFUSALS.get(v.reason.value, 'the approval does not hold')} "
                   f"({v.reason.value}: {v.detail})")
        sys.exit(Exit.FAILS)
    click.echo(f"verified: {v.approval.approver_id}'s approval of {v.approval.capability} on {v.approval.resource_id} "
               f"checks (key, signature, lifetime, action, resource, scope); its nonce is not spent by this check")


@cli.command("verify-auth-chain", epilog=EPILOG)
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--key", "key_file", required=True, type=click.Path(dir_okay=False),
              help="The service's public key file (Ed25519, or an Ed25519 and an ML-DSA-65 PEM block).")
@click.option("--expect-head", default=None, metavar="HASH",
              help="The recordHash the chain must end with (64 hex digits, any case, as verify-record reads it).")
def verify_auth_chain_cmd(file: str, key_file: str, expect_head: str | None) -> None:
    """Verify one caller's authentication-event chain (a JSON list of events) offline.

    Exit 0 valid (and ending at --expect-head, if given), 1 invalid, 2 bad input.
    """
    head_wanted = None if expect_head is None else record_hash(expect_head, "--expect-head")
    key = public_keys_from_text(read_text(key_file), key_file)
    doc = load_file(file)
    if not isinstance(doc, list) or not doc:
        raise InvalidInput(file, "a non-empty JSON list of authentication events", type(doc).__name__,
                           InputKind.SCHEMA)
    v = verify_caller_chain(doc, key)
    if isinstance(v, ChainInvalid):
        click.echo(f"invalid: {v.defect.value}: {v.detail}")
        sys.exit(Exit.FAILS)
    click.echo(f"valid: caller {v.caller}: {v.length} events, head {v.head}")
    if head_wanted is not None and head_wanted != v.head:
        click.echo(f"invalid: head: expected {head_wanted} (events dropped from the end, or another chain)")
        sys.exit(Exit.FAILS)
    sys.exit(Exit.HOLDS)


_APPROVAL_REFUSALS = {
    "unknown-approver": "the approver's key is not in the registry",
    "signature-downgrade": "the signature is weaker than the approver's key requires",
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


def _amount(text: str) -> int | float:
    """``--amount`` through the JSON boundary: a finite number kept exactly (no NaN, no 1e400)."""
    value = decode(text, "--amount")
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput("--amount", "a number", printable(text)[:40], InputKind.VALUE)
    return value


@cli.command("explore", epilog=EPILOG)
@click.option("--depth", type=click.IntRange(0, 40), default=12, show_default=True)
@click.option("--attempts", type=click.IntRange(1, 3), default=1, show_default=True)
@click.option("--mutant", type=click.Choice(["skip-identity-check", "skip-live-check", "replay-unapproved",
                                             "redispatch-after-crash"]), default=None,
              help="Inject a known fault, to see the exploration find it.")
@budget_option()
def explore_cmd(depth: int, attempts: int, mutant: str | None, budget: Budget) -> None:
    """Explore every interleaving of the hold/replay protocol up to DEPTH steps; report states and violations.

    Exit 0 no violation (within the depth), 1 a violated property with its trace, 3 the budget ran out
    before the exploration ended and no violation was found (one tick per transition)."""
    from model.admission.deployments.explore import PROPERTIES, explore

    with metered_progress("admit explore") as progress:
        r = explore(depth=depth, attempts=attempts, mutant=mutant, budget=budget, on_progress=progress)
    click.echo(f"{r.states} states, {r.transitions} transitions, depth {r.depth}, {r.attempts} attempt(s), "
               f"{'complete (fixed point)' if r.complete else 'bounded'}")
    for v in r.violations:
        click.echo(f"violated {v.property} ({PROPERTIES[v.property]}): {' -> '.join(v.trace)}")
    if r.violations:
        sys.exit(Exit.FAILS)
    if r.unknown is not None:
        click.echo(f"Unknown: {r.unknown.describe()}")
        sys.exit(Exit.UNKNOWN)


@cli.command("demo", epilog=EPILOG)
@click.option("--json", "as_json", is_flag=True, help="One canonical JSON object per step, with identifiers and codes.")
def demo(as_json: bool) -> None:
    """Run a held attempt through approval and replay, and a signed approval through verification,
    tampering, decision and release, printing one sentence per step."""
    from model.admission.deployments.demo import run_demo
    from model.base.canonical import canonical_str

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
