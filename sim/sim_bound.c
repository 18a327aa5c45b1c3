/*
 * sim_bound.c - the dataset side of bindings (CSR, CSC, COO, ELL,
 * JDS, SELL-C, degrees, BFS levels, masks and parents, thread ranges, dense
 * vectors, sizes, 1-based variants), their checks against a kernel's
 * declarations, and the simulated memory layout (module: sim).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "augur/sim.h"

struct augur_bound {
    const struct augur_dataset *ds; /* NULL over a bare CSR */
    const struct augur_csr *csr;
    struct augur_csr own;
    bool own_csr;
    struct augur_bound_opts opts;
    uint32_t source;
    struct augur_csr csc;
    bool have_csc;
    uint32_t *coo_row;
    uint32_t *deg;
    uint32_t ell_width;
    struct augur_ell ell;
    bool have_ell;
    uint32_t *ell_idx_rows;
    double *ell_val_rows;
    uint32_t *pairs;
    uint64_t *rowpairs;
    int64_t *levels;
    int64_t *parents; /* beside levels: the node each reached node was reached from */
    uint32_t nlevels;
    uint32_t maxdeg; /* the longest row: jds.ndiag */
    struct augur_jds jds;
    bool have_jds;
    struct augur_sell sell[7]; /* SELL-C for C = 1, 2, 4, ..., 64 */
    bool have_sell[7];
    struct augur_tiling_sched tiling; /* at opts.tile_size */
    bool have_tiling;
};

/* ---- the bound data ------------------------------------------------------------------ */

static uint32_t max_degree(const struct augur_csr *csr, uint32_t *first)
{
    uint64_t w = 0;

    *first = 0;
    for (uint32_t i = 0; i < csr->nrows; i++)
        if (csr->rowptr[i + 1] - csr->rowptr[i] > w) {
            w = csr->rowptr[i + 1] - csr->rowptr[i];
            *first = i;
        }
    return (uint32_t)w;
}

static int finish_new(struct augur_bound *b, const struct augur_bound_opts *opts,
                      struct augur_diag *diag)
{
    uint32_t first;

    if (opts)
        b->opts = *opts;
    if (!b->opts.bfs_inf_set)
        b->opts.bfs_inf = INT32_MAX;
    if (b->opts.round == 0)
        b->opts.round = 1;
    if (b->opts.nthreads == 0)
        b->opts.nthreads = 1;
    b->ell_width = max_degree(b->csr, &first);
    b->maxdeg = b->ell_width;
    if (b->opts.ell_width) {
        if (b->opts.ell_width < b->ell_width)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "ELLPACK width %" PRIu32
                                  " is below the largest row degree %" PRIu32 " (row %" PRIu32 ")",
                                  b->opts.ell_width, b->ell_width, first);
        b->ell_width = b->opts.ell_width;
    }
    b->source = b->opts.bfs_source_maxdeg ? first : b->opts.bfs_source;
    if (b->csr->nrows && b->source >= b->csr->nrows)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "BFS source %" PRIu32 " is beyond the %" PRIu32 " nodes", b->source,
                              b->csr->nrows);
    return 0;
}

int augur_bound_new(const struct augur_dataset *ds, const struct augur_bound_opts *opts,
                    struct augur_bound **out, struct augur_diag *diag)
{
    struct augur_bound *b = augur_calloc(1, sizeof(*b));
    int rc;

    b->ds = ds;
    rc = augur_dataset_csr(ds, !(opts && opts->stored_only), &b->own, diag);
    if (rc) {
        augur_free(b);
        return rc;
    }
    b->own_csr = true;
    b->csr = &b->own;
    rc = finish_new(b, opts, diag);
    if (rc) {
        augur_bound_free(b);
        return rc;
    }
    *out = b;
    return 0;
}

int augur_bound_from_csr(const struct augur_csr *csr, const struct augur_bound_opts *opts,
                         struct augur_bound **out, struct augur_diag *diag)
{
    struct augur_bound *b = augur_calloc(1, sizeof(*b));
    int rc;

    b->csr = csr;
    rc = finish_new(b, opts, diag);
    if (rc) {
        augur_bound_free(b);
        return rc;
    }
    *out = b;
    return 0;
}

void augur_bound_free(struct augur_bound *b)
{
    if (!b)
        return;
    if (b->own_csr)
        augur_csr_release(&b->own);
    augur_csr_release(&b->csc);
    augur_ell_release(&b->ell);
    augur_free(b->coo_row);
    augur_free(b->deg);
    augur_free(b->ell_idx_rows);
    augur_free(b->ell_val_rows);
    augur_free(b->pairs);
    augur_free(b->rowpairs);
    augur_free(b->levels);
    augur_free(b->parents);
    augur_jds_release(&b->jds);
    for (int c = 0; c < 7; c++)
        augur_sell_release(&b->sell[c]);
    augur_tiling_sched_release(&b->tiling);
    augur_free(b);
}

uint32_t augur_bound_bfs_source(struct augur_bound *b)
{
    return b->source;
}

/* The transpose, by a counting sort on the columns (rows stay sorted). */
static void build_csc(struct augur_bound *b)
{
    const struct augur_csr *a = b->csr;
    struct augur_csr *t = &b->csc;

    t->nrows = a->ncols;
    t->ncols = a->nrows;
    t->nnz = a->nnz;
    t->rowptr = augur_calloc((size_t)a->ncols + 1, sizeof(uint64_t));
    t->col = augur_mallocarray(a->nnz ? a->nnz : 1, sizeof(uint32_t));
    t->val = a->val ? augur_mallocarray(a->nnz ? a->nnz : 1, sizeof(double)) : NULL;
    for (uint64_t j = 0; j < a->nnz; j++)
        t->rowptr[a->col[j] + 1]++;
    for (uint32_t c = 0; c < a->ncols; c++)
        t->rowptr[c + 1] += t->rowptr[c];
    {
        uint64_t *pos = augur_mallocarray((size_t)a->ncols + 1, sizeof(uint64_t));

        memcpy(pos, t->rowptr, ((size_t)a->ncols + 1) * sizeof(uint64_t));
        for (uint32_t i = 0; i < a->nrows; i++)
            for (uint64_t j = a->rowptr[i]; j < a->rowptr[i + 1]; j++) {
                uint64_t p = pos[a->col[j]]++;

                t->col[p] = i;
                if (t->val)
                    t->val[p] = a->val[j];
            }
        augur_free(pos);
    }
    b->have_csc = true;
}

/* The BFS from the source: each node's level and the node it was reached from (the source: itself).
 */
static int build_levels(struct augur_bound *b, struct augur_diag *diag)
{
    const struct augur_csr *a = b->csr;
    uint32_t n = a->nrows, *queue, head = 0, tail = 0;
    int64_t inf = b->opts.bfs_inf, deepest = -1;
    int rc = augur_memory_check((uint64_t)n * (2 * sizeof(int64_t) + sizeof(uint32_t)),
                                "the BFS levels and parents", diag);

    if (rc)
        return rc;
    b->levels = augur_mallocarray(n ? n : 1, sizeof(int64_t));
    b->parents = augur_mallocarray(n ? n : 1, sizeof(int64_t));
    queue = augur_mallocarray(n ? n : 1, sizeof(uint32_t));
    for (uint32_t v = 0; v < n; v++) {
        b->levels[v] = inf;
        b->parents[v] = -1;
    }
    if (n) {
        b->levels[b->source] = 0;
        b->parents[b->source] = b->source;
        queue[tail++] = b->source;
    }
    while (head < tail) {
        uint32_t v = queue[head++];

        if (b->levels[v] > deepest)
            deepest = b->levels[v];
        for (uint64_t j = a->rowptr[v]; j < a->rowptr[v + 1]; j++) {
            uint32_t d = a->col[j];

            if (d < n && b->levels[d] == inf) {
                b->levels[d] = b->levels[v] + 1;
                b->parents[d] = v;
                queue[tail++] = d;
            }
        }
    }
    augur_free(queue);
    b->nlevels = (uint32_t)(deepest + 1);
    return 0;
}

int augur_bound_bfs_levels(struct augur_bound *b, const int64_t **levels, uint32_t *nnodes,
                           uint32_t *nlevels, struct augur_diag *diag)
{
    if (b->csr->nrows != b->csr->ncols)
        return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0,
                              "bfs.level needs a square matrix (a graph), not %" PRIu32
                              " x %" PRIu32,
                              b->csr->nrows, b->csr->ncols);
    if (!b->levels) {
        int rc = build_levels(b, diag);

        if (rc)
            return rc;
    }
    *levels = b->levels;
    *nnodes = b->csr->nrows;
    *nlevels = b->nlevels;
    return 0;
}

static int build_ell(struct augur_bound *b, struct augur_diag *diag)
{
    int rc;

    if (b->have_ell)
        return 0;
    rc = augur_csr_to_ell(b->csr, b->ell_width, &b->ell, diag);
    if (rc)
        return rc;
    b->have_ell = true;
    return 0;
}

/*
 * Where the values of an array target come from: stored arrays, or values
 * computed from the index (a thread range's offsets, an owner, i itself) or
 * from the BFS levels and the round (a level, a frontier or visited mask,
 * a parent).
 */
enum tv_kind {
    TV_U32,
    TV_U64,
    TV_F64,
    TV_ZERO,
    TV_ONES,
    TV_LEVEL,
    TV_FRONTIER,
    TV_NEXT,
    TV_VISITED,
    TV_PARENT,
    TV_PARTS,
    TV_OWNER,
    TV_IOTA,
};

struct tgt {
    enum tv_kind kind;
    const void *p;
    const void *q;  /* TV_PARENT: the parents (p holds the levels) */
    uint64_t count; /* elements, the leading one of a 1-based variant included */
    bool index;     /* values are indices or counts */
    bool ids;       /* values are node ids or offsets: a 1-based variant adds one */
    uint32_t lead;  /* 1-based variants: one unused element before the values */
    uint64_t size;  /* TV_PARTS, TV_OWNER: the range split among parts threads */
    uint32_t parts;
    bool unvisited_set; /* TV_LEVEL: the value of the nodes not reached yet, when not bfs_inf */
    int64_t unvisited;
};

/* nv: a tetrahedral mesh's vertices, refused for other data. */
static int mesh_vertices(const struct augur_bound *b, uint64_t *count, struct augur_diag *diag)
{
    if (!b->ds || !b->ds->cells)
        return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0,
                              "nv (a mesh's vertices) needs a tetrahedral mesh dataset");
    *count = b->ds->nnodes;
    return 0;
}

/* The tiled-and-grouped schedule at the tile size of the options, built on first use. */
static int tiling_of(struct augur_bound *b, const char *t, struct augur_diag *diag)
{
    int rc;

    if (b->have_tiling)
        return 0;
    if (!b->opts.tile_size)
        return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0,
                              "%s is the tiled-and-grouped schedule at a tile size: give one with "
                              "--tile-size T",
                              t);
    rc = augur_tiling_schedule(b->csr, b->opts.tile_size, &b->tiling, diag);
    if (rc)
        return augur_diag_set(diag, rc, NULL, 0, 0, "%s: %s", t, diag ? diag->msg : "");
    b->have_tiling = true;
    return 0;
}

/* log2 of a SELL chunk size (1 .. 64). */
static int chunk_log(uint32_t c)
{
    int l = 0;

    while ((1u << l) < c)
        l++;
    return l;
}

/* The value of a scalar target name (n, nnz, sell8.nchunks, ...) with threads threads. */
static int scalar_named(struct augur_bound *b, const char *t, uint32_t threads, double *out,
                        struct augur_diag *diag)
{
    uint32_t chunk;
    size_t f;

    if (strcmp(t, "n") == 0)
        *out = b->csr->nrows;
    else if (strcmp(t, "m") == 0)
        *out = b->csr->ncols;
    else if (strcmp(t, "nnz") == 0)
        *out = (double)b->csr->nnz;
    else if (strcmp(t, "ell.width") == 0)
        *out = b->ell_width;
    else if (strcmp(t, "round") == 0)
        *out = (double)b->opts.round;
    else if (strcmp(t, "nthreads") == 0)
        *out = threads;
    else if (strcmp(t, "jds.ndiag") == 0)
        *out = b->maxdeg;
    else if (strncmp(t, "tiling.", 7) == 0 && strcmp(t, "tiling.size") != 0) {
        int rc = tiling_of(b, t, diag);

        if (rc)
            return rc;
        if (strcmp(t + 7, "ntgroups") == 0)
            *out = (double)b->tiling.ntgroups;
        else if (strcmp(t + 7, "ntiles") == 0)
            *out = (double)b->tiling.ntiles;
        else if (strcmp(t + 7, "ngroups") == 0)
            *out = (double)b->tiling.ngroups;
        else
            return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0, "unknown scalar target '%s'", t);
    } else if (strcmp(t, "tiling.size") == 0) {
        if (!b->opts.tile_size)
            return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0,
                                  "tiling.size: give a tile size with --tile-size T");
        *out = b->opts.tile_size;
    } else if (augur_bind_sell(t, strlen(t), &chunk, &f) == 0 && strcmp(t + f, "nchunks") == 0)
        *out = (double)(((uint64_t)b->csr->nrows + chunk - 1) / chunk);
    else if (strcmp(t, "nv") == 0) {
        uint64_t nv = 0;
        int rc = mesh_vertices(b, &nv, diag);

        if (rc)
            return rc;
        *out = (double)nv;
    } else
        return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0, "unknown scalar target '%s'", t);
    return 0;
}

struct named_ctx {
    struct augur_bound *b;
    uint32_t threads;
};

static int named_value(void *ud, const char *name, int64_t *out, struct augur_diag *diag)
{
    const struct named_ctx *c = ud;
    double v = 0;
    int rc = scalar_named(c->b, name, c->threads, &v, diag);

    if (!rc)
        *out = (int64_t)v;
    return rc;
}

/* A scalar target: "=VALUE", a name, or an integer expression of names, with threads threads. */
static int scalar_at(struct augur_bound *b, const char *t, uint32_t threads, double *out,
                     struct augur_diag *diag)
{
    struct named_ctx c = { b, threads };
    int64_t v;
    int rc;

    if (t[0] == '=') {
        char *end;

        errno = 0;
        *out = strtod(t + 1, &end);
        if (errno || end == t + 1 || *end || !isfinite(*out))
            return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0, "bad value '%s'", t + 1);
        return 0;
    }
    rc = augur_bind_expr_eval(t, strlen(t), named_value, &c, &v, diag);
    if (!rc)
        *out = (double)v;
    return rc;
}

/* The element count SIZE of NAME(SIZE) (vec, parts, owner, iota), from its opening parenthesis. */
static int size_count(struct augur_bound *b, const char *t, const char *open, uint32_t threads,
                      uint64_t *count, struct augur_diag *diag)
{
    struct named_ctx c = { b, threads };
    size_t len = strlen(open + 1);
    int64_t v;
    int rc;

    if (len < 2 || open[len] != ')')
        return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0, "bad target '%s'", t);
    rc = augur_bind_expr_eval(open + 1, len - 1, named_value, &c, &v, diag);
    if (rc)
        return rc;
    if (v < 0)
        return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0,
                              "the size of '%s' is negative (%" PRId64 ")", t, v);
    *count = (uint64_t)v;
    return 0;
}

/* Allocation checked against the memory there is, for target what. */
static void *target_alloc(uint64_t n, size_t size, const char *what, struct augur_diag *diag)
{
    if (n > UINT64_MAX / size || augur_memory_check(n * size, what, diag) != 0)
        return NULL;
    return augur_mallocarray(n ? (size_t)n : 1, size);
}

/* The BFS levels and parents for the bfs.* targets. */
static int bfs_of(struct augur_bound *b, const char *t, struct tgt *out, enum tv_kind kind,
                  struct augur_diag *diag)
{
    const int64_t *lv = NULL;
    uint32_t nn = 0, nl = 0;
    int rc = augur_bound_bfs_levels(b, &lv, &nn, &nl, diag);

    if (rc)
        return augur_diag_set(diag, rc, NULL, 0, 0, "%s: %s", t, diag ? diag->msg : "");
    out->kind = kind;
    out->p = lv;
    out->q = b->parents;
    out->count = nn;
    out->index = true;
    out->ids = kind == TV_PARENT;
    return 0;
}

static int sell_of(struct augur_bound *b, const char *t, uint32_t chunk, const char *field,
                   struct tgt *out, struct augur_diag *diag)
{
    int l = chunk_log(chunk);
    const struct augur_sell *s = &b->sell[l];

    if (!b->have_sell[l]) {
        int rc = augur_csr_to_sell(b->csr, chunk, &b->sell[l], diag);

        if (rc)
            return rc;
        b->have_sell[l] = true;
    }
    if (strcmp(field, "cs") == 0) {
        out->kind = TV_U64;
        out->p = s->cs;
        out->count = (uint64_t)s->nchunks + 1;
        out->index = out->ids = true;
    } else if (strcmp(field, "cl") == 0) {
        out->kind = TV_U32;
        out->p = s->cl;
        out->count = s->nchunks;
        out->index = true;
    } else if (strcmp(field, "col") == 0) {
        out->kind = TV_U32;
        out->p = s->col;
        out->count = s->nslots;
        out->index = out->ids = true;
    } else if (strcmp(field, "val") == 0) {
        out->kind = s->val ? TV_F64 : TV_ONES;
        out->p = s->val;
        out->count = s->nslots;
    } else {
        return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0, "unknown array target '%s'", t);
    }
    return 0;
}

static int jds_of(struct augur_bound *b, const char *t, struct tgt *out, struct augur_diag *diag)
{
    if (!b->have_jds) {
        int rc = augur_csr_to_jds(b->csr, &b->jds, diag);

        if (rc)
            return rc;
        b->have_jds = true;
    }
    if (strcmp(t, "jds.ptr") == 0) {
        out->kind = TV_U64;
        out->p = b->jds.ptr;
        out->count = (uint64_t)b->jds.ndiag + 1;
        out->index = out->ids = true;
    } else if (strcmp(t, "jds.col") == 0) {
        out->kind = TV_U32;
        out->p = b->jds.col;
        out->count = b->jds.nnz;
        out->index = out->ids = true;
    } else if (strcmp(t, "jds.perm") == 0) {
        out->kind = TV_U32;
        out->p = b->jds.perm;
        out->count = b->jds.nrows;
        out->index = out->ids = true;
    } else if (strcmp(t, "jds.val") == 0) {
        out->kind = b->jds.val ? TV_F64 : TV_ONES;
        out->p = b->jds.val;
        out->count = b->jds.nnz;
    } else {
        return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0, "unknown array target '%s'", t);
    }
    return 0;
}

static int tiling_array(struct augur_bound *b, const char *t, struct tgt *out,
                        struct augur_diag *diag)
{
    const struct augur_tiling_sched *s = &b->tiling;
    const char *f = t + 7;
    int rc = tiling_of(b, t, diag);

    if (rc)
        return rc;
    out->index = true;
    out->ids = true;
    if (strcmp(f, "tgroup_tile") == 0) {
        out->kind = TV_U64;
        out->p = s->tgroup_tile;
        out->count = s->ntgroups + 1;
    } else if (strcmp(f, "tile_group") == 0) {
        out->kind = TV_U64;
        out->p = s->tile_group;
        out->count = s->ntiles + 1;
    } else if (strcmp(f, "gcount") == 0) {
        out->kind = TV_U32;
        out->p = s->gcount;
        out->count = s->ngroups;
        out->ids = false;
    } else if (strcmp(f, "gu") == 0 || strcmp(f, "gv") == 0) {
        out->kind = TV_U32;
        out->p = f[1] == 'u' ? s->gu : s->gv;
        out->count = s->ngroups * AUGUR_TILING_LANES;
    } else if (strcmp(f, "gw") == 0) {
        out->kind = TV_F64;
        out->p = s->gw;
        out->count = s->ngroups * AUGUR_TILING_LANES;
        out->index = out->ids = false;
    } else {
        return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0, "unknown array target '%s'", t);
    }
    return 0;
}

/* A 0-based array target; threads is the number of threads parts() and owner() split among. */
static int target_base(struct augur_bound *b, const char *t, uint32_t threads, struct tgt *out,
                       struct augur_diag *diag)
{
    const struct augur_csr *a = b->csr;
    const char *open = strchr(t, '(');
    uint32_t chunk;
    size_t field;
    int rc;

    memset(out, 0, sizeof(*out));
    if (strncmp(t, "bfs.level(", 10) == 0) {
        char *end;
        long long u;

        /* bfs.level(U): U for the nodes not reached before the round */
        errno = 0;
        u = strtoll(t + 10, &end, 10);
        if (errno || end == t + 10 || strcmp(end, ")") != 0)
            return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0, "bad target '%s'", t);
        rc = bfs_of(b, t, out, TV_LEVEL, diag);
        out->unvisited = u;
        out->unvisited_set = true;
        return rc;
    }
    if (open) {
        size_t k = (size_t)(open - t);
        uint64_t size = 0;

        rc = size_count(b, t, open, threads, &size, diag);
        if (rc)
            return rc;
        if (k == 3 && memcmp(t, "vec", 3) == 0) {
            out->kind = TV_ZERO;
            out->count = size;
        } else if (k == 5 && memcmp(t, "parts", 5) == 0) {
            out->kind = TV_PARTS;
            out->count = (uint64_t)threads + 1;
            out->index = out->ids = true;
        } else if (k == 5 && memcmp(t, "owner", 5) == 0) {
            out->kind = TV_OWNER;
            out->count = size;
            out->index = true;
        } else if (k == 4 && memcmp(t, "iota", 4) == 0) {
            out->kind = TV_IOTA;
            out->count = size;
            out->index = out->ids = true;
        } else {
            return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0, "unknown array target '%s'", t);
        }
        out->size = size;
        out->parts = threads ? threads : 1;
        return 0;
    }
    if (augur_bind_sell(t, strlen(t), &chunk, &field) == 0)
        return sell_of(b, t, chunk, t + field, out, diag);
    if (strncmp(t, "jds.", 4) == 0)
        return jds_of(b, t, out, diag);
    if (strncmp(t, "tiling.", 7) == 0)
        return tiling_array(b, t, out, diag);
    if (strcmp(t, "csr.rowptr") == 0) {
        out->kind = TV_U64;
        out->p = a->rowptr;
        out->count = (uint64_t)a->nrows + 1;
        out->index = out->ids = true;
    } else if (strcmp(t, "csr.rowpairs") == 0) {
        if (!b->rowpairs) {
            b->rowpairs = target_alloc(2 * (uint64_t)a->nrows, sizeof(uint64_t), t, diag);
            if (!b->rowpairs)
                return diag ? diag->code : AUGUR_ELIMIT;
            for (uint32_t i = 0; i < a->nrows; i++) {
                b->rowpairs[2 * (uint64_t)i] = a->rowptr[i];
                b->rowpairs[2 * (uint64_t)i + 1] = a->rowptr[i + 1];
            }
        }
        out->kind = TV_U64;
        out->p = b->rowpairs;
        out->count = 2 * (uint64_t)a->nrows;
        out->index = out->ids = true;
    } else if (strcmp(t, "csr.col") == 0 || strcmp(t, "coo.col") == 0 ||
               strcmp(t, "edges.dst") == 0) {
        out->kind = TV_U32;
        out->p = a->col;
        out->count = a->nnz;
        out->index = out->ids = true;
    } else if (strcmp(t, "csr.val") == 0 || strcmp(t, "coo.val") == 0 ||
               strcmp(t, "edges.weight") == 0) {
        out->kind = a->val ? TV_F64 : TV_ONES;
        out->p = a->val;
        out->count = a->nnz;
    } else if (strncmp(t, "csc.", 4) == 0) {
        if (!b->have_csc)
            build_csc(b);
        if (strcmp(t, "csc.colptr") == 0) {
            out->kind = TV_U64;
            out->p = b->csc.rowptr;
            out->count = (uint64_t)b->csc.nrows + 1;
            out->index = out->ids = true;
        } else if (strcmp(t, "csc.row") == 0) {
            out->kind = TV_U32;
            out->p = b->csc.col;
            out->count = b->csc.nnz;
            out->index = out->ids = true;
        } else {
            out->kind = b->csc.val ? TV_F64 : TV_ONES;
            out->p = b->csc.val;
            out->count = b->csc.nnz;
        }
    } else if (strcmp(t, "coo.row") == 0 || strcmp(t, "edges.src") == 0) {
        if (!b->coo_row) {
            b->coo_row = target_alloc(a->nnz, sizeof(uint32_t), t, diag);
            if (!b->coo_row)
                return diag ? diag->code : AUGUR_ELIMIT;
            for (uint32_t i = 0; i < a->nrows; i++)
                for (uint64_t j = a->rowptr[i]; j < a->rowptr[i + 1]; j++)
                    b->coo_row[j] = i;
        }
        out->kind = TV_U32;
        out->p = b->coo_row;
        out->count = a->nnz;
        out->index = out->ids = true;
    } else if (strcmp(t, "edges.pairs") == 0) {
        if (a->nnz > UINT64_MAX / 2)
            return augur_diag_set(diag, AUGUR_ELIMIT, NULL, 0, 0, "too many edges");
        if (!b->pairs) {
            b->pairs = target_alloc(2 * a->nnz, sizeof(uint32_t), t, diag);
            if (!b->pairs)
                return diag ? diag->code : AUGUR_ELIMIT;
            for (uint32_t i = 0; i < a->nrows; i++)
                for (uint64_t j = a->rowptr[i]; j < a->rowptr[i + 1]; j++) {
                    b->pairs[2 * j] = i;
                    b->pairs[2 * j + 1] = a->col[j];
                }
        }
        out->kind = TV_U32;
        out->p = b->pairs;
        out->count = 2 * a->nnz;
        out->index = out->ids = true;
    } else if (strncmp(t, "ell.", 4) == 0) {
        bool rows = strstr(t, ".rows") != NULL, idx = strncmp(t, "ell.idx", 7) == 0;
        uint64_t slots;

        rc = build_ell(b, diag);
        if (rc)
            return rc;
        slots = (uint64_t)b->ell.nrows * b->ell.width;
        if (rows && !b->ell_idx_rows) {
            b->ell_idx_rows = augur_mallocarray(slots ? slots : 1, sizeof(uint32_t));
            if (b->ell.val)
                b->ell_val_rows = augur_mallocarray(slots ? slots : 1, sizeof(double));
            for (uint32_t i = 0; i < b->ell.nrows; i++)
                for (uint32_t k = 0; k < b->ell.width; k++) {
                    uint64_t from = (uint64_t)k * b->ell.nrows + i,
                             to = (uint64_t)i * b->ell.width + k;

                    b->ell_idx_rows[to] = b->ell.idx[from];
                    if (b->ell.val)
                        b->ell_val_rows[to] = b->ell.val[from];
                }
        }
        out->count = slots;
        if (idx) {
            out->kind = TV_U32;
            out->p = rows ? b->ell_idx_rows : b->ell.idx;
            out->index = out->ids = true;
        } else {
            out->p = rows ? (const void *)b->ell_val_rows : (const void *)b->ell.val;
            out->kind = out->p ? TV_F64 : TV_ONES;
        }
    } else if (strcmp(t, "mesh.cells") == 0) {
        if (!b->ds || !b->ds->cells)
            return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0,
                                  "mesh.cells needs a tetrahedral mesh dataset");
        out->kind = TV_U32;
        out->p = b->ds->cells;
        out->count = 4 * b->ds->ncells;
        out->index = out->ids = true;
    } else if (strcmp(t, "deg") == 0) {
        if (!b->deg) {
            b->deg = target_alloc(a->nrows, sizeof(uint32_t), t, diag);
            if (!b->deg)
                return diag ? diag->code : AUGUR_ELIMIT;
            for (uint32_t i = 0; i < a->nrows; i++)
                b->deg[i] = (uint32_t)(a->rowptr[i + 1] - a->rowptr[i]);
        }
        out->kind = TV_U32;
        out->p = b->deg;
        out->count = a->nrows;
        out->index = true;
    } else if (strcmp(t, "bfs.level") == 0) {
        return bfs_of(b, t, out, TV_LEVEL, diag);
    } else if (strcmp(t, "bfs.frontier") == 0) {
        return bfs_of(b, t, out, TV_FRONTIER, diag);
    } else if (strcmp(t, "bfs.next") == 0) {
        return bfs_of(b, t, out, TV_NEXT, diag);
    } else if (strcmp(t, "bfs.visited") == 0) {
        return bfs_of(b, t, out, TV_VISITED, diag);
    } else if (strcmp(t, "bfs.parent") == 0) {
        return bfs_of(b, t, out, TV_PARENT, diag);
    } else {
        return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0, "unknown array target '%s'", t);
    }
    return 0;
}

/*
 * An array target, 0- or 1-based: a 1-based variant (csr1.rowptr, vec1(n))
 * has one unused element before the 0-based values, and its node ids and
 * offsets are one more.
 */
static int target_of(struct augur_bound *b, const char *t, uint32_t threads, struct tgt *out,
                     struct augur_diag *diag)
{
    char base[256];
    int rc;

    if (!augur_bind_one_based(t, base, sizeof(base)))
        return target_base(b, t, threads, out, diag);
    rc = target_base(b, base, threads, out, diag);
    if (rc)
        return rc;
    if (out->count == UINT64_MAX)
        return augur_diag_set(diag, AUGUR_ELIMIT, NULL, 0, 0, "'%s' is too large", t);
    out->lead = 1;
    out->count++;
    return 0;
}

int augur_bound_scalar(struct augur_bound *b, const char *t, double *out, struct augur_diag *diag)
{
    return scalar_at(b, t, b->opts.nthreads, out, diag);
}

/* ---- checking and converting ------------------------------------------------------------------
 */

/*
 * A conversion failure of array A's values: named after A, without a
 * location (the caller knows where A is declared).
 */
static int value_fail(struct augur_diag *diag, const char *fmt, ...) AUGUR_PRINTF(2, 3);

static int value_fail(struct augur_diag *diag, const char *fmt, ...)
{
    char msg[sizeof(diag->msg)];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0, "%s", msg);
}

/* The part of parts(size) over t parts that holds element i: ie[p] <= i < ie[p + 1]. */
static uint64_t part_start(uint64_t size, uint32_t t, uint64_t p)
{
    /* size * p / t without overflow for sizes below 2^64 / 2^32 */
    return size / t * p + size % t * p / t;
}

static uint64_t owner_of(uint64_t size, uint32_t t, uint64_t i)
{
    uint64_t p = size ? (uint64_t)((double)i * t / (double)size) : 0;

    if (p >= t)
        p = t - 1;
    while (p > 0 && part_start(size, t, p) > i)
        p--;
    while (p + 1 < t && part_start(size, t, p + 1) <= i)
        p++;
    return p;
}

/* The value of target entry i as a double (exact for integers below 2^53) and as bits. */
static union augur_value tgt_value(const struct tgt *t, uint64_t i, int64_t inf, int64_t round,
                                   bool *fp)
{
    union augur_value v;
    int64_t l;

    *fp = false;
    v.i = 0;
    if (i < t->lead)
        return v; /* the unused element 0 of a 1-based array */
    i -= t->lead;
    switch (t->kind) {
    case TV_U32:
        v.i = ((const uint32_t *)t->p)[i];
        break;
    case TV_U64:
        v.u = ((const uint64_t *)t->p)[i];
        break;
    case TV_F64:
        v.f = ((const double *)t->p)[i];
        *fp = true;
        break;
    case TV_ONES:
        v.i = 1;
        break;
    case TV_LEVEL:
        l = ((const int64_t *)t->p)[i];
        v.i = l != inf && l <= round - 1 ? l : t->unvisited_set ? t->unvisited : inf;
        break;
    case TV_FRONTIER: /* reached in the round before: what this round expands */
        l = ((const int64_t *)t->p)[i];
        v.i = l != inf && l == round - 1;
        break;
    case TV_NEXT: /* reached in this round: the frontier of the next */
        l = ((const int64_t *)t->p)[i];
        v.i = l != inf && l == round;
        break;
    case TV_VISITED:
        l = ((const int64_t *)t->p)[i];
        v.i = l != inf && l <= round - 1;
        break;
    case TV_PARENT:
        l = ((const int64_t *)t->p)[i];
        v.i = l != inf && l <= round - 1 ? ((const int64_t *)t->q)[i] : -1;
        break;
    case TV_PARTS:
        v.u = part_start(t->size, t->parts, i);
        break;
    case TV_OWNER:
        v.u = owner_of(t->size, t->parts, i);
        break;
    case TV_IOTA:
        v.u = i;
        break;
    default:
        break;
    }
    /* a 1-based variant's ids and offsets count from 1 (-1, "none", stays) */
    if (t->lead && t->ids && !*fp && (t->kind == TV_U64 || v.i >= 0))
        v.u++;
    return v;
}

/*
 * A dense floating-point vector's values: deterministic, not constant, in
 * [0.5, 1.5), from the array's name and the index, so that the interpreter
 * and augur measure's driver branch alike on them (if (x[j] > t)).
 */
static void fill_reals(const struct augur_array *A, uint32_t esize, uint64_t count, uint8_t *dst)
{
    uint64_t seed = 1469598103934665603u; /* FNV-1a of the name */

    for (const char *p = A->name; *p; p++)
        seed = (seed ^ (uint8_t)*p) * 1099511628211u;
    for (uint64_t i = 0; i < count; i++) {
        union augur_value v;

        v.f = 0.5 + (double)((i * UINT64_C(2654435761) + seed % 1021 * 97) % 1021) / 1021.0;
        augur_type_write(dst + i * esize, A->elem, v);
    }
}

/*
 * Checks target t (named target) against array A's element type (esize
 * bytes each) and, when dst is not NULL, converts its first count values
 * into dst.
 */
static int convert_values(const struct augur_array *A, uint32_t esize, const char *target,
                          int64_t inf, const struct tgt *t, uint64_t count, int64_t round,
                          uint8_t *dst, struct augur_diag *diag)
{
    double lo = 0, hi = 0;

    if (A->elem == AUGUR_T_REC || A->elem == AUGUR_T_VOID) {
        if (t->kind != TV_ZERO)
            return value_fail(
                diag,
                "array '%s' has %s elements (%" PRIu32
                " bytes): only vec() or rec(OFFSET:TYPE:TARGET,...) fits it, not '%s'",
                A->name, augur_type_name(A->elem), A->elem_size, target);
        if (dst)
            memset(dst, 0, count * esize);
        return 0;
    }
    if (t->index && augur_type_is_float(A->elem))
        return value_fail(diag,
                          "array '%s' holds %s values but '%s' holds indices: bind an integer "
                          "array to it",
                          A->name, augur_type_name(A->elem), target);
    if (!augur_type_is_float(A->elem))
        augur_type_range(A->elem, &lo, &hi);
    if (t->kind == TV_ZERO) {
        uint64_t lead = count < t->lead ? count : t->lead;

        /* a 1-based vector's element i + 1 holds what element i of the 0-based one holds */
        if (dst)
            memset(dst, 0, lead * esize);
        if (dst && augur_type_is_float(A->elem))
            fill_reals(A, esize, count - lead, dst + lead * esize);
        else if (dst)
            memset(dst + lead * esize, 0, (count - lead) * esize);
        return 0;
    }
    for (uint64_t i = 0; i < count; i++) {
        bool fp;
        union augur_value v = tgt_value(t, i, inf, round, &fp);

        if (!augur_type_is_float(A->elem)) {
            double d = fp ? v.f : t->kind == TV_U64 ? (double)v.u : (double)v.i;

            if (fp && d != floor(d))
                return value_fail(diag,
                                  "array '%s' holds %s values but '%s' holds real values (entry "
                                  "%" PRIu64 " is %g)",
                                  A->name, augur_type_name(A->elem), target, i, v.f);
            if (d < lo || d > hi)
                return value_fail(diag,
                                  "array '%s' holds %s values, too narrow for '%s' (entry %" PRIu64
                                  " is %.17g)",
                                  A->name, augur_type_name(A->elem), target, i, d);
            if (fp)
                v.i = (int64_t)d;
        } else if (!fp) {
            v.f = t->kind == TV_U64 ? (double)v.u : (double)v.i;
        }
        if (dst)
            augur_type_write(dst + i * esize, A->elem, v);
    }
    return 0;
}

/* ---- arrays of structs bound field by field: rec(OFFSET:TYPE:TARGET,...) ------------------ */

/* The fields of the rec() target t and the elements it holds (the fewest of its fields'). */
static int rec_of(struct augur_bound *b, const char *t, uint32_t threads, struct augur_rec_field *f,
                  unsigned *n, struct tgt *ft, uint64_t *count, struct augur_diag *diag)
{
    if (augur_bind_rec(t, strlen(t), f, AUGUR_REC_MAX_FIELDS, n) != 0)
        return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0,
                              "bad target '%s': expected rec(OFFSET:TYPE:TARGET,...)", t);
    *count = UINT64_MAX;
    for (unsigned i = 0; i < *n; i++) {
        int rc = target_of(b, f[i].target, threads, &ft[i], diag);

        if (rc)
            return rc;
        if (ft[i].count < *count)
            *count = ft[i].count;
    }
    return 0;
}

/*
 * Array A's elements (esize bytes each) from the rec() target t: each field
 * checked and converted as an array of its type would be, then laid out at
 * its offset; bytes no field covers stay zero.
 */
static int rec_values(struct augur_bound *b, const struct augur_array *A, uint32_t esize,
                      const char *t, uint32_t threads, int64_t round, uint64_t count, uint8_t *dst,
                      struct augur_diag *diag)
{
    struct augur_rec_field f[AUGUR_REC_MAX_FIELDS];
    struct tgt ft[AUGUR_REC_MAX_FIELDS];
    uint64_t have;
    unsigned n;
    int rc = rec_of(b, t, threads, f, &n, ft, &have, diag);

    if (rc)
        return rc;
    if (A->elem != AUGUR_T_REC)
        return value_fail(diag, "array '%s' has %s elements: rec() binds an array of structs",
                          A->name, augur_type_name(A->elem));
    if (count > have)
        count = have;
    if (dst)
        memset(dst, 0, count * esize);
    for (unsigned i = 0; i < n && !rc; i++) {
        unsigned size = augur_type_size(f[i].type);
        struct augur_array field = *A;
        char name[160];
        uint8_t *vals = NULL;

        if ((uint64_t)f[i].offset + size > esize)
            return value_fail(diag,
                              "array '%s': a %s field at byte %" PRIu32 " does not fit its %" PRIu32
                              "-byte elements",
                              A->name, augur_type_name(f[i].type), f[i].offset, esize);
        snprintf(name, sizeof(name), "%s (field at byte %" PRIu32 ")", A->name, f[i].offset);
        field.name = name;
        field.elem = f[i].type;
        field.elem_size = size;
        if (dst && !(vals = augur_mallocarray(count ? count : 1, size)))
            return augur_diag_set(diag, AUGUR_ENOMEM, NULL, 0, 0, "out of memory filling '%s'",
                                  A->name);
        rc = convert_values(&field, size, f[i].target, b->opts.bfs_inf, &ft[i], count,
                            round ? round : b->opts.round, vals, diag);
        for (uint64_t k = 0; vals && !rc && k < count; k++)
            memcpy(dst + k * esize + f[i].offset, vals + k * size, size);
        augur_free(vals);
    }
    return rc;
}

int augur_bound_array_count(struct augur_bound *b, const char *target, uint64_t *count,
                            struct augur_diag *diag)
{
    struct tgt t;
    int rc;

    if (!strncmp(target, "rec(", 4)) {
        struct augur_rec_field f[AUGUR_REC_MAX_FIELDS];
        struct tgt ft[AUGUR_REC_MAX_FIELDS];
        unsigned n;

        return rec_of(b, target, b->opts.nthreads, f, &n, ft, count, diag);
    }
    rc = target_of(b, target, b->opts.nthreads, &t, diag);

    if (!rc)
        *count = t.count;
    return rc;
}

int augur_bound_array_fill(struct augur_bound *b, const struct augur_array *decl,
                           const char *target, int64_t round, uint64_t count, void *dst,
                           struct augur_diag *diag)
{
    struct tgt t;
    int rc;

    if (!strncmp(target, "rec(", 4)) {
        uint64_t have = 0;

        rc = augur_bound_array_count(b, target, &have, diag);
        if (!rc && count > have)
            rc =
                augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                               "array '%s': %" PRIu64 " elements asked of '%s', which has %" PRIu64,
                               decl->name, count, target, have);
        return rc ? rc
                  : rec_values(b, decl, decl->elem_size ? decl->elem_size : 1, target,
                               b->opts.nthreads, round, count, dst, diag);
    }
    rc = target_of(b, target, b->opts.nthreads, &t, diag);
    if (rc)
        return rc;
    if (count > t.count)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "array '%s': %" PRIu64 " elements asked of '%s', which has %" PRIu64,
                              decl->name, count, target, t.count);
    return convert_values(decl, decl->elem_size ? decl->elem_size : 1, target, b->opts.bfs_inf, &t,
                          count, round ? round : b->opts.round, dst, diag);
}

/* ---- the bound data as the interpreter's source --------------------------------------------- */

static bool is_level_target(const char *t)
{
    return !strcmp(t, "bfs.level") || !strcmp(t, "bfs1.level") || !strncmp(t, "bfs.level(", 10) ||
           !strncmp(t, "bfs1.level(", 11);
}

static int src_array(void *ud, const char *target, uint32_t threads, struct augur_source_array *out,
                     struct augur_diag *diag)
{
    struct augur_bound *b = ud;
    struct tgt t;
    int rc;

    if (!strncmp(target, "rec(", 4)) {
        struct augur_rec_field f[AUGUR_REC_MAX_FIELDS];
        struct tgt ft[AUGUR_REC_MAX_FIELDS];
        unsigned n;

        memset(out, 0, sizeof(*out));
        rc = rec_of(b, target, threads, f, &n, ft, &out->count, diag);
        for (unsigned i = 0; i < n && !rc; i++)
            out->by_round |= !strncmp(f[i].target, "bfs.", 4) || !strncmp(f[i].target, "bfs1.", 5);
        return rc;
    }
    rc = target_of(b, target, threads, &t, diag);

    if (rc)
        return rc;
    memset(out, 0, sizeof(*out));
    out->count = t.count;
    /* stored as they are: the plain forms, not a 1-based variant's shifted copy */
    if (!t.lead && (t.kind == TV_U32 || t.kind == TV_U64 || t.kind == TV_F64)) {
        out->stored = t.p;
        out->kind = t.kind == TV_U32   ? AUGUR_SOURCE_U32
                    : t.kind == TV_U64 ? AUGUR_SOURCE_U64
                                       : AUGUR_SOURCE_F64;
    }
    out->level = is_level_target(target);
    /* bfs.level, bfs.frontier, ...: what the search reached before the round */
    out->by_round = !strncmp(target, "bfs.", 4) || !strncmp(target, "bfs1.", 5);
    return 0;
}

static int src_fill(void *ud, const struct augur_array *decl, const char *target, uint32_t threads,
                    int64_t round, uint64_t count, void *dst, struct augur_diag *diag)
{
    struct augur_bound *b = ud;
    struct tgt t;
    int rc;

    if (!strncmp(target, "rec(", 4))
        return rec_values(b, decl, decl->elem_size ? decl->elem_size : 1, target, threads, round,
                          count, dst, diag);
    rc = target_of(b, target, threads, &t, diag);

    if (rc)
        return rc;
    if (count > t.count)
        count = t.count;
    return convert_values(decl, decl->elem_size ? decl->elem_size : 1, target, b->opts.bfs_inf, &t,
                          count, round ? round : b->opts.round, dst, diag);
}

static int src_scalar(void *ud, const char *target, uint32_t threads, int64_t round, double *out,
                      struct augur_diag *diag)
{
    struct augur_bound *b = ud;
    int64_t saved = b->opts.round;
    int rc;

    if (round)
        b->opts.round = round;
    rc = scalar_at(b, target, threads, out, diag);
    b->opts.round = saved;
    return rc;
}

void augur_bound_source(struct augur_bound *b, struct augur_source *out)
{
    memset(out, 0, sizeof(*out));
    out->ud = b;
    out->array = src_array;
    out->fill = src_fill;
    out->scalar = src_scalar;
    out->size = (double)b->csr->nrows + (double)b->csr->nnz;
}

int augur_interp_new_bound(const struct augur_skel *skel, const struct augur_node *kernel,
                           struct augur_bound *b, const struct augur_interp_opts *opts,
                           struct augur_interp **out, struct augur_diag *diag)
{
    struct augur_source src;

    augur_bound_source(b, &src);
    return augur_interp_new(skel, kernel, &src, opts, out, diag);
}
