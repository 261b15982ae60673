"""The JSON form of the execution record ``H`` (*When Can Agents Safely Checkpoint, Fork, Restore, and
Merge? Exact Checking for Execution Edits*, Sections IV-B and V-C5): what the runtime stores and
journals, with its canonical text and the digests of the state, of its core (``core_json``: the part a
check's instance depends on) and of a request. The paper gives no serialization: the form is ours and
round-trips (``state_from_json(state_to_json(s)) == s``, tested).
"""

from __future__ import annotations

from typing import Any

from model.base.canonical import JSON, canonical_str, loads
from model.base.canonical import digest as json_digest
from model.edits.check.can import Can
from model.edits.check.contract import Outcome, Term
from model.edits.check.edit_policy import PolicyAutomaton
from model.edits.check.instance import Instance, make_instance, term_to_json
from model.edits.check.load_instance import term_from_doc
from model.edits.check.resolve import Letter, Mode
from model.edits.runtime.record import (
    ActionSpec,
    AuthRecord,
    CallEntry,
    Checkpoint,
    EditRule,
    Installed,
    Prepared,
    Processed,
    Queued,
    RuleEntry,
    State,
)
from model.edits.runtime.requirements import record_from_json
from model.edits.runtime.tree import node_from_json, node_to_json


def _term_json(t: Term | None) -> JSON:
    return None if t is None else term_to_json(t)


def _term_doc(doc: Any) -> Term | None:
    return None if doc is None else term_from_doc(doc)


def policy_to_json(p: PolicyAutomaton) -> JSON:
    return {"states": p.n_states, "delta": [[q, a, r] for (q, a), r in p.delta]}


def policy_from_json(doc: Any) -> PolicyAutomaton:
    return PolicyAutomaton(doc["states"], tuple(((q, a), r) for q, a, r in doc["delta"]))


def instance_json(i: Instance) -> JSON:
    return {"contract": term_to_json(i.contract), "calls": [list(p) for p in i.actions],
            "labels": [list(p) for p in i.labels], "log": list(i.log), "policy": policy_to_json(i.policy)}


def instance_of_json(doc: Any) -> Instance:
    return make_instance(term_from_doc(doc["contract"]), {x: d for x, d in doc["calls"]},
                         {d: a for d, a in doc["labels"]}, tuple(doc["log"]), policy_from_json(doc["policy"]))


def _outcome(text: str) -> Outcome:
    return () if text == "·" else tuple((g, a) for g, a in (p.split("=", 1) for p in text.split(",")))


def can_from_json(doc: Any) -> Can:
    delta = tuple(((q, Letter(x, d, Mode(m))), r) for q, x, d, m, r in doc["transitions"])
    return Can(doc["states"], delta, tuple(tuple(_outcome(o) for o in m) for m in doc["marks"]))


def state_to_json(s: State) -> JSON:
    inst = s.installed
    return {
        "domain": s.domain, "namespace": s.namespace, "next_id": s.next_id,
        "tree": None if s.tree is None else node_to_json(s.tree),
        "policy": policy_to_json(s.policy), "history": list(s.history), "joined": sorted(s.joined),
        "checkpoints": [[k, {"branch": c.branch, "region": c.region, "gamma": term_to_json(c.gamma),
                             "done": list(c.done), "signature": c.signature}] for k, c in s.checkpoints],
        "rules": [[r, {"kind": e.kind, "left": _term_json(e.left), "right": _term_json(e.right),
                       "join": _term_json(e.join), "region": e.region}] for r, e in s.rules],
        "rules_version": s.rules_version,
        "templates": [list(p) for p in s.templates],
        "actions": [[d, {"label": a.label, "request": a.request, "scope": a.scope}] for d, a in s.actions],
        "authorities": [list(p) for p in s.authorities],
        "requirements": [[r, rec.to_json()] for r, rec in s.requirements],
        "removals": [rec.to_json() for rec in s.removals],
        "calls": [[x, {"action": e.action, "region": e.region, "scope": e.scope, "digest": e.digest}]
                  for x, e in s.calls],
        "entries": [[x, {"entry": e.entry, "version": e.version, "token": e.token}] for x, e in s.entries],
        "processed": [{"call": p.call, "action": p.action, "mode": p.mode.value, "record": p.record,
                       "entry": p.entry, "token": p.token} for p in s.processed],
        "ver": s.ver, "eta": s.eta, "policy_version": s.policy_version,
        "log": [{"id": r.id, "action": r.action, "request": r.request, "creator": r.creator, "label": r.label,
                 "phase": r.phase, "value": r.value} for r in s.log],
        "out": [{"record": o.record, "sent": o.sent} for o in s.out],
        "versions": [list(p) for p in s.versions],
        "automaton": None if s.automaton is None else s.automaton.to_json(), "q": s.q,
        "installed": None if inst is None else {
            "edit": inst.edit, "digest": inst.digest, "tree": node_to_json(inst.tree), "chi_len": inst.chi_len,
            "instance": instance_json(inst.instance)},
        "prepared": [[v, {"edit": p.edit, "digest": p.digest, "from": p.eta_old, "automaton": p.automaton.to_json()}]
                     for v, p in s.prepared],
    }


def state_from_json(d: Any) -> State:
    inst = d["installed"]
    return State(
        domain=d["domain"], namespace=d["namespace"], next_id=d["next_id"],
        tree=None if d["tree"] is None else node_from_json(d["tree"]),
        policy=policy_from_json(d["policy"]), history=tuple(d["history"]), joined=frozenset(d["joined"]),
        checkpoints=tuple((k, Checkpoint(c["branch"], c["region"], term_from_doc(c["gamma"]), tuple(c["done"]),
                                         c["signature"])) for k, c in d["checkpoints"]),
        rules=tuple((r, EditRule(e["kind"], _term_doc(e["left"]), _term_doc(e["right"]), _term_doc(e["join"]),
                                 e["region"])) for r, e in d["rules"]),
        rules_version=d["rules_version"],
        templates=tuple((a, b) for a, b in d["templates"]),
        actions=tuple((k, ActionSpec(a["label"], a["request"], a["scope"])) for k, a in d["actions"]),
        authorities=tuple((a, b) for a, b in d["authorities"]),
        requirements=tuple((r, record_from_json(rec)) for r, rec in d["requirements"]),
        removals=tuple(record_from_json(rec) for rec in d["removals"]),
        calls=tuple((x, CallEntry(e["action"], e["region"], e["scope"], e["digest"])) for x, e in d["calls"]),
        entries=tuple((x, RuleEntry(e["entry"], e["version"], e["token"])) for x, e in d["entries"]),
        processed=tuple(Processed(p["call"], p["action"], Mode(p["mode"]), p["record"], p["entry"], p["token"])
                        for p in d["processed"]),
        ver=d["ver"], eta=d["eta"], policy_version=d["policy_version"],
        log=tuple(AuthRecord(r["id"], r["action"], r["request"], r["creator"], r["label"], r["phase"], r["value"])
                  for r in d["log"]),
        out=tuple(Queued(o["record"], o["sent"]) for o in d["out"]),
        versions=tuple((a, b) for a, b in d["versions"]),
        automaton=None if d["automaton"] is None else can_from_json(d["automaton"]), q=d["q"],
        installed=None if inst is None else Installed(inst["edit"], inst["digest"], node_from_json(inst["tree"]),
                                                      inst["chi_len"], instance_of_json(inst["instance"])),
        # stores written before Preload existed carry no "prepared" field
        prepared=tuple((v, Prepared(p["edit"], p["digest"], p["from"], can_from_json(p["automaton"])))
                       for v, p in d.get("prepared", [])),
    )


def request_digest(text: str) -> str:
    """digest(m°) of a stored canonical request (the digest of the JSON value, not of its text)."""
    return json_digest(loads(text, "<request>"))


def state_text(s: State) -> str:
    return canonical_str(state_to_json(s))


def state_from_text(text: str) -> State:
    return state_from_json(loads(text, "<store>"))


def state_digest(s: State) -> str:
    return json_digest(state_to_json(s))


def core_json(s: State) -> dict[str, Any]:
    """The state without inactive rule versions and their prepared content (what α_S and Θ see)."""
    d = state_to_json(s)
    assert isinstance(d, dict)
    inactive = {v for v, ph in s.versions if ph == "inactive"}
    del d["prepared"]
    d["versions"] = [[v, ph] for v, ph in s.versions if v not in inactive]
    return d


def record_digest(s: State, edit: JSON) -> str:
    """γ(Θ): the digest of the checked record together with the request (Appendix A-C), over
    ``core_json`` — inactive prepared data is not part of Θ (see the module docstring)."""
    return json_digest({"record": core_json(s), "edit": edit})
