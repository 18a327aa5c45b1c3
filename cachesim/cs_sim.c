/*
 * cs_sim.c - the cache simulation core: lookups with true-LRU stamps, fills,
 * evictions, write policies, sectors, inclusion, prefetchers and the DRAM
 * row buffers (module: cachesim).
 */
#include <assert.h>
#include <string.h>
#if defined(__SSE2__)
#    include <emmintrin.h>
#endif

#include "cs_int.h"

#define NONE  UINT64_MAX /* no slot */
#define OWNM  UINT64_C(0xFFFF)
#define ADDRM ((UINT64_C(1) << CS_ADDR_BITS) - 1)

/* Where a line is (or will go) in an instance. */
struct pos {
    uint64_t *t; /* its tag word */
    uint64_t m;  /* its index in meta (set * ways + way, or the slot) */
    uint64_t *b; /* its set's block (set-associative) */
    uint32_t k;  /* its way (set-associative) */
};

#define ONES  UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* The 8-bit fingerprint of a line address. */
static inline uint64_t fingerprint(uint64_t la)
{
    return (la * UINT64_C(0x9E3779B97F4A7C15)) >> 56;
}

/* Way k's fingerprint is byte k & 7 (from the low end) of word k >> 3 of its set block. */
static inline void set_fingerprint(uint64_t *b, uint32_t k, uint64_t fp)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    ((unsigned char *)b)[k] = (unsigned char)fp; /* that byte is byte k of the block */
#else
    unsigned sh = (k & 7) * 8;

    b[k >> 3] = (b[k >> 3] & ~(UINT64_C(0xFF) << sh)) | fp << sh;
#endif
}

static inline uint64_t *tags_of(const struct cs_level *L, uint64_t *b)
{
    return b + L->tagoff;
}

static inline uint32_t *stamps_of(const struct cs_level *L, uint64_t *b)
{
    return (uint32_t *)(b + L->tagoff + L->ways);
}

static inline struct cs_ctr *ctr(struct augur_cachesim *sim, unsigned l, uint32_t tag)
{
    return &sim->ctr[(size_t)l * sim->ntags + tag];
}

/* Bits set in a sector mask (at most 8 sectors). */
static inline unsigned popc(uint32_t v)
{
    v = v - ((v >> 1) & 0x55u);
    v = (v & 0x33u) + ((v >> 2) & 0x33u);
    return (v + (v >> 4)) & 0x0Fu;
}

static inline uint64_t line_of(uint64_t tw)
{
    return tw >> CS_TAGSH;
}

static inline uint32_t owner_of(uint64_t tw)
{
    return (uint32_t)((tw >> 1) & OWNM);
}

static inline uint64_t tag_word(uint64_t la, uint32_t own)
{
    return la << CS_TAGSH | (uint64_t)own << 1;
}

/* Sectors of a line touched by the bytes [off, off + n) of it (n >= 1). */
static inline uint32_t sector_mask(const struct cs_level *L, uint64_t off, uint64_t n)
{
    unsigned first = (unsigned)(off >> L->sector_bits);
    unsigned last = (unsigned)((off + n - 1) >> L->sector_bits);

    return ((2u << last) - 1) & ~((1u << first) - 1);
}

static inline uint64_t set_of(const struct cs_level *L, uint64_t la)
{
    return L->pow2 ? la & L->set_mask : la % L->nsets;
}

/*
 * Sectors a write of the bytes [off, off + n) of a line fills entirely: a
 * sectored cache (a GPU's) takes them without reading them from below.
 */
static inline uint32_t full_sectors(const struct cs_level *L, uint64_t off, uint64_t n)
{
    uint64_t sz = (uint64_t)1 << L->sector_bits;
    uint64_t first = (off + sz - 1) >> L->sector_bits, end = (off + n) >> L->sector_bits;

    return end > first ? ((1u << end) - 1) & ~((1u << first) - 1) : 0;
}

/* Valid and dirty sectors of a line. */
static inline uint32_t svalid(const struct cs_level *L, const struct cs_inst *I,
                              const struct pos *p)
{
    return L->nsect > 1 ? I->meta[p->m].svalid : L->full;
}

static inline uint32_t sdirty(const struct cs_level *L, const struct cs_inst *I,
                              const struct pos *p)
{
    if (!(*p->t & 1))
        return 0;
    return L->nsect > 1 ? I->meta[p->m].sdirty : L->full;
}

/* ---- recency: a permutation of nibbles (up to 16 ways) ------------------------ */

#define NIB_ONES  UINT64_C(0x1111111111111111)
#define NIB_HIGHS UINT64_C(0x8888888888888888)

/* Position (0 = most recent) of way k in the permutation word p. */
static inline unsigned perm_pos(uint64_t p, uint32_t k)
{
    uint64_t x = p ^ (k * NIB_ONES);

    /* the lowest zero nibble of x is found exactly (false marks only lie above it) */
    return (unsigned)__builtin_ctzll((x - NIB_ONES) & ~x & NIB_HIGHS) >> 2;
}

/* Moves way k to the front (most recently used). */
static inline void perm_touch(uint64_t *P, uint32_t k)
{
    uint64_t p = *P;
    unsigned j = perm_pos(p, k);

    if (j) {
        uint64_t below = (UINT64_C(1) << (4 * j)) - 1; /* positions 0 .. j-1 */

        *P = (p & ~((below << 4) | 0xF)) | (p & below) << 4 | k;
    }
}

/* The least recently used way. */
static inline uint32_t perm_last(uint64_t p, uint32_t ways)
{
    return (uint32_t)(p >> (4 * (ways - 1))) & 0xF;
}

/* Moves way k to the back (it has become invalid). */
static inline void perm_drop(uint64_t *P, uint32_t k, uint32_t ways)
{
    uint64_t p = *P;
    unsigned j = perm_pos(p, k);
    uint64_t below = (UINT64_C(1) << (4 * j)) - 1;
    uint64_t used = ways == 16 ? ~UINT64_C(0) : (UINT64_C(1) << (4 * ways)) - 1;
    uint64_t above = (p & used & ~((below << 4) | 0xF)) >> 4;

    *P = (p & below) | above | (uint64_t)k << (4 * (ways - 1)) | (p & ~used);
}

/* ---- recency stamps (17 to 64 ways) ------------------------------------------- */

/*
 * Stamps are 32 bits: when the clock runs out, every set's stamps are
 * replaced by their ranks (1 .. ways), which keeps the order.
 */
static __attribute__((noinline, cold)) void renumber(const struct cs_level *L, struct cs_inst *I)
{
    uint64_t set;
    uint32_t k, j;

    for (set = 0; set < L->nsets; set++) {
        uint32_t *st = stamps_of(L, I->blk + set * L->stride);
        uint32_t rank[CS_MAX_WAYS];

        for (k = 0; k < L->ways; k++) {
            rank[k] = 0;
            if (!st[k])
                continue;
            for (j = 0; j < L->ways; j++)
                rank[k] += st[j] && st[j] <= st[k];
        }
        for (k = 0; k < L->ways; k++)
            st[k] = rank[k];
    }
    I->clock = L->ways;
}

static inline uint32_t tick(const struct cs_level *L, struct cs_inst *I)
{
    if (__builtin_expect(I->clock == UINT32_MAX - 1, 0))
        renumber(L, I);
    return ++I->clock;
}

/* ---- fully associative levels: hash + recency list ------------------------------ */

static inline uint32_t hslot(uint64_t la, uint32_t hmask)
{
    return (uint32_t)((la * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & hmask;
}

static uint64_t fa_find(const struct cs_inst *I, uint64_t la)
{
    uint32_t h = hslot(la, I->hmask);

    for (;;) {
        uint32_t s = I->hash[h];

        if (!s)
            return NONE;
        if (line_of(I->blk[s - 1]) == la)
            return s - 1;
        h = (h + 1) & I->hmask;
    }
}

static void fa_hash_insert(struct cs_inst *I, uint64_t la, uint32_t slot)
{
    uint32_t h = hslot(la, I->hmask);

    while (I->hash[h])
        h = (h + 1) & I->hmask;
    I->hash[h] = slot + 1;
}

/* Removes slot (holding la) from the hash; backward-shift deletion keeps probe runs intact. */
static void fa_hash_remove(struct cs_inst *I, uint64_t la, uint32_t slot)
{
    uint32_t m = I->hmask, i = hslot(la, m), j;

    while (I->hash[i] != slot + 1)
        i = (i + 1) & m;
    j = i;
    for (;;) {
        uint32_t k;

        j = (j + 1) & m;
        if (!I->hash[j])
            break;
        k = hslot(line_of(I->blk[I->hash[j] - 1]), m);
        /* the entry at j may move to i only if its home k is not cyclically in (i, j] */
        if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
            continue;
        I->hash[i] = I->hash[j];
        i = j;
    }
    I->hash[i] = 0;
}

static void fa_unlink(struct cs_inst *I, uint32_t s)
{
    uint32_t p = I->prev[s], n = I->next[s];

    if (p != CS_NIL)
        I->next[p] = n;
    else
        I->head = n;
    if (n != CS_NIL)
        I->prev[n] = p;
    else
        I->tail = p;
}

static void fa_push_front(struct cs_inst *I, uint32_t s)
{
    I->prev[s] = CS_NIL;
    I->next[s] = I->head;
    if (I->head != CS_NIL)
        I->prev[I->head] = s;
    else
        I->tail = s;
    I->head = s;
}

/* ---- generic line operations --------------------------------------------------- */

/*
 * The way of set block b (fpw fingerprint words, then the recency order,
 * the tag words from word tagoff) holding line la, or -1, given la's fingerprint in every byte of
 * pat. The fingerprints of all ways are compared a word (eight ways) at a
 * time; only ways whose fingerprint matches have their tag word read.
 */
static inline int find_way_pat(const uint64_t *b, uint32_t fpw, uint32_t tagoff, uint32_t ways,
                               uint64_t la, uint64_t pat)
{
    const uint64_t *t = b + tagoff, key = la << CS_TAGSH, low = UINT64_C(1) << CS_TAGSH;
    uint32_t w;

    for (w = 0; w < fpw; w++) {
        uint64_t x = b[w] ^ pat;
        uint64_t m = (x - ONES) & ~x & HIGHS; /* the bytes of x that are zero (and a few more) */

        while (m) {
            uint32_t k = w * 8 + ((uint32_t)__builtin_ctzll(m) >> 3);

            if (k < ways && (t[k] ^ key) < low)
                return (int)k;
            m &= m - 1;
        }
    }
    return -1;
}

/*
 * find_way_pat() for a level with a nibble permutation (at most 16 ways,
 * wmask their bits, tag words from word fpw + 1), given la's fingerprint fp:
 * with SSE2 all sixteen fingerprint bytes are compared at once (for eight
 * ways or fewer the other eight bytes, the permutation word, are masked off).
 */
static inline int find_way16(const uint64_t *b, uint32_t fpw, uint32_t ways, uint32_t wmask,
                             uint64_t la, uint64_t fp)
{
#if defined(__SSE2__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t *t = b + fpw + 1, key = la << CS_TAGSH;
    __m128i f = _mm_loadu_si128((const __m128i *)(const void *)b);
    uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(f, _mm_set1_epi8((char)fp))) & wmask;

    (void)ways;
    while (m) {
        uint32_t k = (uint32_t)__builtin_ctz(m);

        if ((t[k] ^ key) < (UINT64_C(1) << CS_TAGSH))
            return (int)k;
        m &= m - 1;
    }
    return -1;
#else
    (void)wmask;
    return find_way_pat(b, fpw, fpw + 1, ways, la, fp * ONES);
#endif
}

/* find_way_pat() for set block b with its tag words from word tagoff. */
static inline int find_way(const uint64_t *b, uint32_t fpw, uint32_t tagoff, uint32_t ways,
                           uint64_t la)
{
    return find_way_pat(b, fpw, tagoff, ways, la, fingerprint(la) * ONES);
}

static inline bool lookup(const struct cs_level *L, struct cs_inst *I, uint64_t la, struct pos *p)
{
    uint64_t *b, set;
    uint32_t k;

    if (L->fa) {
        uint64_t s = fa_find(I, la);

        if (s == NONE)
            return false;
        p->t = I->blk + s;
        p->m = s;
        p->b = NULL;
        p->k = 0;
        return true;
    }
    set = set_of(L, la);
    b = I->blk + set * L->stride;
    k = (uint32_t)find_way(b, L->fpw, L->tagoff, L->ways, la);
    if (k == UINT32_MAX)
        return false;
    p->b = b;
    p->k = k;
    p->t = tags_of(L, b) + k;
    p->m = set * L->ways + k;
    return true;
}

/* Makes the line at p the most recently used. */
static inline void touch(const struct cs_level *L, struct cs_inst *I, const struct pos *p)
{
    if (L->perm) {
        perm_touch(p->b + L->fpw, p->k);
        return;
    }
    if (!L->fa) {
        stamps_of(L, p->b)[p->k] = tick(L, I);
        return;
    }
    if (I->head != p->m) {
        fa_unlink(I, (uint32_t)p->m);
        fa_push_front(I, (uint32_t)p->m);
    }
}

/* The least recently used way of la's set (an invalid one first); it may need evicting. */
static inline void victim(const struct cs_level *L, struct cs_inst *I, uint64_t la, struct pos *p)
{
    uint64_t set, *b;
    uint32_t *st, k, v = 0;

    (void)I;

    if (L->fa) {
        uint32_t s = I->nfree ? I->freel[I->nfree - 1] : I->tail;

        p->t = I->blk + s;
        p->m = s;
        p->b = NULL;
        p->k = 0;
        return;
    }
    set = set_of(L, la);
    b = I->blk + set * L->stride;
    if (L->perm) {
        v = perm_last(b[L->fpw], L->ways);
        goto found;
    }
    st = stamps_of(L, b);
    {
        uint32_t best = st[0];

        /* without branches: which way is oldest is as random as the stream */
        for (k = 1; k < L->ways; k++) {
            bool older = st[k] < best;

            best = older ? st[k] : best;
            v = older ? k : v;
        }
    }
found:
    p->b = b;
    p->k = v;
    p->t = tags_of(L, b) + v;
    p->m = set * L->ways + v;
}

/*
 * Adaptive replacement: whether a fill into set set goes in as the most
 * recently used line (else at the least recently used place). Sets 0 and
 * 33 mod 64 lead, one always inserting as LRU does, one at the LRU place;
 * their misses move psel, which picks for the others.
 */
static inline bool insert_recent(struct cs_inst *I, uint64_t set)
{
    unsigned lead = (unsigned)(set & 63);
    bool at_lru;

    if (lead == 0) {
        I->psel += I->psel < 1023;
        at_lru = false;
    } else if (lead == 33) {
        I->psel -= I->psel > 0;
        at_lru = true;
    } else {
        at_lru = I->psel >= 512;
    }
    return !at_lru || (++I->bip & 31) == 0;
}

/*
 * Puts la, owned by own, in the victim position p as the most recently used
 * line (with adaptive replacement, maybe left at the least recently used place).
 */
static inline void install(const struct cs_level *L, struct cs_inst *I, struct pos *p, uint64_t la,
                           uint32_t own)
{
    uint32_t s;

    if (!L->fa) {
        /* an empty way of a set still filling is taken as LRU takes it */
        bool empty = *p->t == CS_INVALID;

        *p->t = tag_word(la, own);
        set_fingerprint(p->b, p->k, fingerprint(la));
        if (L->dip && !empty && !insert_recent(I, p->m / L->ways)) {
            /* the victim was the least recent: a perm keeps it last, a stamp makes it oldest */
            if (!L->perm)
                stamps_of(L, p->b)[p->k] = 1;
            return;
        }
        if (L->perm)
            perm_touch(p->b + L->fpw, p->k);
        else
            stamps_of(L, p->b)[p->k] = tick(L, I);
        return;
    }
    s = (uint32_t)p->m;
    if (I->nfree && I->freel[I->nfree - 1] == s) {
        I->nfree--;
    } else {
        fa_hash_remove(I, line_of(I->blk[s]), s);
        fa_unlink(I, s);
    }
    I->blk[s] = tag_word(la, own);
    fa_hash_insert(I, la, s);
    fa_push_front(I, s);
}

static void invalidate(const struct cs_level *L, struct cs_inst *I, const struct pos *p)
{
    if (L->meta)
        memset(&I->meta[p->m], 0, sizeof(struct cs_meta));
    if (!L->fa) {
        *p->t = CS_INVALID;
        if (L->perm)
            perm_drop(p->b + L->fpw, p->k, L->ways);
        else
            stamps_of(L, p->b)[p->k] = 0;
        return;
    }
    fa_hash_remove(I, line_of(*p->t), (uint32_t)p->m);
    fa_unlink(I, (uint32_t)p->m);
    *p->t = CS_INVALID;
    I->freel[I->nfree++] = (uint32_t)p->m;
}

void cs_inst_clear(const struct cs_level *L, struct cs_inst *I)
{
    uint64_t i;

    if (L->fa) {
        for (i = 0; i < L->nlines; i++)
            I->blk[i] = CS_INVALID;
        memset(I->hash, 0, ((size_t)I->hmask + 1) * sizeof(uint32_t));
        I->head = I->tail = CS_NIL;
        I->nfree = (uint32_t)L->nlines;
        for (i = 0; i < L->nlines; i++)
            I->freel[i] = (uint32_t)(L->nlines - 1 - i); /* slot 0 is used first */
    } else {
        for (i = 0; i < L->nsets; i++) {
            uint64_t *b = I->blk + i * L->stride, *t = tags_of(L, b);
            uint32_t k;

            memset(b, 0, L->stride * sizeof(uint64_t));
            for (k = 0; k < L->ways; k++)
                t[k] = CS_INVALID;
            if (L->perm)
                for (k = 0; k < L->ways; k++)
                    b[L->fpw] |= (uint64_t)k << (4 * k); /* way k at position k */
        }
    }
    I->clock = 0;
    I->psel = 512;
    I->bip = 0;
    if (I->meta)
        memset(I->meta, 0, L->nlines * sizeof(struct cs_meta));
    if (I->stride)
        memset(I->stride, 0, L->nstride * sizeof(struct cs_stride));
}

/* ---- DRAM row buffers ------------------------------------------------------------ */

static inline bool row_hit(struct augur_cachesim *sim, uint64_t block)
{
    uint64_t key = block + 1;
    uint32_t k;

    if (sim->dram_policy == AUGUR_DRAM_OPEN_BANK) {
        uint32_t bank = (sim->banks & (sim->banks - 1)) ? (uint32_t)(block % sim->banks)
                                                        : (uint32_t)block & (sim->banks - 1);

        if (sim->open[bank] == key)
            return true;
        sim->open[bank] = key;
        return false;
    }
    for (k = 0; k < sim->banks; k++)
        if (sim->open[k] == key) {
            memmove(sim->open + 1, sim->open, k * sizeof(uint64_t));
            sim->open[0] = key;
            return true;
        }
    /* a miss: the least recently used block closes */
    memmove(sim->open + 1, sim->open, (sim->banks - 1) * sizeof(uint64_t));
    sim->open[0] = key;
    return false;
}

static inline void dram(struct augur_cachesim *sim, uint64_t addr, uint64_t size, bool w,
                        uint32_t tag)
{
    struct cs_ctr *c = ctr(sim, sim->nlevels, tag);
    uint64_t b, b1;

    c->acc++;
    if (w) {
        c->wr++;
        c->wbytes += size;
    } else {
        c->fill += size;
    }
    if (!sim->row_bits)
        return;
    b1 = (addr + size - 1) >> sim->row_bits;
    for (b = addr >> sim->row_bits; b <= b1; b++) {
        if (row_hit(sim, b))
            c->rowhit++;
        else
            c->rowmiss++;
    }
}

/* ---- requests between levels ----------------------------------------------------- */

static void req(struct augur_cachesim *sim, unsigned l, unsigned thread, uint64_t addr,
                uint64_t size, bool w, uint32_t tag);

static inline struct cs_inst *inst_of(const struct cs_level *L, unsigned thread)
{
    return &L->inst[thread / L->shared_by];
}

static inline struct cs_inst *iof(const struct augur_cachesim *sim, unsigned l, unsigned thread)
{
    return sim->iof[(size_t)thread * AUGUR_CACHESIM_MAX_LEVELS + l];
}

/*
 * The memo entry of (thread, tag) for the L1 line starting at base: a hash of
 * the line and the tag, so that each stream of a tag (the columns of an ELL
 * matrix, the lines x[col[j]] comes back to) keeps its own.
 */
static inline struct cs_memo *memo_of(const struct augur_cachesim *sim, unsigned thread,
                                      uint64_t base, uint32_t tag)
{
    uint64_t h = ((base * UINT64_C(0x9E3779B97F4A7C15)) >> 57) ^ (tag & (CS_NMEMO - 1));

    _Static_assert(CS_NMEMO == 128, "the hash has 7 bits");

    return &sim->memo[(size_t)thread * CS_NMEMO + h];
}

/* Reads the sectors in mask of line la of level l from level l + 1; returns the bytes. */
static uint64_t fetch(struct augur_cachesim *sim, unsigned l, unsigned thread, uint64_t la,
                      uint32_t mask, uint32_t tag)
{
    const struct cs_level *L = &sim->lv[l];
    uint64_t lo = la << L->line_bits;
    unsigned s = 0;

    if (mask == L->full) {
        req(sim, l + 1, thread, lo, L->line, false, tag);
        return L->line;
    }
    while (s < L->nsect) {
        unsigned e;

        if (!(mask & (1u << s))) {
            s++;
            continue;
        }
        for (e = s; e < L->nsect && (mask & (1u << e)); e++)
            ;
        req(sim, l + 1, thread, lo + ((uint64_t)s << L->sector_bits),
            (uint64_t)(e - s) << L->sector_bits, false, tag);
        s = e;
    }
    return (uint64_t)popc(mask) << L->sector_bits;
}

/*
 * Dirty data arriving at level l from the level above (a write-back, never a
 * demand access): a present line takes it and becomes dirty (a write-through
 * level passes it on); an absent one lets it through to the next level.
 */
static void writeback(struct augur_cachesim *sim, unsigned l, unsigned thread, uint64_t addr,
                      uint64_t size, uint32_t tag)
{
    const struct cs_level *L;
    struct cs_inst *I;

    /* nlevels <= the maximum: the second test is for gcc -O3's bounds check */
    if (l >= sim->nlevels || l >= AUGUR_CACHESIM_MAX_LEVELS) {
        dram(sim, addr, size, true, tag);
        return;
    }
    L = &sim->lv[l];
    I = inst_of(L, thread);
    while (size) {
        uint64_t off = addr & (L->line - 1), n = L->line - off;
        struct pos p;

        if (n > size)
            n = size;
        if (!L->wt && lookup(L, I, addr >> L->line_bits, &p)) {
            uint32_t m = sector_mask(L, off, n);

            *p.t = (*p.t & ~(OWNM << 1)) | (uint64_t)tag << 1 | 1;
            if (L->nsect > 1) {
                I->meta[p.m].sdirty |= (uint8_t)m;
                I->meta[p.m].svalid |= (uint8_t)m;
            }
        } else {
            writeback(sim, l + 1, thread, addr, n, tag);
        }
        addr += n;
        size -= n;
    }
}

/* Writes the dirty sectors of the level-l line at lo down to level l + 1, as owner. */
static void write_down(struct augur_cachesim *sim, unsigned l, unsigned thread, uint64_t lo,
                       uint32_t dirty, uint32_t owner)
{
    const struct cs_level *L = &sim->lv[l];
    unsigned s = 0;

    if (dirty == L->full) {
        writeback(sim, l + 1, thread, lo, L->line, owner);
        return;
    }
    while (s < L->nsect) {
        unsigned e;

        if (!(dirty & (1u << s))) {
            s++;
            continue;
        }
        for (e = s; e < L->nsect && (dirty & (1u << e)); e++)
            ;
        writeback(sim, l + 1, thread, lo + ((uint64_t)s << L->sector_bits),
                  (uint64_t)(e - s) << L->sector_bits, owner);
        s = e;
    }
}

/*
 * Removes from the levels above l the lines that the line [lo, lo + line of
 * l) of instance idx covers, in every instance whose threads share idx.
 * Returns the sectors of the level-l line whose data was dirty above.
 */
static uint32_t back_invalidate(struct augur_cachesim *sim, unsigned l, uint32_t idx, uint64_t lo)
{
    const struct cs_level *L = &sim->lv[l];
    uint64_t hi = lo + L->line;
    unsigned first = idx * L->shared_by, last = first + L->shared_by - 1, u;
    uint32_t dirty = 0;

    if (last >= sim->nthreads)
        last = sim->nthreads - 1;
    for (u = 0; u < l; u++) {
        const struct cs_level *U = &sim->lv[u];
        uint32_t ui;

        for (ui = first / U->shared_by; ui <= last / U->shared_by; ui++) {
            struct cs_inst *UI = &U->inst[ui];
            uint64_t a;

            for (a = lo & ~(uint64_t)(U->line - 1); a < hi; a += U->line) {
                struct pos p;

                if (!lookup(U, UI, a >> U->line_bits, &p))
                    continue;
                if (*p.t & 1) {
                    uint64_t s = a > lo ? a : lo, e = a + U->line < hi ? a + U->line : hi;

                    dirty |= sector_mask(L, s - lo, e - s);
                }
                ctr(sim, u, owner_of(*p.t))->inval++;
                invalidate(U, UI, &p);
            }
        }
    }
    return dirty;
}

/* Evicts the valid line at p of instance I of level l (its place is then reused). */
static void evict(struct augur_cachesim *sim, unsigned l, struct cs_inst *I, const struct pos *p,
                  unsigned thread)
{
    const struct cs_level *L = &sim->lv[l];
    uint64_t tw = *p->t, lo = line_of(tw) << L->line_bits;
    uint32_t own = owner_of(tw);
    struct cs_ctr *c = ctr(sim, l, own);
    uint32_t dirty = sdirty(L, I, p);

    c->evict++;
    if (L->incl && l > 0)
        dirty |= back_invalidate(sim, l, (uint32_t)(I - L->inst), lo);
    if (!dirty)
        return;
    c->wb++;
    c->wbytes += (uint64_t)popc(dirty) << L->sector_bits;
    write_down(sim, l, thread, lo, dirty, own);
}

/* Brings line la into level l as a prefetch, unless it is there. */
static void prefetch(struct augur_cachesim *sim, unsigned l, unsigned thread, uint64_t la,
                     uint32_t tag)
{
    const struct cs_level *L = &sim->lv[l];
    struct cs_inst *I = inst_of(L, thread);
    uint64_t bytes;
    struct cs_ctr *c;
    struct pos p;

    if (lookup(L, I, la, &p))
        return;
    bytes = fetch(sim, l, thread, la, L->full, tag);
    victim(L, I, la, &p);
    if (*p.t != CS_INVALID)
        evict(sim, l, I, &p, thread);
    install(L, I, &p, la, tag);
    I->meta[p.m].svalid = (uint8_t)L->full;
    I->meta[p.m].sdirty = 0;
    I->meta[p.m].pf = 1;
    c = ctr(sim, l, tag);
    c->pf++;
    c->fill += bytes;
}

/* Trains the stride prefetcher of I on addr; returns the line to prefetch or NONE. */
static uint64_t stride_observe(const struct cs_level *L, struct cs_inst *I, unsigned thread,
                               uint64_t addr, uint32_t tag)
{
    uint32_t key = tag + 1;
    struct cs_stride *e = &I->stride[(tag * 31u + thread) & (L->nstride - 1)];
    int64_t d;
    uint64_t target;

    if (e->key != key) {
        e->key = key;
        e->last = addr;
        e->stride = 0;
        e->conf = 0;
        return NONE;
    }
    d = (int64_t)(addr - e->last);
    if (d == e->stride && d != 0) {
        if (e->conf < 3)
            e->conf++;
    } else {
        e->conf = 0;
        e->stride = d;
    }
    e->last = addr;
    if (e->conf == 0)
        return NONE;
    target = (addr + (uint64_t)e->stride) & ADDRM;
    if ((target >> L->line_bits) == (addr >> L->line_bits))
        return ((addr >> L->line_bits) + (e->stride > 0 ? 1 : (uint64_t)-1)) &
               (ADDRM >> L->line_bits);
    return target >> L->line_bits;
}

/* A demand request for the bytes [addr, addr + n) inside one line of level l. */
static void line_req(struct augur_cachesim *sim, unsigned l, unsigned thread, uint64_t addr,
                     uint64_t n, bool w, uint32_t tag)
{
    const struct cs_level *L = &sim->lv[l];
    struct cs_inst *I = inst_of(L, thread);
    struct cs_ctr *c = ctr(sim, l, tag);
    uint64_t la = addr >> L->line_bits, pf_target = NONE;
    uint32_t smask = sector_mask(L, addr & (L->line - 1), n);
    struct pos p;

    c->acc++;
    c->wr += w;
    c->sacc += popc(smask);
    c->wsacc += w ? popc(smask) : 0;
    if (L->pf == AUGUR_CACHE_PREFETCH_STRIDE)
        pf_target = stride_observe(L, I, thread, addr, tag);
    if (lookup(L, I, la, &p)) {
        uint32_t missing = smask & ~svalid(L, I, &p);

        if (missing) {
            /* the line is here but some sectors are not */
            c->miss++;
            if (!w && l + 1 > sim->reach)
                sim->reach = l + 1;
            c->wmiss += w;
            c->smiss += popc(missing);
            c->wsmiss += w ? popc(missing) : 0;
            if (w && !L->walloc) {
                c->wbytes += n;
                req(sim, l + 1, thread, addr, n, true, tag);
                goto done;
            }
            c->fill += fetch(sim, l, thread, la,
                             w && L->nsect > 1 ? missing & ~full_sectors(L, addr & (L->line - 1), n)
                                               : missing,
                             tag);
            if (!lookup(L, I, la, &p))
                goto done; /* cannot happen with nested levels; stay safe */
            I->meta[p.m].svalid |= (uint8_t)missing;
        } else if (L->meta && I->meta[p.m].pf) {
            I->meta[p.m].pf = 0;
            c->pfhit++;
            if (L->pf == AUGUR_CACHE_PREFETCH_NEXT_LINE)
                pf_target = la + 1;
        }
        touch(L, I, &p);
    } else {
        uint32_t fill = L->nsect > 1 ? smask : L->full;

        c->miss++;
        c->wmiss += w;
        c->smiss += popc(smask);
        c->wsmiss += w ? popc(smask) : 0;
        if (!w && l + 1 > sim->reach)
            sim->reach = l + 1;
        if (L->pf == AUGUR_CACHE_PREFETCH_NEXT_LINE)
            pf_target = la + 1;
        if (w && !L->walloc) {
            c->wbytes += n;
            req(sim, l + 1, thread, addr, n, true, tag);
            goto done;
        }
        c->fill +=
            fetch(sim, l, thread, la,
                  w && L->nsect > 1 ? fill & ~full_sectors(L, addr & (L->line - 1), n) : fill, tag);
        victim(L, I, la, &p);
        if (*p.t != CS_INVALID)
            evict(sim, l, I, &p, thread);
        install(L, I, &p, la, tag);
        if (L->meta) {
            I->meta[p.m].svalid = (uint8_t)fill;
            I->meta[p.m].sdirty = 0;
            I->meta[p.m].pf = 0;
        }
    }
    if (w) {
        if (L->wt) {
            c->wbytes += n;
            req(sim, l + 1, thread, addr, n, true, tag);
        } else {
            if (!(*p.t & 1))
                *p.t = (*p.t & ~(OWNM << 1)) | (uint64_t)tag << 1 | 1;
            if (L->nsect > 1)
                I->meta[p.m].sdirty |= (uint8_t)smask;
        }
    }
done:
    if (pf_target != NONE) {
        unsigned reach = sim->reach; /* the prefetch's own misses are not the demand's */

        prefetch(sim, l, thread, pf_target, tag);
        sim->reach = reach;
    }
}

/* A request for [addr, addr + size) at level l (memory when l == nlevels), split into lines. */
static void req(struct augur_cachesim *sim, unsigned l, unsigned thread, uint64_t addr,
                uint64_t size, bool w, uint32_t tag)
{
    const struct cs_level *L;

    if (l == sim->nlevels) {
        dram(sim, addr, size, w, tag);
        return;
    }
    L = &sim->lv[l];
    while (size) {
        uint64_t n = L->line - (addr & (L->line - 1));

        if (n > size)
            n = size;
        line_req(sim, l, thread, addr, n, w, tag);
        addr += n;
        size -= n;
    }
}

/* ---- the level walk: simple hierarchies of nibble-permutation levels ---------------- */

/* Evicts the valid line in way v of set block b of level l on the general path. */
static void evict_way(struct augur_cachesim *sim, unsigned l, unsigned thread, uint64_t *b,
                      uint32_t v)
{
    const struct cs_level *L = &sim->lv[l];
    struct cs_inst *I = iof(sim, l, thread);
    struct pos p;

    p.t = b + L->tagoff + v;
    p.b = b;
    p.k = v;
    p.m = (uint64_t)(b - I->blk) / L->stride * L->ways + v;
    evict(sim, l, I, &p, thread);
}

/*
 * A dirty line of non-inclusive level l, tag word tw, evicted: counted for
 * its owner, its data written into the first level below that holds the line
 * (which becomes dirty and the owner's), else into memory. writeback() does
 * the same on the general path; here each level's set is found as the walk
 * finds it.
 */
static __attribute__((noinline)) void walk_evict_dirty(struct augur_cachesim *sim, unsigned l,
                                                       unsigned thread, uint64_t tw)
{
    uint64_t *const *fb = &sim->fblk[(size_t)thread * AUGUR_CACHESIM_MAX_LEVELS];
    uint32_t own = owner_of(tw), size = sim->fl[l].line;
    uint64_t lo = line_of(tw) << sim->fl[l].line_bits;
    struct cs_ctr *c = ctr(sim, l, own);

    c->evict++;
    c->wb++;
    c->wbytes += size;
    for (l++; l < sim->nlevels; l++) {
        const struct cs_flevel *F = &sim->fl[l];
        uint64_t la = lo >> F->line_bits, *b = fb[l] + cs_fset(F, la) * F->stride;
        int k = find_way16(b, F->fpw, F->ways, F->wmask, la, fingerprint(la));

        if (k >= 0) {
            uint64_t *t = b + F->fpw + 1 + k;

            *t = (*t & ~(OWNM << 1)) | (uint64_t)own << 1 | 1;
            return;
        }
    }
    dram(sim, lo, size, true, own);
}

/*
 * One access inside one L1 line of a simple hierarchy whose levels are all
 * set-associative with a nibble permutation: look the line up level by
 * level until it hits (or memory), finding each level's set once, then fill
 * the levels that missed, deepest first, into the sets found on the way
 * down, as the general path does. Counts go to the tag's served counts
 * (cs_int.h CS_SRV): one word per access. first is 1 when the caller has
 * looked L1 up (its set block l1blk, the line's fingerprint l1fp) and not
 * found the line. The L1 line becomes the memo of (thread, tag).
 */
static inline __attribute__((always_inline)) void
walk_n(struct augur_cachesim *sim, unsigned thread, uint64_t addr, bool w, uint32_t tag,
       unsigned first, uint64_t *l1blk, uint64_t l1fp, const unsigned n)
{
    uint64_t *const *fb = &sim->fblk[(size_t)thread * AUGUR_CACHESIM_MAX_LEVELS];
    uint64_t *blk[AUGUR_CACHESIM_MAX_LEVELS], fps[AUGUR_CACHESIM_MAX_LEVELS];
    uint64_t tws[AUGUR_CACHESIM_MAX_LEVELS]; /* the new tag word of each level that missed */
    uint64_t *cnt = &sim->srv[(size_t)tag << CS_SRV_SH], *t, *t0 = NULL,
             tagbits = (uint64_t)tag << 1;
    unsigned l = first, m;

    blk[0] = l1blk;
    fps[0] = l1fp;
    tws[0] = (addr >> sim->fl[0].line_bits) << CS_TAGSH | tagbits | w;
    for (; l < n; l++) {
        const struct cs_flevel *F = &sim->fl[l];
        uint64_t la = addr >> F->line_bits, fp = fingerprint(la);
        uint64_t *b = fb[l] + cs_fset(F, la) * F->stride;
        int k = find_way16(b, F->fpw, F->ways, F->wmask, la, fp);

        if (k >= 0) {
            t = b + F->fpw + 1 + k;
            perm_touch(b + F->fpw, (uint32_t)k);
            if (w && l == 0 && !(*t & 1))
                *t = (*t & ~(OWNM << 1)) | tagbits | 1;
            break;
        }
        blk[l] = b;
        fps[l] = fp;
        tws[l] = la << CS_TAGSH | tagbits | (w && l == 0);
    }
    cnt[CS_SRV(l, w)]++;
    sim->reach = l;
    if (l == n && sim->row_bits) {
        const struct cs_flevel *F = &sim->fl[n - 1];
        uint64_t lo = addr & ~(uint64_t)(F->line - 1), r, r1 = (lo + F->line - 1) >> sim->row_bits;

        for (r = lo >> sim->row_bits; r <= r1; r++)
            cnt[row_hit(sim, r) ? CS_SRV_ROWHIT : CS_SRV_ROWMISS]++;
    }
    for (m = l; m-- > 0;) {
        const struct cs_flevel *F = &sim->fl[m];
        uint64_t *b = blk[m], *P = b + F->fpw, p = *P, tw;
        uint32_t v = (uint32_t)(p >> F->lastsh) & 0xF;

        t = P + 1 + v;
        tw = *t;
        /* an empty way (all ones), a dirty line or an inclusive level: the general steps */
        if (__builtin_expect((tw & 1) | F->incl, 0)) {
            if (tw != CS_INVALID) {
                if (F->incl)
                    evict_way(sim, m, thread, b, v);
                else
                    walk_evict_dirty(sim, m, thread, tw); /* neither changes this set's order */
            }
        } else { /* a clean line just goes */
            sim->srv[(size_t)owner_of(tw) << CS_SRV_SH | CS_SRV_EVICT(m)]++;
        }
        *t = tws[m];
        set_fingerprint(b, v, fps[m]);
        /* the victim is last: everything before it moves back one place (or it stays last) */
        if (!F->dip || tw == CS_INVALID ||
            insert_recent(sim->iof[(size_t)thread * AUGUR_CACHESIM_MAX_LEVELS + m],
                          (uint64_t)(b - fb[m]) / F->stride))
            *P = (p & F->keep) | (p & F->below) << 4 | v;
        t0 = t;
    }
    if (l > 0 && sim->l1_inline) {
        struct cs_memo *mo = memo_of(sim, thread, addr & sim->l1_not, tag);

        mo->base = addr & sim->l1_not;
        mo->t = t0;
        mo->tw = *t0;
        mo->perm = blk[0] + sim->fl[0].fpw;
        mo->cnt = cnt;
        mo->k = (uint32_t)(t0 - mo->perm - 1);
        mo->tag = tag;
    }
}

/*
 * walk_n() with the number of levels a constant, so that the compiler lays
 * the level loops out level by level.
 */
static __attribute__((noinline)) void walk(struct augur_cachesim *sim, unsigned thread,
                                           uint64_t addr, bool w, uint32_t tag, unsigned first,
                                           uint64_t *l1blk, uint64_t l1fp)
{
    switch (sim->nlevels) {
    case 1:
        walk_n(sim, thread, addr, w, tag, first, l1blk, l1fp, 1);
        break;
    case 2:
        walk_n(sim, thread, addr, w, tag, first, l1blk, l1fp, 2);
        break;
    case 3:
        walk_n(sim, thread, addr, w, tag, first, l1blk, l1fp, 3);
        break;
    default:
        walk_n(sim, thread, addr, w, tag, first, l1blk, l1fp, AUGUR_CACHESIM_MAX_LEVELS);
        break;
    }
}

/*
 * One access inside one line of every level, for a simple hierarchy: look
 * the line up level by level until it hits (or memory), then fill the
 * levels that missed, deepest first, as the general path does. first is 1
 * when the caller has already looked L1 up and counted its miss.
 */
static void simple_access(struct augur_cachesim *sim, unsigned thread, uint64_t addr, bool w,
                          uint32_t tag, unsigned first)
{
    unsigned l, nmiss;

    if (sim->simple_perm) {
        /* only a caller that has not looked L1 up comes here with a permutation hierarchy */
        walk(sim, thread, addr, w, tag, 0, NULL, 0);
        return;
    }

    for (l = first; l < sim->nlevels; l++) {
        const struct cs_level *L = &sim->lv[l];
        struct cs_inst *I = iof(sim, l, thread);
        struct cs_ctr *c = ctr(sim, l, tag);
        uint64_t la = addr >> L->line_bits;
        bool wl = w && l == 0; /* the levels below see the write-allocate fetch, a read */
        struct pos p;

        c->acc++;
        c->wr += wl;
        if (lookup(L, I, la, &p)) {
            touch(L, I, &p);
            if (wl && !(*p.t & 1))
                *p.t = (*p.t & ~(OWNM << 1)) | (uint64_t)tag << 1 | 1;
            break;
        }
        c->miss++;
        c->wmiss += wl;
        c->fill += L->line;
    }
    nmiss = l;
    sim->reach = l;
    if (nmiss == sim->nlevels) {
        const struct cs_level *L = &sim->lv[nmiss - 1];

        dram(sim, addr & ~(uint64_t)(L->line - 1), L->line, false, tag);
    }
    while (nmiss--) {
        const struct cs_level *L = &sim->lv[nmiss];
        struct cs_inst *I = iof(sim, nmiss, thread);
        uint64_t la = addr >> L->line_bits;
        struct pos p;

        victim(L, I, la, &p);
        if (*p.t != CS_INVALID) {
            if ((*p.t & 1) || L->incl)
                evict(sim, nmiss, I, &p, thread);
            else
                ctr(sim, nmiss, owner_of(*p.t))->evict++; /* a clean line just goes */
        }
        install(L, I, &p, la, tag);
        if (w && nmiss == 0)
            *p.t |= 1;
    }
}

/* An L1 miss on the inlined path (a simple hierarchy): count it and go down. */
static __attribute__((noinline)) void access_l1_miss(struct augur_cachesim *sim, unsigned thread,
                                                     uint64_t addr, bool w, uint32_t tag)
{
    struct cs_ctr *c = &sim->ctr[tag];

    c->acc++;
    c->wr += w;
    c->miss++;
    c->wmiss += w;
    c->fill += sim->lv[0].line;
    simple_access(sim, thread, addr, w, tag, 1);
}

/* Every access the inlined L1 path does not take. */
static __attribute__((noinline)) void access_slow(struct augur_cachesim *sim, unsigned thread,
                                                  uint64_t addr, uint64_t size, bool w,
                                                  uint32_t tag)
{
    uint64_t last = addr + (size ? size - 1 : 0);

    if (tag >= sim->ntags)
        tag = sim->ntags - 1;
    if (sim->simple && last <= ADDRM && last >= addr && ((addr ^ last) >> sim->l1_bits) == 0) {
        simple_access(sim, thread, addr, w, tag, 0);
        return;
    }
    addr &= ADDRM;
    if (size == 0)
        size = 1;
    if (size > ADDRM + 1 - addr)
        size = ADDRM + 1 - addr; /* the access runs to the end of the address space */
    req(sim, 0, thread, addr, size, w, tag);
}

/* ---- coherence ------------------------------------------------------------------- */

/*
 * Snooping keeps one invariant: a line dirty in an instance is in no
 * instance of another thread's that the writer does not share. A write
 * that hits a dirty L1 line (the memo's write path) therefore needs no
 * snoop, and neither does a read that hits any instance of the thread's
 * own: another thread's write would have removed it. Everything else
 * comes here, before the access.
 */

/* The first level instance i of level l shares with thread (nlevels: memory). */
static unsigned meet_level(const struct augur_cachesim *sim, unsigned l, uint32_t i,
                           unsigned thread)
{
    unsigned first = i * sim->lv[l].shared_by, m;

    for (m = l + 1; m < sim->nlevels; m++)
        if (first / sim->lv[m].shared_by == thread / sim->lv[m].shared_by)
            break;
    return m;
}

/* The first level at or below from whose instance of thread holds lo (nlevels: none). */
static unsigned held_from(struct augur_cachesim *sim, unsigned from, unsigned thread, uint64_t lo)
{
    unsigned l;
    struct pos p;

    for (l = from; l < sim->nlevels; l++)
        if (lookup(&sim->lv[l], inst_of(&sim->lv[l], thread), lo >> sim->lv[l].line_bits, &p))
            break;
    return l;
}

/*
 * The coherence actions before thread's access (a write when w) to the L1
 * line at lo: other threads' dirty copies are written down to the first
 * level they share with thread, and a write removes every other copy.
 */
static void snoop_line(struct augur_cachesim *sim, unsigned thread, uint64_t lo, bool w,
                       uint32_t tag)
{
    unsigned own = w ? sim->nlevels : held_from(sim, 0, thread, lo), l, meet = sim->nlevels;
    bool moved = false;

    for (l = 0; l < sim->nlevels; l++) {
        const struct cs_level *L = &sim->lv[l];
        uint32_t mine = thread / L->shared_by, i;

        if (L->ninst == 1)
            break; /* shared by every thread, as are the levels below */
        for (i = 0; i < L->ninst; i++) {
            struct cs_inst *I = &L->inst[i];
            unsigned m;
            struct pos p;

            if (i == mine || !lookup(L, I, lo >> L->line_bits, &p))
                continue;
            m = meet_level(sim, l, i, thread);
            if (own < m)
                continue; /* thread's own copy is valid: no write since it was taken */
            if (sdirty(L, I, &p)) {
                struct cs_ctr *c = ctr(sim, l, owner_of(*p.t));

                c->wb++;
                c->wbytes += L->line;
                *p.t &= ~(uint64_t)1;
                if (L->nsect > 1)
                    I->meta[p.m].sdirty = 0;
                writeback(sim, m, i * L->shared_by, lo & ~(uint64_t)(L->line - 1), L->line,
                          owner_of(*p.t));
                moved = true;
                if (m < meet)
                    meet = m;
            }
            if (w) {
                ctr(sim, l, owner_of(*p.t))->inval++;
                invalidate(L, I, &p);
            }
        }
    }
    if (moved)
        ctr(sim, held_from(sim, meet, thread, lo), tag)->xfer++;
}

/* snoop_line() for each L1 line of [addr, addr + size). */
static __attribute__((noinline)) void snoop(struct augur_cachesim *sim, unsigned thread,
                                            uint64_t addr, uint64_t size, bool w, uint32_t tag)
{
    uint64_t lo = addr & ADDRM & sim->l1_not, last = (addr + (size ? size - 1 : 0)) & ADDRM;

    if (tag >= sim->ntags)
        tag = sim->ntags - 1;
    if (last < lo)
        last = ADDRM;
    for (; lo <= last && lo >= (addr & ADDRM & sim->l1_not); lo += sim->lv[0].line)
        snoop_line(sim, thread, lo, w, tag);
}

/*
 * An access the memo did not take. For a simple hierarchy with an inlined
 * L1 (l1_inline), a one-line access with a tag in range searches the L1 set:
 * a hit becomes the memo of (thread, tag), a miss goes down the levels.
 * Everything else takes access_slow().
 */
static __attribute__((noinline)) void access_unmemoized(struct augur_cachesim *sim, unsigned thread,
                                                        uint64_t addr, uint64_t size, bool w,
                                                        uint32_t tag)
{
    uint64_t last = addr + size - (size != 0), la = addr >> sim->l1_bits, *b, *t, fp;
    struct cs_memo *mo;
    int k;

    if (!sim->l1_inline || tag >= sim->ntags || last > ADDRM ||
        ((addr ^ last) >> sim->l1_bits) != 0) {
        if (sim->coh)
            snoop(sim, thread, addr, size, w, tag);
        access_slow(sim, thread, addr, size, w, tag);
        return;
    }
    b = sim->fblk[(size_t)thread * AUGUR_CACHESIM_MAX_LEVELS] +
        (la & sim->l1_mask) * sim->l1_stride;
    fp = fingerprint(la);
    k = find_way16(b, sim->l1_fpw, sim->l1_ways, sim->fl[0].wmask, la, fp);
    /* an L1 hit needs no snoop unless it writes a clean line (the invariant above) */
    if (sim->coh && (k < 0 || (w && !(b[sim->l1_fpw + 1 + k] & 1))))
        snoop(sim, thread, addr, size, w, tag); /* other threads' instances only: b stays */
    if (k < 0) {
        if (sim->simple_perm)
            walk(sim, thread, addr, w, tag, 1, b, fp);
        else
            access_l1_miss(sim, thread, addr, w, tag);
        return;
    }
    t = b + sim->l1_fpw + 1 + k;
    perm_touch(b + sim->l1_fpw, (uint32_t)k);
    if (w && !(*t & 1))
        *t = (*t & ~(OWNM << 1)) | (uint64_t)tag << 1 | 1;
    mo = memo_of(sim, thread, addr & sim->l1_not, tag);
    mo->base = addr & sim->l1_not;
    mo->t = t;
    mo->tw = *t;
    mo->perm = b + sim->l1_fpw;
    mo->cnt = &sim->srv[(size_t)tag << CS_SRV_SH];
    mo->k = (uint32_t)k;
    mo->tag = tag;
    mo->cnt[CS_SRV(0, w)]++;
}

/*
 * One access. The shortest path is the memo: the line the same (thread,
 * tag) touched last, still in its L1 way with the tag word the memo saw (a
 * memo only ever holds lines of a simple hierarchy's L1, below 2^48 and
 * filled by a tag in range; other simulators never fill it); a write needs
 * the line dirty already. A hit there is one count and, unless the line is
 * already the most recent of its set, a recency update. Then the L1 set;
 * everything else (other hierarchies, accesses across lines, tags out of
 * range) takes access_slow().
 */
static inline void access_one(struct augur_cachesim *sim, unsigned thread, uint64_t addr,
                              uint64_t size, bool w, uint32_t tag)
{
    uint64_t nm = sim->l1_not;
    struct cs_memo *mo = memo_of(sim, thread, addr & nm, tag);
    uint64_t base = mo->base, tw = mo->tw;

    assert(thread < sim->nthreads);
    /* size 0 counts as 1: addr - 1 may leave the memo for the slow path, never a wrong count */
    if ((((addr & nm) ^ base) | (((addr + size - 1) & nm) ^ base) | (mo->tag ^ tag)) == 0 &&
        *mo->t == tw && (tw & 1) >= w) {
        if ((*mo->perm & 0xF) != mo->k) /* not already the most recent in its set */
            perm_touch(mo->perm, mo->k);
        mo->cnt[CS_SRV(0, w)]++;
        return;
    }
    access_unmemoized(sim, thread, addr, size, w, tag);
}

bool augur_cachesim_holds(const struct augur_cachesim *sim, unsigned thread, unsigned level,
                          uint64_t addr)
{
    const struct cs_level *L;
    struct pos p;

    if (!sim || level >= sim->nlevels || thread >= sim->nthreads)
        return false;
    L = &sim->lv[level];
    return lookup(L, iof(sim, level, thread), addr >> L->line_bits, &p);
}

void augur_cachesim_access(struct augur_cachesim *sim, unsigned thread, uint64_t addr,
                           uint32_t size, bool is_write, uint32_t tag)
{
    access_one(sim, thread, addr, size, is_write, tag);
}

/* Whether the memo of (thread, tag) holds addr's L1 line (a hint: the line may have gone). */
static inline bool memo_has(const struct augur_cachesim *sim, const struct augur_cache_access *a)
{
    return memo_of(sim, a->thread, a->addr & sim->l1_not, a->tag)->base == (a->addr & sim->l1_not);
}

/* One access of a batch; with reach, the level that served it there. */
static inline void batch_one(struct augur_cachesim *sim, const struct augur_cache_access *a,
                             uint8_t *reach)
{
    if (reach)
        sim->reach = 0;
    access_one(sim, a->thread, a->addr, a->size, a->is_write != 0, a->tag);
    if (reach)
        *reach = (uint8_t)sim->reach;
}

static inline __attribute__((always_inline)) void
batch(struct augur_cachesim *sim, const struct augur_cache_access *acc, size_t n, uint8_t *reach)
{
    size_t i;

    if (!sim->big) {
        for (i = 0; i < n; i++)
            batch_one(sim, &acc[i], reach ? &reach[i] : NULL);
        return;
    }
    /*
     * Ask the host for the big levels' sets CS_PF_AHEAD accesses early: a
     * random stream then waits on several host cache misses at once, not on
     * one after another. An access whose line its memo holds will not need
     * them.
     */
    for (i = 0; i < n && i < CS_PF_AHEAD; i++)
        if (!memo_has(sim, &acc[i]))
            cs_prefetch_state(sim, acc[i].thread, acc[i].addr);
    for (i = 0; i < n; i++) {
        if (i + CS_PF_AHEAD < n && !memo_has(sim, &acc[i + CS_PF_AHEAD]))
            cs_prefetch_state(sim, acc[i + CS_PF_AHEAD].thread, acc[i + CS_PF_AHEAD].addr);
        batch_one(sim, &acc[i], reach ? &reach[i] : NULL);
    }
}

void augur_cachesim_access_batch(struct augur_cachesim *sim, const struct augur_cache_access *acc,
                                 size_t n)
{
    batch(sim, acc, n, NULL);
}

void augur_cachesim_access_batch_reach(struct augur_cachesim *sim,
                                       const struct augur_cache_access *acc, size_t n,
                                       uint8_t *reach)
{
    batch(sim, acc, n, reach);
}

void cs_prefetch_state(const struct augur_cachesim *sim, unsigned thread, uint64_t addr)
{
    unsigned l;

    addr &= ADDRM;
    for (l = 1; l < sim->nlevels; l++) {
        const struct cs_level *L = &sim->lv[l];
        const struct cs_inst *I;
        uint64_t la;

        if (!L->big)
            continue;
        I = inst_of(L, thread);
        la = addr >> L->line_bits;
        if (L->fa) {
            __builtin_prefetch(&I->hash[hslot(la, I->hmask)]);
        } else {
            const uint64_t *b = I->blk + cs_fset(&sim->fl[l], la) * L->stride;

            __builtin_prefetch(b);
            __builtin_prefetch(b + L->stride - 1);
        }
    }
}

/* ---- flush ----------------------------------------------------------------------- */

void augur_cachesim_flush(struct augur_cachesim *sim)
{
    unsigned l;

    for (l = 0; l < sim->nlevels; l++) {
        const struct cs_level *L = &sim->lv[l];
        uint32_t i;

        for (i = 0; i < L->ninst; i++) {
            struct cs_inst *I = &L->inst[i];
            unsigned thread = i * L->shared_by;
            uint64_t set;
            uint32_t k, nk = L->fa ? 1 : L->ways;

            for (set = 0; set < (L->fa ? L->nlines : L->nsets); set++) {
                for (k = 0; k < nk; k++) {
                    struct pos p;
                    uint32_t dirty;
                    struct cs_ctr *c;

                    p.t = L->fa ? I->blk + set : tags_of(L, I->blk + set * L->stride) + k;
                    p.m = L->fa ? set : set * L->ways + k;
                    if (*p.t == CS_INVALID || !(*p.t & 1))
                        continue;
                    dirty = sdirty(L, I, &p);
                    c = ctr(sim, l, owner_of(*p.t));
                    c->wb++;
                    c->wbytes += (uint64_t)popc(dirty) << L->sector_bits;
                    write_down(sim, l, thread, line_of(*p.t) << L->line_bits, dirty,
                               owner_of(*p.t));
                    *p.t &= ~(uint64_t)1;
                    if (L->nsect > 1)
                        I->meta[p.m].sdirty = 0;
                }
            }
        }
    }
}

void cs_memo_clear(struct augur_cachesim *sim)
{
    size_t i;

    if (!sim->memo)
        return;
    for (i = 0; i < (size_t)sim->nthreads * CS_NMEMO; i++) {
        sim->memo[i].base = 0;
        sim->memo[i].t = &sim->memo_sentinel;
        sim->memo[i].tw = 0; /* never the sentinel's CS_INVALID */
        sim->memo[i].perm = &sim->memo_sentinel;
        sim->memo[i].cnt = sim->srv;
        sim->memo[i].k = 0;
        sim->memo[i].tag = 0;
    }
}
