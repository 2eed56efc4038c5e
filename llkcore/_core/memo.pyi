"""Stub for the compiled module llkcore._core.memo (the exact searches' dead-state table)."""

#: Default cap of the dead-state table, in entries of 16 bytes.
MEMO_ENTRIES: int

def kept_after(puts: list[tuple[int, int, int]], max_entries: int) -> list[bool]: ...
