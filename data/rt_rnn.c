/*
 * rt_rnn.c - Random Node Neighbor estimate of the global clustering
 * coefficient (Zhu et al. PACT'19 Algorithm 3), accumulated node by node without
 * building a sample (module: data).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "augur/data.h"

/* A sorted adjacency: the caller's CSR or the symmetrised pattern built here. */
struct graph {
    uint32_t n;
    const uint64_t *ptr;
    const uint32_t *idx;
    uint64_t *own_ptr;
    uint32_t *own_idx;
};

static void graph_release(struct graph *g)
{
    augur_free(g->own_ptr);
    augur_free(g->own_idx);
}

/* Checks what the estimate reads: row pointers in order, columns in range. */
static int check_csr(const struct augur_csr *a, struct augur_diag *diag)
{
    if (a->nrows != a->ncols)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "clustering needs a square matrix, not %u x %u", a->nrows, a->ncols);
    if (!a->rowptr || a->rowptr[0] != 0 || a->rowptr[a->nrows] != a->nnz)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "csr row pointers do not run from 0 to nnz %llu",
                              (unsigned long long)a->nnz);
    for (uint32_t i = 0; i < a->nrows; i++)
        if (a->rowptr[i] > a->rowptr[i + 1])
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "csr row %u: row pointers out of order", i);
    for (uint64_t k = 0; k < a->nnz; k++)
        if (a->col[k] >= a->ncols)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "csr entry %llu: column %u out of range (%u columns)",
                                  (unsigned long long)k, a->col[k], a->ncols);
    return 0;
}

/*
 * The pattern of A + A^T without the diagonal: A^T by counting (its rows
 * come out sorted), then each row of A merged with the same row of A^T.
 */
static void symmetrise(const struct augur_csr *a, struct graph *g)
{
    uint32_t n = a->nrows;
    uint64_t *tptr = augur_calloc((size_t)n + 2, sizeof(uint64_t));
    uint32_t *tidx = augur_mallocarray(a->nnz ? a->nnz : 1, sizeof(uint32_t));
    uint64_t *sptr = augur_calloc((size_t)n + 1, sizeof(uint64_t));
    uint32_t *sidx = augur_mallocarray(a->nnz ? 2 * a->nnz : 1, sizeof(uint32_t));
    uint64_t out = 0;

    for (uint64_t k = 0; k < a->nnz; k++)
        tptr[a->col[k] + 2]++;
    for (uint32_t j = 0; j < n; j++)
        tptr[j + 2] += tptr[j + 1];
    for (uint32_t i = 0; i < n; i++)
        for (uint64_t k = a->rowptr[i]; k < a->rowptr[i + 1]; k++)
            tidx[tptr[a->col[k] + 1]++] = i;
    /* tptr[j] .. tptr[j + 1] is now row j of A^T. */
    for (uint32_t i = 0; i < n; i++) {
        uint64_t p = a->rowptr[i], pe = a->rowptr[i + 1], q = tptr[i], qe = tptr[i + 1];
        uint32_t last = UINT32_MAX;

        while (p < pe || q < qe) {
            uint32_t v;

            if (q >= qe || (p < pe && a->col[p] <= tidx[q]))
                v = a->col[p++];
            else
                v = tidx[q++];
            if (v != i && v != last)
                sidx[out++] = v;
            last = v;
        }
        sptr[i + 1] = out;
    }
    augur_free(tptr);
    augur_free(tidx);
    g->n = n;
    g->own_ptr = sptr;
    g->own_idx = sidx;
    g->ptr = sptr;
    g->idx = sidx;
}

/* |N[u] \ {u, v}  intersected with N[v]|, both rows sorted; self loops never count. */
static uint64_t common(const struct graph *g, uint32_t u, uint32_t v)
{
    uint64_t p = g->ptr[u], pe = g->ptr[u + 1], q = g->ptr[v], qe = g->ptr[v + 1];
    uint64_t ku = pe - p, kv = qe - q, c = 0;

    if (kv == 0 || ku == 0)
        return 0;
    if (ku * (64 - (uint64_t)__builtin_clzll(kv)) < ku + kv) {
        /* Few neighbours of u against a long row of v: binary search each. */
        for (; p < pe; p++) {
            uint32_t w = g->idx[p];
            uint64_t lo = q, hi = qe;

            if (w == u || w == v)
                continue;
            while (lo < hi) {
                uint64_t mid = lo + (hi - lo) / 2;

                if (g->idx[mid] < w)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            c += lo < qe && g->idx[lo] == w;
        }
        return c;
    }
    while (p < pe && q < qe) {
        uint32_t a = g->idx[p], b = g->idx[q];

        if (a < b) {
            p++;
        } else if (b < a) {
            q++;
        } else {
            c += a != u && a != v;
            p++;
            q++;
        }
    }
    return c;
}

/* The low `bits` bits of t in reverse order. */
static uint64_t bit_reverse(uint64_t t, unsigned bits)
{
    uint64_t r = 0;

    for (unsigned b = 0; b < bits; b++, t >>= 1)
        r = (r << 1) | (t & 1);
    return r;
}

/*
 * The nodes ranked by degree, nodes of one degree in random order: a
 * Fisher-Yates shuffle, then a stable counting sort by degree.
 */
static uint32_t *degree_order(const uint32_t *deg, uint32_t n, uint64_t *state)
{
    uint32_t *perm = augur_mallocarray(n, sizeof(uint32_t));
    uint32_t *order = augur_mallocarray(n, sizeof(uint32_t));
    uint32_t maxk = 0;
    uint64_t *start;

    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = augur_rand_below(state, i + 1);

        perm[i] = perm[j];
        perm[j] = i;
        if (deg[i] > maxk)
            maxk = deg[i];
    }
    start = augur_calloc((size_t)maxk + 2, sizeof(uint64_t));
    for (uint32_t i = 0; i < n; i++)
        start[deg[i] + 1]++;
    for (uint32_t k = 0; k <= maxk; k++)
        start[k + 1] += start[k];
    for (uint32_t i = 0; i < n; i++)
        order[start[deg[perm[i]]]++] = perm[i];
    augur_free(start);
    augur_free(perm);
    return order;
}

/* A drawn node's rank in the degree order and its local coefficient. */
struct draw {
    uint32_t rank;
    double c;
};

static int by_rank(const void *a, const void *b)
{
    uint32_t x = ((const struct draw *)a)->rank, y = ((const struct draw *)b)->rank;

    return (x > y) - (x < y);
}

/*
 * The standard error of the mean of the draws: the successive-difference
 * variance estimator of a systematic sample, in degree order (the draws
 * are spread evenly over the degree ranking, so neighbours in it differ by
 * what the degrees do not explain), with the finite population correction.
 * NAN for fewer than two draws of a larger graph. Sorts draws.
 */
static double standard_error(struct draw *draws, uint32_t ndraws, uint32_t n)
{
    double ss = 0.0;

    if (ndraws >= n)
        return 0.0;
    if (ndraws < 2)
        return NAN;
    qsort(draws, ndraws, sizeof(*draws), by_rank);
    for (uint32_t i = 1; i < ndraws; i++) {
        double d = draws[i].c - draws[i - 1].c;

        ss += d * d;
    }
    return sqrt((1.0 - (double)ndraws / n) * ss / (2.0 * (ndraws - 1)) / ndraws);
}

/* Whether the draws so far meet the error target (sorts a copy, *scratch grown to hold it). */
static bool precise_enough(const struct draw *draws, struct draw **scratch, uint32_t ndraws,
                           uint32_t n, uint32_t linked, double total, double rel_error)
{
    double se;

    if (linked < AUGUR_RNN_MIN_LINKED)
        return false;
    *scratch = augur_reallocarray(*scratch, ndraws, sizeof(**scratch));
    memcpy(*scratch, draws, (size_t)ndraws * sizeof(*draws));
    se = standard_error(*scratch, ndraws, n);
    return isfinite(se) && se <= rel_error * total / ndraws;
}

int augur_clustering_estimate(const struct augur_csr *csr, const struct augur_rnn_opts *opts,
                              struct augur_cc_estimate *out, struct augur_diag *diag)
{
    struct augur_cc_estimate e;
    struct graph g;
    uint32_t *deg = NULL, *order = NULL, rot, next_check = 0, cap;
    struct draw *draws = NULL, *scratch = NULL;
    uint64_t state, m = 0;
    unsigned bits;
    double total = 0.0, want;
    int rc;

    memset(&g, 0, sizeof(g));
    if (!(opts->rate > 0.0 && opts->rate <= 1.0))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "sampling rate %g is not in (0, 1]",
                              opts->rate);
    if (!(opts->rel_error == 0.0 || (opts->rel_error > 0.0 && opts->rel_error < 1.0)))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "relative error target %g is not 0 (none) or in (0, 1)",
                              opts->rel_error);
    rc = check_csr(csr, diag);
    if (rc)
        return rc;
    if (csr->nrows == 0)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "the graph has no nodes: no clustering coefficient");
    if (opts->directed || opts->symmetric) {
        g.n = csr->nrows;
        g.ptr = csr->rowptr;
        g.idx = csr->col;
    } else {
        symmetrise(csr, &g);
    }
    /* k of every node and m: arcs without self loops (a binary search per row for the diagonal). */
    deg = augur_mallocarray(g.n, sizeof(uint32_t));
    for (uint32_t i = 0; i < g.n; i++) {
        uint64_t lo = g.ptr[i], hi = g.ptr[i + 1], k = hi - lo;

        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;

            if (g.idx[mid] < i)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < g.ptr[i + 1] && g.idx[lo] == i)
            k--;
        deg[i] = (uint32_t)k;
        m += k;
    }

    memset(&e, 0, sizeof(e));
    e.rate = opts->rate;
    e.rel_error = opts->rel_error;
    e.seed = opts->seed;
    e.directed = opts->directed;
    e.nnodes = g.n;
    e.nedges = m;
    want = opts->rate * (double)m;
    state = opts->seed;
    order = degree_order(deg, g.n, &state);
    /* the draws' ranks and coefficients, grown as they come: a rate draws a share of n */
    cap = 1024;
    draws = augur_mallocarray(cap, sizeof(*draws));
    /*
     * Nodes in a stratified order: ranked by degree (ties in random order),
     * visited at the bit-reversed positions of a counter, rotated by a random
     * offset. Every node is drawn once; whatever the number drawn, each node
     * is equally likely to be among the first N (N / n exactly when N is a
     * power of two), and the first N are spread evenly over the degree ranking
     * (stratified sampling with proportional allocation), which removes the
     * variance that comes from drawing too many or too few nodes of a degree.
     * Unlike Algorithm 3, the stopping test runs for nodes with k < 2 too (its
     * "continue" skips it), so the loop ends on any graph. With an error
     * target the test is checked past the rate, each time the draws have
     * grown by an eighth (each check sorts them).
     */
    bits = 0;
    while (bits < 32 && (UINT64_C(1) << bits) < g.n)
        bits++;
    rot = augur_rand_below(&state, g.n);
    for (uint64_t t = 0; t < (UINT64_C(1) << bits); t++) {
        uint64_t pos = bit_reverse(t, bits), links = 0;
        uint32_t u, rank;
        uint64_t k;
        double c = 0.0;

        if (pos >= g.n)
            continue;
        pos += rot;
        rank = (uint32_t)(pos >= g.n ? pos - g.n : pos);
        u = order[rank];
        k = deg[u];
        if (k < 2) {
            e.nodes_low++;
        } else {
            for (uint64_t p = g.ptr[u]; p < g.ptr[u + 1]; p++)
                if (g.idx[p] != u)
                    links += common(&g, u, g.idx[p]);
            c = (double)links / ((double)k * (double)(k - 1));
            total += c;
            e.nodes_linked += links > 0;
        }
        if (e.nodes_sampled == cap) {
            cap = cap > g.n / 2 ? g.n : 2 * cap;
            draws = augur_reallocarray(draws, cap, sizeof(*draws));
        }
        draws[e.nodes_sampled].rank = rank;
        draws[e.nodes_sampled].c = c;
        e.nodes_sampled++;
        e.edges_sampled += k;
        if ((double)e.edges_sampled < want)
            continue;
        if (opts->rel_error == 0.0)
            break;
        if (e.nodes_sampled >= next_check) {
            if (precise_enough(draws, &scratch, e.nodes_sampled, g.n, e.nodes_linked, total,
                               opts->rel_error))
                break;
            next_check = e.nodes_sampled + e.nodes_sampled / 8 + 1;
        }
    }
    e.value = e.nodes_sampled ? total / e.nodes_sampled : 0.0;
    e.std_error = standard_error(draws, e.nodes_sampled, g.n);
    *out = e;
    augur_free(scratch);
    augur_free(draws);
    augur_free(order);
    augur_free(deg);
    graph_release(&g);
    return 0;
}
