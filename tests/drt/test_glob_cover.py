"""The glob half of effect coverage (Agenra Section 7.1), decided by Lean over every string (judgment
``glob_cover``; theorems ``AgentWarrant.Revision.Glob.globCoveredSound``/``globUncoveredSound``) and by Z3
with the certificate checker's glob encoding (``model/revision/trusted/glob_cover.py``): both answer alike on
generated glob sets and on the glob resources of every corpus revision pair, and every witness either
gives is a string whose vector, by the monitor's ``fnmatchcase``, is not listed. A mismatch prints every
input and both answers."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest

from model.monitor.language.policy import GlobPat
from model.oracle.lean import LeanOracle, OracleError
from model.revision.corpus import load_manifest
from model.revision.trusted.glob_cover import CoverAnswer, lean_input, vector, z3_cover

PIECES = ["a", "b", "/", ".", "*", "?", "[ab]", "[!a]", "[a-c]", "[]a]", "["]


def _glob(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 4)))


def _compare(oracle: LeanOracle, globs: Sequence[str], listed: Sequence[str]) -> str:
    """``"agree"``; ``"unsupported"`` when Z3's encoding does not translate a pattern, ``"z3 unknown"`` when Z3
    answered unknown (then Lean's answer is compared with nothing but its own witness); fails on a
    disagreement or a wrong witness."""
    z = z3_cover(globs, listed)
    out = oracle.call("glob_cover", lean_input(globs, listed))
    lean = CoverAnswer(str(out["answer"]), out["witness"] if isinstance(out["witness"], str) else None)
    where = f"globs={list(globs)!r} listed={sorted(listed)!r}: lean={out!r} z3={z!r}"
    assert lean.answer in ("covered", "uncovered"), f"lean answered {lean.answer}: {where}"
    if lean.answer == "uncovered":
        assert lean.witness is not None and vector(globs, lean.witness) not in listed, f"lean's witness: {where}"
        assert out["vector"] == vector(globs, lean.witness), f"lean's vector is not fnmatchcase's: {where}"
    if z.answer in ("unsupported", "unknown"):
        return "unsupported" if z.answer == "unsupported" else "z3 unknown"
    assert z.answer == lean.answer, f"mismatch: {where}"
    if z.answer == "uncovered":
        assert z.witness is not None and vector(globs, z.witness) not in listed, f"z3's witness: {where}"
    return "agree"


def _every_vector_once(oracle: LeanOracle, globs: Sequence[str]) -> dict[str, int]:
    """For each vector ``v``, the listed set of every other vector: uncovered exactly when some string has
    ``v``. Returns how many questions each side answered alike and how many were unsupported by Z3."""
    seen = {"agree": 0, "unsupported": 0, "z3 unknown": 0}
    vectors = ["".join(bits) for bits in itertools.product("01", repeat=len(globs))]
    for v in vectors:
        seen[_compare(oracle, globs, [u for u in vectors if u != v])] += 1
    return seen


def test_lean_and_z3_agree_on_generated_glob_sets(oracle: LeanOracle) -> None:
    rng = random.Random(6)
    seen = {"agree": 0, "unsupported": 0, "z3 unknown": 0}
    for _ in range(40):
        globs = [_glob(rng) for _ in range(rng.randint(1, 3))]
        for k, n in _every_vector_once(oracle, globs).items():
            seen[k] += n
    assert seen["agree"] >= 150 and seen["z3 unknown"] == 0, seen


def test_lean_and_z3_agree_on_the_corpus_revision_globs(oracle: LeanOracle) -> None:
    asked = unknown = 0
    done: set[tuple[str, ...]] = set()
    for e in load_manifest():
        lists = (e.base.policy.user, e.base.policy.application, e.new.user, e.new.application)
        by_action: dict[str, set[str]] = {}
        for xs in lists:
            for entry in xs:
                if isinstance(entry.resource, GlobPat):
                    by_action.setdefault(entry.action, set()).add(entry.resource.glob)
        for globs in by_action.values():
            key = tuple(sorted(globs))[:4]
            if key in done:
                continue
            done.add(key)
            seen = _every_vector_once(oracle, key)
            asked += seen["agree"]
            unknown += seen["z3 unknown"]
    assert asked >= 20 and unknown == 0, (asked, unknown)


def test_a_listed_set_of_the_wrong_width_is_an_input_error(oracle: LeanOracle) -> None:
    with pytest.raises(OracleError) as err:
        oracle.call("glob_cover", lean_input(["a*", "*b"], ["1"]))
    assert err.value.kind == "input" and "listed[0]" in err.value.message
