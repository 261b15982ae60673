"""Scaling out on Dask distributed: the explicit search of bounded analysis (Agenra Sections 1–3 and 6)
partitioned by decision class (``search.py``, ``partition.py``, ``route.py``), DRT campaigns and the
revision corpus (Agenra Section 7.1) sharded over a cluster (``shard.py``), and how to reach a cluster
(``cluster.py``). The papers say nothing about distribution: the partitioning is ours. Needs the ``dist`` extra."""
