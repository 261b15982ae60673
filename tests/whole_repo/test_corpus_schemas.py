"""Every JSON policy in the corpus validates against its schema and equals its text twin."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from model.monitor.language.policy_json import policy_from_json
from model.monitor.language.syntax import load_policy

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


SEARCH_SCHEMAS = ("search_model.schema.json", "search_manifest.schema.json", "admission_hold.schema.json")
SEARCH_MODELS = sorted(p for p in (ROOT / "corpus" / "search").glob("*.json") if p.name != "manifest.json")


@pytest.mark.parametrize("name", SEARCH_SCHEMAS)
def test_search_schemas_are_valid_draft_2020_12(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(json.loads((ROOT / "corpus" / "schemas" / name).read_text("utf-8")))


@pytest.mark.parametrize("path", SEARCH_MODELS, ids=[p.name for p in SEARCH_MODELS])
def test_search_model_validates_and_loads(path: Path) -> None:
    from model.search.load import load_model
    from model.search.system import admission

    doc = json.loads(path.read_text("utf-8"))
    if admission.is_system_file(doc):  # a generic system model (model/search/system), its own schema and loader
        schema = json.loads((ROOT / "corpus" / "schemas" / "admission_hold.schema.json").read_text("utf-8"))
        jsonschema.Draft202012Validator(schema).validate(doc)
        assert admission.load(path).properties
        return
    schema = json.loads((ROOT / "corpus" / "schemas" / "search_model.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    assert load_model(path).queries


def test_search_manifest_validates_and_names_existing_files() -> None:
    manifest = ROOT / "corpus" / "search" / "manifest.json"
    schema = json.loads((ROOT / "corpus" / "schemas" / "search_manifest.schema.json").read_text("utf-8"))
    doc = json.loads(manifest.read_text("utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    for row in doc["rows"]:
        assert (manifest.parent / row["model"]).exists(), row
        assert (manifest.parent / row["policy"]).exists() if "policy" in row else \
            json.loads((manifest.parent / row["model"]).read_text("utf-8")).get("kind") == "admission-hold", row


REVISIONS = ROOT / "corpus" / "revisions"
REVISION_WORKLOADS = sorted((REVISIONS / "workloads").glob("*.json"))


def test_revision_manifest_validates_and_names_existing_files() -> None:
    schema = json.loads((ROOT / "corpus" / "schemas" / "revision_manifest.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    doc = json.loads((REVISIONS / "manifest.json").read_text("utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    for base in doc["bases"].values():
        assert (REVISIONS / base["policy"]).exists() and (REVISIONS / base["workload"]).exists(), base
    for rev in doc["revisions"]:
        assert rev["base"] in doc["bases"] and (REVISIONS / rev["new"]).exists(), rev["id"]


@pytest.mark.parametrize("path", REVISION_WORKLOADS, ids=[p.name for p in REVISION_WORKLOADS])
def test_revision_workload_validates(path: Path) -> None:
    schema = json.loads((ROOT / "corpus" / "schemas" / "revision_workload.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(json.loads(path.read_text("utf-8")))
