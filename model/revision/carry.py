"""The account correspondence that carries usage from old positions to new ones, for revisions
installed mid-task (Agenra Section 7.1: "a prefix-compatible extension retains quotas, usage and
matching predicates at old positions"; a capacity extension "gives each old position at least its
old residual capacity: m − u for finite quota m and usage u, or ∞").

The source states the rules in terms of usage but does not say how a running task's counters are
moved onto a revised list; 7.1 only requires that "bindings agree". Our choice, per permission list
(``P`` and ``A`` separately), pairs each old allow with at most one new allow, in three passes over
the positions still unpaired, each in list order:

1. ``identical``: the same entry (canonical JSON, ``identity.entry_key``) — an unchanged grant keeps
   its counter wherever it moved, so an adjacent swap moves the counter with its account;
2. ``same matching``: the same matching fields, quota, requirement or permit changed
   (``identity.match_key``) — a quota raise or cut keeps the counter;
3. ``same action``: the same action, matching edited in place (widened, narrowed, rewritten).

An unpaired new allow (an appended or inserted grant) starts at 0; an unpaired old allow (a removed
grant) loses its counter; denies carry no usage. A counter carried onto a finite quota below it is
clamped to that quota: the account is exhausted either way (``ledger.has_capacity`` is false for
both), and clamping keeps the carried state well-formed ("counters stay within their finite limits",
Section 6.1). Everything else in the state — trace, labels, lineage, bindings, invalid slots,
satisfied requirements, permits — is carried unchanged, so bindings agree as 7.1 requires.

Bindings are carried even when the revision changes resolver rules, so a binding may not be one the
new resolver would have made; such revisions change more than the two lists and are outside every
certificate rule (``conditions.monitor_unchanged``), so only the bounded search judges them.

``check_correspondence`` re-verifies a correspondence (in range, injective, allow to allow, each pair
justified by what its ``how`` claims) without trusting ``correspond``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from model.base.canonical import JSON
from model.monitor.decide.state import State
from model.monitor.language.policy import Entry, EntryKind, Policy
from model.revision.identity import entry_key, match_key


@dataclass(frozen=True, slots=True)
class Pair:
    old: int
    new: int
    how: str  # "identical" | "same matching" | "same action"


@dataclass(frozen=True, slots=True)
class SideCorrespondence:
    side: str  # "P" or "A"
    pairs: tuple[Pair, ...]

    def to_json(self) -> list[JSON]:
        return [{"old": p.old, "new": p.new, "how": p.how} for p in self.pairs]


@dataclass(frozen=True, slots=True)
class Correspondence:
    user: SideCorrespondence
    application: SideCorrespondence

    def to_json(self) -> dict[str, JSON]:
        return {"P": self.user.to_json(), "A": self.application.to_json()}


@dataclass(frozen=True, slots=True)
class Ledgers:
    """Usage of both lists before (old policy, state S) and after (new policy, carried state)."""

    old_user: tuple[int, ...]
    old_app: tuple[int, ...]
    new_user: tuple[int, ...]
    new_app: tuple[int, ...]

    @staticmethod
    def zero(old: Policy, new: Policy) -> Ledgers:
        return Ledgers((0,) * len(old.user), (0,) * len(old.application), (0,) * len(new.user),
                       (0,) * len(new.application))

    def show(self) -> str:
        return (f"P {list(self.old_user)} → P′ {list(self.new_user)}, "
                f"A {list(self.old_app)} → A′ {list(self.new_app)}")


def _action(e: Entry) -> str:
    return e.action


_PASSES: tuple[tuple[str, Callable[[Entry], str]], ...] = (
    ("identical", entry_key), ("same matching", match_key), ("same action", _action))


def correspond_list(old: Sequence[Entry], new: Sequence[Entry], side: str) -> SideCorrespondence:
    pairs: list[Pair] = []
    free_new = [j for j, e in enumerate(new) if e.kind is EntryKind.ALLOW]
    free_old = [i for i, e in enumerate(old) if e.kind is EntryKind.ALLOW]
    for how, key in _PASSES:
        for i in list(free_old):
            j = next((j for j in free_new if key(new[j]) == key(old[i])), None)
            if j is not None:
                pairs.append(Pair(i, j, how))
                free_old.remove(i)
                free_new.remove(j)
    return SideCorrespondence(side, tuple(sorted(pairs, key=lambda p: p.old)))


def correspond(old: Policy, new: Policy) -> Correspondence:
    return Correspondence(correspond_list(old.user, new.user, "P"),
                          correspond_list(old.application, new.application, "A"))


def carried_usage(corr: SideCorrespondence, new: Sequence[Entry], used: Sequence[int]) -> tuple[int, ...]:
    out = [0] * len(new)
    for p in corr.pairs:
        quota = new[p.new].quota
        out[p.new] = used[p.old] if quota is None else min(used[p.old], quota)
    return tuple(out)


def carry(state: State, corr: Correspondence, new: Policy) -> State:
    """The state the new policy starts from: ``state`` with its counters carried."""
    return replace(state, used_user=carried_usage(corr.user, new.user, state.used_user),
                   used_app=carried_usage(corr.application, new.application, state.used_app))


def check_list(corr: SideCorrespondence, old: Sequence[Entry], new: Sequence[Entry]) -> str | None:
    """Why the correspondence of one list is not acceptable, or ``None``."""
    seen_old: set[int] = set()
    seen_new: set[int] = set()
    for p in corr.pairs:
        if not (0 <= p.old < len(old) and 0 <= p.new < len(new)):
            return f"{corr.side}: pair {p.old}→{p.new} is out of range"
        if p.old in seen_old or p.new in seen_new:
            return f"{corr.side}: pair {p.old}→{p.new} is not injective"
        seen_old.add(p.old)
        seen_new.add(p.new)
        a, b = old[p.old], new[p.new]
        if a.kind is not EntryKind.ALLOW or b.kind is not EntryKind.ALLOW:
            return f"{corr.side}: pair {p.old}→{p.new} does not relate two allows"
        key = dict(_PASSES).get(p.how)
        if key is None or key(a) != key(b):
            return f"{corr.side}: pair {p.old}→{p.new} is not {p.how!r}"
    return None


def check_correspondence(corr: Correspondence, old: Policy, new: Policy) -> str | None:
    return check_list(corr.user, old.user, new.user) or check_list(corr.application, old.application,
                                                                   new.application)
