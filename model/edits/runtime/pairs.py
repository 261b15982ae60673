"""Table II: five record pairs that become identical when one part of the record is omitted but
require opposite answers (*Exact Checking for Execution Edits*, Section VII and Appendices A-F, A-G).

Each pair is two session scripts reaching ``V⁰`` and ``V¹`` by runtime steps from the empty state
(registration, root update, ForkChoice/ForkParallel, Checkpoint, a ``new`` use, Dispatch) and the
query both records receive. The omissions themselves are ``model.edits.runtime.sec``.

- **P** (workflow): ``X ⊕_g Y`` vs ``X ∥_g Y``; query ``Decide(MergeSelect(g, L, σ))``:
  safe vs ``Invalid`` (wrong mode). Both records carry the owner's signed removal of arm/part ``R``.
- **I** (same action): ``q_act(x) = q_act(y) = d0`` vs ``d0 ≠ d1``, ``ℓ = a``, 𝒜 = ↓{a}; query
  ``Decide(RestoreLive(b_L, k, σ))``: one ``new``, accept vs two ``new``, reject ``aa``.
- **E** (progress): after ``new(c)``, ``Y₀ = Check(RestoreReplace(b_L, k, σ))`` at ``V⁰``;
  ``V¹ = Dispatch(V⁰)``; query ``TryUpdate(u, Y₀)``: takes effect vs ``NoCommit``.
- **ra** (which action a prior authorization names): ``q_act(c) = d, p ↦ d`` vs ``e, p ↦ e`` with
  ``q_act(x) = d``; query ``Decide(RestoreReplace(b_L, k, σ))``: reuse, accept vs new, reject ``aa``.
- **C** (active rule version): the same registration with rule-version namespaces ``v`` and ``w``;
  query ``TryUpdate(u₀, Y₀)`` with ``Y₀`` checked at ``V⁰``: takes effect vs ``NoCommit``.

Choice where the paper is silent: group, branch and checkpoint names are the ones the runtime
allocates (``g4``, ``b2``, ``b3``, ``k0``), identical in both records of a pair, so no renaming is
needed before comparing the reduced records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from model.edits.runtime.scenarios import registration, removal, seq_term

FORK: dict[str, Any] = {"edit": "fork-choice", "branch": "b0", "rule": "fork"}


@dataclass(frozen=True, slots=True)
class Pair:
    part: str  # P, I, E, ra, C
    v0: dict[str, Any]  # script reaching V⁰ (its query steps excluded)
    v1: dict[str, Any]
    query: dict[str, Any]  # the query step, for both records
    cross: bool  # the query's answer Y₀ is checked at V⁰ and then submitted to both records
    answers: tuple[str, str]  # the correct answers at V⁰ and V¹


def _script(desc: str, reg: dict[str, Any], steps: list[dict[str, Any]]) -> dict[str, Any]:
    return {"description": desc, "registration": reg, "steps": steps}


def _reg(name: str, templates: dict[str, str], actions: dict[str, tuple[str, Any]], rules: dict[str, Any],
         policy: dict[str, Any], namespace: str = "v") -> dict[str, Any]:
    return registration("table2", policy, actions, templates, rules, {"nil": True}, {"root": "owner"}, name,
                        namespace)


def pairs() -> dict[str, Pair]:
    down_a = {"maximal": [["a"]]}
    out: dict[str, Pair] = {}

    rules_p = {"fork": {"kind": "fork-choice", "left": seq_term("x"), "right": seq_term("y")},
               "forkpar": {"kind": "fork-parallel", "left": seq_term("x"), "right": seq_term("y")},
               "select": {"kind": "merge-select"}}
    acts_p = {"dx": ("x", {"op": "x"}), "dy": ("y", {"op": "y"})}
    reg_p = _reg("pairP", {"x": "dx", "y": "dy"}, acts_p, rules_p, {"maximal": [["x", "y"], ["y", "x"]]})
    rm = {"edit": "extend", "removals": [removal("table2", "g4.R", "owner")]}
    out["P"] = Pair("P", _script("Table II, P, V0: X ⊕ Y", reg_p, [{"update": FORK}, {"update": rm}]),
                    _script("Table II, P, V1: X ∥ Y", reg_p,
                            [{"update": {"edit": "fork-parallel", "branch": "b0", "rule": "forkpar"}},
                             {"update": rm}]),
                    {"check": {"edit": "merge-select", "group": "g4", "arm": "L", "rule": "select"}}, False,
                    ("accepted", "invalid"))

    rules_i = {"fork": {"kind": "fork-choice", "left": seq_term("x"), "right": seq_term("y")},
               "restore": {"kind": "restore-live"}}
    acts_i = {"d0": ("a", {"op": "d0"}), "d1": ("a", {"op": "d1"})}
    steps_i: list[dict[str, Any]] = [{"update": FORK}, {"checkpoint": "k0", "branch": "b3"}]
    out["I"] = Pair("I", _script("Table II, I, V0: x and y refer to one action",
                                 _reg("pairI", {"x": "d0", "y": "d0"}, acts_i, rules_i, down_a), steps_i),
                    _script("Table II, I, V1: x and y refer to two actions",
                            _reg("pairI", {"x": "d0", "y": "d1"}, acts_i, rules_i, down_a), steps_i),
                    {"check": {"edit": "restore-live", "branch": "b2", "checkpoint": "k0", "rule": "restore"}},
                    False, ("accepted", "rejected"))

    rules_e = {"fork": {"kind": "fork-choice", "left": seq_term("c"), "right": seq_term("x")},
               "restore": {"kind": "restore-replace"}}
    restore = {"edit": "restore-replace", "branch": "b2", "checkpoint": "k0", "rule": "restore"}
    reg_e = _reg("pairE", {"c": "d", "x": "d"}, {"d": ("a", {"op": "d"})}, rules_e, down_a)
    steps_e: list[dict[str, Any]] = [{"update": FORK}, {"checkpoint": "k0", "branch": "b3"}, {"use": "c+b2"}]
    out["E"] = Pair("E", _script("Table II, E, V0: after new(c)", reg_e, steps_e),
                    _script("Table II, E, V1: V0 then Dispatch", reg_e, [*steps_e, {"dispatch": True}]),
                    {"update": restore}, True, ("updated", "no-commit"))

    acts_ra = {"d": ("a", {"op": "d"}), "e": ("a", {"op": "e"})}
    out["ra"] = Pair("ra", _script("Table II, Drop_ra, V0: p names d",
                                   _reg("pairRA", {"c": "d", "x": "d"}, acts_ra, rules_e, down_a), steps_e),
                     _script("Table II, Drop_ra, V1: p names e",
                             _reg("pairRA", {"c": "e", "x": "d"}, acts_ra, rules_e, down_a), steps_e),
                     {"check": restore}, False, ("accepted", "rejected"))

    steps_c = [{"checkpoint": "k0", "branch": "b0"}]
    out["C"] = Pair("C", _script("Table II, C, V0: rule versions v…", _reg("pairC", {"c": "d", "x": "d"},
                                                                           {"d": ("a", {"op": "d"})}, rules_e,
                                                                           down_a, "v"), steps_c),
                    _script("Table II, C, V1: rule versions w…", _reg("pairC", {"c": "d", "x": "d"},
                                                                      {"d": ("a", {"op": "d"})}, rules_e,
                                                                      down_a, "w"), steps_c),
                    {"update": FORK}, True, ("updated", "no-commit"))
    return out


def pair_scripts() -> dict[str, dict[str, Any]]:
    """Corpus scripts: each record's script with the query; for the cross pairs the query on V¹ uses
    the answer checked at V⁰ only where the script itself passes through V⁰ (the E pair)."""
    out: dict[str, dict[str, Any]] = {}
    for name, p in pairs().items():
        for i, (script, expect) in enumerate(((p.v0, p.answers[0]), (p.v1, p.answers[1]))):
            steps = list(script["steps"])
            if "check" in p.query:
                steps.append({**p.query, "expect": expect})
            elif name == "E":
                steps.insert(3, {"check": restore_step(), "as": "Y0", "expect": "accepted"})
                steps.append({"update": p.query["update"], "answer": "Y0", "expect": expect})
            elif i == 0:
                steps.append({**p.query, "expect": expect})
            out[f"table2_{name}_v{i}"] = {**script, "steps": steps}
    return out


def restore_step() -> dict[str, Any]:
    return {"edit": "restore-replace", "branch": "b2", "checkpoint": "k0", "rule": "restore"}
