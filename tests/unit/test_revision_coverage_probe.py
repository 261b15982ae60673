"""The fast path's coverage query is first tried within a limit of Z3 steps and, past it, proved by the
split (coverage_split.py): a question past the probe is proved without running into the 3 s limit, and the
probe changes no answer — the same judgments with every question sent past it, and a refusal reports the
same witness."""

from __future__ import annotations

from dataclasses import replace

import pytest
from pytest import MonkeyPatch

from model.revision.certify import checker, coverage_split
from model.revision.certify.checker import Invalid, Valid
from model.revision.certify.simulation import SimulationProof, simulate
from model.revision.certify.simulation_certificate import check_simulation
from model.revision.corpus import Entry, load_manifest
from model.revision.explore.memo import SHARED
from model.revision.revise import revise
from model.revision.smt import solve as solve_module

ENTRIES = {e.id: e for e in load_manifest()}
SAMPLE = ("clean_insert_log", "clean_drop_keep_deny", "delete_widen_second", "pay_app_four",
          "deploy_user_staging_three", "delete_widen_first")  # per-list and joint simulations, a regression


def _proof(e: Entry) -> SimulationProof:
    proof = simulate(e.base.policy, e.new, e.effects)
    assert isinstance(proof, SimulationProof)
    return proof


def test_a_query_past_the_probe_is_proved_by_the_split_without_the_long_query(monkeypatch: MonkeyPatch) -> None:
    e = ENTRIES["clean_insert_log"]
    proof = _proof(e)
    kept: list[int] = []  # the step limit of every question asked on the checker's kept solver
    splits: list[object] = []
    real_solve, real_split = solve_module.solve, checker.split_covers

    def spy_solve(*args: object, **kw: object) -> object:
        if len(args) > 2 and args[2] is not None:  # on the kept solver (the split asks fresh ones)
            kept.append(int(str(args[4])) if len(args) > 4 else 0)
        return real_solve(*args, **kw)  # type: ignore[arg-type]

    def spy_split(*args: object) -> object:
        splits.append(args)
        return real_split(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(coverage_split, "solve", spy_solve)
    monkeypatch.setattr(checker, "split_covers", spy_split)
    SHARED.clear()
    assert isinstance(check_simulation(proof, e.base.policy, e.new), Valid)
    assert len(splits) == 1  # one question (the user list's remove positions) went past the probe
    assert kept and all(limit == coverage_split.PROBE_STEPS for limit in kept)  # never the 3 s query


@pytest.mark.parametrize("entry", SAMPLE)
def test_every_question_past_the_probe_gives_the_same_judgment(monkeypatch: MonkeyPatch, entry: str) -> None:
    e = ENTRIES[entry]

    def judge() -> object:
        SHARED.clear()  # no coverage proof kept from the other run
        return revise(e.base.policy, e.new, e.effects, e.base.workload, e.base.bound, e.prefix).judgment()

    want = judge()
    monkeypatch.setattr(coverage_split, "PROBE_STEPS", 1)
    assert judge() == want


def test_a_refusal_past_the_probe_names_the_same_witness(monkeypatch: MonkeyPatch) -> None:
    e = ENTRIES["clean_insert_log"]
    proof = _proof(e)
    fewer = replace(proof, user=replace(proof.user, vectors=tuple((a, vs[1:]) for a, vs in proof.user.vectors)))
    SHARED.clear()
    want = check_simulation(fewer, e.base.policy, e.new)
    assert isinstance(want, Invalid) and "omits" in want.reason
    monkeypatch.setattr(coverage_split, "PROBE_STEPS", 1)
    SHARED.clear()
    assert check_simulation(fewer, e.base.policy, e.new) == want
