"""The in-process Lean backend (model/oracle/inproc.py, model/oracle/backend.py's ``InProcCore``): the
Python monitor's verdicts and states with the state kept inside Lean across calls, the oracle's
answers byte for byte, and every fault (checksum, load, panic, unexpected answer) an error, never
an Allow."""

from __future__ import annotations

import json
import shutil
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from model.monitor.decide.base import Decision
from model.monitor.decide.commit import Outcome, step
from model.monitor.decide.state import Call, initial_state
from model.oracle.backend import InProcCore, LeanBackendError, open_core
from model.oracle.drt_monitor import issue_permits
from model.oracle.generators import whole_monitor_runs
from model.oracle.inproc import InProcOracle, Library, LibraryError, load
from model.oracle.lean import LeanOracle, OracleError
from model.oracle.library import checksum_path

pytestmark = pytest.mark.lean
ROOT = Path(__file__).resolve().parent.parent.parent
RUNS = settings(max_examples=60, database=None, phases=[Phase.generate], deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _report_policy() -> Any:
    from model.monitor.language.syntax import load_policy

    return load_policy(str(ROOT / "corpus" / "policies" / "report.policy"))


def test_the_state_kept_in_lean_follows_the_python_monitor(library: Library) -> None:
    steps = {"n": 0, "allow": 0, "reloads": 0}

    @RUNS
    @given(whole_monitor_runs())
    def body(run: Any) -> None:
        policy, satisfied, calls = run
        core = InProcCore(policy, library.path)
        state = initial_state(len(policy.user), len(policy.application), satisfied)
        core.load(state)
        for call, outcome, permits in calls:
            if permits:  # the application issued permits: the state is sent to Lean again
                state = issue_permits(state, permits)
                core.load(state)
                steps["reloads"] += 1
            verdict, after = step(policy, state, call, outcome)
            lean, d = core.decide_call(call)
            assert (lean.decision, lean.reason, lean.waiting_for, lean.label, lean.permit) == (
                verdict.decision, verdict.reason, verdict.waiting_for, verdict.label, verdict.permit)
            assert d == len(state.trace)
            if lean.decision is Decision.ALLOW:
                assert lean.user == verdict.user and lean.app == verdict.app
                core.record_outcome(d, outcome)
                steps["allow"] += 1
            assert core.snapshot() == after
            steps["n"] += 1
            state = after

    body()
    assert steps["n"] > 60 and steps["allow"] > 0, steps


TRACES = ROOT / "corpus" / "traces"
MANIFEST = json.loads((TRACES / "manifest.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_every_corpus_trace_is_decided_alike_in_process(library: Library, name: str) -> None:
    from model.monitor.adapter.trace import load_trace, run_trace
    from model.monitor.language.syntax import load_policy

    policy = load_policy(str(ROOT / "corpus" / "policies" / MANIFEST[name]))
    doc = load_trace(str(TRACES / name))
    kept: list[Any] = []
    python = run_trace(policy, doc, backend="python", keep=kept)
    lean = run_trace(policy, doc, backend=open_core, keep=kept)
    assert isinstance(kept[1]._core, InProcCore)  # (the library is built: the default route is in-process)
    assert [(r.decision, r.reason, r.result) for r in lean] == [(r.decision, r.reason, r.result) for r in python]
    assert kept[1].state == kept[0].state
    assert any(r.decision is Decision.ALLOW for r in python)


def test_the_in_process_handler_answers_as_the_executable(oracle: LeanOracle, library: Library) -> None:
    inproc = InProcOracle(library.path)
    lines = ['{"id":1,"judgment":"resolve","input":{"act":[0,1],"authorized":[1],"word":[0,1,0]}}',
             '{"id":2,"judgment":"nope","input":{}}', '{"id":3}',
             '{"id":4,"judgment":"ledger_allocate","input":{"bad":1}}']
    for line in lines:
        assert inproc.raw(line) == oracle.raw(line), line
    # (the library reads requests with FastParse: a parse error is the same error, its message may differ)
    for line in ("not json", '{"id":5,', '[1 2]'):
        answers = [o.raw(line) for o in (inproc, oracle)]
        assert [(a["id"], a["error"]["kind"]) for a in answers] == [(None, "parse")] * 2, line
    with pytest.raises(OracleError) as err:
        inproc.call("nope", {})
    assert err.value.kind == "unknown_judgment"


def test_a_policy_read_once_gives_the_answers_of_the_whole_request(oracle: LeanOracle, library: Library) -> None:
    """The DRT's ``monitor`` runs send the policy once per run (``bind_policy``/``call_with_policy``): on
    generated runs, the in-process answer equals the executable's on the whole request, byte for byte."""
    from model.monitor.language.policy_json import policy_to_json
    from model.oracle import monitor_full_json as W
    from model.oracle.direct import case_random, sampler

    inproc = InProcOracle(library.path)
    draw = sampler(whole_monitor_runs())
    steps = 0
    for i in range(40):
        policy, satisfied, calls = draw(case_random(0, "inproc-policy", i))
        text = W.encode(policy_to_json(policy))
        shared, sent = inproc.bind_policy(text), oracle.bind_policy(text)
        state = initial_state(len(policy.user), len(policy.application), satisfied)
        for call, outcome, permits in calls:
            state = issue_permits(state, permits)
            rest = W.rest_text(policy, state, call, outcome)
            assert '{"policy":' + text + "," + rest[1:] == W.encode(W.monitor_input(policy, state, call, outcome))
            whole = oracle.call_text("monitor", W.encode(W.monitor_input(policy, state, call, outcome)))
            assert inproc.call_with_policy("monitor", shared, rest) == whole
            assert oracle.call_with_policy("monitor", sent, rest) == whole
            state = step(policy, state, call, outcome)[1]
            steps += 1
    assert steps > 40
    # a request the handler refuses is refused alike with the policy given apart
    bad = inproc.bind_policy(text)
    with pytest.raises(OracleError) as err:
        inproc.call_with_policy("monitor", bad, '{"state":1}')
    assert err.value.kind == "input"
    with pytest.raises(OracleError):
        inproc.bind_policy("{not json")


def test_a_panic_inside_lean_is_a_fault(library: Library) -> None:
    with pytest.raises(LibraryError) as err:
        library.panic_probe("boom")
    assert err.value.kind == "panic" and "panic probe: boom" in err.value.message
    # the next call starts clean: the panic does not stick to the library
    assert json.loads(library.handle('{"id":1,"judgment":"nope","input":{}}'))["error"]["kind"] == "unknown_judgment"


def test_an_altered_library_is_refused_before_loading(library: Library, tmp_path: Path) -> None:
    copy = tmp_path / "libagentwarrant.so"
    shutil.copyfile(library.path, copy)
    checksum_path(copy).write_text(checksum_path(library.path).read_text(encoding="utf-8"), encoding="utf-8")
    with copy.open("r+b") as f:  # one byte changed, the recorded checksum kept
        f.seek(4096)
        b = f.read(1)
        f.seek(4096)
        f.write(bytes([b[0] ^ 1]))
    with pytest.raises(LibraryError) as err:
        load(copy)
    assert err.value.kind == "checksum"
    with pytest.raises(LeanBackendError):
        InProcCore(_report_policy(), copy)
    checksum_path(copy).unlink()
    with pytest.raises(LibraryError) as err:
        load(copy)
    assert err.value.kind == "missing"


def test_a_library_that_does_not_load_is_a_fault(tmp_path: Path) -> None:
    from model.oracle.toolchain import file_sha256

    bad = tmp_path / "libagentwarrant.so"
    bad.write_bytes(b"\x7fELF not really a shared object")
    checksum_path(bad).write_text(f"{file_sha256(bad)}  {bad.name}\n", encoding="utf-8")
    with pytest.raises(LibraryError) as err:
        load(bad)
    assert err.value.kind == "load"
    with pytest.raises(OracleError):
        InProcOracle(bad)


@pytest.mark.parametrize("answer", ["not an answer", "1;Amaybe", "1;Q", '7;D"no_matching_allow"',
                                    '1;D"not_a_reason"', "1;A99;{cats};1;0;0;", "1;A0;2{cats};1;0;0;",
                                    "1;A0;{cats};yes;0;0;", "1;A0;{cats};1;x;0;", '1;P["a", 1]', "1;Pnot json"])
def test_an_unexpected_answer_is_an_error_not_a_decision(library: Library, answer: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from model.monitor.adapter.shell import Adapter
    from model.monitor.adapter.toolkit import ReportWorld

    policy = _report_policy()
    adapter = Adapter(policy, ReportWorld().tools(), "assistant", backend=partial(open_core, route="inproc"))
    assert adapter.call("Read").__class__.__name__ == "Handle"  # the library decides
    core = adapter._core
    real = core._lib.decide_at
    bad = answer.replace("{cats}", "0" * len(policy.categories))
    monkeypatch.setattr(core._lib, "decide_at", lambda p, s, c: (real(p, s, c), bad)[1])
    with pytest.raises(LeanBackendError):
        adapter.call("Read")
    monkeypatch.setattr(core._lib, "decide_at", real)
    with pytest.raises(LeanBackendError):  # (Lean's state may have moved: the core is given up)
        adapter.call("Read")
    assert [e.result for e in adapter.log] == ["ok"]  # nothing after the fault was admitted


def test_a_checksum_failure_is_not_a_fallback(library: Library, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "libagentwarrant.so"
    shutil.copyfile(library.path, copy)
    checksum_path(copy).write_text("0" * 64 + "  libagentwarrant.so\n", encoding="utf-8")
    monkeypatch.setenv("AGENTWARRANT_LIBRARY", str(copy))
    with pytest.raises(LeanBackendError):
        open_core(_report_policy())  # the library is there: the subprocess route is not taken instead
    monkeypatch.setenv("AGENTWARRANT_LEAN_ROUTE", "subprocess")
    open_core(_report_policy()).close()


def test_a_wrong_record_id_is_refused(library: Library) -> None:
    core = InProcCore(_report_policy(), library.path)
    with pytest.raises(LeanBackendError):
        core.record_outcome(0, Outcome(True))
    verdict, d = core.decide_call(Call("assistant", "Nope", {}))
    assert verdict.decision is Decision.DENY and d == 0


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**20, 10**20) |
                     st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=4) |
                     st.dictionaries(st.text(max_size=4), inner, max_size=4),
                     max_leaves=12)


def test_the_in_process_parser_reads_what_the_oracle_parser_reads(library: Library) -> None:
    """FastParse.lean against Parse.lean: the same value (mantissa and exponent) or both a rejection."""
    seen = {"same": 0, "rejected": 0}

    @settings(max_examples=300, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_JSON, st.sampled_from(["", " ", "\n\t"]), st.booleans(), st.integers(0, 40), st.booleans())
    def body(value: Any, pad: str, ascii_only: bool, cut: int, dup: bool) -> None:
        text = pad + json.dumps(value, ensure_ascii=ascii_only) + pad
        for t in (text, text[:cut], text.replace(":", ": ", 1), '{"k":1,"k":2}' if dup else "[1,]", "1e5", "-0.25E-3",
                  '"\\ud83d\\ude00"', '"\\ud83d"', "01", "[1 2]"):
            answer = library.parse_agrees(t)
            assert answer != "differ", t
            seen[answer] += 1

    body()
    assert seen["same"] > 300 and seen["rejected"] > 100, seen


def test_an_unknown_route_is_bad_input(monkeypatch: pytest.MonkeyPatch) -> None:
    from model.base.errors import InvalidInput
    from model.oracle.inproc import open_oracle

    with pytest.raises(InvalidInput):
        open_core(_report_policy(), "elsewhere")
    monkeypatch.setenv("AGENTWARRANT_LEAN_ROUTE", "elsewhere")
    with pytest.raises(InvalidInput):
        open_core(_report_policy())
    with pytest.raises(InvalidInput):
        open_oracle()


def test_a_refused_call_leaves_the_state_in_lean_as_it_was(library: Library) -> None:
    from model.oracle.inproc import StateSlot

    core = InProcCore(_report_policy(), library.path)
    verdict, d = core.decide_call(Call("assistant", "Read", {}))
    assert verdict.decision is Decision.ALLOW and d == 0
    before = library.state_json(core._slot)
    for bad in (b"not json", b'["assistant","Read",{},[["x",-1]],[]]', b'["assistant","Read"]'):
        with pytest.raises(LibraryError) as err:
            library.decide_at(core._policy, core._slot, bad)
        assert err.value.kind == "input"
        assert library.state_json(core._slot) == before  # (the slot kept its state)
    with pytest.raises(LeanBackendError):  # a value JSON cannot carry: never sent, never decided
        core.decide_call(Call("assistant", "Read", {"x": float("nan")}))
    verdict, d = core.decide_call(Call("assistant", "Read", {}))  # the core still answers
    assert verdict.decision is Decision.ALLOW and d == 1
    empty = StateSlot(library)
    with pytest.raises(LibraryError):  # a slot that holds no state is refused, not read
        library.decide_at(core._policy, empty, b'["assistant","Read",{},[],[]]')
