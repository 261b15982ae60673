"""``AgentSec(S; c, r)``: the runtime invariant after a rule update (*Exact Checking for Execution Edits*,
Section VI-B and Appendix A-I, clauses A1–A5), checked on a concrete state.

``c`` is the checked origin stored with the rules in force (``State.installed``) and ``r`` the calls
processed since (``χ`` after ``installed.chi_len``). ``agent_sec(state)`` returns the violated
clauses with a reason (empty when the invariant holds):

- A1 the workflow in force comes from the checked edit: replaying ``r`` by HStep on the checked
  tree gives the current tree, the checked instance's contract is that tree's ``⟦T⟧``, and the
  record is well formed (every region's requirement record verifies, …);
- A2 the stored automaton is the checker's largest safe set: re-checking the stored instance gives
  ``Accepted`` with an equal ``Can`` (nonempty);
- A3 workflow, log, queue and checkpoints match ``r``: the ``new`` letters of ``r`` created exactly
  the newest authorization records in order, the checked log is the rest, each reuse links to an
  existing record of its action, the queue lists the records in order with a sent prefix;
- A4 the automaton is in exactly the state reached by ``r`` — hence every processed sequence since
  the update lies inside the installed ``W`` (``within_w``);
- A5 exactly one active version and it is η, one entry per current call under it, each token
  verifying; every phase is active, closed or inactive; every inactive version (Table III
  "Preload") holds prepared content and is assigned to no call — no rule entry of β and no
  processed call's entry names it — and every prepared content sits in an inactive version.
"""

from __future__ import annotations

from model.edits.check.answer import Accepted
from model.edits.check.can import Can
from model.edits.check.checker import decide as check_instance
from model.edits.check.contract import call_ids
from model.edits.check.resolve import Letter, Mode, Word
from model.edits.runtime.record import Processed, State
from model.edits.runtime.steps import token_verifies
from model.edits.runtime.tree import contract_of, hstep
from model.edits.runtime.wellformed_record import record_problems


def since_update(s: State) -> tuple[Processed, ...]:
    return s.processed[s.installed.chi_len:] if s.installed is not None else ()


def letters(ps: tuple[Processed, ...]) -> Word:
    return tuple(Letter(p.call, p.action, p.mode) for p in ps)


def within_w(s: State) -> bool:
    """The processed sequence since the last update is a word of the installed ``W``."""
    return s.automaton is not None and s.automaton.run(letters(since_update(s))) is not None


def agent_sec(s: State, *, recheck: bool = True) -> list[str]:
    if s.eta is None or s.installed is None or s.automaton is None or s.tree is None:
        return [] if s.eta is None and s.installed is None else ["rules half-installed"]
    out = [f"A1/A3/A5: {p}" for p in record_problems(s)]
    inst = s.installed
    r = since_update(s)
    tree = inst.tree
    for p in r:
        tree = hstep(tree, p.call)
    if tree != s.tree:
        out.append("A1: the current workflow is not the checked target advanced by r")
    if inst.instance.contract != contract_of(inst.tree):
        out.append("A1: the checked instance is not the checked target's contract")
    if recheck:
        v = check_instance(inst.instance)
        if not isinstance(v, Accepted) or not _same(v.automaton, s.automaton):
            out.append("A2: the stored automaton is not the checker's largest safe set for the checked record")
    created = [p.record for p in r if p.mode is Mode.NEW]
    tail = [rec.id for rec in s.log[len(s.log) - len(created):]] if created else []
    if created != tail:
        out.append("A3: the new letters of r did not create exactly the newest authorization records")
    if inst.instance.log != tuple(rec.action for rec in s.log[:len(s.log) - len(created)]):
        out.append("A3: the checked authorization log is not the log before r")
    records = {rec.id: rec for rec in s.log}
    for p in r:
        if p.mode is Mode.REUSE and (p.record not in records or records[p.record].action != p.action):
            out.append(f"A3: reuse by {p.call} links to no record of {p.action}")
    q = s.automaton.run(letters(r))
    if q is None:
        out.append("A4: r leaves the installed W")
    elif q != s.q:
        out.append(f"A4: the automaton is in state {s.q}, r reaches {q}")
    current = set(call_ids(contract_of(s.tree)))
    for x, e in s.entries:
        if x not in current or e.version != s.eta or not token_verifies(s, x, e.entry, e.version, e.token):
            out.append(f"A5: entry of {x} is not a valid entry of the active version")
    out += _versions(s)
    return out


def _versions(s: State) -> list[str]:
    out: list[str] = []
    phases = dict(s.versions)
    if len(phases) != len(s.versions):
        out.append("A5: a rule version is listed twice")
    out += [f"A5: version {v} has phase {ph}" for v, ph in s.versions if ph not in ("active", "closed", "inactive")]
    active = [v for v, ph in s.versions if ph == "active"]
    if active != [s.eta]:
        out.append(f"A5: the active versions are {active}, not exactly η = {s.eta}")
    inactive = {v for v, ph in s.versions if ph == "inactive"}
    prepared = {v for v, _ in s.prepared}
    out += [f"A5: inactive version {v} holds no prepared content" for v in sorted(inactive - prepared)]
    out += [f"A5: prepared content in version {v}, which is not inactive" for v in sorted(prepared - inactive)]
    out += [f"A5: inactive version {e.version} is assigned to call {x}" for x, e in s.entries if e.version in inactive]
    out += [f"A5: processed call {p.call} used an entry of inactive version {p.entry.split('/', 1)[0]}"
            for p in s.processed if p.entry.split("/", 1)[0] in inactive]
    return out


def _same(a: Can, b: Can) -> bool:
    return a == b
