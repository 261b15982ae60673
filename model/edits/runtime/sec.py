"""``Sec(S) = (P, I, E, C)``, ``Keep_J``, ``Drop_ca`` and ``Drop_ra``: the four parts of the checked
record and the views that omit one fact (*Exact Checking for Execution Edits*, Section VII "What the checker
must know" and Appendix A-F).

The committed state (``model.edits.runtime.record_json.state_to_json``) is split field by field:

- **P** workflow and required results: the tree's shape with each leaf's region and Γ_b (not its
  progress), checkpoints' branch, region and Γ, edit rules, authorities, requirement and removal
  records, the recorded DAG G and the joined groups;
- **I** which calls refer to the same action: call templates, actions (label, request, scope), ρ;
- **E** authorizations and progress: each leaf's and checkpoint's progress, χ, Δ, ``out``, 𝒜 and
  the automaton state ``q``;
- **C** versions: the namespace and counter, ``ver``, η and the versions' phases, κ and ζ.

Everything else is *computed* from these parts (the installed checked origin with γ, the automaton,
the rule entries and the tokens — also the entry and token kept in χ for each processed call, whose
entry ID ``η/x`` names the rule version and whose token signs action and version — and the content a
Preload prepared in an inactive version): ``Keep_J`` removes it unless ``J`` is
all four parts, because a computed value could reconstruct an omitted fact. ``Drop_ra`` keeps all
four parts but removes the correspondence between authorization records and actions and everything
that reconstructs it: the records' action and request, the action of each record's creator call (in
ρ, its template and χ), and the letters recorded in G. ``Drop_ca`` removes every call → action link.

Choice where the paper is silent: the runtime's public key is registered among the authorities
(P); the domain name is kept in every view.
"""

from __future__ import annotations

import copy
from typing import Any

from model.base.canonical import JSON
from model.edits.runtime.record import State
from model.edits.runtime.record_json import state_to_json

PARTS = ("P", "I", "E", "C")


def _split_tree(node: Any, progress: dict[str, Any]) -> Any:
    if node is None:
        return None
    if "leaf" in node:
        progress[node["leaf"]] = node["done"]
        return {k: v for k, v in node.items() if k != "done"}
    if "arms" in node:
        return {**node, "arms": [[a, _split_tree(t, progress)] for a, t in node["arms"]]}
    key = "seq" if "seq" in node else "parts"
    return {**node, key: [_split_tree(t, progress) for t in node[key]]}


def sec(s: State) -> dict[str, JSON]:
    d: dict[str, Any] = copy.deepcopy(state_to_json(s))
    progress: dict[str, Any] = {}
    tree = _split_tree(d["tree"], progress)
    ck_shape = [[k, {f: v for f, v in c.items() if f != "done"}] for k, c in d["checkpoints"]]
    ck_done = {k: c["done"] for k, c in d["checkpoints"]}
    # a processed call's token and rule entry name its rule version (C): computed, like the live entries
    used = [{"entry": p.pop("entry"), "token": p.pop("token")} for p in d["processed"]]
    return {
        "domain": d["domain"],
        "P": {"tree": tree, "checkpoints": ck_shape, "rules": d["rules"], "authorities": d["authorities"],
              "requirements": d["requirements"], "removals": d["removals"], "history": d["history"],
              "joined": d["joined"]},
        "I": {"templates": d["templates"], "actions": d["actions"], "calls": d["calls"]},
        "E": {"progress": progress, "checkpoint_progress": ck_done, "processed": d["processed"], "log": d["log"],
              "out": d["out"], "policy": d["policy"], "q": d["q"]},
        "C": {"namespace": d["namespace"], "next_id": d["next_id"], "ver": d["ver"], "eta": d["eta"],
              "versions": d["versions"], "policy_version": d["policy_version"], "rules_version": d["rules_version"]},
        "computed": {"installed": d["installed"], "automaton": d["automaton"], "entries": d["entries"],
                     "used": used, "prepared": d["prepared"]},
    }


def keep(s: State, parts: tuple[str, ...]) -> dict[str, JSON]:
    """``Keep_J``: the parts in ``J``, and the computed values only when nothing is omitted."""
    v = sec(s)
    out: dict[str, JSON] = {"domain": v["domain"], **{p: v[p] for p in parts}}
    if set(parts) == set(PARTS):
        out["computed"] = v["computed"]
    return out


def omit(s: State, part: str) -> dict[str, JSON]:
    return keep(s, tuple(p for p in PARTS if p != part))


def drop_ra(s: State) -> dict[str, JSON]:
    """Everything but the link from authorization records to actions (and what reconstructs it)."""
    v: dict[str, Any] = sec(s)
    creators = {r["creator"] for r in v["E"]["log"]}
    for r in v["E"]["log"]:
        r["action"] = r["request"] = None
    for p in v["E"]["processed"]:
        if p["call"] in creators or p["mode"] == "reuse":
            p["action"] = None
    for x, e in v["I"]["calls"]:
        if x in creators:
            e["action"] = e["digest"] = None
    bases = {x.split("+", 1)[0].split("@", 1)[0] for x in creators}
    v["I"]["templates"] = [[t, None if t in bases else d] for t, d in v["I"]["templates"]]
    v["P"]["history"] = [h.rsplit(",", 1)[0] if h.startswith("step ") else h for h in v["P"]["history"]]
    del v["computed"]
    return v


def drop_ca(s: State) -> dict[str, JSON]:
    """Everything but the links from workflow calls to actions."""
    v: dict[str, Any] = sec(s)
    for _, e in v["I"]["calls"]:
        e["action"] = e["digest"] = None
    v["I"]["templates"] = [[t, None] for t, _ in v["I"]["templates"]]
    for p in v["E"]["processed"]:
        p["action"] = None
    v["P"]["history"] = [h.rsplit(",", 1)[0] if h.startswith("step ") else h for h in v["P"]["history"]]
    del v["computed"]
    return v
