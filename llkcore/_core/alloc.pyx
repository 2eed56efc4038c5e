# cython: language_level=3
"""Kernel memory: malloc/calloc/free wrappers, the growable-buffer helper, and the test hook.

Blocks come from CPython's raw domain (``PyMem_RawMalloc`` and kin: malloc underneath, callable
without the GIL), so ``tracemalloc`` sees every kernel allocation at its logical size: a test or a
user can measure what a call holds at its peak whatever the C library's allocator does with pages.

The hook (``fail_allocations_after``) lets tests make the Nth allocation from now fail, so that
every entry point can be checked to free what it got, raise MemoryError and leave its object
usable, for every N (tests/test_memory.py). Outside tests it costs one predictable branch.
"""
from libc.stdint cimport int64_t
from cpython.mem cimport PyMem_RawCalloc, PyMem_RawFree, PyMem_RawMalloc, PyMem_RawRealloc

# -1: the hook is off. Otherwise the number of allocations still allowed to succeed.
cdef int64_t fail_countdown = -1
# Allocations counted while the hook is armed (count_allocations).
cdef int64_t counted = 0
cdef bint counting = False


cdef inline bint refuse() noexcept nogil:
    """True when the hook says this allocation fails (only ever armed by single-threaded tests)."""
    global fail_countdown, counted
    if counting:
        counted += 1
    if fail_countdown < 0:
        return False
    if fail_countdown == 0:
        return True
    fail_countdown -= 1
    return False


cdef void *llk_malloc(size_t size) noexcept nogil:
    if refuse():
        return NULL
    return PyMem_RawMalloc(size if size > 0 else 1)


cdef void *llk_calloc(size_t count, size_t size) noexcept nogil:
    if refuse():
        return NULL
    return PyMem_RawCalloc(count if count > 0 else 1, size if size > 0 else 1)


cdef void llk_free(void *p) noexcept nogil:
    PyMem_RawFree(p)


cdef bint grow(void **data, int64_t *cap, int64_t need, size_t itemsize) noexcept nogil:
    cdef int64_t new_cap
    cdef void *bigger
    if need <= cap[0]:
        return True
    new_cap = cap[0] * 2 if cap[0] > 0 else 256
    while new_cap < need:
        new_cap *= 2
    if refuse():
        return False
    bigger = PyMem_RawRealloc(data[0], <size_t>new_cap * itemsize)
    if bigger == NULL:
        return False
    data[0] = bigger
    cap[0] = new_cap
    return True


def fail_allocations_after(n):
    """Test hook: the allocation after the next ``n`` ones fails (and every one after it, until
    reset). ``None`` turns the hook off."""
    global fail_countdown
    fail_countdown = -1 if n is None else int(n)


def count_allocations(on):
    """Test hook: start counting kernel allocations from zero (on=True) or stop; returns the
    count so far."""
    global counting, counted
    cdef int64_t so_far = counted
    counting = bool(on)
    counted = 0
    return so_far
