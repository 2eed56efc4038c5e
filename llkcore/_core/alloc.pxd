# cython: language_level=3
"""Every allocation a kernel makes goes through here (alloc.pyx): one place to free what a failed
step got, and a test hook that makes the Nth allocation fail (see docs/architecture.md,
"Memory")."""
from libc.stdint cimport int32_t, int64_t

cdef void *llk_malloc(size_t size) noexcept nogil
cdef void *llk_calloc(size_t count, size_t size) noexcept nogil
cdef void llk_free(void *p) noexcept nogil
# Grow ``*data`` (``*cap`` items of ``itemsize`` bytes) to hold at least ``need`` items, doubling;
# on failure ``*data`` and ``*cap`` are unchanged and False is returned (scikit-learn's
# safe_realloc, without the exception).
cdef bint grow(void **data, int64_t *cap, int64_t need, size_t itemsize) noexcept nogil


# A growable int32 vector; ``data`` is freed with llk_free.
cdef struct IVec:
    int32_t *data
    int64_t n, cap


cdef inline bint ivec_reserve(IVec *v, int64_t need) noexcept nogil:
    return grow(<void **>&v.data, &v.cap, need, sizeof(int32_t))
