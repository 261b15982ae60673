"""The proof audit's parsing and checks (model/oracle/audit.py), without a toolchain."""

from __future__ import annotations

from pathlib import Path

from model.oracle.audit import (
    ALLOWED,
    audit_file,
    check_axioms,
    declared_theorems,
    forbidden_words,
    parse_axioms,
    theorems,
)


def test_parse_axioms_reads_both_line_forms() -> None:
    out = ("'A.b' does not depend on any axioms\n"
           "'A.c' depends on axioms: [propext, Quot.sound]\nnoise\n")
    assert parse_axioms(out) == {"A.b": frozenset(), "A.c": frozenset({"propext", "Quot.sound"})}


def test_sorry_or_missing_theorem_fails_the_audit() -> None:
    names = theorems()
    found = {name: frozenset({"propext"}) for name in names}
    assert check_axioms(names, found) == []
    found[names[0]] = frozenset({"propext", "sorryAx"})
    del found[names[1]]
    problems = check_axioms(names, found)
    assert len(problems) == 2
    assert "sorryAx" in problems[0] and names[1] in problems[1]
    assert "sorryAx" not in ALLOWED and "Classical.choice" not in ALLOWED


def test_forbidden_words_ignore_comments(tmp_path: Path) -> None:
    (tmp_path / "AgentWarrant").mkdir()
    (tmp_path / "AgentWarrant" / "Y.lean").write_text("-- sorry in a comment\n")
    (tmp_path / "AgentWarrant.lean").write_text("/- admit,\n sorry -/\ntheorem t : True := by\n  admit\n")
    (tmp_path / "AgentWarrant" / "X.lean").write_text("theorem u : True := sorry\n")
    assert sorted(forbidden_words(tmp_path)) == ["AgentWarrant.lean:4: admit", "AgentWarrant/X.lean:1: sorry"]


def test_committed_lean_sources_have_no_sorry() -> None:
    assert forbidden_words() == []


def test_theorems_are_read_off_the_sources_with_their_namespaces() -> None:
    text = ("namespace A.B\n/-- doc\ntheorem fake : True -/\ntheorem t1 : True := trivial\n"
            "@[simp] theorem t2 : True := trivial\nprivate theorem hidden : True := trivial\n"
            "section S\ntheorem t3 (x : Nat) : x = x := rfl\nend S\nend A.B\ntheorem top : True := trivial\n"
            "-- theorem commented : True\n")
    assert declared_theorems(text) == ["A.B.t1", "A.B.t2", "A.B.t3", "top"]
    assert audit_file(["A.B.t1"]) == "import AgentWarrant\n#print axioms A.B.t1\n"


def test_the_committed_headline_results_are_audited() -> None:
    names = theorems()
    assert "AgentWarrant.Thm.labelJoinCommutative" in names and "AgentWarrant.Monitor.allocExt" in names
    assert len(names) == len(set(names))
