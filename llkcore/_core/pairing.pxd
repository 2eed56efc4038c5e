# cython: language_level=3
"""The exact search without gravity (pairing.pyx) and the state it shares with its dead test
(peeling.pyx)."""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memset

from .alloc cimport IVec
from .link cimport link_cells
from .memo cimport Memo
from .run cimport Ctx

# Event trail of the search: EVW ints per event (kind, a, b, type, decision level).
cdef enum:
    EV_REMOVE = 0
    EV_COMMIT = 1
    EVW = 5


cdef struct Frame:
    int ev_mark             # event trail length before the commit that led here
    int x                   # the tile branched on
    int64_t cand_base       # its partners: cand[cand_base : cand_base + ncand]
    int ncand
    int next
    uint64_t k0, k1         # the state's key after closure


cdef struct Pairing:
    Ctx *c
    int HW
    int32_t *partner        # HW: committed partner cell, -1 if uncommitted
    int32_t *ucount         # ntypes: uncommitted tiles left
    int32_t *cpairs         # committed pairs still on the board, 2 cells each
    int32_t *cidx           # HW: index in cpairs of a committed tile's pair
    int ncp
    int32_t *ev             # event trail: EVW ints per event (kind, a, b, type, level)
    int nev
    int level               # decision level of the node being entered (0: the root)
    uint64_t k0, k1         # key of the current state
    uint64_t *z             # 2 * HW: Zobrist words of each cell (presence)
    Memo memo
    Frame *frames
    IVec cand
    int32_t *u              # scratch: a type's uncommitted tiles
    int32_t *deg            # scratch: their linkable-now partner counts
    int32_t *peel           # peeled tiles (cell, type) during the relaxed peeling
    int32_t *peelp          # ... and the partner each linked to
    uint8_t *gone           # HW: peeled in the current run (replay)
    int32_t *wit            # per decision level: the order (cell, partner) of the node's peeling
    int32_t *witlen         # per level: its length (0: none, or it did not clear the board)
    int witlevels           # levels kept (1: one order for every level, above PROBE_MAX_TILES tiles)
    int64_t witstride       # ints per level of wit
    int32_t *peeled         # ntypes: tiles of each type peeled so far
    uint8_t *inset          # HW: tiles taking part in a restricted peeling
    uint8_t *instuck        # HW: tiles of the closed set a peeling got stuck on
    uint8_t *tflag          # ntypes: scratch flags of the conflict analysis
    uint8_t *pdead          # ntypes: bit k set when pairing k's last probe peeling was dead
    int32_t *porder         # ntypes: the order probing takes the types in
    int64_t *plast          # ntypes: the probing pass that last tried the type
    int64_t npass           # probing passes so far
    int cbj                 # conflict-directed backjumping on (off for very deep searches)
    int nopeel              # (tests) no relaxed peeling
    int replay              # peelings replay an earlier order (peel_checked, pairing_peel)
    int probe               # probing of each node's pairings (probe_node) on
    int probe_first         # (tests) ... from the first round of run_with_restarts on
    int probe_now           # ... in this round (not the first, unless probe_first)
    int probe_order         # ... in the order porder / pdead, skipping quiet types (probe_node)
    uint8_t *forced         # per decision level: probing forced a pairing at that node
    int choice              # branching rule of choose() (CHOICE_*)
    int tries               # peelings the conflict analysis may spend on one dead state
    int32_t *lvl            # HW: (conflict analysis) the decision level a tile rests on
    int32_t *tmax           # ntypes: latest decision level that committed a tile of the type
    int nwords              # words of one conflict set (a bitset over decision levels)
    uint64_t *conf          # the conflict of the last dead node
    uint64_t *cfpool        # one conflict set per frame: the union of its dead children's


# The exact search without gravity: ST_SOLVED (certificate in c.out), ST_DEAD or a budget status.
cdef int run_pairing(Ctx *c, int maxcount, int64_t memo_entries, uint64_t seed, int options) noexcept nogil


cdef inline bint links(Pairing *E, int a, int b) noexcept nogil:
    return link_cells(E.c.g, E.c.w, a, b, E.c.max_turns)


# Conflict sets: bitsets over decision levels (E.nwords words).
cdef inline void conf_clear(Pairing *E, uint64_t *cf) noexcept nogil:
    memset(cf, 0, E.nwords * sizeof(uint64_t))


cdef inline void conf_all(Pairing *E, uint64_t *cf) noexcept nogil:
    """Levels 1 .. E.level: the conservative conflict (every decision on the path)."""
    cdef int l
    conf_clear(E, cf)
    for l in range(1, E.level + 1):
        cf[l >> 6] |= (<uint64_t>1) << (l & 63)


cdef inline bint conf_has(const uint64_t *cf, int l) noexcept nogil:
    return (cf[l >> 6] >> (l & 63)) & 1
