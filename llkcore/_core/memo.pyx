# cython: language_level=3
"""The dead-state table of the exact searches: a capped, growing set of 128-bit keys.

The cap bounds the table's memory at every moment, growth included: a doubling extends the one
block in place (``grow``, a realloc) and splits each bucket into itself and its new twin, so no
second table ever exists beside the first (docs/architecture.md, "Memory": measured with
tracemalloc, a gravity solve's search adds the table and a few hundred KiB, not 1.5 times the
table).
"""
from libc.stdint cimport int64_t, uint64_t
from libc.string cimport memset

from .alloc cimport grow, llk_calloc, llk_free
from .grid cimport llk_clz64

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


cdef void memo_insert(Memo *m, uint64_t k0, uint64_t k1, uint64_t weight) noexcept nogil:
    """Slot 0 keeps the entry of most work, slot 1 the newest other one (memo.pxd); k1 has only
    its key bits."""
    cdef uint64_t *b = m.keys + 4 * (k0 & <uint64_t>(m.nbuckets - 1))
    cdef uint64_t w1 = k1 | (weight << (64 - MEMO_WEIGHT_BITS))
    if memo_has(m, k0, k1):
        return
    if b[0] == 0 and b[1] == 0:
        b[0] = k0
        b[1] = w1
        m.used += 1
        return
    if b[2] == 0 and b[3] == 0:
        m.used += 1
    if weight >= b[1] >> (64 - MEMO_WEIGHT_BITS):
        b[2] = b[0]
        b[3] = b[1]
        b[0] = k0
        b[1] = w1
    else:
        b[2] = k0
        b[3] = w1


cdef inline void bucket_add(uint64_t *b, uint64_t k0, uint64_t k1) noexcept nogil:
    """Into a bucket being refilled in slot order: the first free slot."""
    if b[0] == 0 and b[1] == 0:
        b[0] = k0
        b[1] = k1
    else:
        b[2] = k0
        b[3] = k1


cdef bint memo_double(Memo *m) noexcept nogil:
    """Double the buckets in place: bucket i keeps the keys whose bit ``nbuckets`` is 0 and
    hands the others to bucket i + nbuckets, each in its slot order. False (table unchanged)
    when the memory cannot be had."""
    cdef int64_t nb = m.nbuckets, words = 4 * nb, i
    cdef uint64_t *b
    cdef uint64_t *twin
    cdef uint64_t e[4]
    if not grow(<void **>&m.keys, &words, 8 * nb, sizeof(uint64_t)):
        return False
    memset(m.keys + 4 * nb, 0, 4 * <size_t>nb * sizeof(uint64_t))
    for i in range(nb):
        b = m.keys + 4 * i
        twin = m.keys + 4 * (i + nb)
        e[0] = b[0]
        e[1] = b[1]
        e[2] = b[2]
        e[3] = b[3]
        b[0] = b[1] = b[2] = b[3] = 0
        if e[0] or e[1]:
            bucket_add(twin if e[0] & <uint64_t>nb else b, e[0], e[1])
        if e[2] or e[3]:
            bucket_add(twin if e[2] & <uint64_t>nb else b, e[2], e[3])
    m.nbuckets = 2 * nb
    return True


cdef void memo_put(Memo *m, uint64_t k0, uint64_t k1, int64_t work) noexcept nogil:
    """Remember a dead state that took ``work`` (nodes of its subtree; 0 when it costs nothing to
    find again): at the cap, entries of more work push out those of less (memo.pxd). Growing is
    best effort: if the bigger table cannot be had, the current one keeps working (and replaces
    old entries sooner)."""
    # The bit length of a positive int64 is at most 63, so it fits MEMO_WEIGHT_BITS.
    cdef uint64_t weight = 0 if work <= 0 else <uint64_t>(64 - llk_clz64(<uint64_t>work))
    k1 = memo_key_bits(k1)
    if k0 == 0 and k1 == 0:
        return
    if m.used > m.nbuckets and m.nbuckets < m.max_buckets:
        memo_double(m)
    memo_insert(m, k0, k1, weight)


def kept_after(puts, int64_t max_entries):
    """Test hook: put each (k0, k1, work) of ``puts`` into a new table capped at ``max_entries``
    and return, for each, whether the table still has it."""
    cdef Memo m
    cdef uint64_t k0, k1
    if not memo_init(&m, max_entries):
        raise MemoryError()
    try:
        for k0, k1, work in puts:
            memo_put(&m, k0, k1, work)
        return [bool(memo_has(&m, k0, k1)) for k0, k1, _ in puts]
    finally:
        memo_free(&m)
