"""The durable runtime driven as an Agent drives it, for the bounded bisimulation check
(*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Sections VI-B and Appendices A-I, A-K, A-L),
and its deliberately broken variants.

An edit is ``check``, then the τ-steps ``preload`` and ``try_update`` (re-checking after a ``NoCommit``,
at most four attempts); a tool call presents the published token and the action's certified request;
a restart closes and reopens the SQLite store. Broken variants: ``TWO_COMMIT_UPDATE`` replays each
rule update as two commits (every rule entry withdrawn, then the new ones), so a restart right after
it leaves no rules in force; ``NO_FINAL_CHECK`` installs the checked answer without ``Ready(S, u, Y)``;
``PRELOAD_ACTIVATES`` makes the prepared rules current already at Preload.
Choice where the paper is silent: the variants drive the store through its private ``_step`` (a test
double of a faulty implementation, never used by the runtime itself).
"""

from __future__ import annotations

import enum
from dataclasses import replace
from typing import Any

from model.base.canonical import canonical_str
from model.edits.ideal import machine as M
from model.edits.runtime.answers import (
    Deny,
    EditAccepted,
    EditInvalid,
    EditRejected,
    New,
    NoCommit,
    Reuse,
    Saved,
    Sent,
    Settled,
    Updated,
)
from model.edits.runtime.derive import derive
from model.edits.runtime.forms import Edit, edit_to_json
from model.edits.runtime.record import State
from model.edits.runtime.registration import Registration
from model.edits.runtime.runtime import Runtime
from model.edits.runtime.steps import install

Action = tuple[Any, ...]
VALUE = {"ok": True}


class Broken(enum.Enum):
    TWO_COMMIT_UPDATE = "two-commit-update"  # the rule update is not atomic; a crash splits it
    NO_FINAL_CHECK = "no-final-check"  # try_update installs the answer without Ready(S, u, Y)
    PRELOAD_ACTIVATES = "preload-activates"  # Preload makes the prepared rules current at once


class RuntimeSide:
    """The durable runtime driven as an Agent drives it, optionally broken."""

    def __init__(self, path: str, reg: Registration, seed: bytes, broken: Broken | None = None) -> None:
        self.path, self.broken = path, broken
        self.rt, _ = Runtime.create(path, reg, seed)
        self.pending: State | None = None  # the second half of a two-commit update

    def _token(self, call: str) -> str:
        t = self.rt.token(call)
        if t is None:
            t = next((p.token for p in self.rt.state().processed if p.call == call), "")
        return t

    def _finish_pending(self) -> None:
        if self.pending is not None:
            done, self.pending = self.pending, None
            self.rt._step("update-rest", {}, lambda s: (None, done))

    def use(self, x: str) -> M.Obs:
        a = self.rt.use(x, self._token(x), self.rt.request_of(x))
        if isinstance(a, New | Reuse):
            return ("new" if isinstance(a, New) else "reuse", x, a.action)
        return ("deny", x)

    def _update(self, u: Edit, a: EditAccepted) -> Updated | NoCommit:
        if self.broken is Broken.NO_FINAL_CHECK:
            d = derive(self.rt.state(), u)
            if not hasattr(d, "instance"):
                return self.rt.try_update(u, a)
            text = canonical_str(edit_to_json(u))
            self.rt._step("update", {}, lambda s: (None, install(s, d, a.verdict, text, a.digest, self.rt.key,  # type: ignore[arg-type]
                                                                  a.eta_new)))
            return Updated(a.eta_new)
        if self.broken is Broken.TWO_COMMIT_UPDATE:
            before = self.rt.state()
            got = self.rt.try_update(u, a)
            if isinstance(got, Updated):
                after = self.rt.state()
                # replay it as two commits: first every rule entry withdrawn, then the new ones
                self.rt._step("update-half", {}, lambda s: (None, replace(before, entries=(), eta=None,
                                                                         ver=before.ver + 1)))
                self.pending = after
            return got
        return self.rt.try_update(u, a)

    def _checked(self, u: Edit) -> EditAccepted | M.Obs:
        a = self.rt.check(u)
        if isinstance(a, EditInvalid):
            return M.edge_obs("invalid", None)
        if isinstance(a, EditRejected):
            return M.edge_obs("rejected", None)
        assert isinstance(a, EditAccepted)
        if self.broken is Broken.PRELOAD_ACTIVATES:
            self._update(u, a)
            return a
        self.rt.preload(u, a)  # τ
        return a

    def edit(self, u: Edit, racer: str | None = None) -> list[M.Obs]:
        out: list[M.Obs] = []
        for _ in range(4):
            a = self._checked(u)
            if not isinstance(a, EditAccepted):
                return [a, *([] if racer is None else [self.use(racer)])]
            if racer is not None:
                out.append(self.use(racer))
                racer = None
            if self.broken is Broken.PRELOAD_ACTIVATES:
                return [*out, M.edge_obs("accepted", self.pending or self.rt.state())]
            got = self._update(u, a)
            if isinstance(got, Updated):
                return [*out, M.edge_obs("accepted", self.pending or self.rt.state())]
        return [*out, ("edit", "no-commit")]

    def step(self, act: Action) -> list[M.Obs]:
        kind = act[0]
        if kind == "restart":
            self.pending = None  # a crash between the two commits loses the second
            self.rt.close()
            self.rt = Runtime(self.path)
            return []
        self._finish_pending()
        if kind == "use":
            return [self.use(act[1])]
        if kind == "retry":
            x = act[1]
            r = self.rt.retry(x, self._token(x), self.rt.request_of(x))
            if isinstance(r, Deny):
                return [("deny", x)]
            return [("return", x, "null" if r.value is None else canonical_str(r.value))]
        if kind == "checkpoint":
            c = self.rt.checkpoint(act[1], act[2])
            return [("checkpoint", act[1], "saved" if isinstance(c, Saved) else c.reason)]
        if kind == "dispatch":
            d = self.rt.dispatch()
            return [("sent", d.action) if isinstance(d, Sent) else ("queue-empty",)]
        if kind == "settle":
            t = self.rt.settle(act[1], VALUE)
            return [("settled", act[1]) if isinstance(t, Settled) else ("settle-refused", act[1], t.reason)]
        if kind == "edit":
            return self.edit(act[1])
        return self.edit(act[1], act[2])

    def close(self) -> None:
        self.rt.close()


