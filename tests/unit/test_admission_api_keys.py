"""API keys scoped to capabilities, principals and tenant (E1; ``model.admission.decision.api_keys``) and the
per-caller authentication-event chain (``model.admission.signatures.auth_events``): out-of-scope, forged,
revoked and malformed keys refused with a named reason; every attempt chained per caller, signed,
verifiable offline; altered, reordered, truncated-at-the-start, cross-caller and downgraded chains
refused, on both store backends."""

from __future__ import annotations

import copy
import hashlib
import json
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.admission.decision.api_keys import Authenticated, authenticate, fingerprint, load_api_keys, make_token
from model.admission.refusal import Refusal, RefusalReason
from model.admission.signatures.auth_events import (
    AuthEventLog,
    ChainDefect,
    ChainInvalid,
    ChainValid,
    verify_caller_chain,
)
from model.admission.signatures.hybrid import generate_hybrid, hybrid_public_pem, public_keys
from model.base.errors import InvalidInput
from model.base.signing import KeyPair
from model.shell.cli import main

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
SECRET = "s3cret-value-0123456789"
KEYS = load_api_keys([
    {"keyId": "agent-key", "secretSha256": hashlib.sha256(SECRET.encode()).hexdigest(), "tenant": "acme",
     "principals": ["agent-1"], "capabilities": ["paytm:refund", "slack:post"]},
    {"keyId": "old-key", "secretSha256": hashlib.sha256(SECRET.encode()).hexdigest(), "tenant": "acme",
     "principals": ["agent-1"], "capabilities": ["paytm:refund"], "revoked": True},
])
TOKEN = make_token("agent-key", SECRET)


def auth(token: str = TOKEN, tenant: str = "acme", principal: str = "agent-1", capability: str = "paytm:refund",
         log: AuthEventLog | None = None) -> Authenticated | Refusal:
    return authenticate(KEYS, token, tenant=tenant, principal=principal, capability=capability, now=NOW, log=log)


def test_in_scope_key_authenticates_with_a_fingerprint_not_the_secret() -> None:
    out = auth()
    assert isinstance(out, Authenticated) and out.fingerprint == fingerprint(SECRET)
    assert SECRET not in repr(out)


@pytest.mark.parametrize(("kw", "reason"), [
    ({"tenant": "globex"}, RefusalReason.TENANT_SCOPE),
    ({"principal": "agent-2"}, RefusalReason.PRINCIPAL_SCOPE),
    ({"capability": "github:merge"}, RefusalReason.CAPABILITY_SCOPE),
    ({"token": make_token("agent-key", "wrong-secret-000000")}, RefusalReason.UNAUTHENTICATED),
    ({"token": make_token("no-such-key", SECRET)}, RefusalReason.UNAUTHENTICATED),
    ({"token": make_token("old-key", SECRET)}, RefusalReason.REVOKED_KEY),
    ({"token": TOKEN[:-12]}, RefusalReason.MALFORMED),  # truncated below the minimum secret length
    ({"token": "Bearer " + TOKEN}, RefusalReason.MALFORMED),
    ({"token": TOKEN + "\n"}, RefusalReason.MALFORMED),  # the exact token, not one line of a text
    ({"token": TOKEN + "\r\n"}, RefusalReason.MALFORMED),
    ({"token": " " + TOKEN}, RefusalReason.MALFORMED),
])
def test_out_of_scope_forged_revoked_and_malformed_keys_refused(kw: dict[str, str], reason: RefusalReason) -> None:
    out = auth(**kw)
    assert isinstance(out, Refusal) and out.reason is reason, out


def test_load_api_keys_names_the_place() -> None:
    with pytest.raises(InvalidInput, match=r"\$\[0\]\.secretSha256.*64 lower-case hex"):
        load_api_keys([{"keyId": "k", "secretSha256": "zz", "tenant": "t", "principals": ["p"],
                        "capabilities": ["c"]}])
    with pytest.raises(InvalidInput, match=r"\$\[0\]\.capabilities"):
        load_api_keys([{"keyId": "k", "secretSha256": "0" * 64, "tenant": "t", "principals": ["p"],
                        "capabilities": []}])


def test_every_attempt_is_chained_per_caller_and_verifies_offline(store_target: tuple[str, str | None]) -> None:
    key = generate_hybrid("auth-log")
    log = AuthEventLog(key, *store_target)
    auth(log=log)
    auth(capability="github:merge", log=log)
    auth(token=make_token("old-key", SECRET), log=log)
    auth(token="garbage", log=log)  # no caller: not chained
    chain = log.chain("agent-key")
    assert [e["payload"]["outcome"] for e in chain] == ["authenticated", "capability-scope"]
    assert all(SECRET not in str(e) for e in chain)
    v = verify_caller_chain(chain, public_keys(key))
    assert isinstance(v, ChainValid) and (v.caller, v.length) == ("agent-key", 2)
    assert isinstance(verify_caller_chain(log.chain("old-key"), public_keys(key)), ChainValid)


def test_concurrent_authentications_never_fork_a_callers_chain(store_target: tuple[str, str | None]) -> None:
    key = KeyPair.generate("auth-log")
    logs = [AuthEventLog(key, *store_target) for _ in range(4)]
    errors: list[BaseException] = []

    def run(k: int) -> None:
        try:
            for _ in range(5):
                auth(log=logs[k])
        except BaseException as exc:  # a lost race must show up as a failure, not vanish in a thread
            errors.append(exc)

    ts = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    chain = logs[0].chain("agent-key")
    assert errors == [] and len(chain) == 20 and isinstance(verify_caller_chain(chain, key.public), ChainValid)


def _defect(events: list[object], key: object) -> ChainDefect:
    v = verify_caller_chain(events, key)  # type: ignore[arg-type]
    assert isinstance(v, ChainInvalid), v
    return v.defect


def test_altered_reordered_truncated_mixed_and_downgraded_chains_refused() -> None:
    key = generate_hybrid("auth-log")
    log = AuthEventLog(key)
    for cap in ("paytm:refund", "slack:post", "github:merge"):
        auth(capability=cap, log=log)
    auth(token=make_token("old-key", SECRET), log=log)
    chain, other = log.chain("agent-key"), log.chain("old-key")
    pk = public_keys(key)
    altered = copy.deepcopy(chain)
    altered[2]["payload"]["outcome"] = "authenticated"  # was capability-scope
    assert _defect(altered, pk) is ChainDefect.HASH_MISMATCH
    assert _defect([chain[1], chain[0], chain[2]], pk) is ChainDefect.BROKEN_CHAIN
    assert _defect(chain[1:], pk) is ChainDefect.BROKEN_CHAIN  # the first events dropped
    assert _defect(chain[:1] + other, pk) is ChainDefect.MIXED_CALLERS
    down = copy.deepcopy(chain)
    down[0]["signature"] = {"algorithm": "ed25519", "keyId": "auth-log", "value": key.sign(down[0]["payload"])}
    assert _defect(down, pk) is ChainDefect.DOWNGRADE
    assert _defect(chain, KeyPair.generate("x").public) is ChainDefect.DOWNGRADE  # hybrid events, classical key
    assert _defect(chain, public_keys(generate_hybrid("x"))) is ChainDefect.BAD_SIGNATURE
    assert _defect([{"payload": {}}], pk) is ChainDefect.MALFORMED
    # dropping the last events leaves a valid shorter chain: the head is what a holder pins
    short = verify_caller_chain(chain[:2], pk)
    assert isinstance(short, ChainValid) and short.head == chain[1]["recordHash"] != chain[2]["recordHash"]


def test_offline_cli_verifies_a_callers_chain_and_refuses_a_tampered_one(tmp_path: Path) -> None:
    key = generate_hybrid("auth-log")
    log = AuthEventLog(key)
    auth(log=log)
    auth(principal="agent-2", log=log)
    chain = log.chain("agent-key")
    (tmp_path / "key.pem").write_text(hybrid_public_pem(key))
    (tmp_path / "chain.json").write_text(json.dumps(chain))
    args = ["admit", "verify-auth-chain", str(tmp_path / "chain.json"), "--key", str(tmp_path / "key.pem")]
    ok = CliRunner().invoke(main, args)
    assert ok.exit_code == 0 and ok.output.startswith("valid: caller agent-key: 2 events"), ok.output
    assert CliRunner().invoke(main, [*args, "--expect-head", "0" * 64]).exit_code == 1
    head = str(chain[-1]["recordHash"])
    for pin in (head, head.upper()):  # a hash is read in any case, as verify-record reads it
        assert CliRunner().invoke(main, [*args, "--expect-head", pin]).exit_code == 0
    assert CliRunner().invoke(main, [*args, "--expect-head", "not-a-hash"]).exit_code == 2
    chain[1]["payload"]["outcome"] = "authenticated"
    (tmp_path / "chain.json").write_text(json.dumps(chain))
    bad = CliRunner().invoke(main, args)
    assert bad.exit_code == 1 and bad.output.startswith("invalid: hash-mismatch"), bad.output
    (tmp_path / "chain.json").write_text("{}")
    assert CliRunner().invoke(main, args).exit_code == 2
