"""The paper's runtime scenarios as session scripts (*Exact Checking for Execution Edits*, Sections II, III,
Figure 1 and Appendix A-G, Table II), written to ``corpus/edits/sessions/`` by
``python -m model.edits.runtime.session_corpus``.

Keys are derived from fixed seeds (``sha256(name)``) so the scripts, their signatures and the
tokens the runtime issues are reproducible; a test checks that the committed corpus equals what
this module generates. Every record pair of Table II is two scripts that reach their states by
runtime steps from the empty state and end with the pair's query.

Choices where the paper is silent: the laptop workflow is ``xr ▷ xa`` (reserve budget, approve),
then a ForkChoice rule adds ``pL ▷ sL`` / ``pR ▷ sR`` (the two shipment calls share action ``ds``);
the Restore is RestoreLive of checkpoint ``k0`` (taken after the reservation) into the supplier-L
arm, so the restored approval ``xa@b6`` is a copy of ``xa``; removing the L arm for MergeSelect
of R needs the school's signed removal, added by a registered extension.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from model.base.signing import KeyPair
from model.edits.runtime.requirements import sign_record

SESSIONS = Path(__file__).resolve().parents[3] / "corpus" / "edits" / "sessions"


def authority(name: str) -> KeyPair:
    return KeyPair(name, Ed25519PrivateKey.from_private_bytes(hashlib.sha256(name.encode()).digest()))


def seed(name: str) -> str:
    return hashlib.sha256(f"runtime:{name}".encode()).hexdigest()


def seq_term(*calls: str) -> dict[str, Any]:
    return {"seq": [{"call": c} for c in calls]} if calls else {"nil": True}


def registration(domain: str, policy: dict[str, Any], actions: dict[str, tuple[str, Any]],
                 templates: dict[str, str], rules: dict[str, Any], root: dict[str, Any],
                 regions: dict[str, str], name: str, namespace: str = "v") -> dict[str, Any]:
    keys = {a: authority(a) for a in sorted(set(regions.values()))}
    return {
        "domain": domain, "namespace": namespace, "seed": seed(name), "policy": policy,
        "templates": templates,
        "actions": {d: {"label": lab, "request": req, "scope": domain} for d, (lab, req) in actions.items()},
        "authorities": {a: base64.b64encode(k.public).decode("ascii") for a, k in keys.items()},
        "requirements": {r: {"authority": a, "signature": sign_record(keys[a], "requirement", r, domain).signature}
                         for r, a in regions.items()},
        "rules": rules, "root": {"region": "root" if "root" in regions else next(iter(regions)), "contract": root},
    }


def removal(domain: str, target: str, who: str) -> dict[str, str]:
    return {"target": target, "authority": who, "signature": sign_record(authority(who), "removal", target,
                                                                         domain).signature}


LAPTOP_ACTIONS = {"dr": ("r", {"tool": "budget", "op": "reserve", "amount": 1200}),
                  "da": ("a", {"tool": "approval", "op": "approve", "purchase": 42}),
                  "dLp": ("pL", {"tool": "pay", "supplier": "L", "purchase": 42}),
                  "dRp": ("pR", {"tool": "pay", "supplier": "R", "purchase": 42}),
                  "ds": ("s", {"tool": "ship", "purchase": 42})}


def laptop() -> dict[str, Any]:
    d = "purchase"
    rules = {"fork": {"kind": "fork-choice", "left": seq_term("pL", "sL"), "right": seq_term("pR", "sR")},
             "both": {"kind": "fork-parallel", "left": seq_term("pL", "sL"), "right": seq_term("pR", "sR")},
             "restore": {"kind": "restore-live"}, "select": {"kind": "merge-select"},
             "join": {"kind": "merge-join"}}
    reg = registration(d, {"maximal": [["r", "a", "pL", "s"], ["r", "a", "pR", "s"]]}, LAPTOP_ACTIONS,
                       {"xr": "dr", "xa": "da", "pL": "dLp", "sL": "ds", "pR": "dRp", "sR": "ds"}, rules,
                       seq_term("xr", "xa"), {"purchase": "school"}, "laptop")
    select_r = {"edit": "merge-select", "group": "g4", "arm": "R", "rule": "select"}
    steps = [
        {"use": "xr", "expect": "new"},
        {"checkpoint": "k0", "branch": "b0", "expect": "saved"},
        {"use": "xa", "expect": "new"},
        {"check": {"edit": "fork-parallel", "branch": "b0", "rule": "both"}, "expect": "rejected"},
        {"update": {"edit": "fork-choice", "branch": "b0", "rule": "fork"}, "expect": "updated"},
        {"update": {"edit": "restore-live", "branch": "b2", "checkpoint": "k0", "rule": "restore"},
         "expect": "updated"},
        {"check": select_r, "expect": "invalid"},
        {"update": {"edit": "extend", "removals": [removal(d, "g4.L", "school")]}, "expect": "updated"},
        {"check": select_r, "as": "Y", "expect": "accepted"},
        {"use": "xa@b6", "expect": "reuse"},
        {"update": select_r, "answer": "Y", "expect": "no-commit"},
        {"check": select_r, "expect": "invalid"},
        {"update": {"edit": "merge-select", "group": "g4", "arm": "L", "rule": "select"}, "expect": "updated"},
        {"use": "pR+b3", "expect": "deny"},
        {"use": "pL+b2", "expect": "new"},
        {"dispatch": True, "expect": "sent"},
        {"restart": True},
        {"retry": "xa@b6", "expect": "returned"},
        {"use": "sL+b2", "expect": "new"},
        {"dispatch": True, "expect": "sent"},
        {"dispatch": True, "expect": "sent"},
        {"dispatch": True, "expect": "sent"},
        {"dispatch": True, "expect": "queue-empty"},
        {"settle": "da", "value": {"approved": True}, "expect": "settled"},
        {"retry": "xa@b6", "expect": "returned"},
        {"use": "xa@b6", "expect": "deny"},
    ]
    return {"description": "Sections II-III and Figure 1: the laptop purchase. Reserve, checkpoint k0, approve; a "
                           "parallel fork paying both suppliers is rejected; ForkChoice keeps both supplier results; "
                           "RestoreLive of k0 into the L arm copies the approval as xa@b6; with the school's signed "
                           "removal of arm L, MergeSelect(R) is accepted, but the restored approval is then processed "
                           "as a reuse (no new authorization), so the accepted answer no longer commits and a re-check "
                           "finds the L arm selected; MergeSelect(L) takes effect instead.",
            "registration": reg, "steps": steps}


def playground(policy: dict[str, Any] | None = None, name: str = "play") -> dict[str, Any]:
    """A small registration exercising every rule form: root ``xa ▷ xb``; forks add ``xc`` / ``xj``;
    MergeSelect adds ``xj``; the default policy allows every word over a, b, c, j."""
    rules = {"fc": {"kind": "fork-choice", "left": seq_term("xc"), "right": seq_term("xj")},
             "fp": {"kind": "fork-parallel", "left": seq_term("xc"), "right": seq_term("xj")},
             "rr": {"kind": "restore-replace"}, "rl": {"kind": "restore-live"},
             "ms": {"kind": "merge-select", "join": seq_term("xj")}, "mj": {"kind": "merge-join"}}
    acts = {"da": ("a", {"op": "a"}), "db": ("b", {"op": "b"}), "dc": ("c", {"op": "c"}), "dj": ("j", {"op": "j"})}
    pol = policy or {"regex": "(a|b|c|j)*", "prefix_closure": True}
    reg = registration("play", pol, acts, {"xa": "da", "xb": "db", "xc": "dc", "xj": "dj"}, rules,
                       seq_term("xa", "xb"), {"root": "owner"}, name)
    return {"description": "playground", "registration": reg, "steps": []}


def preload() -> dict[str, Any]:
    """Table III "Preload" on the playground: a prepared answer stays fresh (γ omits inactive content)
    and is installed by the update; a tool call, not the preload, makes a prepared answer stale."""
    fork = {"edit": "fork-choice", "branch": "b0", "rule": "fc"}
    par = {"edit": "fork-parallel", "branch": "b2", "rule": "fp"}
    steps = [
        {"preload": {"edit": "fork-choice", "branch": "nope", "rule": "fc"}, "expect": "no-commit"},
        {"check": fork, "as": "Y", "expect": "accepted"},
        {"preload": fork, "answer": "Y", "expect": "preloaded"},
        {"preload": fork, "answer": "Y", "expect": "preloaded"},
        {"use": "xa", "expect": "new"},
        {"update": fork, "answer": "Y", "expect": "no-commit"},
        {"check": fork, "as": "Z", "expect": "accepted"},
        {"preload": fork, "answer": "Z", "expect": "preloaded"},
        {"restart": True},
        {"update": fork, "answer": "Z", "expect": "updated"},
        {"preload": {"edit": "merge-join", "group": "g4", "rule": "mj"}, "expect": "no-commit"},
        {"preload": par, "expect": "preloaded"},
        {"use": "xb@b2", "expect": "new"},
        {"update": {"edit": "extend"}, "expect": "updated"},
        {"update": par, "expect": "updated"},
        {"dispatch": True, "expect": "sent"},
    ]
    script = playground(name="preload")
    return {**script, "steps": steps,
            "description": "Table III Preload on the playground (xa ▷ xb; ForkChoice adds xc / xj): preloading an "
                           "Invalid answer is no-commit; a ForkChoice answer Y is prepared in the inactive version "
                           "v5 (twice: the second changes nothing); the tool call xa, not the preload, makes Y stale; "
                           "the fresh answer Z is prepared, survives a restart and is installed by the update; a "
                           "MergeJoin of the choice group is Invalid and not prepared; a ForkParallel of arm b2 is "
                           "prepared in v9, made stale by the tool call xb@b2, and dropped when an Extend takes "
                           "effect as v6; the ForkParallel, checked afresh, then takes effect as v10."}
