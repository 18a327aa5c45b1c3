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
    /* recording the schedule (augur_tiling_schedule() only; NULL otherwise) */
    uint64_t *ep;     /* maxm: the CSR position of each entry of the row block, as eu/ev */
    uint64_t *epos;   /* nnz: the CSR positions of the entries in tile order */
    uint32_t *egid;   /* nnz: the group within its tile of each, in the same order */
    uint64_t *tcolor; /* per tile in creation order: its tile group */
    uint64_t *tng;    /* and its groups */
    uint64_t *tm;     /* and its entries */
    size_t tilecap;
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
    augur_free(t->ep);
    augur_free(t->epos);
    augur_free(t->egid);
    augur_free(t->tcolor);
    augur_free(t->tng);
    augur_free(t->tm);
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
static uint64_t colour_tile(struct tiler *t, uint64_t k, uint64_t rb, uint64_t cb)
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
    return c;
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
 * of groups; *nfull receives the full ones, gid (when not NULL) each edge's group.
 */
static uint64_t group_tile(struct tiler *t, uint64_t k, const uint32_t *eu, const uint32_t *ev,
                           uint64_t m, uint64_t *nfull, uint32_t *gid)
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
        if (gid)
            gid[i] = (uint32_t)g;
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

/* The scratch of a tiling of n nodes, row blocks of at most maxm entries; nnz > 0: recording. */
static void tiler_alloc(struct tiler *t, uint64_t n, uint64_t maxm, uint64_t nnz)
{
    t->bhead = augur_mallocarray(t->nb, sizeof(*t->bhead));
    t->bcount = augur_calloc(t->nb, sizeof(*t->bcount));
    t->bpos = augur_mallocarray(t->nb, sizeof(*t->bpos));
    t->touched = augur_mallocarray(t->nb, sizeof(*t->touched));
    t->eu = augur_mallocarray(maxm, sizeof(*t->eu));
    t->ev = augur_mallocarray(maxm, sizeof(*t->ev));
    t->nstamp = augur_calloc(n, sizeof(*t->nstamp));
    t->nhead = augur_mallocarray(n, sizeof(*t->nhead));
    t->lnext = augur_mallocarray(maxm, 2 * sizeof(*t->lnext));
    t->lgroup = augur_mallocarray(maxm, 2 * sizeof(*t->lgroup));
    t->gopen = augur_mallocarray(maxm, sizeof(*t->gopen));
    t->gmark = augur_mallocarray(maxm, sizeof(*t->gmark));
    t->gcount = augur_mallocarray(maxm, sizeof(*t->gcount));
    if (nnz) {
        t->ep = augur_mallocarray(maxm, sizeof(*t->ep));
        t->epos = augur_mallocarray(nnz, sizeof(*t->epos));
        t->egid = augur_mallocarray(nnz, sizeof(*t->egid));
    }
    for (uint64_t b = 0; b < t->nb; b++)
        t->bhead[b] = NONE;
}

/* Keeps tile k (tile group c, ng groups, m entries at CSR positions ep) at entry done onwards. */
static void record_tile(struct tiler *t, uint64_t k, uint64_t c, uint64_t ng, uint64_t m,
                        const uint64_t *ep, uint64_t done)
{
    if (k == t->tilecap) {
        t->tilecap = t->tilecap ? 2 * t->tilecap : 1024;
        t->tcolor = augur_reallocarray(t->tcolor, t->tilecap, sizeof(*t->tcolor));
        t->tng = augur_reallocarray(t->tng, t->tilecap, sizeof(*t->tng));
        t->tm = augur_reallocarray(t->tm, t->tilecap, sizeof(*t->tm));
    }
    t->tcolor[k] = c;
    t->tng[k] = ng;
    t->tm[k] = m;
    memcpy(t->epos + done, ep, m * sizeof(*ep));
}

/*
 * Tiles, colours and groups csr into *out; with record, also keeps in t what
 * the schedule's arrays are made of (t->epos, egid, tcolor, tng, tm). The
 * caller releases t, also on failure.
 */
static int run_tiler(struct tiler *t, const struct augur_csr *csr, uint32_t tile_size, bool record,
                     struct augur_tiling_stats *out, struct augur_diag *diag)
{
    struct augur_tiling_stats st;
    uint64_t n, nrb, maxm = 0, ntiles = 0, done = 0;
    int rc;

    if ((rc = check_csr(csr, tile_size, diag)) < 0)
        return rc;
    if (record && (csr->nnz > UINT32_MAX ||
                   (rc = augur_memory_check(csr->nnz * (sizeof(uint64_t) + sizeof(uint32_t)),
                                            "the tiling schedule", diag)) != 0))
        return rc ? rc
                  : augur_diag_set(diag, AUGUR_ELIMIT, NULL, 0, 0,
                                   "tiling: %" PRIu64 " entries are more than a schedule holds",
                                   csr->nnz);
    memset(&st, 0, sizeof(st));
    n = csr->nrows > csr->ncols ? csr->nrows : csr->ncols;
    t->ts = tile_size;
    t->nb = (n + tile_size - 1) / tile_size;
    nrb = ((uint64_t)csr->nrows + tile_size - 1) / tile_size;
    /* a tile holds at most the entries of its row block */
    for (uint64_t rb = 0; rb < nrb; rb++) {
        uint64_t r0 = rb * tile_size,
                 r1 = r0 + tile_size < csr->nrows ? r0 + tile_size : csr->nrows;

        if (csr->rowptr[r1] - csr->rowptr[r0] > maxm)
            maxm = csr->rowptr[r1] - csr->rowptr[r0];
    }
    tiler_alloc(t, n, maxm, record ? csr->nnz : 0);

    for (uint64_t rb = 0; rb < nrb; rb++) {
        uint64_t r0 = rb * tile_size,
                 r1 = r0 + tile_size < csr->nrows ? r0 + tile_size : csr->nrows;
        uint64_t ntouched = 0, start = 0;

        if (csr->rowptr[r1] == csr->rowptr[r0])
            continue;
        /* the row block's entries by column block, row-major inside each (a stable sort) */
        for (uint64_t p = csr->rowptr[r0]; p < csr->rowptr[r1]; p++) {
            uint64_t cb = csr->col[p] / tile_size;

            if (t->bcount[cb]++ == 0)
                t->touched[ntouched++] = cb;
        }
        qsort(t->touched, ntouched, sizeof(*t->touched), augur_cmp_u64);
        for (uint64_t k = 0; k < ntouched; k++) {
            t->bpos[t->touched[k]] = start;
            start += t->bcount[t->touched[k]];
        }
        for (uint64_t i = r0; i < r1; i++)
            for (uint64_t p = csr->rowptr[i]; p < csr->rowptr[i + 1]; p++) {
                uint64_t slot = t->bpos[csr->col[p] / tile_size]++;

                t->eu[slot] = (uint32_t)i;
                t->ev[slot] = csr->col[p];
                if (record)
                    t->ep[slot] = p;
            }
        /* tiles (rb, cb) in column block order: colour, then group */
        start = 0;
        for (uint64_t k = 0; k < ntouched; k++) {
            uint64_t cb = t->touched[k], m = t->bcount[cb], c, ng;

            c = colour_tile(t, ntiles, rb, cb);
            ng = group_tile(t, ntiles, t->eu + start, t->ev + start, m, &st.nfull,
                            record ? t->egid + done : NULL);
            st.ngroups += ng;
            if (record)
                record_tile(t, ntiles, c, ng, m, t->ep + start, done);
            if (m > st.max_tile_edges)
                st.max_tile_edges = m;
            ntiles++;
            start += m;
            done += m;
            t->bcount[cb] = 0;
        }
    }

    st.tile_size = tile_size;
    st.nnodes = (uint32_t)n;
    st.nblocks = t->nb;
    st.nedges = csr->nnz;
    st.ntiles = ntiles;
    st.lanes_used = (double)st.nedges / (double)st.ngroups;
    st.simd_util = st.lanes_used / AUGUR_TILING_LANES;
    st.ntgroups = t->ncolors;
    st.avg_mimd = (double)ntiles / (double)t->ncolors;
    st.min_tiles = UINT64_MAX;
    for (size_t c = 0; c < t->ncolors; c++) {
        if (t->ctiles[c] < st.min_tiles)
            st.min_tiles = t->ctiles[c];
        if (t->ctiles[c] > st.max_tiles)
            st.max_tiles = t->ctiles[c];
    }
    *out = st;
    return 0;
}

int augur_tiling_compute(const struct augur_csr *csr, uint32_t tile_size,
                         struct augur_tiling_stats *out, struct augur_diag *diag)
{
    struct tiler t;
    int rc;

    memset(&t, 0, sizeof(t));
    rc = run_tiler(&t, csr, tile_size, false, out, diag);
    tiler_release(&t);
    return rc;
}

void augur_tiling_sched_release(struct augur_tiling_sched *s)
{
    if (!s)
        return;
    augur_free(s->tgroup_tile);
    augur_free(s->tile_group);
    augur_free(s->gcount);
    augur_free(s->gu);
    augur_free(s->gv);
    augur_free(s->gw);
    memset(s, 0, sizeof(*s));
}

/*
 * The schedule's arrays from what run_tiler() recorded: tiles sorted by
 * tile group (stably, so (I, J) order within one), each tile's groups
 * after the previous tile's, each group's lanes in the order its edges
 * joined it.
 */
static int lay_out(const struct tiler *t, const struct augur_csr *csr,
                   const struct augur_tiling_stats *st, struct augur_tiling_sched *s,
                   struct augur_diag *diag)
{
    uint64_t nt = st->ntiles, nc = st->ntgroups, slots = st->ngroups * AUGUR_TILING_LANES;
    uint64_t *cstart, *gbase;
    uint32_t *row;
    int rc = augur_memory_check(slots * (2 * sizeof(uint32_t) + sizeof(double)) +
                                    (2 * nt + 2 * nc) * sizeof(uint64_t) +
                                    st->ngroups * sizeof(uint32_t) + csr->nnz * sizeof(uint32_t),
                                "the tiling schedule", diag);

    if (rc)
        return rc;
    s->tile_size = st->tile_size;
    s->ntgroups = nc;
    s->ntiles = nt;
    s->ngroups = st->ngroups;
    s->tgroup_tile = augur_calloc(nc + 1, sizeof(*s->tgroup_tile));
    s->tile_group = augur_mallocarray(nt + 1, sizeof(*s->tile_group));
    s->gcount = augur_calloc(st->ngroups, sizeof(*s->gcount));
    s->gu = augur_calloc(slots, sizeof(*s->gu));
    s->gv = augur_calloc(slots, sizeof(*s->gv));
    s->gw = augur_calloc(slots, sizeof(*s->gw));
    cstart = augur_calloc(nc + 1, sizeof(*cstart));
    gbase = augur_mallocarray(nt, sizeof(*gbase)); /* each tile's first group, laid out */
    row = augur_mallocarray(csr->nnz, sizeof(*row));
    for (uint32_t i = 0; i < csr->nrows; i++)
        for (uint64_t p = csr->rowptr[i]; p < csr->rowptr[i + 1]; p++)
            row[p] = i;
    for (uint64_t k = 0; k < nt; k++)
        cstart[t->tcolor[k] + 1]++;
    for (uint64_t c = 0; c < nc; c++)
        cstart[c + 1] += cstart[c];
    memcpy(s->tgroup_tile, cstart, (nc + 1) * sizeof(*cstart));
    /* the r-th tile of the layout is the next of its tile group's, in creation order */
    for (uint64_t k = 0; k < nt; k++)
        s->tile_group[cstart[t->tcolor[k]]++] = k;
    for (uint64_t r = 0, base = 0; r < nt; r++) {
        uint64_t k = s->tile_group[r];

        s->tile_group[r] = base;
        gbase[k] = base;
        base += t->tng[k];
    }
    s->tile_group[nt] = st->ngroups;
    for (uint64_t k = 0, e = 0; k < nt; k++)
        for (uint64_t end = e + t->tm[k]; e < end; e++) {
            uint64_t p = t->epos[e], g = gbase[k] + t->egid[e];
            uint64_t slot = g * AUGUR_TILING_LANES + s->gcount[g]++;

            s->gu[slot] = row[p];
            s->gv[slot] = csr->col[p];
            s->gw[slot] = csr->val ? csr->val[p] : 1.0;
        }
    augur_free(cstart);
    augur_free(gbase);
    augur_free(row);
    return 0;
}

int augur_tiling_schedule(const struct augur_csr *csr, uint32_t tile_size,
                          struct augur_tiling_sched *out, struct augur_diag *diag)
{
    struct tiler t;
    struct augur_tiling_stats st;
    int rc;

    memset(&t, 0, sizeof(t));
    memset(out, 0, sizeof(*out));
    rc = run_tiler(&t, csr, tile_size, true, &st, diag);
    if (!rc)
        rc = lay_out(&t, csr, &st, out, diag);
    if (!rc)
        out->stats = st;
    else
        augur_tiling_sched_release(out);
    tiler_release(&t);
    return rc;
}
