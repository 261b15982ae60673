"""The golden vectors' recorded Lean answers, replayed against the Python model on every machine
(no Lean needed; model/oracle/vectors.py), and the toolchain archive's checksum gate."""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from model.base.errors import InvalidInput
from model.oracle.drt import VECTORS, Agree, Mismatch
from model.oracle.toolchain import RELEASE, expected_sha256, file_sha256, unpack
from model.oracle.vectors import replay_all, replay_recorded

DOCS = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(VECTORS.glob("*.json"))}


def test_every_judgment_has_recorded_vectors() -> None:
    judgments = {d["judgment"] for d in DOCS.values()}
    assert judgments == {"edit_check", "resolve", "ledger_allocate", "monitor_step", "monitor"}


@pytest.mark.parametrize("name", sorted(DOCS))
def test_recorded_oracle_answer_agrees_with_the_model(name: str) -> None:
    res = replay_recorded(DOCS[name])
    assert isinstance(res, Agree), res


def _perturb(doc: dict[str, Any]) -> dict[str, Any]:
    bad = copy.deepcopy(doc)
    lean = bad["lean"]
    if doc["judgment"] == "edit_check":
        lean["verdicts"] = ["rejected" if lean["verdicts"][0] == "accepted" else "accepted"]
    elif doc["judgment"] == "resolve":
        lean[0][2] = "reuse" if lean[0][2] == "new" else "new"
    elif doc["judgment"] == "ledger_allocate":
        lean["both"] = not lean["both"]
    else:
        lean["decision"] = "pause" if lean["decision"] != "pause" else "allow"
    return bad


@pytest.mark.parametrize("judgment", ["edit_check", "resolve", "ledger_allocate", "monitor_step", "monitor"])
def test_a_changed_recorded_answer_is_a_mismatch(judgment: str) -> None:
    doc = next(d for d in DOCS.values() if d["judgment"] == judgment)
    res = replay_recorded(_perturb(doc))
    assert isinstance(res, Mismatch) and res.judgment == judgment


def test_replay_all_reads_every_file() -> None:
    assert [p.name for p, _ in replay_all()] == sorted(DOCS)


def _archive(tmp_path: Path) -> Path:
    root = tmp_path / "src" / RELEASE / "bin"
    root.mkdir(parents=True)
    for tool in ("lean", "leanpkg"):
        (root / tool).write_text("#!/bin/sh\n", encoding="utf-8")
    archive = tmp_path / "tc.tar.zst"
    subprocess.run(["tar", "--zstd", "-cf", str(archive), "-C", str(tmp_path / "src"), RELEASE], check=True)
    return archive


def test_unpack_checks_the_sha256_named_by_path(tmp_path: Path) -> None:
    archive = _archive(tmp_path)
    # the checksum file may name the archive by another path: only the digest counts
    (tmp_path / "tc.tar.zst.sha256").write_text(f"{file_sha256(archive)}  /elsewhere/x.tar.zst\n", encoding="utf-8")
    tc = unpack(archive, tmp_path / "out" / RELEASE)
    assert (tc.bin_dir / "lean").is_file() and not (tmp_path / "out" / f".{RELEASE}.unpacking").exists()


def test_unpack_refuses_a_corrupt_archive(tmp_path: Path) -> None:
    archive = _archive(tmp_path)
    (tmp_path / "tc.tar.zst.sha256").write_text("0" * 64 + "  tc.tar.zst\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match="SHA-256"):
        unpack(archive, tmp_path / "out" / RELEASE)
    assert not (tmp_path / "out" / RELEASE).exists()
    (tmp_path / "tc.tar.zst.sha256").write_text("not a digest\n", encoding="utf-8")
    with pytest.raises(InvalidInput):
        expected_sha256(tmp_path / "tc.tar.zst.sha256")
