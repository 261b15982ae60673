"""Authorization and release (the Parmana paper, Section 4.4): ``authorization`` (signed, single-use,
time-bounded execution authorizations bound to the request's hash), ``gateway`` (the decision
runtime and the release gate, the only code path that calls a connector) and ``execution_control``
(a single-use session and a per-call credential, redacted to a fingerprint in records). Builds on
``decision`` and ``signatures``.
"""
