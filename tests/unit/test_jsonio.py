"""The one JSON boundary (model/base/jsonio.py): exact numbers or a refusal, no lone
surrogates, no repeated names; every refusal ``InvalidInput`` with line:col and JSON path."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from model.base import jsonio
from model.base.errors import InputKind, InvalidInput
from model.base.json_exact import SAFE_INTEGER, number_problem
from model.base.jsonio import decode


@pytest.mark.parametrize(("text", "line", "col", "path", "found"), [
    ('{"a": [1, 9007199254740993]}', 1, 11, "$.a[1]", "9007199254740993"),
    ('{"q":\n  18446744073709551616}', 2, 3, "$.q", "18446744073709551616"),
    ('{"q": ' + "1" * 4301 + "}", 1, 7, "$.q", "(4301 characters)"),
    ('{"a": 1, "b": {"c": [0.1, 0.10000000000000000001]}}', 1, 27, "$.b.c[1]", "0.10000000000000000001"),
    ("[1e400]", 1, 2, "$[0]", "1e400"),
    ("[1e-400]", 1, 2, "$[0]", "1e-400"),
    ("[1e20]", 1, 2, "$[0]", "1e20"),
    ('["ok", "\\ud800"]', 1, 8, "$[1]", "\\ud800"),
    ('{"x": {"\\udc00": 1}}', 1, 8, "$.x.\\udc00", "\\udc00"),
    ('["\\ud83d\\u0041"]', 1, 2, "$[0]", "\\ud83d"),
    ('{"a": 1,\n "a": 2}', 2, 2, "$", "key 'a' twice"),
    ('{"a": [{"b": 1}, {"b": 2, "b": 3}]}', 1, 27, "$.a[1]", "key 'b' twice"),
    ("[NaN]", 1, 2, "$[0]", "NaN"),
    ('{"x": -Infinity}', 1, 7, "$.x", "-Infinity"),
])
def test_refusals_name_line_column_and_path(text: str, line: int, col: int, path: str, found: str) -> None:
    with pytest.raises(InvalidInput) as info:
        decode(text, "f.json")
    loc = info.value.location
    assert (loc.source, loc.line, loc.column, loc.json_path) == ("f.json", line, col, path), str(info.value)
    assert found in (info.value.found or ""), str(info.value)
    str(info.value).encode("utf-8")  # the message itself holds no lone surrogate


@pytest.mark.parametrize(("text", "value"), [
    ('["\\ud83d\\ude00", "\\\\ud800"]', ["😀", "\\ud800"]),  # a pair, and an escaped backslash
    ("[-0, 0.1, 2.5e-3, 1E+2, 9007199254740991, -9007199254740991]", [0, 0.1, 0.0025, 100.0, SAFE_INTEGER,
                                                                      -SAFE_INTEGER]),
    ('\ufeff{"a": 1}', {"a": 1}),
])
def test_accepted_values_are_kept_exactly(text: str, value: object) -> None:
    assert decode(text) == value


def test_bytes_empty_deep_and_malformed() -> None:
    assert decode(b'\xef\xbb\xbf[1]') == [1]
    for data, kind in ((b"\xff", InputKind.IO), (b"", InputKind.SYNTAX), (b"[" * 100_000, InputKind.SYNTAX),
                       (b"[1, 2", InputKind.SYNTAX), (b"[1e400, ", InputKind.SYNTAX)):
        with pytest.raises(InvalidInput) as info:
            decode(data, "f.json")
        assert info.value.kind is kind and info.value.location.source == "f.json", data[:10]


finite = st.floats(allow_nan=False, allow_infinity=False)


@settings(max_examples=300)
@given(st.one_of(st.integers(), finite))
def test_a_number_is_accepted_exactly_when_it_is_a_safe_exact_double(x: int | float) -> None:
    text = json.dumps(x)
    ok = abs(x) <= SAFE_INTEGER
    assert (number_problem(text) is None) == ok
    if ok:
        assert decode(text) == x and type(decode(text)) is type(x)
    else:
        with pytest.raises(InvalidInput):
            decode(text)


@settings(max_examples=200)
@given(st.integers(0, 40), st.integers(1, 30))
def test_decimal_spellings_that_round_are_refused(digits: int, extra: int) -> None:
    """A literal with more digits than the double keeps is refused exactly when they change its value: the
    decimal it denotes differs from the decimal of the double's shortest form."""
    text = "0." + "1" * digits + "0" * extra + "1"
    assert (number_problem(text) is None) == (Decimal(text) == Decimal(repr(float(text))))
    short = "0." + "1" * max(digits, 1)
    assert (number_problem(short + "0" * extra) is None) == (number_problem(short) is None)  # zeros never matter


def test_user_files_are_read_only_through_the_boundary() -> None:
    """No module of the model opens, reads or JSON-decodes a file on its own: user files go through
    model/base/jsonio.py (read_bytes, read_text, load_file, decode). The exceptions read the project's own
    files (the grammar, Lean sources for the audit) or write outputs."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "model"
    # base/store/sqlite.py opens SQLite files: reads their 100-byte binary header, creates them exclusively, syncs
    # directories
    # admission/deployments/fleet.py reads back the log files its own gateway processes wrote (a test harness's counts);
    # base/budget.py reads /proc/self/statm for the memory budget; oracle/paper_table.py reads the docs' results
    # pages and rewrites the README's generated block; shell/cli.py opens /dev/null for writing, to put in place of
    # a stdout whose reader has gone; oracle/library.py reads lean/'s sources for the modules the in-process
    # library must compile; search/native/__init__.py hashes the search modules' own sources and reads the
    # build stamp beside the compiled modules (a module loads only when its source's digest is the stamp's);
    # bench/agentdojo/suites.py reads one constant out of the installed AgentDojo package's source;
    # search/system/admission_share.py hashes its own and admission_steps.py's sources into a shared memo's tag
    # (a share built by other code is refused)
    allowed = {"base/jsonio.py", "monitor/language/syntax.py", "oracle/audit.py", "oracle/paper_table.py",
               "base/tables.py", "base/store/sqlite.py", "base/store/kinds.py",
               "admission/deployments/fleet.py", "base/budget.py", "shell/cli.py",
               "oracle/library.py", "search/native/__init__.py",
               "bench/agentdojo/suites.py", "search/system/admission_share.py"}
    pattern = re.compile(r"\bjson\.load\(|\.read_text\(|\.read_bytes\(|\bopen\(")
    offenders = [f"{p.relative_to(root)}:{i}" for p in sorted(root.rglob("*.py"))
                 if str(p.relative_to(root)) not in allowed
                 for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert not offenders, offenders


@pytest.mark.parametrize("endless", ["/dev/zero", "/dev/urandom"])
def test_an_endless_input_is_refused_at_the_cap_not_read_until_the_process_dies(
        endless: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # `revise --workload /dev/zero` was killed by the kernel after exhausting memory.
    monkeypatch.setattr(jsonio, "MAX_INPUT_BYTES", 4096)
    with pytest.raises(InvalidInput) as err:
        jsonio.load_file(endless)
    assert str(err.value).startswith(endless)
    assert "at most 4,096 bytes" in str(err.value)


def test_an_input_exactly_at_the_cap_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonio, "MAX_INPUT_BYTES", 8)
    (tmp_path / "at.json").write_text("[1,2,33]")
    (tmp_path / "over.json").write_text("[1,2,333]")
    assert jsonio.load_file(tmp_path / "at.json") == [1, 2, 33]
    with pytest.raises(InvalidInput):
        jsonio.load_file(tmp_path / "over.json")
