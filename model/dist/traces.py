"""The driver's side of a level's query events in the partitioned search (``search.py``): the least hit
per query with its shortest trace, premises, and per cone the orders of its least edge — what
``model/search/explicit.py`` keeps, in the order it meets edges (order keys, ``partition.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from model.dist import links as lk
from model.dist import partition as part
from model.dist.cluster import gather
from model.search.compact import Compact, empty
from model.search.expand import Context, Key
from model.search.explicit import Link, rebuild
from model.search.fingerprint import replay
from model.search.model import SearchModel
from model.search.search_verdict import Trace
from model.search.states import Transition

if TYPE_CHECKING:
    from distributed import Client, Future

Cones = dict[int, dict[str, tuple[part.OrderKey, frozenset[Trace]]]]
_NOWHERE: Compact = ((), (), frozenset(), (), (), frozenset(), ())  # ``rebuild`` reads only transitions


class Tracer:
    """Rebuilds the traces of hits through the partitions of one search."""

    def __init__(self, client: Client, sid: str, where: list[list[str]], model: SearchModel,
                 fingerprints: bool) -> None:
        self.client, self.sid, self.where, self.model, self.fingerprints = client, sid, where, model, fingerprints
        self.needs = [w[0] for w in where]
        self._ctx: Context | None = None

    def fold(self, layer: int, summaries: list[part.Summary], found: dict[int, Trace], premise: list[bool],
             complete: Cones) -> None:
        """Fold one complete level's summaries in (the frontier expanded was level ``layer``)."""
        best: dict[int, part.Hit] = {}
        fresh: Cones = {}
        for s in summaries:
            for i, hit in s.hits:
                if i not in found and (i not in best or hit[0] < best[i][0]):
                    best[i] = hit
            for i in s.premises:
                premise[i] = True
            for i, (ckey, ekey, ts) in s.completions:
                if ckey not in complete[i] and (ckey not in fresh.setdefault(i, {}) or ekey < fresh[i][ckey][0]):
                    fresh[i][ckey] = (ekey, ts)
        for i, cones in fresh.items():
            complete[i].update(cones)
        if best:
            hits = list(best.values())
            traces = self._replayed(layer, hits) if self.fingerprints else self._traces(hits)
            for i, trace in zip(best, traces, strict=True):
                found[i] = trace

    def _ask(self, fn: Callable[..., tuple[object, ...]], asks: dict[int, list[object]]
             ) -> dict[int, tuple[object, ...]]:
        futs: dict[int, Future[tuple[object, ...]]] = {
            p: self.client.submit(fn, self.sid, p, tuple(a), workers=self.where[p], pure=False)
            for p, a in asks.items()}
        return dict(zip(futs, gather(self.client, list(futs.values()), self.needs), strict=True))

    def _traces(self, hits: list[part.Hit]) -> list[Trace]:
        """Exact mode: walk each hit's parent links back to the root, one round of lookups per level for
        all hits, then ask each parent's partition for the transitions the links name by key (one round)."""
        paths: list[list[tuple[int, part.OrderKey, Transition | Key, int | None]]] = [
            [(h[1], h[2], h[3], h[4])] for h in hits]
        at: list[tuple[int, part.OrderKey]] = [(h[1], h[2]) for h in hits]
        while any(a[1] for a in at):
            asks: dict[int, list[object]] = {}
            for a in at:
                if a[1]:
                    asks.setdefault(a[0], []).append(a[1])
            got = {p: dict(zip(asks[p], ls, strict=True)) for p, ls in self._ask(lk.links, asks).items()}
            for n, a in enumerate(at):
                if not a[1]:
                    continue
                link = got[a[0]][a[1]]
                assert isinstance(link, tuple), "only the root has no link, and its key is ()"
                key, pp, tkey, pos = link
                paths[n].append((pp, key[:-1], tkey, pos))
                at[n] = (pp, key[:-1])
        wanted: dict[int, list[object]] = {}
        for path in paths:
            for pp, okey, tr, _ in path:
                if not isinstance(tr, Transition):
                    wanted.setdefault(pp, []).append((okey, tr))
        made = {(p, ask): tr for p, trs in self._ask(lk.steps, wanted).items()
                for ask, tr in zip(wanted[p], trs, strict=True)}
        return [rebuild([(_NOWHERE, tr if isinstance(tr, Transition) else made[(pp, (okey, tr))], pos)  # type: ignore[misc]
                          for pp, okey, tr, pos in reversed(path)]) for path in paths]

    def _replayed(self, layer: int, hits: list[part.Hit]) -> list[Trace]:
        """Fingerprint mode: walk the (level, index) links back to the root, one round per level for all
        hits, then replay the transition keys from the initial state here."""
        keys: list[list[Key]] = [[] for _ in hits]
        at = [(h[1], h[5]) for h in hits]
        for level in range(layer, 0, -1):
            asks: dict[int, list[object]] = {}
            for p, i in at:
                asks.setdefault(p, []).append((level, i))
            got = {p: dict(zip(asks[p], bs, strict=True)) for p, bs in self._ask(lk.backs, asks).items()}
            for n, (p, i) in enumerate(at):
                pp, pidx, tkey, _pos = cast(lk.Back, got[p][(level, i)])
                keys[n].append(tkey)
                at[n] = (pp, pidx)
        return [rebuild([*self._replay(ks[::-1]), (_NOWHERE, h[3], h[4])]) for ks, h in zip(keys, hits, strict=True)]

    def _replay(self, keys: list[Key]) -> list[Link]:
        if self._ctx is None:
            self._ctx = Context(self.model, renaming=not self.model.policy.histories)
        return replay(self._ctx, empty(self.model.policy), keys)[0]
