# cython: language_level=3
"""Hashing and the table of dead states the exact searches keep (memo.pyx)."""
from libc.stdint cimport int64_t, uint64_t

from .grid cimport llk_prefetch


cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    """splitmix64's finaliser: a bijective scramble of 64 bits."""
    x += <uint64_t>0x9E3779B97F4A7C15
    x = (x ^ (x >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    x = (x ^ (x >> 27)) * <uint64_t>0x94D049BB133111EB
    return x ^ (x >> 31)


# A set of 128-bit keys (two words; (0, 0) is never stored) in buckets of two. It starts small
# and doubles while more than half full, up to ``max_buckets``, so memory never grows past the cap.
# Each entry carries a weight, the bit length of the work that proved it (memo_put): slot 0 holds
# the entry of most work, slot 1 the newest other one, so at the cap a new key replaces slot 1
# unless it has at least slot 0's weight (then slot 0 moves to slot 1). With every weight 0 this
# is newest first, oldest dropped. The weight lives in the top MEMO_WEIGHT_BITS bits of the
# second word, so keys match on the other 122 bits (docs/architecture.md, "Memory").
cdef struct Memo:
    uint64_t *keys          # 4 words per bucket; (0, 0) = an empty slot
    int64_t nbuckets        # power of two
    int64_t max_buckets     # the cap
    int64_t used


cdef enum:
    MEMO_WEIGHT_BITS = 6


cdef inline uint64_t memo_key_bits(uint64_t k1) noexcept nogil:
    """The part of a key's second word that is matched (the rest holds the entry's weight)."""
    return k1 & ((<uint64_t>1 << (64 - MEMO_WEIGHT_BITS)) - 1)


cdef bint memo_init(Memo *m, int64_t max_entries) noexcept nogil
cdef void memo_put(Memo *m, uint64_t k0, uint64_t k1, int64_t work) noexcept nogil
cdef void memo_free(Memo *m) noexcept nogil


cdef inline void memo_prefetch(const Memo *m, uint64_t k0) noexcept nogil:
    """Start loading k0's bucket: a lookup soon after then finds it in the cache (the table is
    far bigger than the cache, so a lookup is otherwise a miss)."""
    llk_prefetch(m.keys + 4 * (k0 & <uint64_t>(m.nbuckets - 1)))


cdef inline bint memo_has(const Memo *m, uint64_t k0, uint64_t k1) noexcept nogil:
    cdef uint64_t *b = m.keys + 4 * (k0 & <uint64_t>(m.nbuckets - 1))
    cdef uint64_t k = memo_key_bits(k1)
    return (b[0] == k0 and memo_key_bits(b[1]) == k) or (b[2] == k0 and memo_key_bits(b[3]) == k)
