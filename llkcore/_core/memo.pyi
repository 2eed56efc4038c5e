"""Stub for the compiled module llkcore._core.memo (the exact searches' dead-state table)."""

#: Default cap of the dead-state table, in entries of 16 bytes.
MEMO_ENTRIES: int
