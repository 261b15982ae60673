"""Signatures and signed records (the Parmana paper, Section 4.5, and the keys of Sections 4.3–4.4):
``signing`` (Ed25519 over canonical JSON, key pairs, instants), ``hybrid`` (the signature suites,
Ed25519 alone or with ML-DSA-65, and the raw and KMS-commitment forms), ``records`` (signed intent,
execution, refusal and governance records, their hash chains, offline verification and the record
store) and ``auth_events`` (the per-caller authentication-event chain and its store). Nothing here
imports another admission subpackage.
"""
