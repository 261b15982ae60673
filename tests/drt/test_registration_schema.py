"""The policy schema's structural checks (Agenra Section 6.1's registration, what
corpus/schemas/policy.schema.json states): ``monitor check``'s validator against the oracle's
``policy_check``, whose verdict is the Lean judgment ``Schema.schemaOk`` and the registration checks
(model/oracle/drt_registration_schema.py). On structurally broken generated and corpus policies, the
whole verdict, the schema verdict and the place of the schema error must agree; every mutation kind and
both schema verdicts must be reached, so a generator that drifted to one side would fail.
Lone surrogates: neither side gives a verdict on a document holding one (Python refuses it as bad
input at its place, the oracle's parser refuses its text)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from model.base.errors import InvalidInput
from model.monitor.language.policy_json import policy_from_json, policy_to_json
from model.oracle.drt import report, save_vector
from model.oracle.drt_registration_schema import JUDGMENT, OPS, get, run_schema_case, schema_cases
from model.oracle.generators import json_paths, policies
from model.oracle.lean import LeanOracle
from model.oracle.results import Agree, Mismatch

pytestmark = pytest.mark.lean


def test_schema_structural(oracle: LeanOracle) -> None:
    kinds: dict[str, int] = {}

    @seed(20261208)
    @settings(max_examples=300, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(schema_cases())
    def body(case: tuple[str, tuple[str | int, ...], object]) -> None:
        res = run_schema_case(oracle, case)
        if isinstance(res, Mismatch):
            pytest.fail(f"{report(res)}\n(saved as {save_vector(res)})")
        assert isinstance(res, Agree)
        kinds[res.kind] = kinds.get(res.kind, 0) + 1

    body()
    ops = {k.split(":")[0] for k in kinds}
    assert set(OPS) <= ops, sorted(kinds)
    assert any("schema reject" in k for k in kinds) and any(k.endswith(": accept") for k in kinds), kinds
    # a rejection past the schema (a registration check) is reached too, and places were compared
    assert any(k.endswith(": reject") for k in kinds), kinds
    assert sum(n for k, n in kinds.items() if "path agreed" in k) >= 100, kinds


@st.composite
def surrogate_cases(draw: st.DrawFn) -> tuple[tuple[str | int, ...], object]:
    """A generated policy with one string value, drawn from every place holding one, given an unpaired
    surrogate; the place changed."""
    doc = policy_to_json(draw(policies()))
    strings = [at for at in json_paths(doc) if isinstance(get(doc, at), str)]
    at = draw(st.sampled_from(strings))
    lone = draw(st.sampled_from(["\ud800", "\udfff", "\udc00x"]))
    parent = get(doc, at[:-1])
    parent[at[-1]] = get(doc, at) + lone
    return at, doc


def test_lone_surrogates_refused_by_both(oracle: LeanOracle) -> None:
    seen = 0

    @seed(20261209)
    @settings(max_examples=60, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(surrogate_cases())
    def body(case: tuple[tuple[str | int, ...], object]) -> None:
        nonlocal seen
        at, doc = case
        with pytest.raises(InvalidInput) as exc:
            policy_from_json(doc)
        assert "unpaired surrogate" in str(exc.value), (at, str(exc.value))
        # the oracle's input is the request's JSON text, the surrogate escaped as \\uXXXX: its parser
        # refuses the line, so no verdict comes back (an error answer, and the oracle goes on serving)
        line = json.dumps({"id": 1, "judgment": JUDGMENT, "input": {"policy": doc}})
        resp = oracle.raw(line)
        assert "output" not in resp and resp["error"]["kind"] == "parse", resp
        # and the surrogate is why: the same line without its escape is answered
        assert "output" in oracle.raw(re.sub(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}", "", line)), line
        seen += 1

    body()
    assert seen > 0
