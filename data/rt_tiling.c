/*
 * rt_tiling.c - the tiling and grouping of Chen et al. (CGO 2016) measured on
 * a dataset: tiles, conflict-free groups of 16 lanes, tile groups, the SIMD
 * utilization ratio and avg_MIMD of Zhu et al. PACT'19 section IV (module: data).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "augur/data.h"

#define NONE UINT64_MAX

/* Scratch of one computation; every array is owned and freed by tiler_release(). */
struct tiler {
    uint32_t ts;
    uint64_t nb;
    /* tile colouring: each node block lists the colours of the tiles touching it */
    uint64_t *bhead;          /* nb: newest pool entry of the block, or NONE */
    uint64_t *pnext, *pcolor; /* the pool of list entries */
    size_t npool, poolcap;
    uint64_t *cmark, *ctiles; /* per colour: last tile that saw it taken; tiles it holds */
    size_t ncolors, colorcap;
    /* row block bucketing */
    uint64_t *bcount, *bpos; /* nb: entries of each column block, then its next slot */
    uint64_t *touched;       /* column blocks present in the row block */
    uint32_t *eu, *ev;       /* the row block's entries in tile order */
    /* grouping inside one tile */
    uint64_t *nstamp, *nhead; /* n: tile that last touched the node; head of its group list */
    uint64_t *lnext, *lgroup; /* 2 * maxm list entries: a group of a node */
    uint64_t *gopen, *gmark;  /* maxm: next group that may be open; last edge that saw it */
    uint8_t *gcount;          /* maxm: edges in each group */
    uint64_t edge_stamp;
};

static void tiler_release(struct tiler *t)
{
    augur_free(t->bhead);
    augur_free(t->pnext);
    augur_free(t->pcolor);
    augur_free(t->cmark);
    augur_free(t->ctiles);
    augur_free(t->bcount);
    augur_free(t->bpos);
    augur_free(t->touched);
    augur_free(t->eu);
    augur_free(t->ev);
    augur_free(t->nstamp);
    augur_free(t->nhead);
    augur_free(t->lnext);
    augur_free(t->lgroup);
    augur_free(t->gopen);
    augur_free(t->gmark);
    augur_free(t->gcount);
}

/* Registers colour c on node block b. */
static void pool_push(struct tiler *t, uint64_t b, uint64_t c)
{
    if (t->npool == t->poolcap) {
        t->poolcap = t->poolcap ? 2 * t->poolcap : 1024;
        t->pnext = augur_reallocarray(t->pnext, t->poolcap, sizeof(*t->pnext));
        t->pcolor = augur_reallocarray(t->pcolor, t->poolcap, sizeof(*t->pcolor));
    }
    t->pcolor[t->npool] = c;
    t->pnext[t->npool] = t->bhead[b];
    t->bhead[b] = t->npool++;
}

/*
 * Tile k = (rb, cb) takes the lowest colour that no earlier tile touching
 * block rb or block cb holds (the blocks are node blocks: row and column
 * blocks of the same index are the same nodes).
 */
static void colour_tile(struct tiler *t, uint64_t k, uint64_t rb, uint64_t cb)
{
    uint64_t blocks[2] = { rb, cb }, c = 0;

    for (int s = 0; s < 2; s++)
        for (uint64_t p = t->bhead[blocks[s]]; p != NONE; p = t->pnext[p])
            t->cmark[t->pcolor[p]] = k + 1;
    while (c < t->ncolors && t->cmark[c] == k + 1)
        c++;
    if (c == t->ncolors) {
        if (t->ncolors == t->colorcap) {
            t->colorcap = t->colorcap ? 2 * t->colorcap : 64;
            t->cmark = augur_reallocarray(t->cmark, t->colorcap, sizeof(*t->cmark));
            t->ctiles = augur_reallocarray(t->ctiles, t->colorcap, sizeof(*t->ctiles));
        }
        t->cmark[c] = 0;
        t->ctiles[c] = 0;
        t->ncolors++;
    }
    t->ctiles[c]++;
    pool_push(t, rb, c);
    if (cb != rb)
        pool_push(t, cb, c);
}

/* The first group at or after g that may still be open (path halving); ng when none. */
static uint64_t open_from(uint64_t *gopen, uint64_t ng, uint64_t g)
{
    while (g < ng && gopen[g] != g) {
        uint64_t next = gopen[g];

        if (next < ng)
            gopen[g] = gopen[next];
        g = gopen[g];
    }
    return g;
}

/*
 * Groups the m edges (eu[i], ev[i]) of tile k, in order: each goes to the
 * first group that is not full and holds neither endpoint. Returns the number
 * of groups; *nfull receives the full ones.
 */
static uint64_t group_tile(struct tiler *t, uint64_t k, const uint32_t *eu, const uint32_t *ev,
                           uint64_t m, uint64_t *nfull)
{
    uint64_t ng = 0, nlist = 0, full = 0;

    for (uint64_t i = 0; i < m; i++) {
        uint32_t ends[2] = { eu[i], ev[i] };
        uint64_t st = ++t->edge_stamp, g;

        for (int s = 0; s < 2; s++) {
            uint32_t v = ends[s];

            if (t->nstamp[v] != k + 1) {
                t->nstamp[v] = k + 1;
                t->nhead[v] = NONE;
            }
            for (uint64_t q = t->nhead[v]; q != NONE; q = t->lnext[q])
                t->gmark[t->lgroup[q]] = st;
        }
        g = open_from(t->gopen, ng, 0);
        while (g < ng && t->gmark[g] == st)
            g = open_from(t->gopen, ng, g + 1);
        if (g == ng) {
            t->gopen[ng] = ng;
            t->gcount[ng] = 0;
            t->gmark[ng] = 0;
            ng++;
        }
        if (++t->gcount[g] == AUGUR_TILING_LANES) {
            t->gopen[g] = g + 1;
            full++;
        }
        for (int s = 0; s < (ends[0] == ends[1] ? 1 : 2); s++) {
            t->lgroup[nlist] = g;
            t->lnext[nlist] = t->nhead[ends[s]];
            t->nhead[ends[s]] = nlist++;
        }
    }
    *nfull += full;
    return ng;
}

/* Checks what the computation relies on: a consistent CSR with entries. */
static int check_csr(const struct augur_csr *csr, uint32_t tile_size, struct augur_diag *diag)
{
    if (!csr)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "tiling: no matrix");
    if (tile_size == 0)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "tiling: the tile size must be at least 1, not 0");
    if (csr->nnz == 0 || csr->nrows == 0 || csr->ncols == 0)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "tiling: the matrix (%" PRIu32 " x %" PRIu32
                              ") has no entries to tile",
                              csr->nrows, csr->ncols);
    if (!csr->rowptr || !csr->col || csr->rowptr[0] != 0 || csr->rowptr[csr->nrows] != csr->nnz)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "tiling: the row pointers do not span the %" PRIu64 " entries",
                              csr->nnz);
    for (uint32_t i = 0; i < csr->nrows; i++) {
        if (csr->rowptr[i + 1] < csr->rowptr[i])
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "tiling: row %" PRIu32 " ends before it starts", i);
        for (uint64_t p = csr->rowptr[i]; p < csr->rowptr[i + 1]; p++)
            if (csr->col[p] >= csr->ncols)
                return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                      "tiling: row %" PRIu32 " has column %" PRIu32
                                      ", beyond the %" PRIu32 " columns",
                                      i, csr->col[p], csr->ncols);
    }
    return 0;
}

int augur_tiling_compute(const struct augur_csr *csr, uint32_t tile_size,
                         struct augur_tiling_stats *out, struct augur_diag *diag)
{
    struct tiler t;
    struct augur_tiling_stats st;
    uint64_t n, nrb, maxm = 0, ntiles = 0;
    int rc;

    memset(&t, 0, sizeof(t));
    if ((rc = check_csr(csr, tile_size, diag)) < 0)
        return rc;
    memset(&st, 0, sizeof(st));
    n = csr->nrows > csr->ncols ? csr->nrows : csr->ncols;
    t.ts = tile_size;
    t.nb = (n + tile_size - 1) / tile_size;
    nrb = ((uint64_t)csr->nrows + tile_size - 1) / tile_size;
    /* a tile holds at most the entries of its row block */
    for (uint64_t rb = 0; rb < nrb; rb++) {
        uint64_t r0 = rb * tile_size,
                 r1 = r0 + tile_size < csr->nrows ? r0 + tile_size : csr->nrows;

        if (csr->rowptr[r1] - csr->rowptr[r0] > maxm)
            maxm = csr->rowptr[r1] - csr->rowptr[r0];
    }
    t.bhead = augur_mallocarray(t.nb, sizeof(*t.bhead));
    t.bcount = augur_calloc(t.nb, sizeof(*t.bcount));
    t.bpos = augur_mallocarray(t.nb, sizeof(*t.bpos));
    t.touched = augur_mallocarray(t.nb, sizeof(*t.touched));
    t.eu = augur_mallocarray(maxm, sizeof(*t.eu));
    t.ev = augur_mallocarray(maxm, sizeof(*t.ev));
    t.nstamp = augur_calloc(n, sizeof(*t.nstamp));
    t.nhead = augur_mallocarray(n, sizeof(*t.nhead));
    t.lnext = augur_mallocarray(maxm, 2 * sizeof(*t.lnext));
    t.lgroup = augur_mallocarray(maxm, 2 * sizeof(*t.lgroup));
    t.gopen = augur_mallocarray(maxm, sizeof(*t.gopen));
    t.gmark = augur_mallocarray(maxm, sizeof(*t.gmark));
    t.gcount = augur_mallocarray(maxm, sizeof(*t.gcount));
    for (uint64_t b = 0; b < t.nb; b++)
        t.bhead[b] = NONE;

    for (uint64_t rb = 0; rb < nrb; rb++) {
        uint64_t r0 = rb * tile_size,
                 r1 = r0 + tile_size < csr->nrows ? r0 + tile_size : csr->nrows;
        uint64_t ntouched = 0, start = 0;

        if (csr->rowptr[r1] == csr->rowptr[r0])
            continue;
        /* the row block's entries by column block, row-major inside each (a stable sort) */
        for (uint64_t p = csr->rowptr[r0]; p < csr->rowptr[r1]; p++) {
            uint64_t cb = csr->col[p] / tile_size;

            if (t.bcount[cb]++ == 0)
                t.touched[ntouched++] = cb;
        }
        qsort(t.touched, ntouched, sizeof(*t.touched), augur_cmp_u64);
        for (uint64_t k = 0; k < ntouched; k++) {
            t.bpos[t.touched[k]] = start;
            start += t.bcount[t.touched[k]];
        }
        for (uint64_t i = r0; i < r1; i++)
            for (uint64_t p = csr->rowptr[i]; p < csr->rowptr[i + 1]; p++) {
                uint64_t slot = t.bpos[csr->col[p] / tile_size]++;

                t.eu[slot] = (uint32_t)i;
                t.ev[slot] = csr->col[p];
            }
        /* tiles (rb, cb) in column block order: colour, then group */
        start = 0;
        for (uint64_t k = 0; k < ntouched; k++) {
            uint64_t cb = t.touched[k], m = t.bcount[cb];

            colour_tile(&t, ntiles, rb, cb);
            st.ngroups += group_tile(&t, ntiles, t.eu + start, t.ev + start, m, &st.nfull);
            if (m > st.max_tile_edges)
                st.max_tile_edges = m;
            ntiles++;
            start += m;
            t.bcount[cb] = 0;
        }
    }

    st.tile_size = tile_size;
    st.nnodes = (uint32_t)n;
    st.nblocks = t.nb;
    st.nedges = csr->nnz;
    st.ntiles = ntiles;
    st.lanes_used = (double)st.nedges / (double)st.ngroups;
    st.simd_util = st.lanes_used / AUGUR_TILING_LANES;
    st.ntgroups = t.ncolors;
    st.avg_mimd = (double)ntiles / (double)t.ncolors;
    st.min_tiles = UINT64_MAX;
    for (size_t c = 0; c < t.ncolors; c++) {
        if (t.ctiles[c] < st.min_tiles)
            st.min_tiles = t.ctiles[c];
        if (t.ctiles[c] > st.max_tiles)
            st.max_tiles = t.ctiles[c];
    }
    *out = st;
    tiler_release(&t);
    return 0;
}
