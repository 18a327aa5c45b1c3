/*
 * cs_config.c - the cache simulator's configuration: validation, building it
 * from a machine model, creating and freeing simulators, reading the counts
 * (module: cachesim).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cs_int.h"

#define FA_HASH_MIN        64 /* fully associative levels with more lines use a hash */
#define DEFAULT_HOST_BYTES (UINT64_C(4) << 30)
#define BIG_STATE          (UINT64_C(512) << 10) /* more than a host L2 holds */

static int cfg_error(struct augur_diag *diag, int code, const char *fmt, ...) AUGUR_PRINTF(3, 4);

static int cfg_error(struct augur_diag *diag, int code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    augur_diag_setv(diag, code, NULL, 0, 0, fmt, ap);
    va_end(ap);
    return code;
}

static bool is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

static unsigned log2u(uint64_t v)
{
    unsigned b = 0;

    while ((UINT64_C(1) << b) < v)
        b++;
    return b;
}

static void level_name(const struct augur_cache_config *cfg, unsigned i, char out[16])
{
    if (cfg->level[i].name[0])
        snprintf(out, 16, "%.15s", cfg->level[i].name);
    else
        snprintf(out, 16, "L%u", i + 1);
}

/*
 * 64-bit words of one set's block: fingerprints, the recency order (one
 * word of nibbles up to 16 ways, else 32-bit stamps two to a word), tag words.
 */
static uint64_t set_words(uint64_t ways)
{
    return (ways + 7) / 8 + (ways <= 16 ? 1 : (ways + 1) / 2) + ways;
}

/* Host bytes one instance of a level needs. */
static uint64_t inst_bytes(uint64_t nlines, uint64_t ways, bool fa, bool meta, uint32_t nstride)
{
    uint64_t b = fa ? nlines * sizeof(uint64_t) : nlines / ways * set_words(ways) * 8;

    b += 64;
    if (meta)
        b += nlines * sizeof(struct cs_meta);
    if (fa)
        b += nlines * 3 * sizeof(uint32_t) + 4 * nlines * sizeof(uint32_t);
    b += (uint64_t)nstride * sizeof(struct cs_stride);
    return b;
}

static int validate(const struct augur_cache_config *cfg, unsigned nthreads, unsigned ntags,
                    struct augur_diag *diag)
{
    uint64_t host = 0, limit = cfg->max_host_bytes ? cfg->max_host_bytes : DEFAULT_HOST_BYTES;
    unsigned i;

    if (cfg->nlevels < 1 || cfg->nlevels > AUGUR_CACHESIM_MAX_LEVELS)
        return cfg_error(diag, AUGUR_EINVAL, "cache configuration: %u levels (1 to %d allowed)",
                         cfg->nlevels, AUGUR_CACHESIM_MAX_LEVELS);
    if (nthreads < 1 || nthreads > AUGUR_CACHESIM_MAX_THREADS)
        return cfg_error(diag, AUGUR_EINVAL, "cache simulator: %u threads (1 to %d allowed)",
                         nthreads, AUGUR_CACHESIM_MAX_THREADS);
    if (ntags > AUGUR_CACHESIM_MAX_TAGS)
        return cfg_error(diag, AUGUR_EINVAL, "cache simulator: %u tags (at most %d)", ntags,
                         AUGUR_CACHESIM_MAX_TAGS);
    for (i = 0; i < cfg->nlevels; i++) {
        const struct augur_cache_level_config *lc = &cfg->level[i];
        uint32_t sb = lc->shared_by ? lc->shared_by : 1;
        uint64_t nlines;
        char nm[16];

        level_name(cfg, i, nm);
        if (lc->size == 0)
            return cfg_error(diag, AUGUR_EINVAL, "cache level %s: size is 0", nm);
        if (lc->size > AUGUR_CACHESIM_MAX_BYTES)
            return cfg_error(diag, AUGUR_EINVAL,
                             "cache level %s: size %llu bytes is absurd (more than 1 TiB)", nm,
                             (unsigned long long)lc->size);
        if (!is_pow2(lc->line) || lc->line < 4 || lc->line > AUGUR_CACHESIM_MAX_LINE)
            return cfg_error(diag, AUGUR_EINVAL,
                             "cache level %s: line size %u is not a power of two in [4, %u]", nm,
                             lc->line, AUGUR_CACHESIM_MAX_LINE);
        if (lc->size % lc->line)
            return cfg_error(diag, AUGUR_EINVAL,
                             "cache level %s: size %llu is not a whole number of %u-byte lines", nm,
                             (unsigned long long)lc->size, lc->line);
        nlines = lc->size / lc->line;
        if (lc->ways && nlines % lc->ways)
            return cfg_error(diag, AUGUR_EINVAL,
                             "cache level %s: %u ways do not divide its %llu lines into whole sets",
                             nm, lc->ways, (unsigned long long)nlines);
        if (lc->ways > CS_MAX_WAYS && lc->ways != nlines)
            return cfg_error(diag, AUGUR_EINVAL,
                             "cache level %s: %u ways (at most %d, or 0 for fully associative)", nm,
                             lc->ways, CS_MAX_WAYS);
        if (lc->sector && (!is_pow2(lc->sector) || lc->sector > lc->line ||
                           lc->line / lc->sector > AUGUR_CACHESIM_MAX_SECTORS))
            return cfg_error(diag, AUGUR_EINVAL,
                             "cache level %s: sector %u must be a power of two dividing the "
                             "%u-byte line into at most %d sectors",
                             nm, lc->sector, lc->line, AUGUR_CACHESIM_MAX_SECTORS);
        if (i > 0) {
            uint32_t up = cfg->level[i - 1].shared_by ? cfg->level[i - 1].shared_by : 1;

            if (sb % up)
                return cfg_error(diag, AUGUR_EINVAL,
                                 "cache level %s: shared by %u threads, not a multiple of the "
                                 "level above (%u)",
                                 nm, sb, up);
        }
        if ((unsigned)lc->write_policy > AUGUR_CACHE_WRITE_THROUGH ||
            (unsigned)lc->prefetch > AUGUR_CACHE_PREFETCH_STRIDE ||
            (unsigned)lc->replacement > AUGUR_CACHE_ADAPTIVE)
            return cfg_error(diag, AUGUR_EINVAL, "cache level %s: unknown policy value", nm);
        if (lc->prefetch == AUGUR_CACHE_PREFETCH_STRIDE &&
            (lc->stride_entries < 1 || lc->stride_entries > 65536 ||
             (lc->stride_entries & (lc->stride_entries - 1))))
            return cfg_error(diag, AUGUR_EINVAL,
                             "cache level %s: a stride prefetcher's entries are not a power of "
                             "two in [1, 65536]",
                             nm);
        {
            bool fa = (lc->ways == 0 || lc->ways == nlines) && nlines > FA_HASH_MIN;
            uint64_t ways = lc->ways && !fa ? lc->ways : fa ? 1 : nlines;
            bool meta =
                (lc->sector && lc->sector < lc->line) || lc->prefetch != AUGUR_CACHE_PREFETCH_NONE;

            host +=
                inst_bytes(nlines, ways, fa, meta,
                           lc->prefetch == AUGUR_CACHE_PREFETCH_STRIDE ? lc->stride_entries : 0) *
                (((uint64_t)nthreads + sb - 1) / sb);
        }
        if (host > limit)
            return cfg_error(diag, AUGUR_ELIMIT,
                             "cache level %s: simulating it for %u threads needs more than %llu "
                             "MiB of host memory",
                             nm, nthreads, (unsigned long long)(limit >> 20));
    }
    if (cfg->dram.row_bytes) {
        if (!is_pow2(cfg->dram.row_bytes) || cfg->dram.row_bytes < 16 ||
            cfg->dram.row_bytes > (1u << 20))
            return cfg_error(diag, AUGUR_EINVAL,
                             "DRAM row buffer of %u bytes: must be a power of two in [16, 1 MiB]",
                             cfg->dram.row_bytes);
        if (cfg->dram.banks < 1 || cfg->dram.banks > 4096 ||
            (cfg->dram.policy == AUGUR_DRAM_LRU && cfg->dram.banks > 256))
            return cfg_error(diag, AUGUR_EINVAL,
                             "DRAM row buffers: %u banks (1 to 4096; 256 with the LRU policy)",
                             cfg->dram.banks);
        if ((unsigned)cfg->dram.policy > AUGUR_DRAM_LRU)
            return cfg_error(diag, AUGUR_EINVAL, "DRAM row buffers: unknown policy");
    }
    return 0;
}

static void inst_release(struct cs_inst *I)
{
    augur_free(I->blk_raw);
    augur_free(I->meta);
    augur_free(I->prev);
    augur_free(I->next);
    augur_free(I->hash);
    augur_free(I->freel);
    augur_free(I->stride);
}

void augur_cachesim_free(struct augur_cachesim *sim)
{
    unsigned l;
    uint32_t i;

    if (!sim)
        return;
    for (l = 0; l < sim->nlevels; l++) {
        if (!sim->lv[l].inst)
            continue;
        for (i = 0; i < sim->lv[l].ninst; i++)
            inst_release(&sim->lv[l].inst[i]);
        augur_free(sim->lv[l].inst);
    }
    augur_free(sim->ctr);
    augur_free(sim->iof);
    augur_free(sim->fblk);
    augur_free(sim->srv);
    augur_free(sim->memo);
    augur_free(sim->open);
    augur_free(sim);
}

int augur_cachesim_new(const struct augur_cache_config *cfg, unsigned nthreads, unsigned ntags,
                       struct augur_cachesim **out, struct augur_diag *diag)
{
    struct augur_cachesim *sim;
    unsigned l, t;
    int rc;

    if (ntags == 0)
        ntags = 1;
    rc = validate(cfg, nthreads, ntags, diag);
    if (rc)
        return rc;
    sim = augur_calloc(1, sizeof(*sim));
    sim->nlevels = cfg->nlevels;
    sim->nthreads = nthreads;
    sim->ntags = ntags;
    for (l = 0; l < cfg->nlevels; l++) {
        const struct augur_cache_level_config *lc = &cfg->level[l];
        struct cs_level *L = &sim->lv[l];
        uint32_t i;

        level_name(cfg, l, L->name);
        L->line = lc->line;
        L->line_bits = log2u(lc->line);
        L->sector = lc->sector && lc->sector < lc->line ? lc->sector : lc->line;
        L->sector_bits = log2u(L->sector);
        L->nsect = L->line / L->sector;
        L->full = (1u << L->nsect) - 1;
        L->nlines = lc->size / lc->line;
        if (lc->ways == 0 || lc->ways == L->nlines) {
            L->nsets = 1;
            L->fa = L->nlines > FA_HASH_MIN;
            L->ways = L->fa ? 0 : (uint32_t)L->nlines;
        } else {
            L->ways = lc->ways;
            L->nsets = L->nlines / lc->ways;
        }
        L->pow2 = is_pow2(L->nsets);
        L->set_mask = L->pow2 ? L->nsets - 1 : 0;
        L->fpw = L->fa ? 0 : (L->ways + 7) / 8;
        L->perm = !L->fa && L->ways <= 16;
        L->tagoff = L->fpw + (L->perm ? 1 : 0);
        L->stride = L->fa ? 1 : (uint32_t)set_words(L->ways);
        L->shared_by = lc->shared_by ? lc->shared_by : 1;
        L->ninst = (nthreads + L->shared_by - 1) / L->shared_by;
        L->wt = lc->write_policy == AUGUR_CACHE_WRITE_THROUGH;
        L->walloc = lc->write_allocate_set ? lc->write_allocate : !L->wt;
        L->incl = lc->inclusive;
        L->dip = lc->replacement == AUGUR_CACHE_ADAPTIVE && !L->fa && L->nsets >= 128;
        L->pf = lc->prefetch;
        L->nstride = L->pf == AUGUR_CACHE_PREFETCH_STRIDE ? lc->stride_entries : 0;
        L->meta = L->nsect > 1 || L->pf != AUGUR_CACHE_PREFETCH_NONE;
        L->big = inst_bytes(L->nlines, L->fa ? 1 : L->ways, L->fa, L->meta, 0) > BIG_STATE;
        L->inst = augur_calloc(L->ninst, sizeof(*L->inst));
        for (i = 0; i < L->ninst; i++) {
            struct cs_inst *I = &L->inst[i];
            uint64_t words = L->fa ? L->nlines : L->nsets * L->stride;
            uintptr_t p;

            I->blk_raw = augur_mallocarray(words + 8, sizeof(uint64_t));
            p = ((uintptr_t)I->blk_raw + 63) & ~(uintptr_t)63;
            I->blk = (uint64_t *)p;
            if (L->meta)
                I->meta = augur_mallocarray(L->nlines, sizeof(struct cs_meta));
            if (L->fa) {
                uint64_t h = 1;

                while (h < 2 * L->nlines)
                    h <<= 1;
                I->prev = augur_mallocarray(L->nlines, sizeof(uint32_t));
                I->next = augur_mallocarray(L->nlines, sizeof(uint32_t));
                I->freel = augur_mallocarray(L->nlines, sizeof(uint32_t));
                I->hash = augur_mallocarray(h, sizeof(uint32_t));
                I->hmask = (uint32_t)(h - 1);
            }
            if (L->pf == AUGUR_CACHE_PREFETCH_STRIDE)
                I->stride = augur_calloc(L->nstride, sizeof(struct cs_stride));
            cs_inst_clear(L, I);
        }
    }
    sim->ctr = augur_calloc((size_t)(sim->nlevels + 1) * ntags, sizeof(struct cs_ctr));
    sim->srv = augur_calloc((size_t)ntags * CS_NSRV, sizeof(uint64_t));
    sim->iof = augur_calloc((size_t)nthreads * AUGUR_CACHESIM_MAX_LEVELS, sizeof(struct cs_inst *));
    sim->fblk = augur_calloc((size_t)nthreads * AUGUR_CACHESIM_MAX_LEVELS, sizeof(uint64_t *));
    sim->simple = true;
    sim->simple_perm = true;
    for (l = 0; l < sim->nlevels; l++) {
        const struct cs_level *L = &sim->lv[l];

        struct cs_flevel *F = &sim->fl[l];

        for (t = 0; t < nthreads; t++) {
            sim->iof[(size_t)t * AUGUR_CACHESIM_MAX_LEVELS + l] = &L->inst[t / L->shared_by];
            sim->fblk[(size_t)t * AUGUR_CACHESIM_MAX_LEVELS + l] = L->inst[t / L->shared_by].blk;
        }
        F->set_mask = L->set_mask;
        F->pow2 = L->pow2;
        F->nsets = L->nsets;
        /*
         * Lemire, Kaser and Kurz (2019), Theorem 1: with a 64-bit magic the
         * remainder is exact for la below 2^(64 - ceil(log2 nsets)).
         */
        F->magic = !L->pow2 && L->nsets < (UINT64_C(1) << 32) ? UINT64_MAX / L->nsets + 1 : 0;
        F->fastbits = 64 - log2u(L->nsets);
        F->stride = L->stride;
        F->fpw = L->fpw;
        F->ways = L->ways;
        F->lastsh = L->ways ? 4 * (L->ways - 1) : 0;
        F->wmask = L->perm ? (uint32_t)((UINT64_C(1) << L->ways) - 1) : 0;
        F->below = L->perm ? (UINT64_C(1) << F->lastsh) - 1 : 0;
        F->keep = ~((F->below << 4) | 0xF);
        F->line = L->line;
        F->line_bits = L->line_bits;
        F->incl = L->incl;
        F->dip = L->dip;
        if (!L->perm)
            sim->simple_perm = false;
        if (L->big)
            sim->big = true;
        if (L->nsect > 1 || L->pf != AUGUR_CACHE_PREFETCH_NONE || L->wt || !L->walloc ||
            (l > 0 && L->line < sim->lv[l - 1].line))
            sim->simple = false;
    }
    sim->l1_inline = sim->simple && sim->lv[0].perm && sim->lv[0].pow2;
    /* threads that share every level, L1 included, have nothing to keep coherent */
    sim->coh = cfg->coherent && sim->lv[0].ninst > 1;
    sim->l1_bits = sim->lv[0].line_bits;
    sim->l1_ways = sim->lv[0].ways;
    sim->l1_stride = sim->lv[0].stride;
    sim->l1_fpw = sim->lv[0].fpw;
    /* every simulator has memos: only a simple hierarchy's L1 fills them */
    sim->memo_sentinel = CS_INVALID;
    sim->memo = augur_mallocarray((size_t)nthreads * CS_NMEMO, sizeof(struct cs_memo));
    cs_memo_clear(sim);
    sim->l1_mask = sim->lv[0].set_mask;
    sim->l1_not = ~(uint64_t)(sim->lv[0].line - 1);
    if (cfg->dram.row_bytes) {
        sim->row_bits = log2u(cfg->dram.row_bytes);
        sim->banks = cfg->dram.banks;
        sim->dram_policy = cfg->dram.policy;
        sim->open = augur_calloc(sim->banks, sizeof(uint64_t));
        sim->bank_mask = is_pow2(sim->banks) ? sim->banks - 1 : 0;
    }
    *out = sim;
    return 0;
}

unsigned augur_cachesim_nlevels(const struct augur_cachesim *sim)
{
    return sim->nlevels;
}

unsigned augur_cachesim_ntags(const struct augur_cachesim *sim)
{
    return sim->ntags;
}

const char *augur_cachesim_level_name(const struct augur_cachesim *sim, unsigned level)
{
    if (level < sim->nlevels)
        return sim->lv[level].name;
    return level == sim->nlevels ? "memory" : NULL;
}

static void add(struct cs_ctr *s, const struct cs_ctr *c)
{
    s->acc += c->acc;
    s->wr += c->wr;
    s->miss += c->miss;
    s->wmiss += c->wmiss;
    s->sacc += c->sacc;
    s->smiss += c->smiss;
    s->wsacc += c->wsacc;
    s->wsmiss += c->wsmiss;
    s->evict += c->evict;
    s->wb += c->wb;
    s->inval += c->inval;
    s->pf += c->pf;
    s->pfhit += c->pfhit;
    s->fill += c->fill;
    s->wbytes += c->wbytes;
    s->rowhit += c->rowhit;
    s->rowmiss += c->rowmiss;
    s->xfer += c->xfer;
}

/*
 * Adds the counts that follow from the walk's served counts of tag (cs_int.h
 * CS_SRV): an access served at level s was a request to every level down to
 * s, a miss above s and a hit at s; only L1 sees it as a write (the levels
 * below fetch for the write-allocate, a read); each miss fills one line.
 */
static void add_walk(const struct augur_cachesim *sim, unsigned level, unsigned tag,
                     struct cs_ctr *s)
{
    const uint64_t *w = &sim->srv[(size_t)tag << CS_SRV_SH];
    uint64_t acc = 0, wr = 0, below = 0, wbelow = 0;
    unsigned l;

    for (l = level; l <= sim->nlevels; l++) {
        acc += w[CS_SRV(l, 0)] + w[CS_SRV(l, 1)];
        wr += w[CS_SRV(l, 1)];
        if (l > level) {
            below += w[CS_SRV(l, 0)] + w[CS_SRV(l, 1)];
            wbelow += w[CS_SRV(l, 1)];
        }
    }
    s->acc += acc;
    if (level < sim->nlevels)
        s->evict += w[CS_SRV_EVICT(level)];
    if (level == sim->nlevels) {
        s->fill += acc * sim->lv[level - 1].line;
        s->rowhit += w[CS_SRV_ROWHIT];
        s->rowmiss += w[CS_SRV_ROWMISS];
        return;
    }
    s->miss += below;
    s->fill += below * sim->lv[level].line;
    if (level == 0) {
        s->wr += wr;
        s->wmiss += wbelow;
    }
}

int augur_cachesim_counts(const struct augur_cachesim *sim, unsigned level, int tag,
                          struct augur_cache_counts *out)
{
    struct cs_ctr s;
    const struct cs_ctr *row;
    unsigned t;

    if (level > sim->nlevels || (tag >= 0 && (unsigned)tag >= sim->ntags))
        return AUGUR_EINVAL;
    memset(&s, 0, sizeof(s));
    row = &sim->ctr[(size_t)level * sim->ntags];
    if (tag >= 0) {
        add(&s, &row[tag]);
        add_walk(sim, level, (unsigned)tag, &s);
    } else {
        for (t = 0; t < sim->ntags; t++) {
            add(&s, &row[t]);
            add_walk(sim, level, t, &s);
        }
    }
    memset(out, 0, sizeof(*out));
    out->accesses = s.acc;
    out->writes = s.wr;
    out->reads = s.acc - s.wr;
    out->fill_bytes = s.fill;
    out->writeback_bytes = s.wbytes;
    out->transfers = s.xfer;
    if (level == sim->nlevels) {
        out->row_hits = s.rowhit;
        out->row_misses = s.rowmiss;
        return 0;
    }
    out->misses = s.miss;
    out->hits = s.acc - s.miss;
    out->write_misses = s.wmiss;
    out->read_misses = s.miss - s.wmiss;
    out->sector_accesses = sim->lv[level].nsect > 1 ? s.sacc : s.acc;
    out->sector_misses = sim->lv[level].nsect > 1 ? s.smiss : s.miss;
    out->sector_writes = sim->lv[level].nsect > 1 ? s.wsacc : s.wr;
    out->sector_write_misses = sim->lv[level].nsect > 1 ? s.wsmiss : s.wmiss;
    out->evictions = s.evict;
    out->writebacks = s.wb;
    out->invalidations = s.inval;
    out->prefetches = s.pf;
    out->prefetch_hits = s.pfhit;
    return 0;
}

void augur_cachesim_reset_counts(struct augur_cachesim *sim)
{
    memset(sim->ctr, 0, (size_t)(sim->nlevels + 1) * sim->ntags * sizeof(struct cs_ctr));
    memset(sim->srv, 0, (size_t)sim->ntags * CS_NSRV * sizeof(uint64_t));
}

void augur_cachesim_invalidate(struct augur_cachesim *sim)
{
    unsigned l;
    uint32_t i;

    for (l = 0; l < sim->nlevels; l++)
        for (i = 0; i < sim->lv[l].ninst; i++)
            cs_inst_clear(&sim->lv[l], &sim->lv[l].inst[i]);
    if (sim->open)
        memset(sim->open, 0, sim->banks * sizeof(uint64_t));
}

void augur_cachesim_invalidate_level(struct augur_cachesim *sim, unsigned level)
{
    if (level >= sim->nlevels)
        return;
    for (uint32_t i = 0; i < sim->lv[level].ninst; i++)
        cs_inst_clear(&sim->lv[level], &sim->lv[level].inst[i]);
}

/*
 * Multiplies a level's capacity by r: sets go, ways and the line stay; when
 * fewer than one set would be left, one set of fewer ways; at least a line.
 */
void augur_cache_level_scale(struct augur_cache_level_config *lv, double r)
{
    uint64_t lines = lv->size / lv->line;
    double want = round((double)lines * r);
    uint64_t keep = want < 1.0 ? 1 : (uint64_t)want;

    if (keep >= lines)
        return;
    if (lv->ways == 0 || lines / lv->ways <= 1) {
        lv->size = keep * lv->line;
        if (lv->ways)
            lv->ways = (uint32_t)keep;
        return;
    }
    if (keep >= lv->ways) {
        lv->size = keep / lv->ways * lv->ways * lv->line;
        return;
    }
    lv->ways = (uint32_t)keep;
    lv->size = keep * lv->line;
}

void augur_cache_config_scale(struct augur_cache_config *cfg, double r)
{
    for (unsigned l = 0; l < cfg->nlevels; l++)
        augur_cache_level_scale(&cfg->level[l], r);
}
