"""The judged requests of the edit-runtime and ideal DRTs (*When Can Agents Safely Checkpoint, Fork,
Restore, and Merge? Exact Checking for Execution Edits*, Section V-A, Table I's Fork and Restore rows,
Section IV-B1's remaining-work equation), split from ``model.oracle.drt_runtime``.

A Fork or Restore whose case lies in the binary term model is sent with the request Lean's edit judgment
reads (``judged_request``), and Lean's machine (``derRunJ`` of lean/AgentWarrant/Spec/Edits/DeriveTreeRunJ.lean)
installs the judged record's new-leaf contracts after checking the terms against its own record;
``judged_check`` compares those contracts with Python's. Terms are ``drt_derive``'s translation with the
session's numbering (``SessionTerms``). Choices: every stored copy's remaining contract goes into the
store, since Lean's check reads all of them; the names of the calls the judgment allocates (``out``) are
read off Python's own cloning for the new leaves' names, so a contract Python put on the wrong leaf differs
from Lean's; Lean checks ``out`` one-to-one itself (``runJOutInjB``) and fresh for the leaves the edit keeps
and the record's processed calls (``runJOutFreshB`` against ``runJStaleCalls``: Python's record check refuses
a contract naming a call twice, so a name of a kept leaf's call is not fresh, and a processed call back in
the workflow, so neither is a processed call, the replaced branch's included; stored copies are not checked
against, as Python does not), and
``judged_check`` reports a disagreement with Python's checks; a case outside the term model
(``drt_derive.Outside``) is sent without a request and its contracts stay Python's.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Protocol

from model.edits.check.contract import Nil, Term, call_ids
from model.edits.runtime.derive import Derived
from model.edits.runtime.forms import Edit, ForkChoice, ForkParallel, RestoreLive, RestoreReplace, kind_of
from model.edits.runtime.record import State
from model.edits.runtime.tree import Leaf, addressable, clone_term, leaves, remaining, residual
from model.oracle import drt_derive as DD


class Numbering(Protocol):
    """The session's numbering of identifiers (``drt_runtime.Numbering``)."""

    def n(self, kind: str, name: str) -> int: ...

    def names(self, kind: str) -> list[str]: ...


class SessionTerms(DD.Numbering):
    """Binary terms (``drt_derive``'s translation) in the session's numbering: calls as ``nb``'s calls,
    choice IDs as its ``choice`` kind, so Lean can compare them with the tree it holds."""

    def __init__(self, nb: Numbering) -> None:
        super().__init__()
        self.nb = nb

    def call(self, c: str) -> int:
        return self.nb.n("call", c)

    def group(self, g: str) -> int:
        return self.nb.n("choice", g)


def gamma_term(nb: Numbering, gamma: Term) -> Any:
    """``Γ`` as a binary term in the session's numbering, or ``None`` outside the term model."""
    try:
        return SessionTerms(nb).term(gamma)
    except DD.Outside:
        return None


def _term_calls(t: Any) -> list[int]:
    if t[0] == "call":
        return [int(t[1])]
    return [c for x in t[1:] if isinstance(x, list) for c in _term_calls(x)]


def judged_request(nb: Numbering, s: State, u: Edit, d: Derived) -> dict[str, Any] | None:
    """The request Lean's edit judgment reads for a Fork or Restore (``edit_derive``'s spelling, its terms in
    the session's numbering): the branch's remaining contract, every stored copy's (by checkpoint ID, as
    Lean's source check reads all of them), the request, and ``out``, Python's names for the calls the
    judgment allocates (a copy's calls ``2c``/``2c + 1`` or ``c + n``, a template's ``instK`` calls), read
    off Python's own cloning of the branch for the new leaves' names, and ``fresh``, Python's own check that
    no name ``out`` sends is a call of a leaf the edit keeps (every leaf but the branch a Fork or
    RestoreReplace replaces; the record check refuses a contract naming a call twice) or a call the record
    has processed (its whole χ, the replaced branch's among them; the record check refuses a processed call
    back in the workflow), which Lean does not read. ``None`` when the case lies outside
    the term model (``drt_derive``'s reasons) or the edit is neither a Fork nor a Restore; the machine then
    keeps Python's contracts."""
    if not isinstance(u, ForkChoice | ForkParallel | RestoreReplace | RestoreLive) or s.tree is None \
            or d.record.tree is None:
        return None
    node = addressable(s.tree).get(u.branch)
    rule = dict(s.rules).get(u.rule)
    if not isinstance(node, Leaf) or rule is None or rule.kind != kind_of(u):
        return None
    st = SessionTerms(nb)
    before = {lf.branch for lf in leaves(s.tree)}
    fresh = [lf.branch for lf in leaves(d.record.tree) if lf.branch not in before]
    try:
        c = remaining(node)
        region = st.term(c)
        store = [[nb.n("name", k), st.term(residual(ck.gamma, ck.done))] for k, ck in s.checkpoints]
        if gamma_term(nb, node.gamma) is None or any(gamma_term(nb, ck.gamma) is None for _, ck in s.checkpoints):
            raise DD.Outside("family")
        call_name = nb.names("call")
        out: dict[int, int] = {}
        if isinstance(u, ForkChoice | ForkParallel):
            if len(fresh) != 2:
                return None
            maps = [clone_term(c, b)[1] for b in fresh]
            for m in _term_calls(region):
                for side in (0, 1):
                    if call_name[m] in maps[side]:
                        out[2 * m + side] = nb.n("call", maps[side][call_name[m]])
            if DD._rule_nil(rule.left) and DD._rule_nil(rule.right):
                req: Any = ["fork_choice", nb.n("choice", "@fork")] if isinstance(u, ForkChoice) else ["fork_parallel"]
            else:
                tb = DD.Numbering()
                steps = [tb.term(rule.left or Nil()), tb.term(rule.right or Nil())]
                req = ["fork_choice_templates", nb.n("choice", "@fork"), *steps] if isinstance(u, ForkChoice) \
                    else ["fork_parallel_templates", *steps]
                n = DD._bound(region)
                for t, tc in enumerate(tb.calls):
                    for side in (0, 1):
                        out[2 * (n + t) + side] = nb.n("call", f"{tc}+{fresh[side]}")
        else:
            ck = dict(s.checkpoints).get(u.checkpoint)
            if ck is None or not fresh:
                return None
            ck_c = residual(ck.gamma, ck.done)
            ck_t = st.term(ck_c)
            n = 1 + max([*_term_calls(region), *(x for _, t in store for x in _term_calls(t))], default=0)
            form = "restore_replace" if isinstance(u, RestoreReplace) else "restore_live"
            req = [form, nb.n("name", u.checkpoint), n]
            kmap = clone_term(ck_c, fresh[-1])[1]
            for m in _term_calls(ck_t):
                if call_name[m] in kmap:
                    out[m + n] = nb.n("call", kmap[call_name[m]])
    except DD.Outside:
        return None
    gone = u.branch if isinstance(u, ForkChoice | ForkParallel | RestoreReplace) else None
    kept = {nb.n("call", x) for lf in leaves(s.tree) if lf.branch != gone for x in call_ids(lf.gamma)}
    # the record check refuses a processed call back in the workflow: the whole χ, so the replaced
    # branch's processed calls too, which `kept` leaves out
    chi = {nb.n("call", p.call) for p in s.processed}
    return {"region": region, "store": store, "request": req, "out": sorted([a, b] for a, b in out.items()),
            "fresh": not (kept | chi) & set(out.values())}


def _pom_key(events: list[int], order: list[list[int]]) -> tuple[frozenset[int], frozenset[tuple[int, int]]]:
    """A pomset as its event set and its transitively closed order."""
    pairs = {(a, b) for a, b in order}
    while True:
        more = {(a, d) for a, b in pairs for c, d in pairs if b == c} - pairs
        if not more:
            return frozenset(events), frozenset(pairs)
        pairs |= more


def _contracts(leaves_: list[Any]) -> list[Counter[Any]]:
    return [Counter(_pom_key(p["events"], p["order"]) for p in g) for g in leaves_]


def judged_check(events: list[dict[str, Any]], lean_steps: list[Any]) -> tuple[list[str], int, int]:
    """For each check (runtime) or edit (ideal) event of a Fork or Restore: with a judged request, Lean's
    source check must hold and the contracts its machine installs (``"judged"``, in Table I's order) must
    be Python's new leaves' (multisets of pomsets, order transitively closed); without one (outside the
    term model) the machine ran on Python's contracts. The naming ``out`` sent must be one-to-one, by
    Python's check on the names it sends and by Lean's (``"outInj"``, ``runJOutInjB`` on every call of the
    judged contracts, which refuses the edit otherwise), and fresh for the leaves the edit keeps and the
    record's processed calls, by Python's check (``fresh`` in the request) and by Lean's (``"outFresh"``,
    ``runJOutFreshB``, which also refuses the edit otherwise): the two verdicts must agree. Returns the
    mismatches, the edits judged and the edits outside the fragment."""
    bad: list[str] = []
    judged = outside = 0
    for k, (ev, st) in enumerate(zip(events, lean_steps, strict=False)):
        d = ev.get("derived") if ev["kind"] in ("check", "edit") else None
        if not d or d["edit"]["form"] not in ("fork", "restore"):
            continue
        if "judged" not in d:
            outside += 1
            continue
        judged += 1
        lj = st.get("judged")
        named = [b for _, b in d["judged"]["out"]]
        py_inj = len(set(named)) == len(named)
        if not py_inj:  # two copies' calls must stay apart; Lean checks the same on the judged calls
            bad.append(f"step {k} judged: Python names two allocated calls alike")
        if not isinstance(lj, dict):
            bad.append(f"step {k} judged: no answer")
        elif lj["agrees"] is not True:
            bad.append(f"step {k} judged: the terms are not the record's (Lean's srcAgreesB)")
        elif lj["leaves"] is None:
            bad.append(f"step {k} judged: Python derived, Lean's judgment derives nothing")
        elif lj.get("outInj") is not True:
            bad.append(f"step {k} judged: Lean's runJOutInjB refuses out (two judged calls named alike)"
                       + ("; Python's own check passed it" if py_inj else ""))
        elif lj.get("outFresh") is not d["judged"].get("fresh", True):
            bad.append(f"step {k} judged: Lean's runJOutFreshB says {lj.get('outFresh')}, Python's freshness "
                       f"check {d['judged'].get('fresh', True)} (out names a kept leaf's or a processed call)")
        else:
            python_leaves = [[{"events": p["events"], "order": p["order"]} for p in leaf[1]]
                             for leaf in d["edit"]["leaves"]]
            if _contracts(lj["leaves"]) != _contracts(python_leaves):
                bad.append(f"step {k} judged: new leaves' contracts differ")
    return bad, judged, outside


def _installed(events: list[dict[str, Any]]) -> list[Any]:
    """Per event, the derivation an install at that step would carry, as sent to Lean: an ideal edit's
    own; a rule update's, the check whose answer it presents (answers count the checks that ran to the
    end, as the runtime oracle's do)."""
    answered = [e.get("derived") for e in events if e["kind"] == "check" and not e.get("crash")]
    out: list[Any] = []
    for e in events:
        if e["kind"] == "edit":
            out.append(e.get("derived"))
        elif e["kind"] == "update" and 0 <= e["answer"] < len(answered):
            out.append(answered[e["answer"]])
        else:
            out.append(None)
    return out


def contract_check(events: list[dict[str, Any]], lean_steps: list[Any],
                   commits: list[bool]) -> tuple[list[str], int, int]:
    """For each check (runtime) or edit (ideal) whose derivation Lean computes, Lean's verdict on whether
    its instance's outcomes are ``⟦T'⟧`` of its tree (``"instContract"``, ``instOutcomesAgreeB`` of
    lean/AgentWarrant/Spec/Edits/TreeContractInst.lean) must hold: Lean's machine refuses the derivation
    otherwise (``tciGuard``). For each step that installs an edit's derivation (a committed rule update, an
    accepted ideal edit; ``commits`` is Python's verdict per step): Lean must report ``⟦T'⟧`` of the tree its
    machine installed and that the installed instance's outcomes are it (``"contract"``). The driver repeats
    that comparison on the outcomes it sent (multisets of pomsets, order transitively closed, as the
    ``tree_contract`` DRT compares), so a Lean verdict that disagrees with its own ``⟦T'⟧`` is a mismatch
    too. A registered extension installs the instance Lean's machine computes (``extInst``) with the
    record's tree: each extension event reports whether that instance's outcomes are ``⟦T⟧`` of the tree
    (``"extContract"``, ``tciExtOk``), which must hold (Lean's machine refuses the extension otherwise), and
    a committed one reports ``"contract"`` as an install does. Returns the mismatches, the installs checked
    and, among them, the extensions."""
    bad: list[str] = []
    checked = extensions = 0
    for k, st in enumerate(lean_steps):
        if st.get("instContract") is False:
            bad.append(f"step {k} contract: the derivation's instance's outcomes are not Lean's ⟦T'⟧ "
                       f"(instOutcomesAgreeB; Lean's machine refuses it)")
        if st.get("extContract") is False:
            bad.append(f"step {k} contract: the extension's instance's outcomes are not Lean's ⟦T⟧ of the "
                       f"record's tree (tciExtOk; Lean's machine refuses it)")
    for k, (d, st, c) in enumerate(zip(_installed(events), lean_steps, commits, strict=False)):
        lc = st.get("contract")
        if not c and lc is None:
            continue
        if not isinstance(lc, dict):
            bad.append(f"step {k} contract: Python installed an edit, Lean reports no ⟦T'⟧")
            continue
        checked += 1
        extensions += events[k]["kind"] == "extend"
        bad += _agreement(f"step {k} contract: the installed instance's outcomes",
                          d if isinstance(d, dict) else None, lc, "instOutcomesAgreeB", "⟦T'⟧")
    return bad, checked, extensions


def _agreement(where: str, d: dict[str, Any] | None, lc: dict[str, Any], check: str, tt: str) -> list[str]:
    """Lean's verdict ``lc`` (``{"agrees": b, "outcomes": ⟦T⟧}``, ``tt`` its spelling in the message) must
    hold, and must equal the driver's own comparison of the outcomes of the instance it sent (``d``, when
    known) with Lean's ``⟦T⟧``."""
    bad: list[str] = []
    lean = Counter(_pom_key(p["events"], p["order"]) for p in lc["outcomes"])
    if lc["agrees"] is not True:
        bad.append(f"{where} are not Lean's {tt} ({check})")
    if d is not None:
        inst = Counter(_pom_key(p["events"], p["order"]) for p in d["instance"]["outcomes"])
        if (inst == lean) != (lc["agrees"] is True):
            bad.append(f"{where}: Lean's {check} says {lc['agrees']}, the driver's comparison of the sent "
                       f"outcomes with Lean's {tt} says {inst == lean}")
    return bad


def root_contract_check(root: dict[str, Any] | None, out: dict[str, Any]) -> list[str]:
    """The root update installs ``Derive``'s input instance and tree unread, so Lean checks the root's
    instance against ``⟦T⟧`` of the root tree as it checks every install (``"rootContract"``, ``tciRootOk``
    of lean/AgentWarrant/Spec/Edits/TreeContractInstRoot.lean): on an accepted root the verdict must be
    reported and hold, and equal the driver's comparison of the root's sent outcomes with Lean's ``⟦T⟧``.
    Lean still starts the session from such a root, so the verdict is compared here, not as a refusal."""
    if root is None or out.get("root") is not True:
        return []
    lc = out.get("rootContract")
    if not isinstance(lc, dict):
        return ["root contract: Lean accepted the root and reports no ⟦T⟧"]
    return _agreement("root contract: the root instance's outcomes", root, lc, "tciRootOk", "⟦T⟧")
