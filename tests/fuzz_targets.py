"""Fuzz targets for the input boundary: every loader and every CLI command, fed mutated
corpus files. Shared by the Hypothesis campaign (tests/property/test_fuzz_boundary.py, and a larger one
in tests/slow), the atheris harness (tests/fuzz/) and the replay of saved failures (corpus/fuzz/).

A target takes the bytes of one file and runs a loader (or a command) on them. The only outcomes
allowed are a value / a verdict or ``InvalidInput`` (for a command: exit 0, 1, 2 or 3, never an
uncaught exception or a traceback); ``check`` raises ``AssertionError`` for anything else.

Each target's bounds are kept small (``--bound 2``, the explicit edit engine, no SMT) so one example
runs in well under a second: the campaign is about the boundary, not about the engines' depth.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from click.testing import CliRunner

from model.base.errors import InvalidInput

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
FUZZ_CORPUS = CORPUS / "fuzz"  # saved, minimized failures: corpus/fuzz/<target>/<name>


@dataclass(frozen=True, slots=True)
class Target:
    name: str
    seeds: tuple[Path, ...]
    run: Callable[[bytes, Path], object]  # (data, scratch dir) -> anything; raises only InvalidInput
    cli: bool = False  # run is a CLI invocation whose result check_cli judges


def _write(tmp: Path, name: str, data: bytes) -> Path:
    p = tmp / name
    p.write_bytes(data)
    return p


def _json(data: bytes, source: str) -> object:
    from model.base.jsonio import decode

    return decode(data, source)


# --- library loaders -------------------------------------------------------------------------------

def _policy_text(data: bytes, tmp: Path) -> object:
    from model.monitor.language.syntax import parse_policy

    return parse_policy(data, "fuzz.policy")


def _policy_json(data: bytes, tmp: Path) -> object:
    from model.monitor.language.policy_json import policy_from_json_text

    return policy_from_json_text(data, "fuzz.json")


def _trace(data: bytes, tmp: Path) -> object:
    from model.monitor.adapter.trace import load_trace, run_trace
    from model.monitor.language.syntax import load_policy

    path = _write(tmp, "trace.json", data)
    doc = load_trace(str(path))
    return run_trace(load_policy(CORPUS / "policies" / "report.policy"), doc, str(path), explain=True)


def _edit_instance(data: bytes, tmp: Path) -> object:
    from model.edits.check.answer import Engine
    from model.edits.check.checker import check
    from model.edits.check.load_instance import load_instance_text

    inst = load_instance_text(_text(data), "fuzz.json")
    return check(inst, Engine.EXPLICIT)


def _text(data: bytes) -> str:
    from model.base.jsonio import text_of

    return text_of(data, "fuzz.json")


def _session(data: bytes, tmp: Path) -> object:
    from model.edits.runtime.session_script import load_session_text, run_session

    sess = load_session_text(_text(data), "fuzz.json")
    db = tmp / "session.db"
    db.unlink(missing_ok=True)
    return run_session(sess, str(db))


def _search_model(data: bytes, tmp: Path) -> object:
    from model.search.load import model_from_json

    return model_from_json(_json(data, "fuzz.json"), "fuzz.json", CORPUS / "search")


def _workload(data: bytes, tmp: Path) -> object:
    from model.revision.corpus import load_workload

    return load_workload(_write(tmp, "workload.json", data))


def _prefix(data: bytes, tmp: Path) -> object:
    from model.monitor.language.syntax import load_policy
    from model.revision.explore.prefix import load_prefix, starting_point

    prefix = load_prefix(_write(tmp, "prefix.json", data))
    old = load_policy(CORPUS / "policies" / "delete_ab.policy")
    new = load_policy(CORPUS / "revisions" / "delete_ab" / "delete_widen_first.policy")
    return starting_point(old, new, prefix)


def _effects(data: bytes, tmp: Path) -> object:
    from model.monitor.language.syntax import load_policy
    from model.revision.effects import parse_effects
    from model.revision.names import check_effects_exist

    eff = parse_effects(_text(data))
    check_effects_exist(eff, (load_policy(CORPUS / "policies" / "delete_ab.policy"),))
    return eff


def _signed_policy(data: bytes, tmp: Path) -> object:
    from model.admission.decision.signed_policy import load_policy

    return load_policy(_json(data, "fuzz.json"), "fuzz.json")


_NOW = datetime(2026, 12, 2, 15, 0, tzinfo=UTC)


def _approval(data: bytes, tmp: Path) -> object:
    from model.admission.decision.approvals import load_approval, load_registry, verify_approval
    from model.base.canonical import load_file

    registry = load_registry(load_file(CORPUS / "admission" / "approvers.json"))
    return verify_approval(load_approval(_json(data, "fuzz.json"), "fuzz.json"), action="paytm:refund",
                           resource="order-1", amount=100, now=_NOW, registry=registry)


def _approvers(data: bytes, tmp: Path) -> object:
    from model.admission.decision.approvals import load_registry

    return load_registry(_json(data, "fuzz.json"), "fuzz.json")


def _records(data: bytes, tmp: Path) -> object:
    from model.admission.signatures.records import verify_chain, verify_record
    from model.base.signing import public_key_from_text

    key = public_key_from_text((CORPUS / "admission" / "keys" / "runtime.pub.pem").read_text(), "runtime.pub.pem")
    doc = _json(data, "fuzz.json")
    return verify_chain(doc, key) if isinstance(doc, list) else verify_record(doc, key)


def _tenant_policies(data: bytes, tmp: Path) -> object:
    from model.admission.resumable.tenant_policy import load_tenant_policies

    return load_tenant_policies(_json(data, "fuzz.json"), "fuzz.json")


def _request(data: bytes, tmp: Path) -> object:
    from model.admission.resumable.envelope import load_request

    return load_request(_json(data, "fuzz.json"), "fuzz.json")


def _transaction(data: bytes, tmp: Path) -> object:
    from model.admission.release.gateway import load_transaction

    return load_transaction(_json(data, "fuzz.json"), "fuzz.json")


# --- CLI commands ----------------------------------------------------------------------------------

def _invoke(*args: str) -> object:
    from model.shell.cli import main

    return CliRunner().invoke(main, list(args))


def _cli_monitor_check(data: bytes, tmp: Path) -> object:
    suffix = ".json" if data.lstrip()[:1] == b"{" else ".policy"
    return _invoke("monitor", "check", str(_write(tmp, "p" + suffix, data)))


def _cli_monitor_check_json(data: bytes, tmp: Path) -> object:
    return _invoke("monitor", "check", "--json", str(_write(tmp, "p.policy", data)))


def _cli_monitor_run(data: bytes, tmp: Path) -> object:
    return _invoke("monitor", "run", str(CORPUS / "policies" / "report.policy"), str(_write(tmp, "t.json", data)),
                   "--explain")


def _cli_edit_check(data: bytes, tmp: Path) -> object:
    return _invoke("edit", "check", str(_write(tmp, "i.json", data)), "--engine", "explicit")


def _cli_edit_check_json(data: bytes, tmp: Path) -> object:
    return _invoke("edit", "check", str(_write(tmp, "i.json", data)), "--engine", "declarative", "--json")


def _cli_edit_session(data: bytes, tmp: Path) -> object:
    db = tmp / "s.db"
    db.unlink(missing_ok=True)
    result = _invoke("edit", "session", str(db), "run", str(_write(tmp, "s.json", data)))
    if db.exists():
        return [result, _invoke("edit", "session", str(db), "show")]
    return result


def _cli_search(data: bytes, tmp: Path) -> object:
    return _invoke("search", str(_write(tmp, "m.json", data)), "--policy",
                   str(CORPUS / "policies" / "report.policy"), "--engine", "explicit", "--bound", "2")


def _cli_revise_new(data: bytes, tmp: Path) -> object:
    return _invoke("revise", str(CORPUS / "policies" / "delete_ab.policy"), str(_write(tmp, "new.policy", data)),
                   "--workload", str(CORPUS / "revisions" / "workloads" / "delete_ab.json"), "--bound", "2")


def _cli_revise_workload(data: bytes, tmp: Path) -> object:
    return _invoke("revise", str(CORPUS / "policies" / "delete_ab.policy"),
                   str(CORPUS / "revisions" / "delete_ab" / "delete_widen_first.policy"),
                   "--workload", str(_write(tmp, "w.json", data)), "--bound", "2")


def _cli_revise_after(data: bytes, tmp: Path) -> object:
    return _invoke("revise", str(CORPUS / "policies" / "delete_ab.policy"),
                   str(CORPUS / "revisions" / "delete_ab" / "delete_widen_first.policy"),
                   "--workload", str(CORPUS / "revisions" / "workloads" / "delete_ab.json"),
                   "--after", str(_write(tmp, "a.json", data)), "--bound", "2")


def _cli_revise_effects(data: bytes, tmp: Path) -> object:
    return _invoke("revise", str(CORPUS / "policies" / "delete_ab.policy"),
                   str(CORPUS / "revisions" / "delete_ab" / "delete_widen_first.policy"),
                   "--effects", data.decode("utf-8", "replace").replace("\x00", ""), "--bound", "2")


def _cli_check_policy(data: bytes, tmp: Path) -> object:
    return _invoke("admit", "check-policy", str(_write(tmp, "p.json", data)))


def _cli_verify_approval(data: bytes, tmp: Path) -> object:
    return _invoke("admit", "verify-approval", str(_write(tmp, "a.json", data)),
                   "--approvers", str(CORPUS / "admission" / "approvers.json"), "--action", "paytm:refund",
                   "--resource", "order-1", "--amount", "100", "--now", "2026-12-02T15:00:00Z")


def _cli_verify_approval_amount(data: bytes, tmp: Path) -> object:
    return _invoke("admit", "verify-approval", str(CORPUS / "admission" / "approval_order-1.json"),
                   "--approvers", str(CORPUS / "admission" / "approvers.json"), "--action", "paytm:refund",
                   "--resource", "order-1", "--amount", data.decode("utf-8", "replace").replace("\x00", ""),
                   "--now", "2026-12-02T15:00:00Z")


def _cli_verify_approvers(data: bytes, tmp: Path) -> object:
    return _invoke("admit", "verify-approval", str(CORPUS / "admission" / "approval_order-1.json"),
                   "--approvers", str(_write(tmp, "r.json", data)), "--action", "paytm:refund",
                   "--resource", "order-1", "--now", "2026-12-02T15:00:00Z")


def _cli_verify_record(data: bytes, tmp: Path) -> object:
    return _invoke("verify-record", str(_write(tmp, "r.json", data)),
                   "--key", str(CORPUS / "admission" / "keys" / "runtime.pub.pem"))


def _cli_verify_record_key(data: bytes, tmp: Path) -> object:
    return _invoke("verify-record", str(CORPUS / "admission" / "records.json"), "--key", str(_write(tmp, "k", data)))


def _seeds(*patterns: str) -> tuple[Path, ...]:
    found = sorted({p for pat in patterns for p in CORPUS.glob(pat) if p.name != "manifest.json"})
    assert found, patterns
    return tuple(found)


POLICY_TEXT = _seeds("policies/*.policy", "revisions/delete_ab/*.policy", "search/*.policy")
TEXT_SEEDS = {"effects": (CORPUS / "fuzz" / "seeds" / "effects.txt",),
              "amount": (CORPUS / "fuzz" / "seeds" / "amount.txt",)}

TARGETS: dict[str, Target] = {t.name: t for t in (
    Target("policy_text", POLICY_TEXT, _policy_text),
    Target("policy_json", _seeds("policies/*.json"), _policy_json),
    Target("trace", _seeds("traces/report_delivery.json", "traces/prompt_injection.json",
                           "traces/scripted_lookup_retry.json"), _trace),
    Target("edit_instance", _seeds("edits/*.json"), _edit_instance),
    Target("edit_session", _seeds("edits/sessions/laptop.json", "edits/sessions/preload.json",
                                  "edits/sessions/table2_C_v0.json"), _session),
    Target("search_model", _seeds("search/report.json", "search/payments.json", "search/delete_ab.json"),
           _search_model),
    Target("workload", _seeds("revisions/workloads/*.json"), _workload),
    Target("prefix", _seeds("revisions/prefixes/delete_*.json"), _prefix),
    Target("effects", TEXT_SEEDS["effects"], _effects),
    Target("signed_policy", _seeds("admission/refunds.policy.json"), _signed_policy),
    Target("approval", _seeds("admission/approval_order-1.json"), _approval),
    Target("approvers", _seeds("admission/approvers.json"), _approvers),
    Target("records", _seeds("admission/records.json", "admission/record_execution.json"), _records),
    Target("tenant_policies", _seeds("admission/tenant_policies.json"), _tenant_policies),
    Target("request", _seeds("admission/request_publish_report.json"), _request),
    Target("transaction", _seeds("admission/transaction_refund.json"), _transaction),
    Target("cli_monitor_check", (*POLICY_TEXT, *_seeds("policies/*.json")), _cli_monitor_check, cli=True),
    Target("cli_monitor_check_json", POLICY_TEXT, _cli_monitor_check_json, cli=True),
    Target("cli_monitor_run", _seeds("traces/report_delivery.json", "traces/prompt_injection.json"),
           _cli_monitor_run, cli=True),
    Target("cli_edit_check", _seeds("edits/*.json"), _cli_edit_check, cli=True),
    Target("cli_edit_check_json", _seeds("edits/release_reject.json", "edits/laptop_fork.json"),
           _cli_edit_check_json, cli=True),
    Target("cli_edit_session", _seeds("edits/sessions/laptop.json", "edits/sessions/preload.json"),
           _cli_edit_session, cli=True),
    Target("cli_search", _seeds("search/report.json"), _cli_search, cli=True),
    Target("cli_revise_new", _seeds("revisions/delete_ab/*.policy"), _cli_revise_new, cli=True),
    Target("cli_revise_workload", _seeds("revisions/workloads/delete_ab.json"), _cli_revise_workload, cli=True),
    Target("cli_revise_after", _seeds("revisions/prefixes/delete_*.json"), _cli_revise_after, cli=True),
    Target("cli_revise_effects", TEXT_SEEDS["effects"], _cli_revise_effects, cli=True),
    Target("cli_check_policy", _seeds("admission/refunds.policy.json"), _cli_check_policy, cli=True),
    Target("cli_verify_approval", _seeds("admission/approval_order-1.json"), _cli_verify_approval, cli=True),
    Target("cli_verify_approval_amount", TEXT_SEEDS["amount"], _cli_verify_approval_amount, cli=True),
    Target("cli_verify_approvers", _seeds("admission/approvers.json"), _cli_verify_approvers, cli=True),
    Target("cli_verify_record", _seeds("admission/records.json", "admission/record_execution.json"),
           _cli_verify_record, cli=True),
    Target("cli_verify_record_key", _seeds("admission/keys/*.pem"), _cli_verify_record_key, cli=True),
)}


def check_cli(result: object) -> None:
    """A command's answer is a verdict or one bad-input line: exit 0..3, no exception, no traceback."""
    from click.testing import Result

    for r in result if isinstance(result, list) else [result]:
        assert isinstance(r, Result)
        if r.exception is not None and not isinstance(r.exception, SystemExit):
            raise AssertionError(f"uncaught {type(r.exception).__name__}: {r.exception!r}") from r.exception
        assert r.exit_code in (0, 1, 2, 3), (r.exit_code, r.output[-2000:])
        assert "Traceback" not in r.output, r.output[-2000:]
        if r.exit_code == 2:  # one error line (ours, naming a file or an option) or click's usage error
            assert "error:" in r.output or "Error:" in r.output, r.output[-2000:]
            ours = [line for line in r.output.splitlines() if line.startswith("error: ")]
            assert all(re.match(r"error: (\S*/|--|\S*\.\w+:)", line) for line in ours), ours
            assert len(ours) <= 1, ours


def check(target: Target, data: bytes) -> None:
    """Run ``target`` on ``data``; only a result or ``InvalidInput`` may come out."""
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if target.cli:
            check_cli(target.run(data, tmp))
            return
        try:
            target.run(data, tmp)
        except InvalidInput as exc:
            text = str(exc)
            assert text.isprintable(), text  # one printable line, whatever the input held
            text.encode("utf-8")  # printable: no lone surrogate leaks into the message


def saved_failures() -> list[tuple[str, Path]]:
    """Every minimized failure kept as a regression file: corpus/fuzz/<target>/<file>."""
    out = []
    for name in sorted(TARGETS):
        d = FUZZ_CORPUS / name
        if d.is_dir():
            out += [(name, p) for p in sorted(d.iterdir()) if p.is_file()]
    return out


def seed_bytes(target: Target) -> list[bytes]:
    return [p.read_bytes() for p in target.seeds]


def as_json_text(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, indent=1).encode("utf-8", "surrogatepass")
