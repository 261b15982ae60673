"""A larger differential run of the permit evidence check than tests/drt/test_evidence.py, and what one
check costs on each side: the oracle's ``permit_evidence`` (Lean: canonical JSON, SHA-512 and up to three
Ed25519 verifications in ``Nat`` arithmetic) and ``signed_approval_evidence`` over a ``SqliteNonceStore``
(Python: ``cryptography``'s OpenSSL verifier), plus ``ed25519_verify`` on generated keys and tampered
signatures (model/oracle/drt_evidence.py).

Per-check times are wall-clock milliseconds of each side alone over the same cases, so they move with the
machine's load (printed beside them); they size how many evidence cases a campaign can afford, they are
not a speed claim. Exit status 1 when any case mismatches (each mismatch is printed with every input and
both outputs).

Needs ``make lean``. Run: ``python experiments/evidence_drt.py [CASES_PER_KIND] [SEED]`` (default 20 and 0).
Not registered with ``make reproduce``, which must run without a Lean toolchain.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections import Counter

from model.oracle.drt import report
from model.oracle.drt_evidence import (
    KINDS,
    SIG_KINDS,
    draw_case,
    draw_signature,
    oracle_input,
    python_answer,
    run_evidence,
    run_signature,
)
from model.oracle.lean import LeanOracle
from model.oracle.results import Mismatch
from model.oracle.toolchain import oracle_path


def main(per_kind: int, seed: int) -> int:
    r = random.Random(seed)
    cases = [draw_case(r, kind) for kind in KINDS for _ in range(per_kind)]
    verdicts: Counter[str] = Counter()
    mismatches = 0
    with LeanOracle(oracle_path()) as oracle:
        t0 = time.perf_counter()
        for case in cases:
            oracle.call("permit_evidence", oracle_input(case))
        t1 = time.perf_counter()
        for case in cases:
            python_answer(case)
        t2 = time.perf_counter()
        for case in cases:
            res = run_evidence(oracle, case)
            if isinstance(res, Mismatch):
                mismatches += 1
                print(report(res))
            else:
                verdicts[res.kind.split(":", 1)[1]] += 1
        signatures: Counter[str] = Counter()
        for i in range(per_kind * len(SIG_KINDS)):
            kind = SIG_KINDS[i % len(SIG_KINDS)]
            res = run_signature(oracle, *draw_signature(r, kind), kind)
            if isinstance(res, Mismatch):
                mismatches += 1
                print(report(res))
            else:
                signatures[res.kind] += 1
    n = len(cases)
    lean_ms, py_ms = 1000 * (t1 - t0) / n, 1000 * (t2 - t1) / n
    print(f"permit_evidence: {n} cases ({per_kind} per kind, seed {seed}), load average {os.getloadavg()[0]:.1f}")
    print(f"  Lean oracle {lean_ms:.1f} ms/check, Python {py_ms:.1f} ms/check; "
          f"10^5 cases would take {(lean_ms + py_ms) * 100:.0f} s")
    print(f"  verdicts: {dict(sorted(verdicts.items()))}")
    print(f"  ed25519_verify: {sum(signatures.values())} cases: {dict(sorted(signatures.items()))}")
    print(f"mismatches: {mismatches}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20, int(sys.argv[2]) if len(sys.argv) > 2 else 0))
