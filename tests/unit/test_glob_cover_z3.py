"""Z3's answer to the glob half of effect coverage (``model/revision/trusted/glob_cover.py``), checked without
Lean: a vector some short string has is found uncovered when it is left out, and every witness Z3 gives has,
by the monitor's ``fnmatchcase``, a vector that is not listed."""

from __future__ import annotations

import itertools

from model.revision.trusted.glob_cover import lean_input, vector, z3_cover

GLOB_SETS = [["a*", "*b"], ["logs/*.log", "*.log", "tmp/*"], ["[a-c]x", "[!d]?"], ["?", "??", "*"], ["[]a]", "["]]
ALPHABET = "ab/.lgotmpxcd[]"


def _short_vectors(globs: list[str]) -> set[str]:
    return {vector(globs, "".join(s)) for n in range(4) for s in itertools.product(ALPHABET, repeat=n)}


def test_a_vector_a_short_string_has_is_uncovered_when_left_out() -> None:
    for globs in GLOB_SETS:
        every = ["".join(v) for v in itertools.product("01", repeat=len(globs))]
        for v in sorted(_short_vectors(globs)):
            got = z3_cover(globs, [u for u in every if u != v])
            assert got.answer == "uncovered" and got.witness is not None, (globs, v, got)
            assert vector(globs, got.witness) == v, (globs, v, got)


def test_listing_every_vector_is_covered_and_an_inclusion_is_found() -> None:
    every = ["".join(v) for v in itertools.product("01", repeat=2)]
    assert z3_cover(["a*", "*b"], every).answer == "covered"
    # every string under logs/ ending in .log also ends in .log: "10" (only the narrower one) never occurs
    assert z3_cover(["logs/*.log", "*.log"], ["00", "01", "11"]).answer == "covered"
    assert z3_cover(["[a-]"], ["0"]).answer == "unsupported"


def test_the_lean_input_names_every_key() -> None:
    assert lean_input(["a"], ["1"]) == {"globs": ["a"], "listed": ["1"]}
