"""Every JSON policy in the corpus validates against its schema and equals its text twin."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from model.monitor.policy_json import policy_from_json
from model.monitor.syntax import load_policy

ROOT = Path(__file__).resolve().parents[2]
POLICY_SCHEMA = ROOT / "corpus" / "schemas" / "policy.schema.json"
JSON_POLICIES = sorted((ROOT / "corpus" / "policies").glob("*.json"))


def test_policy_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(json.loads(POLICY_SCHEMA.read_text(encoding="utf-8")))


def test_there_is_at_least_one_json_policy() -> None:
    assert JSON_POLICIES, "corpus/policies/report.json is expected"


@pytest.mark.parametrize("path", JSON_POLICIES, ids=[p.name for p in JSON_POLICIES])
def test_json_policy_validates_and_equals_its_text_form(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    schema = json.loads(POLICY_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    twin = path.with_suffix(".policy")
    assert twin.exists(), f"{path.name} has no {twin.name}"
    assert policy_from_json(doc, str(path)) == load_policy(twin)
