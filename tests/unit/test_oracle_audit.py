"""The proof audit's parsing and checks (model/oracle/audit.py) on scratch Lean text and scratch
environment listings, without a toolchain."""

from __future__ import annotations

from pathlib import Path

import pytest

from model.oracle.audit import (
    ALLOWED,
    EnvDecl,
    check_env,
    declarations,
    declared_axioms,
    declared_partials,
    declared_theorems,
    env_program,
    forbidden_words,
    parse_env,
    read_allowlist,
    theorems,
)


def test_forbidden_words_ignore_comments(tmp_path: Path) -> None:
    (tmp_path / "AgentWarrant").mkdir()
    (tmp_path / "AgentWarrant" / "Y.lean").write_text("-- sorry in a comment\n/- outer /- nested sorry -/ admit -/\n")
    (tmp_path / "AgentWarrant.lean").write_text("/- admit,\n sorry -/\ntheorem t : True := by\n  admit\n")
    (tmp_path / "AgentWarrant" / "X.lean").write_text("theorem u : True := sorry\n")
    assert sorted(forbidden_words(tmp_path)) == ["AgentWarrant.lean:4: admit", "AgentWarrant/X.lean:1: sorry"]


def test_committed_lean_sources_have_no_sorry_and_no_axiom() -> None:
    assert forbidden_words() == []
    assert declared_axioms() == []


def test_theorems_of_every_declaration_form_are_found() -> None:
    text = ("namespace A.B\n/-- doc\ntheorem fake : True -/\ntheorem t1 : True := trivial\n"
            "@[simp] theorem t2 : True := trivial\nprivate theorem hidden : True := trivial\n"
            "section S\ntheorem t3 (x : Nat) : x = x := rfl\nend S\n"
            "protected theorem t4 : True := trivial\n"
            "  theorem t5 : True := trivial\n"
            "@[simp]\n@[inline] protected theorem t6 : True := trivial\n"
            "theorem _root_.rooted : True := trivial\n"
            "lemma t7 : True := trivial\n"
            "end A.B\ntheorem top : True := trivial\n"
            "-- theorem commented : True\n")
    assert declared_theorems(text) == ["A.B.t1", "A.B.t2", "A.B.t3", "A.B.t4", "A.B.t5", "A.B.t6", "rooted",
                                       "A.B.t7", "top"]


def test_axioms_and_partial_defs_are_found_in_scratch_sources(tmp_path: Path) -> None:
    (tmp_path / "AgentWarrant").mkdir()
    (tmp_path / "AgentWarrant.lean").write_text("-- axiom commented : False\n")
    (tmp_path / "AgentWarrant" / "X.lean").write_text(
        "namespace N\naxiom bad : False\n  private axiom worse : 1 = 2\npartial def loop : Nat → Nat\n  | n => loop n\n"
        "@[inline] private partial def go (n : Nat) : Nat := go n\ndef fine : Nat := 1\nend N\n")
    assert declared_axioms(tmp_path) == ["AgentWarrant/X.lean:2: axiom N.bad", "AgentWarrant/X.lean:3: axiom N.worse"]
    assert declared_partials(tmp_path) == ["N.loop", "N.go"]
    kinds = [(d.kw, d.name, d.partial) for d in declarations((tmp_path / "AgentWarrant" / "X.lean").read_text())]
    assert ("def", "N.fine", False) in kinds and ("def", "N.go", True) in kinds


LISTING = """\
DECL theorem A.t1 AgentWarrant.X total [propext]
DECL theorem _private.AgentWarrant.X.0.A.hidden AgentWarrant.X total [sorryAx]
DECL def A.d AgentWarrant.X total [ofReduceBool]
DECL axiom A.bad AgentWarrant.X total [A.bad]
DECL opaque A.jeq AgentWarrant.Json partial []
DECL opaque A.loop AgentWarrant.Main partial []
REACH A.jeq [A.monitor, A.main]
REACH A.loop [A.main]
noise
"""


def test_environment_listing_is_checked() -> None:
    decls, reach = parse_env(LISTING)
    assert [d.name for d in decls] == ["A.t1", "_private.AgentWarrant.X.0.A.hidden", "A.d", "A.bad", "A.jeq", "A.loop"]
    assert reach == {"A.jeq": ["A.monitor", "A.main"], "A.loop": ["A.main"]}
    problems = check_env(decls, reach, ["A.t1", "A.t9"], {"A.loop": "IO loop", "A.gone": "was removed"})
    text = "\n".join(problems)
    # a private theorem's sorry, a def's native evaluation, a declared axiom, a theorem not built, an
    # unlisted partial def (with the judgment that reaches it), a stale allow-list entry
    assert "hidden" in text and "sorryAx" in text
    assert "A.d (def" in text and "ofReduceBool" in text
    assert "A.bad: an axiom" in text
    assert "A.t9: declared in the sources but not in the built library" in text
    assert "A.jeq: a partial def not in" in text and "A.monitor" in text
    assert "A.gone: listed" in text
    assert len(problems) == 6
    clean = [EnvDecl("theorem", "A.t1", "AgentWarrant.X", False, frozenset({"propext", "Quot.sound"})),
             EnvDecl("opaque", "A.loop", "AgentWarrant.Main", True, frozenset())]
    assert check_env(clean, {"A.loop": ["A.main"]}, ["A.t1"], {"A.loop": "IO loop"}) == []
    assert "sorryAx" not in ALLOWED and "Classical.choice" not in ALLOWED


def test_allowlist_needs_a_reason(tmp_path: Path) -> None:
    good = tmp_path / "good.tsv"
    good.write_text("# comment\nA.loop\tthe IO loop\n\n")
    assert read_allowlist(good) == {"A.loop": "the IO loop"}
    bad = tmp_path / "bad.tsv"
    bad.write_text("A.loop\n")
    with pytest.raises(ValueError, match="no reason"):
        read_allowlist(bad)


def test_committed_allowlist_admits_no_matching_function() -> None:
    allow = read_allowlist()
    assert "AgentWarrant.Oracle.loop" in allow
    for name in ("jeq", "globMatch", "globToks", "normJ", "normNum", "scan"):
        assert not any(n.endswith("." + name) for n in allow), name
    assert set(declared_partials()) <= set(allow)


def test_environment_program_lists_every_constant_of_the_project() -> None:
    program = env_program()
    assert program.startswith("--") and "import AgentWarrant" in program
    assert "#auditAll" in program and "CollectAxioms.collect" in program and "judgments" in program


def test_the_committed_headline_results_are_found() -> None:
    names = theorems()
    assert "AgentWarrant.Thm.labelJoinCommutative" in names and "AgentWarrant.Monitor.allocExt" in names
    assert "AgentWarrant.Monitor.Full.jeqIff" in names and "AgentWarrant.Monitor.Full.globMatchIff" in names
    assert len(names) == len(set(names))


def test_a_mutual_block_end_does_not_close_the_namespace() -> None:
    text = ("namespace A.B\nmutual\n  partial def f : Nat → Nat\n    | n => g n\n  partial def g : Nat → Nat\n"
            "    | n => f n\nend\npartial def h : Nat → Nat\n  | n => h n\nend A.B\n")
    assert [d.name for d in declarations(text) if d.partial] == ["A.B.f", "A.B.g", "A.B.h"]
