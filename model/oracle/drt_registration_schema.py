"""Differential test of the policy schema's structural checks (Agenra Section 6.1's registration, the
part ``corpus/schemas/policy.schema.json`` states): the oracle's ``policy_check`` (whose verdict is the
Lean judgment ``Schema.schemaOk`` and the registration checks, lean/AgentWarrant/Spec/Monitor/
RegistrationSchema.lean) against ``monitor check``'s validator, on structurally broken policies.

A case is a policy's JSON form, drawn from the generator (``model.oracle.generators.policies``) or from
the corpus (every policy under corpus/policies, text or JSON form), then one structural mutation at a
place drawn from every place of the document (every object, array, field and item, at every depth; the
root only gains an unknown field): the place deleted (a required field missing, an array item gone), an
unknown field added to an object, the value replaced by one of another type or shape (null, booleans,
integers, an integral and a fractional float, strings that are and are not names, with a final newline,
``"*"``, dotted names, empty and non-empty arrays and objects, an object with a valid ``kind``), an
array item duplicated, an array or object emptied.
Three things are compared: the whole verdict (Python's ``policy_from_json`` raising ``InvalidInput``
against Lean's ``ok``), the schema verdict alone (the reference validator, which decides
``model.base.schemas.validate``, against Lean's structural paths being empty), and, when both report a
structural error, the place: the path the reference reports (its ``best_match``, the one a user sees)
must be one of the places Lean reports. Python raising anything but ``InvalidInput`` is a mismatch too
(bad input must never be a traceback), and so is a rejection whose only error is the oracle decoder's.
``python -m model.oracle.drt_registration_schema --cases N [--seed S]`` runs a counted campaign.
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from jsonschema.exceptions import best_match

from model.base.errors import InvalidInput
from model.base.schemas import reference_validator
from model.monitor.language.policy_json import SCHEMA, policy_from_json, policy_to_json
from model.oracle.generators import json_paths, policies
from model.oracle.lean import shaped
from model.oracle.results import Agree, CaseResult, Mismatch

JUDGMENT = "policy_check"
CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "policies"
UNKNOWN = "zz_unknown"
# replacement values: every JSON type, names and non-names, integral and fractional numbers
POOL: tuple[Any, ...] = (None, True, False, 0, 1, -1, 2.0, 1.5, 2**53, "", "x", "a\n", "1x", "*", "policy",
                         "a.b", "a..b", [], ["x"], ["x", "x"], [1], {}, {"kind": "any"}, {"kind": "bogus"})
OPS = ("delete", "unknown field", "replace", "duplicate item", "empty")

Doc = Any
Place = tuple[str | int, ...]


@functools.cache
def corpus_docs() -> tuple[str, ...]:
    """The corpus policies' JSON forms, as text (so a case can never share structure with the cache)."""
    import json

    from model.monitor.language.syntax import load_policy

    return tuple(json.dumps(policy_to_json(load_policy(p))) for p in sorted(CORPUS.iterdir())
                 if p.suffix in (".policy", ".json"))


def get(doc: Doc, at: Place) -> Doc:
    for k in at:
        doc = doc[k]
    return doc


def mutate(doc: Doc, op: str, at: Place, value: Any) -> str:
    """Apply ``op`` at ``at`` in place; the operation applied (``replace`` when ``op`` has no target there)."""
    target = get(doc, at)
    if op == "delete" and at:
        parent = get(doc, at[:-1])
        del parent[at[-1]]
        return op
    if op == "unknown field" and isinstance(target, dict):
        target[UNKNOWN] = value
        return op
    if op == "duplicate item" and isinstance(target, list) and target:
        target.append(copy.deepcopy(target[0]))
        return op
    if op == "empty" and isinstance(target, (list, dict)) and target:
        target.clear()
        return op
    if not at:
        return "none"
    get(doc, at[:-1])[at[-1]] = copy.deepcopy(value)
    return "replace"


@st.composite
def schema_cases(draw: st.DrawFn) -> tuple[str, Place, Doc]:
    import json

    if draw(st.booleans()):
        doc = copy.deepcopy(policy_to_json(draw(policies())))
    else:
        doc = json.loads(draw(st.sampled_from(corpus_docs())))
    op = draw(st.sampled_from(OPS))
    # the root only gains an unknown field: any other change there leaves nothing of the policy to check
    at = draw(st.sampled_from(json_paths(doc) if op == "unknown field" else json_paths(doc)[1:]))
    done = mutate(doc, op, at, draw(st.sampled_from(POOL)))
    return done, at, doc


def python_side(doc: Doc) -> dict[str, Any]:
    """Python's verdicts: the whole check, the schema alone and the path of the schema error it reports."""
    err = best_match(reference_validator(SCHEMA).iter_errors(doc))
    out: dict[str, Any] = {"schema_ok": err is None,
                           "schema_path": None if err is None else [str(p) for p in err.absolute_path]}
    try:
        policy_from_json(doc)
        out["ok"] = True
    except InvalidInput as exc:
        out["ok"] = False
        out["error"] = str(exc)[:300]
    except Exception as exc:  # a traceback on bad input is the finding
        out["ok"] = None
        out["crash"] = f"{type(exc).__name__}: {exc}"[:300]
    return out


def lean_view(o: Any) -> dict[str, Any]:
    return {"ok": bool(o["ok"]), "errors": [str(e) for e in o["errors"]],
            "schema": [[str(k) for k in p] for p in o["schema"]]}


def run_schema_case(oracle: Any, case: tuple[str, Place, Doc]) -> CaseResult:
    op, at, doc = case
    payload = {"policy": doc}
    py = python_side(doc)
    lean = shaped(JUDGMENT, oracle.call(JUDGMENT, payload), lean_view)
    inputs = {"mutation": op, "place": list(at), "policy": doc}

    def mismatch(what: str) -> Mismatch:
        return Mismatch(JUDGMENT, (what,), inputs, payload, py, lean)

    if py["ok"] is None:
        return mismatch("python crash")
    if lean["ok"] == bool(lean["errors"]):  # the verdict and the failed-check list are computed apart
        return mismatch("errors")
    if lean["errors"] and all(e.startswith("decoding") for e in lean["errors"]):
        return mismatch("decoder alone")  # the verdict would rest on the decoder, not a stated check
    lean_schema_ok = not lean["schema"]
    if py["schema_ok"] != lean_schema_ok:
        return mismatch("schema")
    if py["ok"] != lean["ok"]:
        return mismatch("ok")
    where = ""
    if not py["schema_ok"]:
        if py["schema_path"] not in lean["schema"]:
            return mismatch("schema path")
        where = " (path agreed)"
    verdict = "accept" if py["ok"] else ("schema reject" if not py["schema_ok"] else "reject")
    return Agree(f"{op}: {verdict}{where}")


def campaign(oracle: Any, cases: int, seed_value: int) -> tuple[dict[str, int], list[Mismatch]]:
    """``cases`` drawn cases: the count of each agreement kind, and every mismatch."""
    from hypothesis import HealthCheck, Phase, given, seed, settings

    kinds: dict[str, int] = {}
    mismatches: list[Mismatch] = []

    @seed(seed_value)
    @settings(max_examples=cases, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(schema_cases())
    def body(case: tuple[str, Place, Doc]) -> None:
        res = run_schema_case(oracle, case)
        if isinstance(res, Mismatch):
            mismatches.append(res)
        elif isinstance(res, Agree):
            kinds[res.kind] = kinds.get(res.kind, 0) + 1

    body()
    return kinds, mismatches


def main() -> None:
    """``python -m model.oracle.drt_registration_schema --cases N --seed S``: a campaign's counts."""
    import argparse

    from model.oracle.drt import report
    from model.oracle.lean import LeanOracle
    from model.oracle.toolchain import oracle_path

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--cases", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=20261208)
    ap.add_argument("--oracle", type=Path, default=None, help="the oracle executable (default: the built one)")
    args = ap.parse_args()
    with LeanOracle(args.oracle or oracle_path()) as oracle:
        kinds, mismatches = campaign(oracle, args.cases, args.seed)
    for m in mismatches:
        print(report(m))
    total = sum(kinds.values()) + len(mismatches)
    print(f"{total} cases, {len(mismatches)} mismatches")
    for k in sorted(kinds):
        print(f"  {kinds[k]:5d}  {k}")
    raise SystemExit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
