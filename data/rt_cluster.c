/*
 * rt_cluster.c - exact global clustering coefficient of a square sparse
 * pattern, directed (Zhu et al. PACT'19 eq. 1) and undirected (eq. 2), averaged as in
 * eq. 3 and Algorithm 3 (module: data).
 */
#include <string.h>

#include "augur/data.h"

/*
 * Method. The symmetrised pattern S = A + A^T without its diagonal is read
 * row by row, merging A and its transpose, with a flag per entry (i, j): bit
 * 0 says A(i, j) is stored, bit 1 that A(j, i) is. Every triangle {a, b, c}
 * of S is found exactly once by orienting each edge from the endpoint of
 * lower (degree, id) rank to the higher one and, for each node a, marking its
 * out-neighbours and walking the out-neighbours of each of them (a -> b -> c
 * with c marked). Every
 * out-degree is then at most sqrt(2m), so hubs cost O(m^1.5) in total rather
 * than O(k^2) each. A triangle adds one to T_i of its three corners (eq. 2),
 * and, for the directed definition (eq. 1), to L_i of a corner i with arcs to
 * both other corners it adds the number of arcs between those two: every
 * pair j, k of N_i joined by an arc lies on the triangle {i, j, k} of S.
 */

#define ARC_FWD 1u /* A(u, v) is stored, for the entry (u, v) */
#define ARC_BWD 2u /* A(v, u) is stored */

/* An adjacency with a flag per entry. */
struct adj {
    uint64_t *ptr;
    uint32_t *idx;
    uint8_t *flag;
};

static void adj_release(struct adj *g)
{
    augur_free(g->ptr);
    augur_free(g->idx);
    augur_free(g->flag);
    memset(g, 0, sizeof(*g));
}

static int check_csr(const struct augur_csr *csr, struct augur_diag *diag)
{
    if (csr->nrows != csr->ncols)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "the clustering coefficient needs a square matrix, not %u x %u",
                              csr->nrows, csr->ncols);
    if (!csr->rowptr || csr->rowptr[0] != 0 || csr->rowptr[csr->nrows] != csr->nnz)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "csr row pointers do not run from 0 to nnz %llu",
                              (unsigned long long)csr->nnz);
    for (uint32_t i = 0; i < csr->nrows; i++) {
        uint64_t lo = csr->rowptr[i], hi = csr->rowptr[i + 1];

        if (lo > hi || hi > csr->nnz)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "csr row %u: row pointers out of order", i);
        for (uint64_t k = lo; k < hi; k++) {
            if (csr->col[k] >= csr->ncols || (k > lo && csr->col[k] <= csr->col[k - 1]))
                return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                      "csr row %u: column %u out of range or not ascending", i,
                                      csr->col[k]);
        }
    }
    return 0;
}

/* The transpose of A's off-diagonal pattern; rows come out sorted. */
static void transpose(const struct augur_csr *a, uint64_t **tptr_out, uint32_t **tidx_out)
{
    uint32_t n = a->nrows;
    uint64_t *tptr = augur_calloc((size_t)n + 1, sizeof(*tptr));
    uint32_t *tidx = augur_mallocarray(a->nnz ? a->nnz : 1, sizeof(*tidx));
    uint64_t *next;

    for (uint32_t i = 0; i < n; i++)
        for (uint64_t k = a->rowptr[i]; k < a->rowptr[i + 1]; k++)
            if (a->col[k] != i)
                tptr[a->col[k] + 1]++;
    for (uint32_t j = 0; j < n; j++)
        tptr[j + 1] += tptr[j];
    next = augur_mallocarray((size_t)n + 1, sizeof(*next));
    memcpy(next, tptr, ((size_t)n + 1) * sizeof(*next));
    for (uint32_t i = 0; i < n; i++)
        for (uint64_t k = a->rowptr[i]; k < a->rowptr[i + 1]; k++)
            if (a->col[k] != i)
                tidx[next[a->col[k]]++] = i;
    augur_free(next);
    *tptr_out = tptr;
    *tidx_out = tidx;
}

/*
 * Row i of S: row i of A (off-diagonal) merged with row i of A^T (tptr,
 * tidx), or, when tptr is NULL (A is known to be symmetric), row i of A with
 * both flags. With idx NULL, counts the row's entries into *nund and its arcs
 * (entries of A) into *ndir. Otherwise writes the entries (i, j) with j after
 * i in the (degree, id) order, the forward edges of the orientation, and
 * returns how many.
 */
static uint32_t merge_row(const struct augur_csr *a, const uint64_t *tptr, const uint32_t *tidx,
                          const uint32_t *deg, uint32_t i, uint32_t *nund, uint32_t *ndir,
                          uint32_t *idx, uint8_t *flag)
{
    uint64_t p = a->rowptr[i], pe = a->rowptr[i + 1], q = 0, qe = 0;
    uint32_t nu = 0, nd = 0, w = 0;

    if (tptr) {
        q = tptr[i];
        qe = tptr[i + 1];
    }
    for (;;) {
        uint32_t j;
        uint8_t f;

        while (p < pe && a->col[p] == i)
            p++;
        if (p < pe && (q >= qe || a->col[p] <= tidx[q])) {
            j = a->col[p++];
            f = tptr ? ARC_FWD : ARC_FWD | ARC_BWD;
            if (q < qe && tidx[q] == j) {
                f |= ARC_BWD;
                q++;
            }
        } else if (q < qe) {
            j = tidx[q++];
            f = ARC_BWD;
        } else {
            break;
        }
        if (!idx) {
            nu++;
            nd += f & ARC_FWD;
        } else if (deg[i] < deg[j] || (deg[i] == deg[j] && i < j)) {
            idx[w] = j;
            flag[w] = f;
            w++;
        }
    }
    if (!idx) {
        *nund = nu;
        *ndir = nd;
    }
    return w;
}

/*
 * Builds the degrees in S (k_i of eq. 2, deg) and in A without its diagonal
 * (k_i of eq. 1, ddeg), then the oriented S: each node keeps its neighbours
 * later in the (degree, id) order, at most sqrt(2m) of them. S itself is
 * never stored. symmetric says A = A^T is known, which saves the transpose.
 * Returns the number of edges of S.
 */
static uint64_t build(const struct augur_csr *a, bool symmetric, uint32_t *deg, uint32_t *ddeg,
                      struct adj *o)
{
    uint32_t n = a->nrows;
    uint64_t *tptr = NULL, sum = 0, cap;
    uint32_t *tidx = NULL;

    if (!symmetric)
        transpose(a, &tptr, &tidx);
    for (uint32_t i = 0; i < n; i++) {
        merge_row(a, tptr, tidx, NULL, i, &deg[i], &ddeg[i], NULL, NULL);
        sum += deg[i];
    }
    /*
     * Each edge of S is forward at exactly one end, so the lists hold sum / 2
     * entries. When symmetric is only claimed, a row may keep all of its
     * entries: room for sum keeps memory safe even if the claim is false
     * (pages never written are never touched).
     */
    cap = symmetric ? sum : sum / 2;
    o->ptr = augur_mallocarray((size_t)n + 1, sizeof(*o->ptr));
    o->idx = augur_mallocarray(cap ? cap : 1, sizeof(*o->idx));
    o->flag = augur_mallocarray(cap ? cap : 1, sizeof(*o->flag));
    o->ptr[0] = 0;
    for (uint32_t i = 0; i < n; i++)
        o->ptr[i + 1] = o->ptr[i] + merge_row(a, tptr, tidx, deg, i, NULL, NULL, o->idx + o->ptr[i],
                                              o->flag + o->ptr[i]);
    augur_free(tptr);
    augur_free(tidx);
    return sum / 2;
}

/* The number of arcs between two nodes given the flags of their entry (0, 1 or 2). */
static inline uint64_t arcs(uint8_t f)
{
    return (uint64_t)(f & ARC_FWD) + (uint64_t)((f & ARC_BWD) >> 1);
}

/*
 * Counts the triangles through each node (tri) and, when links is not NULL,
 * the directed links L_i of eq. 1. Returns the number of triangles.
 */
static uint64_t count_triangles(const struct adj *o, uint32_t n, uint64_t *tri, uint64_t *links)
{
    uint32_t *mark = augur_calloc(n ? n : 1, sizeof(*mark));
    uint8_t *mflag = augur_calloc(n ? n : 1, sizeof(*mflag));
    uint64_t total = 0;

    for (uint32_t a = 0; a < n; a++) {
        uint64_t lo = o->ptr[a], hi = o->ptr[a + 1];

        if (hi - lo < 2)
            continue; /* a is the lowest corner of its triangles: it needs two forward edges */
        for (uint64_t k = lo; k < hi; k++) {
            mark[o->idx[k]] = a + 1;
            mflag[o->idx[k]] = o->flag[k];
        }
        for (uint64_t k = lo; k < hi; k++) {
            uint32_t b = o->idx[k];
            uint8_t fab = o->flag[k];

            for (uint64_t m = o->ptr[b]; m < o->ptr[b + 1]; m++) {
                uint32_t c = o->idx[m];
                uint8_t fbc, fac;

                if (mark[c] != a + 1)
                    continue;
                fbc = o->flag[m];
                fac = mflag[c];
                tri[a]++;
                tri[b]++;
                tri[c]++;
                total++;
                if (!links)
                    continue;
                if ((fab & ARC_FWD) && (fac & ARC_FWD)) /* a -> b, a -> c */
                    links[a] += arcs(fbc);
                if ((fab & ARC_BWD) && (fbc & ARC_FWD)) /* b -> a, b -> c */
                    links[b] += arcs(fac);
                if ((fac & ARC_BWD) && (fbc & ARC_BWD)) /* c -> a, c -> b */
                    links[c] += arcs(fab);
            }
        }
    }
    augur_free(mark);
    augur_free(mflag);
    return total;
}

/* Eq. 3 over C_i = mult * counts[i] / (k_i (k_i - 1)); fills local when not NULL. */
static void average(struct augur_cc *cc, uint32_t n, const uint32_t *deg, const uint64_t *counts,
                    double mult, double *local)
{
    double sum = 0.0;

    cc->computed = true;
    cc->nnodes = n;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = deg[i];
        double c = 0.0;

        if (k > cc->max_degree)
            cc->max_degree = k;
        if (k < 2)
            cc->nlow_degree++; /* Algorithm 3: C_i = 0, still counted in n */
        else
            c = mult * (double)counts[i] / ((double)k * (double)(k - 1));
        if (local)
            local[i] = c;
        sum += c;
    }
    cc->global = n ? sum / n : 0.0;
    cc->mean_deg2 = n > cc->nlow_degree ? sum / (double)(n - cc->nlow_degree) : 0.0;
}

int augur_clustering_compute(const struct augur_csr *csr, const struct augur_cc_opts *opts,
                             struct augur_clustering *out, struct augur_diag *diag)
{
    static const struct augur_cc_opts defaults = { .undirected = true };
    struct augur_clustering res;
    struct adj o = { 0 };
    uint64_t *tri = NULL, *links = NULL, ntri, nedges;
    uint32_t *deg = NULL, *ddeg = NULL;
    uint32_t n = csr->nrows;
    size_t nn = n ? n : 1;
    int rc;

    if (!opts)
        opts = &defaults;
    rc = check_csr(csr, diag);
    if (rc)
        return rc;
    memset(&res, 0, sizeof(res));
    deg = augur_mallocarray(nn, sizeof(*deg));
    ddeg = augur_mallocarray(nn, sizeof(*ddeg));
    nedges = build(csr, opts->symmetric, deg, ddeg, &o);
    tri = augur_calloc(nn, sizeof(*tri));
    if (opts->directed)
        links = augur_calloc(nn, sizeof(*links));
    ntri = count_triangles(&o, n, tri, links);
    adj_release(&o);
    if (opts->undirected) {
        average(&res.undirected, n, deg, tri, 2.0, opts->local_undirected);
        res.undirected.nedges = nedges;
        res.undirected.nlinks = ntri;
    }
    if (opts->directed) {
        average(&res.directed, n, ddeg, links, 1.0, opts->local_directed);
        for (uint32_t i = 0; i < n; i++) {
            res.directed.nedges += ddeg[i];
            res.directed.nlinks += links[i];
        }
    }
    augur_free(deg);
    augur_free(ddeg);
    augur_free(tri);
    augur_free(links);
    *out = res;
    return 0;
}
