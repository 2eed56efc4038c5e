# cython: language_level=3
"""The deals' random stream (inline): xoshiro256** on a 4-word state the caller owns, with
Lemire's unbiased bounded integers on 32-bit draws. Plain 64-bit integer arithmetic, so a seed
gives the same numbers on every platform and numpy version."""
from libc.stdint cimport int32_t, uint32_t, uint64_t


cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t rng_next(uint64_t *s) noexcept nogil:
    """xoshiro256** (Blackman and Vigna)."""
    cdef uint64_t result = rotl(s[1] * 5, 7) * 9
    cdef uint64_t t = s[1] << 17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 45)
    return result


cdef inline uint32_t rng_below(uint64_t *s, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n), n >= 1 (Lemire's multiply-and-reject, no bias)."""
    cdef uint64_t m = (rng_next(s) >> 32) * <uint64_t>n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>0 - n) % n
        while low < threshold:
            m = (rng_next(s) >> 32) * <uint64_t>n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline void permute_ints(int32_t *values, Py_ssize_t n, uint64_t *s) noexcept nogil:
    """Fisher-Yates shuffle in place."""
    cdef Py_ssize_t i, j
    cdef int32_t t
    for i in range(n - 1, 0, -1):
        j = rng_below(s, <uint32_t>(i + 1))
        t = values[i]
        values[i] = values[j]
        values[j] = t
