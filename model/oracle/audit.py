"""The proof audit run by ``make lean``: no admitted proof, and only the expected axioms.

Two checks, both over lean/:
1. no source under lean/AgentWarrant/ (nor lean/AgentWarrant.lean) contains the words ``sorry`` or
   ``admit`` outside comments, and Lean printed no "declaration uses 'sorry'";
2. every theorem declared in those sources (:func:`theorems`: each ``theorem`` declaration, named in
   its enclosing namespaces) gets a ``#print axioms`` line in a generated file,
   lean/build/Audit.lean, and each depends only on :data:`ALLOWED` (``propext`` and ``Quot.sound``,
   which the kernel's ``simp`` and function extensionality bring in; never ``sorryAx``,
   ``Classical.choice`` or the ``ofReduceBool`` of native evaluation).
Choice: the theorem list is read off the sources rather than kept by hand, so a new proof file is
audited the moment it is imported by lean/AgentWarrant.lean; a theorem in a file the root does not
import fails the audit (Lean cannot find its name), which also catches orphaned proof files.
``private`` theorems are not addressable by name and are covered through the public ones that use them.
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
_DECL = re.compile(r"^(?:@\[[^\]]*\]\s*)?(?P<private>private\s+)?theorem\s+(?P<name>[^\s:({\[]+)")
_NS = re.compile(r"^(?P<kw>namespace|end|section)\b\s*(?P<name>[\w.]*)")
_LINE = re.compile(r"^'(?P<name>[^']+)' (?:does not depend on any axioms|depends on axioms: \[(?P<axioms>[^\]]*)\])$")


def sources(root: Path = LEAN_DIR) -> list[Path]:
    return sorted([*root.glob("AgentWarrant/**/*.lean"), root / "AgentWarrant.lean"])


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


def declared_theorems(text: str) -> list[str]:
    """The fully qualified names of the non-private theorems of one Lean source, in order."""
    scopes: list[tuple[str, str]] = []  # (kind, name) of each open namespace/section
    out = []
    for line in _strip_comments(text).splitlines():
        ns = _NS.match(line)
        if ns:
            if ns.group("kw") == "end":
                if scopes:
                    scopes.pop()
            else:
                scopes.append((ns.group("kw"), ns.group("name")))
            continue
        m = _DECL.match(line)
        if m and not m.group("private"):
            prefix = ".".join(n for k, n in scopes if k == "namespace" and n)
            out.append(f"{prefix}.{m.group('name')}" if prefix else m.group("name"))
    return out


def theorems(root: Path = LEAN_DIR) -> list[str]:
    """Every theorem the audit checks, from every source under lean/."""
    return [name for path in sources(root) for name in declared_theorems(path.read_text(encoding="utf-8"))]


def audit_file(names: list[str]) -> str:
    return "import AgentWarrant\n" + "".join(f"#print axioms {n}\n" for n in names)


def parse_axioms(output: str) -> dict[str, frozenset[str]]:
    found: dict[str, frozenset[str]] = {}
    for line in output.splitlines():
        m = _LINE.match(line.strip())
        if m:
            axioms = m.group("axioms")
            found[m.group("name")] = frozenset(a.strip() for a in axioms.split(",")) if axioms else frozenset()
    return found


def check_axioms(names: list[str], found: dict[str, frozenset[str]]) -> list[str]:
    problems = []
    for name in names:
        if name not in found:
            problems.append(f"{name}: Lean printed no axioms for it (is its file imported by lean/AgentWarrant.lean?)")
        elif found[name] - ALLOWED:
            problems.append(f"{name}: unexpected axioms {sorted(found[name] - ALLOWED)}")
    return problems


def main() -> int:
    tc = find_toolchain()
    if tc is None:
        print(f"audit skipped: {missing_reason()}")
        return 3
    problems = [f"forbidden word {w}" for w in forbidden_words()]
    names = theorems()
    generated = LEAN_DIR / "build" / "Audit.lean"
    generated.parent.mkdir(parents=True, exist_ok=True)
    generated.write_text(audit_file(names), encoding="utf-8")
    proc = subprocess.run([tc.tool("lean"), str(generated)], cwd=LEAN_DIR, env={**tc.env(), "LEAN_PATH": "build"},
                          capture_output=True, text=True, check=False)
    output = proc.stdout + proc.stderr
    if proc.returncode != 0:
        problems.append(f"lean build/Audit.lean failed (status {proc.returncode}):\n{output}")
    if "sorry" in output:
        problems.append("Lean reported a declaration that uses 'sorry'")
    found = parse_axioms(output)
    problems += check_axioms(names, found)
    for name in names:
        if name in found:
            axioms = ", ".join(sorted(found[name])) or "none"
            print(f"  {name}: axioms {axioms}")
    if problems:
        print("audit FAILED:")
        for p in problems:
            print(f"  {p}")
        return 1
    print(f"audit passed: {len(names)} theorems, no sorry/admit, axioms within {{{', '.join(sorted(ALLOWED))}}}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
