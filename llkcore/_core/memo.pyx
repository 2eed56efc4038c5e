# cython: language_level=3
"""The dead-state table of the exact searches: a capped, growing set of 128-bit keys."""
from libc.stdint cimport int64_t, uint64_t

from .alloc cimport llk_calloc, llk_free

#: Default cap of the dead-state table, in entries (16 bytes each): 2**21 entries = 32 MiB.
MEMO_ENTRIES = 1 << 21

# Buckets of a new table.
cdef enum:
    MEMO_START_BUCKETS = 1 << 10


cdef bint memo_init(Memo *m, int64_t max_entries) noexcept nogil:
    cdef int64_t cap = 1
    while cap * 4 <= max_entries:
        cap *= 2
    m.max_buckets = cap
    m.nbuckets = MEMO_START_BUCKETS if MEMO_START_BUCKETS < cap else cap
    m.used = 0
    m.keys = <uint64_t *>llk_calloc(<size_t>(4 * m.nbuckets), sizeof(uint64_t))
    return m.keys != NULL


cdef void memo_free(Memo *m) noexcept nogil:
    llk_free(m.keys)
    m.keys = NULL


cdef void memo_insert(Memo *m, uint64_t *keys, int64_t nbuckets, uint64_t k0, uint64_t k1) noexcept nogil:
    """Newest entry first in its bucket; the older one moves to slot 1, the oldest is dropped."""
    cdef uint64_t *b = keys + 4 * (k0 & <uint64_t>(nbuckets - 1))
    if (b[0] == k0 and b[1] == k1) or (b[2] == k0 and b[3] == k1):
        return
    if b[0] == 0 and b[1] == 0:
        b[0] = k0
        b[1] = k1
        m.used += 1
        return
    if b[2] == 0 and b[3] == 0:
        m.used += 1
    b[2] = b[0]
    b[3] = b[1]
    b[0] = k0
    b[1] = k1


cdef void memo_put(Memo *m, uint64_t k0, uint64_t k1) noexcept nogil:
    """Remember a dead state. Growing is best effort: if the bigger table cannot be had, the
    current one keeps working (and replaces old entries sooner)."""
    cdef int64_t i, nb
    cdef uint64_t *bigger
    if k0 == 0 and k1 == 0:
        return
    if m.used > m.nbuckets and m.nbuckets < m.max_buckets:
        nb = m.nbuckets * 2
        bigger = <uint64_t *>llk_calloc(<size_t>(4 * nb), sizeof(uint64_t))
        if bigger != NULL:
            m.used = 0
            # Re-insert the older entries first so each bucket keeps its recency order.
            for i in range(m.nbuckets):
                if m.keys[4 * i + 2] or m.keys[4 * i + 3]:
                    memo_insert(m, bigger, nb, m.keys[4 * i + 2], m.keys[4 * i + 3])
            for i in range(m.nbuckets):
                if m.keys[4 * i] or m.keys[4 * i + 1]:
                    memo_insert(m, bigger, nb, m.keys[4 * i], m.keys[4 * i + 1])
            llk_free(m.keys)
            m.keys = bigger
            m.nbuckets = nb
    memo_insert(m, m.keys, m.nbuckets, k0, k1)
