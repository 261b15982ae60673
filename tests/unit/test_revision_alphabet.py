"""Z3's string alphabet (code points up to 0x2FFFF) is smaller than Python's (up to 0x10FFFF). A string
constant with a character past it was read by Z3 as its escape's own characters, so U+30000 and the
nine characters ``\\u{30000}`` were one string to both encodings, and a revision that swapped one for the
other was certified although it loses the client that deletes the first. Constants past the alphabet are
now Unsupported (Undecided, never a proof), and a question is asked only when enough of Z3's alphabet is
named by no constant or glob to stand for the characters past it (trusted/encoding.py argues why that
suffices)."""

from __future__ import annotations

import fnmatch
from pathlib import Path

import z3

from model.monitor.language.policy import Entry, EntryKind, GlobPat
from model.monitor.language.syntax import load_policy
from model.revision.certify.certificate import Certificate, Rule, Step
from model.revision.certify.certificate_checker import check
from model.revision.certify.check_verdict import Invalid, Undecided, Valid
from model.revision.certify.structural import NoCertificate, certify
from model.revision.effects import EVERY_EFFECT
from model.revision.explore.workload import workload_from_json
from model.revision.report import Certified, NotPreserved
from model.revision.revise import revise
from model.revision.trusted import side_conditions as questions
from model.revision.trusted.encoding import CTX, MAX_CHAR, Unsupported, alphabet_spare, regex, text

ROOT = Path(__file__).resolve().parents[2]
HIGH = chr(MAX_CHAR + 1)  # U+30000: a code point Python strings hold and Z3's do not
ALIAS = "\\u{30000}"  # the nine characters Z3 used to read in its place


def _policy(tmp: Path, name: str, resource_json: str) -> Path:
    base = (ROOT / "corpus" / "policies" / "delete_ab.policy").read_text(encoding="utf-8")
    text_ = base.replace("policy delete_ab", f"policy {name}").replace(
        'allow file.delete("B") quota 1', f"allow file.delete({resource_json}) quota 1")
    path = tmp / f"{name}.policy"
    path.write_text(text_, encoding="utf-8")
    return path


def test_z3_has_no_character_past_max_char() -> None:
    """The constant is Z3's: every one-character string lies in [0, MAX_CHAR], and the old escape of a
    character past it is not one character."""
    x = z3.String("x", CTX)
    s = z3.SimpleSolver(ctx=CTX)
    s.add(z3.Length(x) == 1, z3.Not(z3.InRe(x, z3.Range(text("\x00"), text(chr(MAX_CHAR))))))
    assert s.check() == z3.unsat
    assert z3.simplify(z3.Length(z3.StringVal("\\u{%x}" % (MAX_CHAR + 1), CTX))).as_long() == 9


def test_a_constant_past_the_alphabet_is_not_a_proof(tmp_path: Path) -> None:
    old = load_policy(_policy(tmp_path, "old", '"\\ud880\\udc00"'))  # JSON's escape of U+30000
    new = load_policy(_policy(tmp_path, "new", '"\\\\u{30000}"'))  # a backslash, then "u{30000}"
    a, b = old.user[0], new.user[0]
    assert a.resource != b.resource and fnmatch.fnmatchcase(HIGH, "*")
    # Both are different strings to Python; the old encoding answered that they agree (Valid).
    verdict = questions.agree(a, b, EVERY_EFFECT, old.tools)
    assert isinstance(verdict, Undecided) and "alphabet" in verdict.reason
    # The old encodings proposed and checked a prefix-compatible certificate here (0: "z3"); a hand-made one
    # is now refused, and the proposer finds none.
    forged = Certificate(EVERY_EFFECT, Step(Rule.PREFIX, old.user, new.user, (), ("0: z3", "1: identical")),
                         Step(Rule.PREFIX, old.application, new.application, (), ("0: identical",)))
    assert isinstance(check(forged, old, new), Undecided)
    assert isinstance(certify(old, new, EVERY_EFFECT), NoCertificate)
    workload = workload_from_json({"agent": "cleaner", "calls": [
        {"name": "delete high", "tool": "Delete", "args": {"target": HIGH}},
        {"name": "delete alias", "tool": "Delete", "args": {"target": ALIAS}},
        {"name": "delete A", "tool": "Delete", "args": {"target": "A"}}]})
    for fast in (True, False):  # the old code certified it on the unmemoized path
        report = revise(old, new, EVERY_EFFECT, workload, 2, merge=fast, fast=fast)
        assert not isinstance(report.preservation, Certified)
        assert isinstance(report.preservation, NotPreserved)
        lost = report.preservation.lost
        assert lost.confirmed and lost.names == ("delete high",)


def test_a_glob_covering_the_whole_alphabet_is_not_asked() -> None:
    """``[\\x00-\\U0002ffff]`` and ``?`` accept the same characters of Z3's alphabet and differ on U+30000:
    no character of Z3's is left to stand for it, so the question is Unsupported, not answered Valid."""
    every = Entry(EntryKind.ALLOW, "file.delete", GlobPat(f"[\x00-{chr(MAX_CHAR)}]"))
    one = Entry(EntryKind.ALLOW, "file.delete", GlobPat("?"))
    assert fnmatch.fnmatchcase(HIGH, "?") and not fnmatch.fnmatchcase(HIGH, every.resource.glob)
    tools = load_policy(ROOT / "corpus" / "policies" / "delete_ab.policy").tools
    verdict = questions.agree(every, one, EVERY_EFFECT, tools)
    assert not isinstance(verdict, Valid)
    assert isinstance(verdict, Undecided) and "alphabet" in verdict.reason
    # a glob that leaves a character out is asked, and its disagreement found
    short = Entry(EntryKind.ALLOW, "file.delete", GlobPat(f"[\x00-{chr(MAX_CHAR - 100)}]"))
    assert isinstance(questions.agree(short, one, EVERY_EFFECT, tools), Invalid)


def test_spare_characters_are_counted_over_overlapping_ranges() -> None:
    assert alphabet_spare([]) == MAX_CHAR + 1
    assert alphabet_spare([(97, 99), (98, 100), (97, 97), (200, 199)]) == MAX_CHAR + 1 - 4
    assert alphabet_spare([(0, MAX_CHAR + 5)]) == 0
    for bad in (HIGH, "a" + HIGH):
        try:
            text(bad)
        except Unsupported:
            continue
        raise AssertionError(f"{bad!r} was encoded")
    try:
        regex(f"[a-{HIGH}]")
    except Unsupported:
        return
    raise AssertionError("a bracket bound past the alphabet was encoded")
