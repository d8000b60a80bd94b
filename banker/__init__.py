"""The table banker's rules engine and money ledger.

Pure and deterministic: no I/O (except :mod:`banker.journal`), no threads (except the lock in
:mod:`banker.session`), no clock. Money is ``int``.
"""
