/*
 * rt_features.c - Table I features of a sparse matrix (Zhu et al. PACT'19, after Sedaghati
 * et al.): non-zeros, non-zero blocks and their sizes per row, bandwidth and
 * row degree spread, over every row or a Random Row sample (module: data).
 */
#include <math.h>
#include <string.h>

#include "augur/data.h"

/* Running min, max, mean and variance (Welford: stable for long runs). */
struct acc {
    uint64_t n, min, max;
    double mean, m2;
};

static void acc_add(struct acc *a, uint64_t x)
{
    double d;

    if (a->n == 0 || x < a->min)
        a->min = x;
    if (a->n == 0 || x > a->max)
        a->max = x;
    a->n++;
    d = (double)x - a->mean;
    a->mean += d / (double)a->n;
    a->m2 += d * ((double)x - a->mean);
}

static struct augur_stat acc_stat(const struct acc *a)
{
    struct augur_stat s;

    memset(&s, 0, sizeof(s));
    if (a->n == 0)
        return s;
    s.min = a->min;
    s.max = a->max;
    s.mean = a->mean;
    s.std = a->m2 > 0 ? sqrt(a->m2 / (double)a->n) : 0.0; /* population deviation */
    s.cv = s.mean > 0 ? s.std / s.mean : 0.0;
    return s;
}

/* Checks the CSR invariants of one row; values are not read. */
static int check_row(const struct augur_csr *csr, uint32_t i, struct augur_diag *diag)
{
    uint64_t lo = csr->rowptr[i], hi = csr->rowptr[i + 1];

    if (lo > hi || hi > csr->nnz)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "csr row %u: row pointers %llu..%llu out of order or past nnz %llu",
                              i, (unsigned long long)lo, (unsigned long long)hi,
                              (unsigned long long)csr->nnz);
    for (uint64_t k = lo; k < hi; k++) {
        if (csr->col[k] >= csr->ncols)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "csr row %u: column %u out of range (%u columns)", i, csr->col[k],
                                  csr->ncols);
        if (k > lo && csr->col[k] <= csr->col[k - 1])
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "csr row %u: columns not strictly ascending (%u after %u)", i,
                                  csr->col[k], csr->col[k - 1]);
    }
    return 0;
}

/* What one row contributes; blocks are runs of adjacent columns or B-wide column blocks. */
struct row_sums {
    struct acc nnz_row, nnzb_row, snzb;
    uint64_t nempty, nblocks, bandwidth, nnz_seen;
    double sum_distance;
};

static void add_row(const struct augur_csr *csr, uint32_t i, uint32_t block_size,
                    struct row_sums *r)
{
    uint64_t lo = csr->rowptr[i], hi = csr->rowptr[i + 1];
    uint64_t nblocks = 0, size = 0, dist_sum = 0; /* a row's |i-j| sum fits: < 2^32 * 2^32 */
    uint32_t prev = 0;

    acc_add(&r->nnz_row, hi - lo);
    if (lo == hi)
        r->nempty++;
    for (uint64_t k = lo; k < hi; k++) {
        uint32_t j = csr->col[k];
        uint64_t d = j > i ? (uint64_t)(j - i) : (uint64_t)(i - j);
        bool same;

        dist_sum += d;
        if (d > r->bandwidth)
            r->bandwidth = d;
        if (block_size == AUGUR_BLOCK_RUNS)
            same = k > lo && j == prev + 1;
        else
            same = k > lo && j / block_size == prev / block_size;
        if (!same) {
            if (size)
                acc_add(&r->snzb, size);
            nblocks++;
            size = 0;
        }
        size++;
        prev = j;
    }
    if (size)
        acc_add(&r->snzb, size);
    acc_add(&r->nnzb_row, nblocks);
    r->nblocks += nblocks;
    r->nnz_seen += hi - lo;
    r->sum_distance += (double)dist_sum;
}

/* A count over the sampled rows scaled to every row. */
static uint64_t scale(uint64_t count, uint32_t nsampled, uint32_t nrows)
{
    if (nsampled == nrows || nsampled == 0)
        return count;
    return (uint64_t)llround((double)count * (double)nrows / (double)nsampled);
}

int augur_features_compute(const struct augur_csr *csr, const struct augur_feature_opts *opts,
                           struct augur_features *out, struct augur_diag *diag)
{
    static const struct augur_feature_opts defaults;
    struct augur_features f;
    struct row_sums r;
    uint32_t nsample, nsampled = 0;
    uint64_t state;
    bool sampled;
    int rc;

    if (!opts)
        opts = &defaults;
    if (!(opts->sample_fraction >= 0.0 && opts->sample_fraction <= 1.0))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "row sample fraction %g is not in [0, 1]", opts->sample_fraction);
    if (csr->nrows > 0 && (!csr->rowptr || csr->rowptr[0] != 0))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "csr row pointers do not start at 0");
    if (csr->nrows > 0 && csr->rowptr[csr->nrows] != csr->nnz)
        return augur_diag_set(
            diag, AUGUR_EINVAL, NULL, 0, 0, "csr row pointers end at %llu, not at nnz %llu",
            (unsigned long long)csr->rowptr[csr->nrows], (unsigned long long)csr->nnz);
    sampled = opts->sample_fraction > 0.0 && opts->sample_fraction < 1.0 && csr->nrows > 0;
    nsample = csr->nrows;
    if (sampled) {
        double want = round(opts->sample_fraction * (double)csr->nrows);

        nsample = want < 1.0 ? 1 : want >= (double)csr->nrows ? csr->nrows : (uint32_t)want;
    }

    memset(&r, 0, sizeof(r));
    state = opts->seed;
    for (uint32_t i = 0; i < csr->nrows && nsampled < nsample; i++) {
        /*
         * Selection sampling (Knuth's Algorithm S): row i is taken with
         * probability (still needed) / (rows left), which gives exactly
         * nsample rows, each subset equally likely, in row order.
         */
        if (sampled &&
            augur_rand_unit(&state) * (double)(csr->nrows - i) >= (double)(nsample - nsampled))
            continue;
        rc = check_row(csr, i, diag);
        if (rc)
            return rc;
        add_row(csr, i, opts->block_size, &r);
        nsampled++;
    }

    memset(&f, 0, sizeof(f));
    f.nrows = csr->nrows;
    f.ncols = csr->ncols;
    f.nnz = csr->nnz;
    f.sampled = sampled;
    f.nrows_sampled = nsampled;
    f.sample_fraction = sampled ? opts->sample_fraction : 1.0;
    f.seed = opts->seed;
    f.block_size = opts->block_size;
    f.nempty_rows = scale(r.nempty, nsampled, csr->nrows);
    f.bandwidth = r.bandwidth;
    f.mean_distance = r.nnz_seen ? r.sum_distance / (double)r.nnz_seen : 0.0;
    f.nnz_row = acc_stat(&r.nnz_row);
    f.nnz_tot = csr->nnz;
    f.nnz_frac = csr->nrows && csr->ncols
                     ? 100.0 * (double)csr->nnz / ((double)csr->nrows * (double)csr->ncols)
                     : 0.0;
    f.nnzb_tot = scale(r.nblocks, nsampled, csr->nrows);
    f.nnzb_row = acc_stat(&r.nnzb_row);
    f.snzb = acc_stat(&r.snzb);
    *out = f;
    return 0;
}
