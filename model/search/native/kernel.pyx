# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled successor loop of the integer-encoded search (``model/search/native/intcode.py`` is the
Python side and says what every table means). Everything per transition runs here on machine integers:
the held values of a state, every proposal of the agent (an odometer over the held values), the
decision (a table lookup), the new record, its canonical position (binary search over a comparison
table), the shift of later records, the rest of the state, the queries a transition makes hold and the
visited set (exact: whole state vectors). A table miss calls back into Python once; after that the key
is answered here.
"""

cimport cython
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memcmp, memset
from libc.stdint cimport uint64_t, int64_t, uint32_t, uint16_t, uint8_t, int16_t

DEF MISS = -2
DEF KW = 4            # key words of a table (256 bits)
DEF MAXA = 7          # most arguments of a proposal (one word of prefix, seven of contents)
DEF MAXF = 8          # most declared fields of a tool's result
DEF MAXH = 256        # most held values of a state
DEF MAXW = 64         # most words of a state vector (the rest and one per record)
DEF NONE32 = 0xFFFFFFFF
DEF VALUE_REFUSAL = -3  # ``intcode.Compiler.decide``: refused by the values (and the key's projection)
DEF SLOT_REFUSAL = -4   # refused by the values and the slots alone
DEF LABEL_REFUSAL = -5  # refused by the output label (the tool and the join of the handles' labels)
DEF ORIGIN_REFUSAL = -6  # ORIGIN_REFUSAL - j: refused by the records argument j names (its content)

cdef inline uint64_t _mix(uint64_t h) noexcept nogil:
    h ^= h >> 33
    h *= 0xff51afd7ed558ccdULL
    h ^= h >> 33
    h *= 0xc4ceb9fe1a85ec53ULL
    h ^= h >> 33
    return h


cdef struct Entry:
    uint64_t k[KW]
    int64_t v


cdef int64_t EMPTY = -9223372036854775807LL


@cython.final  # its methods are called directly, not through a vtable, and get is inlined in the loop
cdef class Table:
    """An open-addressing map from four 64-bit words to a 64-bit value (one 40-byte entry per slot, so a
    probe touches one cache line); ``MISS`` when absent."""
    cdef Entry* e
    cdef uint64_t mask
    cdef uint64_t n

    def __cinit__(self, int cap=16):
        self._alloc(cap)
        self.n = 0

    cdef void _alloc(self, uint64_t cap) noexcept:
        cdef uint64_t i
        self.e = <Entry*>malloc(cap * sizeof(Entry))
        for i in range(cap):
            self.e[i].v = EMPTY
        self.mask = cap - 1

    def __dealloc__(self):
        free(self.e)

    def __len__(self):
        return self.n

    cdef inline uint64_t _slot(self, const uint64_t* k) noexcept nogil:
        # one multiply per word and one finalizer: keys are small ids packed in words, well mixed by it
        cdef uint64_t h = _mix(k[0] * 0x9e3779b97f4a7c15ULL + k[1] * 0xc2b2ae3d27d4eb4fULL
                               + k[2] * 0x165667b19e3779f9ULL + k[3] * 0xd6e8feb86659fd93ULL)
        return h & self.mask

    cdef inline int64_t get(self, const uint64_t* k) noexcept nogil:
        cdef uint64_t i = self._slot(k)
        cdef Entry* x
        while True:
            x = &self.e[i]
            if x.v == EMPTY:
                return MISS
            if x.k[0] == k[0] and x.k[1] == k[1] and x.k[2] == k[2] and x.k[3] == k[3]:
                return x.v
            i = (i + 1) & self.mask

    cdef void put(self, const uint64_t* k, int64_t v) noexcept:
        cdef uint64_t i = self._slot(k)
        cdef Entry* x
        while True:
            x = &self.e[i]
            if x.v == EMPTY:
                break
            if x.k[0] == k[0] and x.k[1] == k[1] and x.k[2] == k[2] and x.k[3] == k[3]:
                x.v = v
                return
            i = (i + 1) & self.mask
        memcpy(x.k, k, KW * sizeof(uint64_t))
        x.v = v
        self.n += 1
        if 4 * self.n > 3 * self.mask:
            self._grow()

    cdef void _grow(self) noexcept:
        cdef uint64_t old = self.mask + 1, j
        cdef Entry* oe = self.e
        self._alloc(2 * old)
        self.n = 0
        for j in range(old):
            if oe[j].v != EMPTY:
                self.put(oe[j].k, oe[j].v)
        free(oe)


cdef inline void _key(uint64_t* k, uint64_t a, uint64_t b, uint64_t c, uint64_t d) noexcept nogil:
    k[0] = a
    k[1] = b
    k[2] = c
    k[3] = d


cdef class Kernel:
    """The visited set (state vectors in one arena, open addressing over their indices), the parent
    links (parent index and the transition's ordinal among the parent's successors), the per-record
    facts and the tables of ``intcode.py``, and the successor loop ``expand``."""
    # the Python side (callbacks on a table miss)
    cdef object py
    # states
    cdef uint32_t* arena
    cdef uint8_t* lens
    cdef uint32_t* parent
    cdef uint32_t* ordinal
    cdef uint64_t* fps
    cdef public uint64_t nstates
    cdef uint64_t cap
    # index + 1 in the low 32 bits (0 empty) and the high 32 bits of the state's hash above it: a probe
    # rejects a different state without reading its stored hash or vector (one cache line per probe)
    cdef uint64_t* slots
    cdef uint64_t smask
    cdef int W
    # per record id
    cdef uint8_t* r_ok
    cdef int16_t* r_tool
    cdef uint8_t* r_height
    cdef uint8_t* r_nrefs
    cdef uint8_t* r_refs      # MAXA per record
    cdef uint8_t* r_nfields
    cdef uint16_t* r_fields   # MAXF per record: path ids present
    cdef uint64_t* r_matched
    cdef uint64_t* r_premise
    cdef uint64_t nrecs
    cdef uint64_t rcap
    # model
    cdef int nlits
    cdef uint32_t lit_cid[MAXH]
    cdef uint32_t lit_vid[MAXH]
    cdef int ntools
    cdef int tool_cap[256]
    cdef int tool_nres[256]
    cdef int tool_first[256]    # first names index of the tool
    cdef int tool_nnames[256]
    cdef int names_arity[4096]
    cdef uint8_t tool_abs[256]  # 1: the tool's decisions read handles only through their labels; 2: its outcomes too
    cdef int nsat
    cdef int nq
    cdef int more_than[64]
    cdef uint64_t goal_mask
    cdef bint renaming
    cdef bint copies  # the agent retypes the values it read as literals (``held.held``)
    # per trans id: which outcomes exist (bit k)
    cdef uint32_t* t_mask
    cdef uint64_t ntrans
    cdef uint64_t tcap
    # tables
    cdef Table deep, cid, prefix, dec, newrec, cmp, shift, nextp, sat, proj, vid, val, aval, abst, cpy
    cdef Table sprefix, sval  # refusals by the slots alone (any counters, requirements, permits)
    cdef Table argt  # refusals by one argument's value (per slots)
    cdef Table rlab, ljoin, lref  # label id per record, the join of two, refusals by (argument names, join)
    cdef bint labels  # refusals by label are tabled (``intcode.label_refusals``)
    cdef Table pinfo, pcid, aprefix, appr  # approvals: per rest, positional contents, approval prefix and table
    cdef Table oref  # refusals by an origin rule: (argument names, position, content without positions)
    cdef Table amask  # approvals: the patterns one argument's content may satisfy (bit per pattern)
    cdef Table amatch  # approvals: whether some pattern matches, by the slots and the contents without positions
    # search state
    cdef public list found_events
    cdef int64_t want  # ``describe``: the ordinal of the transition to describe (-1: expanding)
    cdef object got
    cdef public uint64_t proposals  # agent calls looked up (a measure of the loop's work)
    cdef public list goal_events
    cdef uint8_t found[64]
    cdef uint8_t prem[64]
    # fingerprint mode (``fingerprint=True``): the visited set is 64-bit fingerprints only (``fpt``, open
    # addressing, 0 empty); vectors, parents and ordinals are kept for the states of the layers that
    # will be expanded, and nothing but the fingerprint for the last layer's (``last``)
    cdef bint fpmode
    cdef public bint last
    cdef uint64_t* fpt
    cdef uint64_t fmask
    cdef public uint64_t nfp

    def __cinit__(self, object py, int width, int nlits, list lit_cids, list lit_vids, list tools, list arities,
                  int nsat, list more_than, uint64_t goal_mask, bint renaming, list abstract, bint copies,
                  bint fingerprint=False, uint64_t capacity=0, bint labels=False):
        cdef int i
        cdef uint64_t fcap = 1 << 12
        self.fpmode = fingerprint
        self.labels = labels
        self.last = False
        self.nfp = 0
        self.fpt = NULL
        self.fmask = 0
        if fingerprint:
            while fcap < capacity:
                fcap <<= 1
            self.fpt = <uint64_t*>calloc(fcap, sizeof(uint64_t))
            if self.fpt == NULL:
                raise MemoryError("fingerprint table")
            self.fmask = fcap - 1
        self.py = py
        self.W = width
        self.cap = 64
        self.arena = <uint32_t*>malloc(self.cap * width * sizeof(uint32_t))
        self.lens = <uint8_t*>malloc(self.cap)
        self.parent = <uint32_t*>malloc(self.cap * sizeof(uint32_t))
        self.ordinal = <uint32_t*>malloc(self.cap * sizeof(uint32_t))
        self.fps = <uint64_t*>malloc(self.cap * sizeof(uint64_t))
        self.smask = 127
        self.slots = <uint64_t*>calloc(self.smask + 1, sizeof(uint64_t))
        self.nstates = 0
        self.rcap = 256
        self.nrecs = 0
        self.r_ok = <uint8_t*>calloc(self.rcap, 1)
        self.r_tool = <int16_t*>calloc(self.rcap, sizeof(int16_t))
        self.r_height = <uint8_t*>calloc(self.rcap, 1)
        self.r_nrefs = <uint8_t*>calloc(self.rcap, 1)
        self.r_refs = <uint8_t*>calloc(self.rcap * MAXA, 1)
        self.r_nfields = <uint8_t*>calloc(self.rcap, 1)
        self.r_fields = <uint16_t*>calloc(self.rcap * MAXF, sizeof(uint16_t))
        self.r_matched = <uint64_t*>calloc(self.rcap, sizeof(uint64_t))
        self.r_premise = <uint64_t*>calloc(self.rcap, sizeof(uint64_t))
        self.tcap = 256
        self.ntrans = 0
        self.t_mask = <uint32_t*>calloc(self.tcap, sizeof(uint32_t))
        self.nlits = nlits
        for i in range(nlits):
            self.lit_cid[i] = lit_cids[i]
            self.lit_vid[i] = lit_vids[i]
        self.ntools = len(tools)
        for i in range(self.ntools):
            self.tool_cap[i], self.tool_nres[i], self.tool_first[i], self.tool_nnames[i] = tools[i]
            self.tool_abs[i] = abstract[i]
        for i in range(len(arities)):
            self.names_arity[i] = arities[i]
        self.nsat = nsat
        self.nq = len(more_than)
        for i in range(self.nq):
            self.more_than[i] = more_than[i]
            self.found[i] = 0
            self.prem[i] = 0
        self.goal_mask = goal_mask
        self.renaming = renaming
        self.copies = copies
        self.found_events = []
        self.want = -1
        self.got = None
        self.goal_events = []
        self.deep = Table()
        self.cid = Table()
        self.prefix = Table()
        self.dec = Table()
        self.newrec = Table()
        self.cmp = Table()
        self.shift = Table()
        self.nextp = Table()
        self.sat = Table()
        self.proj = Table()
        self.vid = Table()
        self.val = Table()
        self.aval = Table()
        self.abst = Table()
        self.cpy = Table()
        self.pinfo = Table()
        self.sprefix = Table()
        self.sval = Table()
        self.argt = Table()
        self.rlab = Table()
        self.ljoin = Table()
        self.lref = Table()
        self.pcid = Table()
        self.aprefix = Table()
        self.appr = Table()
        self.amatch = Table()
        self.amask = Table()
        self.oref = Table()

    def __dealloc__(self):
        free(self.arena); free(self.lens); free(self.parent); free(self.ordinal); free(self.fps); free(self.slots)
        free(self.fpt)
        free(self.r_ok); free(self.r_tool); free(self.r_height); free(self.r_nrefs); free(self.r_refs)
        free(self.r_nfields); free(self.r_fields); free(self.r_matched); free(self.r_premise); free(self.t_mask)

    # --- records and trans ids ------------------------------------------------------------------

    def set_record(self, uint64_t rid, bint ok, int tool, int height, list refs, list fields, uint64_t matched,
                   uint64_t premise):
        cdef uint64_t i
        while rid >= self.rcap:
            self.rcap *= 2
            self.r_ok = <uint8_t*>realloc(self.r_ok, self.rcap)
            self.r_tool = <int16_t*>realloc(self.r_tool, self.rcap * sizeof(int16_t))
            self.r_height = <uint8_t*>realloc(self.r_height, self.rcap)
            self.r_nrefs = <uint8_t*>realloc(self.r_nrefs, self.rcap)
            self.r_refs = <uint8_t*>realloc(self.r_refs, self.rcap * MAXA)
            self.r_nfields = <uint8_t*>realloc(self.r_nfields, self.rcap)
            self.r_fields = <uint16_t*>realloc(self.r_fields, self.rcap * MAXF * sizeof(uint16_t))
            self.r_matched = <uint64_t*>realloc(self.r_matched, self.rcap * sizeof(uint64_t))
            self.r_premise = <uint64_t*>realloc(self.r_premise, self.rcap * sizeof(uint64_t))
        self.r_ok[rid] = ok
        self.r_tool[rid] = tool
        self.r_height[rid] = height
        self.r_nrefs[rid] = len(refs)
        for i in range(len(refs)):
            self.r_refs[rid * MAXA + i] = refs[i]
        self.r_nfields[rid] = len(fields)
        for i in range(len(fields)):
            self.r_fields[rid * MAXF + i] = fields[i]
        self.r_matched[rid] = matched
        self.r_premise[rid] = premise
        if rid >= self.nrecs:
            self.nrecs = rid + 1

    def set_trans(self, uint64_t tid, uint32_t mask):
        while tid >= self.tcap:
            self.tcap *= 2
            self.t_mask = <uint32_t*>realloc(self.t_mask, self.tcap * sizeof(uint32_t))
        self.t_mask[tid] = mask
        if tid >= self.ntrans:
            self.ntrans = tid + 1

    cdef inline void _need_record(self, uint64_t rid):
        if rid >= self.nrecs:
            self.py.record(rid)

    # --- the visited set ------------------------------------------------------------------------

    cdef inline uint64_t _hash(self, const uint32_t* v, int n) noexcept nogil:
        cdef uint64_t h = <uint64_t>n * 0x9e3779b97f4a7c15ULL
        cdef int i
        for i in range(n):
            h = (h ^ v[i]) * 0xff51afd7ed558ccdULL + 0x632be59bd9b4e019ULL
        return _mix(h) | 1

    cdef void _grow_slots(self) noexcept:
        cdef uint64_t nm = 2 * (self.smask + 1) - 1, j, i
        free(self.slots)
        self.slots = <uint64_t*>calloc(nm + 1, sizeof(uint64_t))
        self.smask = nm
        for j in range(self.nstates):
            i = self.fps[j] & nm
            while self.slots[i]:
                i = (i + 1) & nm
            self.slots[i] = (self.fps[j] & 0xFFFFFFFF00000000ULL) | (j + 1)

    cdef inline uint64_t _fingerprint(self, const uint32_t* v, int n) noexcept nogil:
        """A 64-bit fingerprint of a state vector (all 64 bits used; 0, the empty slot, becomes 1)."""
        cdef uint64_t h = <uint64_t>n * 0x9e3779b97f4a7c15ULL + 0x2545f4914f6cdd1dULL
        cdef int i
        for i in range(n):
            h = _mix(h ^ v[i]) + 0x632be59bd9b4e019ULL
        h = _mix(h)
        return h if h != 0 else 1

    cdef void _grow_fp(self):
        cdef uint64_t nm = 2 * (self.fmask + 1) - 1, j, i, f
        cdef uint64_t* old = self.fpt
        cdef uint64_t* t = <uint64_t*>calloc(nm + 1, sizeof(uint64_t))
        if t == NULL:
            raise MemoryError("fingerprint table")
        for j in range(self.fmask + 1):
            f = old[j]
            if f:
                i = f & nm
                while t[i]:
                    i = (i + 1) & nm
                t[i] = f
        free(old)
        self.fpt = t
        self.fmask = nm

    cdef int64_t _insert_fp(self, const uint32_t* v, int n, uint32_t par, uint32_t ordv) except? -2:
        """``_insert`` of the fingerprint mode: -1 when the fingerprint is there; else it is added and the
        vector stored unless the layer is the last (its index either way)."""
        cdef uint64_t f = self._fingerprint(v, n)
        cdef uint64_t i = f & self.fmask
        cdef uint64_t x
        cdef uint32_t s
        while True:
            x = self.fpt[i]
            if x == f:
                return -1
            if x == 0:
                break
            i = (i + 1) & self.fmask
        self.fpt[i] = f
        self.nfp += 1
        if 4 * self.nfp > 3 * self.fmask:
            self._grow_fp()
        if self.last:
            self.nstates += 1
            return <int64_t>self.nstates - 1
        if self.nstates == self.cap:
            self.cap *= 2
            self.arena = <uint32_t*>realloc(self.arena, self.cap * self.W * sizeof(uint32_t))
            self.lens = <uint8_t*>realloc(self.lens, self.cap)
            self.parent = <uint32_t*>realloc(self.parent, self.cap * sizeof(uint32_t))
            self.ordinal = <uint32_t*>realloc(self.ordinal, self.cap * sizeof(uint32_t))
            if self.arena == NULL or self.lens == NULL or self.parent == NULL or self.ordinal == NULL:
                raise MemoryError("state arena")
        s = <uint32_t>self.nstates
        memcpy(&self.arena[<uint64_t>s * self.W], v, n * sizeof(uint32_t))
        self.lens[s] = n
        self.parent[s] = par
        self.ordinal[s] = ordv
        self.nstates += 1
        return s

    cdef int64_t _insert(self, const uint32_t* v, int n, uint32_t par, uint32_t ordv) except? -2:
        """Add the state ``v`` (``n`` words); its index when new, -1 when visited (or when describing)."""
        if self.want >= 0:
            return -1
        if self.fpmode:
            return self._insert_fp(v, n, par, ordv)
        cdef uint64_t h = self._hash(v, n)
        cdef uint64_t i = h & self.smask
        cdef uint64_t tag = h & 0xFFFFFFFF00000000ULL
        cdef uint64_t x
        cdef uint32_t s
        while True:
            x = self.slots[i]
            if x == 0:
                break
            if (x & 0xFFFFFFFF00000000ULL) == tag:
                s = <uint32_t>(x & 0xFFFFFFFFULL) - 1
                if self.fps[s] == h and self.lens[s] == n and memcmp(&self.arena[<uint64_t>s * self.W], v,
                                                                       n * sizeof(uint32_t)) == 0:
                    return -1
            i = (i + 1) & self.smask
        if self.nstates == self.cap:
            self.cap *= 2
            self.arena = <uint32_t*>realloc(self.arena, self.cap * self.W * sizeof(uint32_t))
            self.lens = <uint8_t*>realloc(self.lens, self.cap)
            self.parent = <uint32_t*>realloc(self.parent, self.cap * sizeof(uint32_t))
            self.ordinal = <uint32_t*>realloc(self.ordinal, self.cap * sizeof(uint32_t))
            self.fps = <uint64_t*>realloc(self.fps, self.cap * sizeof(uint64_t))
        s = <uint32_t>self.nstates
        memcpy(&self.arena[<uint64_t>s * self.W], v, n * sizeof(uint32_t))
        self.lens[s] = n
        self.parent[s] = par
        self.ordinal[s] = ordv
        self.fps[s] = h
        self.slots[i] = tag | (s + 1)
        self.nstates += 1
        if 4 * self.nstates > 3 * self.smask:
            self._grow_slots()
        return s

    def add_root(self, list v):
        cdef uint32_t buf[MAXW]
        cdef int i
        for i in range(len(v)):
            buf[i] = v[i]
        return self._insert(buf, len(v), NONE32, NONE32)

    def state(self, uint64_t s):
        """The vector of state ``s``: [rest, record ids...]."""
        cdef int i
        return [self.arena[s * self.W + i] for i in range(self.lens[s])]

    def link(self, uint64_t s):
        """(parent, ordinal) of state ``s``; parent ``None`` for the initial state."""
        if self.parent[s] == NONE32:
            return None
        return self.parent[s], self.ordinal[s]

    def describe(self, uint64_t s, int64_t o):
        """Transition ``o`` of expanded state ``s`` (its ordinal among the state's successors), found by
        running the successor loop on ``s`` again over the filled tables, adding nothing: ``(0, requirement
        index)`` for a requirement satisfied, ``(1, argument names, held value indices)`` for an approval,
        ``(2, argument names, held value indices, trans id, outcome, canonical position)`` for a call."""
        cdef uint64_t saved = self.proposals
        self.want = o
        self.got = None
        try:
            self._expand(s)
        finally:
            self.want = -1
            self.proposals = saved
        return self.got

    def premises(self):
        return [bool(self.prem[i]) for i in range(self.nq)]

    def nbytes(self):
        if self.fpmode:
            return self.cap * (self.W * 4 + 1 + 4 + 4) + (self.fmask + 1) * 8
        return (self.cap * (self.W * 4 + 1 + 4 + 4 + 8) + (self.smask + 1) * 8)

    # --- successors -----------------------------------------------------------------------------

    cdef inline int64_t _look(self, Table t, uint64_t a, uint64_t b, uint64_t c, uint64_t d) noexcept:
        cdef uint64_t k[KW]
        _key(k, a, b, c, d)
        return t.get(k)

    cdef inline void _store(self, Table t, uint64_t a, uint64_t b, uint64_t c, uint64_t d, int64_t v) noexcept:
        cdef uint64_t k[KW]
        _key(k, a, b, c, d)
        t.put(k, v)

    cdef int _values(self, uint32_t* hv, uint32_t* ha, uint64_t* hrid, uint16_t* hpid, int lo, int hi) except -1:
        """The value and abstract ids of held record values ``lo`` .. ``hi - 1`` not yet looked up."""
        cdef int j
        cdef int64_t x
        for j in range(lo, hi):
            if hv[j] != NONE32:
                continue
            x = self._look(self.vid, hrid[j], hpid[j], 0, 0)
            if x == MISS:
                x = self.py.value(hrid[j], hpid[j])
                self._store(self.vid, hrid[j], hpid[j], 0, 0, x)
            hv[j] = <uint32_t>x
            x = self._look(self.aval, hrid[j], hpid[j], 0, 0)
            if x == MISS:
                x = self.py.absval(hrid[j], hpid[j])
                self._store(self.aval, hrid[j], hpid[j], 0, 0, x)
            ha[j] = <uint32_t>x
        return 0

    def expand(self, uint64_t first, uint64_t last):
        """Expand states ``first`` .. ``last - 1``; the number of transitions explored."""
        cdef uint64_t s, total = 0
        for s in range(first, last):
            total += self._expand(s)
        return total

    cdef uint64_t _expand(self, uint64_t sidx) except? 0:
        cdef uint32_t v[MAXW]
        cdef uint32_t nv[MAXW]
        cdef int n = self.lens[sidx] - 1, i, j, t, ni, r, k, a, at, lo, hi, mid, nh
        cdef uint32_t P
        cdef uint32_t* recs
        cdef uint32_t deep[MAXW]
        cdef uint32_t hc[MAXH]
        cdef uint32_t hn[MAXH]  # contents without positions (what an approval pattern reads)
        cdef uint32_t hv[MAXH]
        cdef uint32_t ha[MAXH]
        cdef uint32_t hp[MAXH]  # positional contents (what an approval binds; the decision's key once a permit exists)
        cdef int64_t info
        cdef uint64_t vk[KW]
        cdef uint64_t ak[KW]
        cdef int hpos[MAXH]
        cdef int ix[MAXA]
        cdef int count[256]
        cdef int have[64]
        cdef int have_p[64]
        cdef uint64_t kk[KW]
        cdef uint64_t rid, word, m, bits
        cdef int64_t x, tid, newr, P2, c
        cdef uint32_t ordv = 0
        cdef uint64_t transitions = 0
        cdef uint32_t proj, pref, spref
        cdef uint64_t sk[KW]
        cdef uint64_t mk[KW]
        cdef int height, np_, posk, nh0, dup, byarg
        cdef uint32_t lj
        cdef int64_t y
        cdef uint64_t hrid[MAXH]
        cdef uint16_t hpid[MAXH]
        cdef bint vready = 0
        cdef uint64_t posword
        cdef int pid
        memcpy(v, &self.arena[sidx * self.W], (n + 1) * sizeof(uint32_t))
        P = v[0]
        recs = &v[1]
        # satisfy transitions: no record, the rest changes
        for j in range(self.nsat):
            x = self._look(self.sat, P, j, 0, 0)
            if x == MISS:
                x = self.py.satisfy(P, j)
                self._store(self.sat, P, j, 0, 0, x)
            if x < 0:
                continue
            transitions += 1
            if ordv == self.want:
                self.got = (0, j)
            nv[0] = <uint32_t>x
            memcpy(&nv[1], recs, n * sizeof(uint32_t))
            self._insert(nv, n + 1, <uint32_t>sidx, ordv)
            ordv += 1
        # bit 1: the state holds a permit (contents are positional: a permit binds handle positions);
        # bit 2: an approver may still permit a call (``expand.successors``)
        info = self._look(self.pinfo, P, 0, 0, 0)
        if info == MISS:
            info = self.py.pinfo(P)
            self._store(self.pinfo, P, 0, 0, 0, info)
        # per-record facts, deep ids, held values, counts
        for t in range(self.ntools):
            count[t] = 0
        for i in range(self.nq):
            have[i] = 0
            have_p[i] = 0
        nh = 0
        for i in range(self.nlits):
            hc[nh] = self.lit_cid[i]
            hn[nh] = self.lit_cid[i]
            hp[nh] = self.lit_cid[i]
            hv[nh] = self.lit_vid[i]
            ha[nh] = self.lit_vid[i]
            hpos[nh] = -1
            nh += 1
        for i in range(n):
            rid = recs[i]
            if rid >= self.nrecs:
                self.py.record(rid)
            count[self.r_tool[rid]] += 1
            m = self.r_matched[rid]
            for j in range(self.nq):
                if (m >> j) & 1:
                    have[j] += 1
                if (self.r_premise[rid] >> j) & 1:
                    have_p[j] += 1
            # deep id: (record, deep ids of the records its refs name)
            kk[0] = rid
            kk[1] = 0xFFFFFFFFFFFFFFFFULL
            kk[2] = 0xFFFFFFFFFFFFFFFFULL
            kk[3] = 0xFFFFFFFFFFFFFFFFULL
            for j in range(self.r_nrefs[rid]):
                a = self.r_refs[rid * MAXA + j]
                word = deep[a]
                if j < 6:
                    kk[1 + j // 2] = (kk[1 + j // 2] << 32) | word
                else:
                    kk[0] |= (<uint64_t>word) << 32
            x = self.deep.get(kk)
            if x == MISS:
                x = self.py.deep(rid, [deep[self.r_refs[rid * MAXA + j]] for j in range(self.r_nrefs[rid])])
                self.deep.put(kk, x)
            deep[i] = <uint32_t>x
            if not self.r_ok[rid]:
                continue
            if nh + 1 + self.r_nfields[rid] > MAXH:
                raise OverflowError("too many held values")
            for j in range(-1, self.r_nfields[rid]):
                pid = 0 if j < 0 else self.r_fields[rid * MAXF + j]
                x = self._look(self.cid, deep[i], pid, 0, 0)
                if x == MISS:
                    x = self.py.content(deep[i], pid)
                    self._store(self.cid, deep[i], pid, 0, 0, x)
                hc[nh] = <uint32_t>x
                hn[nh] = <uint32_t>x
                if info:
                    x = self._look(self.pcid, deep[i], pid, i + 1, 0)
                    if x == MISS:
                        x = self.py.pcontent(deep[i], pid, i)
                        self._store(self.pcid, deep[i], pid, i + 1, 0, x)
                    hp[nh] = <uint32_t>x
                    if info & 1:
                        hc[nh] = <uint32_t>x
                hrid[nh] = rid
                hpid[nh] = pid
                hv[nh] = NONE32  # value and abstract ids: looked up on this state's first table miss
                ha[nh] = NONE32
                if self.copies:
                    self._values(hv, ha, hrid, hpid, nh, nh + 1)
                hpos[nh] = i
                nh += 1
        vready = self.copies
        if self.copies:
            # the values read, retyped as literals: each text once, in the order read, none a literal's
            nh0 = nh
            for i in range(self.nlits, nh0):
                x = self._look(self.cpy, hv[i], 0, 0, 0)
                if x == MISS:
                    x = self.py.copy(hv[i])
                    self._store(self.cpy, hv[i], 0, 0, 0, x)
                dup = 0
                for j in range(self.nlits):
                    if self.lit_cid[j] == <uint32_t>x:
                        dup = 1
                        break
                if not dup:
                    for j in range(nh0, nh):
                        if hc[j] == <uint32_t>x:
                            dup = 1
                            break
                if dup:
                    continue
                if nh + 1 > MAXH:
                    raise OverflowError("too many held values")
                hc[nh] = <uint32_t>x
                hn[nh] = <uint32_t>x
                hp[nh] = <uint32_t>x
                hv[nh] = hv[i]
                ha[nh] = hv[i]  # a literal: its value alone
                hpos[nh] = -1
                nh += 1
        if info & 2:
            # approvals first: every proposal (decided or not) an approval pattern matches permits that call
            for t in range(self.ntools):
                if self.tool_cap[t] >= 0 and count[t] >= self.tool_cap[t]:
                    continue
                for ni in range(self.tool_first[t], self.tool_first[t] + self.tool_nnames[t]):
                    x = self._look(self.aprefix, ni, P, 0, 0)
                    if x == MISS:
                        x = self.py.aprefix(ni, P)
                        self._store(self.aprefix, ni, P, 0, 0, x)
                    if x < 0:  # no approval pattern names the tool
                        continue
                    pref = <uint32_t>x
                    r = self.names_arity[ni]
                    if r > 0 and nh == 0:
                        continue
                    x = self._look(self.sprefix, ni, P, 0, 0)
                    if x == MISS:
                        x = self.py.sprefix(ni, P)
                        self._store(self.sprefix, ni, P, 0, 0, x)
                    spref = <uint32_t>x
                    for j in range(r):
                        ix[j] = 0
                    while True:
                        for j in range(KW):
                            kk[j] = 0
                        kk[0] = pref
                        for j in range(r):
                            word = hp[ix[j]]
                            if j == 0:
                                kk[0] |= word << 32
                            else:
                                kk[1 + (j - 1) // 2] |= word << (32 * ((j - 1) % 2))
                        # whether a pattern matches reads the slots and the contents, not their positions
                        # (``intcode.Compiler.approve``): a proposal no pattern matches costs one lookup
                        for j in range(KW):
                            mk[j] = 0
                        mk[0] = spref
                        for j in range(r):
                            word = hn[ix[j]]
                            if j == 0:
                                mk[0] |= word << 32
                            else:
                                mk[1 + (j - 1) // 2] |= word << (32 * ((j - 1) % 2))
                        # first, per argument: the approval patterns its content may satisfy (a bit each,
                        # ``intcode.Compiler.amask``); none left for every argument, none matches
                        bits = <uint64_t>0xFFFFFFFFFFFFFFFFULL
                        for j in range(r):
                            x = self._look(self.amask, spref, j, hn[ix[j]], 0)
                            if x == MISS:
                                x = self.py.amask(sidx, ni, j, ix[j])
                                self._store(self.amask, spref, j, hn[ix[j]], 0, x)
                            bits &= <uint64_t>x
                        y = 0 if bits == 0 else self.amatch.get(mk)
                        if y == 0:
                            x = -1
                        else:
                            x = self.appr.get(kk)
                            if x == MISS:
                                x = self.py.approve(sidx, ni, [ix[j] for j in range(r)])
                                self.appr.put(kk, x)
                                if y == MISS:
                                    self.amatch.put(mk, 1 if x >= 0 else 0)
                        if x >= 0:
                            transitions += 1
                            if ordv == self.want:
                                self.got = (1, ni, tuple([ix[a] for a in range(r)]))
                            nv[0] = <uint32_t>x
                            memcpy(&nv[1], recs, n * sizeof(uint32_t))
                            self._insert(nv, n + 1, <uint32_t>sidx, ordv)
                            ordv += 1
                        j = r - 1
                        while j >= 0:
                            ix[j] += 1
                            if ix[j] < nh:
                                break
                            ix[j] = 0
                            j -= 1
                        if j < 0:
                            break
        x = self._look(self.proj, P, 0, 0, 0)
        if x == MISS:
            x = self.py.proj(P)
            self._store(self.proj, P, 0, 0, 0, x)
        proj = <uint32_t>x
        # agent calls: per tool, per argument names, every choice of held values
        for t in range(self.ntools):
            if self.tool_cap[t] >= 0 and count[t] >= self.tool_cap[t]:
                continue
            for ni in range(self.tool_first[t], self.tool_first[t] + self.tool_nnames[t]):
                x = self._look(self.prefix, ni, proj, 0, 0)
                if x == MISS:
                    x = self.py.prefix(ni, proj)
                    self._store(self.prefix, ni, proj, 0, 0, x)
                pref = <uint32_t>x
                x = self._look(self.sprefix, ni, P, 0, 0)
                if x == MISS:
                    x = self.py.sprefix(ni, P)
                    self._store(self.sprefix, ni, P, 0, 0, x)
                spref = <uint32_t>x
                r = self.names_arity[ni]
                if r > 0 and nh == 0:
                    continue
                for j in range(r):
                    ix[j] = 0
                while True:
                    # the decision key: prefix and the contents, 32 bits each
                    kk[0] = pref
                    kk[1] = 0
                    kk[2] = 0
                    kk[3] = 0
                    for j in range(r):
                        word = hc[ix[j]]
                        if j == 0:
                            kk[0] |= word << 32
                        else:
                            kk[1 + (j - 1) // 2] |= word << (32 * ((j - 1) % 2))
                    self.proposals += 1
                    tid = self.dec.get(kk)
                    if tid == MISS:
                        if not vready:
                            self._values(hv, ha, hrid, hpid, self.nlits, nh)
                            vready = 1
                        # a refusal the argument values decide (``intcode.Compiler.decide``, ``VALUE_REFUSAL``)
                        # costs no decision: tabled by the values once a decision found one
                        vk[0] = pref
                        vk[1] = 0
                        vk[2] = 0
                        vk[3] = 0
                        for j in range(r):
                            word = hv[ix[j]]
                            if j == 0:
                                vk[0] |= word << 32
                            else:
                                vk[1 + (j - 1) // 2] |= word << (32 * ((j - 1) % 2))
                        memcpy(sk, vk, KW * sizeof(uint64_t))
                        sk[0] = (sk[0] & 0xFFFFFFFF00000000ULL) | spref
                        # a value one argument alone makes refused (``intcode.Compiler.argref``): per tool,
                        # argument names, slots and invalid set, the argument's position and value
                        byarg = 0
                        for j in range(r):
                            x = self._look(self.argt, spref, j, hv[ix[j]], 0)
                            if x == MISS:
                                x = self.py.argref(ni, j, hv[ix[j]], P)
                                self._store(self.argt, spref, j, hv[ix[j]], 0, x)
                            if x:
                                byarg = 1
                                break
                        for j in range(r):
                            if self._look(self.oref, ni, j, hn[ix[j]], 0) == 1:
                                byarg = 1
                                break
                        if byarg or self.sval.get(sk) == 1 or self.val.get(vk) == 1:
                            tid = -1
                        else:
                            # the join of the labels of the records the handles name (``intcode.Compiler.label``)
                            lj = NONE32
                            if self.labels:
                                for j in range(r):
                                    a = hpos[ix[j]]
                                    if a < 0:
                                        continue
                                    x = self._look(self.rlab, recs[a], 0, 0, 0)
                                    if x == MISS:
                                        x = self.py.label(recs[a])
                                        self._store(self.rlab, recs[a], 0, 0, 0, x)
                                    if lj == NONE32:
                                        lj = <uint32_t>x
                                    elif lj != <uint32_t>x:
                                        y = self._look(self.ljoin, lj, x, 0, 0)
                                        if y == MISS:
                                            y = self.py.join(lj, x)
                                            self._store(self.ljoin, lj, x, 0, 0, y)
                                        lj = <uint32_t>y
                            if self.labels and self._look(self.lref, ni, lj, 0, 0) == 1:
                                tid = -1  # refused by its label (``intcode.Compiler.decide``, ``LABEL_REFUSAL``)
                            else:
                                x = MISS
                                if self.tool_abs[t]:
                                    # the decision on the values and the labels of the handles' records
                                    # (``intcode.Compiler.absval``): a refusal is known, an admission's verdict reused
                                    for j in range(KW):
                                        ak[j] = 0
                                    ak[0] = pref
                                    for j in range(r):
                                        word = ha[ix[j]]
                                        if j == 0:
                                            ak[0] |= word << 32
                                        else:
                                            ak[1 + (j - 1) // 2] |= word << (32 * ((j - 1) % 2))
                                    x = self.abst.get(ak)
                                if x == -1:
                                    tid = -1
                                elif x >= 0 and self.tool_abs[t] == 2:  # its outcomes too: the same trans id
                                    tid = x
                                else:
                                    tid = self.py.decide(sidx, ni, [ix[j] for j in range(r)], -1 if x == MISS else x,
                                                         pref)
                                    if tid == LABEL_REFUSAL:  # by the output label: every key with this join
                                        self._store(self.lref, ni, lj, 0, 0, 1)
                                        tid = -1
                                    elif tid <= ORIGIN_REFUSAL:  # by one argument's records: every key with it
                                        j = ORIGIN_REFUSAL - tid
                                        self._store(self.oref, ni, j, hn[ix[j]], 0, 1)
                                        tid = -1
                                    elif tid <= VALUE_REFUSAL:  # by the values: every key with these values
                                        if tid == SLOT_REFUSAL:  # by the slots alone: in every state with these slots
                                            self.sval.put(sk, 1)
                                        self.val.put(vk, 1)
                                        tid = -1
                                    if self.tool_abs[t] and x == MISS:
                                        self.abst.put(ak, tid)
                        self.dec.put(kk, tid)
                    if tid >= 0:
                        height = 0
                        posword = 0
                        np_ = 0
                        for j in range(r):
                            a = hpos[ix[j]]
                            if a >= 0:
                                if self.r_height[recs[a]] >= height:
                                    height = self.r_height[recs[a]] + 1
                                posword |= (<uint64_t>(a + 1)) << (8 * np_)
                                np_ += 1
                        bits = self.t_mask[tid]
                        for k in range(self.tool_nres[t]):
                            if not (bits >> k) & 1:
                                continue
                            transitions += 1
                            newr = self._look(self.newrec, tid, k, height, posword)
                            if newr == MISS:
                                newr = self.py.newrec(tid, k, height, [hpos[ix[j]] for j in range(r)])
                                self._store(self.newrec, tid, k, height, posword, newr)
                            if <uint64_t>newr >= self.nrecs:
                                self.py.record(newr)
                            # canonical position: after every record not greater (bisect_right)
                            if self.renaming:
                                lo = 0
                                hi = n
                                while lo < hi:
                                    mid = (lo + hi) // 2
                                    # a record's height is the first item of its canonical tuple: when the
                                    # heights differ they decide the order without a table lookup
                                    if self.r_height[newr] != self.r_height[recs[mid]]:
                                        c = self.r_height[newr] < self.r_height[recs[mid]]
                                    else:
                                        c = self._look(self.cmp, newr, recs[mid], 0, 0)
                                    if c == MISS:
                                        c = self.py.less(newr, recs[mid])
                                        self._store(self.cmp, newr, recs[mid], 0, 0, c)
                                    if c:
                                        hi = mid
                                    else:
                                        lo = mid + 1
                                at = lo
                            else:
                                at = n
                            P2 = self._look(self.nextp, P, tid, k, (<uint64_t>n << 8) | <uint64_t>at)
                            if P2 == MISS:
                                P2 = self.py.rest(P, tid, k, n, at)
                                self._store(self.nextp, P, tid, k, (<uint64_t>n << 8) | <uint64_t>at, P2)
                            nv[0] = <uint32_t>P2
                            memcpy(&nv[1], recs, at * sizeof(uint32_t))
                            nv[1 + at] = <uint32_t>newr
                            for j in range(at, n):
                                rid = recs[j]
                                for a in range(self.r_nrefs[rid]):
                                    if self.r_refs[rid * MAXA + a] >= at:
                                        x = self._look(self.shift, rid, at, 0, 0)
                                        if x == MISS:
                                            x = self.py.shift(rid, at)
                                            self._store(self.shift, rid, at, 0, 0, x)
                                        rid = <uint64_t>x
                                        break
                                nv[2 + j] = <uint32_t>rid
                            # queries: premises met and queries made to hold (``layered.holds``)
                            if self.want >= 0:  # describing a transition (``describe``): its events are known
                                if ordv == self.want:
                                    self.got = (2, ni, tuple([ix[a] for a in range(r)]), tid, k, at)
                                ordv += 1
                                continue
                            m = self.r_premise[newr]
                            if m:
                                for j in range(self.nq):
                                    if (m >> j) & 1 and not self.prem[j] and \
                                            have_p[j] + 1 >= (self.more_than[j] if self.more_than[j] > 1 else 1):
                                        self.prem[j] = 1
                            m = self.r_matched[newr]
                            if m:
                                for j in range(self.nq):
                                    if (m >> j) & 1 and have[j] + 1 > self.more_than[j] >= have[j]:
                                        if not self.found[j]:
                                            self.found[j] = 1
                                            self.found_events.append((j, sidx, ordv))
                                        if (self.goal_mask >> j) & 1:
                                            self.goal_events.append((j, sidx, ni, tid, tuple([ix[a] for a in range(r)]), k))
                            self._insert(nv, n + 2, <uint32_t>sidx, ordv)
                            ordv += 1
                    # next choice (odometer, last argument fastest: itertools.product's order)
                    j = r - 1
                    while j >= 0:
                        ix[j] += 1
                        if ix[j] < nh:
                            break
                        ix[j] = 0
                        j -= 1
                    if j < 0:
                        break
        return transitions
