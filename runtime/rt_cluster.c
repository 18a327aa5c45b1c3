/*
 * rt_cluster.c - exact global clustering coefficient of a square sparse
 * pattern, directed (seed 002 eq. 1) and undirected (eq. 2), averaged as in
 * eq. 3 and Algorithm 3 (module: runtime).
 */
#include <string.h>

#include "augur/runtime.h"

/*
 * Method. The symmetrised pattern S = A + A^T without its diagonal is built
 * with a flag per entry (i, j): bit 0 says A(i, j) is stored, bit 1 that
 * A(j, i) is. Every triangle {a, b, c} of S is found exactly once by
 * orienting each edge from the endpoint of lower (degree, id) rank to the
 * higher one and, for each node a, marking its out-neighbours and walking the
 * out-neighbours of each of them (a -> b -> c with c marked). Every
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
 * Merges row i of A (off-diagonal) and row i of A^T into S, writing entries
 * when idx is not NULL; returns the row's length in S.
 */
static uint64_t merge_row(const struct augur_csr *a, const uint64_t *tptr, const uint32_t *tidx,
                          uint32_t i, uint32_t *idx, uint8_t *flag)
{
    uint64_t p = a->rowptr[i], pe = a->rowptr[i + 1], q = tptr[i], qe = tptr[i + 1], n = 0;

    for (;;) {
        uint32_t j;
        uint8_t f;

        while (p < pe && a->col[p] == i)
            p++;
        if (p < pe && (q >= qe || a->col[p] <= tidx[q])) {
            j = a->col[p++];
            f = ARC_FWD;
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
        if (idx) {
            idx[n] = j;
            flag[n] = f;
        }
        n++;
    }
    return n;
}

/* Builds S = A + A^T without the diagonal, with arc flags. */
static void symmetrise(const struct augur_csr *a, struct adj *s)
{
    uint32_t n = a->nrows;
    uint64_t *tptr = NULL;
    uint32_t *tidx = NULL;

    transpose(a, &tptr, &tidx);
    s->ptr = augur_calloc((size_t)n + 1, sizeof(*s->ptr));
    for (uint32_t i = 0; i < n; i++)
        s->ptr[i + 1] = s->ptr[i] + merge_row(a, tptr, tidx, i, NULL, NULL);
    s->idx = augur_mallocarray(s->ptr[n] ? s->ptr[n] : 1, sizeof(*s->idx));
    s->flag = augur_mallocarray(s->ptr[n] ? s->ptr[n] : 1, sizeof(*s->flag));
    for (uint32_t i = 0; i < n; i++)
        merge_row(a, tptr, tidx, i, s->idx + s->ptr[i], s->flag + s->ptr[i]);
    augur_free(tptr);
    augur_free(tidx);
}

/* True when u comes before v in the (degree, id) order. */
static inline bool before(const uint64_t *ptr, uint32_t u, uint32_t v)
{
    uint64_t du = ptr[u + 1] - ptr[u], dv = ptr[v + 1] - ptr[v];

    return du < dv || (du == dv && u < v);
}

/* Keeps the edges of S that point forward in the (degree, id) order. */
static void orient(const struct adj *s, uint32_t n, struct adj *o)
{
    o->ptr = augur_calloc((size_t)n + 1, sizeof(*o->ptr));
    for (uint32_t u = 0; u < n; u++) {
        uint64_t c = 0;

        for (uint64_t k = s->ptr[u]; k < s->ptr[u + 1]; k++)
            c += before(s->ptr, u, s->idx[k]);
        o->ptr[u + 1] = o->ptr[u] + c;
    }
    o->idx = augur_mallocarray(o->ptr[n] ? o->ptr[n] : 1, sizeof(*o->idx));
    o->flag = augur_mallocarray(o->ptr[n] ? o->ptr[n] : 1, sizeof(*o->flag));
    for (uint32_t u = 0; u < n; u++) {
        uint64_t w = o->ptr[u];

        for (uint64_t k = s->ptr[u]; k < s->ptr[u + 1]; k++) {
            if (before(s->ptr, u, s->idx[k])) {
                o->idx[w] = s->idx[k];
                o->flag[w] = s->flag[k];
                w++;
            }
        }
    }
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

/*
 * Eq. 3 over counts[i] / (k_i (k_i - 1)) * mult, with k_i from deg; fills
 * local when not NULL.
 */
static void average(struct augur_cc *cc, uint32_t n, const uint64_t *deg_ptr, const uint8_t *flag,
                    bool directed, const uint64_t *counts, double mult, double *local)
{
    double sum = 0.0;

    cc->computed = true;
    cc->nnodes = n;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t k = deg_ptr[i + 1] - deg_ptr[i];
        double c = 0.0;

        if (directed) {
            k = 0;
            for (uint64_t e = deg_ptr[i]; e < deg_ptr[i + 1]; e++)
                k += flag[e] & ARC_FWD;
        }
        if (k > cc->max_degree)
            cc->max_degree = (uint32_t)k;
        if (k < 2)
            cc->nlow_degree++;
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
    struct adj s = { 0 }, o = { 0 };
    uint64_t *tri = NULL, *links = NULL, ntri;
    uint32_t n = csr->nrows;
    int rc;

    if (!opts)
        opts = &defaults;
    rc = check_csr(csr, diag);
    if (rc)
        return rc;
    memset(&res, 0, sizeof(res));
    symmetrise(csr, &s);
    orient(&s, n, &o);
    tri = augur_calloc(n ? n : 1, sizeof(*tri));
    if (opts->directed)
        links = augur_calloc(n ? n : 1, sizeof(*links));
    ntri = count_triangles(&o, n, tri, links);
    adj_release(&o);
    if (opts->undirected) {
        average(&res.undirected, n, s.ptr, s.flag, false, tri, 2.0, opts->local_undirected);
        res.undirected.nedges = s.ptr[n] / 2;
        res.undirected.nlinks = ntri;
    }
    if (opts->directed) {
        average(&res.directed, n, s.ptr, s.flag, true, links, 1.0, opts->local_directed);
        for (uint64_t e = 0; e < s.ptr[n]; e++)
            res.directed.nedges += s.flag[e] & ARC_FWD;
        for (uint32_t i = 0; i < n; i++)
            res.directed.nlinks += links[i];
    }
    adj_release(&s);
    augur_free(tri);
    augur_free(links);
    *out = res;
    return 0;
}
