"""The JSON instance loader and the ``agentwarrant edit check`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from model.base.errors import InputKind, InvalidInput
from model.edits.check.instance import instance_to_json
from model.edits.check.load_instance import load_instance_text
from model.shell.cli import main

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "edits"
BASE = json.loads((CORPUS / "release_reject.json").read_text())


def _err(doc: object) -> InvalidInput:
    with pytest.raises(InvalidInput) as exc:
        load_instance_text(json.dumps(doc), "inst.json")
    return exc.value


def test_schema_errors_carry_the_json_path() -> None:
    doc = dict(BASE, contract={"par": [{"call": "x"}, {"call": 3}]})
    e = _err(doc)
    assert e.kind is InputKind.SCHEMA and "$.contract" in str(e)
    e2 = _err(dict(BASE, policy={"maximal": [["x", 1]]}))
    assert e2.kind is InputKind.SCHEMA and "$.policy" in str(e2)


def test_reference_errors() -> None:
    e = _err(dict(BASE, calls={"x": "deploy", "y": "approve"}))
    assert e.kind is InputKind.REFERENCE and "call z" in e.expected
    e2 = _err(dict(BASE, labels={"deploy": "x", "approve": "y"}))
    assert e2.kind is InputKind.REFERENCE and "$.calls.z" in str(e2)
    e3 = _err(dict(BASE, log=["nope"]))
    assert "$.log[0]" in str(e3)


def test_non_prefix_closed_policy_is_refused() -> None:
    e = _err(dict(BASE, policy={"regex": "x z"}))
    assert e.kind is InputKind.VALUE and "closed under truncation" in e.expected and "$.policy" in str(e)
    e2 = _err(dict(BASE, policy={"automaton": {"states": 2, "initial": 0, "accepting": [1],
                                               "transitions": [[0, "x", 1]]}}))
    assert "closed under truncation" in e2.expected
    e3 = _err(dict(BASE, policy={"automaton": {"states": 2, "initial": 0, "accepting": [0, 1],
                                               "transitions": [[0, "x", 5]]}}))
    assert e3.kind is InputKind.REFERENCE and "$.policy.automaton.transitions[0]" in str(e3)


def test_cli_prints_verdict_rounds_and_proof() -> None:
    runner = CliRunner()
    r = runner.invoke(main, ["edit", "check", str(CORPUS / "release_reject.json"), "--engine", "explicit"])
    assert r.exit_code == 1, r.output
    assert r.output.startswith("Rejected: no safe execution set exists") and "round 1: remove" in r.output
    assert "digest" not in r.output  # technical detail only under --explain
    r = runner.invoke(main, ["edit", "check", str(CORPUS / "release_reject.json"), "--engine", "explicit", "--explain"])
    assert "rounds 2 1 0" in r.output and "digest" in r.output
    r2 = runner.invoke(main, ["edit", "check", str(CORPUS / "laptop_fork.json"), "--json"])
    assert r2.exit_code == 0
    out = json.loads(r2.output)
    assert out["verdict"] == "accepted" and out["counts"]["safe"] == 2 and len(out["digest"]) == 64


def test_cli_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"contract": ')
    r = CliRunner().invoke(main, ["edit", "check", str(bad)])
    assert r.exit_code == 2 and "Traceback" not in r.output


FAMILY = json.loads((CORPUS / "family_n_shape.json").read_text())


def _family(outcomes: list[dict[str, object]]) -> dict[str, object]:
    return dict(FAMILY, contract={"seq": [{"call": "quote"}, {"family": "F", "outcomes": outcomes}]})


def test_family_errors_carry_the_json_path() -> None:
    cycle = _err(_family([{"name": "n", "calls": ["approve", "pay", "ship"],
                           "order": [["approve", "pay"], ["pay", "ship"], ["ship", "approve"]]}]))
    assert cycle.kind is InputKind.VALUE and "$.contract.seq[1].outcomes[0].order" in str(cycle)
    assert "approve < pay < ship < approve" in cycle.found
    selfloop = _err(_family([{"name": "n", "calls": ["pay"], "order": [["pay", "pay"]]}]))
    assert "pay < pay" in selfloop.found
    unknown = _err(_family([{"name": "n", "calls": ["pay"]},
                            {"name": "m", "calls": ["pay", "ship"], "order": [["ship", "refund"]]}]))
    assert unknown.kind is InputKind.REFERENCE and "$.contract.seq[1].outcomes[1].order[0]" in str(unknown)
    assert "refund" in unknown.found
    twice = _err(_family([{"name": "n", "calls": ["pay"]}, {"name": "n", "calls": ["ship"]}]))
    assert "$.contract.seq[1].outcomes[1].name" in str(twice)
    dup = _err(_family([{"name": "n", "calls": ["pay", "ship", "pay"]}]))
    assert "$.contract.seq[1].outcomes[0].calls" in str(dup) and "pay twice" in dup.found
    unmapped = _err(_family([{"name": "n", "calls": ["pay", "teleport"]}]))
    assert unmapped.kind is InputKind.REFERENCE and "call teleport" in unmapped.expected
    empty = _err(_family([]))
    assert empty.kind is InputKind.SCHEMA


def test_family_spellings_with_equal_orders_are_equal_values() -> None:
    """Implied pairs and outcome order do not matter: the order is the transitive closure, outcomes are
    kept by name, and the canonical spelling lists only covering pairs (so the digest is the same)."""
    a = load_instance_text(json.dumps(_family([
        {"name": "m", "calls": ["ship"]},
        {"name": "n", "calls": ["approve", "pay", "ship"], "order": [["approve", "pay"], ["pay", "ship"]]}])))
    b = load_instance_text(json.dumps(_family([
        {"name": "n", "calls": ["ship", "pay", "approve"],
         "order": [["pay", "ship"], ["approve", "ship"], ["approve", "pay"]]},
        {"name": "m", "calls": ["ship"]}])))
    assert a == b
    fam = instance_to_json(a)["contract"]["seq"][1]
    assert fam["outcomes"][1]["order"] == [["approve", "pay"], ["pay", "ship"]]


@pytest.mark.parametrize("name,code,word", [("family_n_shape.json", 0, "Accepted"),
                                            ("family_crossed_reject.json", 1, "Rejected")])
def test_cli_checks_explicit_families(name: str, code: int, word: str) -> None:
    for engine in ("declarative", "explicit", "symbolic"):
        r = CliRunner().invoke(main, ["edit", "check", str(CORPUS / name), "--engine", engine])
        assert r.exit_code == code, r.output
        assert r.output.startswith(f"{word}: ") and f"[{engine} engine]" in r.output.splitlines()[0]
        expect = json.loads((CORPUS / name).read_text())["expect"]
        assert f"rounds {' '.join(map(str, expect['rounds']))}" in r.output


def _parallel(tmp_path: Path, n: int) -> Path:
    doc = {"contract": {"par": [{"call": f"c{i}"} for i in range(n)]},
           "calls": {f"c{i}": f"d{i}" for i in range(n)}, "labels": {f"d{i}": f"l{i}" for i in range(n)},
           "policy": {"regex": "(" + " | ".join(f"l{i}" for i in range(n)) + ")*"}}
    p = tmp_path / f"par{n}.json"
    p.write_text(json.dumps(doc))
    return p


@pytest.mark.parametrize("engine", ["declarative", "explicit", "symbolic"])
def test_cli_budget_exhausted_is_unknown_exit_3(tmp_path: Path, engine: str) -> None:
    """A budget bounds the work: a 20-call parallel contract under a small budget answers Unknown (exit 3), promptly."""
    r = CliRunner().invoke(main, ["edit", "check", str(_parallel(tmp_path, 20)), "--engine", engine,
                                  "--budget", "20000states"])
    assert r.exit_code == 3, r.output
    assert r.output.startswith("Unknown: budget exhausted (states)")
    j = CliRunner().invoke(main, ["edit", "check", str(_parallel(tmp_path, 20)), "--engine", engine,
                                  "--budget", "1000states", "--json"])
    assert j.exit_code == 3
    out = json.loads(j.output)
    assert out["verdict"] == "unknown" and out["limit"] == "states" and out["budget"]["states"] == 1000


def test_cli_time_budget_and_help(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["edit", "check", str(_parallel(tmp_path, 20)), "--budget", "0.5s"])
    assert r.exit_code == 3 and "budget exhausted (time)" in r.output
    h = CliRunner().invoke(main, ["edit", "check", "--help"])
    assert "--budget" in h.output and "Exit codes" in h.output
    bad = CliRunner().invoke(main, ["edit", "check", str(_parallel(tmp_path, 2)), "--budget", "soon"])
    assert bad.exit_code == 2


def test_instance_digest_is_the_canonical_digest() -> None:
    """The digest's fast path (plain ASCII JSON) equals RFC 8785 digests, also where it must fall back."""
    from model.base.canonical import digest
    from model.edits.check.digest import instance_digest

    for path in sorted(CORPUS.glob("*.json")):
        inst = load_instance_text(path.read_text())
        assert instance_digest(inst) == digest(instance_to_json(inst))
    from model.edits.check.contract import Call, Par
    from model.edits.check.edit_policy import from_maximal_words
    from model.edits.check.instance import make_instance

    # Names the schema would refuse but a Python caller may build: non-ASCII, control characters.
    for label in ("x\u00e9", "y\n", "z\u0001", "q\\u0041"):
        inst = make_instance(Par((Call("c"),)), {"c": "d"}, {"d": label}, (), from_maximal_words([[label]]))
        assert instance_digest(inst) == digest(instance_to_json(inst)), label


def test_a_verdicts_digest_is_computed_when_read_and_kept() -> None:
    """The check does not compute the digest (the verdict does not need it); the first read does,
    equal to the instance's."""
    from model.edits.check.checker import check
    from model.edits.check.digest import instance_digest

    inst = load_instance_text((CORPUS / "release_reject.json").read_text())
    v = check(inst)
    assert v.named._value is None  # nothing in the verdict needed it
    assert v.digest == instance_digest(inst) and v.named._value == v.digest
    assert check(inst) == v  # verdicts of equal instances still compare equal (digests compared by value)
