"""``CheckReg(𝒲, ℛ)`` in the Lean oracle (judgment ``check_reg``, ``lean/AgentWarrant/Spec/Edits/Register.lean``),
whose answer is proved to be "λ witnesses ``𝒲 ⊑_λ ℛ``" (``registrationReflection``): the workflow, λ and
the registration numbered for Lean, and the Python ``check_reg`` compared with it.

Numbering: states by their position in the workflow, call sites, requests (canonical JSON text),
result labels, workflow calls and actions in sorted order; root outcomes by their position in
``outcomes(ℛ.root)``, and an outcome name λ names that is no root outcome gets a number after them
(so it stays unregistered, as in Python). Only the verdicts are compared: Python names the first
failed check of its own order (a tool-call cycle is its own reason there), Lean reports all seven of
its checks.
"""

from __future__ import annotations

from typing import Any

from model.edits.check.contract import call_ids, outcomes, show_outcome
from model.edits.runtime.checkreg import RegAccepted, check_reg
from model.edits.runtime.registration import Registration
from model.edits.runtime.workflow import RegMap, Workflow
from model.oracle.lean import LeanOracle


def _index(names: set[str]) -> dict[str, int]:
    return {n: i for i, n in enumerate(sorted(names))}


def check_reg_input(w: Workflow, lam: RegMap, reg: Registration) -> dict[str, Any]:
    """The oracle's input for ``check_reg``."""
    si = {s: i for i, s in enumerate(w.states)}
    sites = _index({t.site for t in w.transitions if t.site is not None} | {s for s, _ in lam.calls})
    actions = dict(reg.actions)
    ri = _index({t.request for t in w.transitions if t.request is not None} |
                {spec.request for spec in actions.values()})
    li = _index({r for _, r in w.results} | {r for r, _ in lam.results})
    ci = _index(set(call_ids(reg.root)) | {c for c, _ in reg.templates} | {c for _, c in lam.calls})
    ai = _index({d for _, d in reg.templates} | set(actions))
    outs = list(outcomes(reg.root).items())
    oi = {show_outcome(o): k for k, (o, _) in enumerate(outs)}
    for name in sorted({o for _, o in lam.results} - set(oi)):
        oi[name] = len(oi)
    return {
        "workflow": {
            "initial": si[w.initial],
            "transitions": [[si[t.source], si[t.target],
                             None if t.site is None or t.request is None else [sites[t.site], ri[t.request]]]
                            for t in w.transitions],
            "results": [[si[s], li[r]] for s, r in w.results],
        },
        "registration": {
            "outcomes": [{"id": k, "events": [ci[c] for c in sorted(p.calls)],
                          "order": [[ci[a], ci[c]] for c, preds in p.preds for a in sorted(preds)]}
                         for k, (_, p) in enumerate(outs)],
            "templates": [[ci[c], ai[d]] for c, d in reg.templates],
            "requests": [[ai[d], ri[spec.request]] for d, spec in sorted(actions.items())],
            "lambda_calls": [[sites[s], ci[c]] for s, c in lam.calls],
            "lambda_results": [[li[r], oi[o]] for r, o in lam.results],
        },
    }


def compare_check_reg(oracle: LeanOracle, w: Workflow, lam: RegMap, reg: Registration) -> tuple[bool, bool]:
    """(Python accepts, Lean accepts) on one registration."""
    py = isinstance(check_reg(w, lam, reg), RegAccepted)
    lean = bool(oracle.call("check_reg", check_reg_input(w, lam, reg))["accepts"])
    return py, lean
