"""The proof audit run by ``make lean``: no admitted proof, and only the expected axioms.

Two checks, both over lean/:
1. no source under lean/AgentWarrant/ (nor lean/AgentWarrant.lean, lean/audit/Audit.lean) contains the
   words ``sorry`` or ``admit`` outside comments, and the build printed no "declaration uses 'sorry'";
2. ``lean audit/Audit.lean`` prints ``#print axioms`` for every theorem of :data:`THEOREMS`, and each
   depends only on :data:`ALLOWED` (``propext`` and ``Quot.sound``, which the kernel's ``simp``
   and function extensionality bring in; never ``sorryAx``, ``Classical.choice`` or the
   ``ofReduceBool`` of native evaluation).
Run as ``python -m model.oracle.audit``; exit status 0 when the audit passes, 1 when it fails,
3 when no toolchain is found (with the reason).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from model.oracle.toolchain import LEAN_DIR, find_toolchain, missing_reason

ALLOWED = frozenset({"propext", "Quot.sound"})
THEOREMS = (
    "AgentWarrant.Edits.resolveDeterministic", "AgentWarrant.Edits.resolveLength", "AgentWarrant.Edits.resolveRaw",
    "AgentWarrant.Edits.resolveAppend", "AgentWarrant.Edits.phiMonotone", "AgentWarrant.Edits.phiDeflationary",
    "AgentWarrant.Edits.iterPostFixed", "AgentWarrant.Edits.iterGreatest", "AgentWarrant.Edits.acceptsIff",
    "AgentWarrant.Edits.acceptsLargest", "AgentWarrant.Edits.postFixedIffClosed", "AgentWarrant.Edits.lemma4",
    "AgentWarrant.Monitor.joinComm", "AgentWarrant.Monitor.joinAssoc", "AgentWarrant.Monitor.joinIdem",
    "AgentWarrant.Monitor.joinBot", "AgentWarrant.Monitor.allocDeterministic",
    "AgentWarrant.Monitor.allocBothAllOrNothing", "AgentWarrant.Monitor.allocAppend", "AgentWarrant.Monitor.allocExt",
    "AgentWarrant.Monitor.stepOnlyAllowChanges", "AgentWarrant.Monitor.stepAllowAppends",
    # Agenra results over whole traces and revisions (docs/lean-results-agenra.md)
    "AgentWarrant.Monitor.Alternatives.twoGrantFeasible", "AgentWarrant.Monitor.Alternatives.twoGrantObstruction",
    "AgentWarrant.Monitor.Alternatives.firstFitFailsAB", "AgentWarrant.Monitor.Alternatives.firstFitCompletesAC",
    "AgentWarrant.Monitor.Alternatives.firstFitSwappedFailsAC",
    "AgentWarrant.Monitor.Run.stepEquivariant", "AgentWarrant.Monitor.Run.stepUpToRenaming",
    "AgentWarrant.Monitor.Run.stepTotal",
    "AgentWarrant.Monitor.Run.decideAllow",
    "AgentWarrant.Monitor.Run.allocCharged",
    "AgentWarrant.Monitor.Run.stepWithinUser",
    "AgentWarrant.Monitor.Run.stepWithinApp",
    "AgentWarrant.Monitor.Run.runWithin",
    "AgentWarrant.Monitor.Run.stepNonAllowSame",
    "AgentWarrant.Monitor.Run.runOnlyAllowChanges",
    "AgentWarrant.Monitor.Run.runAdmittedPassed",
    "AgentWarrant.Revision.scanInst",
    "AgentWarrant.Revision.allocInst",
    "AgentWarrant.Revision.simPreserves",
    "AgentWarrant.Revision.jointPreserves",
    "AgentWarrant.Revision.simBoth",
    "AgentWarrant.Revision.simOfScanSim",
    "AgentWarrant.Revision.capScan",
    "AgentWarrant.Revision.swapScan",
    "AgentWarrant.Revision.revScanSim",
    "AgentWarrant.Revision.revSim",
    "AgentWarrant.Revision.revPreservesClients",
    "AgentWarrant.Monitor.Run.allocFits",
    "AgentWarrant.Monitor.Run.servedChecks",
    "AgentWarrant.Monitor.Run.decideRevised",
    "AgentWarrant.Monitor.Run.stepRevised",
    "AgentWarrant.Monitor.Run.runRevised",
    "AgentWarrant.Monitor.Run.freshIdRecs",
    "AgentWarrant.Revision.Closure.closedStep",
    "AgentWarrant.Revision.Closure.closedPreserves",
    "AgentWarrant.Revision.Closure.closedPreservesFromStart",
    "AgentWarrant.Revision.accountsOf",
    "AgentWarrant.Revision.allocLCharged",
    "AgentWarrant.Revision.ledgerAfter",
    "AgentWarrant.Revision.sideCharge",
    "AgentWarrant.Revision.sideAlloc",
    "AgentWarrant.Revision.linkAllocSim",
    "AgentWarrant.Revision.revisionPreservesMonitor",
    "AgentWarrant.Revision.matchEqScan",
    "AgentWarrant.Revision.Closure.firstFitScan",
    "AgentWarrant.Revision.Closure.firstFitNone",
)
_LINE = re.compile(r"^'(?P<name>[^']+)' (?:does not depend on any axioms|depends on axioms: \[(?P<axioms>[^\]]*)\])$")


def sources(root: Path = LEAN_DIR) -> list[Path]:
    return sorted([*root.glob("AgentWarrant/**/*.lean"), root / "AgentWarrant.lean", root / "audit" / "Audit.lean"])


def _strip_comments(text: str) -> str:
    # block comments keep their newlines, so reported line numbers stay those of the file
    text = re.sub(r"/-.*?-/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"--[^\n]*", "", text)


def forbidden_words(root: Path = LEAN_DIR) -> list[str]:
    """``file:line: word`` for every ``sorry``/``admit`` outside comments."""
    out = []
    for path in sources(root):
        code = _strip_comments(path.read_text(encoding="utf-8"))
        for n, line in enumerate(code.splitlines(), 1):
            for word in ("sorry", "admit"):
                if re.search(rf"\b{word}\b", line):
                    out.append(f"{path.relative_to(root)}:{n}: {word}")
    return out


def parse_axioms(output: str) -> dict[str, frozenset[str]]:
    found: dict[str, frozenset[str]] = {}
    for line in output.splitlines():
        m = _LINE.match(line.strip())
        if m:
            axioms = m.group("axioms")
            found[m.group("name")] = frozenset(a.strip() for a in axioms.split(",")) if axioms else frozenset()
    return found


def check_axioms(found: dict[str, frozenset[str]]) -> list[str]:
    problems = []
    for name in THEOREMS:
        if name not in found:
            problems.append(f"{name}: no '#print axioms' line (missing from lean/audit/Audit.lean?)")
        elif found[name] - ALLOWED:
            problems.append(f"{name}: unexpected axioms {sorted(found[name] - ALLOWED)}")
    return problems


def main() -> int:
    tc = find_toolchain()
    if tc is None:
        print(f"audit skipped: {missing_reason()}")
        return 3
    problems = [f"forbidden word {w}" for w in forbidden_words()]
    proc = subprocess.run([tc.tool("lean"), "audit/Audit.lean"], cwd=LEAN_DIR, env={**tc.env(), "LEAN_PATH": "build"},
                          capture_output=True, text=True, check=False)
    output = proc.stdout + proc.stderr
    if proc.returncode != 0:
        problems.append(f"lean audit/Audit.lean failed (status {proc.returncode}):\n{output}")
    if "sorry" in output:
        problems.append("Lean reported a declaration that uses 'sorry'")
    found = parse_axioms(output)
    problems += check_axioms(found)
    for name in THEOREMS:
        if name in found:
            axioms = ", ".join(sorted(found[name])) or "none"
            print(f"  {name}: axioms {axioms}")
    if problems:
        print("audit FAILED:")
        for p in problems:
            print(f"  {p}")
        return 1
    print(f"audit passed: {len(THEOREMS)} theorems, no sorry/admit, axioms within {{{', '.join(sorted(ALLOWED))}}}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
