"""Scaling out on Dask distributed (issue 15 §3): the explicit search partitioned by state hash
(``search.py``, ``partition.py``), DRT campaigns and the revision corpus sharded over a cluster
(``shard.py``), and how to reach a cluster (``cluster.py``). Needs the ``dist`` extra."""
