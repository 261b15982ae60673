"""Session scripts: bad scripts are ``InvalidInput`` with the JSON path of the fault, never a traceback;
the record round-trips through its stored JSON; signed records and well-formedness are checked."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from model.base.errors import InputKind, InvalidInput
from model.edits.check.edit_policy import from_maximal_words
from model.edits.check.inclusion import included
from model.edits.runtime.record_json import state_from_text, state_text
from model.edits.runtime.requirements import SignedRecord, verify_record
from model.edits.runtime.runtime import Runtime
from model.edits.runtime.scenarios import laptop
from model.edits.runtime.session_script import session_from_json
from model.edits.runtime.wellformed_record import record_problems
from model.shell.cli import main


def broken(edit: Any) -> dict[str, Any]:
    doc = copy.deepcopy(laptop())
    edit(doc)
    return doc


@pytest.mark.parametrize(("mutate", "path", "kind"), [
    (lambda d: d["steps"][2].__setitem__("use", 7), "$.steps[2].use", InputKind.SCHEMA),
    (lambda d: d["steps"].append({"jump": True}), "$.steps[26]", InputKind.SCHEMA),
    (lambda d: d["registration"]["rules"]["fork"].__setitem__("kind", "fork-sideways"),
     "$.registration.rules.fork.kind", InputKind.SCHEMA),
    (lambda d: d["registration"]["templates"].__setitem__("xq", "nope"), "$.registration.templates.xq",
     InputKind.REFERENCE),
    (lambda d: d["registration"]["requirements"]["purchase"].__setitem__("authority", "mallory"),
     "$.registration.requirements.purchase.authority", InputKind.REFERENCE),
    (lambda d: d["registration"]["root"]["contract"]["seq"].append({"call": "zz"}),
     "$.registration.root.contract", InputKind.REFERENCE),
    (lambda d: d["steps"][10].__setitem__("answer", "Z"), "$.steps[10].answer", InputKind.REFERENCE),
    (lambda d: d["registration"].__setitem__("seed", "xyz"), "$.registration.seed", InputKind.SCHEMA),
])
def test_bad_scripts_name_the_json_path(mutate: Any, path: str, kind: InputKind) -> None:
    with pytest.raises(InvalidInput) as err:
        session_from_json(broken(mutate), "s.json")
    assert err.value.location.json_path == path and err.value.kind is kind


def test_cli_reports_a_bad_script_in_one_line(tmp_path: Path) -> None:
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(broken(lambda d: d["steps"][2].__setitem__("use", 7))))
    r = CliRunner().invoke(main, ["edit", "session", str(tmp_path / "x.db"), "run", str(f)])
    assert r.exit_code == 2 and "$.steps[2]" in r.output and "Traceback" not in r.output
    f.write_text("{not json")
    r2 = CliRunner().invoke(main, ["edit", "session", str(tmp_path / "y.db"), "run", str(f)])
    assert r2.exit_code == 2 and "Traceback" not in r2.output
    r3 = CliRunner().invoke(main, ["edit", "session", str(tmp_path / "none.db"), "show"])
    assert r3.exit_code == 2 and "no such file" in r3.output


def test_a_forged_requirement_record_makes_the_root_invalid(tmp_path: Path) -> None:
    doc = broken(lambda d: d["registration"]["requirements"]["purchase"].__setitem__("signature", "A" * 88))
    sess = session_from_json(doc)
    rt, root = Runtime.create(str(tmp_path / "f.db"), sess.registration, sess.seed)
    assert type(root).__name__ == "EditInvalid" and "requirement record" in root.detail  # type: ignore[union-attr]
    assert rt.state().eta is None and type(rt.use("xr", "", rt.request_of("xr"))).__name__ == "Deny"


def test_state_round_trips_through_its_stored_text(tmp_path: Path) -> None:
    from model.edits.runtime.session_script import run_session

    sess = session_from_json(laptop())
    run_session(sess, str(tmp_path / "l.db"))
    s = Runtime(str(tmp_path / "l.db")).state()
    assert state_from_text(state_text(s)) == s


def test_signed_records_verify_only_untampered(tmp_path: Path) -> None:
    sess = session_from_json(laptop())
    rt, _ = Runtime.create(str(tmp_path / "s.db"), sess.registration, sess.seed)
    s = rt.state()
    rec = dict(s.requirements)["purchase"]
    auth = dict(s.authorities)
    assert verify_record(rec, auth, s.domain)
    assert not verify_record(replace(rec, subject="other"), auth, s.domain)
    assert not verify_record(rec, auth, "another-domain")
    assert not verify_record(SignedRecord("removal", "purchase", "school", rec.signature), auth, s.domain)


def test_well_formedness_is_checked_not_assumed(tmp_path: Path) -> None:
    from model.edits.runtime.record import AuthRecord, Queued

    sess = session_from_json(laptop())
    rt, _ = Runtime.create(str(tmp_path / "w.db"), sess.registration, sess.seed)
    rt.use("xr", rt.token("xr") or "", rt.request_of("xr"))
    s = rt.state()
    assert record_problems(s) == []
    dup = replace(s, log=(*s.log, AuthRecord("p9", "dr", s.log[0].request, "xr", "r")), out=(*s.out, Queued("p9")))
    assert any("2 authorization records" in p for p in record_problems(dup))
    reordered = replace(s, out=(Queued("p1", False),), log=s.log)
    assert record_problems(reordered) == []
    sent_late = replace(dup, out=(Queued("p1", False), Queued("p9", True)))
    assert any("sent before" in p for p in record_problems(sent_late))
    lost_entry = replace(s, entries=s.entries[1:])
    assert any("dom β" in p for p in record_problems(lost_entry))


def test_policy_inclusion_witness() -> None:
    small = from_maximal_words([["a", "b"]])
    big = from_maximal_words([["a", "b"], ["b"]])
    assert included(small, big) is None
    assert included(big, small) == ("b",)
