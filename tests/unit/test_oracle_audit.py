"""The proof audit's parsing and checks (model/oracle/audit.py), without a toolchain."""

from __future__ import annotations

from pathlib import Path

from model.oracle.audit import ALLOWED, THEOREMS, check_axioms, forbidden_words, parse_axioms


def test_parse_axioms_reads_both_line_forms() -> None:
    out = ("'A.b' does not depend on any axioms\n"
           "'A.c' depends on axioms: [propext, Quot.sound]\nnoise\n")
    assert parse_axioms(out) == {"A.b": frozenset(), "A.c": frozenset({"propext", "Quot.sound"})}


def test_sorry_or_missing_theorem_fails_the_audit() -> None:
    found = {name: frozenset({"propext"}) for name in THEOREMS}
    assert check_axioms(found) == []
    found[THEOREMS[0]] = frozenset({"propext", "sorryAx"})
    del found[THEOREMS[1]]
    problems = check_axioms(found)
    assert len(problems) == 2
    assert "sorryAx" in problems[0] and THEOREMS[1] in problems[1]
    assert "sorryAx" not in ALLOWED and "Classical.choice" not in ALLOWED


def test_forbidden_words_ignore_comments(tmp_path: Path) -> None:
    (tmp_path / "AgentWarrant").mkdir()
    (tmp_path / "audit").mkdir()
    (tmp_path / "audit" / "Audit.lean").write_text("-- sorry in a comment\n")
    (tmp_path / "AgentWarrant.lean").write_text("/- admit,\n sorry -/\ntheorem t : True := by\n  admit\n")
    (tmp_path / "AgentWarrant" / "X.lean").write_text("theorem u : True := sorry\n")
    assert sorted(forbidden_words(tmp_path)) == ["AgentWarrant.lean:4: admit", "AgentWarrant/X.lean:1: sorry"]


def test_committed_lean_sources_have_no_sorry() -> None:
    assert forbidden_words() == []
