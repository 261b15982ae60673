"""The durable stores every system keeps its rows in (the edit runtime's records, Edit checking §VI and its
Appendix on restarts; the admission stores of Resumable attempts §4 and Parmana §5): the store kinds and
their schemas (``kinds``), the embedded SQLite backend (``sqlite``), the shared PostgreSQL backend
(``postgres``) and a throwaway PostgreSQL server for tests and experiments (``pgserver``).
"""
