"""The proof audit run by ``make lean``: no admitted proof, no axiom, and no unlisted ``partial def``.

Four checks, over every source under lean/AgentWarrant/ and lean/AgentWarrant.lean:
1. no source contains the words ``sorry`` or ``admit`` outside comments, and Lean printed no
   "declaration uses 'sorry'";
2. no source declares an ``axiom`` (nor an opaque ``constant``), read off the text, and the built
   environment holds no axiom from a project module;
3. every declaration of a project module in the built environment, read by a Lean program
   (model/oracle/audit_env.lean, written to lean/build/AuditEnv.lean) rather than off the text — theorems of
   every form (``private``, ``protected``, indented, after attributes), the proofs inside ``def``s and
   ``instance``s, and the auxiliary lemmas Lean makes — depends only on :data:`ALLOWED` (``propext`` and
   ``Quot.sound``, which ``simp`` and function extensionality bring in; never ``sorryAx``,
   ``Classical.choice`` or the ``ofReduceBool`` of native evaluation); and every theorem the sources
   declare by name is among them (a theorem in a file the root does not import fails, which also catches
   orphaned proof files);
4. every ``partial def`` of a project module (an opaque constant with compiled code) is listed in the
   committed allow-list lean/partial-defs.tsv with the reason it exists, and the audit prints which
   oracle judgments reach it (through definitions' bodies and partial defs' implementations). A
   ``partial def`` is opaque to proofs, so none may sit on a judgment's decision path; the list admits
   only input decoding and the IO loop. A listed name that no longer exists fails too, so the list
   stays exact.
Choices: the environment, not a regex, is the authority on what is declared, so no declaration form
escapes; the textual scan (:func:`declarations`) stays, because the results table names theorems by
their source names and a theorem that is declared but not built must be caught. Lean's compiler
auxiliaries (``_cstage``, ``_spec``, ``_closed``, ``_lambda``, ``_rarg``, ``_unsafe_rec``, ``_boxed``)
are not declarations of the sources and are skipped.
Run as ``python -m model.oracle.audit``; exit status 0 when the audit passes, 1 when it fails,
3 when no toolchain is found (with the reason).
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from model.oracle.toolchain import LEAN_DIR, find_toolchain, missing_reason

ALLOWED = frozenset({"propext", "Quot.sound"})
ALLOWLIST = LEAN_DIR / "partial-defs.tsv"
_MODIFIERS = r"(?:(?:private|protected|noncomputable|unsafe|partial|nonrec)\s+)*"
_ATTRS = r"(?:@\[[^\]]*\]\s*)*"
_KEYWORDS = r"theorem|lemma|def|abbrev|instance|axiom|constant|opaque"
_DECL = re.compile(rf"^\s*{_ATTRS}(?P<mods>{_MODIFIERS})(?P<kw>{_KEYWORDS})\b"
                   r"(?:\s+(?P<name>[^\s:({\[]+))?")
_NS = re.compile(r"^\s*(?P<kw>namespace|end|section|mutual)\b\s*(?P<name>[\w.]*)")
_LINE = re.compile(r"^'(?P<name>[^']+)' (?:does not depend on any axioms|depends on axioms: \[(?P<axioms>[^\]]*)\])$")
_ENV = re.compile(r"^DECL (?P<kind>\S+) (?P<name>\S+) (?P<module>\S+) (?P<rec>partial|total) \[(?P<axioms>[^\]]*)\]$")
_REACH = re.compile(r"^REACH (?P<name>\S+) \[(?P<entries>[^\]]*)\]$")

# The Lean program that lists the environment (kept beside this module as Lean text).
ENV_PROGRAM_FILE = Path(__file__).with_name("audit_env.lean")


def env_program() -> str:
    return ENV_PROGRAM_FILE.read_text(encoding="utf-8")


def sources(root: Path = LEAN_DIR) -> list[Path]:
    return sorted([*root.glob("AgentWarrant/**/*.lean"), root / "AgentWarrant.lean"])


def _strip_comments(text: str) -> str:
    # block comments (nested ones too) keep their newlines, so reported line numbers stay those of the file
    out: list[str] = []
    depth = 0
    i = 0
    while i < len(text):
        if text.startswith("/-", i):
            depth += 1
            i += 2
        elif depth and text.startswith("-/", i):
            depth -= 1
            i += 2
        elif depth:
            if text[i] == "\n":
                out.append("\n")
            i += 1
        else:
            out.append(text[i])
            i += 1
    return re.sub(r"--[^\n]*", "", "".join(out))


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


@dataclass(frozen=True)
class Decl:
    """One declaration of a Lean source: its keyword, qualified name and modifiers, and its line."""

    kw: str
    name: str
    private: bool
    partial: bool
    line: int


def declarations(text: str) -> list[Decl]:
    """Every declaration of one Lean source by keyword, in order, named in its enclosing namespaces
    (indented ones, ones after attributes, ``private``/``protected``/``partial`` ones included)."""
    scopes: list[tuple[str, str]] = []  # (kind, name) of each open namespace/section
    out = []
    for n, line in enumerate(_strip_comments(text).splitlines(), 1):
        ns = _NS.match(line)
        if ns:  # (a ``mutual`` block opens a scope its ``end`` closes, with no name of its own)
            if ns.group("kw") == "end":
                if scopes:
                    scopes.pop()
            else:
                scopes.append((ns.group("kw"), ns.group("name")))
            continue
        m = _DECL.match(line)
        if m is None:
            continue
        mods = m.group("mods").split()
        name = m.group("name") or ""
        if name.startswith("_root_."):
            qualified = name.removeprefix("_root_.")
        else:
            prefix = ".".join(s for k, s in scopes if k == "namespace" and s)
            qualified = f"{prefix}.{name}" if prefix and name else name
        out.append(Decl(m.group("kw"), qualified, "private" in mods, "partial" in mods, n))
    return out


def declared_theorems(text: str) -> list[str]:
    """The fully qualified names of the non-private theorems (and lemmas) of one Lean source, in order."""
    return [d.name for d in declarations(text) if d.kw in ("theorem", "lemma") and not d.private]


def theorems(root: Path = LEAN_DIR) -> list[str]:
    """Every named theorem of the sources under lean/, as the results table may cite it."""
    return [name for path in sources(root) for name in declared_theorems(path.read_text(encoding="utf-8"))]


def declared_axioms(root: Path = LEAN_DIR) -> list[str]:
    """``file:line: axiom name`` for every ``axiom`` or ``constant`` declaration outside comments."""
    return [f"{path.relative_to(root)}:{d.line}: {d.kw} {d.name}"
            for path in sources(root) for d in declarations(path.read_text(encoding="utf-8"))
            if d.kw in ("axiom", "constant", "opaque")]


def declared_partials(root: Path = LEAN_DIR) -> list[str]:
    """The qualified names of every ``partial def`` of the sources."""
    return [d.name for path in sources(root) for d in declarations(path.read_text(encoding="utf-8")) if d.partial]


@dataclass(frozen=True)
class EnvDecl:
    kind: str
    name: str
    module: str
    partial: bool
    axioms: frozenset[str]


def parse_env(output: str) -> tuple[list[EnvDecl], dict[str, list[str]]]:
    """The DECL and REACH lines of the environment program: declarations, and for each partial def
    the oracle entries that reach it."""
    decls: list[EnvDecl] = []
    reach: dict[str, list[str]] = {}
    for line in output.splitlines():
        m = _ENV.match(line.strip())
        if m:
            axioms = frozenset(a.strip() for a in m.group("axioms").split(",") if a.strip())
            decls.append(EnvDecl(m.group("kind"), m.group("name"), m.group("module"),
                                 m.group("rec") == "partial", axioms))
            continue
        r = _REACH.match(line.strip())
        if r:
            reach[r.group("name")] = [e.strip() for e in r.group("entries").split(",") if e.strip()]
    return decls, reach


def read_allowlist(path: Path = ALLOWLIST) -> dict[str, str]:
    """``name -> reason`` from the committed allow-list (tab-separated; ``#`` lines are comments).
    A line without a reason is refused: the list exists to record why."""
    out: dict[str, str] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        name, _, reason = line.partition("\t")
        if not reason.strip():
            raise ValueError(f"{path.name}:{n}: {name.strip()!r} has no reason")
        out[name.strip()] = reason.strip()
    return out


def check_env(decls: list[EnvDecl], reach: dict[str, list[str]], textual: list[str],
              allow: dict[str, str]) -> list[str]:
    """The problems of checks 2-4 over the environment listing (see the module docstring)."""
    problems = []
    for d in decls:
        if d.kind == "axiom":
            problems.append(f"{d.name}: an axiom declared in {d.module}")
        elif d.axioms - ALLOWED:
            problems.append(f"{d.name} ({d.kind}, {d.module}): unexpected axioms {sorted(d.axioms - ALLOWED)}")
    built = {d.name for d in decls if d.kind == "theorem"}
    for name in textual:
        if name not in built:
            problems.append(f"{name}: declared in the sources but not in the built library "
                            "(is its file imported by lean/AgentWarrant.lean?)")
    partials = {d.name for d in decls if d.partial}
    for name in sorted(partials - allow.keys()):
        by = ", ".join(reach.get(name, [])) or "nothing"
        problems.append(f"{name}: a partial def not in {ALLOWLIST.name} (reached from: {by})")
    for name in sorted(allow.keys() - partials):
        problems.append(f"{name}: listed in {ALLOWLIST.name} but no such partial def is built")
    return problems


def main() -> int:
    tc = find_toolchain()
    if tc is None:
        print(f"audit skipped: {missing_reason()}")
        return 3
    problems = [f"forbidden word {w}" for w in forbidden_words()]
    problems += [f"axiom declared: {a}" for a in declared_axioms()]
    try:
        allow = read_allowlist()
    except (OSError, ValueError) as e:
        allow = {}
        problems.append(f"{ALLOWLIST.name}: {e}")
    generated = LEAN_DIR / "build" / "AuditEnv.lean"
    generated.parent.mkdir(parents=True, exist_ok=True)
    generated.write_text(env_program(), encoding="utf-8")
    proc = subprocess.run([tc.tool("lean"), str(generated)], cwd=LEAN_DIR, env={**tc.env(), "LEAN_PATH": "build"},
                          capture_output=True, text=True, check=False)
    output = proc.stdout + proc.stderr
    if proc.returncode != 0:
        problems.append(f"lean build/AuditEnv.lean failed (status {proc.returncode}):\n{output[-4000:]}")
    if "declaration uses 'sorry'" in output:
        problems.append("Lean reported a declaration that uses 'sorry'")
    decls, reach = parse_env(output)
    if not decls:
        problems.append("the environment program listed no declarations")
    textual = theorems()
    problems += check_env(decls, reach, textual, allow)
    kinds: dict[str, int] = {}
    for d in decls:
        kinds[d.kind] = kinds.get(d.kind, 0) + 1
    print("partial defs (name: reached from; why):")
    for name in sorted(n for n, _ in reach.items()):
        print(f"  {name}: {', '.join(reach[name]) or 'no judgment'}; {allow.get(name, 'NOT LISTED')}")
    if problems:
        print("audit FAILED:")
        for p in problems:
            print(f"  {p}")
        return 1
    print(f"audit passed: {len(decls)} declarations ({', '.join(f'{v} {k}' for k, v in sorted(kinds.items()))}), "
          f"{len(textual)} named theorems of the sources among them, no sorry/admit, no axiom, "
          f"axioms used within {{{', '.join(sorted(ALLOWED))}}}, {len(reach)} partial defs all listed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
