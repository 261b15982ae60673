"""Hand-written mutants of the admission security checks, each of which the admission unit and
quality tests must kill (a cheap stand-in for the paper's mutation testing, Section 6.2). Each
mutant runs in a private copy of ``model`` and the tests, never in the shared checkout. Slow.

Known equivalent mutants, left out: dropping only the version comparison at release (the content
hash comparison next to it still refuses an outdated policy), and not spending the authorization
nonce (every approve rule requires an approval — validated at load — so every authorization also
carries an approval nonce that the gate spends; the authorization nonce is defence in depth)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MUTANTS = [
    ("decision/approvals.py", "if now >= a.expires_at:", "if now > a.expires_at:"),
    ("decision/approvals.py", "if a.capability != action:", "if False:"),
    ("decision/approvals.py", "if a.resource_id != resource:", "if False:"),
    ("decision/approvals.py", "amount > a.scope_value", "amount > a.scope_value + 1"),
    ("decision/approvals.py", "    if key.revoked:", "    if False:"),
    ("decision/approvals.py", "if life <= timedelta(0) or life > MAX_TTL:", "if False:"),
    ("decision/approvals.py", "if isinstance(checked, SignatureBad):", "if False:"),
    ("release/gateway.py", "if now >= auth.expires_at:", "if now > auth.expires_at:"),
    ("release/gateway.py", "if digest(tx.intent) != auth.request_hash:", "if False:"),
    ("release/gateway.py", "if cur is None or cur.version != auth.policy_version or cur.content_hash != auth.policy_"
     "content_hash:", "if False:"),
    ("release/gateway.py", "if digest(tx.signals) != auth.signals_hash or", "if False or"),
    ("release/gateway.py", "if isinstance(sig, SignatureBad):", "if False:"),
    ("release/gateway.py", "            intent_rec = self.records.append(\"intent\", body, now)",
     "            intent_rec = {\"recordHash\": None}"),
    ("decision/signed_policy.py", "effective = {s: (v if s not in p.approval_signals else (v is True and s in proven))",
     "effective = {s: v"),
    ("decision/signed_policy.py", "        if not present or not json_equal(v, signals[s]):",
     "        if not present:"),
    ("decision/signed_policy.py", "        if not _has_type(signals[s], t):", "        if False:"),
    ("decision/signed_policy.py",
     "        if r[\"decision\"] == \"approve\" and not _requires_approval(r[\"when\"], aps):", "        if False:"),
    ("decision/governance.py", "if checker == prop.maker or human.person == self.humans[prop.maker].person:",
     "if checker == prop.maker:"),
    ("resumable/replay.py", "if identity != att.request.identity:",
     "if identity.principal != att.request.identity.principal:"),
    ("resumable/replay.py", "only=AttemptState.APPROVED)", ")"),
    ("resumable/handler.py", "        if denial is not None:\n", "        if False:\n"),
    ("resumable/tenant_policy.py", "return max(effects, default=PLATFORM_DEFAULT)",
     "return min(effects, default=PLATFORM_DEFAULT)"),
    ("resumable/tenant_policy.py", "            return LookupFailed(key, f\"{type(exc).__name__}: {exc}\")",
     "            continue"),
    ("resumable/admission_service.py", "        if not route.replayable:", "        if False:"),
    ("resumable/attempt_store.py", "(AttemptState.UNCERTAIN.value, AttemptState.EXECUTING.value))",
     "(AttemptState.APPROVED.value, AttemptState.EXECUTING.value))"),
    ("signatures/records.py", "    if h != record[\"recordHash\"]:", "    if False:"),
    ("signatures/records.py", "            if p.get(\"seq\") != seq + 1 or p.get(\"prev\") != prev:",
     "            if False:"),
    ("decision/nonces.py", "(?, ?, ?) ON CONFLICT DO NOTHING\"",
     "(?, ?, ?) ON CONFLICT (namespace, nonce) DO UPDATE SET spent_at = excluded.spent_at\""),
    ("resumable/review.py", " or approver == ident.principal:", ":"),
    ("decision/nonces.py", "WHERE finished_at IS NULL AND lease_until < ?\"",
     "WHERE finished_at IS NULL OR lease_until < ?\""),
    ("decision/nonces.py", "                if reservation is not None:\n", "                if False:\n"),
    ("release/gateway.py", "return self.leasing is not None and self.leasing.store.reserved(token)", "return False"),
]


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    box = tmp_path_factory.mktemp("mutants")
    shutil.copytree(ROOT / "model", box / "model", ignore=shutil.ignore_patterns("__pycache__"))
    for sub in ("corpus/admission", "corpus/schemas"):
        shutil.copytree(ROOT / sub, box / sub)
    for d in ("unit", "quality", "property"):
        (box / "tests" / d).mkdir(parents=True)
    for f in [*(ROOT / "tests/unit").glob("test_admission_*.py"), ROOT / "tests/quality/test_admission_exploration.py",
              ROOT / "tests/property/test_admission_stateful.py"]:
        shutil.copy(f, box / f.relative_to(ROOT))
    for f in ("conftest.py", "postgres.py"):  # the store_target and pg_server fixtures
        shutil.copy(ROOT / "tests" / f, box / "tests" / f)
    shutil.copy(ROOT / "pyproject.toml", box / "pyproject.toml")
    return box


def _pytest(sandbox: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "tests"],
                          cwd=sandbox, capture_output=True, text=True, timeout=600,
                          env={"PYTHONPATH": str(sandbox), "PATH": "/usr/bin:/bin", "HYPOTHESIS_STORAGE_DIRECTORY":
                               str(sandbox / ".hypothesis")})


@pytest.mark.slow
def test_the_unmutated_sandbox_passes(sandbox: Path) -> None:
    """Without this, a sandbox missing a fixture or a file would 'kill' every mutant."""
    run = _pytest(sandbox)
    assert run.returncode == 0, run.stdout[-2000:]


@pytest.mark.slow
@pytest.mark.parametrize(("file", "old", "new"), MUTANTS, ids=[f"{f}:{o.strip()[:40]}" for f, o, _n in MUTANTS])
def test_admission_mutant_is_killed(sandbox: Path, file: str, old: str, new: str) -> None:
    target = sandbox / "model" / "admission" / file
    src = target.read_text()
    assert src.count(old) == 1, f"mutant site moved: {old!r}"
    target.write_text(src.replace(old, new))
    try:
        run = _pytest(sandbox)
    finally:
        target.write_text(src)
    assert run.returncode == 1, f"mutant survived (rc={run.returncode}):\n{run.stdout[-2000:]}"
