"""``agentwarrant verify-record FILE --key PUBLIC_KEY`` needs only the record and the key;
``agentwarrant admit ...`` loads policies and approvals through the same loaders."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from click.testing import CliRunner

from model.admission.deployments.release_deployment import REFUNDS_POLICY
from model.admission.signatures.records import RecordStore
from model.base.signing import KeyPair
from model.shell.cli import main

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def written(tmp_path: Path) -> tuple[KeyPair, Path, Path, list[object]]:
    key = KeyPair.generate("rt")
    store = RecordStore(key, ":memory:")
    recs = [store.append("execution", {"i": i}, NOW) for i in range(3)]
    (tmp_path / "key.pem").write_text(key.public_pem())
    (tmp_path / "rec.json").write_text(json.dumps(recs[0]))
    return key, tmp_path / "key.pem", tmp_path / "rec.json", list(recs)


def test_verify_record_offline_valid_tampered_and_unreadable(tmp_path: Path) -> None:
    _key, pem, rec, recs = written(tmp_path)
    ok = CliRunner().invoke(main, ["verify-record", str(rec), "--key", str(pem)])
    assert ok.exit_code == 0 and ok.output.startswith("valid: execution ")
    doc = json.loads(rec.read_text())
    doc["payload"]["body"]["i"] = 7
    rec.write_text(json.dumps(doc))
    bad = CliRunner().invoke(main, ["verify-record", str(rec), "--key", str(pem)])
    assert bad.exit_code == 1 and bad.output.startswith("invalid: a record's hash does not match its payload")
    assert "(hash-mismatch" in bad.output
    rec.write_text("{not json")
    broken = CliRunner().invoke(main, ["verify-record", str(rec), "--key", str(pem)])
    assert broken.exit_code == 2 and "expected valid JSON" in broken.output + str(broken.stderr_bytes or b"")
    pem.write_text("not a key")
    rec.write_text(json.dumps(recs[0]))
    assert CliRunner().invoke(main, ["verify-record", str(rec), "--key", str(pem)]).exit_code == 2


def test_verify_record_chain_list_detects_deletion(tmp_path: Path) -> None:
    _key, pem, rec, recs = written(tmp_path)
    rec.write_text(json.dumps(recs))
    assert CliRunner().invoke(main, ["verify-record", str(rec), "--key", str(pem)]).exit_code == 0
    rec.write_text(json.dumps([recs[0], recs[2]]))
    out = CliRunner().invoke(main, ["verify-record", str(rec), "--key", str(pem)])
    assert out.exit_code == 1 and "broken-chain" in out.output


def test_verify_record_prints_a_summary_and_pins_detect_truncation(tmp_path: Path) -> None:
    _key, pem, rec, recs = written(tmp_path)
    head = recs[2]["recordHash"]  # type: ignore[index]
    rec.write_text(json.dumps(recs))
    out = CliRunner().invoke(main, ["verify-record", str(rec), "--key", str(pem), "--expect-length", "3",
                                    "--expect-head", str(head)])
    assert out.exit_code == 0 and f"summary: 3 records; execution chain: 3 records, head {head}" in out.output
    rec.write_text(json.dumps(recs[:2]))  # the last record dropped: still a valid chain on its own
    alone = CliRunner().invoke(main, ["verify-record", str(rec), "--key", str(pem)])
    assert alone.exit_code == 0 and "execution chain: 2 records" in alone.output
    for pin in (["--expect-length", "3"], ["--expect-head", str(head)]):
        out = CliRunner().invoke(main, ["verify-record", str(rec), "--key", str(pem), *pin])
        assert out.exit_code == 1 and "invalid: " in out.output, out.output


def test_verify_record_input_that_is_not_records_is_bad_input(tmp_path: Path) -> None:
    _key, pem, rec, _recs = written(tmp_path)
    for text in ("[]", '"a record"', "3", "null", "[1]"):
        rec.write_text(text)
        out = CliRunner().invoke(main, ["verify-record", str(rec), "--key", str(pem)])
        assert out.exit_code == 2 and "valid" not in out.output, (text, out.output)


def test_verify_approval_refuses_amounts_outside_the_domain(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2] / "corpus" / "admission"
    args = ["admit", "verify-approval", str(root / "approval_order-1.json"),
            "--approvers", str(root / "approvers.json"), "--action", "paytm:refund", "--resource", "order-1",
            "--now", "2026-12-02T15:00:00Z"]
    assert CliRunner().invoke(main, [*args, "--amount", "500"]).exit_code == 0
    neg = CliRunner().invoke(main, [*args, "--amount", "-1000000"])
    assert neg.exit_code == 1 and "amount-out-of-domain" in neg.output
    for bad in ("nan", "inf", "1e400", "0.10000000000000000001", "x", "9007199254740993"):
        out = CliRunner().invoke(main, [*args, "--amount", bad])
        assert out.exit_code == 2, (bad, out.output)


def test_admit_check_policy_accepts_valid_and_rejects_approve_without_approval(tmp_path: Path) -> None:
    f = tmp_path / "p.json"
    f.write_text(json.dumps(REFUNDS_POLICY))
    ok = CliRunner().invoke(main, ["admit", "check-policy", str(f)])
    assert ok.exit_code == 0 and "refunds v1" in ok.output
    bad = {**REFUNDS_POLICY, "rules": [{"id": "r", "when": {"signal": "amount", "op": "le", "value": 1},
                                        "decision": "approve"}]}
    f.write_text(json.dumps(bad))
    assert CliRunner().invoke(main, ["admit", "check-policy", str(f)]).exit_code == 2


def test_admit_explore_reports_counts_and_finds_injected_fault() -> None:
    ok = CliRunner().invoke(main, ["admit", "explore", "--depth", "12"])
    assert ok.exit_code == 0 and "complete (fixed point)" in ok.output
    bad = CliRunner().invoke(main, ["admit", "explore", "--depth", "5", "--mutant", "skip-live-check"])
    assert bad.exit_code == 1 and "violated P3" in bad.output


def test_explore_answers_unknown_when_its_budget_runs_out() -> None:
    from model.admission.deployments.explore import explore
    from model.base.budget import Budget

    r = explore(depth=40, attempts=3, budget=Budget(states=50))
    assert r.unknown is not None and r.unknown.limit == "states" and not r.complete and r.transitions == 50
    full = explore(depth=4)
    assert full.unknown is None and full.violations == ()
    out = CliRunner().invoke(main, ["admit", "explore", "--depth", "40", "--attempts", "3", "--budget", "50states"])
    assert out.exit_code == 3 and "Unknown: budget exhausted (states)" in out.output, out.output
    # a violation found within the budget is a real trace: exit 1 even when the budget then runs out
    bad = CliRunner().invoke(main, ["admit", "explore", "--depth", "40", "--mutant", "replay-unapproved",
                                    "--budget", "2000states"])
    assert bad.exit_code == 1 and "violated P1" in bad.output, bad.output
