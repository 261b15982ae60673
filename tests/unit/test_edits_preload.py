"""Table III "Preload" (*Exact Checking for Execution Edits*, Appendix A-I final check ``phase(η⁺) ∈ {⊥, inactive}``,
Table III row Preload, Appendix A-L: a τ-step because α_S omits inactive prepared data): the prepared
version is inactive and assigned to no call, a preload leaves γ and every visible component unchanged,
``use`` refuses anything under an inactive version, the update re-verifies prepared content instead of
trusting it, and AgentSec's A5 notices an inactive version misused."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from model.base.errors import InvalidInput
from model.edits.runtime.answers import (
    Deny,
    DenyReason,
    EditAccepted,
    New,
    NoCommit,
    Preloaded,
    Stale,
    Updated,
)
from model.edits.runtime.forms import Edit, Extend, ForkChoice, ForkParallel, MergeJoin, edit_to_json
from model.edits.runtime.invariant import agent_sec
from model.edits.runtime.record import RuleEntry, State
from model.edits.runtime.record_json import core_json, record_digest, state_to_json
from model.edits.runtime.runtime import Runtime, steps
from model.edits.runtime.scenarios import playground
from model.edits.runtime.session_script import session_from_json
from tests.edits_helpers import playground_runtime

FORK = ForkChoice("b0", "fc")


def make(tmp_path: Path) -> Runtime:
    return playground_runtime(tmp_path, "p.db")


def accepted(rt: Runtime, edit: Edit) -> EditAccepted:
    a = rt.check(edit)
    assert isinstance(a, EditAccepted), a
    return a


def visible(s: State) -> object:
    """Everything but the inactive versions and their prepared content (what α_S and Θ see)."""
    return core_json(s)


def test_preload_prepares_an_inactive_version_assigned_to_no_call(tmp_path: Path) -> None:
    rt = make(tmp_path)
    y = accepted(rt, FORK)
    before = rt.state()
    got = rt.preload(FORK, y)
    s = rt.state()
    assert got == Preloaded(y.eta_new)
    assert dict(s.versions)[y.eta_new] == "inactive" and s.eta == before.eta == y.eta_old
    prep = dict(s.prepared)[y.eta_new]
    assert prep.digest == y.digest and prep.automaton == y.verdict.automaton and prep.eta_old == y.eta_old
    # assigned to no call: β, the tokens, ver, the workflow and the automaton in force are untouched
    assert s.entries == before.entries and all(e.version == before.eta for _, e in s.entries)
    assert (s.ver, s.tree, s.automaton, s.q, s.log, s.out) == \
        (before.ver, before.tree, before.automaton, before.q, before.log, before.out)
    assert visible(s) == visible(before) and state_to_json(s) != state_to_json(before)
    # γ omits inactive prepared data: every answer checked before the preload is still fresh
    for e in (FORK, ForkParallel("b0", "fp"), Extend()):
        assert record_digest(s, edit_to_json(e)) == record_digest(before, edit_to_json(e))
    assert rt.check(FORK) == y
    assert agent_sec(s) == []
    assert [step for _, step, _ in rt.journal()][-1] == "preload"
    # an identical preload records nothing new
    n = len(rt.journal())
    assert rt.preload(FORK, y) == Preloaded(y.eta_new) and len(rt.journal()) == n and rt.state() == s


def test_the_update_after_a_preload_installs_the_prepared_version(tmp_path: Path) -> None:
    rt = make(tmp_path)
    y = accepted(rt, FORK)
    rt.preload(FORK, y)
    rt.close()
    rt = Runtime(str(tmp_path / "p.db"))  # the prepared content is durable
    assert dict(rt.state().prepared)[y.eta_new].automaton == y.verdict.automaton
    assert rt.try_update(FORK, y) == Updated(y.eta_new)
    s = rt.state()
    assert dict(s.versions) == {y.eta_old: "closed", y.eta_new: "active"} and s.prepared == ()
    assert s.automaton == y.verdict.automaton and agent_sec(s) == []
    x = s.current_calls()[0]
    assert isinstance(rt.use(x, rt.token(x) or "", rt.request_of(x)), New)


def test_use_never_accepts_a_token_or_entry_of_an_inactive_version(tmp_path: Path) -> None:
    rt = make(tmp_path)
    y = accepted(rt, FORK)
    rt.preload(FORK, y)
    s = rt.state()
    eta = y.eta_new
    x = "xa"
    # the strongest forgery: a token for the inactive version signed with the runtime's own key
    forged = rt.key.sign(steps.token_payload(s, x, f"{eta}/{x}", eta))
    assert steps.token_verifies(s, x, f"{eta}/{x}", eta, forged)
    got = rt.use(x, forged, rt.request_of(x))
    assert isinstance(got, Deny) and got.reason is DenyReason.TOKEN and rt.state() == s
    # a record whose β names the inactive version for x (as if the entry had been assigned)
    tampered = replace(s, entries=tuple((c, RuleEntry(f"{eta}/{c}", eta, forged) if c == x else e)
                                        for c, e in s.entries))
    got2, after = steps.use(tampered, x, forged, rt.request_of(x))
    assert isinstance(got2, Deny) and got2.reason is DenyReason.VERSION and after is tampered
    assert any("inactive version" in p and "assigned" in p for p in agent_sec(tampered))
    # even a record whose η points at the inactive version: inactive is not active
    tokens = {c: rt.key.sign(steps.token_payload(s, c, f"{eta}/{c}", eta)) for c in s.current_calls()}
    all_inactive = replace(s, eta=eta, entries=tuple((c, RuleEntry(f"{eta}/{c}", eta, tokens[c]))
                                                     for c in s.current_calls()))
    got3, _ = steps.use(all_inactive, x, tokens[x], rt.request_of(x))
    assert isinstance(got3, Deny) and got3.reason is DenyReason.VERSION
    assert any("active versions" in p for p in agent_sec(all_inactive))


def test_a_tool_call_not_the_preload_makes_a_prepared_answer_stale(tmp_path: Path) -> None:
    rt = make(tmp_path)
    y = accepted(rt, FORK)
    rt.preload(FORK, y)
    assert isinstance(rt.use("xa", rt.token("xa") or "", rt.request_of("xa")), New)
    before = rt.state()
    for late in (rt.try_update(FORK, y), rt.preload(FORK, y)):
        assert late == NoCommit(Stale.RECORD_CHANGED)
    assert rt.state() == before
    z = accepted(rt, FORK)
    assert z.eta_new == y.eta_new and z.digest != y.digest
    # the content prepared for y is ignored: the update installs z's recomputed automaton
    assert rt.try_update(FORK, z) == Updated(z.eta_new)
    assert rt.state().automaton == z.verdict.automaton and agent_sec(rt.state()) == []


def test_an_update_of_another_edit_drops_the_prepared_versions(tmp_path: Path) -> None:
    rt = make(tmp_path)
    y = accepted(rt, FORK)
    rt.preload(FORK, y)
    par = ForkParallel("b0", "fp")
    w = accepted(rt, par)
    assert w.eta_new == y.eta_new and w.verdict.automaton != y.verdict.automaton  # same name, other content
    assert rt.try_update(par, w) == Updated(w.eta_new)
    assert rt.state().automaton == w.verdict.automaton  # never the content prepared for FORK
    (tmp_path / "two").mkdir()
    rt2 = make(tmp_path / "two")
    y2 = accepted(rt2, FORK)
    rt2.preload(FORK, y2)
    ext = accepted(rt2, Extend())
    assert ext.eta_new != y2.eta_new
    assert rt2.try_update(Extend(), ext) == Updated(ext.eta_new)
    s = rt2.state()
    assert y2.eta_new not in dict(s.versions) and s.prepared == () and agent_sec(s) == []
    # the dropped name is ⊥ again: an edit allocating it can be prepared and installed
    y3 = accepted(rt2, ForkChoice("b0", "fc"))
    assert rt2.preload(y3.edit, y3) == Preloaded(y3.eta_new) and rt2.try_update(y3.edit, y3) == Updated(y3.eta_new)


def test_prepared_content_is_re_verified_not_trusted(tmp_path: Path) -> None:
    rt = make(tmp_path)
    y = accepted(rt, FORK)
    rt.preload(FORK, y)
    s = rt.state()
    assert s.automaton is not None and s.automaton != y.verdict.automaton
    altered = replace(s, prepared=tuple((v, replace(p, automaton=s.automaton)) for v, p in s.prepared))
    got, after = steps.try_update(altered, FORK, y, rt.key)
    assert got == NoCommit(Stale.PRELOAD_DIFFERS) and after is altered
    again, repaired = steps.preload(altered, FORK, y)  # a new preload re-computes and replaces it
    assert again == Preloaded(y.eta_new) and repaired == s
    done, new = steps.try_update(repaired, FORK, y, rt.key)
    assert done == Updated(y.eta_new) and new.automaton == y.verdict.automaton


@pytest.mark.parametrize("case", ["not-accepted", "version-allocated", "not-current", "recheck"])
def test_preload_refuses_what_the_final_check_refuses(case: str, tmp_path: Path) -> None:
    rt = make(tmp_path)
    y = accepted(rt, FORK)
    if case == "not-accepted":
        edit: Edit = MergeJoin("nope", "mj")
        answer: object = rt.check(edit)
        want = Stale.NOT_ACCEPTED
    elif case == "version-allocated":
        edit, answer, want = FORK, replace(y, eta_new=y.eta_old), Stale.VERSION_ALLOCATED
    elif case == "not-current":
        edit, answer, want = FORK, replace(y, eta_old="v0"), Stale.VERSION_NOT_CURRENT
    else:
        edit, answer, want = FORK, replace(y, eta_new="v99"), Stale.RECHECK_DIFFERS
    before = rt.state()
    assert rt.preload(edit, answer) == NoCommit(want)  # type: ignore[arg-type]
    assert rt.state() == before and [step for _, step, _ in rt.journal()] == ["register"]


def test_a5_notices_misused_inactive_versions(tmp_path: Path) -> None:
    rt = make(tmp_path)
    y = accepted(rt, FORK)
    rt.preload(FORK, y)
    s = rt.state()
    assert agent_sec(s) == []
    no_content = replace(s, prepared=())
    assert any("holds no prepared content" in p for p in agent_sec(no_content))
    orphan = replace(s, versions=tuple((v, ph) for v, ph in s.versions if ph != "inactive"))
    assert any("not inactive" in p for p in agent_sec(orphan))
    two_active = replace(s, versions=tuple((v, "active") for v, _ in s.versions), prepared=())
    assert any("not exactly η" in p for p in agent_sec(two_active))


def test_session_preload_names_an_earlier_check() -> None:
    doc = playground()
    doc["steps"] = [{"preload": {"edit": "fork-choice", "branch": "b0", "rule": "fc"}, "answer": "Y"}]
    with pytest.raises(InvalidInput) as err:
        session_from_json(doc, "s.json")
    assert err.value.location.json_path == "$.steps[0].answer"


def test_cli_prints_the_preload_and_shows_the_inactive_version(tmp_path: Path) -> None:
    import json

    from click.testing import CliRunner

    from model.edits.runtime.scenarios import preload
    from model.shell.cli import main

    script = preload()
    script["steps"] = script["steps"][:4]  # stop while the fork is prepared in v5
    f = tmp_path / "p.json"
    f.write_text(json.dumps(script))
    db = tmp_path / "p.db"
    r = CliRunner().invoke(main, ["edit", "session", str(db), "run", str(f)])
    assert r.exit_code == 0, r.output
    assert "preloaded: rule version v5 prepared" in r.output and "(not-an-accepted-answer)" in r.output
    r2 = CliRunner().invoke(main, ["edit", "session", str(db), "show"])
    assert r2.exit_code == 0 and "versions v1:active v5:inactive[fork-choice]" in r2.output
    assert "state version 1," in r2.output  # a preload does not advance ver
