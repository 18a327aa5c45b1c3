/*
 * rt_streams.c - memory access streams of three reference kernels (CSR SpMV,
 * the finite-volume ELL kernel, the Euler irregular reduction) computed in
 * C over a CSR matrix, and their simulation on the cache simulator, in full
 * or on a sample with caches scaled by the footprint ratio (module:
 * runtime). The skeleton interpreter will replace the generators.
 */
#include <math.h>
#include <string.h>

#include "augur/cachesim.h"
#include "augur/data.h"

static const char *const kernel_names[] = {
#define X(e, name, text) name,
    AUGUR_STREAM_KERNELS(X)
#undef X
};

const char *augur_stream_kernel_name(enum augur_stream_kernel k)
{
    return (unsigned)k < AUGUR_STREAM_COUNT ? kernel_names[k] : "?";
}

int augur_stream_kernel_parse(const char *name, enum augur_stream_kernel *out)
{
    for (unsigned i = 0; i < AUGUR_STREAM_COUNT; i++)
        if (strcmp(name, kernel_names[i]) == 0) {
            *out = (enum augur_stream_kernel)i;
            return 0;
        }
    return AUGUR_EINVAL;
}

/* Arrays of a kernel, in allocation order, with their element sizes. */
#define MAX_ARRAYS 5

struct layout {
    unsigned narrays;
    uint64_t base[MAX_ARRAYS];
    uint64_t bytes[MAX_ARRAYS];
};

/*
 * Places arrays as a large malloc() does (glibc maps them: a page boundary
 * plus a 16-byte chunk header), one unmapped page apart.
 */
static void layout_place(struct layout *l)
{
    uint64_t cur = UINT64_C(1) << 32;

    for (unsigned a = 0; a < l->narrays; a++) {
        cur = (cur + 4095) & ~UINT64_C(4095);
        l->base[a] = cur + 16;
        cur = l->base[a] + l->bytes[a] + 4096;
    }
}

static uint32_t max_degree(const struct augur_csr *csr)
{
    uint64_t w = 0;

    for (uint32_t i = 0; i < csr->nrows; i++)
        if (csr->rowptr[i + 1] - csr->rowptr[i] > w)
            w = csr->rowptr[i + 1] - csr->rowptr[i];
    return (uint32_t)w;
}

/* The ELL width of fv: the given one, or the largest row degree. */
static uint32_t ell_width_of(const struct augur_csr *csr, uint32_t width)
{
    return width ? width : max_degree(csr);
}

/* The arrays of kernel k over csr; false for an unknown kernel. */
static bool layout_of(const struct augur_csr *csr, enum augur_stream_kernel k, uint32_t width,
                      uint32_t ell_rows, struct layout *l)
{
    uint64_t n = csr->nrows, m = csr->nnz;

    memset(l, 0, sizeof(*l));
    switch (k) {
    case AUGUR_STREAM_SPMV: /* rowptr, col, val, x, y */
        l->narrays = 5;
        l->bytes[0] = 8 * (n + 1);
        l->bytes[1] = 4 * m;
        l->bytes[2] = 8 * m;
        l->bytes[3] = 8 * (uint64_t)csr->ncols;
        l->bytes[4] = 8 * n;
        break;
    case AUGUR_STREAM_FV: { /* idx, a, x, y */
        uint64_t slots = (ell_rows > n ? ell_rows : n) * (uint64_t)ell_width_of(csr, width);

        l->narrays = 4;
        l->bytes[0] = 4 * slots;
        l->bytes[1] = 8 * slots;
        l->bytes[2] = 8 * n;
        l->bytes[3] = 8 * n;
        break;
    }
    case AUGUR_STREAM_IREDUCE: /* eu, ev, w, x, y */
        l->narrays = 5;
        l->bytes[0] = 4 * m;
        l->bytes[1] = 4 * m;
        l->bytes[2] = 8 * m;
        l->bytes[3] = 8 * n;
        l->bytes[4] = 8 * n;
        break;
    default:
        return false;
    }
    layout_place(l);
    return true;
}

uint64_t augur_stream_footprint(const struct augur_csr *csr, enum augur_stream_kernel k,
                                uint32_t ell_width)
{
    struct layout l;
    uint64_t sum = 0;

    if (!layout_of(csr, k, ell_width, 0, &l))
        return 0;
    for (unsigned a = 0; a < l.narrays; a++)
        sum += l.bytes[a];
    return sum;
}

/* A batch of accesses handed to the consumer when full. */
#define BATCH 2048

struct emitter {
    struct augur_stream_access buf[BATCH];
    size_t n;
    augur_stream_fn *fn;
    void *ud;
};

static inline void emit(struct emitter *e, uint64_t addr, uint32_t size, bool is_write,
                        uint8_t array)
{
    struct augur_stream_access *a = &e->buf[e->n++];

    a->addr = addr;
    a->size = size;
    a->is_write = is_write;
    a->array = array;
    if (e->n == BATCH) {
        e->fn(e->ud, e->buf, e->n);
        e->n = 0;
    }
}

static void stream_spmv(const struct augur_csr *c, const struct layout *l, struct emitter *e)
{
    const uint64_t *b = l->base;

    for (uint32_t i = 0; i < c->nrows; i++) {
        emit(e, b[0] + 8 * (uint64_t)i, 8, false, 0);
        emit(e, b[0] + 8 * ((uint64_t)i + 1), 8, false, 0);
        for (uint64_t j = c->rowptr[i]; j < c->rowptr[i + 1]; j++) {
            emit(e, b[2] + 8 * j, 8, false, 2);
            emit(e, b[1] + 4 * j, 4, false, 1);
            emit(e, b[3] + 8 * (uint64_t)c->col[j], 8, false, 3);
        }
        emit(e, b[4] + 8 * (uint64_t)i, 8, true, 4);
    }
}

static void stream_fv(const struct augur_csr *c, uint32_t w, uint64_t n, const struct layout *l,
                      struct emitter *e)
{
    const uint64_t *b = l->base;

    for (uint32_t i = 0; i < c->nrows; i++) {
        uint64_t lo = c->rowptr[i], deg = c->rowptr[i + 1] - lo;

        emit(e, b[2] + 8 * (uint64_t)i, 8, false, 2);
        for (uint32_t k = 0; k < w; k++) {
            uint64_t slot = (uint64_t)k * n + i;
            uint32_t j = k < deg ? c->col[lo + k] : i; /* padding points at its own row */

            emit(e, b[1] + 8 * slot, 8, false, 1);
            emit(e, b[0] + 4 * slot, 4, false, 0);
            emit(e, b[2] + 8 * (uint64_t)j, 8, false, 2);
        }
        emit(e, b[3] + 8 * (uint64_t)i, 8, true, 3);
    }
}

static void stream_ireduce(const struct augur_csr *c, const struct layout *l, struct emitter *e)
{
    const uint64_t *b = l->base;

    for (uint32_t u = 0; u < c->nrows; u++)
        for (uint64_t k = c->rowptr[u]; k < c->rowptr[u + 1]; k++) {
            uint64_t v = c->col[k];

            emit(e, b[0] + 4 * k, 4, false, 0);
            emit(e, b[1] + 4 * k, 4, false, 1);
            emit(e, b[2] + 8 * k, 8, false, 2);
            emit(e, b[3] + 8 * (uint64_t)u, 8, false, 3);
            emit(e, b[3] + 8 * v, 8, false, 3);
            emit(e, b[4] + 8 * (uint64_t)u, 8, false, 4);
            emit(e, b[4] + 8 * (uint64_t)u, 8, true, 4);
            emit(e, b[4] + 8 * v, 8, false, 4);
            emit(e, b[4] + 8 * v, 8, true, 4);
        }
}

static int check_csr(const struct augur_csr *c, struct augur_diag *diag)
{
    if (c->nrows != c->ncols)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "the kernels index x and y by rows and columns alike: the matrix "
                              "must be square, not %u x %u",
                              c->nrows, c->ncols);
    if (c->nrows && (!c->rowptr || c->rowptr[0] != 0 || c->rowptr[c->nrows] != c->nnz))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "csr row pointers do not run from 0 to nnz %llu",
                              (unsigned long long)c->nnz);
    for (uint32_t i = 0; i < c->nrows; i++)
        if (c->rowptr[i] > c->rowptr[i + 1])
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "csr row %u: row pointers out of order", i);
    return 0;
}

/*
 * augur_stream_generate() with fv's slot stride: slot k of row i at
 * k * ell_rows + i when ell_rows exceeds the rows (a sample laid out as the
 * full matrix's ELL arrays), else k * nrows + i.
 */
static int stream_generate(const struct augur_csr *csr, enum augur_stream_kernel k,
                           uint32_t ell_width, uint32_t ell_rows, augur_stream_fn *fn, void *ud,
                           struct augur_diag *diag)
{
    struct emitter *e;
    struct layout l;
    int rc;

    rc = check_csr(csr, diag);
    if (rc)
        return rc;
    if (!layout_of(csr, k, ell_width, ell_rows, &l))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "unknown kernel %d", (int)k);
    if (k == AUGUR_STREAM_FV && ell_width && ell_width < max_degree(csr))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "ELL width %u is below the largest row degree %u", ell_width,
                              max_degree(csr));
    e = augur_malloc(sizeof(*e));
    e->n = 0;
    e->fn = fn;
    e->ud = ud;
    switch (k) {
    case AUGUR_STREAM_SPMV:
        stream_spmv(csr, &l, e);
        break;
    case AUGUR_STREAM_FV:
        stream_fv(csr, ell_width_of(csr, ell_width), ell_rows > csr->nrows ? ell_rows : csr->nrows,
                  &l, e);
        break;
    default:
        stream_ireduce(csr, &l, e);
        break;
    }
    if (e->n)
        fn(ud, e->buf, e->n);
    augur_free(e);
    return 0;
}

int augur_stream_generate(const struct augur_csr *csr, enum augur_stream_kernel k,
                          uint32_t ell_width, augur_stream_fn *fn, void *ud,
                          struct augur_diag *diag)
{
    return stream_generate(csr, k, ell_width, 0, fn, ud, diag);
}

/* Feeds stream batches to the simulator. */
struct sim_sink {
    struct augur_cachesim *sim;
    struct augur_cache_access acc[BATCH];
};

static void sink(void *ud, const struct augur_stream_access *a, size_t n)
{
    struct sim_sink *s = ud;

    for (size_t i = 0; i < n; i++) {
        s->acc[i].addr = a[i].addr;
        s->acc[i].size = a[i].size;
        s->acc[i].thread = 0;
        s->acc[i].is_write = a[i].is_write;
        s->acc[i].pad = 0;
        s->acc[i].tag = a[i].array;
    }
    augur_cachesim_access_batch(s->sim, s->acc, n);
}

/*
 * The gathered vectors' accesses and the distinct 64-byte lines they touch
 * (x at a malloc-like 16-byte offset): spmv gathers x by column, ireduce x
 * and y by both ends of an edge (the same lines for both). false for fv,
 * whose x is also read row by row, and for a matrix without entries.
 */
static bool gather_lines(const struct augur_csr *c, enum augur_stream_kernel k, uint64_t *acc,
                         uint64_t *lines)
{
    uint64_t n = c->nrows > c->ncols ? c->nrows : c->ncols;
    uint64_t nl = (16 + 8 * n) / 64 + 1;
    uint8_t *seen;

    *acc = 0;
    *lines = 0;
    if ((k != AUGUR_STREAM_SPMV && k != AUGUR_STREAM_IREDUCE) || c->nnz == 0)
        return false;
    seen = augur_calloc(nl, 1);
    for (uint32_t u = 0; u < c->nrows; u++) {
        uint64_t lu = (16 + 8 * (uint64_t)u) / 64;

        if (k == AUGUR_STREAM_IREDUCE && c->rowptr[u + 1] > c->rowptr[u] && !seen[lu]) {
            seen[lu] = 1;
            (*lines)++;
        }
        for (uint64_t e = c->rowptr[u]; e < c->rowptr[u + 1]; e++) {
            uint64_t lv = (16 + 8 * (uint64_t)c->col[e]) / 64;

            if (!seen[lv]) {
                seen[lv] = 1;
                (*lines)++;
            }
            (*acc)++;
        }
    }
    augur_free(seen);
    return *lines > 0;
}

/*
 * The cold-miss correction of a sampled cold pass (docs/sampling.md, "Caches
 * for a smaller input"): each line of a gathered vector misses once, at
 * every level, on its first access, so its share of cold misses is lines /
 * accesses, which a sample that cuts rows raises (SA keeps 22 % of x for 5
 * % of the entries). rho = (sample accesses per line) / (full accesses per
 * line); for every gathered array and level the sample's misses M of A
 * accesses (L the cold ones) become A (c + (1 - c) Q): the full run's cold
 * share c = rho L / A and the sample's own miss probability of a re-access
 * Q = (M - L) / (A - L). The misses moved change the next level's accesses.
 */
static void cold_correct(const struct augur_cachesim *sim, enum augur_stream_kernel k,
                         uint64_t cold, double rho, struct augur_stream_result *res)
{
    double miss[4], acc[4];
    int tags[2] = { 3, 4 };
    int ntags = k == AUGUR_STREAM_IREDUCE ? 2 : 1;

    for (unsigned l = 0; l < res->nlevels; l++) {
        miss[l] = (double)res->misses[l];
        acc[l] = (double)res->accesses[l];
    }
    for (int t = 0; t < ntags; t++) {
        struct augur_cache_counts first;
        double a, lc, c;

        if (augur_cachesim_counts(sim, 0, tags[t], &first))
            continue;
        a = (double)first.accesses;
        lc = (double)cold;
        if (!(a > lc) || lc <= 0.0)
            continue;
        c = rho * lc / a;
        c = c > 1.0 ? 1.0 : c;
        for (unsigned l = 0; l < res->nlevels; l++) {
            struct augur_cache_counts cnt;
            double m, fixed;

            if (augur_cachesim_counts(sim, l, tags[t], &cnt))
                break;
            m = (double)cnt.misses;
            if (m >= lc)
                fixed = a * (c + (1.0 - c) * (m - lc) / (a - lc));
            else
                fixed = m * rho;
            fixed = fixed > a ? a : fixed;
            miss[l] += fixed - m;
            if (l + 1 < res->nlevels)
                acc[l + 1] += fixed - m;
        }
    }
    for (unsigned l = 0; l < res->nlevels; l++) {
        res->misses[l] = miss[l] > 0.0 ? (uint64_t)llround(miss[l]) : 0;
        res->accesses[l] = acc[l] > 0.0 ? (uint64_t)llround(acc[l]) : 0;
        if (res->misses[l] > res->accesses[l])
            res->misses[l] = res->accesses[l];
        res->miss_rate[l] =
            res->accesses[l] ? (double)res->misses[l] / (double)res->accesses[l] : 0.0;
    }
}

/*
 * augur_stream_simulate() with fv's slot stride (stream_generate()); with
 * full (a sampled cold run under reuse scaling), the cold misses of the
 * gathered vectors are corrected to full's accesses per line (cold_correct()).
 */
static int stream_simulate(const struct augur_csr *csr, enum augur_stream_kernel k,
                           uint32_t ell_width, uint32_t ell_rows,
                           const struct augur_cache_config *cfg, const double *scale, bool warm,
                           const struct augur_csr *full, struct augur_stream_result *out,
                           struct augur_diag *diag)
{
    struct augur_cache_config c = *cfg;
    struct augur_stream_result res;
    struct sim_sink *s = NULL;
    int rc;

    if (c.nlevels < 1 || c.nlevels > 4)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "cache configuration has %u levels",
                              c.nlevels);
    memset(&res, 0, sizeof(res));
    for (unsigned i = 0; i < c.nlevels; i++) {
        double r = scale ? scale[i] : 1.0;

        if (!(r > 0.0 && r <= 1.0))
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "cache scale %g of level %u is not in (0, 1]", r, i + 1);
        if (c.level[i].line == 0 || c.level[i].size < c.level[i].line)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "cache level %u has no line size or a size under one line",
                                  i + 1);
        augur_cache_level_scale(&c.level[i], r);
        res.scale[i] = r;
    }
    s = augur_malloc(sizeof(*s));
    s->sim = NULL;
    rc = augur_cachesim_new(&c, 1, MAX_ARRAYS, &s->sim, diag);
    if (rc)
        goto out;
    rc = stream_generate(csr, k, ell_width, ell_rows, sink, s, diag);
    if (rc)
        goto out;
    if (warm) {
        /* A second pass over warm caches, counted alone: an iteration's steady state. */
        augur_cachesim_reset_counts(s->sim);
        rc = stream_generate(csr, k, ell_width, ell_rows, sink, s, diag);
        if (rc)
            goto out;
    }
    res.nlevels = c.nlevels;
    res.footprint = augur_stream_footprint(csr, k, ell_width);
    for (unsigned i = 0; i < c.nlevels; i++) {
        struct augur_cache_counts cnt;

        augur_cachesim_counts(s->sim, i, -1, &cnt);
        snprintf(res.name[i], sizeof(res.name[i]), "%s", augur_cachesim_level_name(s->sim, i));
        res.accesses[i] = cnt.accesses;
        res.misses[i] = cnt.misses;
        res.miss_rate[i] = cnt.accesses ? (double)cnt.misses / (double)cnt.accesses : 0.0;
        res.size[i] = c.level[i].size;
    }
    if (full && !warm) {
        uint64_t sa, sl, fa, fl;

        if (gather_lines(csr, k, &sa, &sl) && gather_lines(full, k, &fa, &fl))
            cold_correct(s->sim, k, sl, ((double)sa / (double)sl) / ((double)fa / (double)fl),
                         &res);
    }
    *out = res;
out:
    if (s)
        augur_cachesim_free(s->sim);
    augur_free(s);
    return rc;
}

int augur_stream_simulate(const struct augur_csr *csr, enum augur_stream_kernel k,
                          uint32_t ell_width, const struct augur_cache_config *cfg,
                          const double *scale, bool warm, struct augur_stream_result *out,
                          struct augur_diag *diag)
{
    return stream_simulate(csr, k, ell_width, 0, cfg, scale, warm, NULL, out, diag);
}

double augur_error_rate(double actual, double predicted)
{
    if (actual == 0.0)
        return fabs(predicted);
    return fabs(actual - predicted) / fabs(actual);
}

static const char *const scaling_names[] = {
#define X(e, name, text) name,
    AUGUR_SCALINGS(X)
#undef X
};

const char *augur_scaling_name(enum augur_scaling s)
{
    return (unsigned)s < AUGUR_SCALING_COUNT ? scaling_names[s] : "?";
}

int augur_scaling_parse(const char *name, enum augur_scaling *out)
{
    for (unsigned i = 0; i < AUGUR_SCALING_COUNT; i++)
        if (strcmp(name, scaling_names[i]) == 0) {
            *out = (enum augur_scaling)i;
            return 0;
        }
    return AUGUR_EINVAL;
}

uint64_t augur_stream_live_lines(const struct augur_csr *csr, enum augur_stream_kernel k,
                                 uint32_t ell_width)
{
    switch (k) {
    case AUGUR_STREAM_SPMV:
        return 4; /* rowptr, col, val, y */
    case AUGUR_STREAM_FV:
        return 2 * (uint64_t)ell_width_of(csr, ell_width) + 1; /* a and idx per slot, y */
    case AUGUR_STREAM_IREDUCE:
        return 3; /* eu, ev, w */
    default:
        return 0;
    }
}

/* The geometric mean of |u - v| + 1 over the entries: the typical distance between the row and
 * the gathered index, the window of x that a row's accesses span. */
static double span_gmean(const struct augur_csr *c)
{
    double sum = 0.0;

    for (uint32_t u = 0; u < c->nrows; u++)
        for (uint64_t k = c->rowptr[u]; k < c->rowptr[u + 1]; k++) {
            uint32_t v = c->col[k];

            sum += log((double)(v > u ? v - u : u - v) + 1.0);
        }
    return c->nnz ? exp(sum / (double)c->nnz) : 1.0;
}

/* Whether scaling resolves to reuse for kernel k (auto: not for fv). */
static bool reuse_of(enum augur_scaling scaling, enum augur_stream_kernel k)
{
    return scaling == AUGUR_SCALING_REUSE ||
           (scaling == AUGUR_SCALING_AUTO && k != AUGUR_STREAM_FV);
}

/* span: whether ireduce's windows may widen the reuse ratio (not on a Random Row Blocks sample,
 * whose x is folded with its windows). */
static void scales_of(enum augur_scaling scaling, const struct augur_csr *csr,
                      const struct augur_csr *sample, enum augur_stream_kernel k,
                      const struct augur_cache_config *cfg, bool span, double scale[4])
{
    uint32_t w = k == AUGUR_STREAM_FV ? max_degree(csr) : 0;
    double ratio = 1.0;

    if (scaling == AUGUR_SCALING_AUTO)
        scaling = k == AUGUR_STREAM_FV ? AUGUR_SCALING_NONE : AUGUR_SCALING_REUSE;
    if (scaling == AUGUR_SCALING_FOOTPRINT) {
        uint64_t full = augur_stream_footprint(csr, k, w);

        ratio = full ? (double)augur_stream_footprint(sample, k, w) / (double)full : 1.0;
    } else if (scaling == AUGUR_SCALING_REUSE && csr->nrows) {
        ratio = (double)sample->nrows / (double)csr->nrows;
        /* ireduce: the fraction of its row's window (the span of u - v) that the sample keeps
         * when that is larger: on a local numbering the sample's windows shrink less than n'/n
         * (docs/sampling.md, "Caches for a smaller input"). */
        if (span && k == AUGUR_STREAM_IREDUCE) {
            double f = span_gmean(csr);

            double sr = f > 0.0 ? span_gmean(sample) / f : ratio;

            ratio = sr > ratio ? sr : ratio;
            if (ratio > 1.0)
                ratio = 1.0;
        }
    }
    for (unsigned l = 0; l < 4; l++) {
        double r = 1.0;

        if (l < cfg->nlevels && scaling == AUGUR_SCALING_FOOTPRINT) {
            r = ratio;
        } else if (l < cfg->nlevels && scaling == AUGUR_SCALING_REUSE) {
            double c = (double)cfg->level[l].size;
            double live = (double)augur_stream_live_lines(csr, k, w) * cfg->level[l].line;

            r = c > live && c > 0 ? (live + (c - live) * ratio) / c : 1.0;
        }
        if (!(r > 0.0))
            r = 1e-12;
        scale[l] = r > 1.0 ? 1.0 : r;
    }
}

void augur_scaling_scales(enum augur_scaling scaling, const struct augur_csr *csr,
                          const struct augur_csr *sample, enum augur_stream_kernel k,
                          const struct augur_cache_config *cfg, double scale[4])
{
    scales_of(scaling, csr, sample, k, cfg, true, scale);
}

int augur_sample_simulate(const struct augur_csr *csr, const struct augur_sample_opts *opts,
                          enum augur_stream_kernel k, const struct augur_cache_config *cfg,
                          enum augur_scaling scaling, bool warm, struct augur_stream_result *out,
                          struct augur_sample_info *info, struct augur_diag *diag)
{
    struct augur_sample s;
    double scale[4];
    int rc;

    if ((unsigned)scaling >= AUGUR_SCALING_COUNT)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "unknown cache scaling %d",
                              (int)scaling);
    rc = augur_sample_csr(csr, opts, &s, diag);
    if (rc)
        return rc;
    /* rb folds x to about p of its length, which unscaled caches would hold whole. */
    if (scaling == AUGUR_SCALING_AUTO && opts->method == AUGUR_SAMPLER_RB)
        scaling = AUGUR_SCALING_REUSE;
    scales_of(scaling, csr, &s.csr, k, cfg, opts->method != AUGUR_SAMPLER_RB, scale);
    /* fv keeps the full matrix's ELL width: as many slot streams as the full run. */
    rc = stream_simulate(&s.csr, k, k == AUGUR_STREAM_FV ? max_degree(csr) : 0, csr->nrows, cfg,
                         scale, warm, reuse_of(scaling, k) ? csr : NULL, out, diag);
    if (!rc && info)
        *info = s.info;
    augur_sample_release(&s);
    return rc;
}
