"""Schemas and loaders agree in one direction: whatever a loader accepts, its JSON Schema in
corpus/schemas accepts (loaders add semantic checks the schemas cannot state, such as an approve
rule requiring an approval signal, so the converse is not claimed)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.admission.decision.approvals import load_approval
from model.admission.decision.signed_policy import load_policy
from model.admission.resumable.envelope import load_request
from model.admission.resumable.tenant_policy import load_tenant_policies
from model.base.errors import InvalidInput
from model.oracle.generators import json_paths

ROOT = Path(__file__).resolve().parents[2]
CASES: list[tuple[str, str, Callable[[object], object]]] = [
    ("refunds.policy.json", "admission_signed_policy", load_policy),
    ("approval_order-1.json", "admission_approval", load_approval),
    ("request_publish_report.json", "admission_request", load_request),
    ("tenant_policies.json", "admission_tenant_policies", load_tenant_policies),
]
DOCS = [(json.loads((ROOT / "corpus" / "admission" / f).read_text()),
         json.loads((ROOT / "corpus" / "schemas" / f"{s}.schema.json").read_text()), load) for f, s, load in CASES]
leaf = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(-1e3, 1e3), st.text(max_size=6),
                 st.just({}), st.just([]))




@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_loader_accepted_implies_schema_valid(data: st.DataObject) -> None:
    valid, sch, load = data.draw(st.sampled_from(DOCS))
    doc = copy.deepcopy(valid)
    where = data.draw(st.sampled_from(json_paths(doc)[1:]))
    parent = doc
    for p in where[:-1]:
        parent = parent[p]
    if isinstance(parent, dict) and data.draw(st.booleans()):
        del parent[where[-1]]
    else:
        parent[where[-1]] = data.draw(leaf)
    try:
        load(doc)
    except InvalidInput:
        return
    jsonschema.validate(doc, sch)
