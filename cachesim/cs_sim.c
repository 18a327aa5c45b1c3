/*
 * cs_sim.c - the cache simulation core: lookups in true-LRU order, fills,
 * evictions, write policies, sectors, inclusion, prefetchers and the DRAM
 * row buffers (module: cachesim).
 */
#include <assert.h>
#include <string.h>

#include "cs_int.h"

#define NONE UINT64_MAX /* no slot */

static inline struct cs_ctr *ctr(struct augur_cachesim *sim, unsigned l, uint32_t tag)
{
    return &sim->ctr[(size_t)l * sim->ntags + tag];
}

static inline unsigned popc(uint32_t v)
{
    return (unsigned)__builtin_popcount(v);
}

/* Sectors of a line touched by the bytes [off, off + n) of it (n >= 1). */
static inline uint32_t sector_mask(const struct cs_level *L, uint64_t off, uint64_t n)
{
    unsigned first = (unsigned)(off >> L->sector_bits);
    unsigned last = (unsigned)((off + n - 1) >> L->sector_bits);

    return ((2u << last) - 1) & ~((1u << first) - 1);
}

static inline uint64_t set_base(const struct cs_level *L, uint64_t la)
{
    uint64_t set = L->pow2 ? la & L->set_mask : la % L->nsets;

    return set * L->ways;
}

/* ---- fully associative levels: hash + recency list ----------------------- */

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
        if ((I->tags[s - 1] >> 1) == la)
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
        k = hslot(I->tags[I->hash[j] - 1] >> 1, m);
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

/* ---- generic slot operations ----------------------------------------------- */

/* Finds line la; *base receives its set's first slot (set-associative levels). */
static inline uint64_t lookup(const struct cs_level *L, const struct cs_inst *I, uint64_t la,
                              uint64_t *base)
{
    const uint64_t *t;
    uint32_t k;

    if (L->fa)
        return fa_find(I, la);
    *base = set_base(L, la);
    t = I->tags + *base;
    for (k = 0; k < L->ways; k++)
        if ((t[k] >> 1) == la)
            return *base + k;
    return NONE;
}

/* Makes slot the most recently used; returns where it is now. */
static inline uint64_t touch(const struct cs_level *L, struct cs_inst *I, uint64_t base,
                             uint64_t slot)
{
    uint64_t k, tw;
    struct cs_meta m;

    if (L->fa) {
        if (I->head != slot) {
            fa_unlink(I, (uint32_t)slot);
            fa_push_front(I, (uint32_t)slot);
        }
        return slot;
    }
    k = slot - base;
    if (k) {
        tw = I->tags[slot];
        m = I->meta[slot];
        memmove(I->tags + base + 1, I->tags + base, k * sizeof(uint64_t));
        memmove(I->meta + base + 1, I->meta + base, k * sizeof(struct cs_meta));
        I->tags[base] = tw;
        I->meta[base] = m;
    }
    return base;
}

/* The slot the next install will reuse (it may hold a valid line to evict first). */
static inline uint64_t victim(const struct cs_level *L, const struct cs_inst *I, uint64_t base)
{
    if (L->fa)
        return I->nfree ? I->freel[I->nfree - 1] : I->tail;
    return base + L->ways - 1;
}

/* Puts la in the victim slot as the most recently used line; returns its slot. */
static uint64_t install(const struct cs_level *L, struct cs_inst *I, uint64_t base, uint64_t la)
{
    uint32_t s;

    if (!L->fa) {
        memmove(I->tags + base + 1, I->tags + base, (L->ways - 1) * sizeof(uint64_t));
        memmove(I->meta + base + 1, I->meta + base, (L->ways - 1) * sizeof(struct cs_meta));
        I->tags[base] = la << 1;
        return base;
    }
    if (I->nfree) {
        s = I->freel[--I->nfree];
    } else {
        s = I->tail;
        fa_hash_remove(I, I->tags[s] >> 1, s);
        fa_unlink(I, s);
    }
    I->tags[s] = la << 1;
    fa_hash_insert(I, la, s);
    fa_push_front(I, s);
    return s;
}

/* Empties slot; set-associative levels move it behind the valid ways. */
static void invalidate(const struct cs_level *L, struct cs_inst *I, uint64_t base, uint64_t slot)
{
    uint64_t n;

    if (L->fa) {
        uint32_t s = (uint32_t)slot;

        fa_hash_remove(I, I->tags[s] >> 1, s);
        fa_unlink(I, s);
        I->tags[s] = CS_INVALID;
        I->freel[I->nfree++] = s;
        return;
    }
    n = base + L->ways - 1 - slot;
    memmove(I->tags + slot, I->tags + slot + 1, n * sizeof(uint64_t));
    memmove(I->meta + slot, I->meta + slot + 1, n * sizeof(struct cs_meta));
    I->tags[base + L->ways - 1] = CS_INVALID;
    memset(&I->meta[base + L->ways - 1], 0, sizeof(struct cs_meta));
}

void cs_inst_clear(const struct cs_level *L, struct cs_inst *I)
{
    uint64_t i;

    for (i = 0; i < L->nlines; i++)
        I->tags[i] = CS_INVALID;
    memset(I->meta, 0, L->nlines * sizeof(struct cs_meta));
    if (L->fa) {
        memset(I->hash, 0, ((size_t)I->hmask + 1) * sizeof(uint32_t));
        I->head = I->tail = CS_NIL;
        I->nfree = (uint32_t)L->nlines;
        for (i = 0; i < L->nlines; i++)
            I->freel[i] = (uint32_t)(L->nlines - 1 - i); /* slot 0 is used first */
    }
    if (I->stride)
        memset(I->stride, 0, CS_NSTRIDE * sizeof(struct cs_stride));
}

/* ---- DRAM row buffers -------------------------------------------------------- */

static bool row_hit(struct augur_cachesim *sim, uint64_t block)
{
    uint64_t key = block + 1;
    uint32_t k;

    if (sim->dram_policy == AUGUR_DRAM_OPEN_BANK) {
        uint32_t bank = (uint32_t)(block % sim->banks);

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

static void dram(struct augur_cachesim *sim, uint64_t addr, uint64_t size, bool w, uint32_t tag)
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

/* ---- requests between levels ------------------------------------------------- */

static void req(struct augur_cachesim *sim, unsigned l, unsigned thread, uint64_t addr,
                uint64_t size, bool w, uint32_t tag);

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

    if (l == sim->nlevels) {
        dram(sim, addr, size, true, tag);
        return;
    }
    L = &sim->lv[l];
    I = &L->inst[thread / L->shared_by];
    while (size) {
        uint64_t off = addr & (L->line - 1), n = L->line - off, base = 0, slot;

        if (n > size)
            n = size;
        slot = lookup(L, I, addr >> L->line_bits, &base);
        if (slot != NONE && !L->wt) {
            uint32_t m = sector_mask(L, off, n);

            I->tags[slot] |= 1;
            I->meta[slot].sdirty |= (uint8_t)m;
            I->meta[slot].svalid |= (uint8_t)m;
            I->meta[slot].own = (uint16_t)tag;
        } else {
            writeback(sim, l + 1, thread, addr, n, tag);
        }
        addr += n;
        size -= n;
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
                uint64_t base = 0, slot = lookup(U, UI, a >> U->line_bits, &base);

                if (slot == NONE)
                    continue;
                if (UI->tags[slot] & 1) {
                    uint64_t s = a > lo ? a : lo, e = a + U->line < hi ? a + U->line : hi;

                    dirty |= sector_mask(L, s - lo, e - s);
                }
                ctr(sim, u, UI->meta[slot].own)->inval++;
                invalidate(U, UI, base, slot);
            }
        }
    }
    return dirty;
}

/* Evicts the valid line in slot of instance I of level l (its slot is then reused). */
static void evict(struct augur_cachesim *sim, unsigned l, struct cs_inst *I, uint64_t slot,
                  unsigned thread)
{
    const struct cs_level *L = &sim->lv[l];
    uint64_t la = I->tags[slot] >> 1, lo = la << L->line_bits;
    struct cs_meta *m = &I->meta[slot];
    struct cs_ctr *c = ctr(sim, l, m->own);
    uint32_t dirty = (I->tags[slot] & 1) ? m->sdirty : 0;
    uint32_t own = m->own;
    unsigned s = 0;

    c->evict++;
    if (L->incl && l > 0)
        dirty |= back_invalidate(sim, l, (uint32_t)(I - L->inst), lo);
    if (!dirty)
        return;
    c->wb++;
    c->wbytes += (uint64_t)popc(dirty) << L->sector_bits;
    while (s < L->nsect) {
        unsigned e;

        if (!(dirty & (1u << s))) {
            s++;
            continue;
        }
        for (e = s; e < L->nsect && (dirty & (1u << e)); e++)
            ;
        writeback(sim, l + 1, thread, lo + ((uint64_t)s << L->sector_bits),
                  (uint64_t)(e - s) << L->sector_bits, own);
        s = e;
    }
}

/* Brings line la into level l as a prefetch, unless it is there. */
static void prefetch(struct augur_cachesim *sim, unsigned l, unsigned thread, uint64_t la,
                     uint32_t tag)
{
    const struct cs_level *L = &sim->lv[l];
    struct cs_inst *I = &L->inst[thread / L->shared_by];
    uint64_t base = 0, slot, bytes;
    struct cs_ctr *c;

    if (lookup(L, I, la, &base) != NONE)
        return;
    bytes = fetch(sim, l, thread, la, L->full, tag);
    base = L->fa ? 0 : set_base(L, la);
    slot = victim(L, I, base);
    if (I->tags[slot] != CS_INVALID)
        evict(sim, l, I, slot, thread);
    slot = install(L, I, base, la);
    I->meta[slot].own = (uint16_t)tag;
    I->meta[slot].svalid = (uint8_t)L->full;
    I->meta[slot].sdirty = 0;
    I->meta[slot].pf = 1;
    c = ctr(sim, l, tag);
    c->pf++;
    c->fill += bytes;
}

/* Trains the stride prefetcher of I on addr; returns the line to prefetch or NONE. */
static uint64_t stride_observe(const struct cs_level *L, struct cs_inst *I, unsigned thread,
                               uint64_t addr, uint32_t tag)
{
    uint32_t key = tag + 1;
    struct cs_stride *e = &I->stride[(tag * 31u + thread) & (CS_NSTRIDE - 1)];
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
    target = addr + (uint64_t)e->stride;
    if ((target >> L->line_bits) == (addr >> L->line_bits))
        return (addr >> L->line_bits) + (e->stride > 0 ? 1 : (uint64_t)-1);
    return target >> L->line_bits;
}

/* A demand request for the bytes [addr, addr + n) inside one line of level l. */
static void line_req(struct augur_cachesim *sim, unsigned l, unsigned thread, uint64_t addr,
                     uint64_t n, bool w, uint32_t tag)
{
    const struct cs_level *L = &sim->lv[l];
    struct cs_inst *I = &L->inst[thread / L->shared_by];
    struct cs_ctr *c = ctr(sim, l, tag);
    uint64_t la = addr >> L->line_bits, base = 0, slot;
    uint32_t smask = sector_mask(L, addr & (L->line - 1), n);
    uint64_t pf_target = NONE;

    c->acc++;
    c->wr += w;
    c->sacc += popc(smask);
    if (L->pf == AUGUR_PREFETCH_STRIDE)
        pf_target = stride_observe(L, I, thread, addr, tag);
    slot = lookup(L, I, la, &base);
    if (slot != NONE) {
        uint32_t missing = smask & ~(uint32_t)I->meta[slot].svalid;

        if (missing) {
            /* the line is here but some sectors are not */
            c->miss++;
            c->wmiss += w;
            c->smiss += popc(missing);
            if (w && !L->walloc) {
                c->wbytes += n;
                req(sim, l + 1, thread, addr, n, true, tag);
                goto done;
            }
            c->fill += fetch(sim, l, thread, la, missing, tag);
            slot = lookup(L, I, la, &base);
            if (slot == NONE)
                goto done; /* cannot happen with nested levels; stay safe */
            I->meta[slot].svalid |= (uint8_t)missing;
        } else if (I->meta[slot].pf) {
            I->meta[slot].pf = 0;
            c->pfhit++;
            if (L->pf == AUGUR_PREFETCH_NEXT_LINE)
                pf_target = la + 1;
        }
        slot = touch(L, I, base, slot);
    } else {
        uint32_t fill = L->nsect > 1 ? smask : L->full;

        c->miss++;
        c->wmiss += w;
        c->smiss += popc(smask);
        if (L->pf == AUGUR_PREFETCH_NEXT_LINE)
            pf_target = la + 1;
        if (w && !L->walloc) {
            c->wbytes += n;
            req(sim, l + 1, thread, addr, n, true, tag);
            goto done;
        }
        c->fill += fetch(sim, l, thread, la, fill, tag);
        if (L->fa)
            base = 0;
        slot = victim(L, I, base);
        if (I->tags[slot] != CS_INVALID)
            evict(sim, l, I, slot, thread);
        slot = install(L, I, base, la);
        I->meta[slot].own = (uint16_t)tag;
        I->meta[slot].svalid = (uint8_t)fill;
        I->meta[slot].sdirty = 0;
        I->meta[slot].pf = 0;
    }
    if (w) {
        if (L->wt) {
            c->wbytes += n;
            req(sim, l + 1, thread, addr, n, true, tag);
        } else {
            if (!(I->tags[slot] & 1))
                I->meta[slot].own = (uint16_t)tag;
            I->tags[slot] |= 1;
            I->meta[slot].sdirty |= (uint8_t)smask;
        }
    }
done:
    if (pf_target != NONE)
        prefetch(sim, l, thread, pf_target, tag);
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

void cs_access(struct augur_cachesim *sim, unsigned thread, uint64_t addr, uint64_t size, bool w,
               uint32_t tag)
{
    assert(thread < sim->nthreads);
    if (tag >= sim->ntags)
        tag = sim->ntags - 1;
    if (size == 0)
        size = 1;
    if (addr + (size - 1) < addr)
        size = UINT64_MAX - addr + 1; /* the access runs to the end of the address space */
    if (sim->l1_fast) {
        /* The hit path of L1: one set scan, a move to the front, two counters. */
        const struct cs_level *L = &sim->lv[0];
        uint64_t la = addr >> L->line_bits;

        if (((addr + size - 1) >> L->line_bits) == la) {
            uint64_t *t = sim->l1_tags[thread] + (la & L->set_mask) * L->ways;
            uint32_t k;

            for (k = 0; k < L->ways; k++)
                if ((t[k] >> 1) == la)
                    break;
            if (k < L->ways && (!w || (t[k] & 1))) {
                struct cs_ctr *c = &sim->ctr[tag];

                if (k) {
                    struct cs_inst *I = &L->inst[thread / L->shared_by];
                    uint64_t base = (uint64_t)(t - I->tags);

                    touch(L, I, base, base + k);
                }
                c->acc++;
                c->wr += w;
                return;
            }
        }
    }
    req(sim, 0, thread, addr, size, w, tag);
}

/* ---- flush ------------------------------------------------------------------ */

void augur_cachesim_flush(struct augur_cachesim *sim)
{
    unsigned l;

    for (l = 0; l < sim->nlevels; l++) {
        const struct cs_level *L = &sim->lv[l];
        uint32_t i;

        for (i = 0; i < L->ninst; i++) {
            struct cs_inst *I = &L->inst[i];
            unsigned thread = i * L->shared_by;
            uint64_t s;

            for (s = 0; s < L->nlines; s++) {
                struct cs_meta *m = &I->meta[s];
                struct cs_ctr *c;
                uint64_t lo;
                unsigned a = 0;

                if (I->tags[s] == CS_INVALID || !(I->tags[s] & 1))
                    continue;
                c = ctr(sim, l, m->own);
                c->wb++;
                c->wbytes += (uint64_t)popc(m->sdirty) << L->sector_bits;
                lo = (I->tags[s] >> 1) << L->line_bits;
                while (a < L->nsect) {
                    unsigned e;

                    if (!(m->sdirty & (1u << a))) {
                        a++;
                        continue;
                    }
                    for (e = a; e < L->nsect && (m->sdirty & (1u << e)); e++)
                        ;
                    writeback(sim, l + 1, thread, lo + ((uint64_t)a << L->sector_bits),
                              (uint64_t)(e - a) << L->sector_bits, m->own);
                    a = e;
                }
                I->tags[s] &= ~(uint64_t)1;
                m->sdirty = 0;
            }
        }
    }
}
